"""One test lane: a fake Discord, the real bot.py against it, its SQLite file read from outside,
scripted players, and the checks the chaos and fault harnesses share."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.botprocess import BotProcess, child_env
from tests.e2e.players import Item, choices, version_of
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, User

TURN_ID = re.compile(r"^mp:(act|grp|pick|main|undo):\d+:(\d+)(:|$)")
"""Custom ids of a board's turn components (they carry the state version they were built for)."""
FINAL_MARK = "🏁"
"""The final board's first line (cogs/platform/text.final_text)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """How the harnesses seat a game: `humans` scripted people and `bots` bot seats."""

    game: str
    humans: int = 1
    bots: int = 1
    options: tuple[tuple[str, Any], ...] = ()


SEATING: dict[str, GameSpec] = {}
"""Seating per game where not one human and one bot (every registered game today)."""


def games_on_discord() -> list[GameSpec]:
    """Every game with a Discord mapping (cogs/games), in id order."""
    from cogs.games import UIS

    return [SEATING.get(game, GameSpec(game)) for game in sorted(UIS)]


@dataclass(frozen=True, slots=True)
class TableRow:
    """What the SQLite file says about one table."""

    status: str
    version: int
    thread_id: int | None
    lobby_message_id: int | None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One committed entry of a table's action log."""

    seq: int
    version: int
    seat: int
    action: str
    source: str
    undone: bool


class Database:
    """Read-only looks into the bot's SQLite file (the bot may be dead or alive)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        for attempt in range(20):
            try:
                with contextlib.closing(self._connect()) as db:
                    return db.execute(sql, args).fetchall()
            except sqlite3.OperationalError:
                if attempt == 19:
                    raise
                time.sleep(0.05)
        return []

    def table(self, table_id: int) -> TableRow | None:
        """A table's status, version and messages; None when it is not (yet) there."""
        rows = self._query(
            "SELECT t.status, t.version, t.thread_id, b.lobby_message_id FROM tables t"
            " LEFT JOIN boards b ON b.table_id = t.id WHERE t.id = ?",
            (table_id,),
        )
        if not rows:
            return None
        status, version, thread_id, lobby = rows[0]
        return TableRow(str(status), int(version), thread_id, lobby)

    def board_recorded(self, table_id: int) -> bool:
        """Whether the bot has recorded its board as showing the stored version, nothing pending
        (the negation of tables.store.BoardRecord.behind; a table without a thread counts as recorded)."""
        rows = self._query(
            "SELECT t.version, t.thread_id, b.version, b.posting, b.retired FROM tables t"
            " JOIN boards b ON b.table_id = t.id WHERE t.id = ?",
            (table_id,),
        )
        if not rows:
            return False
        version, thread_id, board_version, posting, retired = rows[0]
        if thread_id is None:
            return True
        return board_version is not None and board_version >= version and posting is None and retired == "[]"

    def newest_table(self, channel_id: int) -> int | None:
        """The id of the newest table opened in a channel."""
        if not self.path.exists():
            return None
        rows = self._query("SELECT MAX(id) FROM tables WHERE channel_id = ?", (channel_id,))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    def actions(self, table_id: int) -> list[ActionRow]:
        """A table's committed action log, in order (packed into one row once the game ended)."""
        packed = self._query("SELECT moves FROM packed_logs WHERE table_id = ?", (table_id,))
        if packed:
            blob = packed[0][0]
            text = zlib.decompress(blob).decode() if isinstance(blob, bytes) else str(blob)
            moves = sorted(json.loads(text), key=lambda m: int(m[0]))
            return [
                ActionRow(
                    int(m[0]),
                    int(m[1]),
                    int(m[2]),
                    json.dumps(m[3], sort_keys=True, separators=(",", ":")),
                    str(m[4]),
                    bool(m[6]),
                )
                for m in moves
            ]
        rows = self._query(
            "SELECT seq, version, seat, action, source, undone FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,),
        )
        return [
            ActionRow(int(s), int(v), int(seat), str(a), str(src), bool(u)) for s, v, seat, a, src, u in rows
        ]

    def seat_users(self, table_id: int) -> dict[int, int]:
        """Seat number to user id, for seats people hold."""
        rows = self._query(
            "SELECT seat, user_id FROM seats WHERE table_id = ? AND user_id IS NOT NULL", (table_id,)
        )
        return {int(seat): int(uid) for seat, uid in rows}


def turn_versions(msg: Message) -> list[int]:
    """The versions of a message's enabled turn components."""
    found = []
    for item in msg.items():
        match = TURN_ID.match(str(item.get("custom_id", "")))
        if match and not item.get("disabled"):
            found.append(int(match.group(2)))
    return found


def live_boards(fake: FakeDiscord, thread_id: int) -> list[Message]:
    """Messages everyone sees in a thread that still offer turn buttons."""
    return [m for m in fake.channel_messages(thread_id) if turn_versions(m)]


@dataclass(slots=True)
class BoardCheck:
    """How the thread compares with the stored table."""

    behind: bool
    duplicates: bool
    why: str


def check_board(fake: FakeDiscord, row: TableRow | None) -> BoardCheck:
    """Whether the newest board shows the stored version, and whether several boards are live."""
    if row is None:
        return BoardCheck(False, False, "no table")
    if row.status in ("lobby", "abandoned", "cancelled"):
        return BoardCheck(False, False, row.status)
    if row.thread_id is None:
        return BoardCheck(True, False, f"{row.status} at v{row.version} without a thread")
    if row.thread_id not in fake.channels:
        return BoardCheck(True, False, f"thread {row.thread_id} is gone")
    live = live_boards(fake, row.thread_id)
    duplicates = len(live) > 1
    dup = f"; {len(live)} live boards" if duplicates else ""
    if row.status == "finished":
        shown = fake.channel_messages(row.thread_id)
        final = bool(shown) and FINAL_MARK in shown[-1].text()
        if not final or live:
            return BoardCheck(True, duplicates, f"finished at v{row.version}, no final board shown{dup}")
        return BoardCheck(False, duplicates, "finished")
    if not live:
        return BoardCheck(True, False, f"playing at v{row.version}, no live board")
    shown_version = max(turn_versions(live[-1]))
    if shown_version < row.version:
        return BoardCheck(True, duplicates, f"stored v{row.version}, newest board v{shown_version}{dup}")
    return BoardCheck(False, duplicates, f"board at v{shown_version}{dup}")


@dataclass(slots=True)
class Click:
    """A click the harness made."""

    interaction: Interaction
    version: int
    user_id: int
    final: bool
    at: float = field(default_factory=time.monotonic)


class Lane:
    """A fake Discord with one guild and channel, the scripted people, and bot.py children."""

    def __init__(self, workdir: Path, *, ack_limit: float = 3.0) -> None:
        self.workdir = workdir
        self.fake = FakeDiscord(ack_limit=ack_limit)
        self.db = Database(workdir / "data" / "meeple.sqlite3")
        self.log_path = workdir / "bot.log"
        self.bot: BotProcess | None = None
        self.people: list[User] = []
        self.channel: Channel | None = None
        self.kills: list[float] = []
        self.starts = 0

    async def open(self) -> None:
        """Start the fake and the first bot.py."""
        await self.fake.start()
        guild = self.fake.add_guild("Chaos")
        self.channel = self.fake.add_text_channel(guild, "games")
        self.people = [self.fake.add_user(name) for name in ("Alice", "Bob", "Carol", "Dan")]
        await self.start_bot()

    async def close(self) -> None:
        """Stop bot.py (gracefully if it still runs) and the fake; release any held request."""
        self.fake.release_all()
        if self.bot is not None:
            with contextlib.suppress(AssertionError, TimeoutError):
                await self.bot.terminate(timeout=20)
            await self.bot.kill()
        await self.fake.close()

    async def start_bot(self) -> None:
        """Start a bot.py child and wait until it is ready."""
        env = child_env(
            DISCORD_TOKEN=self.fake.token,
            MEEPLE_DB=str(self.db.path),
            MEEPLE_LOG_LEVEL="INFO",
            MEEPLE_BOT_DELAY="0.05",
            MEEPLE_DISCORD_API_BASE=self.fake.api_base,
        )
        self.bot = BotProcess(env, self.workdir, self.log_path)
        mark = len(self.bot.output())
        await self.bot.start()
        self.starts += 1
        await self.bot.wait_output("ready as", timeout=60, after=mark)

    async def sigkill(self) -> None:
        """SIGKILL bot.py now."""
        assert self.bot is not None and self.bot.proc is not None
        self.kills.append(time.monotonic())
        with contextlib.suppress(ProcessLookupError):
            self.bot.proc.kill()
        await self.bot.proc.wait()

    @property
    def channel_id(self) -> int:
        """The #games channel's id."""
        assert self.channel is not None
        return self.channel.id

    def killed_between(self, start: float, end: float) -> bool:
        """Whether a kill fell in [start, end]."""
        return any(start <= at <= end for at in self.kills)

    async def open_table(self, spec: GameSpec) -> tuple[int, Message]:
        """Open a lobby of `spec` and seat its people and bots; return the table id and lobby message."""
        assert self.channel is not None
        host, *others = self.people[: spec.humans]
        known = {m.id for m in self.fake.channel_messages(self.channel_id)}
        answered = await self.fake.slash(f"play {spec.game}", host, self.channel, dict(spec.options) or None)
        await self.fake.wait_answered(answered)
        lobby = await self.fake.wait_message(
            lambda m: m.channel_id == self.channel_id and m.id not in known and "Start" in m.labels(),
            15,
            "a lobby",
        )
        table_id = self.db.newest_table(self.channel_id)
        assert table_id is not None
        edits = lobby.edited
        for person in others:
            await self.fake.wait_answered(await self.fake.click_label(lobby, "Join", person))
            edits += 1
        add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
        for _ in range(spec.bots):
            await self.fake.wait_answered(await self.fake.select(lobby, add_bot, ["normal"], host))
            edits += 1
        await self.fake.wait_for(lambda: lobby.edited >= edits, 15, "the lobby to show every seat")
        return table_id, lobby

    async def click_start(self, lobby: Message, host: User) -> Interaction | None:
        """The host presses Start (if the lobby still offers it)."""
        if lobby.deleted or "Start" not in lobby.labels():
            return None
        return await self.fake.click_label(lobby, "Start", host)


def best_choice(
    fake: FakeDiscord, thread_id: int, user: User, version: int
) -> tuple[Message, Item, bool] | None:
    """What `user` would click now on a board built for `version`: a final choice first."""
    if thread_id not in fake.channels:
        return None
    messages = list(reversed(fake.channel_messages(thread_id, for_user=user.id)))
    for final_only in (True, False):
        for msg in messages:
            if msg.loading:
                continue
            items = [i for i in choices(msg, version, final_only=final_only)]
            if items:
                item = items[0]
                final = str(item["custom_id"]).startswith("mp:act:") or (item.get("type") == 3 and final_only)
                return msg, item, final
    return None


async def press_item(
    fake: FakeDiscord, msg: Message, item: Item, user: User, rng: random.Random, final: bool
) -> Interaction:
    """Click a button, or choose a select option (a final one when `final`), at random among equals."""
    custom_id = str(item["custom_id"])
    if item.get("type") == 3:
        values = [str(o["value"]) for o in item.get("options") or []]
        wanted = (
            [v for v in values if v.startswith("a")] if final else [v for v in values if v.startswith("g")]
        )
        value = rng.choice(wanted or values)
        return await fake.select(msg, custom_id, [value], user)
    return await fake.click(msg, custom_id, user)


def pick_item(msg: Message, item: Item, version: int, rng: random.Random, final: bool) -> Item:
    """A random item of the same kind as `item` on `msg` (so players do not always take the first)."""
    same = [
        i
        for i in choices(msg, version, final_only=final)
        if str(i["custom_id"]).split(":")[1] == str(item["custom_id"]).split(":")[1]
    ]
    return rng.choice(same) if same else item


async def quiet_version(
    db: Database, table_id: int, *, still: float = 1.0, limit: float = 6.0
) -> TableRow | None:
    """The table once its stored version has not moved for `still` seconds (at most `limit` s)."""
    deadline = time.monotonic() + limit
    row = db.table(table_id)
    since = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        now = db.table(table_id)
        if now != row:
            row, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            break
    return row


def version_of_item(item: Item) -> int:
    """The version a turn component was built for."""
    return version_of(item)
