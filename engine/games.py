"""The registry of games: game id -> its rules object, imported on first use."""

from __future__ import annotations

import importlib
from typing import Any

from engine.core import Rules

GAME_MODULES: dict[str, str] = {
    "tomatoes": "engine.tomatoes",
    "buttons": "engine.buttons",
    "troyes": "engine.troyes",
}


class UnknownGame(KeyError):
    """No game has that id."""


def get_rules(game_id: str) -> Rules[Any]:
    """Return the rules object of a game by id (each game package exports RULES)."""
    try:
        module_name = GAME_MODULES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None
    rules: Rules[Any] = importlib.import_module(module_name).RULES
    return rules
