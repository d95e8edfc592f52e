"""The event log reads as English, and the rules object's copies and views are faithful."""

from __future__ import annotations

import copy
import dataclasses

from engine.core import Event
from engine.play import run_game
from engine.tomatoes import RULES
from engine.tomatoes.events import Ev
from engine.tomatoes.state import PlayerState, Token, TomatoState
from tests.engine.tomatoes.helpers import position


def events_of_many_games() -> dict[str, Event]:
    """One example event of each kind seen over a few bot games."""
    seen: dict[str, Event] = {}
    for seed in range(30):
        for players, policy in ((1, "greedy"), (3, "random"), (2, "greedy")):
            game = run_game(RULES, players, seed, policies=[policy] * players)
            for _, event in game.events:
                seen.setdefault(str(event.kind), event)
        if len(seen) == len(Ev):
            break
    return seen


def test_every_event_kind_has_its_own_sentence() -> None:
    seen = events_of_many_games()
    assert set(seen) == {str(kind) for kind in Ev}, "some event kind never happened in the sample"
    for kind, event in seen.items():
        line = RULES.describe(event)
        assert line.endswith(".") and "=" not in line and "{" not in line, (kind, line)
        assert line[0].isupper()


def test_sample_lines() -> None:
    place = Event(
        Ev.PLACE,
        {
            "seat": 0,
            "owner": 1,
            "token": 2,
            "die": {"colour": "black", "value": 3},
            "seed": False,
            "value": 4,
        },
    )
    assert RULES.describe(place) == "Player 1 adds black 3 to the vine on Player 2's token 3 (worth 4)."
    harvest = Event(
        Ev.HARVEST,
        {
            "owner": 0,
            "seat": 0,
            "token": 0,
            "slot": 4,
            "value": 4,
            "points": 4,
            "bonus": 3,
            "star": True,
            "seed": {"colour": "red", "value": 4},
        },
    )
    assert RULES.describe(harvest) == (
        "Player 1 harvests a tomato worth 4 into slot 4: 4 + 3 bonus = 7 points, golden star."
    )
    assert RULES.describe(Event("undo", {"seat": 2})) == "Player 3 takes back their last move."
    passed = Event(Ev.PASS, {"seat": 1, "to": 2, "dice": [{"colour": "gold", "value": 2}]})
    assert RULES.describe(passed) == "Player 2 cannot place gold 2 and passes it to Player 3."


def test_fast_clone_equals_a_deep_copy_and_shares_nothing_mutable() -> None:
    state = position(3, rolled=("r3", "b2"), vines={(1, 0): ["r4", "r5"]}, slots={2: [3]})
    state.players[0].hand = list(state.rolled)
    clone = RULES.clone(state)
    assert clone == copy.deepcopy(state)
    # Every field of the state, of a player and of a token is copied (clone sets them by hand).
    for cls, original, copied in (
        (TomatoState, state, clone),
        (PlayerState, state.players[1], clone.players[1]),
        (Token, state.players[1].tokens[0], clone.players[1].tokens[0]),
    ):
        for field in dataclasses.fields(cls):
            assert getattr(copied, field.name) == getattr(original, field.name), field.name
    clone.players[1].tokens[0].dice.append(clone.rolled.pop())
    clone.players[0].hand.clear()
    clone.bushel.clear()
    clone.rng.next64()
    assert len(state.players[1].tokens[0].dice) == 2 and len(state.rolled) == 2
    assert state.players[0].hand and state.bushel and state.rng != clone.rng


def test_view_hides_only_the_generator() -> None:
    state = position(2, rolled=("r3",))
    for seat in (0, 1, None):
        seen = RULES.view(state, seat)
        assert seen.rng.state == 0
        seen.rng = state.rng
        assert seen == state


def test_prompt_context_describes_the_roll() -> None:
    state = position(2, rolled=("r3", "b2"), vines={(1, 0): ["r6"]}, karma={0: 4})
    (prompt,) = RULES.prompts(state)
    context = dict(prompt.context)
    assert context["colours"] == ("red", "black") and context["values"] == (3, 2)
    assert context["placeable"] == (0,) and context["karma"] == 4 and context["must_place"] is True


def test_one_point_is_singular() -> None:
    data = {"owner": 0, "seat": 0, "token": 0, "slot": 2, "value": 1, "points": 1, "bonus": 0, "star": False}
    line = RULES.describe(Event(Ev.HARVEST, data | {"seed": {"colour": "red", "value": 1}}))
    assert line.endswith(": 1 point.") and "1 points" not in line
    assert "(+1 point)" in RULES.describe(Event(Ev.FIRST_TO_SIX, {"owner": 0, "bonus": 1}))


def _solo_lines() -> list[str]:
    lines = []
    for seed in range(12):
        game = run_game(RULES, 1, seed)
        lines += [RULES.describe(event) for _, event in game.events]
    return lines


def test_solo_has_its_own_wording() -> None:
    lines = _solo_lines()
    text = "\n".join(lines)
    assert "passed to them" not in text and "kept from the last turn" in text
    assert "first to harvest six" not in text
    assert "bonus" not in text and "points" not in text, "solo scoring counts matched slots only"
    assert any("a match, golden star" in line for line in lines)
    assert "Sixth tomato harvested: the game ends with this turn." in lines
    assert "Final round" not in text


def test_solo_end_gives_the_true_reason() -> None:
    stuck = Event(Ev.GAME_END, {"reason": "solo_out_of_dice", "held": 2})
    assert RULES.describe(stuck) == (
        "Game over: the bushel is empty and the 2 dice left (black or gold) can never be placed:"
        " only a red die seeds a vine."
    )
    empty = Event(Ev.GAME_END, {"reason": "solo_out_of_dice", "held": 0})
    assert RULES.describe(empty) == "Game over: the bushel is empty and no dice are left to play."


def test_the_first_players_first_turn_is_logged() -> None:
    state = RULES.setup(3, None, 4)
    (event,) = RULES.opening(state)
    assert event.kind == Ev.TURN and event.data["seat"] == state.first_seat == state.active
    assert RULES.describe(event, ["Ann", "Bob", "Cy"]) == f"{['Ann', 'Bob', 'Cy'][state.active]}'s turn 1."
