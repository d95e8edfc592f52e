"""Scenario building blocks for the Troyes tests: a bare table, dice, and actions by name."""

from __future__ import annotations

from engine.core import Action, Prompt
from engine.troyes import RULES
from engine.troyes.data import activities
from engine.troyes.kinds import Colour, Phase
from engine.troyes.state import CardSlot, Die, EventSlot, TroyesState

R, W, Y = Colour.RED, Colour.WHITE, Colour.YELLOW
DONE = Action("done")
BACK = Action("back")
PASS = Action("pass")


def table(seats: int = 2, cards: tuple[str, ...] = (), events: tuple[str, ...] = ()) -> TroyesState:
    """A table in the action phase of round 3: empty buildings, the given cards revealed, no dice."""
    state = RULES.setup(seats, seed=0)
    state.phase = Phase.ACTIONS
    state.placement_order = []
    state.stack = []
    state.round, state.turn, state.start = 3, 0, 0
    state.buildings = [[None] * 6 for _ in range(3)]
    state.lying = [[] for _ in range(3)]
    state.cards = [
        CardSlot(
            id=c,
            colour=activities()[c].colour,
            level=activities()[c].level,
            revealed=True,
            spaces=[None] * len(activities()[c].space_vp),
        )
        for c in cards
    ]
    state.queue = [EventSlot(id="E00"), *(EventSlot(id=e) for e in events)]
    state.dice, state.rolled, state.spent, state.black = [], 0, 0, []
    for player in state.players:
        player.deniers, player.influence, player.vp, player.supply = 10, 5, 0, 3
    return state


def add_dice(state: TroyesState, owner: int, colour: Colour, *values: int) -> list[int]:
    """Put dice in a district; return their ids."""
    ids = []
    for value in values:
        state.dice.append(Die(id=state.next_die, colour=colour, value=value, owner=owner))
        ids.append(state.next_die)
        state.next_die += 1
        state.rolled += 1
    return ids


def spare(state: TroyesState, seat: int = 1) -> None:
    """A die for another seat so the round does not end when the tested action does."""
    add_dice(state, seat, W, 1)


def target(t: str) -> Action:
    """Choose what to act on in the turn menu."""
    return Action.of("target", t=t)


def die(i: int) -> Action:
    """Add a die to the group."""
    return Action.of("die", id=i)


def play(state: TroyesState, seat: int, *actions: Action) -> TroyesState:
    """Apply actions in order through the real prompts; each must be offered or already taken.

    The engine takes a step alone when it has one way forward, so a die, "done", a source or a
    number of activations the engine already chose is skipped, and a die stands for any identical
    one (same owner, colour and value: one option). Anything else not offered fails.
    """
    for action in actions:
        offered = RULES.prompt_for(state, seat)
        options = offered.options if offered else ()
        if action in options:
            state = RULES.apply(state, seat, action).state
        elif action.kind == "die" and (twin := _twin(state, action["id"], options)) is not None:
            state = RULES.apply(state, seat, twin).state
        elif not _already_taken(state, seat, action, offered):
            raise AssertionError(f"{action} is neither offered nor already taken: {options}")
    return state


_ASKED_BY = {
    "done": ("dice", "flip"),
    "source": ("citizen_from",),
    "activations": ("activations",),
    "modifier": ("modifier",),
    "event": ("fight_which", "cube_on_event"),
}


def _twin(state: TroyesState, die_id: int, options: tuple[Action, ...]) -> Action | None:
    """The offered die identical to `die_id`, if it is still on the square."""
    index = {d.id: d for d in state.dice}
    if die_id not in index:
        return None
    key = (index[die_id].owner, index[die_id].colour, index[die_id].value)
    for option in options:
        if option.kind == "die" and option["id"] in index:
            other = index[option["id"]]
            if (other.owner, other.colour, other.value) == key:
                return option
    return None


def _already_taken(state: TroyesState, seat: int, action: Action, offered: Prompt | None) -> bool:
    """Whether the engine already took this step alone (one way forward)."""
    asked_here = (
        offered is not None and offered.seat == seat and offered.kind in _ASKED_BY.get(action.kind, ())
    )
    if action.kind == "die":
        gone = all(d.id != action["id"] for d in state.dice)
        chosen = bool(state.stack) and action["id"] in state.stack[-1].dice
        return gone or chosen
    return action.kind in _ASKED_BY and not asked_here


def options(state: TroyesState) -> tuple[Action, ...]:
    """The options of the single pending prompt."""
    (prompt,) = RULES.prompts(state)
    return prompt.options


def with_tradesman(state: TroyesState, index: int, seat: int) -> None:
    """Give `seat` a tradesman on card `index` already."""
    slot = state.cards[index]
    slot.spaces[slot.spaces.index(None)] = seat
