"""One turn-UI module per game (labels, grouping, emoji, rules text), found through the game registry.

A game's UI module is the one its registration names (engine.games: `Game.ui`, cogs.games.<id> by
convention) and defines `UI` (a GameUI); its `/play <game>` subcommand is built from the engine's
option specs (cogs.platform.lobby.play_command). Adding a game to Discord is its `register` line
and its module; `UIS` reads the registry on every use, so a game registered later (a test's) counts.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from cogs.games.base import GameUI
from engine.games import GAMES


class _Registered(Mapping[str, GameUI]):
    """Each registered game's GameUI by game id, in id order, imported on first use."""

    def __getitem__(self, game_id: str) -> GameUI:
        ui: GameUI = importlib.import_module(GAMES[game_id].ui).UI
        return ui

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(GAMES))

    def __len__(self) -> int:
        return len(GAMES)


UIS: Mapping[str, GameUI] = _Registered()
"""Each game's GameUI by engine game id."""


def get_ui(game_id: str) -> GameUI:
    """The GameUI of a game; KeyError when the game is not registered."""
    return UIS[game_id]
