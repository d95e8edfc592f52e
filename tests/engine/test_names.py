"""Log lines name the players when given their names, and say "Player N" without them."""

from __future__ import annotations

import re

import pytest

from engine.core import Event, player_name
from engine.games import GAMES, get_rules
from engine.play import run_game

PLAYER = re.compile(r"\bPlayer (\d)\b")
NAMES = ("Ann", "Bob the Brave", "Player 9 fan", "Zoë")
"""One name that itself says "Player 9": names are put in as they are, never re-read."""


def test_player_name() -> None:
    assert player_name(0) == "Player 1"
    assert player_name(1, ["Ann", "Bob"]) == "Bob"
    assert player_name(2, ["Ann", "Bob"]) == "Player 3"


@pytest.mark.parametrize(
    ("game", "seats", "seed"), [(game.id, min(len(NAMES), game.seats), 3) for game in GAMES.values()]
)
def test_every_logged_line_names_the_players(game: str, seats: int, seed: int) -> None:
    rules = get_rules(game)
    played = run_game(rules, seats, seed)
    events = [event for _, event in played.events] + [Event("undo", {"seat": seats - 1})]
    names = NAMES[:seats]
    numbered = [f"Player {seat + 1}" for seat in range(seats)]
    named_any = 0
    for event in events:
        plain = rules.describe(event)
        assert rules.describe(event, None) == plain
        assert rules.describe(event, numbered) == plain
        named = rules.describe(event, names)
        # The line with names is the plain line with each "Player N" swapped for seat N's name.
        assert named == PLAYER.sub(lambda m: names[int(m.group(1)) - 1], plain), event
        named_any += named != plain
    assert named_any > len(events) // 2
