"""One mapping module per game (labels, grouping, emoji, rules text), found by game id.

A game module defines `UI` (a GameUI); its `/play <game>` subcommand is built from the engine's
option specs (cogs.platform.lobby.play_command). Adding a game to Discord means adding a module here.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from cogs.games.base import GameUI

_SKIP = {"base"}


def _modules() -> list[ModuleType]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name in _SKIP or info.name.startswith("_"):
            continue
        found.append(importlib.import_module(f"{__name__}.{info.name}"))
    return found


MODULES: tuple[ModuleType, ...] = tuple(_modules())
"""The game mapping modules, by module name order."""
UIS: dict[str, GameUI] = {module.UI.game_id: module.UI for module in MODULES}
"""Each game's GameUI by engine game id."""


def get_ui(game_id: str) -> GameUI:
    """The GameUI of a game; KeyError when the game has no Discord mapping."""
    return UIS[game_id]
