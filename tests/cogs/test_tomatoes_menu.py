"""Diced Tomatoes turn menus on a phone: few components to read, short labels, one click a die."""

from __future__ import annotations

from typing import Any

from cogs.games import get_ui
from cogs.platform.ids import ActRef, GroupRef
from cogs.platform.layout import SelectSpec, group_rows, groups_of, main_rows
from engine.core import Prompt
from engine.games import get_rules
from engine.tomatoes.state import TomatoState
from tests.cogs.screens import Item, reads, screen_items

NAMES = ["Ann", "Bob", "Cid", "Dee"]
BUDGET = 10
"""Issue 33: at most 10 components to read to place a die, no label over 40 characters."""


def reach(state: TomatoState, prompt: Prompt, index: int) -> list[tuple[int, list[Item]]]:
    """The screens (components read, items) a player goes through to play option `index`."""
    rules, ui = get_rules("tomatoes"), get_ui("tomatoes")
    view, names = rules.view(state, None), NAMES[: len(state.players)]
    labels = [ui.choice(view, prompt, a, names).single_label for a in prompt.options]
    same = {i for i, label in enumerate(labels) if label == labels[index]}
    groups = groups_of(ui, view, prompt, names)
    number = next(g.number for g in groups if any(i in same for i, _ in g.members))
    rows = main_rows(1, state.version, ui, view, [prompt], names, [prompt.seat])
    screens: list[tuple[int, list[Item]]] = []
    in_group = False
    for _ in range(10):
        items = screen_items(rows)
        hit = next((i for i in items if isinstance(i.ref, ActRef) and i.ref.index in same), None)
        more = next((i for i in items if i.label == "More"), None)
        opens = next((i for i in items if isinstance(i.ref, GroupRef) and i.ref.group == number), None)
        step = hit or (more if in_group else opens) or more
        assert step is not None, (labels[index], [i.label for i in items])
        screens.append((reads(items, step), items))
        if hit is not None:
            return screens
        in_group = True
        rows = group_rows(1, state.version, groups[step.ref.group], step.ref.page)
    raise AssertionError(f"option {index} is not reachable")


def games(players: tuple[int, ...] = (2, 3, 4), seeds: int = 2) -> Any:
    """(state, prompt) of every decision of a few normal-bot games."""
    rules = get_rules("tomatoes")
    for count in players:
        for seed in range(seeds):
            state = rules.setup(count, {}, seed)
            while rules.outcome(state) is None:
                (prompt,) = rules.prompts(state)
                yield state, prompt
                state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt)).state


def test_placing_any_die_reads_at_most_ten_components_with_labels_of_forty_at_most() -> None:
    # Before: up to 20 die -> target buttons on one screen, labels such as
    # "Black 3 → Bot's token 2 (2 = 2)" or a "Place the rest: ..." of 63 characters.
    placements = clicks = 0
    for state, prompt in games():
        for index, action in enumerate(prompt.options):
            if action.kind not in ("place", "place_rest") and index > 0:
                continue  # every placement, and the first option of every other decision
            screens = reach(state, prompt, index)
            for read, items in screens:
                assert all(len(i.label) <= 40 for i in items), [i.label for i in items if len(i.label) > 40]
                if action.kind == "place":
                    assert read <= BUDGET, (read, [i.label for i in items])
            if action.kind == "place":
                placements += 1
                clicks += len(screens)
    assert placements > 3000
    assert clicks / placements < 1.2, "most dice still go where they go in one click"


def test_karma_actions_fold_into_one_select_and_equal_targets_show_once() -> None:
    seen_karma = seen_seeds = flat = 0
    for state, prompt in games(players=(3,), seeds=1):
        if prompt.kind != "place" or not any(a.kind == "place" for a in prompt.options):
            continue
        ui, view = get_ui("tomatoes"), get_rules("tomatoes").view(state, None)
        rows = main_rows(1, state.version, ui, view, [prompt], NAMES[:3], [prompt.seat])
        items = screen_items(rows)
        karma = [a for a in prompt.options if a.kind in ("reroll", "shift", "clean", "flip")]
        selects = [r for r in rows if isinstance(r, SelectSpec) and r.placeholder.startswith("Spend karma")]
        if karma:
            assert len(selects) == 1, "every karma action behind one select"
            assert not any(i.select is None and "karma" in i.label for i in items)
            seen_karma += 1
            slot = rows.index(selects[0])
            menu = [i for i in items if i.select == slot]
            if all(isinstance(i.ref, ActRef) for i in menu):  # each action one click, when it fits
                flat += 1
                assert reads(items, menu[0]) <= BUDGET
            else:
                assert all(
                    isinstance(i.ref, GroupRef) or i.ref.index in range(len(prompt.options)) for i in menu
                )
        else:
            assert not selects
        # Bob's empty tokens take a red die alike: one choice, not one per token.
        bob_seeds = [
            a
            for a in prompt.options
            if a.kind == "place"
            and a["owner"] == (prompt.seat + 1) % 3
            and not state.players[a["owner"]].tokens[a["token"]].dice
        ]
        dice = {(state.rolled[a["die"]].colour, state.rolled[a["die"]].value) for a in bob_seeds}
        if len(bob_seeds) > len(dice):
            seen_seeds += 1
            name = NAMES[(prompt.seat + 1) % 3]
            shown = [i for i in items if f"{name}: new seed" in i.label]
            if shown:  # once per die: in its select, or on one button naming die and target
                assert len(shown) == len({(i.select, i.label) for i in shown}), [i.label for i in shown]
    assert seen_karma > 20 and seen_seeds > 10 and 0 < flat < seen_karma, (seen_karma, seen_seeds, flat)
