"""The generic layout: groups, direct choices, simultaneous prompts, selects and pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from cogs.platform.ids import ActRef, GroupRef, MainRef, PickRef, UndoRef, parse, parse_value
from cogs.platform.layout import SelectSpec, group_rows, groups_of, main_rows
from engine.core import Action, Prompt
from engine.words import ENGLISH, Words

NAMES = ["Ann", "Bob"]


class LetterUI(GameUI):
    """Options "pick n" grouped by the first letter of a word; "pass" stands alone."""

    game_id = "letters"
    title = "Letters"
    emoji = "🔤"
    rules_text = "Pick words."

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        if action.kind == "pass":
            return Choice("pass", "Pass", "Pass", "⏭️", Tone.MAIN)
        word = action["word"]
        return Choice(f"letter:{word[0]}", f"Words in {word[0]}", word)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        return f"{names[prompt.seat]}: pick a word."


def words(seat: int, *items: str) -> Prompt:
    return Prompt(seat, "pick", (*(Action.of("word", word=w) for w in items), Action("pass")))


def labels(rows: list[Any]) -> list[list[str]]:
    return [
        [b.label for b in row] if isinstance(row, tuple) else [o.label for o in row.options] for row in rows
    ]


def test_groups_open_a_second_step_and_lone_options_play_at_once() -> None:
    prompt = words(0, "apple", "avocado", "banana")
    rows = main_rows(7, 3, LetterUI(), None, [prompt], NAMES, [0])
    assert labels(rows) == [["Words in a…", "Words in b: banana", "Pass"], ["Undo"]]
    refs = [parse(b.custom_id) for b in rows[0]]
    assert refs == [GroupRef(7, 3, 0, 0), ActRef(7, 3, 0, 2), ActRef(7, 3, 0, 3)]
    assert parse(rows[1][0].custom_id) == UndoRef(7, 3, 0)
    group = groups_of(LetterUI(), None, prompt, NAMES)[0]
    second = group_rows(7, 3, group)
    assert labels(second) == [["apple", "avocado"], ["Back"]]
    assert [parse(b.custom_id) for b in second[0]] == [ActRef(7, 3, 0, 0), ActRef(7, 3, 0, 1)]
    assert parse(second[1][0].custom_id) == MainRef(7, 3)


def test_simultaneous_prompts_name_their_seat() -> None:
    rows = main_rows(7, 3, LetterUI(), None, [words(0, "kiwi"), words(1, "lime")], NAMES, [1])
    assert labels(rows) == [
        ["Ann · Words in k: kiwi", "Ann · Pass", "Bob · Words in l: lime", "Bob · Pass"],
        ["Undo (Bob)"],
    ]
    assert {parse(b.custom_id).seat for b in rows[0]} == {0, 1}  # type: ignore[union-attr]


def test_many_choices_become_selects_then_pages() -> None:
    many = [f"w{n:03d}" for n in range(130)]
    prompt = Prompt(0, "pick", tuple(Action.of("word", word=w) for w in many))
    group = groups_of(LetterUI(), None, prompt, NAMES)[0]
    page0 = group_rows(7, 3, group, 0)
    assert [type(r) for r in page0[:4]] == [SelectSpec] * 4 and labels(page0)[4] == ["Back", "More"]
    assert [len(r.options) for r in page0[:4]] == [25, 25, 25, 25]  # type: ignore[union-attr]
    first = page0[0]
    assert isinstance(first, SelectSpec) and parse(first.custom_id) == PickRef(7, 3, 0)
    assert parse_value(7, 3, first.options[0].value) == ActRef(7, 3, 0, 0)
    assert "(1-25 of 130)" in first.placeholder
    page1 = group_rows(7, 3, group, 1)
    assert [len(r.options) for r in page1[:-1]] == [25, 5]  # type: ignore[union-attr]
    assert labels(page1)[-1] == ["Back", "Previous"]
    assert parse_value(7, 3, page1[1].options[-1].value) == ActRef(7, 3, 0, 129)  # type: ignore[union-attr]
    assert group_rows(7, 3, group, 99) == page1, "a page past the end shows the last one"


def test_long_labels_are_cut_to_discords_limits() -> None:
    prompt = words(0, "z" + "o" * 200)
    rows = main_rows(7, 3, LetterUI(), None, [prompt], NAMES, [])
    label = rows[0][0].label  # type: ignore[union-attr]
    assert len(label) == 80 and label.endswith("…")
