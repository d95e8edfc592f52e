"""The round: reveal, income and wages, workforce, events, black dice, turns, end of round."""

from __future__ import annotations

from engine.core import Event
from engine.troyes.data import board
from engine.troyes.eventcards import apply_effects, draw_events
from engine.troyes.kinds import BUILDING_COLOURS, NEUTRAL, Phase, StepKind
from engine.troyes.purse import pay_deniers, shortfall
from engine.troyes.state import Die, Step, TroyesState


def roll_die(state: TroyesState, die: Die) -> Die:
    """The same die with a new value."""
    return Die(id=die.id, colour=die.colour, value=state.rng.die(), owner=die.owner)


def start_round(state: TroyesState) -> list[Event]:
    """Phases 0 to 3 of a round, up to the first countering decision."""
    state.round += 1
    out = [Event("round", {"round": state.round, "start": state.start})]
    for p in state.players:
        p.passed, p.pass_money = False, 0
    if state.round <= 3:
        for slot in state.cards:
            if slot.level == state.round:
                slot.revealed = True
                out.append(Event("card_revealed", {"card": slot.id}, checkpoint=True))
    out += _income(state)
    out += _workforce(state)
    out += draw_events(state)
    black, effects = apply_effects(state)
    out += effects
    state.black = sorted((state.rng.die() for _ in range(black)), reverse=True)
    out.append(Event("black_dice", {"values": list(state.black)}, checkpoint=True))
    state.phase = Phase.COUNTER
    state.stack = [Step(kind=StepKind.COUNTER, seat=state.start)]
    return out


def _income(state: TroyesState) -> list[Event]:
    out: list[Event] = []
    income = board().const("income")
    for seat, player in enumerate(state.players):
        player.deniers += income
        out.append(Event("income", {"seat": seat, "income": income}))
        wages = sum(
            spec.wage * sum(1 for s in state.buildings[b] if s == seat)
            for b, spec in enumerate(board().buildings)
        )
        if not wages:
            continue
        unpaid = pay_deniers(state, seat, wages)
        out.append(Event("wages", {"seat": seat, "paid": wages - unpaid, "due": wages}))
        if unpaid:
            out.append(shortfall(state, seat, "wages"))
    return out


def _workforce(state: TroyesState) -> list[Event]:
    state.dice, state.rolled, state.spent = [], 0, 0
    for b, colour in enumerate(BUILDING_COLOURS):
        for owner in state.buildings[b]:
            if owner is not None:
                state.dice.append(Die(id=state.next_die, colour=colour, value=state.rng.die(), owner=owner))
                state.next_die += 1
                state.rolled += 1
    shown = [[d.owner, d.colour.value, d.value] for d in state.dice]
    return [Event("workforce", {"dice": shown}, checkpoint=True)]


def after_countering(state: TroyesState) -> list[Event]:
    """Open the action phase once every black die is gone."""
    state.phase = Phase.ACTIONS
    state.stack = []
    state.influence_used = ""
    state.turn = state.start
    if not state.dice:
        return end_round(state)
    return [Event("actions", {"seat": state.turn})]


def next_counter(state: TroyesState, after: int) -> None:
    """The next seat clockwise faces the highest remaining black die."""
    state.influence_used = ""
    state.stack = [Step(kind=StepKind.COUNTER, seat=(after + 1) % state.seats)]


def next_turn(state: TroyesState) -> list[Event]:
    """Hand the turn on clockwise, adding a denier to each passed player passed over."""
    state.influence_used = ""
    if not state.dice or all(p.passed for p in state.players):
        return end_round(state)
    seat = state.turn
    for _ in range(state.seats):
        seat = (seat + 1) % state.seats
        player = state.players[seat]
        if not player.passed:
            state.turn = seat
            return []
        player.pass_money += board().const("pass_extra")
    return end_round(state)


def end_round(state: TroyesState) -> list[Event]:
    """Phase 5: pass money, expelled citizens home, dice back, start player moves on."""
    out = [Event("round_end", {"round": state.round})]
    for seat, player in enumerate(state.players):
        if player.pass_money:
            out.append(Event("pass_money", {"seat": seat, "deniers": player.pass_money}))
        player.deniers += player.pass_money
        player.pass_money = 0
    for lying in state.lying:
        for owner in lying:
            if owner == NEUTRAL:
                state.neutral_supply += 1
            else:
                state.players[owner].supply += 1
        lying.clear()
    state.spent += len(state.dice)
    state.dice = []
    state.stack = []
    state.black = []
    state.start = (state.start + 1) % state.seats
    if state.round >= state.rounds:
        state.phase = Phase.OVER
        out.append(Event("game_over", {}))
        return out
    return out + start_round(state)
