"""The engine where it was corrected against the seed (shared/seeds/troyes.pl.txt), one test each."""

from __future__ import annotations

import pytest

from engine.core import Action, Prompt
from engine.rng import Rng
from engine.troyes import RULES
from engine.troyes.flow import end_round
from engine.troyes.kinds import NEUTRAL, PALACE, Phase
from engine.troyes.state import TroyesState
from tests.engine.troyes.helpers import (
    BACK,
    DONE,
    R,
    W,
    Y,
    add_dice,
    die,
    options,
    play,
    spare,
    table,
    target,
    with_tradesman,
)

# -- 1. where a citizen comes from ---------------------------------------------------------


def test_a_building_takes_a_citizen_of_the_supply_without_asking() -> None:
    """ "Gracz bierze pionek obywatela ze swoich zasobów albo może go kupić za 2 punkty wpływu."

    A citizen standing in a building or a tradesman on a card is never taken instead, so the
    placement asks nothing after the die.
    """
    state = table(2, ("Y1b",))
    spare(state)
    state.buildings[PALACE][2] = 0
    with_tradesman(state, 0, 0)
    (five,) = add_dice(state, 0, R, 5)
    state = play(state, 0, target("building:0"))
    assert state.buildings[PALACE][2] == 0 and state.buildings[PALACE][4] == 0, "no hop from space 3 to 5"
    assert state.players[0].supply == 2 and state.cards[0].spaces[0] == 0
    assert all(d.id != five for d in state.dice) and state.turn == 1


def test_with_an_empty_supply_the_citizen_is_bought_for_2_influence_and_logged() -> None:
    """ "Gracz bierze pionek obywatela ze swoich zasobów albo może go kupić za 2 punkty wpływu."."""
    state = table(2)
    spare(state)
    state.players[0].supply = 0
    add_dice(state, 0, R, 4)
    state = RULES.apply(state, 0, target("building:0")).state
    (prompt,) = RULES.prompts(state)
    assert dict(prompt.context)["spend_influence"] == (2, 0), "done states the 2 influence, back nothing"
    transition = RULES.apply(state, 0, DONE)
    after = transition.state
    assert after.buildings[PALACE][3] == 0
    assert after.players[0].influence == 3 and after.players[0].owned == 7 and after.players[0].supply == 0
    lines = [RULES.describe(e) for e in transition.events]
    assert "Player 1 places a citizen bought for 2 influence in the Palace with a 4." in lines


def test_no_placement_without_a_citizen_of_the_supply_or_2_influence() -> None:
    """ "Gracz bierze pionek obywatela ze swoich zasobów albo może go kupić za 2 punkty wpływu."

    Citizens in other buildings and tradesmen stay where they are.
    """
    state = table(2, ("Y1b",))
    spare(state)
    state.players[0].supply, state.players[0].influence = 0, 1
    state.buildings[1][0] = 0
    with_tradesman(state, 0, 0)
    add_dice(state, 0, R, 4)
    assert target("building:0") not in options(state)


def test_a_tradesman_moves_only_to_another_activity_card() -> None:
    """ "Nadzorców ustawionych na karcie działania nie można przenosić w inne miejsce niż na inną
    kartę działania."
    """
    state = table(2, ("Y1b", "Y1c"))
    spare(state)
    state.players[0].supply, state.players[0].influence = 0, 0
    with_tradesman(state, 1, 0)
    add_dice(state, 0, R, 4)
    (yellow,) = add_dice(state, 0, Y, 6)
    assert target("building:0") not in options(state), "not into a building"
    state = play(state, 0, target("card:0"), DONE)  # the one source: the tradesman of card 1
    assert state.cards[0].spaces[0] == 0 and not state.cards[1].has(0)
    assert all(d.id != yellow for d in state.dice)


def test_a_new_tradesman_asks_where_from_only_when_there_is_a_choice() -> None:
    """ "Jeśli nie ma nadzorcy na karcie, gracz może przenieść swojego nadzorcę z innej karty,
    wykorzystać swój wolny pionek albo zatrudnić nowego za denary."
    """
    state = table(2, ("Y1b", "Y1c"))
    spare(state)
    with_tradesman(state, 1, 0)
    add_dice(state, 0, Y, 6)
    state = play(state, 0, target("card:0"))
    (prompt,) = RULES.prompts(state)
    assert prompt.kind == "citizen_from"
    assert set(prompt.options) == {Action.of("source", s="supply"), Action.of("source", s="c:1"), BACK}


# -- 2. expelled citizens stay out until the end of the round -------------------------------


def test_an_expelled_citizen_cannot_be_placed_or_hired_again_this_round() -> None:
    """ "Pionki leżące na budynkach na koniec rundy trafiają do puli pionków graczy, którzy są ich
    właścicielami."
    """
    state = table(2, ("Y1b",))
    state.players[0].supply, state.players[0].influence = 0, 0
    state.buildings[PALACE][3] = 0
    (red,) = add_dice(state, 1, R, 4)
    add_dice(state, 0, R, 2)
    add_dice(state, 0, Y, 6)
    state.turn = 1
    state = play(state, 1, target("building:0"), die(red))
    assert state.lying[PALACE] == [0] and state.players[0].supply == 0
    assert state.turn == 0 and red not in [d.id for d in state.dice]
    assert target("building:0") not in options(state) and target("card:0") not in options(state)
    state.round = 1
    end_round(state)
    assert state.players[0].supply == 1 and state.lying[PALACE] == []


# -- 3. the tradesman queue shifts --------------------------------------------------------


def test_the_tradesmen_behind_move_up_when_one_leaves_a_card() -> None:
    """ "Nadzorca zabrany z innej karty zwalnia miejsce, które zajmował na tej karcie i kolejka
    nadzorców odpowiednio przesuwa się, aby zapełnić zwolnione miejsce."
    """
    state = table(3, ("Y1b", "Y1c"))
    spare(state)
    state.cards[1].spaces, state.cards[1].extra = [0, 1], [2]
    state.players[0].supply = 0
    state.players[0].influence = 0
    add_dice(state, 0, Y, 6)
    state = play(state, 0, target("card:0"), DONE)
    assert state.cards[1].spaces == [1, 2] and state.cards[1].extra == []
    assert state.cards[0].spaces[0] == 0


# -- 4. no dead ends -----------------------------------------------------------------------


def test_a_die_that_would_expel_a_protected_colour_is_not_offered() -> None:
    """ "Jeśli dany gracz posiada już leżący pionek obywatela na budynku, to nikt nie może wypchnąć
    więcej jego obywateli z tego budynku."
    """
    state = table(2)
    spare(state)
    state.buildings[PALACE][2] = 1
    state.lying[PALACE] = [1]
    three, four, _ = add_dice(state, 0, R, 3, 4, 5)
    state = play(state, 0, target("building:0"))
    assert die(three) not in options(state) and die(four) in options(state)


def test_no_cube_is_offered_that_turns_every_die_into_a_7() -> None:
    """ "Koszt umieszczenia obywatela wynosi 1 kość w kolorze wybranego budynku." A 5 confessed
    to 7 fits no space of the Palace, so the Confession cube is not offered for it.
    """
    state = table(2)
    spare(state)
    state.players[0].cubes = {"W2b": 1}
    add_dice(state, 0, R, 5)
    state = play(state, 0, target("building:0"))
    assert state.buildings[PALACE][4] == 0 and state.players[0].cubes == {"W2b": 1}


def _completes(state: TroyesState, seat: int, action: Action, depth: int = 0) -> bool:
    """Whether some sequence of further answers (never "back") after `action` completes it."""
    assert depth < 10, "an action that never ends"
    transition = RULES.apply(state, seat, action)
    if transition.events:
        return True
    prompt = RULES.prompt_for(transition.state, seat)
    if prompt is None:
        return True  # the decision is over and passed on (declining another black die)
    return any(_completes(transition.state, seat, o, depth + 1) for o in prompt.options if o != BACK)


def _check_every_option(state: TroyesState, prompt: Prompt) -> int:
    """Assert each option but "back" leads to a complete action; return how many were searched."""
    checked = 0
    for option in prompt.options:
        if option != BACK:
            assert _completes(state, prompt.seat, option), (prompt.kind, option, state.version)
            checked += 1
    return checked


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_offered_option_leads_to_a_complete_action(seats: int) -> None:
    """ "Suma oczek na kościach wybranych przez gracza musi być większa lub równa sumie oczek na
    czarnej kości, aby ją zwalczyć." Every option offered, in random games, can be completed.
    """
    checked = 0
    for seed in range(3):
        state = RULES.setup(seats, seed=seed)
        chooser = Rng.from_seed(seed, 5)
        while state.phase is not Phase.OVER:
            (prompt,) = RULES.prompts(state)
            if state.phase is not Phase.PLACEMENT:
                checked += _check_every_option(state, prompt)
            action = RULES.bot_action(state, prompt, "random" if chooser.below(2) else "greedy")
            state = RULES.apply(state, prompt.seat, action).state
    assert checked > 1000


# -- 6. the log tells every change ----------------------------------------------------------


def _lines(transition_events: object) -> list[str]:
    return [RULES.describe(e) for e in transition_events]  # type: ignore[attr-defined]


def test_countering_shows_the_colours_and_the_red_doubling() -> None:
    """ "Liczba oczek z czerwonych kości gracza liczy się podwójnie (ponieważ są to kości militarne).\""""
    from engine.troyes.kinds import StepKind
    from engine.troyes.state import Step

    state = table(2)
    state.phase, state.black = Phase.COUNTER, [9]
    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    (red,) = add_dice(state, 0, R, 4)
    add_dice(state, 0, W, 1)
    add_dice(state, 1, W, 1)
    events = RULES.apply(state, 0, die(red)).events  # the white die is then the one way forward
    assert (
        "Player 1 counters a black 9 with red 4 (doubled: 8), white 1: strength 9 (+1 influence)."
        in _lines(events)
    )


def test_a_black_die_not_countered_is_one_public_line_and_one_private_vp_line() -> None:
    """ "Jeśli nie uda się zwalczyć czarnej kości, jest ona odrzucana, a gracz traci 2 PZ.\""""
    from engine.troyes.kinds import StepKind
    from engine.troyes.state import Step

    state = table(2)
    state.phase, state.black = Phase.COUNTER, [6, 5]
    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    state.players[0].vp, state.players[0].influence = 1, 0
    add_dice(state, 0, W, 1)
    add_dice(state, 1, W, 6)
    events = RULES.apply(state, 0, Action("concede")).events
    public = [RULES.describe(e) for e in events if e.visible(None)]
    private = [RULES.describe(e) for e in events if not e.visible(None)]
    assert public[0] == "Player 1 cannot counter a black 6."
    assert private == ["Player 1 loses 1 VP (black die)."]


def test_a_loss_with_no_vp_left_says_so_instead_of_gaining_0() -> None:
    """ "Jeśli gracza nie stać, traci 2 punkty zwycięstwa PZ (ale też nie może mieć PZ ujemnych).\""""
    from engine.troyes.purse import gain_vp

    state = table(2)
    line = RULES.describe(gain_vp(state, 0, -2, "wages"))
    assert line == "Player 1 has no VP left to lose (wages)." and "0 VP" not in line


def test_wages_come_after_income_and_say_what_was_paid() -> None:
    """ "Każdy gracz otrzymuje 10 denarów i płaci wynagrodzenie swoim obywatelom: ... po 2 denary
    za każdego obywatela w czerwonym pałacu."
    """
    from engine.troyes.flow import _income

    state = table(2)
    state.buildings[PALACE] = [0] * 6
    state.players[0].deniers = 0
    lines = _lines(_income(state))
    income = lines.index("Player 1 receives 10 deniers of income.")
    assert lines[income + 1] == "Player 1 pays 10 deniers in wages of the 12 due."
    assert lines[income + 2] == "Player 1 has no VP left to lose (wages)."
    assert not any("Player 2 pays" in line for line in lines), "no wages line for 0 wages"


@pytest.mark.parametrize(
    ("event", "line"),
    [
        ("EY1", "Drought takes 2 deniers from Player 1."),
        ("EY3", "Civil War takes 3 deniers from Player 1."),
        ("EW2", "Heresy takes 1 influence from Player 1 of the 2 due."),
    ],
)
def test_levies_of_events_say_what_they_took(event: str, line: str) -> None:
    """ "Ponadto wykonywane są czynności zgodnie z opisem na karcie." (and the log tells what it took)"""
    from engine.troyes.data import events
    from engine.troyes.eventcards import _levy

    state = table(2)
    state.buildings[2][0] = state.buildings[2][1] = 0  # two citizens in City Hall
    state.players[0].influence = 1
    card = events()[event]
    assert _lines(_levy(state, 0, card.effect, card.name))[0] == line


def test_card_yields_and_the_tax_collector_payers_are_logged() -> None:
    """ "Efektywność odnosi się do podstawowego wyniku działania danej karty" (what it gave is told)."""
    state = table(3, ("R2c",))
    with_tradesman(state, 0, 0)
    spare(state)
    state.buildings[2][:4] = [1, 1, 2, NEUTRAL]
    state.players[2].deniers = 1
    first, second = add_dice(state, 0, R, 4, 4)  # 8 // 4: two activations
    state = RULES.apply(state, 0, target("card:0")).state  # one of two identical dice: taken alone
    assert state.stack[-1].dice == (first,) and die(second) in options(state)
    lines = _lines(RULES.apply(state, 0, die(second)).events)  # no die left to add: done alone
    assert "Player 1 activates Tax Collector twice." in lines
    assert lines.count("Player 2 pays 2 deniers to Player 1 (Tax Collector).") == 2
    assert "Player 3 pays 1 denier to Player 1 (Tax Collector)." in lines
    assert "Player 3 pays 0 deniers of the 1 due to Player 1 (Tax Collector)." in lines
    assert lines.count("The bank pays 1 denier to Player 1 for the neutral citizens (Tax Collector).") == 2
    assert "Player 1 gains 7 deniers (Tax Collector)." in lines


def test_the_log_of_random_games_has_no_placeholder_text() -> None:
    """No "time(s)", no "gains 0 VP", no line for a cost of nothing."""
    from engine.play import run_game

    for seats in (2, 3, 4):
        for _, event in run_game(RULES, seats, 8).events:
            line = RULES.describe(event)
            assert "(s)" not in line and "gains 0" not in line and "pays 0 deniers in wages" not in line, line
