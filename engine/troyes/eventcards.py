"""Event cards: their effects each round, cubes on banners and the rewards when countered."""

from __future__ import annotations

from engine.core import Event
from engine.troyes.board import enter, highest_occupied_space, lowest_empty_space, neutral_on_board, row_for
from engine.troyes.data import board, events
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Colour
from engine.troyes.purse import gain_influence, gain_vp, pay_deniers, pay_influence, shortfall
from engine.troyes.state import EventSlot, TroyesState


def place_cube(state: TroyesState, index: int, owner: int) -> list[Event]:
    """Put `owner`'s cube on the next free banner of an event (+1 influence); resolve it when full."""
    slot = state.queue[index]
    card = events()[slot.id]
    slot.cubes.append(owner)
    got = gain_influence(state, owner, 1) if owner != NEUTRAL else 0
    out = [Event("event_cube", {"seat": owner, "event": slot.id, "influence": got})]
    if len(slot.cubes) >= card.banners:
        out += resolve(state, index)
    return out


def rewards(cubes: list[int], vp: tuple[int, int]) -> dict[int, int]:
    """VP per owner when an event is countered (§6.1: majorities, ties split and rounded down)."""
    counts: dict[int, int] = {}
    for owner in cubes:
        counts[owner] = counts.get(owner, 0) + 1
    first, second = vp
    if len(counts) == 1:
        return {next(iter(counts)): first + second}
    levels = sorted(set(counts.values()), reverse=True)
    top = [o for o, n in counts.items() if n == levels[0]]
    if len(top) > 1:
        return {o: (first + second) // len(top) for o in top}
    out = {top[0]: first}
    runners = [o for o, n in counts.items() if n == levels[1]]
    for o in runners:
        out[o] = second // len(runners)
    return out


def winner(cubes: list[int]) -> int:
    """Who takes the card: most cubes, ties to the tied owner who placed first."""
    counts = {o: cubes.count(o) for o in cubes}
    best = max(counts.values())
    return next(o for o in cubes if counts[o] == best)


def resolve(state: TroyesState, index: int) -> list[Event]:
    """Pay the majority rewards of a full event and take or clear it."""
    slot = state.queue[index]
    card = events()[slot.id]
    out = [Event("event_countered", {"event": slot.id})]
    for owner, amount in sorted(rewards(slot.cubes, card.vp).items()):
        if owner != NEUTRAL and amount:
            out.append(gain_vp(state, owner, amount, card.name))
    taker = winner(slot.cubes)
    if card.permanent:
        slot.cubes = []
    else:
        del state.queue[index]
        if taker != NEUTRAL:
            state.players[taker].taken.append(slot.id)
        out.append(Event("event_taken", {"event": slot.id, "seat": taker}))
    return out


def draw_events(state: TroyesState) -> list[Event]:
    """Reveal the round's red event and the white or yellow event it calls (§3 phase 3)."""
    out: list[Event] = []
    if not state.red_deck:
        return out
    red = state.red_deck.pop(0)
    state.queue.append(EventSlot(id=red))
    out.append(Event("event_revealed", {"event": red}, checkpoint=True))
    called = events()[red].calls
    decks = [state.white_deck, state.yellow_deck]
    if called is Colour.YELLOW:
        decks.reverse()
    # A red card whose deck is empty calls the other deck (Appendix A.3 estimate).
    for deck in decks:
        if deck:
            card = deck.pop(0)
            state.queue.append(EventSlot(id=card))
            out.append(Event("event_revealed", {"event": card}, checkpoint=True))
            break
    return out


def apply_effects(state: TroyesState) -> tuple[int, list[Event]]:
    """Run every event in the queue left to right; return the black dice due and the events."""
    black = 0
    out: list[Event] = []
    for card_id in [slot.id for slot in state.queue]:
        index = next((i for i, s in enumerate(state.queue) if s.id == card_id), None)
        if index is None:
            continue  # countered meanwhile by a grey cube from Support
        card = events()[card_id]
        black += card.black_dice
        out += _effect(state, index, card.effect, card.name)
    return black, out


def _effect(state: TroyesState, index: int, effect: str, name: str) -> list[Event]:
    out: list[Event] = []
    seats = range(state.seats)
    if effect in ("drought", "civil_war", "heresy"):
        for seat in seats:
            out += _levy(state, seat, effect, name)
    elif effect == "support":
        left = [state.queue[i].id for i in range(max(0, index - 2), index)]
        for card_id in left:
            where = next((i for i, s in enumerate(state.queue) if s.id == card_id), None)
            if where is not None:
                out += place_cube(state, where, NEUTRAL)
    elif effect in ("wayfarers", "theological_conflict", "conflict_of_succession"):
        building = {"wayfarers": CITY_HALL, "theological_conflict": BISHOPRIC}.get(effect, PALACE)
        value = state.rng.die()
        out.append(Event("event_roll", {"event": name, "value": value}, checkpoint=True))
        out += neutral_enters(state, building, value)
    elif effect == "traveling_builders":
        column = lowest_empty_space(state)
        if column is not None:
            state.cathedral[column].append(NEUTRAL)
            out.append(Event("cathedral_grey", {"column": column + 1}))
    elif effect == "interrupted_work":
        column = highest_occupied_space(state)
        if column is not None:
            owner = state.cathedral[column].pop()
            out.append(Event("cathedral_removed", {"column": column + 1, "seat": owner}))
    return out


def _levy(state: TroyesState, seat: int, effect: str, name: str) -> list[Event]:
    """Take what Drought (1 denier a City Hall citizen), Civil War (3 deniers), Heresy (2 influence) ask."""
    if effect == "drought":
        due = sum(1 for s in state.buildings[CITY_HALL] if s == seat)
    else:
        due = 3 if effect == "civil_war" else 2
    if not due:
        return []
    currency = "influence" if effect == "heresy" else "deniers"
    unpaid = (pay_influence if effect == "heresy" else pay_deniers)(state, seat, due)
    paid = {"seat": seat, "event": name, "paid": due - unpaid, "due": due, "currency": currency}
    out = [Event("event_levy", paid)]
    if unpaid:
        out.append(shortfall(state, seat, name))
    return out


def neutral_enters(state: TroyesState, building: int, value: int) -> list[Event]:
    """A grey citizen enters by die value, unless all 8 are out or it would expel a protected colour."""
    if neutral_on_board(state) >= board().const("neutral_citizens") or state.neutral_supply <= 0:
        return [Event("neutral_stays", {"building": building, "value": value, "why": "none_left"})]
    spaces = row_for(building, value)
    full = all(state.buildings[building][s] is not None for s in spaces)
    last = state.buildings[building][spaces[-1]]
    if full and last in state.lying[building]:
        # Ruling: the protection of §4.2 (an already expelled colour) holds for events too.
        stays = {"building": building, "value": value, "why": "protected", "protected": last}
        return [Event("neutral_stays", stays)]
    state.neutral_supply -= 1
    expelled = enter(state, building, value, NEUTRAL)
    return [Event("neutral_enters", {"building": building, "value": value, "expelled": expelled})]
