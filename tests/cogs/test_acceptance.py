"""THE acceptance test: one human and two bots play Diced Tomatoes from /play to final scores,
through Discord only, with the bot process replaced by a new one halfway through."""

from __future__ import annotations

from cogs.platform import board as board_module
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, buttons, pinged, play_greedily, table_of
from tests.cogs.test_lobby import lobby_now, open_table

MOVES_BEFORE_RESTART = 12


async def test_one_human_two_bots_from_play_to_final_scores_across_a_restart(drawn_world: Harness) -> None:
    world = drawn_world
    lobby = await open_table(world)
    await add_bot(world.alice, lobby)
    await add_bot(world.alice, lobby_now(world, lobby))
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    table = await table_of(world)
    assert table.status is TableStatus.PLAYING and [s.is_bot for s in table.seats] == [False, True, True]

    assert await play_greedily(world, moves=MOVES_BEFORE_RESTART) == MOVES_BEFORE_RESTART
    before = await table_of(world)
    board_before = world.board()
    assert before.status is TableStatus.PLAYING and before.to_move == (0,)
    assert buttons(board_before), "alice's board has live buttons"

    await world.restart()
    after = await table_of(world)
    assert after.version == before.version and after.state == before.state
    # The old board's buttons still work after the restart (persistent components).
    assert world.board().id == board_before.id
    played = await play_greedily(world, moves=10_000)
    assert played > 0

    final = await table_of(world)
    assert final.status is TableStatus.FINISHED
    outcome = final.outcome
    assert outcome is not None
    message = world.board()
    assert message.id == final.board_message_id
    assert "final scores" in message.content
    for word in ("harvests", "karma", "vines"):
        assert word in message.content
    for seat in final.seats:
        assert seat.name in message.content
    best = max(outcome.scores)
    assert f"{best} points" in message.content
    assert pinged(world, message) == set(), "the final scores ping nobody"
    if board_module.render_board(final) is not None:
        # With the renderer installed, every board message carries the picture of the table.
        mine = [m for m in world.thread().history() if m.author.id == world.bot.user.id]
        assert "SHA-256 commitment" in mine[0].content, "the game opens with its dice commitment"
        boards = mine[1:]
        assert all(m.attachments and m.attachments[0].filename == "board.webp" for m in boards)

    thread_messages = world.thread().history()
    live = [m for m in thread_messages if m.components]
    assert live == [], "no buttons are left once the game is over"
    assert len(thread_messages) >= 3
    assert (
        "was played in" in lobby_now(world, lobby).content and "won with" in lobby_now(world, lobby).content
    )
    assert world.env.errors == []


async def test_a_solo_game_gets_a_board_per_turn_and_a_result(world: Harness) -> None:
    lobby = await open_table(world, golden=False)
    await world.alice.click(lobby, label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    final = await table_of(world)
    assert final.status is TableStatus.FINISHED and final.outcome is not None
    message = world.board()
    assert final.outcome.summary and final.outcome.summary in message.content
    turns = final.state.players[0].turns
    boards = [m for m in world.thread().history() if m.author.id == world.bot.user.id]
    assert len(boards) >= turns, "each solo turn opens a new board message"
    assert not any(pinged(world, board) for board in boards), "a solo player is never pinged while playing"
    # Alone there is no ranking: no medal and no "0 points" above the result line.
    assert "🥇" not in message.content and " points" not in message.content.split(final.outcome.summary)[0]
    assert f"**{world.alice.name}**: tomatoes " in message.content
    assert message.content.count("Diced Tomatoes") == 1, "the final message names the game once"
    assert "-# • " in message.content, "the last events stay under the scores"
