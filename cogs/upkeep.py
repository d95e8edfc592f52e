"""A tidy server: finished games' threads archived a day later, unstarted lobbies expired after
a week, and a game whose thread a moderator deleted ended cleanly."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.platform import clicks, threads
from cogs.platform.lobby import lobby_message
from tables.chores import ARCHIVE_AFTER, ChoreKind, Chores
from tables.errors import LobbyClosed, NoSuchTable, TableError
from tables.models import Notice, TableStatus, Update
from tables.service import TableService

log = logging.getLogger("meeple.cogs.upkeep")

ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED)


class Upkeep(commands.Cog):
    """Chores on a clock that survives restarts (tables/chores.py), run every `interval` seconds."""

    interval = 300.0
    boards_per_round = 20
    """Boards looked at per round for a moderator's deletion (one request each): a bound on the
    requests, whatever the number of games; the reminders look at theirs in any case."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: TableService = bot.tables
        self.chores = Chores(self.service)
        self._task: asyncio.Task[None] | None = None
        self._answering: asyncio.Task[int] | None = None
        self._board_cursor = 0
        """The last game whose board a round looked at."""

    async def cog_load(self) -> None:
        """Arm the archive clock of every game that ends from now on; start the rounds when ready;
        answer the clicks the last process acknowledged and never finished."""
        self.service.subscribe(self.table_changed)
        # Read now, before this process can take a click: every row is the last process's.
        owed = await clicks.owed(self.service.store, self.service.shards)
        if owed:
            self._answering = asyncio.create_task(
                clicks.answer_owed(self.bot, self.service.store, owed), name="meeple-owed-clicks"
            )
        if self.bot.is_ready():
            self.start()

    async def cog_unload(self) -> None:
        """Stop the rounds."""
        for task in (self._task, self._answering):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start the rounds (idempotent)."""
        self.start()

    def start(self) -> None:
        """Run `tidy` now and then every `interval` seconds until the service closes."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._rounds(), name="meeple-upkeep")

    async def _rounds(self) -> None:
        while not self.service.closed:
            try:
                await self.tidy()
                await self.check_boards()
            except Exception:
                if self.service.closed:
                    return  # stopping: the store went away under the round
                log.exception("upkeep round failed; trying again later")
            wait = self.service.pause(self.interval)
            if not await self.service.idle_wait(wait, "upkeep: waiting for the next round"):
                return

    async def table_changed(self, item: Update | Notice) -> None:
        """A game that just ended gets its thread archived ARCHIVE_AFTER later."""
        table = item.table
        if isinstance(item, Update) and table.status in ENDED and table.thread_id is not None:
            await self.chores.schedule(
                table.id, ChoreKind.ARCHIVE_THREAD, self.service.clock() + ARCHIVE_AFTER
            )

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted: end its game (no result) and say so in the channel."""
        table = await self.service.table_for_thread(payload.thread_id)
        games = self.bot.get_cog("Games")
        if table is not None and table.status is TableStatus.PLAYING and games is not None:
            await threads.end_for_lost_thread(games.presenter, table)

    async def check_boards(self) -> int:
        """Look at the next `boards_per_round` boards of games in play (in turn, round after round);
        post again any a moderator deleted. Return how many were posted again."""
        games = self.bot.get_cog("Games")
        if games is None:
            return 0
        boards = await self.service.boards_in_play(self._board_cursor, self.boards_per_round)
        if len(boards) < self.boards_per_round and self._board_cursor:
            # The end of the list: go on from the first game.
            boards += await self.service.boards_in_play(0, self.boards_per_round - len(boards))
        restored = 0
        for table_id, thread_id, message_id in dict.fromkeys(boards):
            self._board_cursor = table_id
            try:
                if not await threads.message_deleted(games.presenter, thread_id, message_id):
                    continue
                # Only now is the game loaded (the rounds must not load every game in play).
                table = await self.service.get(table_id)
                restored += await threads.board_restored(games.presenter, table)
            except (TableError, discord.HTTPException) as exc:
                log.info("table %s: board not checked: %s", table_id, exc)
        return restored

    async def tidy(self, now: float | None = None) -> int:
        """Do every chore due at `now` (default: the service clock); return how many were done."""
        now = self.service.clock() if now is None else now
        done = 0
        for table_id, kind in await self.chores.due(now):
            if kind is ChoreKind.ARCHIVE_THREAD and await self._archive(table_id):
                done += 1
        for lobby in await self.chores.expired_lobbies(now):
            if await self._expire(lobby.id, lobby.host_id):
                done += 1
        return done

    async def _archive(self, table_id: int) -> bool:
        try:
            table = await self.service.get(table_id)
        except NoSuchTable:
            await self.chores.done(table_id, ChoreKind.ARCHIVE_THREAD)
            return False
        games = self.bot.get_cog("Games")
        thread = await games.presenter.channel(table.thread_id) if games and table.thread_id else None
        try:
            if thread is not None and table.status in ENDED:
                await threads.archive(thread)
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                log.info("table %s: could not archive its thread yet: %s", table_id, exc)
                return False
            log.warning("table %s: cannot archive its thread: %s", table_id, exc)
        await self.chores.done(table_id, ChoreKind.ARCHIVE_THREAD)
        return thread is not None

    async def _expire(self, table_id: int, host_id: int) -> bool:
        try:
            table = await self.service.cancel(table_id, host_id)
        except (LobbyClosed, NoSuchTable):
            return False
        except TableError as exc:
            log.warning("table %s: could not expire the lobby: %s", table_id, exc)
            return False
        log.info("table %s: lobby expired (nobody started it)", table_id)
        games = self.bot.get_cog("Games")
        channel = await games.presenter.channel(table.channel_id) if games else None
        lobby_message_id = (await self.service.store.board(table_id)).lobby_message_id
        if channel is not None and lobby_message_id is not None:
            try:
                await channel.get_partial_message(lobby_message_id).edit(
                    **lobby_message(table), allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as exc:
                log.info("table %s: could not update the expired lobby's message: %s", table_id, exc)
        return True


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Upkeep(bot))
