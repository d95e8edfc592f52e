"""Characters and the final score (rules §8 and §9)."""

from __future__ import annotations

from engine.troyes.board import cathedral_cubes, cathedral_levels_with, on_buildings
from engine.troyes.data import Character, activities, board, characters
from engine.troyes.state import TroyesState


def metric(state: TroyesState, seat: int, name: str) -> int:
    """The quantity a character counts for `seat`."""
    player = state.players[seat]
    if name == "citizens_on_buildings":
        return on_buildings(state, seat)
    if name == "cathedral_cubes":
        return cathedral_cubes(state, seat)
    if name == "deniers":
        return player.deniers
    if name == "influence":
        return player.influence
    if name == "tradesmen":
        return sum(1 for slot in state.cards if slot.has(seat))
    if name == "events_taken":
        return len(player.taken)
    raise ValueError(f"unknown character metric {name}")


def character_vp(state: TroyesState, seat: int, card: Character) -> int:
    """VP a character gives `seat`: the highest threshold reached (tiers do not add up)."""
    offset = card.two_player_offset if state.seats == 2 else 0
    value = metric(state, seat, card.metric)
    earned = 0
    for threshold, vp in zip(card.thresholds, card.vp, strict=True):
        if value >= threshold + offset:
            earned = vp
    return earned


def revealed_characters(state: TroyesState) -> list[str]:
    """Every dealt character, in seat order."""
    return [c for player in state.players for c in player.characters]


def breakdown(state: TroyesState, seat: int) -> dict[str, int]:
    """The final score of a seat, line by line; the last line is the total."""
    player = state.players[seat]
    lines: dict[str, int] = {"VP tokens": player.vp}
    lines["Uncountered events with a cube"] = board().const("uncountered_event_vp") * sum(
        1 for slot in state.queue if seat in slot.cubes
    )
    lines["Tradesmen spaces"] = sum(
        activities()[slot.id].space_vp[i]
        for slot in state.cards
        for i, owner in enumerate(slot.spaces)
        if owner == seat
    )
    running = sum(lines.values())
    missing = board().cathedral_levels - cathedral_levels_with(state, seat)
    # VP never go below 0 (§9), so the cathedral penalty stops at 0.
    lines["Cathedral levels missing"] = -min(running, -board().const("missing_level_vp") * missing)
    for card_id in revealed_characters(state):
        card = characters()[card_id]
        lines[card.name] = character_vp(state, seat, card)
    lines["Total"] = sum(lines.values())
    return lines
