"""Chaos harness: full games of every game on Discord, bot.py killed with SIGKILL at chosen and
random instants, restarted, and played on by scripted people with no manual command.

Figures per run: games finished, moves lost, moves doubled, boards behind the stored version
once a restarted bot has caught up, and live duplicate boards (more than one message with live buttons in a
thread). A failure line names the seed, game and kill that reproduce it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.e2e.lane import (
    ActionRow,
    Click,
    GameSpec,
    Lane,
    TableRow,
    best_choice,
    check_board,
    live_boards,
    pick_item,
    press_item,
    quiet_version,
)
from tests.fakediscord import Interaction
from tests.fakediscord.faults import AckHold, Hold


def plays_a_move(interaction: Interaction) -> bool:
    """Whether a click is a final choice (a move button, or a select's move option)."""
    data = interaction.data
    custom_id = str(data.get("custom_id", ""))
    values = [str(v) for v in data.get("values") or []]
    picked = custom_id.startswith("mp:pick:") and len(values) == 1 and values[0].startswith("a")
    return custom_id.startswith("mp:act:") or picked


KILL_KINDS = (
    "start-click",  # a random instant right after Start is pressed
    "start-thread",  # while Discord holds the thread creation
    "start-board",  # while Discord holds the first board post in the new thread
    "stored-human",  # the instant a person's move is committed to SQLite
    "stored-bot",  # the instant a bot's move is committed
    "post",  # while Discord holds a new board message
    "edit",  # while Discord holds an edit (a board within a turn, or the old board's buttons)
    "answer",  # while Discord holds an interaction answer
    "acked",  # a move click acknowledged on Discord's side, before the bot hears so (or stores it)
    "random",  # a random instant of play
)
"""Where a kill lands. Every "while Discord holds" request is let through after the kill, as
Discord completes a request whose sender died."""

CATCH_UP_LIMIT = 60.0
"""Seconds a restarted bot gets to record its board as shown at the stored version: only a guard
against a hang. The check itself waits for that record (the bot's own word that it caught up),
not a fixed time that a loaded machine overruns, and then holds Discord's messages to it."""
RESTART_CHECK = 10.0
"""Seconds the final board gets to appear once a finished game's version is quiet."""
STUCK_AFTER = 40.0
"""Seconds without any stored progress (people waiting to play) after which a game is stuck."""


@dataclass(slots=True)
class Figures:
    """What a chaos run measured."""

    games: int = 0
    finished: int = 0
    kills: int = 0
    lost: int = 0
    doubled: int = 0
    behind: int = 0
    duplicates: int = 0
    unanswered: int = 0
    cut: int = 0
    """Move clicks acknowledged and then cut short by a kill ("acked")."""
    cut_answered: int = 0
    """Of those, answered after the restart (within CATCH_UP_LIMIT s, a guard against a hang)."""
    cut_applied: int = 0
    """Of those, applied after all (a person's move stored for the click)."""
    clicks: int = 0
    moves: int = 0
    catch_up: float = 0.0
    """The longest a restarted bot took to record its board as shown (seconds after "ready")."""
    failures: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        """Add another run's figures to these."""
        for name in (
            "games",
            "finished",
            "kills",
            "lost",
            "doubled",
            "behind",
            "duplicates",
            "unanswered",
            "cut",
            "cut_answered",
            "cut_applied",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.clicks += other.clicks
        self.moves += other.moves
        self.catch_up = max(self.catch_up, other.catch_up)
        self.failures += other.failures

    def summary(self) -> str:
        """The figures on a few lines."""
        share = 100.0 * self.finished / self.games if self.games else 0.0
        return "\n".join(
            [
                f"kills {self.kills}, games {self.games}, finished {self.finished} ({share:.0f}%)",
                f"moves stored {self.moves}, clicks {self.clicks}",
                f"moves lost {self.lost}, moves doubled {self.doubled}",
                f"boards behind the stored version after a restart's catch-up: {self.behind}"
                f" (slowest catch-up {self.catch_up:.1f} s)",
                f"live duplicate boards: {self.duplicates}",
                f"clicks never answered while the bot ran: {self.unanswered}",
                f"move clicks acknowledged then killed: {self.cut}, answered after the restart"
                f" {self.cut_answered}, applied {self.cut_applied},"
                f" dropped without a word {self.cut - self.cut_answered - self.cut_applied}",
            ]
        )

    @property
    def goals_met(self) -> bool:
        """All finished, nothing lost, doubled, behind or duplicated."""
        return (
            self.finished == self.games
            and self.lost == 0
            and self.doubled == 0
            and self.behind == 0
            and self.duplicates == 0
            and self.cut_answered + self.cut_applied == self.cut
        )


@dataclass(slots=True)
class _Kill:
    """A planned kill and how it fires."""

    kind: str
    after_clicks: int
    hold: Hold | AckHold | None = None
    timer_at: float | None = None


class GameRun:
    """One full game played through kills and restarts."""

    def __init__(
        self,
        lane: Lane,
        spec: GameSpec,
        kinds: list[str],
        rng: random.Random,
        label: str,
        say: Callable[[str], None],
    ) -> None:
        self.lane = lane
        self.fake = lane.fake
        self.spec = spec
        self.rng = rng
        self.label = label
        self.say = say
        self.plan = [_Kill(kind, rng.randint(0, 5)) for kind in kinds]
        self.figures = Figures(games=1)
        self.humans = lane.people[: spec.humans]
        self.table_id = 0
        self.clicks: list[Click] = []
        self.seen: dict[int, ActionRow] = {}
        self.last_progress = time.monotonic()
        self.last_row: TableRow | None = None
        self.clicks_since_restart = 0
        self.current = ""
        self.paused = False
        """No clicks while set: from a kill until the check after the restart."""

    def fail(self, what: str) -> None:
        """Record a failure with what reproduces it."""
        line = f"{self.label} {self.spec.game} table #{self.table_id} [{self.current or 'no kill'}]: {what}"
        self.figures.failures.append(line)
        self.say("FAIL " + line)

    # -- the game ------------------------------------------------------------------

    async def run(self, deadline: float) -> Figures:
        """Play the game to its end (or until it is stuck or out of time) and measure it."""
        table_id, lobby = await self.lane.open_table(self.spec)
        self.table_id = table_id
        await self._start(lobby)
        finished = False
        while time.monotonic() < deadline:
            row = self.lane.db.table(table_id)
            self._note_progress(row)
            if row is not None and row.status == "finished":
                finished = await self._final_board_shown()
                break
            if row is not None and row.status == "lobby":
                await self._restart_start(lobby)
            elif self.plan and self.clicks_since_restart >= self.plan[0].after_clicks:
                await self._kill_in_play(self.plan.pop(0))
                continue
            elif not await self.play_once(row):
                await asyncio.sleep(0.1)
            if time.monotonic() - self.last_progress > STUCK_AFTER:
                self.fail(f"stuck: no move stored for {STUCK_AFTER:.0f} s; {check_board(self.fake, row).why}")
                break
        else:
            self.fail("out of time")
        self.figures.finished = int(finished)
        self._count_log()
        return self.figures

    def _note_progress(self, row: TableRow | None) -> None:
        if row != self.last_row:
            self.last_row = row
            self.last_progress = time.monotonic()

    async def _start(self, lobby: object) -> None:
        assert hasattr(lobby, "id")
        from tests.fakediscord import Message

        assert isinstance(lobby, Message)
        host = self.humans[0]
        kill = self.plan[0] if self.plan and self.plan[0].kind.startswith("start") else None
        if kill is None:
            await self.lane.click_start(lobby, host)
            return
        self.plan.pop(0)
        self.current = f"{kill.kind}"
        if kill.kind == "start-thread":
            kill.hold = self.fake.hold("POST", rf"^/channels/{self.lane.channel_id}/messages/\d+/threads$")
        elif kill.kind == "start-board":
            kill.hold = self.fake.hold("POST", rf"^/channels/(?!{self.lane.channel_id}/)\d+/messages$")
        await self.lane.click_start(lobby, host)
        if kill.hold is not None:
            await self._wait_hold(kill.hold, 15)
        else:
            await asyncio.sleep(self.rng.uniform(0.0, 0.8))
        await self._kill_and_restart(kill)

    async def _restart_start(self, lobby: object) -> None:
        """The lobby still offers Start after a restart: the host presses it again."""
        from tests.fakediscord import Message

        assert isinstance(lobby, Message)
        await asyncio.sleep(1.0)
        row = self.lane.db.table(self.table_id)
        if row is not None and row.status == "lobby" and "Start" in lobby.labels():
            interaction = await self.lane.click_start(lobby, self.humans[0])
            if interaction is not None:
                with contextlib.suppress(TimeoutError):
                    await self.fake.wait_answered(interaction, 10)
                    await self.fake.wait_for(
                        lambda: (r := self.lane.db.table(self.table_id)) is not None and r.status != "lobby",
                        10,
                        "the game to start",
                    )

    async def play_once(self, row: TableRow | None) -> bool:
        """One person makes one click on the current board, if any; False when nobody could."""
        if self.paused or row is None or row.status != "playing" or row.thread_id is None:
            return False
        people = list(self.humans)
        self.rng.shuffle(people)
        for person in people:
            found = best_choice(self.fake, row.thread_id, person, row.version)
            if found is None:
                continue
            msg, item, final = found
            item = pick_item(msg, item, row.version, self.rng, final)
            before = self.fake.snapshot(msg).components
            try:
                interaction = await press_item(self.fake, msg, item, person, self.rng, final)
            except (AssertionError, KeyError):
                continue  # the board changed between looking and clicking
            click = Click(interaction, row.version, person.id, final)
            self.clicks.append(click)
            self.figures.clicks += 1
            self.clicks_since_restart += 1
            await self._await_effect(click, msg, before)
            return True
        return False

    async def _await_effect(self, click: Click, msg: object, before: object) -> None:
        """Wait until the click is answered and its effect is shown (or give up after a while)."""
        from tests.fakediscord import Message

        assert isinstance(msg, Message)
        start = time.monotonic()
        try:
            await self.fake.wait_answered(click.interaction, 6)
        except TimeoutError:
            if (
                not self.paused
                and not self.lane.killed_between(start - 1, time.monotonic() + 1)
                and self._bot_alive()
            ):
                self.figures.unanswered += 1
                errors = ", ".join(str(e) for e in click.interaction.errors) or "none"
                gateway = "connected" if self.fake.connected else "not connected"
                self.fail(
                    f"click at v{click.version} not acknowledged within 6 s (gateway {gateway},"
                    f" late answers: {errors})"
                )
            return

        def moved() -> bool:
            row = self.lane.db.table(self.table_id)
            if row is None or row.version > click.version or row.status != "playing":
                return True
            return not click.final and msg.components != before

        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(moved, 5, "the click's effect")

    def _bot_alive(self) -> bool:
        bot = self.lane.bot
        return bot is not None and bot.proc is not None and bot.proc.returncode is None

    # -- kills ------------------------------------------------------------------------

    async def _kill_in_play(self, kill: _Kill) -> None:
        row = self.lane.db.table(self.table_id)
        if row is None or row.thread_id is None:
            return
        self.current = kill.kind
        thread = row.thread_id
        if kill.kind == "post":
            kill.hold = self.fake.hold("POST", rf"^/channels/{thread}/messages$")
        elif kill.kind == "edit":
            kill.hold = self.fake.hold(
                "PATCH", rf"^/(channels/{thread}/messages/\d+|webhooks/\d+/[^/]+/messages/[^/]+)$"
            )
        elif kill.kind == "answer":
            kill.hold = self.fake.hold("POST", r"^/interactions/\d+/[^/]+/callback$")
        elif kill.kind == "acked":
            kill.hold = self.fake.hold_after_ack(plays_a_move)
        self.say(f"{self.label}: next kill at {kill.kind}")
        if kill.hold is not None:
            await self._play_until(lambda: kill.hold is not None and kill.hold.arrived.is_set(), 30)
            if not kill.hold.arrived.is_set():
                self.say(f"{self.label}: {kill.kind} never came in 30 s; killed then")
        elif kill.kind in ("stored-human", "stored-bot"):
            source = kill.kind.removeprefix("stored-")
            await self._play_until_stored(source)
        else:
            until = time.monotonic() + self.rng.uniform(0.05, 3.0)
            await self._play_until(lambda: time.monotonic() >= until, 10)
        await self._kill_and_restart(kill)

    async def _play_until(self, fired: Callable[[], bool], limit: float) -> None:
        """Keep playing until `fired()` (polled every few ms), then SIGKILL at once; kill at `limit`."""
        deadline = time.monotonic() + limit

        async def keep_playing() -> None:
            while not self.paused:
                row = self.lane.db.table(self.table_id)
                if row is None or row.status != "playing" or not await self.play_once(row):
                    await asyncio.sleep(0.1)

        play = asyncio.create_task(keep_playing())
        try:
            while not fired() and time.monotonic() < deadline:
                await asyncio.sleep(0.003)
            await self.lane.sigkill()
        finally:
            # Python 3.11's wait_for can swallow a cancellation: the flag stops the player for sure.
            self.paused = True
            play.cancel()
            await asyncio.wait({play}, timeout=5)

    async def _play_until_stored(self, source: str) -> None:
        """Play until a move by `source` ("human" or "bot") is committed; return at that instant."""
        base = max((a.seq for a in self.lane.db.actions(self.table_id)), default=0)
        db = self.lane.db

        def stored() -> bool:
            rows = db._query(
                "SELECT source FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq",
                (self.table_id, base),
            )
            return any(r[0] == source for r in rows)

        await self._play_until(stored, 30)

    async def _wait_hold(self, hold: Hold | AckHold, limit: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hold.arrived.wait(), limit)
        if not hold.arrived.is_set():
            self.say(f"{self.label}: the held request never came; killing anyway")

    async def _kill_and_restart(self, kill: _Kill) -> None:
        """SIGKILL bot.py (unless done), let Discord finish what it held, restart, check once it caught up."""
        self.paused = True
        if self._bot_alive():
            await self.lane.sigkill()
        self.figures.kills += 1
        if kill.hold is not None:
            kill.hold.release()
        for action in self.lane.db.actions(self.table_id):
            self.seen.setdefault(action.seq, action)
        self.say(f"{self.label} {self.spec.game}: killed at {kill.kind}; restarting")
        await self.lane.start_bot()
        ready = time.monotonic()
        if isinstance(kill.hold, AckHold) and kill.hold.held:
            await self._check_cut(kill.hold.held[0], ready)
        row = await self._caught_up(ready + CATCH_UP_LIMIT)
        self.figures.catch_up = max(self.figures.catch_up, time.monotonic() - ready)
        check = check_board(self.fake, row)
        if check.behind:
            self.figures.behind += 1
            self.fail(
                f"behind once the restarted bot caught up ({time.monotonic() - ready:.1f} s): {check.why}"
            )
        if check.duplicates:
            self.figures.duplicates += 1
            self.fail(f"duplicate live boards after the restart: {check.why}")
        self.clicks_since_restart = 0
        self.last_progress = time.monotonic()
        self.paused = False

    async def _caught_up(self, deadline: float) -> TableRow | None:
        """The table once its version is quiet and the bot has recorded its board as shown at it."""
        db = self.lane.db
        while True:
            row = await quiet_version(db, self.table_id, limit=max(0.5, deadline - time.monotonic()))
            while not db.board_recorded(self.table_id) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            # A bot seat may have moved meanwhile: look again until version and record agree.
            if db.table(self.table_id) == row or time.monotonic() >= deadline:
                return db.table(self.table_id)

    async def _check_cut(self, interaction_id: int, ready: float) -> None:
        """A move click acknowledged, then killed: it must be answered or applied after the restart."""
        self.figures.cut += 1
        interaction = self.fake.interactions[interaction_id]
        users = self.lane.db.seat_users(self.table_id)
        known = set(self.seen)

        def answered() -> bool:
            return any(
                (m := self.fake.messages.get(mid)) is not None
                and m.ephemeral_to == interaction.user.id
                and "press it again" in m.text().lower()
                for mid in interaction.followups
            )

        def applied() -> bool:
            return any(
                a.seq not in known and a.source == "human" and users.get(a.seat) == interaction.user.id
                for a in self.lane.db.actions(self.table_id)
            )

        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(
                lambda: answered() or applied(),
                max(0.1, ready + CATCH_UP_LIMIT - time.monotonic()),
                "the cut-short click's answer",
            )
        if answered():
            self.figures.cut_answered += 1
        elif applied():
            self.figures.cut_applied += 1
        else:
            self.fail("a move click acknowledged before the kill was neither answered nor applied")

    # -- the end ------------------------------------------------------------------------

    async def _final_board_shown(self) -> bool:
        row = await quiet_version(self.lane.db, self.table_id, still=0.5, limit=3)
        deadline = time.monotonic() + RESTART_CHECK
        check = check_board(self.fake, row)
        while check.behind and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            check = check_board(self.fake, row)
        if check.behind:
            self.fail(f"finished but {check.why}")
        if check.duplicates:
            self.figures.duplicates += 1
            self.fail(f"duplicate live boards at the end: {check.why}")
        return not check.behind

    def _count_log(self) -> None:
        """Moves lost (committed then gone, or a gap) and doubled (one click applied twice)."""
        actions = self.lane.db.actions(self.table_id)
        by_seq = {a.seq: a for a in actions}
        self.figures.moves = len(actions)
        for seq, seen in self.seen.items():
            if by_seq.get(seq) != seen:
                self.figures.lost += 1
                self.fail(f"move seq {seq} at v{seen.version} was stored, then lost")
        versions = [a.version for a in actions if not a.undone]
        for earlier, later in itertools.pairwise(versions):
            if later == earlier:
                self.figures.doubled += 1
                self.fail(f"two moves stored at v{later}")
            elif later > earlier + 1:
                self.figures.lost += later - earlier - 1
                self.fail(f"versions v{earlier + 1}..v{later - 1} have no move")
        self._count_unclicked(actions)

    def _count_unclicked(self, actions: list[ActionRow]) -> None:
        """A person's stored move needs a click of theirs of its own, made since their previous move.

        A click may be applied at a later version than it was built for (another seat moved in
        between, its own prompt unchanged: Buttons' gold die), never before the seat's previous
        move, and one click makes one move.
        """
        users = self.lane.db.seat_users(self.table_id)
        unused = sorted((c for c in self.clicks if c.final), key=lambda c: c.version)
        previous: dict[int, int] = {}
        for action in actions:
            if action.source != "human" or action.undone:
                continue
            user = users.get(action.seat)
            since = previous.get(action.seat, -1)
            match = next(
                (c for c in unused if c.user_id == user and since < c.version <= action.version), None
            )
            if match is None:
                self.figures.doubled += 1
                self.fail(f"a person's move at v{action.version} that no click of theirs explains")
            else:
                unused.remove(match)
            previous[action.seat] = action.version


def plan_kinds(rng: random.Random, count: int, among: tuple[str, ...] = KILL_KINDS) -> list[str]:
    """`count` kill kinds (drawn from `among`) for one game: at most one at Start (it comes first),
    the rest during play."""
    kinds = [rng.choice(among) for _ in range(count)]
    start = next((k for k in kinds if k.startswith("start")), None)
    rest = [k for k in kinds if not k.startswith("start")]
    rest += ["random"] * (count - len(rest) - (start is not None))
    return ([start] if start else []) + rest


async def chaos_run(
    lane: Lane,
    plans: list[tuple[GameSpec, list[str]]],
    seed: int,
    *,
    game_limit: float = 300.0,
    say: Callable[[str], None] = print,
) -> Figures:
    """Play one game per plan (game, kill kinds) on one lane; return the figures."""
    total = Figures()
    for index, (spec, kinds) in enumerate(plans):
        rng = random.Random(f"{seed}:{index}")
        label = f"seed={seed} game={index}"
        run = GameRun(lane, spec, kinds, rng, label, say)
        try:
            figures = await run.run(time.monotonic() + game_limit)
        except (AssertionError, TimeoutError) as error:
            run.fail(f"harness step failed: {_short(error)}")
            run.figures.finished = 0
            figures = run.figures
            await _recover(lane)
        total.add(figures)
        say(f"{label} {spec.game}: kills {figures.kills}, finished {bool(figures.finished)}")
    total.failures += [f"fake Discord: {p}" for p in lane.fake.problems]
    return total


async def _recover(lane: Lane) -> None:
    """After a harness step failed, make sure a bot.py runs for the next game."""
    lane.fake.release_all()
    bot = lane.bot
    if bot is None or bot.proc is None or bot.proc.returncode is not None:
        await lane.start_bot()


def _short(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return re.sub(r"\s+", " ", text)[:200]


def thread_live_boards(lane: Lane, thread_id: int) -> int:
    """How many live boards a thread shows (for tests)."""
    return len(live_boards(lane.fake, thread_id))
