"""The away summary on a turn ping, and /game log: paged, private, per seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from simcord.results import ResponseMessage

from engine.core import Event
from engine.tomatoes.rules import TomatoRules
from engine.words import ENGLISH, Words
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, pinged, play_greedily, play_option, table_of, user_of
from tests.cogs.test_lobby import lobby_now, open_table, slash_answer


def now_as(world: Harness, message: Any) -> Any:
    """A message (a private one included) as Discord holds it now."""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    return ResponseMessage(world.env, stored).message


async def all_pages(world: Harness, user: Any, message: Any) -> list[str]:
    """Every page of a private log message, newest first, following its Older button in place."""
    pages = [message.content]
    for _ in range(50):
        if "Older" not in buttons(message):
            return pages
        result = await user.click(message, label="Older")
        assert result.acknowledged and not result.followups, "paging edits the page in place"
        message = now_as(world, message)
        assert message.flags.ephemeral and "Newer" in buttons(message)
        pages.append(message.content)
    raise AssertionError("the log does not end")


def answer_of(result: Any) -> Any:
    """The private message a deferred command answered with."""
    message = result.followups[0] if result.followups else result.response
    assert message is not None and message.ephemeral
    return message


async def start_three_humans(world: Harness) -> Any:
    """alice, bob and carol at a started Diced Tomatoes table, each of them away between turns."""
    # A player who moved a moment ago is not pinged (they are watching): here each turn comes
    # to a player back from away, so every turn change pings.
    world.bot.get_cog("Games").presenter.present_for = 0.0  # type: ignore[union-attr]
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await world.carol.click(lobby_now(world, lobby), label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    return await table_of(world)


@pytest.fixture
def secrets_in_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move also logs a secret only its own seat may see ("secret of seat N")."""
    apply, describe = TomatoRules.apply_checked, TomatoRules.describe

    def apply_with_secret(self: TomatoRules, state: Any, seat: int, action: Any) -> Any:
        transition = apply(self, state, seat, action)
        secret = Event("secret", {"seat": seat}, visible_to=frozenset({seat}))
        return replace(transition, events=(*transition.events, secret))

    def describe_secret(
        self: TomatoRules, event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH
    ) -> str:
        if event.kind == "secret":
            return f"secret of seat {event.data['seat']}"
        return describe(self, event, names, words=words)

    monkeypatch.setattr(TomatoRules, "apply_checked", apply_with_secret)
    monkeypatch.setattr(TomatoRules, "describe", describe_secret)


async def test_the_turn_ping_says_what_happened_while_you_were_away(
    world: Harness, secrets_in_moves: None
) -> None:
    table = await start_three_humans(world)
    first = table.seats[table.to_move[0]]
    pings = 0
    for _ in range(200):
        before = (await table_of(world)).board_message_id
        assert await play_greedily(world, moves=1) == 1, "the game ended before the second ping"
        now = await table_of(world)
        if now.board_message_id != before and first.user_id in pinged(world, world.board()):
            pings += 1
            if pings == 2:
                break
    board = world.board()
    content = board.content
    assert f"While you were away, {first.name}:" in content
    summary = content.split("While you were away")[1].splitlines()[1:]
    assert 1 <= len(summary) <= 4, summary
    caption = content.split("While you were away")[0]
    for line in summary:
        assert line.startswith("-# ↪ ")
        assert line[len("-# ↪ ") :] not in caption, "no line twice"
    assert "secret of seat" not in content, "a public ping shows no seat's secret, not even the pinged one's"
    # The full log is one click away, and shows the clicker's own secrets only.
    result = await world.bob.click(board, label="Full log")
    page = answer_of(result)
    assert page.ephemeral and "log" in page.content
    log = "\n".join(await all_pages(world, world.bob, page.message))
    bob_seat = now.seat_of(world.bob.id)
    assert f"secret of seat {bob_seat}" in log
    assert all(f"secret of seat {s}" not in log for s in range(3) if s != bob_seat)


async def test_game_log_is_paged_and_private_per_seat(world: Harness, secrets_in_moves: None) -> None:
    await start_three_humans(world)
    await play_greedily(world, moves=12)
    table = await table_of(world)
    spectator = await world.watcher.slash(world.thread(), "game log")
    first = answer_of(spectator)
    assert first.ephemeral and "Newer" not in buttons(first.message), "it opens on the newest page"
    pages = await all_pages(world, world.watcher, first.message)
    assert len(pages) >= 2 and all(page.count("\n• ") == 15 for page in pages)
    assert "secret of seat" not in "\n".join(pages), "a spectator sees only public events"
    assert "lines 1-15 of" in pages[-1]
    for user in (world.alice, world.bob, world.carol):
        answer = await user.slash(world.thread(), "game log")
        log = "\n".join(await all_pages(world, user, answer_of(answer).message))
        seat = table.seat_of(user.id)
        assert f"secret of seat {seat}" in log
        assert all(f"secret of seat {s}" not in log for s in range(3) if s != seat)


async def test_game_log_outside_a_game(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "game log")
    assert slash_answer(result) == "No game is being played here."


async def test_the_summary_says_who_left(world: Harness) -> None:
    table = await start_three_humans(world)
    order = [(table.to_move[0] + k) % 3 for k in range(3)]
    leaver = user_of(world, table.seats[order[1]].user_id)
    last = table.seats[order[2]]
    result = await leaver.slash(world.thread(), "game leave")
    assert "a bot plays your seat" in slash_answer(result)
    for _ in range(40):
        await world.idle()
        now = await table_of(world)
        board = next(m for m in world.thread().history() if m.id == now.board_message_id)
        if last.user_id in pinged(world, board):
            break
        prompt = next(p for p in now.prompts if not now.is_bot(p.seat))
        action = now.rules.bot_action(now.state, prompt, "greedy")
        mover = user_of(world, now.seats[prompt.seat].user_id)
        await play_option(world, mover, board, prompt.seat, prompt.options.index(action))
    content = board.content
    assert f"{leaver.name} left; a bot plays their seat." in content
