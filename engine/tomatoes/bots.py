"""Bot policies for Diced Tomatoes: the greedy one scores each option with a one-step heuristic."""

from __future__ import annotations

from engine.core import Action, Prompt
from engine.rng import Rng
from engine.tomatoes.karma import KARMA_ACTIONS, completion_karma
from engine.tomatoes.placement import fits, flipped_seed_fits
from engine.tomatoes.state import (
    BITS_PER_KARMA,
    SLOTS_PER_TRACK,
    VINE_HARVEST_SIZE,
    Colour,
    Die,
    TomatoState,
)
from engine.tomatoes.vines import OVERRIPE_ABOVE

KARMA_WORTH = 0.6
"""What one karma is worth to the bot, in points (2 karma = 1 point at the end, plus its uses)."""
TOKEN_RENT = 2.0
"""What holding a token with a growing vine costs its owner (a low seed blocks better ones)."""
OPPONENT_WEIGHT = 0.8
"""How much hurting an opponent counts against helping yourself."""
SPEND_THRESHOLD = 0.3
"""A karma action must gain at least this much to be worth doing."""


def vine_value(dice: list[Die]) -> int:
    """Seed pips, -1 per black die, +1 per gold die."""
    value = dice[0].value
    for die in dice:
        if die.colour is Colour.BLACK:
            value -= 1
        elif die.colour is Colour.GOLD:
            value += 1
    return value


class GreedyBot:
    """Seeds its own high dice, dumps low and black dice on opponents, harvests, spends karma when it pays."""

    def choose(self, view: TomatoState, prompt: Prompt, rng: Rng) -> Action:
        """Return the option with the best heuristic gain for the prompt's seat."""
        if prompt.kind == "roll":
            # Picking colours: red first (the only seeds), then gold, then black.
            return max(prompt.options, key=lambda a: (a.get("red", 0), a.get("gold", 0)))
        if prompt.kind == "clear":
            # A vine worth 0 or less scores nothing and blocks a token: clear it.
            return next((a for a in prompt.options if a.kind == "clear"), prompt.options[-1])
        return _Judge(view, prompt.seat).best(prompt.options)


class _Judge:
    """Scores placement and karma options for one seat on one view."""

    def __init__(self, view: TomatoState, seat: int) -> None:
        self.view = view
        self.seat = seat
        options = view.options
        self.bits = options.karma_overload and options.karma_bits and not view.solo
        karma = view.players[seat].karma
        # Karma above the resting cap is lost at the end of the turn, so spending it is free.
        self.free_karma = max(0, karma - options.rest_karma_cap)
        self._die_cache: dict[Die, float] = {}

    def best(self, options: tuple[Action, ...]) -> Action:
        """The option with the highest gain (ties: the first listed)."""
        best_action, best_gain = options[0], float("-inf")
        for action in options:
            gain = self.gain(action)
            if gain > best_gain:
                best_action, best_gain = action, gain
        return best_action

    def gain(self, action: Action) -> float:
        """Heuristic gain of an option for the bot's seat, in points."""
        kind = action.kind
        if kind == "place":
            die = self.view.rolled[action["die"]]
            return self.place_gain(die, action["owner"], action["token"])
        if kind == "end_turn":
            return 0.0
        spec = KARMA_ACTIONS[kind]
        cost = max(0, spec.cost - self.free_karma) * KARMA_WORTH
        if kind in ("clean", "flip"):
            owner, index = action["owner"], action["token"]
            token = self.view.players[owner].tokens[index]
            before = self.worth(owner, token.dice)
            if kind == "clean":
                after = 0.0
            else:
                if not flipped_seed_fits(token):
                    return float("-inf")
                seed = token.dice[0]
                after = self.worth(owner, [Die(seed.colour, 7 - seed.value), *token.dice[1:]])
            return self.weight(owner) * (after - before) - cost - SPEND_THRESHOLD
        die = self.view.rolled[action["die"]]
        now = self.best_for_die(die)
        if kind == "reroll":
            later = sum(self.best_for_die(Die(die.colour, v)) for v in range(1, 7)) / 6
        elif kind == "shift":
            later = self.best_for_die(Die(die.colour, die.value + action["by"]))
        elif kind == "roll_over":
            later = self.best_for_die(Die(die.colour, 7 - die.value))
        else:
            later = self.best_for_die(Die(die.colour, action["value"]))
        return later - now - cost - SPEND_THRESHOLD

    def weight(self, owner: int) -> float:
        """+1 for the bot's own vines, negative for opponents'."""
        return 1.0 if owner == self.seat else -OPPONENT_WEIGHT

    def worth(self, owner: int, dice: list[Die]) -> float:
        """What a token holding `dice` is worth to its owner, in expected points."""
        if not dice:
            return 0.0
        value = vine_value(dice)
        if len(dice) >= VINE_HARVEST_SIZE:
            return self.harvest_points(owner, value)
        if value <= 0 or value > OVERRIPE_ABOVE:
            return 0.0  # cleared at the end of the turn
        return value * (0.45 + 0.15 * len(dice)) - TOKEN_RENT

    def harvest_points(self, owner: int, value: int) -> float:
        """Points a harvest worth `value` brings its owner now."""
        if value > OVERRIPE_ABOVE:
            return 0.0
        slot = len(self.view.players[owner].slots) + 1
        matched = value == slot
        if self.view.solo:
            return 8.0 if matched else 1.5
        bonus = self.view.options.match_total - slot if matched and self.view.options.dicey_rules else 0
        extra = 1.5 if slot == SLOTS_PER_TRACK and self.view.first_to_six is None else 0.0
        return value + bonus + extra

    def place_gain(self, die: Die, owner: int, index: int) -> float:
        """Gain of putting `die` on token `index` of `owner`."""
        token = self.view.players[owner].tokens[index]
        new = [*token.dice, die]
        gain = self.weight(owner) * (self.worth(owner, new) - self.worth(owner, token.dice))
        if owner != self.seat:
            if self.bits:
                gain += KARMA_WORTH / BITS_PER_KARMA
            if len(new) >= VINE_HARVEST_SIZE:
                gain += KARMA_WORTH * completion_karma(vine_value(new), self.view.options.karma_overload)
        elif self.view.solo and len(new) >= VINE_HARVEST_SIZE:
            gain += KARMA_WORTH * completion_karma(vine_value(new), self.view.options.karma_overload)
        return gain

    def best_for_die(self, die: Die) -> float:
        """The best placement gain for a die with this face (0 when it can only be passed)."""
        cached = self._die_cache.get(die)
        if cached is not None:
            return cached
        best = 0.0
        found = False
        for owner, player in enumerate(self.view.players):
            if len(player.slots) >= SLOTS_PER_TRACK:
                continue
            for index, token in enumerate(player.tokens):
                if fits(token, die):
                    gain = self.place_gain(die, owner, index)
                    best = gain if not found else max(best, gain)
                    found = True
        self._die_cache[die] = best
        return best
