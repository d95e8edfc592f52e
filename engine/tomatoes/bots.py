"""Bot policies for Diced Tomatoes: the greedy one scores each option with a one-step heuristic."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from engine.core import Action, MistakeBot, Prompt
from engine.rng import Rng
from engine.tomatoes import scoring
from engine.tomatoes.karma import KARMA_ACTIONS, completion_karma
from engine.tomatoes.placement import accepted_values, flipped_seed_fits
from engine.tomatoes.standing import standing
from engine.tomatoes.state import (
    BITS_PER_KARMA,
    SLOTS_PER_TRACK,
    VINE_HARVEST_SIZE,
    Colour,
    Die,
    GameEnd,
    TomatoState,
)
from engine.tomatoes.vines import OVERRIPE_ABOVE

KARMA_WORTH = 0.6
"""What one karma is worth to the bot, in points (2 karma = 1 point at the end, plus its uses)."""
SOLO_KARMA_WORTH = 0.3
"""Solo scoring ignores karma: one is worth only what spending it may bring."""
SLOT_WASTE = 2.5
"""What harvesting a vine worth 0 or less costs its owner: a slot that a real tomato would fill."""
TOKEN_RENT = 2.0
"""What holding a token with a growing vine costs its owner (a low seed blocks better ones)."""
THREE_DICE_SHARE = 0.85
"""Share of its value a vine one die from harvest is expected to score."""
THREE_DICE_RENT = 0.8
"""What waiting for that last die costs (it may never fit, or be spoiled)."""
OPPONENT_WEIGHT = 0.8
"""How much hurting an opponent counts against helping yourself."""
SPEND_THRESHOLD = 0.3
"""A karma action must gain at least this much to be worth doing."""
KARMA_COSTS = {kind: spec.cost for kind, spec in KARMA_ACTIONS.items()}
"""Karma action prices by Action.kind (plain ints: enum properties are slow in this hot loop)."""


def colour_shift(colour: Colour) -> int:
    """What a die of this colour adds to a vine's value: -1 black, +1 gold, 0 red."""
    return -1 if colour is Colour.BLACK else 1 if colour is Colour.GOLD else 0


def bot_view(state: TomatoState) -> TomatoState:
    """What a bot sees: the state with its generator hidden, everything else shared, read only.

    The generator is the game's only secret, so a deep copy (`Rules.view`) is not needed for
    bots; the view shares the live state's lists, and no bot writes to it (a test checks).
    Fields are set by hand as in `TomatoRules.clone` (a test checks that none is missed).
    """
    seen: TomatoState = object.__new__(TomatoState)
    seen.version = state.version
    seen.rng = Rng(0)
    seen.undo_seat = state.undo_seat
    seen.undo_depth = state.undo_depth
    seen.options = state.options
    seen.players = state.players
    seen.bushel = state.bushel
    seen.rolled = state.rolled
    seen.active = state.active
    seen.first_seat = state.first_seat
    seen.phase = state.phase
    seen.final_round = state.final_round
    seen.first_to_six = state.first_to_six
    seen.total_dice = state.total_dice
    seen.ended = state.ended
    return seen


_PlaceArgs = tuple[tuple[str, int], tuple[str, int], tuple[str, int]]


class GreedyBot:
    """Seeds its own high dice, dumps low and black dice on opponents, harvests, spends karma when it pays."""

    def choose(self, view: TomatoState, prompt: Prompt, rng: Rng) -> Action:
        """Return the option with the best heuristic gain for the prompt's seat."""
        if prompt.kind == "roll":
            rolls = [a for a in prompt.options if a.kind == "roll"]
            karma = [a for a in prompt.options if a.kind != "roll"]
            if karma:
                # Before rolling only vines can be changed: clean or flip one if it pays.
                judge = _Judge(view, prompt.seat)
                spend = judge.best(tuple(karma))
                if judge.gain(spend) > 0:
                    return spend
            # Picking colours: red first (the only seeds), then gold, then black.
            return max(rolls, key=lambda a: (a.get("red", 0), a.get("gold", 0)))
        if prompt.kind == "clear":
            keep = next(a for a in prompt.options if a.kind == "keep")
            spendable = tuple(a for a in prompt.options if a.kind in KARMA_COSTS)
            if spendable:
                # Karma the end-of-turn cut would take (or just earned for passed dice) buys
                # a clean or a flip if one pays, as during the turn.
                judge = _Judge(view, prompt.seat)
                spend = judge.best(spendable)
                if judge.gain(spend) > 0:
                    return spend
            # A vine worth 0 or less scores nothing and blocks a token: clear it, unless the
            # track is full, when tokens are frozen and its red dice still score at the end.
            if len(view.players[prompt.seat].slots) >= SLOTS_PER_TRACK:
                return keep
            return next((a for a in prompt.options if a.kind == "clear"), keep)
        return _Judge(view, prompt.seat).best(prompt.options)


class _Judge:
    """Scores placement and karma options for one seat on one view.

    Every token's current worth is computed once; the best placement for a die is tabled per
    colour for all six faces at once, because a die added to a vine changes its value by its
    colour only (the face just has to fit), so the karma options that change a face cost a lookup.
    """

    def __init__(self, view: TomatoState, seat: int) -> None:
        self.view = view
        self.seat = seat
        options = view.options
        self.bits = options.karma_overload and options.karma_bits and not view.solo
        self.overload = options.karma_overload
        karma = view.players[seat].karma
        # Karma above the resting cap is lost at the end of the turn, so spending it is free,
        # and karma gained above it is worth nothing unless spent this turn.
        self.free_karma = max(0, karma - options.rest_karma_cap)
        self.karma_room = max(0, options.rest_karma_cap - karma)
        self.karma_worth = SOLO_KARMA_WORTH if view.solo else KARMA_WORTH
        self.full = [len(p.slots) >= SLOTS_PER_TRACK for p in view.players]
        self.weights = [self.weight(owner) for owner in range(len(view.players))]
        self.values = [[t.value for t in p.tokens] for p in view.players]
        self.worths: list[list[float]] = []
        for owner, (player, values) in enumerate(zip(view.players, self.values, strict=True)):
            pairs = zip(player.tokens, values, strict=True)
            self.worths.append([self.worth_of(owner, len(t.dice), v) if t.dice else 0.0 for t, v in pairs])
        self._tables: dict[Colour, list[float]] = {}

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
            # Prompt options carry their arguments in canonical (sorted) order: die, owner, token.
            (_, die_index), (_, owner), (_, index) = cast(_PlaceArgs, action.args)
            die = self.view.rolled[die_index]
            return self.place_gain(die.colour, die.value, owner, index)
        if kind == "end_turn":
            return 0.0
        if kind == "place_rest":
            return float("-inf")  # the same placements one by one, which the bot weighs itself
        cost = max(0, KARMA_COSTS[kind] - self.free_karma) * self.karma_worth
        if kind in ("clean", "flip"):
            return self.vine_gain(kind == "flip", action["owner"], action["token"]) - cost - SPEND_THRESHOLD
        return self.face_gain(action) - cost - SPEND_THRESHOLD

    def vine_gain(self, flip: bool, owner: int, index: int) -> float:
        """Gain of cleaning a vine, or of flipping its seed (never, when the vine would not stay legal)."""
        before = self.worths[owner][index]
        if self.full[owner]:
            # Rules section 6.4: a full track freezes its vines; they only score at the end.
            return float("-inf")
        if not flip:
            return self.weights[owner] * (0.0 - before)
        token = self.view.players[owner].tokens[index]
        if not flipped_seed_fits(token):
            return float("-inf")
        # Turning the seed from s to 7 - s changes the vine's value by 7 - 2s.
        flipped = self.values[owner][index] + 7 - 2 * token.dice[0].value
        return self.weights[owner] * (self.worth_of(owner, len(token.dice), flipped) - before)

    def face_gain(self, action: Action) -> float:
        """How much a karma action changing a rolled die's face improves that die's best placement."""
        kind = action.kind
        die: Die = self.view.rolled[action["die"]]
        table = self.table(die.colour)
        if kind == "reroll":
            later = sum(table[1:]) / 6
        elif kind == "shift":
            later = table[die.value + action["by"]]
        elif kind == "roll_over":
            later = table[7 - die.value]
        else:
            later = table[action["value"]]
        return later - table[die.value]

    def weight(self, owner: int) -> float:
        """+1 for the bot's own vines, negative for opponents'."""
        return 1.0 if owner == self.seat else -OPPONENT_WEIGHT

    def karma_gain(self, amount: float) -> float:
        """What gaining `amount` karma is worth: none of what the end-of-turn cap would cut."""
        return self.karma_worth * min(amount, self.karma_room)

    def worth_of(self, owner: int, size: int, value: int) -> float:
        """What a vine of `size` dice worth `value` is worth to its owner, in expected points."""
        if size >= VINE_HARVEST_SIZE:
            return self.harvest_points(owner, value)
        if value <= 0 or value > OVERRIPE_ABOVE:
            return 0.0  # cleared at the end of the turn
        if size == VINE_HARVEST_SIZE - 1:
            # One die from harvest: its owner will very likely score close to its value.
            return value * THREE_DICE_SHARE - THREE_DICE_RENT
        return value * (0.45 + 0.15 * size) - TOKEN_RENT

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
        waste = SLOT_WASTE if value <= 0 else 0.0
        return value + bonus + extra - waste

    def place_gain(self, colour: Colour, face: int, owner: int, index: int) -> float:
        """Gain of putting a die of this colour and face on token `index` of `owner`."""
        size = len(self.view.players[owner].tokens[index].dice) + 1
        # A die adds its colour's shift to a vine's value; on an empty token it is the seed.
        value = (self.values[owner][index] if size > 1 else face) + colour_shift(colour)
        gain = self.weights[owner] * (self.worth_of(owner, size, value) - self.worths[owner][index])
        if owner != self.seat:
            if self.bits:
                gain += self.karma_gain(1 / BITS_PER_KARMA)
            if size >= VINE_HARVEST_SIZE:
                gain += self.karma_gain(completion_karma(value, self.overload))
        elif self.view.solo and size >= VINE_HARVEST_SIZE:
            gain += self.karma_gain(completion_karma(value, self.overload))
        return gain

    def table(self, colour: Colour) -> list[float]:
        """The best placement gain of a die of `colour` by face (index 1..6; 0 where it fits nowhere)."""
        table = self._tables.get(colour)
        if table is None:
            table = self._tables[colour] = self._best_by_face(colour)
        return table

    def _best_by_face(self, colour: Colour) -> list[float]:
        best: list[float | None] = [None] * 7
        for owner, player in enumerate(self.view.players):
            if len(player.slots) >= SLOTS_PER_TRACK:
                continue  # rules section 6.4: a full track freezes its tokens
            seeded = False
            for index, token in enumerate(player.tokens):
                if token.dice:
                    gain = self.place_gain(colour, 0, owner, index)
                    faces: Iterable[int] = accepted_values(tuple([d.value for d in token.dice]))
                    gains: Sequence[float] | None = None
                elif colour is Colour.RED and not seeded:
                    # Every empty token of one owner gives the same gains: merge them once.
                    seeded = True
                    faces, gains = range(1, 7), self.seed_gains(owner == self.seat)
                else:
                    continue
                for face in faces:
                    if gains is not None:
                        gain = gains[face]
                    known = best[face]
                    # As max(known, gain): the first of equals is kept.
                    if known is None or gain > known:
                        best[face] = gain
        return [0.0 if gain is None else gain for gain in best]

    def seed_gains(self, own: bool) -> list[float]:
        """`place_gain` of a red seed by face (index 1..6) on an empty token of the bot or of an opponent."""
        if own:
            return _OWN_SEED_GAINS
        if not self.bits:
            return _OPPONENT_SEED_GAINS
        bit = self.karma_gain(1 / BITS_PER_KARMA)
        return [0.0] + [gain + bit for gain in _OPPONENT_SEED_GAINS[1:]]


# A one-die vine is worth the same to any owner and is never harvested, so the gains of red
# seeds (as `_Judge.place_gain` works them out: worth after minus 0.0 before, weighted, plus a
# karma bit for a seed on an opponent's token when bits are in play) are the same in every game.
_SEED_WORTHS = [0.0] + [face * (0.45 + 0.15 * 1) - TOKEN_RENT for face in range(1, 7)]
_OWN_SEED_GAINS = [0.0] + [1.0 * (worth - 0.0) for worth in _SEED_WORTHS[1:]]
_OPPONENT_SEED_GAINS = [0.0] + [-OPPONENT_WEIGHT * (worth - 0.0) for worth in _SEED_WORTHS[1:]]


NormalBot = GreedyBot
"""The `normal` level (called "greedy" before levels existed)."""

EASY_MISTAKES = 0.3
"""Share of an easy bot's decisions taken at random."""
SHORTLIST = 6
"""At most this many placement or karma options are searched by the hard bot."""
SHORTLIST_MARGIN = 5.0
"""Options judged this many points below the best one are not searched."""


def easy_bot() -> MistakeBot[TomatoState]:
    """The `easy` level: the normal judgement with a random slip now and then."""
    return MistakeBot(GreedyBot(), EASY_MISTAKES)


def shortlist(view: TomatoState, prompt: Prompt) -> list[Action]:
    """The options the hard bot searches: the normal bot's best few, best first."""
    if prompt.kind != "place":
        return [GreedyBot().choose(view, prompt, Rng(0))]
    judge = _Judge(view, prompt.seat)
    scored = sorted(
        ((judge.gain(a), -i, a) for i, a in enumerate(prompt.options)), key=lambda t: t[:2], reverse=True
    )
    best = scored[0][0]
    return [action for gain, _, action in scored[:SHORTLIST] if gain > best - SHORTLIST_MARGIN]


WIN_WORTH = 10.0
"""What winning a finished game is worth to the hard bot beyond its margin, in points."""
ENDGAME_DICE = 12
"""With this few dice left in the bushel, the hard bot plays its samples out to the end."""


def horizon(view: TomatoState) -> int:
    """Turn changes a hard bot's playout looks ahead: its own turn and the next one, or to the end."""
    if not view.solo and (view.final_round or view.bushel_size <= ENDGAME_DICE):
        return 2 * len(view.players) + 1
    return 2


def evaluate(state: TomatoState, seat: int) -> float:
    """How far ahead `seat` stands of the best other player, in expected points of final margin.

    Mid-game the fitted model of `standing` says it; a finished game counts its real scores,
    and a win on top: only winning matters then.
    """
    if state.solo:
        return _solo_standing(state, _Judge(bot_view(state), seat))
    if state.ended is not GameEnd.NONE:
        scores = [sum(scoring.breakdown(state, owner).values()) for owner in range(len(state.players))]
        points = scores.pop(seat)
        best = max(scores)
        return points - best + (WIN_WORTH if points > best else WIN_WORTH / 2 if points == best else 0.0)
    worth = [standing(state, owner) for owner in range(len(state.players))]
    mine = worth.pop(seat)
    return mine - max(worth)


def _solo_standing(state: TomatoState, judge: _Judge) -> float:
    """A solo player's expected final points as the judge sees them."""
    player = state.players[0]
    matched = sum(1 for number, slot in enumerate(player.slots, 1) if slot.points == number)
    vines = sum(judge.worths[0])
    return 8.0 * matched + 1.5 * len(player.slots) + vines + SOLO_KARMA_WORTH * player.karma
