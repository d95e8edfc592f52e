"""The real bot.py against the fake: /play Diced Tomatoes, bots, moves, a restart, moves again."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PIL import Image

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import World
from tests.fakediscord import FakeDiscord, Interaction, Message, User

Item = dict[str, Any]
# Custom ids of turn components: mp:KIND:table:version:... (see cogs/platform/ids.py).
# A final choice (act), a first step that opens the second (grp), or a select of either (pick).
PREFERENCE = ("mp:act:", "mp:grp:", "mp:pick:")


def version_of(item: Item) -> int:
    """The state version a turn component was built for."""
    return int(str(item["custom_id"]).split(":")[3])


def rank(item: Item) -> int:
    """Lower is preferred: a direct move before a first step before a select."""
    return next(i for i, prefix in enumerate(PREFERENCE) if str(item["custom_id"]).startswith(prefix))


def choices(msg: Message, version: int | None = None, *, final_only: bool = False) -> list[Item]:
    """The enabled turn components of a message, optionally only at `version` or final ones."""
    found = []
    for item in msg.items():
        custom_id = str(item.get("custom_id", ""))
        if item.get("disabled") or not custom_id.startswith(PREFERENCE):
            continue
        if version is not None and version_of(item) != version:
            continue
        if final_only and not (custom_id.startswith("mp:act:") or _select_values(item, "a")):
            continue
        found.append(item)
    return sorted(found, key=rank)


def _select_values(item: Item, kind: str) -> list[str]:
    return [str(o["value"]) for o in item.get("options") or [] if str(o["value"]).startswith(kind)]


def find_choice(
    fake: FakeDiscord, thread_id: int, user: User, pick: Callable[[Message], list[Item]]
) -> tuple[Message, Item] | None:
    """The newest message `user` can see in the thread with a component `pick` accepts."""
    for msg in reversed(fake.channel_messages(thread_id, for_user=user.id)):
        items = pick(msg)
        if items:
            return msg, items[0]
    return None


async def press(fake: FakeDiscord, msg: Message, item: Item, user: User) -> tuple[Interaction, bool]:
    """Click a button or choose a select's first option; say whether that completed a move."""
    custom_id = str(item["custom_id"])
    if item.get("type") == 3:
        value = (_select_values(item, "a") or _select_values(item, "g"))[0]
        interaction = await fake.select(msg, custom_id, [value], user)
        return await fake.wait_answered(interaction), value.startswith("a")
    interaction = await fake.click(msg, custom_id, user)
    return await fake.wait_answered(interaction), custom_id.startswith("mp:act:")


async def next_move(fake: FakeDiscord, thread_id: int, user: User, after: int) -> tuple[Message, Item]:
    """Wait until `user` has something to play built for a version later than `after`."""
    return await fake.wait_for(
        lambda: find_choice(
            fake, thread_id, user, lambda m: [i for i in choices(m) if version_of(i) > after]
        ),
        20,
        f"a move for {user.name} after version {after}",
    )


async def play_move(fake: FakeDiscord, thread_id: int, user: User, after: int) -> tuple[int, int]:
    """Make one move (a direct choice, or a first and a second step); return its version and message."""
    msg, item = await next_move(fake, thread_id, user, after)
    version = version_of(item)
    for _ in range(3):
        _, done = await press(fake, msg, item, user)
        if done:
            return version, msg.id
        msg, item = await fake.wait_for(
            lambda: find_choice(fake, thread_id, user, lambda m: choices(m, version, final_only=True)),
            10,
            "the second step of a move",
        )
    raise AssertionError("a move took more than three clicks")


async def play_until_mid_turn(
    fake: FakeDiscord, thread_id: int, user: User, after: int
) -> tuple[int, Message]:
    """Play until the user's next choice is on the board of the move just made (same turn)."""
    for _ in range(12):
        after, board_id = await play_move(fake, thread_id, user, after)
        msg, _ = await next_move(fake, thread_id, user, after)
        if msg.id == board_id and msg.ephemeral_to is None:
            return after, msg
    raise AssertionError("never two moves in one turn")


async def private_answer(fake: FakeDiscord, interaction: Interaction) -> str:
    """Wait for the ephemeral answer to an interaction and return its text."""
    await fake.wait_answered(interaction)

    def reply() -> Message | None:
        for mid in (interaction.original_id, *interaction.followups):
            msg = fake.messages.get(mid or 0)
            if msg is not None and not msg.loading and msg.ephemeral_to == interaction.user.id and msg.text():
                return msg
        return None

    return (await fake.wait_for(reply, 10, "an ephemeral answer")).text()


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
    for _ in range(2):
        await fake.wait_answered(await fake.click_label(lobby, "Add bot", alice))
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
    answer = (await private_answer(fake, await fake.click(board, str(item["custom_id"]), bob))).lower()
    assert "not seated" in answer or "not playing" in answer
    # Alice's click racing the board's change (as her screen still showed it) is outdated.
    seen = fake.snapshot(board)
    version, _ = await play_move(fake, thread.id, alice, version)
    await next_move(fake, thread.id, alice, version)
    stale = await fake.click(board, str(item["custom_id"]), alice, as_seen=seen)
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
    boards = [a for m in everyone for a in m.attachments if a.filename.endswith(".png")]
    for attachment in boards:
        with Image.open(io.BytesIO(attachment.data)) as image:
            assert image.width >= 600
