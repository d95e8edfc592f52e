"""Money moves only on a click that states it (issue 32): what a seat loses is its option's price."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core import Event, Prompt
from engine.rng import Rng
from engine.troyes import RULES
from engine.troyes.state import TroyesState
from tests.engine.troyes.helpers import BACK, DONE, W, Y, add_dice, die, play, table, target


def stated(prompt: Prompt, index: int) -> tuple[int, int]:
    """The deniers and influence the prompt says its option `index` takes (0 when it says nothing)."""
    context = dict(prompt.context)
    found = []
    for key in ("spend_deniers", "spend_influence"):
        values = context.get(key, ())
        found.append(int(values[index]) if isinstance(values, tuple) and values else 0)
    return found[0], found[1]


def gains(events: Sequence[Event], seat: int) -> tuple[int, int]:
    """Deniers and influence `seat` got (or lost to income, wages and levies) by these events."""
    deniers = influence = 0
    for event in events:
        d, kind = event.data, event.kind
        if kind == "bought" and d["from"] == seat:
            deniers += int(d["deniers"])
        if kind == "tax" and d["from"] == seat:
            deniers -= int(d["deniers"])
        if d.get("seat") != seat:
            continue
        if kind in ("income",):
            deniers += int(d["income"])
        elif kind == "wages":
            deniers -= int(d["paid"])
        elif kind == "event_levy":
            if d["currency"] == "deniers":
                deniers -= int(d["paid"])
            else:
                influence -= int(d["paid"])
        elif kind in ("pass_money", "agriculture"):
            deniers += int(d["deniers"])
        elif kind == "card_yield":  # the Tax Collector's takings included
            deniers += int(d["deniers"]) + int(d["paid_deniers"])
            influence += int(d["influence"]) + int(d["paid_influence"])
        elif kind in ("countered", "event_cube", "cathedral_cube"):
            influence += int(d["influence"])
    return deniers, influence


def check_game(seats: int, seed: int, bot: str) -> int:
    """Play a game; assert every click took exactly its stated price; return how many clicks paid."""
    state: TroyesState = RULES.setup(seats, seed=seed)
    rng = Rng(seed)
    paying = 0
    while RULES.outcome(state) is None:
        (prompt,) = RULES.prompts(state)
        action = RULES.bots()[bot].choose(RULES.view(state, prompt.seat), prompt, rng)
        price = stated(prompt, prompt.options.index(action))
        before = [(p.deniers, p.influence) for p in state.players]
        transition = RULES.apply(state, prompt.seat, action)
        state = transition.state
        for seat, player in enumerate(state.players):
            got = gains(transition.events, seat)
            paid = price if seat == prompt.seat else (0, 0)
            change = (player.deniers - before[seat][0], player.influence - before[seat][1])
            expected = (got[0] - paid[0], got[1] - paid[1])
            assert change == expected, (
                f"seat {seat} after {action} on {prompt.kind} (stated {price}): "
                f"{change} instead of {expected}; events {[e.kind for e in transition.events]}"
            )
        paying += any(price)
    return paying


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize(("bot", "seeds"), [("random", range(4)), ("normal", range(2))])
def test_every_click_takes_exactly_the_price_its_option_states(seats: int, bot: str, seeds: range) -> None:
    paying = sum(check_game(seats, 100 * seats + seed, bot) for seed in seeds)
    assert paying > 0, "the games bought dice, hired or spent influence"


def test_a_die_that_alone_completes_the_group_is_offered_with_the_groups_price_not_bought() -> None:
    """Issue 32: one click on a die that gives nothing alone bought the one die completing the
    group too and ended the action (4 + 4 deniers), the label having said 2."""
    state = table(3)
    add_dice(state, 2, W, 1)
    (one,) = add_dice(state, 1, Y, 1)
    (three,) = add_dice(state, 2, Y, 3)
    state = play(state, 0, target("agriculture"))
    (prompt,) = RULES.prompts(state)
    prices = dict(zip(prompt.options, dict(prompt.context)["prices"], strict=True))
    assert prices == {die(one): 2, die(three): 2, BACK: 0}
    state = RULES.apply(state, 0, die(one)).state
    (prompt,) = RULES.prompts(state)
    assert state.players[0].deniers == 10 and prompt.options == (die(three), BACK)
    context = dict(prompt.context)
    assert context["paid"] == 2 and context["prices"] == (8, 0), "the group's price once the 3 joins"
    state = RULES.apply(state, 0, die(three)).state
    (prompt,) = RULES.prompts(state)
    assert prompt.options == (DONE, BACK) and stated(prompt, 0) == (8, 0)
    state = RULES.apply(state, 0, DONE).state
    assert state.players[0].deniers == 10 - 8 + 2, "8 deniers for the dice, 2 from agriculture"
