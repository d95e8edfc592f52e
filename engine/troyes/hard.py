"""The `hard` Troyes bot's parts for engine.search.MonteCarloBot: shortlist, sampled worlds, evaluation.

The hard bot searches only the turn menu (what to act on, or pass); the steps inside an action
follow the normal bot. Each shortlisted option is played in a few sampled worlds (the secret
cards, characters and event decks drawn anew from what the seat has not seen, and the dice it
cannot foresee rolled anew), followed by the rest of its action and the next player's turn.
"""

from __future__ import annotations

from engine.core import Action, Prompt
from engine.rng import Rng
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
    if not player.passed:
        # A player who passed is out of the round: the dice left in their district are lost to them.
        score += DICE_WORTH * sum(1 for d in state.dice if d.owner == seat)
    return score


def evaluate(state: TroyesState, seat: int) -> float:
    """How far `seat` stands ahead of the others on average (their hidden VP cancel out between options)."""
    mine = standing(state, seat)
    others = [standing(state, other) for other in range(state.seats) if other != seat]
    return mine - sum(others) / len(others)
