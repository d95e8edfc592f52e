"""The Diced Tomatoes board: every state of bot games draws; board files decode and stay small."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from engine.tomatoes import RULES, Colour, Die, GameEnd, Phase, ScoreSlot, Token
from renderers import palette, render, render_file
from renderers.playout import state_at, states
from renderers.tomatoes import WIDTH, draw
from tests.renderers.helpers import NASTY_NAMES, decode, game_layout_problems

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"golden_hybrid": False, "karma_overload": False, "dicey_rules": False, "pick_colours": True},
)


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize("seats", range(1, 7))
def test_every_few_steps_of_a_game_draws(seats: int, options: dict[str, Any], policy: str) -> None:
    seen_over = False
    for step, state in enumerate(states(RULES, seats, seats * 11, options, policy)):
        final = state.ended is not GameEnd.NONE
        if step % 4 == 0 or final:
            # Each seat in turn and a spectator.
            viewer = step % (seats + 1) if step % (seats + 1) < seats else None
            image = render("tomatoes", RULES.view(state, viewer), viewer, NAMES[:seats])
            assert image.width == WIDTH
        seen_over = seen_over or final
    assert seen_over


def test_the_largest_table_is_well_under_a_megabyte() -> None:
    state = state_at(RULES, 6, 4, 0.9)
    image = decode_board(render_file("tomatoes", RULES.view(state, 0), 0, NASTY_NAMES))
    assert image.width == WIDTH


def test_hostile_names_draw() -> None:
    state = state_at(RULES, 6, 5, 0.5)
    decode_board(render_file("tomatoes", RULES.view(state, None), None, NASTY_NAMES))
    decode_board(render_file("tomatoes", RULES.view(state, None), None, ["", "", "", "", "", ""]))


def test_a_seat_view_differs_from_the_spectator_view() -> None:
    state = state_at(RULES, 3, 6, 0.3)
    spectator = render("tomatoes", RULES.view(state, None), None, NAMES[:3])
    seat = render("tomatoes", RULES.view(state, 1), 1, NAMES[:3])
    assert spectator.size == seat.size
    assert spectator.tobytes() != seat.tobytes()  # the "YOU" tag (and "Your turn" for the mover)


def test_the_board_shows_what_changes() -> None:
    """Harvests, vines, karma and the final round each change the picture."""
    state = RULES.setup(2, None, 1)
    base = render("tomatoes", state, None, NAMES[:2]).tobytes()

    def changed(edit: Any) -> bool:
        twin = RULES.clone(state)
        edit(twin)
        return render("tomatoes", twin, None, NAMES[:2]).tobytes() != base

    red = Die(Colour.RED, 4)
    assert changed(lambda s: s.players[1].slots.append(ScoreSlot(red, 4, 3, True)))
    assert changed(lambda s: setattr(s.players[0], "tokens", [Token(dice=[red]), Token(), Token()]))
    assert changed(lambda s: setattr(s.players[0], "karma", 5))
    assert changed(lambda s: setattr(s.players[0], "karma_bits", 2))
    assert changed(lambda s: setattr(s, "final_round", True))
    assert changed(lambda s: s.players[1].hand.append(Die(Colour.GOLD, 1)))

    def rolled(s: Any) -> None:
        s.rolled = [Die(Colour.BLACK, 2)]
        s.phase = Phase.PLACE

    assert changed(rolled)


def test_more_dice_than_fit_are_counted_not_dropped() -> None:
    state = RULES.setup(3, None, 1)
    state.phase = Phase.PLACE
    state.rolled = [Die(Colour.RED, 1 + i % 6) for i in range(29)]
    state.players[1].hand = [Die(Colour.BLACK, 2)] * 9
    base = render("tomatoes", state, None, NAMES[:3]).tobytes()
    # One die more, in a row already too long to show: only the "+N" note can change.
    more_rolled = RULES.clone(state)
    more_rolled.rolled.append(Die(Colour.RED, 6))
    more_passed = RULES.clone(state)
    more_passed.players[1].hand.append(Die(Colour.BLACK, 2))
    assert render("tomatoes", more_rolled, None, NAMES[:3]).tobytes() != base
    assert render("tomatoes", more_passed, None, NAMES[:3]).tobytes() != base


def test_overripe_and_worthless_vines_are_flagged() -> None:
    def flagged(*dice: Die) -> bool:
        state = RULES.setup(2, None, 1)
        state.players[0].tokens = [Token(dice=list(dice)), Token(), Token()]
        colours = render("tomatoes", state, None, NAMES[:2]).getcolors(1 << 20) or []
        return any(rgb == palette.WARNING for _, rgb in colours)

    assert flagged(Die(Colour.RED, 6), Die(Colour.GOLD, 5))  # 7: overripe
    assert flagged(Die(Colour.RED, 1), Die(Colour.BLACK, 1))  # 0: may be cleared
    assert not flagged(Die(Colour.RED, 5), Die(Colour.GOLD, 4))  # 6: fine


def decode_board(data: bytes) -> Image.Image:
    """The board file decoded, checked to be a board WIDTH wide."""
    return decode(data, (WIDTH, WIDTH), 3000)


def test_turn_order_tags_do_not_read_as_rankings() -> None:
    from renderers.tomatoes import _tags

    view = RULES.setup(3, {}, 5)
    words = {label for seat in range(3) for label, _ in _tags(view, seat, is_viewer=False)}
    assert words == {"starts", "plays last"}
    assert not _tags(RULES.setup(1, {}, 5), 0, is_viewer=False), "a solo player has no turn-order tag"


@pytest.mark.parametrize("seats", range(1, 7))
def test_no_text_is_cut_or_runs_into_other_text(seats: int) -> None:
    problems = game_layout_problems(RULES, draw, seats, range(1000, 1003))
    problems += game_layout_problems(RULES, draw, seats, range(1003, 1005), VARIANTS[1])
    assert not problems, "\n".join(problems[:20])


def test_the_first_to_six_tag_says_what_it_is_worth_and_is_absent_alone() -> None:
    from renderers.tomatoes import _tags

    view = RULES.setup(3, {}, 5)
    view.first_to_six = 1
    assert ("first to 6: +2", palette.STAR) in _tags(view, 1, is_viewer=False)
    assert all("6" not in label for label, _ in _tags(view, 0, is_viewer=False))
    solo = RULES.setup(1, {}, 5)
    solo.first_to_six = 0
    assert _tags(solo, 0, is_viewer=True) == [("YOU", palette.GOOD)], "no race alone: no tag"
