"""The real bot.py against the fake: /play Diced Tomatoes, bots, moves, a restart, moves again."""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable

from PIL import Image

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import World
from tests.e2e.players import (
    choices,
    next_move,
    play_move,
    play_until_mid_turn,
    private_answer,
    use,
    version_of,
)


async def test_play_tomatoes_with_bots_across_a_restart(
    world: World, bot_process: Callable[[], BotProcess]
) -> None:
    fake, channel = world.fake, world.channel
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    first = bot_process()
    await first.start()
    await first.wait_output("ready as")

    # The lobby: Alice opens it, adds two bots; Bob, a spectator, cannot start it.
    opened = await fake.slash("play tomatoes", alice, channel)
    assert "Table #1" in await private_answer(fake, opened)
    lobby = await fake.wait_message(
        lambda m: m.channel_id == channel.id and "Join" in m.labels(), what="a lobby"
    )
    add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
    for level in ("normal", "hard"):
        await fake.wait_answered(await fake.select(lobby, add_bot, [level], alice))
    await fake.wait_for(lambda: lobby.edited >= 2, 10, "the lobby to show two bots")
    refused = await fake.click_label(lobby, "Start", bob)
    assert "host" in (await private_answer(fake, refused)).lower()
    await fake.wait_answered(await fake.click_label(lobby, "Start", alice))
    thread = (await fake.wait_for(lambda: fake.threads_of(channel.id), 10, "the game thread"))[0]
    assert thread.id == lobby.id, "the thread opens from the lobby message"

    # Bots move by themselves; Alice plays whenever her buttons appear.
    version, _ = await play_move(fake, thread.id, alice, -1)

    # A spectator's click on Alice's buttons is refused privately and changes nothing.
    board, item = await next_move(fake, thread.id, alice, version)
    answer = (await private_answer(fake, await use(fake, board, item, bob))).lower()
    assert "not seated" in answer or "not playing" in answer
    # Alice's click racing the board's change (as her screen still showed it) is outdated.
    seen = fake.snapshot(board)
    version, _ = await play_move(fake, thread.id, alice, version)
    await next_move(fake, thread.id, alice, version)
    stale = await use(fake, board, item, alice, as_seen=seen)
    assert "out of date" in (await private_answer(fake, stale)).lower()

    # SIGTERM lands while a move is being carried out (it was only acknowledged):
    # the bot finishes it, board included, before it closes the store and exits 0.
    version, _ = await play_move(fake, thread.id, alice, version)
    mark = len(fake.requests)
    assert await first.terminate() == 0
    out = first.output()
    assert "Traceback" not in out and "ERROR" not in out
    assert any(str(thread.id) in r.path or "/webhooks/" in r.path for r in fake.requests[mark:])

    # A new process on the same database picks the game up (bots included) and plays on,
    # until Alice is in the middle of a turn; then it stops.
    second = bot_process()
    await second.start()
    await second.wait_output("ready as", after=len(out))
    version, board = await play_until_mid_turn(fake, thread.id, alice, version)
    edits = board.edited
    out = second.output()
    assert await second.terminate() == 0
    assert "Traceback" not in second.output()

    # A third process: the buttons the second one posted still work (persistent components).
    third = bot_process()
    await third.start()
    await third.wait_output("ready as", after=len(out))
    assert board.edited == edits, "the board was not reposted: its old buttons are clicked"
    pending = version_of(choices(board)[0])
    moved, board_id = await play_move(fake, thread.id, alice, version)
    assert (moved, board_id) == (pending, board.id)
    await next_move(fake, thread.id, alice, moved)
    assert await third.terminate() == 0
    assert "Traceback" not in third.output()
    syncs = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1, "restarts with the same commands do not sync them again"

    # Alice was pinged on her turns; Bob, who only watched, never was.
    everyone = fake.channel_messages(thread.id)
    assert any(alice.id in m.pinged for m in everyone)
    assert not any(bob.id in m.pinged for m in fake.messages.values())

    # Boards carry their picture, uploaded as multipart, once the game has a renderer.
    boards = [a for m in everyone for a in m.attachments if a.filename.endswith(".webp")]
    if has_renderer("tomatoes"):
        assert boards
    for attachment in boards:
        with Image.open(io.BytesIO(attachment.data)) as image:
            image.load()
            assert image.width >= 600


def has_renderer(game: str) -> bool:
    """Whether renderers/ draws this game yet (the presenter posts boards without a picture otherwise)."""
    try:
        renderers = importlib.import_module("renderers")
        importlib.import_module(f"renderers.{game}")
    except ImportError:
        return False
    return hasattr(renderers, "render_file")
