"""Discord fault matrix: each kind of write the bot makes (post, edit, thread create, interaction
answer) meets each failure Discord gives (403, 404, 429 with retry_after, 500, 502, 503, the
gateway dropping); the game must go on, or the players must be told why it cannot.

One cell: a new table, the fault armed on the next write of that kind, people playing on.
It "goes on" when moves are stored after the fault and the board then shows the stored
version with one live board (a host whose Start failed presses it again, as people do when
told); it is "explained" when it does not go on but the bot wrote
something that is not a board after the fault (a message, a lobby edit, a private answer);
otherwise it is "stuck". Only a game whose thread or lobby message was deleted may stop with
an explanation; after any other fault it must go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tests.e2e.chaos import GameRun
from tests.e2e.lane import GameSpec, Lane, TableRow, check_board, quiet_version, turn_versions
from tests.fakediscord import Message
from tests.fakediscord.faults import UNKNOWN_INTERACTION, Fault, Hold

WRITES = ("post", "edit", "thread", "answer")
FAULTS = ("403", "404", "429", "500", "502", "503", "gateway")
TIMES = {"403": 1, "429": 1, "500": 2, "502": 2, "503": 1}
"""How many writes in a row fail: discord.py itself retries a 500 and 502 (1 s, then 3 s)."""
PERMANENT = frozenset({("post", "404"), ("thread", "404")})
"""Cells after which the game cannot go on where it was (its thread, or the lobby message the
thread starts from, was deleted): telling the players suffices. Every other fault is transient
and the game must go on by itself, with no command from anyone."""
MOVES_AFTER = 3
"""Moves that must be stored after the fault for the game to count as going on."""
CELL_LIMIT = 40.0
"""Seconds after the fault within which the game must go on."""


@dataclass(slots=True)
class Cell:
    """The result of one cell."""

    write: str
    fault: str
    game: str
    hit: bool = False
    outcome: str = "stuck"
    recovery: float | None = None
    """Seconds from the fault to the next stored move."""
    behind: bool = False
    duplicates: bool = False
    said: str = ""
    why: str = ""

    def line(self) -> str:
        """One line of the matrix."""
        recovery = f"{self.recovery:.1f} s" if self.recovery is not None else "-"
        flags = ("behind " if self.behind else "") + ("duplicate " if self.duplicates else "")
        note = f" said {self.said!r}" if self.outcome == "explained" else ""
        hit = "" if self.hit else " (fault never hit)"
        return (
            f"{self.write:6} {self.fault:7} {self.game:9} {self.outcome:9} next move {recovery:>7}"
            f" {flags}{self.why}{note}{hit}"
        )

    @property
    def ok(self) -> bool:
        """The goal: the fault was met and the game went on (or, if it cannot, was explained)."""
        if not self.hit or self.duplicates:
            return False
        return self.outcome == "goes on" or (
            self.outcome == "explained" and (self.write, self.fault) in PERMANENT
        )


def _write_path(write: str, lane: Lane, thread_id: int | None) -> tuple[str, str]:
    if write == "thread":
        return "POST", rf"^/channels/{lane.channel_id}/messages/\d+/threads$"
    if write == "answer":
        return "POST", r"^/interactions/\d+/[^/]+/callback$"
    assert thread_id is not None
    if write == "post":
        return "POST", rf"^/channels/{thread_id}/messages$"
    return "PATCH", rf"^/(channels/{thread_id}/messages/\d+|webhooks/\d+/[^/]+/messages/[^/]+)$"


class CellRun:
    """One cell played on a lane."""

    def __init__(self, lane: Lane, spec: GameSpec, write: str, fault: str, seed: int) -> None:
        self.lane = lane
        self.fake = lane.fake
        self.cell = Cell(write, fault, spec.game)
        self.game = GameRun(lane, spec, [], random.Random(f"{seed}:{write}:{fault}"), "", lambda _: None)
        self.spec = spec
        self.hold: Hold | None = None
        self.armed: Fault | None = None
        self.hit_at: float | None = None
        self.lobby: Message | None = None
        self.started_at = 0.0

    def _arm(self, thread_id: int | None, lobby_id: int) -> None:
        write, fault = self.cell.write, self.cell.fault
        method, path = _write_path(write, self.lane, thread_id)
        if fault == "gateway":
            self.armed = self.fake.drop_gateway_on(method, path)
        elif fault == "404" and write == "answer":
            self.armed = self.fake.fail(method, path, 404, UNKNOWN_INTERACTION)
        elif fault == "404":
            # What was written to is deleted as the write arrives: the thread (post), the
            # board message (edit), the lobby message the thread starts from (thread).
            self.hold = self.fake.hold(method, path)
            asyncio.get_running_loop().create_task(self._delete_on_arrival(write, thread_id, lobby_id))
        else:
            status = int(fault)
            code = {403: 50013}.get(status, 0)
            self.armed = self.fake.fail(method, path, status, code, TIMES[fault], retry_after=1.5)

    async def _delete_on_arrival(self, write: str, thread_id: int | None, lobby_id: int) -> None:
        hold = self.hold
        assert hold is not None
        await hold.arrived.wait()
        if write == "post" and thread_id is not None:
            await self.fake.delete_channel(thread_id)
        elif write == "thread":
            self.fake.messages[lobby_id].deleted = True
        else:
            target = hold.held[0].rsplit("/", 1)[-1]
            if target.isdigit() and int(target) in self.fake.messages:
                self.fake.messages[int(target)].deleted = True
            else:
                for msg in self.fake.messages.values():
                    if msg.channel_id == thread_id and turn_versions(msg):
                        msg.deleted = True
        hold.release()

    def _hit(self) -> bool:
        if self.hit_at is None and (
            (self.armed is not None and self.armed.hits > 0)
            or (self.hold is not None and self.hold.arrived.is_set())
        ):
            self.hit_at = time.monotonic()
        return self.hit_at is not None

    def _written(self) -> dict[int, tuple[int, str]]:
        """Every bot message now: id -> (edit count, text)."""
        bot = self.fake.bot_user.id
        return {m.id: (m.edited, m.text()) for m in self.fake.messages.values() if m.author.id == bot}

    async def run(self) -> Cell:
        """Play the cell and judge it."""
        table_id, lobby = await self.lane.open_table(self.spec)
        self.game.table_id = table_id
        self.lobby = lobby
        self.started_at = time.monotonic()
        host = self.game.humans[0]
        if self.cell.write == "thread":
            self._arm(None, lobby.id)
            await self.lane.click_start(lobby, host)
        else:
            await self.lane.click_start(lobby, host)
            await self._until(lambda: self._board_live(table_id), 20)
            row = self.lane.db.table(table_id)
            assert row is not None and row.thread_id is not None, "the game never showed a board"
            self._arm(row.thread_id, lobby.id)
        before = self._written()
        await self._until(self._hit, 30)
        self.cell.hit = self._hit()
        if not self.cell.hit:
            self.cell.why = "the write never came"
            self.fake.release_all()
            return self.cell
        moves_then = len(self.lane.db.actions(table_id))
        await self._until(lambda: self._gone_on(table_id, moves_then), CELL_LIMIT)
        now = self.lane.db.actions(table_id)
        if len(now) > moves_then and self.hit_at is not None:
            self.cell.recovery = max(0.0, self._first_after(table_id, moves_then) - self.hit_at)
        row = await quiet_version(self.lane.db, table_id)
        check = check_board(self.fake, row)
        self.cell.behind, self.cell.duplicates = check.behind, check.duplicates
        self.cell.why = check.why
        went_on = self._gone_on(table_id, moves_then) and not check.behind
        if went_on:
            self.cell.outcome = "goes on"
        else:
            said = self._said_since(before)
            if said:
                self.cell.outcome, self.cell.said = "explained", said[:90]
        self.fake.release_all()
        await self._leave(table_id, row)
        return self.cell

    async def _until(self, done: Callable[[], bool], limit: float) -> None:
        """Play on (as the people would) until `done()` or `limit` seconds pass."""
        deadline = time.monotonic() + limit
        while not done() and time.monotonic() < deadline:
            row = self.lane.db.table(self.game.table_id)
            if row is not None and row.status == "lobby" and self.hit_at is not None:
                await self._start_again()
                continue
            if not await self.game.play_once(row):
                await asyncio.sleep(0.1)

    async def _start_again(self) -> None:
        """The start failed and the lobby offers Start again: the host presses it, as people would."""
        await asyncio.sleep(1.0)
        lobby = self.lobby
        if lobby is None or time.monotonic() - self.started_at < 3.0:
            return
        row = self.lane.db.table(self.game.table_id)
        if row is not None and row.status == "lobby":
            self.started_at = time.monotonic()
            with contextlib.suppress(AssertionError, KeyError):
                await self.lane.click_start(lobby, self.game.humans[0])

    def _board_live(self, table_id: int) -> bool:
        row = self.lane.db.table(table_id)
        if row is None or row.thread_id is None or row.thread_id not in self.fake.channels:
            return False
        return not check_board(self.fake, row).behind and row.status == "playing"

    def _gone_on(self, table_id: int, moves_then: int) -> bool:
        row = self.lane.db.table(table_id)
        if row is None:
            return False
        if row.status == "finished":
            return not check_board(self.fake, row).behind
        stored = len(self.lane.db.actions(table_id)) - moves_then
        return stored >= MOVES_AFTER and not check_board(self.fake, row).behind

    def _first_after(self, table_id: int, moves_then: int) -> float:
        rows = self.lane.db._query(
            "SELECT created_at FROM actions WHERE table_id = ? ORDER BY seq LIMIT 1 OFFSET ?",
            (table_id, moves_then),
        )
        # created_at is wall-clock time; turn it into this process's monotonic clock.
        return float(rows[0][0]) - time.time() + time.monotonic() if rows else time.monotonic()

    def _said_since(self, before: dict[int, tuple[int, str]]) -> str:
        """The text of a bot message about this table, written (or edited) after the fault, not a board."""
        row = self.lane.db.table(self.game.table_id)
        thread_id = row.thread_id if row is not None else None
        lobby_id = self.lobby.id if self.lobby is not None else None
        people = {p.id for p in self.game.humans}
        for msg in self.fake.messages.values():
            board = turn_versions(msg) or any(a.filename.endswith(".webp") for a in msg.attachments)
            if msg.author.id != self.fake.bot_user.id or board or msg.loading or msg.deleted:
                continue
            mine = (
                msg.id == lobby_id
                or (thread_id is not None and msg.channel_id == thread_id)
                or msg.ephemeral_to in people
                or f"#{self.game.table_id}" in msg.text()
            )
            old = before.get(msg.id)
            changed = old is None or (old[0] != msg.edited and old[1] != msg.text())
            if mine and changed and msg.text().strip():
                text = msg.text().strip()
                if "🏁" not in text:
                    return text.replace("\n", " ")
        return ""

    async def _leave(self, table_id: int, row: TableRow | None) -> None:
        """End a cell's game so its bots stop: the host abandons it if it still plays."""
        if row is None or row.status != "playing" or row.thread_id is None:
            return
        thread = self.fake.channels.get(row.thread_id)
        if thread is None:
            return
        with contextlib.suppress(AssertionError, TimeoutError, KeyError):
            answered = await self.fake.slash("game abandon", self.game.humans[0], thread)
            await self.fake.wait_answered(answered, 10)


async def fault_matrix(
    lane: Lane,
    games: list[GameSpec],
    cells: list[tuple[str, str]],
    seed: int = 1,
    say: Callable[[str], None] = print,
) -> list[Cell]:
    """Run the cells on one lane, games taken in turn; return their results."""
    results = []
    for index, (write, fault) in enumerate(cells):
        spec = games[index % len(games)]
        run = CellRun(lane, spec, write, fault, seed)
        try:
            cell = await run.run()
        except (AssertionError, TimeoutError) as error:
            cell = run.cell
            cell.why = f"harness step failed: {str(error).splitlines()[0][:120] if str(error) else error!r}"
            lane.fake.release_all()
        say(cell.line())
        results.append(cell)
        await lane.fake.wait_for(lambda: lane.fake.connected, 60, "the bot back on the gateway")
    return results
