"""Play over days through Discord: paces, /game info, /settings, quiet hours, DMs, optional choices."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord
import pytest

from cogs.platform.ids import LobbyOp, LobbyRef
from tables.models import DeadlineKind, Table, TableStatus
from tables.paces import Pace, timing_for
from tables.players import zone
from tests.cogs.conftest import Harness
from tests.cogs.helpers import components, pinged, play_option, table_of, user_of
from tests.cogs.test_buttons import answer, both_at_once
from tests.cogs.test_lobby import lobby_now, slash_answer

NEW_YORK = "America/New_York"


class FakeClock:
    """The table service's clock, moved by the test."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def at(zone_name: str, day: int, hour: int, minute: int = 0) -> float:
    """Unix time of a wall-clock time in late November 2026 in a time zone."""
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=zone(zone_name)).timestamp()


def set_clock(world: Harness, start: float) -> FakeClock:
    clock = FakeClock(start)
    world.bot.tables.clock = clock
    return clock


async def run_due(world: Harness, clock: FakeClock, when: float) -> int:
    """Move the fake clock to `when` and fire what is due."""
    clock.now = when
    fired = await world.bot.tables.run_due(when)
    await world.idle()
    return fired


def reminders(world: Harness, user_id: int) -> list[discord.Message]:
    """The thread's reminders for one player."""
    mention = f"<@{user_id}>"
    return [m for m in world.thread().history() if m.content.startswith("⏰") and mention in m.content]


async def open_game(world: Harness, game: str = "tomatoes", **options: Any) -> Table:
    """/play <game> by alice with `options`, bob joins, alice starts; returns the table."""
    result = await world.alice.slash(world.channel, f"play {game}", **options)
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    return await table_of(world)


def select_id(message: discord.Message, op: LobbyOp) -> str:
    wanted = LobbyRef(1, op).custom_id()
    return next(c.custom_id for c in components(message) if c.custom_id == wanted)


async def movers(world: Harness, *, awaited: bool = False) -> list[int | None]:
    """The user ids of the seats to move now (`awaited`: on a decision that is not optional)."""
    table = await table_of(world)
    return [table.seats[p.seat].user_id for p in table.prompts if not (awaited and p.optional)]


async def play_one(world: Harness) -> None:
    """One greedy human move on the current board (which need not be the thread's last message)."""
    await world.idle()
    table = await table_of(world)
    prompt = next(p for p in table.prompts if not table.is_bot(p.seat))
    action = table.rules.bot_action(table.state, prompt, "greedy")
    board = next(m for m in world.thread().history() if m.id == table.board_message_id)
    user = user_of(world, table.seats[prompt.seat].user_id)
    await play_option(world, user, board, prompt.seat, prompt.options.index(action))
    await world.idle()


# -- paces -------------------------------------------------------------------------


@pytest.mark.parametrize("pace", list(Pace))
async def test_each_pace_reminds_on_its_own_clock(world: Harness, pace: Pace) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    start = clock.now
    result = await world.alice.slash(world.channel, "play tomatoes", pace=pace.value)
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and f"Pace **{pace.value}**" in lobby.content
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    table = await table_of(world)
    timing = timing_for(pace)
    assert table.timing == timing
    mover = table.seats[table.to_move[0]].user_id
    assert mover is not None and timing.remind_after is not None and timing.remind_every is not None
    await run_due(world, clock, start + timing.remind_after - 5)
    assert reminders(world, mover) == []
    await run_due(world, clock, start + timing.remind_after + 5)
    first = reminders(world, mover)
    assert len(first) == 1 and pinged(world, first[0]) == {mover}
    assert timing.timeout_after is not None
    await run_due(world, clock, start + timing.timeout_after - 5)
    assert len(reminders(world, mover)) == 1, "not twice"


async def test_live_pace_hands_an_absent_seat_to_a_bot_within_the_hour(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    start = clock.now
    table = await open_game(world, pace="live")
    seat = table.to_move[0]
    await run_due(world, clock, start + 59 * 60)
    assert not (await table_of(world)).seats[seat].is_bot
    await run_due(world, clock, start + 61 * 60)
    assert (await table_of(world)).seats[seat].replaced


async def test_the_host_changes_the_pace_in_the_lobby(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "play buttons")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and "Pace **daily**" in lobby.content
    refused = await world.bob.select(lobby, ["live"], custom_id=select_id(lobby, LobbyOp.PACE))
    assert refused.followups and "host" in (refused.followups[0].content or "").lower()
    await world.alice.select(lobby_now(world, lobby), ["relaxed"], custom_id=select_id(lobby, LobbyOp.PACE))
    now = lobby_now(world, lobby)
    assert "Pace **relaxed**" in now.content and "a reminder after 2 days" in now.content
    assert (await table_of(world)).timing == timing_for(Pace.RELAXED)


async def test_game_info_says_the_table_in_words(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    table = await open_game(world, pace="live")
    clock.now += 3 * 60
    result = await world.watcher.slash(world.thread(), "game info")
    words = slash_answer(result)
    assert "table #1" in words and "Diced Tomatoes" in words
    assert "Pace **live**" in words and "a reminder after 10 minutes" in words
    mover = table.seats[table.to_move[0]].user_id
    line = next(line for line in words.splitlines() if f"<@{mover}>" in line)
    assert "to move" in line and "3 minutes" in line
    outside = await world.watcher.slash(world.channel, "game info")
    assert "table #1" in slash_answer(outside), "from the channel too, when one game is played there"


# -- /settings ---------------------------------------------------------------------


async def test_settings_are_private_checked_and_kept(world: Harness) -> None:
    shown = await world.alice.slash(world.channel, "settings")
    assert shown.ephemeral and "Time zone:** UTC" in slash_answer(shown)
    bad = await world.alice.slash(world.channel, "settings", time_zone="Mars/Olympus")
    assert "do not know the time zone" in slash_answer(bad)
    worse = await world.alice.slash(world.channel, "settings", quiet_hours="late")
    assert "22:00-07:00" in slash_answer(worse)
    assert world.bot.tables.players.get(world.alice.id).time_zone == "UTC", "nothing changed"
    saved = await world.alice.slash(world.channel, "settings", time_zone=NEW_YORK, quiet_hours="22:00-07:00")
    words = slash_answer(saved)
    assert "Saved" in words and NEW_YORK in words and "22:00 to 07:00" in words
    choices = await world.alice.autocomplete(world.channel, "settings", "time_zone", "new_y")
    assert "America/New_York" in [c["value"] for c in choices]
    await world.restart()
    kept = world.bot.tables.players.get(world.alice.id)
    assert (kept.time_zone, kept.quiet_start, kept.quiet_end) == (NEW_YORK, 22 * 60, 7 * 60)


# -- quiet hours ---------------------------------------------------------------------


async def quiet_mover(world: Harness, table: Table) -> Any:
    """Give the player to move quiet hours 22:00-07:00 in New York; return them."""
    mover = user_of(world, table.seats[table.to_move[0]].user_id)
    await mover.slash(world.channel, "settings", time_zone=NEW_YORK, quiet_hours="22:00-07:00")
    return mover


async def test_a_reminder_due_in_quiet_hours_arrives_at_their_end_across_midnight(world: Harness) -> None:
    # Started at 11:00 in New York: the 12-hour reminder falls at 23:00, in the quiet hours.
    clock = set_clock(world, at(NEW_YORK, 24, 11))
    table = await open_game(world)
    mover = await quiet_mover(world, table)
    await run_due(world, clock, at(NEW_YORK, 24, 23, 1))
    assert reminders(world, mover.id) == []
    held = (await table_of(world)).deadline(table.to_move[0], DeadlineKind.REMIND)
    assert held is not None and held.due_at == at(NEW_YORK, 25, 7)
    await run_due(world, clock, at(NEW_YORK, 25, 3))
    await run_due(world, clock, at(NEW_YORK, 25, 6, 59))
    assert reminders(world, mover.id) == []
    await run_due(world, clock, at(NEW_YORK, 25, 7))
    assert len(reminders(world, mover.id)) == 1
    await run_due(world, clock, at(NEW_YORK, 25, 7, 30))
    assert len(reminders(world, mover.id)) == 1, "none twice"


async def test_clocks_never_expire_a_seat_in_quiet_hours(world: Harness) -> None:
    # Started at 13:00 in New York: the 24-hour timeout and the 3-day bot fall at 13:00, fine;
    # with quiet hours 12:00-14:00 both wait until 14:00.
    clock = set_clock(world, at(NEW_YORK, 24, 13))
    table = await open_game(world)
    seat = table.to_move[0]
    mover = user_of(world, table.seats[seat].user_id)
    await mover.slash(world.channel, "settings", time_zone=NEW_YORK, quiet_hours="12:00-14:00")
    await run_due(world, clock, at(NEW_YORK, 27, 13, 30))
    now = await table_of(world)
    assert now.version == table.version and not now.seats[seat].is_bot, "nothing expired in quiet hours"
    await run_due(world, clock, at(NEW_YORK, 27, 14))
    now = await table_of(world)
    assert now.version > table.version or now.seats[seat].replaced


@pytest.mark.parametrize("game", ["tomatoes", "buttons"])
async def test_a_turn_beginning_in_quiet_hours_pings_at_their_end(world: Harness, game: str) -> None:
    # Noon UTC is 07:00 in New York; the other player's quiet hours run 06:00-09:00 there.
    clock = set_clock(world, at("UTC", 24, 12))
    table = await open_game(world, game)
    first = table.seats[table.to_move[0]].user_id
    other = world.bob if first == world.alice.id else world.alice
    await other.slash(world.channel, "settings", time_zone=NEW_YORK, quiet_hours="06:00-09:00")
    # In Buttons the other player first has the optional gold die, then their own turn.
    while other.id not in await movers(world, awaited=True):
        await play_one(world)
    table = await table_of(world)
    seat = table.seat_of(other.id)
    assert seat is not None
    assert other.id not in pinged(world, world.board()), "no ping in quiet hours"
    held = table.deadline(seat, DeadlineKind.PING)
    assert held is not None and held.due_at == at(NEW_YORK, 24, 9)
    await world.restart()
    world.bot.tables.clock = clock
    await run_due(world, clock, at(NEW_YORK, 24, 8, 59))
    told = [m for m in world.thread().history() if "It is your move" in m.content]
    assert told == []
    await run_due(world, clock, at(NEW_YORK, 24, 9))
    told = [m for m in world.thread().history() if "It is your move" in m.content]
    assert len(told) == 1 and pinged(world, told[0]) == {other.id}
    assert (await table_of(world)).deadline(seat, DeadlineKind.PING) is None


# -- direct messages ---------------------------------------------------------------


async def bob_to_move(world: Harness) -> Table:
    """Play greedily until bob is to move."""
    while world.bob.id not in await movers(world):
        await play_one(world)
    return await table_of(world)


async def test_a_player_who_asked_for_dms_is_told_by_dm_with_a_link(world: Harness) -> None:
    await world.bob.slash(world.channel, "settings", told_by="dm")
    await open_game(world)
    table = await bob_to_move(world)
    board = world.board()
    assert world.bob.id not in pinged(world, board), "not mentioned in the thread"
    dms = world.bob.user.dm_channel.history()
    assert dms and "It is your move in table #1" in dms[-1].content
    assert str(table.board_message_id) in dms[-1].content, "with a link to the board"


async def test_dms_refused_fall_back_to_the_thread_and_say_so_once(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    await world.bob.slash(world.channel, "settings", told_by="dm")
    dm_channel = world.bob.user.dm_channel.id
    world.env.inject_error(
        "POST", f"/channels/{dm_channel}/messages", status=403, code=50007, message="Cannot send", times=None
    )
    await open_game(world)
    await bob_to_move(world)
    said = [m for m in world.thread().history() if "cannot send you direct messages" in m.content]
    assert len(said) == 1 and pinged(world, said[0]) == {world.bob.id}
    assert world.bot.tables.players.get(world.bob.id).dm_failed
    # Bob's next turn, after an hour away: a plain mention on the board, no second note.
    while world.bob.id in await movers(world):
        await play_one(world)
    clock.now += 3600
    if (await table_of(world)).status is TableStatus.PLAYING:
        await bob_to_move(world)
        assert world.bob.id in pinged(world, world.board())
    said = [m for m in world.thread().history() if "cannot send you direct messages" in m.content]
    assert len(said) == 1


# -- optional choices ----------------------------------------------------------------


async def gold_pair(world: Harness) -> tuple[Table, Any, Any]:
    table = await table_of(world)
    while (pair := both_at_once(table)) is None:
        assert table.status is TableStatus.PLAYING, "this seed offers the gold die to a human"
        await play_one(world)
        table = await table_of(world)
    return table, pair[0], pair[1]


async def test_the_gold_die_window_closes_to_decline(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    await open_game(world, "buttons", pace="live")
    table, place, gold = await gold_pair(world)
    table = await answer(world, table, place)
    waiting = table.version
    window = table.timing.optional_window
    assert window == 3 * 60
    armed = table.deadline(gold.seat, DeadlineKind.OPTIONAL)
    assert armed is not None and armed.due_at == clock.now + window
    await run_due(world, clock, clock.now + window - 5)
    assert (await table_of(world)).prompt_for(gold.seat) == gold
    await run_due(world, clock, clock.now + 10)
    after = await table_of(world)
    assert after.version > waiting and after.prompt_for(gold.seat) != gold
    rows = await world.bot.tables.store.actions(table.id)
    closed = next(r for r in rows if r.version == waiting)
    assert closed.source == "window" and closed.action == gold.default
    assert not [m for m in world.thread().history() if "Time ran out" in m.content], "no notice for it"


async def test_always_decline_answers_the_gold_die_at_once(world: Harness) -> None:
    await world.bob.slash(world.channel, "settings", optional_choices="decline")
    await open_game(world, "buttons")
    await play_until_bob_answered(world)
    rows = await world.bot.tables.store.actions(1)
    standing = [r for r in rows if r.source == "standing"]
    assert standing and all(r.action.kind == "decline" for r in standing)


async def test_a_bot_chooses_the_gold_die_for_a_seat_set_so_in_the_lobby(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "play buttons")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    lobby = lobby_now(world, lobby)
    outsider = await world.watcher.select(lobby, ["bot"], custom_id=select_id(lobby, LobbyOp.ANSWER))
    assert outsider.followups and "Join the table first" in (outsider.followups[0].content or "")
    chosen = await world.bob.select(lobby, ["bot"], custom_id=select_id(lobby, LobbyOp.ANSWER))
    assert any("let a bot choose for me" in (f.content or "") for f in chosen.followups)
    assert world.bot.tables.players.get(world.bob.id).standing.value == "ask", "this table only"
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    await play_until_bob_answered(world)
    rows = await world.bot.tables.store.actions(1)
    assert [r for r in rows if r.source == "standing" and r.seat == 1]


async def play_until_bob_answered(world: Harness) -> None:
    """Play on until bob's seat has had an optional choice; none ever waits for him."""
    for _ in range(200):
        table = await table_of(world)
        assert table.status is TableStatus.PLAYING
        bob = table.seat_of(world.bob.id)
        assert bob is not None
        prompt = table.prompt_for(bob)
        assert prompt is None or not prompt.optional, "the standing answer answered at once"
        rows = await world.bot.tables.store.actions(table.id)
        if any(r.source == "standing" for r in rows):
            return
        await play_one(world)
    raise AssertionError("bob was never offered the gold die")


async def test_a_reminder_goes_by_dm_to_a_player_who_asked_for_it(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    start = clock.now
    table = await open_game(world)
    mover = user_of(world, table.seats[table.to_move[0]].user_id)
    await mover.slash(world.channel, "settings", told_by="dm")
    await run_due(world, clock, start + 12 * 3600 + 5)
    dms = mover.user.dm_channel.history()
    assert dms and "It is still your move in table #1" in dms[-1].content
    # The thread keeps its reminder (the others vote on it) but it pings nobody.
    [copy] = reminders(world, mover.id)
    assert pinged(world, copy) == set()


async def test_an_optional_choice_is_never_reminded(world: Harness) -> None:
    await open_game(world, "buttons")
    table, _place, gold = await gold_pair(world)
    assert table.deadline(gold.seat, DeadlineKind.REMIND) is None
    assert table.deadline(gold.seat, DeadlineKind.TIMEOUT) is not None


async def test_a_turn_that_follows_a_closed_window_in_quiet_hours_is_held(world: Harness) -> None:
    # The gold die's window closes for bob (a clock, not his move) and his own turn begins: he is
    # in his quiet hours (07:00 in New York, quiet until 12:00), so the board does not ping him.
    clock = set_clock(world, at("UTC", 24, 12))
    await world.bob.slash(world.channel, "settings", time_zone=NEW_YORK, quiet_hours="06:00-12:00")
    await open_game(world, "buttons")
    for _ in range(30):
        table, place, gold = await gold_pair(world)
        bob = table.seat_of(world.bob.id)
        if gold.seat != bob:
            await play_one(world)
            continue
        table = await answer(world, table, place)
        await run_due(world, clock, clock.now + 4 * 3600 + 1)
        table = await table_of(world)
        if bob in [p.seat for p in table.prompts if not p.optional]:
            break
    else:
        raise AssertionError("bob's turn never followed his gold die")
    assert world.bob.id not in pinged(world, world.board())
    held = table.deadline(bob, DeadlineKind.PING)
    assert held is not None and held.due_at == at(NEW_YORK, 24, 12)
    await run_due(world, clock, at(NEW_YORK, 24, 12))
    told = [m for m in world.thread().history() if "It is your move" in m.content]
    assert len(told) == 1 and pinged(world, told[0]) == {world.bob.id}


async def test_a_reminder_refused_by_dm_pings_in_the_thread_and_says_why(world: Harness) -> None:
    clock = set_clock(world, at("UTC", 24, 12))
    start = clock.now
    table = await open_game(world)
    mover = user_of(world, table.seats[table.to_move[0]].user_id)
    await mover.slash(world.channel, "settings", told_by="dm")
    world.env.inject_error(
        "POST", f"/channels/{mover.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    await run_due(world, clock, start + 12 * 3600 + 5)
    [reminder] = reminders(world, mover.id)
    assert pinged(world, reminder) == {mover.id} and "cannot send you direct messages" in reminder.content
    assert world.bot.tables.players.get(mover.id).dm_failed
