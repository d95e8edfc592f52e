"""End-of-game scoring and the result (rules sections 11 and 13)."""

from __future__ import annotations

from engine.core import Outcome, rank
from engine.tomatoes.state import Colour, GameEnd, PlayerState, TomatoState
from engine.tomatoes.text import solo_result

HARVESTS = "harvests"
SLOT_BONUSES = "slot bonuses"
FIRST_TO_SIX = "first to six"
KARMA = "karma"
VINES = "unfinished vines"
TOMATOES = "tomatoes"
MATCHED = "matched slots"

_END_REASONS = {
    GameEnd.FINAL_ROUND: "the final round is over",
    GameEnd.BUSHEL_EMPTY: "the bushel is empty",
    GameEnd.SOLO_HARVESTED: "all six tomatoes harvested",
    GameEnd.SOLO_OUT_OF_DICE: "out of dice",
}


def vine_points(player: PlayerState, rule: str) -> int:
    """Points for the unfinished vines on a player's own tokens."""
    if rule == "three_dice_vines":
        return sum(1 for token in player.tokens if len(token.dice) == 3)
    reds = sum(1 for token in player.tokens for die in token.dice if die.colour is Colour.RED)
    return reds // 3


def breakdown(state: TomatoState, seat: int) -> dict[str, int]:
    """A player's points by source (multiplayer), in the order they are printed."""
    player = state.players[seat]
    return {
        HARVESTS: sum(slot.points for slot in player.slots),
        SLOT_BONUSES: sum(slot.bonus for slot in player.slots),
        FIRST_TO_SIX: state.options.first_to_six_bonus if state.first_to_six == seat else 0,
        KARMA: player.karma // 2,
        VINES: vine_points(player, state.options.unfinished_vines),
    }


def matched_slots(player: PlayerState) -> list[int]:
    """Slot numbers (1..6) whose harvested value equals the slot number."""
    return [number for number, slot in enumerate(player.slots, 1) if slot.points == number]


def outcome(state: TomatoState) -> Outcome | None:
    """The result once the game is over, else None."""
    if state.ended is GameEnd.NONE:
        return None
    if state.solo:
        return _solo_outcome(state)
    parts = tuple(breakdown(state, seat) for seat in range(len(state.players)))
    scores = tuple(sum(part.values()) for part in parts)
    ranks = rank(scores)
    winners = [seat for seat, r in enumerate(ranks) if r == 1]
    best = scores[winners[0]]
    points = f"{best} point{'' if best in (1, -1) else 's'}"
    if len(winners) == 1:
        result = f"Player {winners[0] + 1} wins with {points}"
    else:
        names = ", ".join(f"Player {s + 1}" for s in winners[:-1]) + f" and Player {winners[-1] + 1}"
        result = f"{names} tie with {points}"
    summary = f"Game over ({_END_REASONS[state.ended]}): {result}."
    return Outcome(scores, ranks, parts, summary)


def _solo_outcome(state: TomatoState) -> Outcome:
    # Section 13 (UNCONFIRMED, proposal): the solo score is the number of matched slots;
    # the game is won iff all six tomatoes were harvested.
    player = state.players[0]
    matched = matched_slots(player)
    harvested = len(player.slots)
    summary = solo_result(matched, harvested)
    parts = ({TOMATOES: harvested, MATCHED: len(matched)},)
    return Outcome((len(matched),), (1,), parts, summary)
