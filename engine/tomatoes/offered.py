"""Whether one action is offered now, checked directly: the same answer as the prompt, cheaper.

`TomatoRules.is_offered` uses this so `apply` need not enumerate every placement and karma
action again; a property test holds it equal to membership in the prompt's options.
"""

from __future__ import annotations

from typing import cast

from engine.core import Action, ArgValue
from engine.tomatoes import turn
from engine.tomatoes.karma import KARMA_ACTIONS, karma_offered
from engine.tomatoes.placement import any_placement, fits
from engine.tomatoes.state import SLOTS_PER_TRACK, Phase, TomatoState

Args = tuple[tuple[str, ArgValue], ...]
_IntArgs3 = tuple[tuple[str, int], tuple[str, int], tuple[str, int]]


def plain(action: Action) -> bool:
    """Whether the kind is a str and every argument a (str, int) pair, exactly those types.

    Only such actions are checked directly; others (True == 1 and 1.0 == 1 in Python) must go
    through real membership in the options so that equality quirks answer alike.
    """
    args = action.args
    if type(action.kind) is not str or type(args) is not tuple:
        return False
    for pair in args:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str or type(pair[1]) is not int:
            return False
    return True


def offered(state: TomatoState, seat: int, action: Action) -> bool:
    """Whether a `plain` action is among `seat`'s options now."""
    if seat != state.active:
        return False
    kind, args = action.kind, action.args
    phase = state.phase
    if phase is Phase.PLACE:
        if kind == "place":
            return _place_offered(state, args)
        if kind == "end_turn":
            return not args and not any_placement(state)
        return karma_offered(state, kind, args)
    if phase is Phase.ROLL:
        if kind in KARMA_ACTIONS:
            return karma_offered(state, kind, args)
        if kind != "roll":
            return False
        if state.options.pick_colours and turn.dice_to_take(state):
            if tuple(key for key, _ in args) != ("black", "gold", "red"):
                return False
            (_, black), (_, gold), (_, red) = args
            return (red, black, gold) in turn.colour_mixes(state)
        return not args
    if phase is Phase.CLEAR:
        if kind in KARMA_ACTIONS:
            return state.options.end_step_karma and karma_offered(state, kind, args)
        if kind == "keep":
            return not args
        if kind != "clear" or len(args) != 1 or args[0][0] != "token":
            return False
        return args[0][1] in turn.zero_vines(state)
    return False


def _place_offered(state: TomatoState, args: Args) -> bool:
    """Whether ("die", d), ("owner", o), ("token", t) is a legal placement now (as `placements`)."""
    if len(args) != 3 or (args[0][0], args[1][0], args[2][0]) != ("die", "owner", "token"):
        return False
    (_, die), (_, owner), (_, token) = cast(_IntArgs3, args)
    if not (0 <= die < len(state.rolled) and 0 <= owner < len(state.players)):
        return False
    player = state.players[owner]
    if len(player.slots) >= SLOTS_PER_TRACK or not 0 <= token < len(player.tokens):
        return False
    return fits(player.tokens[token], state.rolled[die])
