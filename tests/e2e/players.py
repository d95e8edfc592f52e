"""How a player drives a game through the fake: find the components to click, click them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    interaction = await use(fake, msg, item, user)
    if item.get("type") == 3:
        return await fake.wait_answered(interaction), first_value(item).startswith("a")
    return await fake.wait_answered(interaction), str(item["custom_id"]).startswith("mp:act:")


async def use(
    fake: FakeDiscord, msg: Message, item: Item, user: User, *, as_seen: Message | None = None
) -> Interaction:
    """Click a button, or choose a select's first option, as `user` (without waiting for the answer)."""
    custom_id = str(item["custom_id"])
    if item.get("type") == 3:
        return await fake.select(msg, custom_id, [first_value(item)], user, as_seen=as_seen)
    return await fake.click(msg, custom_id, user, as_seen=as_seen)


def first_value(item: Item) -> str:
    """A select's first option that plays a move, else its first that opens a group."""
    return (_select_values(item, "a") or _select_values(item, "g"))[0]


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
