"""A new game: cards drawn, decks shuffled, characters dealt, the snake order of setup placements."""

from __future__ import annotations

from engine.rng import Rng
from engine.troyes.data import MARAUDING, activities, board, characters, events
from engine.troyes.kinds import BUILDING_COLOURS, NEUTRAL, Colour, Phase
from engine.troyes.state import CardSlot, EventSlot, Player, TroyesState


def snake(seats: int, start: int, each: int) -> list[int]:
    """Clockwise from the start player, then back from the last, alternating (§2.2 step 6)."""
    clockwise = [(start + i) % seats for i in range(seats)]
    order: list[int] = []
    for turn in range(each):
        order += clockwise if turn % 2 == 0 else clockwise[::-1]
    return order


def new_game(seats: int, tiebreak: bool, rng: Rng) -> TroyesState:
    """The state before the first setup placement."""
    count = board().by_players[seats]
    consts = board()
    players = [
        Player(
            deniers=consts.const("start_deniers"),
            influence=consts.const("start_influence"),
            supply=count.citizens,
            owned=count.citizens,
        )
        for _ in range(seats)
    ]
    state = TroyesState(rng=rng, seats=seats, rounds=count.rounds, tiebreak=tiebreak, players=players)
    state.buildings = [[None] * 6 for _ in range(3)]
    state.lying = [[] for _ in range(3)]
    state.neutral_supply = consts.const("neutral_citizens")
    state.cathedral = [[] for _ in range(consts.cathedral_columns)]
    for colour in BUILDING_COLOURS:
        for level in (1, 2, 3):
            pool = sorted(c.id for c in activities().values() if c.colour is colour and c.level == level)
            card = activities()[rng.choice(pool)]
            state.cards.append(
                CardSlot(id=card.id, colour=colour, level=level, spaces=[None] * len(card.space_vp))
            )
    state.queue = [EventSlot(id=MARAUDING)]

    def deck(colour: Colour) -> list[str]:
        ids = sorted(e.id for e in events().values() if e.colour is colour and not e.permanent)
        rng.shuffle(ids)
        return ids

    state.red_deck = deck(Colour.RED)[: count.rounds]
    state.white_deck = deck(Colour.WHITE)
    state.yellow_deck = deck(Colour.YELLOW)
    people = sorted(characters())
    rng.shuffle(people)
    for player in players:
        player.characters = [people.pop() for _ in range(count.characters)]
    state.character_deck = people
    state.start = rng.below(seats)
    state.turn = state.start
    if count.neutral_first:
        for building, space in consts.neutral_setup_2p:
            state.buildings[building][space] = NEUTRAL
            state.neutral_supply -= 1
    state.placement_order = snake(seats, state.start, count.citizens)
    state.phase = Phase.PLACEMENT
    return state
