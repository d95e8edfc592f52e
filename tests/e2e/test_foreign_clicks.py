"""A click whose component is not on the message it comes from changes nothing there.

The message sent with a click is whatever the sender says; the handlers that edit the clicked
message (vote counts, the history page, a replay step, the leaderboard page) must not turn a
board into something else, nor strip its buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs.platform.views import NOT_ON_MESSAGE
from tests.e2e.lane import GameSpec, Lane
from tests.e2e.players import private_answer
from tests.fakediscord import FakeDiscord, Message


def forged(fake: FakeDiscord, board: Message, custom_id: str) -> Message:
    """The board as a forged click claims it: with a button `custom_id` it does not have."""
    seen = fake.snapshot(board)
    extra = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
    seen.components = [*seen.components[:4], {"type": 1, "components": [extra]}]
    return seen


async def test_a_component_not_on_its_message_is_refused_by_every_handler_that_edits_it(
    tmp_path: Path,
) -> None:
    lane = Lane(tmp_path)
    await lane.open()
    fake = lane.fake
    try:
        table_id, lobby = await lane.open_table(GameSpec("tomatoes", humans=2, bots=0))
        alice, bob = lane.people[:2]
        await fake.wait_answered(await fake.click_label(lobby, "Start", alice))

        def board() -> Message | None:
            row = lane.db.table(table_id)
            if row is None or row.thread_id is None:
                return None
            boards = [m for m in fake.channel_messages(row.thread_id) if m.items() and not m.ephemeral_to]
            return boards[-1] if boards else None

        shown = await fake.wait_for(board, 20, "the first board")
        to_move = lane.db._query(
            "SELECT seat, idle_since FROM seats WHERE table_id = ? AND idle_since IS NOT NULL", (table_id,)
        )
        seat, since = int(to_move[0][0]), int(to_move[0][1])
        # The vote is the other player's to cast (a seat's own player is told to move instead).
        voter = next(p for p in (alice, bob) if p.id != lane.db.seat_users(table_id)[seat])
        foreign = {
            "vote after a move": f"mp:vote:{table_id}:{seat}:1",
            "vote counted": f"mp:vote:{table_id}:{seat}:{since}",
            "history page": "mp:hist:1",
            "replay step": f"mp:replay:{table_id}:1:0",
            "leaderboard page": "mp:top:tomatoes:1",
        }
        wrong = []
        for what, custom_id in foreign.items():
            before: tuple[Any, ...] = (shown.content, shown.custom_ids(), shown.embeds, shown.edited)
            interaction = await fake.click(shown, custom_id, voter, as_seen=forged(fake, shown, custom_id))
            try:
                said = await private_answer(fake, interaction)
            except TimeoutError:
                said = "(no private answer)"
            if said != NOT_ON_MESSAGE:
                wrong.append(f"{what}: answered {said!r}")
            if (shown.content, shown.custom_ids(), shown.embeds, shown.edited) != before:
                wrong.append(f"{what}: the board changed (buttons now {shown.custom_ids()})")
        assert wrong == [], "\n".join(wrong)
    finally:
        await lane.close()
    assert fake.problems == [], fake.problems
