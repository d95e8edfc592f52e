"""Activity cards: hiring tradesmen and the effect of each of the 27 cards."""

from __future__ import annotations

from engine.core import Event
from engine.troyes.board import cathedral_cubes, standing
from engine.troyes.data import ActivityCard, activities
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Colour, StepKind
from engine.troyes.purse import gain_influence, gain_vp, pay_deniers
from engine.troyes.state import Step, TroyesState

ACTIVATION_PRICE: dict[str, tuple[int, int]] = {
    card.effect: (card.price.deniers, card.price.influence) for card in activities().values() if card.price
}
"""What one activation of an immediate card costs, in deniers and influence, by effect (from the data)."""

COUNTING = frozenset({"miller", "glassblower", "captain", "tax_collector", "procession", "joust"})
"""Immediate cards whose gain depends on the board; every other card without a special step gains
its `gain` figures outright (the data's, so a card with fixed figures needs no code)."""
STEPPED = frozenset({"archer", "chivalry", "diplomat"})
"""Immediate cards whose activations put choices on the stack (rolls, cubes on events)."""


def affordable(
    state: TroyesState,
    seat: int,
    effect: str,
    wanted: int,
    *,
    spend: tuple[int, int] = (0, 0),
) -> int:
    """How many of `wanted` activations the player can pay for (cards with a price).

    `spend` is the deniers and influence the action costs before its effects (dice, hire).
    """
    player = state.players[seat]
    if effect not in ACTIVATION_PRICE:
        return wanted
    deniers, influence = ACTIVATION_PRICE[effect]
    limits = [wanted]
    if deniers:
        limits.append((player.deniers - spend[0]) // deniers)
    if influence:
        limits.append((player.influence - spend[1]) // influence)
    return min(limits)


def activation_price(
    state: TroyesState, seat: int, effect: str, times: int, *, spend: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """Deniers and influence `times` activations take (only those the player can pay are paid)."""
    per = ACTIVATION_PRICE.get(effect)
    if per is None:
        return (0, 0)
    paying = max(0, affordable(state, seat, effect, times, spend=spend))
    return (per[0] * paying, per[1] * paying)


def hire(state: TroyesState, seat: int, index: int) -> Event:
    """Put `seat`'s new tradesman on the first free printed space, else on the illustration."""
    slot = state.cards[index]
    free = next((i for i, s in enumerate(slot.spaces) if s is None), None)
    if free is None:
        slot.extra.append(seat)
    else:
        slot.spaces[free] = seat
    return Event("tradesman", {"seat": seat, "card": slot.id, "space": -1 if free is None else free + 1})


def red_total(state: TroyesState, seat: int) -> int:
    """Total of the red dice in a district."""
    return sum(d.value for d in state.dice if d.owner == seat and d.colour is Colour.RED)


def activate(state: TroyesState, seat: int, index: int, times: int) -> list[Event]:
    """Carry out `times` activations of a card; choices still to make go on the stack."""
    card = activities()[state.cards[index].id]
    player = state.players[seat]
    out = [Event("activate", {"seat": seat, "card": card.id, "times": times})]
    if card.delayed:
        player.cubes[card.id] = player.cubes.get(card.id, 0) + times
        return out
    before = (player.deniers, player.influence)
    paid = activation_price(state, seat, card.effect, times)
    out += _carry_out(state, seat, card.id, times)
    deniers, influence = player.deniers - before[0], player.influence - before[1]
    if deniers or influence or any(paid):
        # Net changes, and what the activations cost (so the gains are net + paid).
        change = {
            "seat": seat,
            "card": card.id,
            "deniers": deniers,
            "influence": influence,
            "paid_deniers": paid[0],
            "paid_influence": paid[1],
        }
        out.insert(1, Event("card_yield", change))
    return out


def _carry_out(state: TroyesState, seat: int, card_id: str, times: int) -> list[Event]:
    """The effect of `times` activations of an immediate card."""
    card = activities()[card_id]
    player = state.players[seat]
    out: list[Event] = []
    effect = card.effect
    paying = affordable(state, seat, effect, times)
    for _ in range(times if effect not in STEPPED else 0):
        out += _immediate(state, seat, card, paying > 0)
        paying -= 1
    if effect == "archer":
        state.stack.append(Step(kind=StepKind.ARCHER, seat=seat, count=times))
    elif effect == "diplomat":
        # All influence is paid before any cube is placed (§7.2 Diplomat).
        player.influence -= paying * card.price.influence
        if paying:
            state.stack.append(Step(kind=StepKind.EVENT_CUBE, seat=seat, count=paying))
    elif effect == "chivalry":
        reds = sum(1 for d in state.dice if d.owner == seat and d.colour is Colour.RED)
        if reds * times:
            state.stack.append(Step(kind=StepKind.EVENT_CUBE, seat=seat, count=reds * times))
    return out


def _immediate(state: TroyesState, seat: int, card: ActivityCard, can_pay: bool) -> list[Event]:
    """One activation of an immediate card: its price paid and its gain, by the data's figures."""
    player = state.players[seat]
    out: list[Event] = []
    effect, name, gain = card.effect, card.name, card.gain
    if effect not in COUNTING:
        if card.price and not can_pay:
            return out
        player.deniers += gain.deniers - card.price.deniers
        player.influence -= card.price.influence
        if gain.influence:
            gain_influence(state, seat, gain.influence)
        if gain.vp:
            out.append(gain_vp(state, seat, gain.vp, name))
    elif effect == "miller":
        # Ruling: the better building is always chosen (nothing changes between activations).
        best = max(standing(state, PALACE, seat), standing(state, BISHOPRIC, seat))
        player.deniers += gain.deniers * best
    elif effect == "procession":
        counts = [sum(1 for d in state.dice if d.owner == s) for s in range(state.seats)]
        best = max(counts)
        if best >= 1:
            out += [gain_vp(state, s, gain.vp, name) for s in range(state.seats) if counts[s] == best]
    elif effect == "joust":
        # English rulebook (DATA.md): only the activating player gains, if their red total (the
        # activation's dice are gone already) is the highest, ties included; no red dice, no gain.
        mine = red_total(state, seat)
        if mine >= 1 and all(red_total(state, s) <= mine for s in range(state.seats)):
            out.append(gain_vp(state, seat, gain.vp, name))
    elif effect == "glassblower" and cathedral_cubes(state, seat) >= 2:
        out.append(gain_vp(state, seat, cathedral_cubes(state, seat) // 2 * gain.vp, name))
    elif effect == "tax_collector":
        for other in [*range(state.seats), NEUTRAL]:
            due = standing(state, CITY_HALL, other) * gain.deniers
            if other == seat or not due:
                continue
            # The bank pays for the neutral citizens; a player pays what he can.
            paid = due if other == NEUTRAL else due - pay_deniers(state, other, due)
            player.deniers += paid
            out.append(Event("tax", {"seat": seat, "from": other, "deniers": paid, "due": due}))
    elif effect == "captain":
        carrying = sum(1 for slot in state.queue if seat in slot.cubes)
        if carrying:
            out.append(gain_vp(state, seat, carrying * gain.vp, name))
    return out
