"""The real bot.py against the fake: a whole game of Troyes, one player against a bot."""

from __future__ import annotations

import functools
import io
import random
from collections.abc import Callable

from PIL import Image

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import World
from tests.e2e.players import Item, choices, find_choice, private_answer, version_of
from tests.e2e.test_game import has_renderer
from tests.fakediscord import FakeDiscord, Message, User

MAX_CLICKS = 1000
"""Far more than a two-player game takes; reaching it means the game is stuck."""


def playable(item: Item) -> list[tuple[str, str | None]]:
    """(label, select value) for each move a component offers."""
    if item.get("type") == 3:
        return [
            (str(o["label"]), str(o["value"]))
            for o in item.get("options") or []
            if str(o["value"]).startswith("a")
        ]
    return [(str(item.get("label")), None)]


def game_over(fake: FakeDiscord, thread_id: int) -> Message | None:
    """The final scores message, once it is posted."""
    return next((m for m in fake.channel_messages(thread_id) if "final scores" in m.content), None)


def moves_after(msg: Message, after: int) -> list[Item]:
    """The move components of a message built for a version later than `after`."""
    return [i for i in choices(msg, final_only=True) if version_of(i) > after and playable(i)]


def next_step(
    fake: FakeDiscord, thread_id: int, user: User, after: int
) -> Message | tuple[Message, Item] | None:
    """The final scores message, or the newest message with a move for `user` after `after`."""
    return game_over(fake, thread_id) or find_choice(fake, thread_id, user, lambda m: moves_after(m, after))


async def play_to_the_end(fake: FakeDiscord, thread_id: int, user: User, rng: random.Random) -> int:
    """Click random moves (never Back) for `user` until the final scores; return the clicks."""
    after = -1
    for clicks in range(MAX_CLICKS):
        ready = functools.partial(next_step, fake, thread_id, user, after)
        found = await fake.wait_for(ready, 30, f"a move for {user.name} or the end")
        if isinstance(found, Message):
            return clicks
        msg = found[0]
        items = moves_after(msg, after)
        moves = [(item, move) for item in items for move in playable(item)]
        # Back only when nothing else is offered: random walks forward end the game sooner.
        forward = [(item, move) for item, move in moves if move[0] != "Back"]
        item, (_, value) = rng.choice(forward or moves)
        custom_id = str(item["custom_id"])
        if value is None:
            await fake.wait_answered(await fake.click(msg, custom_id, user))
        else:
            await fake.wait_answered(await fake.select(msg, custom_id, [value], user))
        after = version_of(item)
    raise AssertionError(f"no end after {MAX_CLICKS} clicks")


async def test_a_whole_troyes_game_against_a_bot(world: World, bot_process: Callable[[], BotProcess]) -> None:
    fake, channel = world.fake, world.channel
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    bot = bot_process()
    await bot.start()
    await bot.wait_output("ready as")

    opened = await fake.slash("play troyes", alice, channel, {"tiebreak": True})
    assert "Table #1" in await private_answer(fake, opened)
    lobby = await fake.wait_message(
        lambda m: m.channel_id == channel.id and "Join" in m.labels(), what="a lobby"
    )
    assert "Ties are broken by deniers" in lobby.content
    add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
    await fake.wait_answered(await fake.select(lobby, add_bot, ["normal"], alice))
    await fake.wait_for(lambda: lobby.edited >= 1, 10, "the lobby to show the bot")
    await fake.wait_answered(await fake.click_label(lobby, "Start", alice))
    thread = (await fake.wait_for(lambda: fake.threads_of(channel.id), 10, "the game thread"))[0]

    # Alice's secrets, behind "My hand"; Bob, who only watches, gets nothing.
    # (On Alice's turn: her board stays live until she moves.)
    board, _ = await fake.wait_for(
        lambda: find_choice(fake, thread.id, alice, lambda m: choices(m) if "My hand" in m.labels() else []),
        20,
        "Alice's first board",
    )
    mine = await private_answer(fake, await fake.click_label(board, "My hand", alice))
    assert "Your victory points" in mine and "Your character" in mine
    refused = await private_answer(fake, await fake.click_label(board, "My hand", bob))
    assert "not playing" in refused and "victory points" not in refused

    clicks = await play_to_the_end(fake, thread.id, alice, random.Random(9))
    assert clicks > 20
    final = game_over(fake, thread.id)
    assert final is not None and "Alice" in final.content and "Characters:" in final.content
    # The last board's buttons go right after the final scores are posted.
    await fake.wait_for(
        lambda: not any(m.items() for m in fake.channel_messages(thread.id)),
        10,
        "no buttons left after the end",
    )
    everyone = fake.channel_messages(thread.id)
    assert not any(bob.id in m.pinged for m in fake.messages.values())
    assert await bot.terminate() == 0
    assert "Traceback" not in bot.output()

    boards = [a for m in everyone for a in m.attachments if a.filename.endswith(".webp")]
    if has_renderer("troyes"):
        assert boards and final.attachments, "every board carries its picture, the last one too"
    for attachment in boards:
        with Image.open(io.BytesIO(attachment.data)) as image:
            image.load()
            assert image.width >= 600
