"""A click acknowledged just before bot.py is killed is answered after the restart, never dropped."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.e2e.chaos import plays_a_move
from tests.e2e.lane import Lane, best_choice, games_on_discord, press_item
from tests.fakediscord import Message


async def test_a_move_click_cut_by_sigkill_after_its_ack_is_answered_after_the_restart(
    tmp_path: Path,
) -> None:
    lane = Lane(tmp_path)
    await lane.open()
    fake = lane.fake
    try:
        spec = next(g for g in games_on_discord() if g.game == "tomatoes")
        table_id, lobby = await lane.open_table(spec)
        alice = lane.people[0]
        await fake.wait_answered(await fake.click_label(lobby, "Start", alice))

        def found() -> Any:
            now = lane.db.table(table_id)
            if now is None or now.thread_id is None:
                return None
            choice = best_choice(fake, now.thread_id, alice, now.version)
            return (now, choice) if choice is not None and choice[2] else None

        row, (msg, item, final) = await fake.wait_for(found, 20, "a move for Alice")
        assert isinstance(msg, Message)
        hold = fake.hold_after_ack(plays_a_move)
        interaction = await press_item(fake, msg, item, alice, random.Random(1), final)
        await fake.wait_for(lambda: hold.arrived.is_set(), 10, "the click's acknowledgement")
        assert interaction.acknowledged
        await lane.sigkill()
        hold.release()
        assert lane.db.table(table_id) == row, "the killed process stored the move after all"
        assert [a for a in lane.db.actions(table_id) if a.source == "human"] == []

        await lane.start_bot()

        def answer() -> str | None:
            for mid in interaction.followups:
                told = fake.messages.get(mid)
                if told is not None and told.ephemeral_to == alice.id and told.text():
                    return told.text()
            return None

        said = await fake.wait_for(answer, 15, "the answer to the cut-short click")
        assert "Not played" in said and "Press it again" in said, said
        assert lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 0
        # Pressed again, as told: the move is played.
        _, (msg, item, final) = await fake.wait_for(found, 20, "the move again")
        await fake.wait_answered(await press_item(fake, msg, item, alice, random.Random(1), final))
        await fake.wait_for(
            lambda: any(a.source == "human" for a in lane.db.actions(table_id)), 15, "the move stored"
        )
        assert lane.bot is not None
        assert interaction.token not in lane.bot.output(), "an interaction token was logged"
    finally:
        await lane.close()
    assert fake.problems == [], fake.problems
