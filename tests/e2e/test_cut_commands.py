"""A slash command deferred just before bot.py is killed is answered after the restart: its
"thinking" message is replaced, never left until Discord gives up (cogs/platform/clicks.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.lane import Lane, games_on_discord


async def test_a_slash_command_cut_by_sigkill_after_its_defer_is_answered_after_the_restart(
    tmp_path: Path,
) -> None:
    lane = Lane(tmp_path)
    await lane.open()
    fake = lane.fake
    try:
        alice = lane.people[0]
        assert lane.channel is not None

        def is_play(interaction: Any) -> bool:
            return interaction.type == 2 and interaction.data.get("name") == "play"

        # The defer reaches Discord ("thinking" shows) and bot.py never hears back: killed then.
        hold = fake.hold_after_ack(is_play)
        interaction = await fake.slash("play tomatoes", alice, lane.channel)
        await fake.wait_for(lambda: hold.arrived.is_set(), 10, "the command's defer")
        assert interaction.callback_type == 5
        await lane.sigkill()
        hold.release()
        thinking = fake.messages[interaction.original_id or 0]
        assert thinking.loading and thinking.ephemeral_to == alice.id
        assert lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 1, "not journalled"

        await lane.start_bot()

        def answer() -> str | None:
            return None if thinking.loading else thinking.text()

        said = await fake.wait_for(answer, 15, "the answer to the cut-short command")
        assert said == "Meeple restarted before it finished /play tomatoes. If nothing changed, run it again."
        assert thinking.ephemeral_to == alice.id and interaction.followups == []
        await fake.wait_for(
            lambda: lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 0 or None,
            10,
            "the owed row deleted",
        )
        # Run again, as told: the table opens and the command's row goes with its answer.
        again = await fake.wait_answered(await fake.slash("play tomatoes", alice, lane.channel))
        await fake.wait_for(
            lambda: lane.db.newest_table(lane.channel_id), 15, "the table opened by the second /play"
        )
        await fake.wait_for(
            lambda: (m := fake.messages.get(again.original_id or 0)) is not None and "is open" in m.text(),
            15,
            "the second /play's answer",
        )
        await fake.wait_for(
            lambda: lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 0 or None,
            10,
            "the second /play's row deleted after its answer",
        )
        assert lane.bot is not None
        assert interaction.token not in lane.bot.output(), "an interaction token was logged"
    finally:
        await lane.close()
    assert fake.problems == [], fake.problems


async def test_a_command_killed_after_its_change_was_stored_is_answered_truthfully_after_the_restart(
    tmp_path: Path,
) -> None:
    lane = Lane(tmp_path)
    await lane.open()
    fake = lane.fake
    try:
        spec = next(g for g in games_on_discord() if g.game == "tomatoes")
        table_id, lobby = await lane.open_table(spec)
        alice = lane.people[0]
        assert lane.channel is not None
        await fake.wait_answered(await fake.click_label(lobby, "Start", alice))
        await fake.wait_for(
            lambda: ((row := lane.db.table(table_id)) is not None and row.status == "playing") or None,
            15,
            "the game started",
        )
        # /game abandon stores the abandon, then its answer is held on its way: bot.py dies then.
        hold = fake.hold("POST", r"^/webhooks/\d+/[^/]+$")
        interaction = await fake.slash("game abandon", alice, lane.channel)
        await fake.wait_for(lambda: hold.arrived.is_set(), 15, "the command's answer")
        await lane.sigkill()
        assert (row := lane.db.table(table_id)) is not None and row.status == "abandoned"
        assert lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 1, "not journalled"
        thinking = fake.messages[interaction.original_id or 0]
        assert thinking.loading

        await lane.start_bot()
        said = await fake.wait_for(
            lambda: None if thinking.loading else thinking.text(), 15, "the answer after the restart"
        )
        # True though the game was abandoned: it claims neither that it was nor that it was not.
        assert said == "Meeple restarted before it finished /game abandon. If nothing changed, run it again."
        await fake.wait_for(
            lambda: lane.db._query("SELECT COUNT(*) FROM pending_clicks", ())[0][0] == 0 or None,
            10,
            "the owed row deleted",
        )
    finally:
        await lane.close()
