"""Build Diced Tomatoes positions by hand for scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import Action, Event, Options, Prompt
from engine.tomatoes import RULES
from engine.tomatoes.rules import END_TURN, place_action
from engine.tomatoes.state import Colour, Die, Phase, ScoreSlot, TomatoState

R, B, G = Colour.RED, Colour.BLACK, Colour.GOLD


def die(text: str) -> Die:
    """ "r3" -> red 3, "b1" -> black 1, "g6" -> gold 6."""
    colour = {"r": R, "b": B, "g": G}[text[0]]
    return Die(colour, int(text[1:]))


def dice(*texts: str) -> list[Die]:
    """Several dice from their short forms."""
    return [die(t) for t in texts]


def position(
    players: int = 2,
    *,
    active: int = 0,
    rolled: Sequence[str] = (),
    vines: Mapping[tuple[int, int], Sequence[str]] | None = None,
    karma: Mapping[int, int] | None = None,
    slots: Mapping[int, Sequence[int]] | None = None,
    options: Options | None = None,
    first: int = 0,
) -> TomatoState:
    """A PLACE-phase state: `active` has `rolled` in front of them; vines by (owner, token).

    Dice put on the table come out of the bushel, so the count of dice stays exact.
    """
    state = RULES.setup(players, options or {}, seed=1)
    state.first_seat = first
    state.active = active
    state.phase = Phase.PLACE
    for seat, player in enumerate(state.players):
        player.turns = 1 if seat == active else 0

    def take(d: Die) -> Die:
        state.bushel[d.colour] -= 1
        assert state.bushel[d.colour] >= 0
        return d

    state.rolled = [take(die(t)) for t in rolled]
    for (owner, token), texts in (vines or {}).items():
        state.players[owner].tokens[token].dice = [take(die(t)) for t in texts]
    for seat, value in (karma or {}).items():
        state.players[seat].karma = value
    for seat, values in (slots or {}).items():
        state.players[seat].slots = [ScoreSlot(die=take(Die(R, max(1, min(v, 6)))), points=v) for v in values]
    return state


def prompt(state: TomatoState) -> Prompt:
    """The single prompt of the state."""
    (only,) = RULES.prompts(state)
    return only


def act(state: TomatoState, action: Action) -> tuple[TomatoState, list[Event]]:
    """Apply an action for the active player; return the new state and the events."""
    transition = RULES.apply(state, state.active, action)
    return transition.state, list(transition.events)


def place(state: TomatoState, rolled_index: int, owner: int, token: int) -> tuple[TomatoState, list[Event]]:
    """Place rolled die `rolled_index` on (owner, token)."""
    return act(state, place_action(rolled_index, owner, token))


def end_turn(state: TomatoState) -> tuple[TomatoState, list[Event]]:
    """End the turn (only legal when nothing is placeable)."""
    return act(state, END_TURN)


def kinds(events: Sequence[Event]) -> list[str]:
    """The kinds of events, in order."""
    return [str(e.kind) for e in events]


def placements_of(state: TomatoState) -> set[tuple[str, int, int]]:
    """Legal placements as (die short form, owner, token)."""
    found = set()
    for action in prompt(state).options:
        if action.kind == "place":
            d = state.rolled[action["die"]]
            found.add((f"{d.colour.value[0]}{d.value}", action["owner"], action["token"]))
    return found


def count_dice(state: TomatoState) -> int:
    """Every die in the game, wherever it is."""
    on_table = sum(len(t.dice) for p in state.players for t in p.tokens)
    in_hands = sum(len(p.hand) for p in state.players)
    scored = sum(len(p.slots) for p in state.players)
    return state.bushel_size + len(state.rolled) + on_table + in_hands + scored
