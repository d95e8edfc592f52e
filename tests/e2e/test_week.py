"""The real bot.py over a simulated week: three tables at three paces, a player with quiet hours.

The child's table service reads its clock from a file (MEEPLE_CLOCK_FILE: seconds added to the
system time); the test jumps that clock from one armed deadline to the next, waits until the bot
has fired them and Discord is quiet, and files every message under the simulated time it was
sent at. Then it counts: every table reminded its players; none reached the player in her quiet
hours (a reminder due then arrived at their end); none came twice at once. Bob never comes back:
at the relaxed table the two others vote on his reminder, and a bot takes his seat.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import time
from collections import Counter
from pathlib import Path

from tables.players import zone
from tests.e2e.botprocess import BotProcess, child_env
from tests.e2e.conftest import World
from tests.e2e.players import choices, private_answer
from tests.fakediscord import FakeDiscord, Message, User

TOKYO = "Asia/Tokyo"
QUIET = (22 * 60, 8 * 60)
"""Carol's quiet hours in Tokyo: 22:00 to 08:00."""
START = dt.datetime(2026, 11, 24, 9, 0, tzinfo=dt.UTC).timestamp()
"""Tuesday 09:00 UTC, 18:00 in Tokyo."""
WEEK = 7 * 24 * 3600.0


class SimulatedClock:
    """Writes the offset file the child's clock reads."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def set(self, when: float) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(f"{when - time.time():.3f}", encoding="ascii")
        tmp.replace(self.path)


def next_due(db: Path) -> float | None:
    """The earliest armed deadline in the bot's database (read-only, beside the bot's writes)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as raw:
        row = raw.execute("SELECT MIN(due_at) FROM deadlines").fetchone()
    raw.close()
    return None if row is None or row[0] is None else float(row[0])


def fired(db: Path, now: float) -> bool:
    """Whether every clock due at `now` has fired (or moved on)."""
    due = next_due(db)
    return due is None or due > now


def in_quiet_hours(when: float) -> bool:
    local = dt.datetime.fromtimestamp(when, zone(TOKYO))
    minute = local.hour * 60 + local.minute
    return minute >= QUIET[0] or minute < QUIET[1]


async def settle(fake: FakeDiscord, quiet_for: float = 0.3, limit: float = 30.0) -> None:
    """Wait until the bot has sent nothing for `quiet_for` seconds."""
    deadline = time.monotonic() + limit
    seen = len(fake.requests)
    calm_since = time.monotonic()
    while time.monotonic() - calm_since < quiet_for:
        assert time.monotonic() < deadline, "the bot never went quiet"
        await asyncio.sleep(0.05)
        if len(fake.requests) != seen:
            seen = len(fake.requests)
            calm_since = time.monotonic()


async def open_table(fake: FakeDiscord, world: World, game: str, pace: str, players: list[User]) -> int:
    """/play <game> with a pace by the first player, the others join, the host starts; the thread id."""
    host = players[0]
    known = {m.id for m in fake.messages.values()}
    opened = await fake.slash(f"play {game}", host, world.channel, {"pace": pace})
    assert "is open" in await private_answer(fake, opened)
    lobby = await fake.wait_message(
        lambda m: m.channel_id == world.channel.id and "Join" in m.labels() and m.id not in known,
        what=f"the {pace} lobby",
    )
    assert f"Pace **{pace}**" in lobby.content
    for player in players[1:]:
        await fake.wait_answered(await fake.click_label(lobby, "Join", player))
    await fake.wait_answered(await fake.click_label(lobby, "Start", host))
    await fake.wait_for(
        lambda: any(t.id == lobby.id for t in fake.threads_of(world.channel.id)), 10, "a thread"
    )
    return lobby.id


async def test_a_simulated_week_of_three_tables_respects_quiet_hours(world: World, tmp_path: Path) -> None:
    fake = world.fake
    clock = SimulatedClock(tmp_path / "clock-offset")
    clock.set(START)
    env = child_env(
        DISCORD_TOKEN=fake.token,
        MEEPLE_DB=str(world.db_path),
        MEEPLE_LOG_LEVEL="INFO",
        MEEPLE_BOT_DELAY="0.02",
        MEEPLE_DISCORD_API_BASE=fake.api_base,
        MEEPLE_CLOCK_FILE=str(clock.path),
    )
    bot = BotProcess(env, tmp_path, tmp_path / "bot.log")
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    await bot.start()
    try:
        await bot.wait_output("table service started", timeout=30)
        told = await fake.slash(
            "settings", carol, world.channel, {"time_zone": TOKYO, "quiet_hours": "22:00-08:00"}
        )
        assert "22:00 to 08:00" in await private_answer(fake, told)
        seating = {
            "live": ("tomatoes", [alice, carol]),
            "daily": ("buttons", [bob, carol]),
            "relaxed": ("tomatoes", [carol, alice, bob]),
        }
        threads = {}
        for pace, (game, players) in seating.items():
            threads[pace] = await open_table(fake, world, game, pace, players)
        # Alice and Carol play their turn when they see a ping; Bob never comes back, and Carol
        # leaves the daily table to its clocks (turns there begin at 18:00 in Tokyo, when the
        # week starts and a day's clock runs out, so her 12-hour reminders fall at 06:00).
        seats = {
            (threads[pace], user.id): seat
            for pace, (_, players) in seating.items()
            for seat, user in enumerate(players)
            if user is not bob and (pace, user) != ("daily", carol)
        }
        answered: set[int] = set()
        voted: set[int] = set()
        await settle(fake)
        turns = await answer_pings(fake, seats, {alice.id: alice, carol.id: carol}, answered)

        sent_at: dict[int, float] = {m.id: START for m in fake.messages.values()}
        now = START
        steps = 0
        while (due := next_due(world.db_path)) is not None and due <= START + WEEK:
            steps += 1
            assert steps < 2000, "the clocks never run out"
            now = max(now, due) + 1.0
            clock.set(now)
            await fake.wait_for(lambda at=now: fired(world.db_path, at), 30, "the due clocks to fire")
            await settle(fake)
            for message in fake.messages.values():
                sent_at.setdefault(message.id, now)
            turns += await answer_pings(fake, seats, {alice.id: alice, carol.id: carol}, answered)
            if await vote_out(fake, threads["relaxed"], bob, [alice, carol], voted):
                await settle(fake)
            for message in fake.messages.values():
                sent_at.setdefault(message.id, now)
        await bot.terminate()
        assert "Traceback" not in bot.output()
    finally:
        await bot.kill()

    tally = Tally(fake, sent_at, threads)
    # Every pace reminded its players, and on its own clock.
    for pace in ("live", "daily", "relaxed"):
        assert tally.reminders(pace), f"the {pace} table reminded nobody"
    assert tally.first_reminder_after("live") <= 15 * 60
    assert 12 * 3600 <= tally.first_reminder_after("daily") <= 14 * 3600 + 60
    assert 2 * 24 * 3600 <= tally.first_reminder_after("relaxed") <= 2 * 24 * 3600 + 10 * 3600
    # Carol: never a ping or a reminder in her quiet hours; some waited for their end.
    to_carol = tally.pings_of(carol)
    assert to_carol, "Carol was reminded during the week"
    assert [tally.local(m) for m in to_carol if in_quiet_hours(sent_at[m.id])] == []
    assert any(tally.local(m).endswith("08:00") for m in to_carol), "a reminder held to 08:00"
    # None twice: one reminder per player, table and moment at most.
    counted = Counter((m.channel_id, uid, sent_at[m.id]) for m in tally.all_reminders() for uid in m.pinged)
    assert max(counted.values()) == 1, counted.most_common(3)
    assert turns >= 3, "the pinged players played"
    # The vote on Bob's reminder at the relaxed table carried (2 of 2): a bot plays his seat.
    assert voted, "Bob's reminder offered the others a vote"
    with sqlite3.connect(f"file:{world.db_path}?mode=ro", uri=True) as raw:
        handed = raw.execute(
            "SELECT s.bot, s.replaced FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE t.thread_id = ? AND s.user_id = ?",
            (threads["relaxed"], bob.id),
        ).fetchone()
    raw.close()
    assert handed is not None and handed[0] is not None and handed[1] == 1, handed
    print(
        f"{steps} clock steps, {turns} turns played on a ping; reminders per table:",
        {p: len(tally.reminders(p)) for p in threads},
    )


async def answer_pings(
    fake: FakeDiscord, seats: dict[tuple[int, int], int], players: dict[int, User], answered: set[int]
) -> int:
    """Each player pinged in a game thread since the last look plays one turn there; the turns played.

    Pings that arrive meanwhile wait for the next look (the player comes back later).
    """
    seen = [
        message
        for message in list(fake.messages.values())
        if message.id not in answered and message.channel_id in {thread for thread, _ in seats}
    ]
    answered.update(message.id for message in seen)
    pending = dict.fromkeys(
        (message.channel_id, uid)
        for message in seen
        for uid in message.pinged
        if (message.channel_id, uid) in seats and uid in players
    )
    turns = 0
    for thread_id, uid in pending:
        if await play_turn(fake, thread_id, players[uid], seats[(thread_id, uid)]):
            turns += 1
    await settle(fake)
    return turns


async def vote_out(
    fake: FakeDiscord, thread_id: int, absent: User, voters: list[User], voted: set[int]
) -> bool:
    """The voters press the vote button of a new reminder that pings `absent`; whether they did."""
    for message in list(fake.channel_messages(thread_id)):
        if message.id in voted or absent.id not in message.pinged:
            continue
        ids = [str(item.get("custom_id", "")) for item in message.items() if not item.get("disabled")]
        buttons = [custom_id for custom_id in ids if custom_id.startswith("mp:vote:")]
        if not buttons:
            continue
        voted.add(message.id)
        for voter in voters:
            await fake.wait_answered(await fake.click(message, buttons[0], voter))
            await settle(fake, 0.15)
        return True
    return False


def own_choices(message: Message, seat: int) -> list[tuple[str, str | None]]:
    """(custom_id, select value or None) of the turn components of `seat` on a message."""
    found: list[tuple[str, str | None]] = []
    for item in choices(message):
        custom_id = str(item["custom_id"])
        if custom_id.startswith("mp:pick:"):
            values = [str(o["value"]) for o in item.get("options") or []]
            mine = [v for v in values if v.startswith((f"a{seat}.", f"g{seat}."))]
            found.extend((custom_id, value) for value in mine[:1])
        elif custom_id.split(":")[4] == str(seat):
            found.append((custom_id, None))
    return found


async def play_turn(fake: FakeDiscord, thread_id: int, user: User, seat: int) -> bool:
    """Click `seat`'s first choice on the newest board until the turn is over (its board has
    nothing left for the seat: one board message per turn); whether any click was made."""
    log: list[str] = []
    turn_board: int | None = None
    for clicked in range(40):
        boards = [m for m in fake.channel_messages(thread_id, for_user=user.id) if own_choices(m, seat)]
        if not boards or (turn_board is not None and boards[-1].id != turn_board):
            return clicked > 0
        board = boards[-1]
        turn_board = board.id
        custom_id, value = own_choices(board, seat)[0]
        if value is None:
            interaction = await fake.click(board, custom_id, user)
        else:
            interaction = await fake.select(board, custom_id, [value], user)
        await fake.wait_answered(interaction)
        await settle(fake, 0.15)
        answers = [
            fake.messages[m].text()[:80] for m in (interaction.original_id, *interaction.followups) if m
        ]
        log.append(f"{custom_id} {value} on {board.id}: {answers}")
    raise AssertionError(f"{user.name} never finished a turn in thread {thread_id}:\n" + "\n".join(log[-8:]))


class Tally:
    """The week's messages, read back with the simulated time each was sent at."""

    def __init__(self, fake: FakeDiscord, sent_at: dict[int, float], threads: dict[str, int]) -> None:
        self.fake = fake
        self.sent_at = sent_at
        self.threads = threads

    def all_reminders(self) -> list[Message]:
        return [
            m
            for thread in self.threads.values()
            for m in self.fake.channel_messages(thread)
            if m.content.startswith("⏰") and m.pinged
        ]

    def reminders(self, pace: str) -> list[Message]:
        return [m for m in self.all_reminders() if m.channel_id == self.threads[pace]]

    def first_reminder_after(self, pace: str) -> float:
        return min(self.sent_at[m.id] for m in self.reminders(pace)) - START

    def pings_of(self, user: User) -> list[Message]:
        """Every message of the week that notified `user` (boards, reminders, held pings)."""
        return [m for m in self.fake.messages.values() if user.id in m.pinged]

    def local(self, message: Message) -> str:
        return dt.datetime.fromtimestamp(self.sent_at[message.id], zone(TOKYO)).strftime("%a %H:%M")
