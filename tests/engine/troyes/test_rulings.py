"""The six points the rules leave open, one test each, as DATA.md ("Rulings") decides them."""

from __future__ import annotations

import pytest

from engine.core import Action
from engine.troyes import RULES
from engine.troyes.actions import ASKED
from engine.troyes.cards import ACTIVATION_PRICE
from engine.troyes.data import activities
from engine.troyes.flow import start_round
from engine.troyes.kinds import NEUTRAL, PALACE, Phase, StepKind
from engine.troyes.scoring import breakdown
from engine.troyes.state import EventSlot, Step, TroyesState
from tests.engine.troyes.helpers import DONE, R, W, Y, add_dice, die, options, play, spare, table, target


def facing(black: list[int]) -> TroyesState:
    """Seat 0 to counter the highest of these black dice."""
    state = table(2)
    state.phase, state.black = Phase.COUNTER, black
    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    add_dice(state, 1, W, 1)
    return state


def test_1_every_event_takes_effect_left_to_right_before_the_black_dice_are_rolled() -> None:
    """Rulebook §3 phase 3: the events take effect left to right, black-die events handing their
    dice to the start player; "then the black dice are rolled and countered"."""
    state = table(2)
    state.round, state.red_deck = 0, []
    # Marauding, Civil War (each player loses 3 deniers), Brigands (a black die) to its right.
    state.queue = [EventSlot(id="E00"), EventSlot(id="EY3"), EventSlot(id="ER1")]
    kinds = [e.kind for e in start_round(state)]
    assert kinds.index("event_levy") < kinds.index("black_dice")
    assert len(state.black) == 2, "Brigands' die joins Marauding's though Civil War lies between"
    assert state.phase is Phase.COUNTER and all(p.deniers == 17 for p in state.players)


def test_2_each_black_die_is_beaten_by_dice_of_its_own_never_by_one_pooled_total() -> None:
    """Rulebook §5.3: the start player counters the highest black die with dice whose total is at
    least its value and "may counter further black dice" (each with dice of its own)."""
    state = facing([5, 3])
    six, two = add_dice(state, 0, W, 6, 2)
    # 6 + 2 = 8 = 5 + 3, yet the 2 left after beating the 5 cannot beat the 3.
    state = play(state, 0, die(two), die(six))
    assert state.black == [3] and all(d.owner != 0 for d in state.dice)
    (prompt,) = RULES.prompts(state)
    assert prompt.seat == 1, "the 3 goes to the next player"


def test_3_one_kind_of_influence_use_before_an_action_or_a_black_die() -> None:
    """Seed: "Gracz może skorzystać tylko z jednego rodzaju takiej czynności" (only one kind);
    a re-roll "można to wykonywać wielokrotnie" (may be repeated)."""
    state = table(2)
    spare(state)
    state.players[0].influence = 10
    first, _ = add_dice(state, 0, W, 1, 2)
    state = play(state, 0, Action("reroll"), die(first))
    assert Action("reroll") in options(state), "the same kind again"
    assert Action("flip") not in options(state) and Action("citizen") not in options(state)
    state = play(state, 0, target("cathedral"))
    state = RULES.apply(state, 0, options(state)[0]).state
    while state.stack:
        state = RULES.apply(state, 0, DONE if DONE in options(state) else options(state)[0]).state
    # After the action, the next player (and seat 0 next time) may choose any kind again.
    assert state.influence_used == ""
    # Before a black die as well.
    state = facing([6])
    state.players[0].influence = 10
    add_dice(state, 0, W, 1, 1)
    state = play(state, 0, Action("flip"))
    state = RULES.apply(state, 0, options(state)[0]).state
    state = RULES.apply(state, 0, DONE).state
    assert Action("reroll") not in options(state) and state.influence_used == "flip"


def test_4_the_palace_is_six_spaces_one_per_die_value() -> None:
    """Seed: in the Palace the new citizen takes the space of its die; "stojący na tym miejscu
    pionek zabiera się i kładzie na rysunku budynku" (no row shifts, unlike the other two)."""
    state = table(2)
    spare(state)
    state.buildings[PALACE] = [1, NEUTRAL, 1, 1, NEUTRAL, 1]
    add_dice(state, 0, R, 4)
    state = play(state, 0, target("building:0"), DONE)
    assert state.buildings[PALACE] == [1, NEUTRAL, 1, 0, NEUTRAL, 1]
    assert state.lying[PALACE] == [1]


def test_5_the_cathedral_penalty_comes_before_the_characters() -> None:
    """Rulebook §9 lists the missing cathedral levels (4) before the characters (5); VP never go
    below 0 [S7], so the penalty only eats VP earned before it, never a character's."""
    state = table(2)
    state.players[0].vp, state.players[0].deniers = 1, 12
    state.players[0].characters, state.players[1].characters = ["C3"], []  # Thibaut II: 12 deniers, 3 VP
    lines = breakdown(state, 0)
    assert lines["Cathedral levels missing"] == -1 and lines["Thibaut II"] == 3 and lines["Total"] == 3


@pytest.mark.parametrize("card_id", sorted(activities()))
def test_6_the_number_of_activations_is_asked_when_an_activation_costs_or_gives_others_vp(
    card_id: str,
) -> None:
    """Rulebook §4.2 [S7]: "you may activate fewer times than allowed". Asked for the cards whose
    activation costs deniers or influence, and the Procession (it may give others VP)."""
    card = activities()[card_id]
    state = table(2, (card_id,))
    state.cards[0].spaces[0] = 0
    spare(state)
    state.players[0].deniers, state.players[0].influence = 30, 15
    ids = add_dice(state, 0, Y if card.effect == "pilgrimage" else card.colour, *split(2 * card.divisor))
    state = play(state, 0, target("card:0"), *(die(i) for i in ids))
    kinds = []
    while state.stack and RULES.prompts(state)[0].seat == 0:
        (prompt,) = RULES.prompts(state)
        kinds.append(prompt.kind)
        if prompt.kind != "dice" or DONE not in prompt.options:
            break
        state = RULES.apply(state, 0, DONE).state
    asked = card.effect in ACTIVATION_PRICE or card.effect == "procession"
    assert ("activations" in kinds) == asked, kinds
    assert (card.effect in ASKED) == asked


def split(total: int) -> list[int]:
    """Up to three die values adding up to `total` (at most 18)."""
    values = []
    while total > 0:
        values.append(min(6, total))
        total -= values[-1]
    return values
