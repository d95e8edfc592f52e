"""The turn sequence: start, take and roll dice, pass, end-of-turn clearing (rules section 9)."""

from __future__ import annotations

from engine.core import Event
from engine.tomatoes.events import Ev, die_json
from engine.tomatoes.karma import add_bits, karma_options
from engine.tomatoes.state import Colour, Die, GameEnd, Phase, TomatoState
from engine.tomatoes.vines import OVERRIPE_ABOVE, clear_token

DICE_PER_TURN = 3
"""How many dice a player takes from the bushel each turn."""
COLOUR_ORDER = (Colour.RED, Colour.BLACK, Colour.GOLD)


def dice_to_take(state: TomatoState) -> int:
    """How many dice the active player takes from the bushel now."""
    return min(DICE_PER_TURN, state.bushel_size)


def colour_mixes(state: TomatoState) -> list[tuple[int, int, int]]:
    """Every (red, black, gold) mix the active player may take when picking colours."""
    take = dice_to_take(state)
    have = [state.bushel.get(colour, 0) for colour in COLOUR_ORDER]
    mixes = []
    for red in range(min(take, have[0]), -1, -1):
        for black in range(min(take - red, have[1]) + 1):
            gold = take - red - black
            if gold <= have[2]:
                mixes.append((red, black, gold))
    return mixes


def draw_random(state: TomatoState) -> list[Colour]:
    """Draw the turn's dice uniformly at random from the bushel."""
    drawn = []
    for _ in range(dice_to_take(state)):
        pick = state.rng.below(state.bushel_size)
        for colour in COLOUR_ORDER:
            count = state.bushel.get(colour, 0)
            if pick < count:
                drawn.append(colour)
                state.bushel[colour] = count - 1
                break
            pick -= count
    return drawn


def draw_mix(state: TomatoState, mix: tuple[int, int, int]) -> list[Colour]:
    """Take a chosen colour mix from the bushel."""
    drawn = []
    for colour, count in zip(COLOUR_ORDER, mix, strict=True):
        state.bushel[colour] = state.bushel.get(colour, 0) - count
        drawn += [colour] * count
    return drawn


def roll(state: TomatoState, drawn: list[Colour]) -> list[Event]:
    """Roll the drawn dice together with the dice passed to the active player."""
    player = state.players[state.active]
    held = player.hand
    player.hand = []
    state.rolled = [Die(die.colour, state.rng.die()) for die in held]
    state.rolled += [Die(colour, state.rng.die()) for colour in drawn]
    state.phase = Phase.PLACE
    data = {
        "seat": state.active,
        "drawn": [c.value for c in drawn],
        "held": len(held),
        "dice": [die_json(d) for d in state.rolled],
        "bushel": state.bushel_size,
        "solo": state.solo,
    }
    return [Event(Ev.ROLL, data, checkpoint=True)]


def start_turn(state: TomatoState, seat: int) -> list[Event]:
    """Hand the turn to `seat`, or end the game if no dice are left to play (section 9 step 1)."""
    state.active = seat
    state.rolled = []
    player = state.players[seat]
    if state.bushel_size == 0:
        if not state.solo:
            return end_game(state, GameEnd.BUSHEL_EMPTY)
        # Solo (section 13): play on with held dice, unless none of them can ever be placed:
        # black and gold dice never seed, so with every token empty they are stuck for good.
        tokens_empty = all(token.empty for token in player.tokens)
        if not any(d.colour is Colour.RED for d in player.hand) and (tokens_empty or not player.hand):
            return end_game(state, GameEnd.SOLO_OUT_OF_DICE)
    player.turns += 1
    state.phase = Phase.ROLL
    # Control passes to another player here, so nothing before it may be undone.
    return [
        Event(
            Ev.TURN, {"seat": seat, "turn": player.turns, "final_round": state.final_round}, checkpoint=True
        )
    ]


def end_game(state: TomatoState, reason: GameEnd) -> list[Event]:
    """Stop the game for `reason`."""
    state.ended = reason
    state.phase = Phase.OVER
    state.rolled = []
    held = len(state.players[state.active].hand)
    return [Event(Ev.GAME_END, {"reason": reason.value, "held": held})]


def pass_dice(state: TomatoState) -> list[Event]:
    """Unplaced dice go to the next player (solo: back to your own hand), with bits for passing."""
    if not state.rolled:
        return []
    seat = state.active
    to = seat if state.solo else (seat + 1) % len(state.players)
    passed = state.rolled
    state.rolled = []
    state.players[to].hand.extend(passed)
    events = [Event(Ev.PASS, {"seat": seat, "to": to, "dice": [die_json(d) for d in passed]})]
    if state.options.bits_for_passing:
        events += add_bits(state, seat, len(passed), "passed dice")
    return events


def zero_vines(state: TomatoState) -> list[int]:
    """The active player's own vines worth 0 or less, which they may clear at the end of the turn."""
    tokens = state.players[state.active].tokens
    return [index for index, token in enumerate(tokens) if token.dice and token.value <= 0]


def end_turn(state: TomatoState) -> list[Event]:
    """Pass unplaced dice, clear overripe vines, then open the end-of-turn step or finish the turn."""
    karma = state.players[state.active].karma
    events = pass_dice(state)
    for owner, player in enumerate(state.players):
        for index, token in enumerate(player.tokens):
            if token.dice and token.value > OVERRIPE_ABOVE:
                events.append(clear_token(state, owner, index, Ev.OVERRIPE))
    if end_step_open(state, gained=state.players[state.active].karma > karma):
        state.phase = Phase.CLEAR
        return events
    return events + finish_turn(state)


def end_step_open(state: TomatoState, *, gained: bool = False) -> bool:
    """Whether the end-of-turn step still has something to decide before the turn really ends.

    Section 15 item 8: the owner chooses whether to clear their own zero vines. Karma may be
    spent "at any time during the active player's turn" (seed), so karma just earned for
    passing dice (`gained`), or karma above the resting cap that the cut would take, keeps the
    step open while a karma action is affordable.
    """
    if zero_vines(state):
        return True
    if not state.options.end_step_karma:
        return False
    karma = state.players[state.active].karma
    if not (gained or karma > state.options.rest_karma_cap):
        return False
    return bool(karma_options(state))


def finish_turn(state: TomatoState) -> list[Event]:
    """Cut karma to the resting cap, then end the game or start the next player's turn."""
    seat = state.active
    player = state.players[seat]
    events: list[Event] = []
    if player.karma > state.options.rest_karma_cap:
        lost = player.karma - state.options.rest_karma_cap
        player.karma = state.options.rest_karma_cap
        events.append(Event(Ev.KARMA_CAP, {"seat": seat, "lost": lost, "karma": player.karma}))
    if state.final_round and seat == state.last_seat:
        return events + end_game(state, GameEnd.SOLO_HARVESTED if state.solo else GameEnd.FINAL_ROUND)
    return events + start_turn(state, (seat + 1) % len(state.players))
