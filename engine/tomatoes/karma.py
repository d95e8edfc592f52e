"""Karma: earning it (completions, bits), its caps, and the six karma actions (rules section 8)."""

from __future__ import annotations

import enum
from functools import cache
from typing import cast

from engine.core import Action, ArgValue, Event
from engine.tomatoes.events import Ev, die_json
from engine.tomatoes.placement import flipped_seed_fits
from engine.tomatoes.state import BITS_PER_KARMA, Die, TomatoState


class KarmaAction(enum.Enum):
    """The six things karma buys, with their action kind and cost."""

    REROLL = ("reroll", 1)
    SHIFT = ("shift", 2)
    CLEAN = ("clean", 3)
    ROLL_OVER = ("roll_over", 4)
    FLIP = ("flip", 5)
    SET_VALUE = ("set_value", 6)

    @property
    def kind(self) -> str:
        """The Action.kind that performs it."""
        return self.value[0]

    @property
    def cost(self) -> int:
        """Its price in karma."""
        return self.value[1]


KARMA_ACTIONS: dict[str, KarmaAction] = {k.kind: k for k in KarmaAction}
"""Karma actions by Action.kind."""


def completion_karma(value: int, karma_overload: bool) -> int:
    """Karma for completing a vine worth `value` (before any slot bonus)."""
    if value <= 0:
        return 0  # rules section 15 item 7: the karma table starts at 1
    return value if karma_overload else (value + 1) // 2


def bits_in_play(state: TomatoState) -> bool:
    """Karma bits exist with Karma Overload (and its bits option), never in solo."""
    return state.options.karma_overload and state.options.karma_bits and not state.solo


def gain_karma(state: TomatoState, seat: int, amount: int, reason: str) -> list[Event]:
    """Add karma up to the in-turn cap (rules section 8.3); any excess is lost."""
    if amount <= 0:
        return []
    player = state.players[seat]
    before = player.karma
    player.karma = min(before + amount, state.options.turn_karma_cap)
    gained = player.karma - before
    data = {"seat": seat, "gained": gained, "lost": amount - gained, "karma": player.karma, "reason": reason}
    return [Event(Ev.KARMA, data)]


def add_bits(state: TomatoState, seat: int, count: int, reason: str) -> list[Event]:
    """Give `seat` karma bits; every 3 bits become 1 karma."""
    if count <= 0 or not bits_in_play(state):
        return []
    player = state.players[seat]
    player.karma_bits += count
    events = [Event(Ev.BIT, {"seat": seat, "count": count, "bits": player.karma_bits, "reason": reason})]
    converted, player.karma_bits = divmod(player.karma_bits, BITS_PER_KARMA)
    events += gain_karma(state, seat, converted, "bits")
    return events


REROLL_COST = KarmaAction.REROLL.cost
SHIFT_COST = KarmaAction.SHIFT.cost
CLEAN_COST = KarmaAction.CLEAN.cost
ROLL_OVER_COST = KarmaAction.ROLL_OVER.cost
FLIP_COST = KarmaAction.FLIP.cost
SET_VALUE_COST = KarmaAction.SET_VALUE.cost


@cache
def die_action(kind: str, index: int, extra: str = "", amount: int = 0) -> Action:
    """A karma action on rolled die `index` (shared instances: prompts are rebuilt every step)."""
    if extra:
        return Action.of(kind, die=index, **{extra: amount})
    return Action.of(kind, die=index)


@cache
def vine_action(kind: str, owner: int, token: int) -> Action:
    """A karma action on the vine of token `token` of seat `owner`."""
    return Action.of(kind, owner=owner, token=token)


def karma_options(state: TomatoState) -> list[Action]:
    """Every karma action the active player can afford and perform now."""
    karma = state.players[state.active].karma
    options: list[Action] = []
    if karma <= 0:
        return options
    for index, die in enumerate(state.rolled):
        value = die.value
        if karma >= REROLL_COST:
            options.append(die_action("reroll", index))
        if karma >= SHIFT_COST:
            if value > 1:
                options.append(die_action("shift", index, "by", -1))
            if value < 6:
                options.append(die_action("shift", index, "by", 1))
        if karma >= ROLL_OVER_COST and value in (1, 6):
            options.append(die_action("roll_over", index))
        if karma >= SET_VALUE_COST:
            options.extend(die_action("set_value", index, "value", v) for v in range(1, 7) if v != value)
    if karma < CLEAN_COST:
        return options
    own_only = state.options.clean_target == "own"
    for owner, player in enumerate(state.players):
        for token_index, token in enumerate(player.tokens):
            if not token.dice:
                continue
            if owner == state.active or not own_only:
                options.append(vine_action("clean", owner, token_index))
            if karma >= FLIP_COST and flipped_seed_fits(token):
                options.append(vine_action("flip", owner, token_index))
    return options


def karma_offered(state: TomatoState, kind: str, args: tuple[tuple[str, ArgValue], ...]) -> bool:
    """Whether the karma action `kind` with these plain-int `args` is in `karma_options` now."""
    spec = KARMA_ACTIONS.get(kind)
    if spec is None or state.players[state.active].karma < spec.cost:
        return False
    keys = tuple(key for key, _ in args)
    if spec in (KarmaAction.CLEAN, KarmaAction.FLIP):
        if keys != ("owner", "token"):
            return False
        (_, owner), (_, index) = cast(_IntArgs2, args)
        if not (0 <= owner < len(state.players) and 0 <= index < len(state.players[owner].tokens)):
            return False
        token = state.players[owner].tokens[index]
        if not token.dice:
            return False
        if spec is KarmaAction.FLIP:
            return flipped_seed_fits(token)
        return owner == state.active or state.options.clean_target != "own"
    if keys != _DIE_ACTION_KEYS[spec]:
        return False
    index = cast(int, args[1][1] if spec is KarmaAction.SHIFT else args[0][1])
    if not 0 <= index < len(state.rolled):
        return False
    value = state.rolled[index].value
    if spec is KarmaAction.REROLL:
        return True
    if spec is KarmaAction.ROLL_OVER:
        return value in (1, 6)
    if spec is KarmaAction.SHIFT:
        by = args[0][1]
        return (by == -1 and value > 1) or (by == 1 and value < 6)
    face = cast(int, args[1][1])
    return 1 <= face <= 6 and face != value


_DIE_ACTION_KEYS = {
    KarmaAction.REROLL: ("die",),
    KarmaAction.SHIFT: ("by", "die"),
    KarmaAction.ROLL_OVER: ("die",),
    KarmaAction.SET_VALUE: ("die", "value"),
}
_IntArgs2 = tuple[tuple[str, int], tuple[str, int]]


def apply_karma(state: TomatoState, action: Action) -> list[Event]:
    """Pay for and carry out a karma action already validated against the prompt."""
    spec = KARMA_ACTIONS[action.kind]
    seat = state.active
    state.players[seat].karma -= spec.cost
    base = {"seat": seat, "cost": spec.cost, "karma": state.players[seat].karma}
    if spec in (KarmaAction.CLEAN, KarmaAction.FLIP):
        owner, token_index = action["owner"], action["token"]
        token = state.players[owner].tokens[token_index]
        base |= {"owner": owner, "token": token_index}
        if spec is KarmaAction.CLEAN:
            dice = token.dice
            token.dice = []
            state.to_bushel(dice)
            return [Event(Ev.CLEAN, base | {"dice": [die_json(d) for d in dice]})]
        seed = token.dice[0]
        token.dice[0] = Die(seed.colour, 7 - seed.value)
        return [Event(Ev.FLIP, base | {"before": seed.value, "after": 7 - seed.value})]
    index = action["die"]
    die = state.rolled[index]
    if spec is KarmaAction.REROLL:
        value = state.rng.die()
    elif spec is KarmaAction.SHIFT:
        value = die.value + action["by"]
    elif spec is KarmaAction.ROLL_OVER:
        value = 7 - die.value
    else:
        value = action["value"]
    state.rolled[index] = Die(die.colour, value)
    data = base | {"die": index, "colour": die.colour.value, "before": die.value, "after": value}
    # A re-roll is random, so it is an undo barrier (BGA restores to just after the last re-roll).
    return [Event(spec.kind, data, checkpoint=spec is KarmaAction.REROLL)]
