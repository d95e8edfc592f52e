"""Playing Troyes through simcord as players would, counting the clicks each action takes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core import Prompt
from tables.models import TableStatus
from tests.cogs import helpers
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, play_option, table_of, user_of
from tests.cogs.test_lobby import lobby_now, slash_answer

ACTION_STARTS = frozenset({"turn", "setup_place"})
"""Prompt kinds that open a new action of their seat (countering is counted per black die)."""


@dataclass
class Clicks:
    """Clicks through the Discord layer, by action type and by seat."""

    per_type: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    per_seat: Counter[int] = field(default_factory=Counter)
    current: dict[int, str] = field(default_factory=dict)
    last_kind: dict[int, str] = field(default_factory=dict)

    def action_type(self, prompt: Prompt, chosen: Any) -> str:
        """The action a click belongs to, opening a new one where the prompt starts one."""
        seat, kind = prompt.seat, prompt.kind
        fresh_counter = kind == "counter" and not dict(prompt.context).get("chosen")
        if kind in ACTION_STARTS or (fresh_counter and self.last_kind.get(seat) not in ("reroll", "flip")):
            self.current[seat] = type_of(prompt, chosen)
            self.actions[self.current[seat]] += 1
        self.last_kind[seat] = kind
        return self.current.get(seat, kind)

    def report(self) -> str:
        """Clicks per action of each type, and per seat."""
        rows = [
            f"{kind}: {self.actions[kind]} actions, {self.per_type[kind]} clicks,"
            f" {self.per_type[kind] / max(1, self.actions[kind]):.2f} per action"
            for kind in sorted(self.per_type)
        ]
        return "\n".join([*rows, f"per seat: {dict(sorted(self.per_seat.items()))}"])


def type_of(prompt: Prompt, action: Any) -> str:
    """An action's type for the click counts."""
    if prompt.kind == "setup_place":
        return "setup placement"
    if prompt.kind.startswith("counter"):
        return "black dice"
    if action.kind == "target":
        kind = str(action["t"]).split(":")[0]
        return {
            "card": "activate a card",
            "building": "place a citizen",
            "cathedral": "build the cathedral",
            "event": "fight an event",
            "agriculture": "agriculture",
        }.get(kind, kind)
    return {"reroll": "re-roll", "flip": "turn dice over", "citizen": "buy a citizen"}.get(
        action.kind, action.kind
    )


async def open_troyes(world: Harness, *, tiebreak: bool = False, humans: int = 2, bots: int = 1) -> Any:
    """/play troyes by alice; bob (and carol) join, bots are added, alice starts; returns the table."""
    result = await world.alice.slash(world.channel, "play troyes", tiebreak=tiebreak)
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and "Troyes" in lobby.content
    for user in (world.bob, world.carol)[: humans - 1]:
        await user.click(lobby_now(world, lobby), label="Join")
    for _ in range(bots):
        await add_bot(world.alice, lobby_now(world, lobby))
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert world.thread().name.startswith("🏰 Troyes #")
    await world.idle()
    return await table_of(world)


async def play_counted(world: Harness, clicks: Clicks, *, moves: int) -> int:
    """The humans to move answer `moves` prompts greedily through the board; clicks are counted."""
    pressed: list[int] = []
    real_press = helpers.press

    async def counting(*args: Any) -> Any:
        pressed.append(1)
        return await real_press(*args)

    # play_option clicks through helpers.press: count those calls while this runs.
    helpers.press = counting
    played = 0
    try:
        while played < moves:
            await world.idle()
            table = await table_of(world)
            humans = [p for p in table.prompts if not table.is_bot(p.seat)]
            if table.status is not TableStatus.PLAYING or not humans:
                break
            prompt = humans[0]
            action = table.rules.bot_action(table.state, prompt, "greedy")
            kind = clicks.action_type(prompt, action)
            user = user_of(world, table.seats[prompt.seat].user_id)
            before = len(pressed)
            await play_option(world, user, world.board(), prompt.seat, prompt.options.index(action))
            clicks.per_type[kind] += len(pressed) - before
            clicks.per_seat[prompt.seat] += len(pressed) - before
            played += 1
    finally:
        helpers.press = real_press
    await world.idle()
    return played
