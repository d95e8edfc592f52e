"""Gains and losses of deniers, influence and VP with the rules' caps and floors."""

from __future__ import annotations

from engine.core import Event
from engine.troyes.data import board
from engine.troyes.state import TroyesState


def gain_influence(state: TroyesState, seat: int, amount: int) -> int:
    """Add influence up to the cap of 20 (gains above it are lost, §4.3); return what was added."""
    player = state.players[seat]
    before = player.influence
    player.influence = min(board().const("influence_cap"), player.influence + amount)
    return player.influence - before


def gain_vp(state: TroyesState, seat: int, amount: int, why: str) -> Event:
    """Add (or with a negative amount, remove down to 0) VP; the event is private to the seat."""
    player = state.players[seat]
    before = player.vp
    player.vp = max(0, player.vp + amount)
    change = {"seat": seat, "amount": player.vp - before, "asked": amount, "why": why}
    return Event("vp", change, visible_to=frozenset({seat}))


def shortfall(state: TroyesState, seat: int, why: str) -> Event:
    """The flat penalty for a cost a player cannot fully pay (-2 VP, floor 0)."""
    return gain_vp(state, seat, board().const("shortfall_vp"), why)


def pay_deniers(state: TroyesState, seat: int, amount: int) -> int:
    """Take up to `amount` deniers; return what could not be paid."""
    player = state.players[seat]
    paid = min(player.deniers, amount)
    player.deniers -= paid
    return amount - paid


def pay_influence(state: TroyesState, seat: int, amount: int) -> int:
    """Take up to `amount` influence; return what could not be paid."""
    player = state.players[seat]
    paid = min(player.influence, amount)
    player.influence -= paid
    return amount - paid
