"""Comfortable prompts: one way forward is taken alone, identical dice are one option, back and defaults."""

from __future__ import annotations

from engine.core import Action
from engine.troyes import RULES
from engine.troyes.kinds import Phase
from tests.conformance import random_playout
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


def test_a_staffed_card_with_its_only_die_is_one_click() -> None:
    state = table(2, ("Y1b",))
    with_tradesman(state, 0, 0)
    spare(state)
    add_dice(state, 0, Y, 6)
    transition = RULES.apply(state, 0, target("card:0"))
    assert [e.data["times"] for e in transition.events if e.kind == "activate"] == [2]
    assert transition.state.players[0].deniers == 14 and transition.state.turn == 1


def test_the_number_of_activations_is_taken_as_the_most_when_fewer_cannot_matter() -> None:
    state = table(2, ("Y1b",))  # Merchant: 2 deniers per activation, nothing to pay
    with_tradesman(state, 0, 0)
    spare(state)
    first, second = add_dice(state, 0, Y, 6, 3)
    state = play(state, 0, target("card:0"), die(first), die(second))
    assert not state.stack and state.players[0].deniers == 16, "9 // 3 = 3 activations, not asked"


def test_the_number_of_activations_is_asked_for_a_paid_card() -> None:
    state = table(2, ("Y1a",))  # Artisan: each activation costs 1 influence
    with_tradesman(state, 0, 0)
    spare(state)
    _, second = add_dice(state, 0, Y, 4, 4)
    state = play(state, 0, target("card:0"), die(second))  # the first of two 4s is taken alone
    (prompt,) = RULES.prompts(state)
    assert prompt.kind == "activations" and prompt.default == Action.of("activations", n=2)
    assert dict(prompt.context)["yields"] == (
        "pay 1 influence, gain 6 deniers",
        "pay 2 influence, gain 12 deniers",
    )
    assert BACK in prompt.options


def test_identical_dice_are_one_option() -> None:
    state = table(2)
    add_dice(state, 1, Y, 1)
    fives = add_dice(state, 1, W, 5, 5, 5)
    own = add_dice(state, 0, W, 2, 2)
    state = play(state, 0, target("cathedral"))
    dice = [o for o in options(state) if o.kind == "die"]
    assert dice == [die(fives[0]), die(own[0])]
    state = play(state, 0, die(fives[0]))
    assert [o for o in options(state) if o.kind == "die"] == [die(fives[1]), die(own[0])]


def test_done_is_never_the_only_choice() -> None:
    state = table(2)
    add_dice(state, 1, Y, 1)
    ids = add_dice(state, 0, W, 1, 2, 3)
    state = play(state, 0, target("cathedral"), die(ids[0]), die(ids[1]))
    assert DONE in options(state)
    state = RULES.apply(state, 0, die(ids[2])).state
    assert state.cathedral[2] == [0] and not state.stack, "the third die ends the group at once"


def test_every_step_of_an_action_offers_back_and_back_forgets_it() -> None:
    state = table(2, ("Y1b",))
    spare(state)
    state.players[0].cubes = {"W2a": 1}
    add_dice(state, 0, Y, 3, 5)
    with_tradesman(state, 0, 1)  # seat 0 hires: a card with a tradesman of another seat
    start = state
    state = play(state, 0, target("card:0"))
    seen = []
    while state.stack:
        (prompt,) = RULES.prompts(state)
        seen.append(prompt.kind)
        assert BACK in prompt.options and prompt.default is not None
        assert RULES.apply(state, 0, BACK).state.stack == []
        state = RULES.apply(state, 0, next(o for o in prompt.options if o != BACK)).state
    assert seen[0] == "modifier" and "dice" in seen and state.version > start.version


def test_every_prompt_of_random_games_has_a_default_among_its_options() -> None:
    def check(state: object) -> None:
        for prompt in RULES.prompts(state):  # type: ignore[arg-type]
            assert prompt.default is not None and prompt.default in prompt.options, prompt.kind

    for seats in (2, 3, 4):
        end = random_playout(RULES, seats, 21, invariant=check, check_every=200)
        assert end.phase is Phase.OVER


def test_events_are_grouped_behind_one_option_only_past_25_options() -> None:
    cards = ("R1b", "R2b", "R3a", "W1b", "W2c", "W3a", "Y1b", "Y2a", "Y3b")
    many = ("ER1", "ER2", "ER3", "ER4", "ER5", "ER6", "ER7", "ER8", "EW1", "EW3", "EY2")
    state = table(2, cards, many)
    for index in range(len(cards)):
        with_tradesman(state, index, 0)
    add_dice(state, 0, R, 6, 6, 6)
    add_dice(state, 0, W, 6, 6, 6)
    add_dice(state, 0, Y, 6, 6, 6)
    menu = options(state)
    assert len(menu) <= 25 and target("event") in menu
    assert not any(o.kind == "target" and o["t"].startswith("event:") for o in menu)
    state = play(state, 0, target("event"))
    (prompt,) = RULES.prompts(state)
    assert prompt.kind == "fight_which" and len(prompt.options) == len(many) + 2  # with Marauding, back
    few = table(2, cards[:3], many[:2])
    add_dice(few, 0, R, 6)
    assert {target("event:0"), target("event:1")} <= set(options(few))


def test_hire_costs_and_die_prices_come_one_per_option_for_the_labels() -> None:
    state = table(2, ("Y1b", "Y1c"))
    with_tradesman(state, 1, 0)
    theirs = add_dice(state, 1, Y, 5)
    add_dice(state, 0, Y, 6)
    (menu,) = RULES.prompts(state)
    hire = dict(menu.context)["hire"]
    assert len(hire) == len(menu.options)
    costs = dict(zip(menu.options, hire, strict=True))
    assert costs[target("card:0")] == 2 and costs[target("card:1")] == 0 and costs[Action("pass")] == 0
    state = play(state, 0, target("agriculture"))
    (dice,) = RULES.prompts(state)
    prices = dict(zip(dice.options, dict(dice.context)["prices"], strict=True))
    assert prices[die(theirs[0])] == 2 and prices[BACK] == 0
