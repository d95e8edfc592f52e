"""Telling a player it is their move: in the thread or by direct message, never in their quiet hours.

The table service holds a turn's ping over the player's quiet hours (a PING clock, see
tables.waits) and moves reminders and clocks to their end; this module only routes what may
be sent now: a mention in the game's thread, or a direct message with a link to the board
for players who asked for it. When Discord refuses a direct message (the player closed them)
the thread is used from then on, and the player is told so once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import board_messages, text, threads
from engine.words import N_, Words, words
from tables.models import Notice, NoticeKind, Table, TableStatus
from tables.players import Notify
from tables.service import TableService
from tables.waits import is_held

log = logging.getLogger("meeple.cogs.notify")

ChannelLookup = Callable[[int], Awaitable[Any]]

CLOSED_DMS = N_(
    "-# 📪 I cannot send you direct messages (they are closed to me), so I mention you here from"
    " now on; `/settings` changes how you are told."
)
"""Added on a line of its own to the mention that replaces a refused DM (in the table's language)."""


@dataclass(frozen=True, slots=True)
class Route:
    """Where the turn pings of one board go."""

    in_thread: set[int]
    """Seats mentioned on the board."""
    by_dm: tuple[int, ...]
    """User ids told by direct message, with a link, once the board is out."""
    held: set[int]
    """Seats whose players are in their quiet hours: pinged when those end (TableService.hold_pings)."""


class Notifier:
    """Routes turn pings and reminders by each player's settings."""

    def __init__(self, client: discord.Client, service: TableService, channel: ChannelLookup) -> None:
        self.client = client
        self.service = service
        self.channel = channel

    def wants_dm(self, user_id: int) -> bool:
        """Whether the player asked to be told by direct message (and those have not failed)."""
        settings = self.service.players.get(user_id)
        return settings.notify is Notify.DM and not settings.dm_failed

    def route(self, table: Table, seats: Iterable[int]) -> Route:
        """Split the seats to ping: mentioned in the thread, told by DM, or held over quiet hours.

        An optional decision is never sent by DM (it pings nobody: the presenter decides for
        the thread).
        """
        in_thread: set[int] = set()
        by_dm: list[int] = []
        held: set[int] = set()
        now = self.service.clock()
        for seat in sorted(seats):
            if not 0 <= seat < len(table.seats) or is_held(table, seat):
                continue
            user_id = table.seats[seat].user_id
            if self.service.players.quiet_until(user_id, now) is not None:
                held.add(seat)
                continue
            prompt = table.prompt_for(seat)
            optional = prompt is not None and prompt.optional
            if user_id is not None and not optional and self.wants_dm(user_id):
                by_dm.append(user_id)
            else:
                in_thread.add(seat)
        return Route(in_thread, tuple(by_dm), held)

    async def send_turn_dms(self, table_id: int, user_ids: Iterable[int]) -> None:
        """Tell players by DM that it is their move, with a link to the new board."""
        ids = tuple(user_ids)
        if not ids:
            return
        table = await self.service.get(table_id)
        for user_id in ids:
            try:
                await self.tell(table, user_id, N_("🎲 It is your move in {where}."))
            except discord.HTTPException as exc:
                # The board is out and stays so: a lost DM must not make the keeper post it again.
                log.warning("table %s: could not tell %s of their move: %s", table.id, user_id, exc)

    async def handles(self, notice: Notice) -> bool:
        """Deliver a held turn ping (NoticeKind.TURN); False leaves the notice to the presenter."""
        if notice.kind is not NoticeKind.TURN:
            return False
        if notice.user_id is not None and notice.table.status is TableStatus.PLAYING:
            await self.tell(notice.table, notice.user_id, N_("🎲 It is your move in {where}."))
        return True

    async def remind_by_dm(self, notice: Notice) -> str | None:
        """Send a reminder by DM to a player who asked for DMs.

        None: the player is reminded in the thread as usual. "": the DM went out, so the thread's
        reminder (which carries the others' vote) must not ping them. Otherwise the DM was refused:
        ping them in the thread, with this note added (said once: the thread is used from now on).
        """
        user_id = notice.user_id
        if notice.kind is not NoticeKind.REMINDER or user_id is None or not self.wants_dm(user_id):
            return None
        w = self.words_for(notice.table, user_id)
        link = await self.link(notice.table)
        line = w.gettext("⏰ It is still your move in {where}.", where=where(notice.table, link, w))
        try:
            await self._send_dm(user_id, line)
            return ""
        except discord.Forbidden:
            await self.service.players.update(user_id, dm_failed=True)
            return "\n" + text.spoken(notice.table).gettext(CLOSED_DMS)
        except discord.HTTPException as exc:
            log.warning("table %s: DM to %s failed (%s); mentioning instead", notice.table.id, user_id, exc)
            return None

    def words_for(self, table: Table, user_id: int) -> Words:
        """The words of a direct message: the language the player chose, else their table's."""
        return words(self.service.players.get(user_id).language or table.language)

    async def tell(self, table: Table, user_id: int, message: str) -> None:
        """One line to a player (`message`, its {where} filled): by DM if they asked for it (and it works),
        in their words, else a mention in the thread, in the table's language."""
        link = await self.link(table)
        if self.wants_dm(user_id):
            w = self.words_for(table, user_id)
            if await self._dm(table, user_id, w.gettext(message, where=where(table, link, w)), message):
                return
        w = text.spoken(table)
        await self._mention(table, user_id, w.gettext(message, where=where(table, link, w)))

    async def _dm(self, table: Table, user_id: int, line: str, message: str) -> bool:
        """Send a DM; on refusal switch the player to the thread, saying so there once (delivered: True)."""
        try:
            await self._send_dm(user_id, line)
            return True
        except discord.Forbidden:
            log.info("table %s: user %s takes no direct messages; using the thread", table.id, user_id)
        except discord.HTTPException as exc:
            log.warning("table %s: DM to %s failed (%s); mentioning instead", table.id, user_id, exc)
            return False
        await self.service.players.update(user_id, dm_failed=True)
        w = text.spoken(table)
        said = w.gettext(message, where=where(table, await self.link(table), w))
        await self._say_in_thread(table, f"<@{user_id}> {said}\n{w.gettext(CLOSED_DMS)}", user_id)
        return True

    async def _send_dm(self, user_id: int, line: str) -> None:
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        await user.send(line, allowed_mentions=discord.AllowedMentions.none())

    async def link(self, table: Table) -> str | None:
        """The table's current board address, read from the board ledger."""
        return await board_messages.link(self.service, table)

    async def _mention(self, table: Table, user_id: int, line: str) -> None:
        await self._say_in_thread(table, f"<@{user_id}> {line}", user_id)

    async def _say_in_thread(self, table: Table, content: str, user_id: int) -> None:
        if table.thread_id is None:
            return
        thread = await self.channel(table.thread_id)
        if thread is None:
            return
        await threads.reopen(thread)
        await thread.send(content, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))


def where(table: Table, link: str | None, w: Words | None = None) -> str:
    """ "table #12 (Buttons): <link>" for a message that points at a game (the table's words by default)."""
    w = w or text.spoken(table)
    ui = get_ui(table.game)
    game = text.discord_escape(w.gettext(ui.title))
    if link is None:
        return w.gettext("table #{table} ({game})", table=table.id, game=game)
    return w.gettext("table #{table} ({game}): {link}", table=table.id, game=game, link=link)
