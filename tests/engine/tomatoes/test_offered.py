"""`is_offered` answers exactly as membership in the prompt, and bots only read their view."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core import UNDO, Action, ArgValue, IllegalAction, Options
from engine.play import run_game
from engine.rng import Rng
from engine.tomatoes import RULES
from engine.tomatoes.bots import bot_view
from engine.tomatoes.karma import KARMA_ACTIONS
from engine.tomatoes.rules import END_TURN, KEEP, ROLL, place_action
from engine.tomatoes.state import TomatoState
from tests.engine.tomatoes.helpers import position

KINDS = ("place", "end_turn", "roll", "clear", "keep", *KARMA_ACTIONS)


def reachable(players: int, seed: int, options: Options) -> Iterator[TomatoState]:
    """Every state of a random game, its end included."""
    state = RULES.setup(players, options, seed)
    rng = Rng.from_seed(seed, 23)
    while RULES.outcome(state) is None:
        yield state
        (prompt,) = RULES.prompts(state)
        state = RULES.apply(state, prompt.seat, rng.choice(prompt.options)).state
    yield state


def bent(action: Action) -> Iterator[Action]:
    """Near misses of an offered action: one argument off, renamed, dropped, added, reordered, re-kinded."""
    args = action.args
    for i, (key, value) in enumerate(args):
        assert isinstance(value, int)
        replacements: tuple[ArgValue, ...] = (value - 1, value + 1, -1, 99, value == 1, str(value), None)
        for other in (*replacements, float(value)):  # type: ignore[misc]
            yield Action(action.kind, (*args[:i], (key, other), *args[i + 1 :]))  # type: ignore[arg-type]
        yield Action(action.kind, (*args[:i], ("x", value), *args[i + 1 :]))
    yield Action(action.kind, args[:-1])
    yield Action(action.kind, (*args, ("extra", 0)))
    yield Action(action.kind, tuple(reversed(args)))
    for kind in KINDS:
        yield Action(kind, args)


def candidates(state: TomatoState) -> Iterator[Action]:
    """Offered actions, their near misses, and a grid of every kind over out-of-range values."""
    seats, dice = len(state.players), len(state.rolled)
    for prompt in RULES.prompts(state):
        for option in prompt.options:
            yield option
            yield from bent(option)
    yield from (ROLL, END_TURN, KEEP, UNDO, Action("nonsense"), Action.of("place", die=0))
    for die in range(-1, dice + 2):
        for owner in range(-1, seats + 1):
            for token in range(-1, 4):
                yield place_action(die, owner, token)
        yield Action.of("reroll", die=die)
        yield Action.of("roll_over", die=die)
        yield from (Action.of("shift", die=die, by=by) for by in range(-2, 3))
        yield from (Action.of("set_value", die=die, value=value) for value in range(0, 8))
    for owner in range(-1, seats + 1):
        for token in range(-1, 4):
            yield Action.of("clean", owner=owner, token=token)
            yield Action.of("flip", owner=owner, token=token)
    for token in range(-1, 4):
        yield Action.of("clear", token=token)
    for red in range(-1, 5):
        for black in range(-1, 5):
            for gold in range(-1, 5):
                yield Action.of("roll", red=red, black=black, gold=gold)


def check_agrees(state: TomatoState) -> int:
    """Assert is_offered == membership for every candidate and seat; return how many were offered."""
    offered = 0
    for seat in range(-1, len(state.players) + 1):
        prompt = RULES.prompt_for(state, seat)
        options = set(prompt.options) if prompt else set()
        for action in candidates(state) if prompt else bent(Action.of("place", die=0, owner=0, token=0)):
            expected = action in options
            assert RULES.is_offered(state, seat, action) == expected, (seat, action, state.phase)
            offered += expected
    return offered


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (1, 3, {}),
        (2, 4, {"clean_target": "own", "pick_colours": True}),
        (3, 5, {"golden_hybrid": False, "turn_karma_cap": 6}),
        (4, 6, {"pick_colours": True}),
        (6, 7, {"karma_overload": False}),
    ],
)
def test_is_offered_equals_membership_in_random_games(players: int, seed: int, options: Options) -> None:
    states = list(reachable(players, seed, options))
    offered = sum(check_agrees(state) for state in states[::2])
    assert offered > len(states) // 2, "too few offered actions: the check would prove little"
    assert RULES.prompts(states[-1]) == () and check_agrees(states[-1]) == 0


def test_is_offered_equals_membership_with_every_karma_action_affordable() -> None:
    vines = {(0, 0): ["r6", "r6"], (0, 1): ["r1"], (1, 0): ["r3", "r4", "r5"], (1, 2): ["r2", "b2"]}
    for clean_target in ("any", "own"):
        state = position(
            2, rolled=("r1", "b6", "g3"), vines=vines, karma={0: 12}, options={"clean_target": clean_target}
        )
        kinds = {action.kind for action in RULES.prompts(state)[0].options}
        assert kinds >= {"place", *KARMA_ACTIONS}
        check_agrees(state)
    frozen = position(2, rolled=("r4",), vines={(1, 0): ["r4"]}, slots={1: [1, 2, 3, 4, 5, 6]}, karma={0: 5})
    check_agrees(frozen)
    zero = position(2, rolled=("b1",), vines={(0, 0): ["r1"], (0, 1): ["r2"]})
    zero = RULES.apply(zero, 0, place_action(0, 0, 0)).state
    zero = RULES.apply(zero, 0, END_TURN).state
    assert RULES.prompts(zero)[0].kind == "clear" and check_agrees(zero) > 2
    stuck = position(2, rolled=("b3",), karma={0: 0})
    assert RULES.prompts(stuck)[0].options == (END_TURN,) and RULES.is_offered(stuck, 0, END_TURN)
    check_agrees(stuck)


def test_apply_refuses_what_is_not_offered_without_building_the_prompt() -> None:
    state = position(2, rolled=("r4",), vines={(1, 0): ["r6"]})
    for action in (place_action(0, 1, 0), place_action(1, 0, 0), END_TURN, Action.of("reroll", die=0, x=1)):
        with pytest.raises(IllegalAction):
            RULES.apply(state, 0, action)
    with pytest.raises(IllegalAction):
        RULES.apply(state, 1, place_action(0, 0, 0))
    assert RULES.apply(state, 0, place_action(0, 0, 0)).state.players[0].tokens[0].dice


@pytest.mark.parametrize("policy", ["random", "greedy", "easy", "normal", "hard"])
def test_bots_never_write_to_their_view_and_never_see_the_generator(policy: str) -> None:
    for players, seed in ((2, 1), (4, 2), (1, 3)):
        state = RULES.setup(players, {"pick_colours": seed == 2}, seed)
        while RULES.outcome(state) is None:
            (prompt,) = RULES.prompts(state)
            seen = bot_view(state)
            assert seen.rng.state == 0 and seen.rng is not state.rng
            seen.rng = state.rng
            assert seen == state
            before = RULES.encode(state)
            action = RULES.bot_action(state, prompt, policy)
            # The view shares the live state's lists: a bot writing to it would show here.
            assert RULES.encode(state) == before
            state = RULES.apply(state, prompt.seat, action).state


def test_bot_action_plays_the_same_games_as_with_a_full_copy() -> None:
    game = run_game(RULES, 3, 11, policies=["greedy", "random", "greedy"])
    state = RULES.setup(3, None, 11)
    for move in game.record.moves:
        (prompt,) = RULES.prompts(state)
        policy = "random" if move.seat == 1 else "normal"
        rng = Rng.from_seed(state.version, move.seat)
        assert RULES.bots()[policy].choose(RULES.view(state, move.seat), prompt, rng) == move.action
        state = RULES.apply(state, move.seat, move.action).state
