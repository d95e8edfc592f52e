"""What happens to vines: placing a die, harvesting at the 4th die, clearing (rules section 7)."""

from __future__ import annotations

from engine.core import Event
from engine.tomatoes.events import Ev, die_json
from engine.tomatoes.karma import add_bits, completion_karma, gain_karma
from engine.tomatoes.state import SLOTS_PER_TRACK, VINE_HARVEST_SIZE, Die, ScoreSlot, TomatoState

OVERRIPE_ABOVE = 6
"""A vine worth more than this is overripe and must be cleared."""


def clear_token(state: TomatoState, owner: int, token_index: int, kind: str) -> Event:
    """Send every die of a vine (seed included) back to the bushel and report it as `kind`."""
    token = state.players[owner].tokens[token_index]
    value, dice = token.value, token.dice
    token.dice = []
    state.to_bushel(dice)
    data = {"owner": owner, "token": token_index, "value": value, "dice": [die_json(d) for d in dice]}
    return Event(kind, data)


def slot_score(state: TomatoState, seed: Die, slot_number: int, value: int) -> ScoreSlot:
    """The filled slot for a harvest worth `value` in slot `slot_number` (1..6), Dicey bonus included."""
    options = state.options
    points = max(value, 0) if options.negative_harvest == "floor_zero" else value
    matched = value == slot_number
    bonus = options.match_total - slot_number if matched and options.dicey_rules else 0
    return ScoreSlot(
        die=seed, points=points, bonus=bonus, star=matched and (options.dicey_rules or state.solo)
    )


def place_die(state: TomatoState, die_index: int, owner: int, token_index: int) -> list[Event]:
    """Move a rolled die onto a token (already validated); harvest if it is the vine's 4th die."""
    seat = state.active
    die = state.rolled.pop(die_index)
    token = state.players[owner].tokens[token_index]
    token.dice.append(die)
    data = {
        "seat": seat,
        "owner": owner,
        "token": token_index,
        "die": die_json(die),
        "seed": len(token.dice) == 1,
        "value": token.value,
    }
    events = [Event(Ev.PLACE, data)]
    if owner != seat:
        # Seeding an opponent's empty token counts as placing on their vine (section 15 item 9).
        events += add_bits(state, seat, 1, "placed on an opponent's vine")
    if len(token.dice) >= VINE_HARVEST_SIZE:
        events += complete_vine(state, owner, token_index)
    return events


def complete_vine(state: TomatoState, owner: int, token_index: int) -> list[Event]:
    """A vine got its 4th die: overripe if worth more than 6, else harvest its seed."""
    token = state.players[owner].tokens[token_index]
    value = token.value
    if value > OVERRIPE_ABOVE:
        # Section 7 step 2 (INFERRED): an overripe vine is cleared at once, scoring nothing.
        return [clear_token(state, owner, token_index, Ev.OVERRIPE)]
    player = state.players[owner]
    seed, rest = token.dice[0], token.dice[1:]
    token.dice = []
    state.to_bushel(rest)
    slot = slot_score(state, seed, len(player.slots) + 1, value)
    player.slots.append(slot)
    data = {
        "owner": owner,
        "seat": state.active,
        "token": token_index,
        "slot": len(player.slots),
        "value": value,
        "points": slot.points,
        "bonus": slot.bonus,
        "star": slot.star,
        "seed": die_json(seed),
        "solo": state.solo,
    }
    events = [Event(Ev.HARVEST, data)]
    if state.solo or owner != state.active:
        amount = completion_karma(value, state.options.karma_overload)
        reason = "own harvest" if state.solo else "completed an opponent's vine"
        events += gain_karma(state, state.active, amount, reason)
    if len(player.slots) == SLOTS_PER_TRACK:
        if state.first_to_six is None:
            state.first_to_six = owner
            if not state.solo:  # alone, nobody is "first": solo scoring has no such bonus
                bonus = state.options.first_to_six_bonus
                events.append(Event(Ev.FIRST_TO_SIX, {"owner": owner, "bonus": bonus}))
        if not state.final_round:
            state.final_round = True
            data = {"owner": owner, "last": state.last_seat, "solo": state.solo}
            events.append(Event(Ev.FINAL_ROUND, data))
    return events
