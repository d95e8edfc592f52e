"""The `hard` Troyes bot: the normal bot's judgement, with its turn choices searched to the round's end.

The hard bot searches only the turn menu (what to act on, or pass); the steps inside an action
follow the normal bot. Each shortlisted option is played in a few sampled worlds (the secret
cards, characters and event decks drawn anew from what the seat has not seen, and the dice it
cannot foresee rolled anew), followed by the normal policy for every seat to the end of the
round, where the seat's standing against the others judges it.
"""

from __future__ import annotations

import time

from engine.core import Action, Prompt
from engine.rng import Rng
from engine.troyes.actions import current_prompt, play
from engine.troyes.board import on_buildings
from engine.troyes.bots import GreedyBot, _dn, _inf, best_plan, dice_fix, pass_value, rounds_left
from engine.troyes.data import activities, characters, events
from engine.troyes.kinds import HIDDEN, Colour
from engine.troyes.scoring import breakdown
from engine.troyes.state import TroyesState

SHORTLIST = 4
"""At most this many turn options are searched."""
SHORTLIST_MARGIN = 2.0
"""Targets judged this many VP below the best one are not searched."""
BUILDING_ROUND = 0.8
"""What a citizen in a building is worth per round still to come (its income), in VP."""
DICE_WORTH = 0.5
"""What an own die still on the square is worth, in VP: one more action this round."""
DELAYED_CUBE = 0.6
"""What a cube on a delayed activity card is worth, in VP: a better die for a later action."""

_PASS = Action("pass")
_DECKS = ((Colour.RED, "red_deck"), (Colour.WHITE, "white_deck"), (Colour.YELLOW, "yellow_deck"))


def shortlist(view: TroyesState, prompt: Prompt) -> list[Action]:
    """The turn options worth searching: the normal bot's choice, the best few targets and passing."""
    normal = GreedyBot().choose(view, prompt, Rng(0))
    if prompt.kind != "turn":
        return [normal]
    seat = prompt.seat
    scored: list[tuple[float, Action]] = []
    for option in prompt.options:
        if option.kind != "target":
            continue
        plan = best_plan(view, seat, [option["t"]])
        if plan is not None:
            scored.append((plan[0], option))
    scored.sort(key=lambda item: item[0], reverse=True)
    chosen = [normal]
    top = scored[0][0] if scored else pass_value(view, seat)
    for value, option in scored:
        if len(chosen) >= SHORTLIST or value < top - SHORTLIST_MARGIN:
            break
        if option not in chosen:
            chosen.append(option)
    if _PASS not in chosen and _PASS in prompt.options:
        chosen.append(_PASS)
    fix = dice_fix(view, seat, max(top, pass_value(view, seat)))
    if fix is not None and Action(fix[0]) not in chosen and Action(fix[0]) in prompt.options:
        chosen.append(Action(fix[0]))
    return chosen


def determinize(view: TroyesState, seat: int, rng: Rng) -> TroyesState:
    """A full state consistent with `seat`'s view: hidden cards, characters and decks drawn at random."""
    state = view.copy()
    for slot in state.cards:
        if slot.id == HIDDEN:
            cards = activities().values()
            pool = sorted(c.id for c in cards if c.colour is slot.colour and c.level == slot.level)
            slot.id = rng.choice(pool)
    seen = {slot.id for slot in state.queue} | {e for p in state.players for e in p.taken}
    for colour, name in _DECKS:
        size = len(getattr(state, name))
        unseen = [e for e in events().values() if not e.permanent and e.id not in seen]
        pool = sorted(e.id for e in unseen if e.colour is colour)
        rng.shuffle(pool)
        setattr(state, name, pool[:size])
    known = set(state.players[seat].characters)
    people = sorted(c for c in characters() if c not in known)
    rng.shuffle(people)
    for other, player in enumerate(state.players):
        if other != seat:
            player.characters = [people.pop() for _ in player.characters]
    state.character_deck = people[: len(state.character_deck)]
    return state


def standing(state: TroyesState, seat: int) -> float:
    """A player's expected final score: the score if the game ended now plus what resources promise."""
    player = state.players[seat]
    score = float(breakdown(state, seat)["Total"])
    score += player.deniers * _dn(state, seat) + player.influence * _inf(state, seat)
    score += on_buildings(state, seat) * rounds_left(state) * BUILDING_ROUND
    score += DELAYED_CUBE * sum(player.cubes.values())
    if not player.passed:
        # A player who passed is out of the round: the dice left in their district are lost to them.
        score += DICE_WORTH * sum(1 for d in state.dice if d.owner == seat)
    return score


def evaluate(state: TroyesState, seat: int) -> float:
    """How far `seat` stands ahead of the others on average (their hidden VP cancel out between options)."""
    mine = standing(state, seat)
    others = [standing(state, other) for other in range(state.seats) if other != seat]
    return mine - sum(others) / len(others)


class SearchBot:
    """The `hard` level: the normal bot's judgement, with its turn choices searched by sampled playouts.

    At a turn menu it shortlists the options worth a look and plays each in the same sampled
    worlds (common random numbers) to the end of the round (or, without `to_round_end`, to the
    seat's next turn). Successive halving spends the playouts on the options still in the
    running; `playouts` bounds the work and `budget` the thinking time (wall clock): out of
    time, it plays the best option over the sampled worlds every option has been played in
    (none yet: the normal choice).
    """

    def __init__(
        self,
        *,
        base: int = 2,
        playouts: int = 12,
        budget: float = 1.0,
        max_steps: int = 400,
        to_round_end: bool = True,
    ) -> None:
        self.normal = GreedyBot()
        self.rollout = GreedyBot(tinker=False)
        self.base = base
        """Samples per option in the first halving round; each later round doubles them."""
        self.playouts = playouts
        self.budget = budget
        self.max_steps = max_steps
        self.to_round_end = to_round_end
        """Play on to the end of the round rather than to the seat's next turn."""

    def choose(self, view: TroyesState, prompt: Prompt, rng: Rng) -> Action:
        """The shortlisted option with the best mean playout result for `prompt.seat`."""
        if prompt.kind != "turn":
            return self.normal.choose(view, prompt, rng)
        candidates = shortlist(view, prompt)
        deadline = time.perf_counter() + self.budget
        totals = dict.fromkeys(candidates, 0.0)
        alive, best = list(candidates), candidates[0]
        per, used = self.base, 0
        while len(alive) > 1 and (not used or used + per * len(alive) <= self.playouts):
            # Seed by seed, every option alike: cut short by the clock, the options still compare
            # over the same sampled worlds.
            for _ in range(per):
                seed = rng.below(2**62)
                for action in alive:
                    if time.perf_counter() > deadline:
                        return best
                    totals[action] += self._playout(view, prompt.seat, action, seed)
                # Ties go to the earlier option: the normal bot's choice comes first.
                best = min(alive, key=lambda a: (-totals[a], candidates.index(a)))
            used += per * len(alive)
            alive.sort(key=lambda a: (-totals[a], candidates.index(a)))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
            per *= 2
        return best

    def _playout(self, view: TroyesState, seat: int, action: Action, seed: int) -> float:
        """Play `action` in one sampled world, then the normal policy to the horizon; judge the result."""
        state = determinize(view, seat, Rng.from_seed(seed, 1))
        state.rng = Rng.from_seed(seed)
        # The world is this playout's own copy: moves are played on it in place, unchecked
        # (every move comes from a prompt's options).
        play(state, seat, action)
        start = state.round
        for step in range(self.max_steps):
            if state.round != start:
                break
            prompt = current_prompt(state)
            if prompt is None or (not self.to_round_end and prompt.seat == seat and prompt.kind == "turn"):
                break
            play(state, prompt.seat, self.rollout.choose(state, prompt, Rng.from_seed(seed, step)))
        return evaluate(state, seat)
