"""Boards already posted keep working: every custom_id the code before the component classes built
routes to exactly one of them, which reads the same reference from it (buttons survive restarts)."""

from __future__ import annotations

import discord

from cogs.platform import ids, views
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import table_of
from tests.cogs.test_turns import mover_and_other, start_two_humans

OLD_IDS = {
    # As cogs/platform/ids.py built them on main 83199ff (one catch-all component then).
    "mp:lobby:12:join": ids.LobbyRef(12, ids.LobbyOp.JOIN),
    "mp:lobby:12:remove": ids.LobbyRef(12, ids.LobbyOp.REMOVE),
    "mp:lobby:0:answer": ids.LobbyRef(0, ids.LobbyOp.ANSWER),
    "mp:act:12:34:1:7": ids.ActRef(12, 34, 1, 7),
    "mp:grp:12:34:0:3:1": ids.GroupRef(12, 34, 0, 3, 1),
    "mp:main:12:34:2": ids.MainRef(12, 34, 2),
    "mp:undo:12:34:1": ids.UndoRef(12, 34, 1),
    "mp:pick:12:34:0": ids.PickRef(12, 34, 0),
    "mp:mine:12": ids.MineRef(12),
    "mp:replay:12:5:1": ids.ReplayRef(12, 5, 1),
    "mp:hist:3": ids.HistoryRef(3),
    "mp:log:12:1000000000000000": ids.LogRef(12, ids.LATEST_PAGE),
    "mp:vote:12:1:1767225600": ids.VoteRef(12, 1, 1767225600),
    "mp:top:tomatoes:2": ids.LeaderboardRef("tomatoes", 2),
}


def test_every_old_custom_id_routes_to_exactly_one_component_class_with_the_same_reference() -> None:
    assert {type(ref) for ref in OLD_IDS.values()} == {*ids.TABLE_REFS, ids.LeaderboardRef}
    for custom_id, ref in OLD_IDS.items():
        matching = [c for c in views.COMPONENTS if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
        assert len(matching) == 1, (custom_id, matching)
        component = matching[0](discord.ui.Button(label="old", custom_id=custom_id))
        assert component.ref == ref, custom_id
        assert ref.custom_id() == custom_id, "the ids built today are the same"


def test_malformed_ids_match_no_component_class() -> None:
    for bad in ("mp:act:1:x:0:0", "mp:launch:1:2", "mp:act:01:2:3:4", "mp:top:Tomatoes:1", "mp:lobby:1:x"):
        assert views.component_for(bad) is None, bad


async def test_a_board_posted_by_the_old_code_plays_after_a_restart(world: Harness) -> None:
    """Plain components with ids as the old code built them, clicked after a restart: the move is played."""
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    seat = table.to_move[0]
    old = f"mp:act:{table.id}:{table.version}:{seat}:0"
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="old option", custom_id=old))
    thread = world.bot.get_channel(table.thread_id)
    assert isinstance(thread, discord.Thread)
    await thread.send("a board of the old code", view=view)
    await world.restart()
    message = next(m for m in reversed(world.thread().history()) if m.content == "a board of the old code")
    result = await mover.click(message, custom_id=old)
    await world.idle()
    assert result.acknowledged and not result.followups, [f.content for f in result.followups]
    after = await table_of(world)
    assert after.status is TableStatus.PLAYING and after.version > table.version
