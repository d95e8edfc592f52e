"""The data files mark every estimate of Appendix A, and only those (rules Appendix A, DATA.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import engine.troyes

DATA = Path(engine.troyes.__file__).with_name("data")


def load(name: str) -> Any:
    """A data file, as raw JSON."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def test_activity_card_numbers_are_estimates_except_the_templar_divisor() -> None:
    for card in load("activities.json"):
        expected = {"cost", "divisor", "space_vp"} - ({"divisor"} if card["name"] == "Templar" else set())
        assert set(card["estimated"]) == expected, card["name"]


def test_event_card_numbers_are_estimates_and_the_black_dice_are_not() -> None:
    for card in load("events.json"):
        expected = {"combat", "divisor", "banners", "vp"}
        if card["calls"] is not None:
            expected.add("calls")
        if card["name"] == "Conflict of Succession":
            expected.add("black_dice")  # §6.2: none listed, INFERRED
        assert set(card["estimated"]) == expected, card["name"]


def test_board_estimates_are_the_row_layouts_and_the_two_player_neutral_picture() -> None:
    board = load("board.json")
    rows = {b["name"]: set(b["estimated"]) for b in board["buildings"]}
    layout = {"rows", "row_of_value"}
    assert rows == {"Palace": set(), "Bishopric": layout, "City Hall": layout}
    assert board["neutral_setup_2p"]["estimated"] == ["spaces"]
    assert all(c["estimated"] == [] for c in load("characters.json"))
