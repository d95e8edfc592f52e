"""The registry of games: one `Game` per game (rules, renderer, turn UI, sample seats), by game id.

A game registers once, here, with one `register` line. Every layer reads the same entry and
imports only its own part, so the arrows still point one way: the engine imports `Game.rules`
(a module exporting `RULES`); renderers/ imports `Game.renderer` (exporting `render`), cogs.games
imports `Game.ui` (exporting `UI`). The engine holds those upper modules as names and never
imports them. By convention game `x` lives in engine.x, renderers.x and cogs.games.x; `register`
takes other module names (a test's toy game), and `renderer=None` for a game drawn as text only.
Every list of games (commands, drawing pool, scripts, benches, tests) iterates `GAMES`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.core import Rules


@dataclass(frozen=True, slots=True)
class Game:
    """One game's registration: where each layer finds its part, and the player counts to sample."""

    id: str
    rules: str
    """The engine module exporting `RULES`."""
    renderer: str | None
    """The renderers module exporting `render(view, viewer, names)`; None: boards as text only."""
    ui: str
    """The cogs module exporting `UI`, the game's GameUI."""
    sample_seats: tuple[int, ...]
    """Player counts, ascending, that samples, benches and tests play (the last: the usual full table)."""

    @property
    def seats(self) -> int:
        """The one player count a sample plays when it plays one: the largest sampled."""
        return self.sample_seats[-1]


GAMES: dict[str, Game] = {}
"""Every registered game by id, in registration order."""


class UnknownGame(KeyError):
    """No game has that id."""


def registration(
    game_id: str,
    sample_seats: tuple[int, ...],
    *,
    rules: str | None = None,
    renderer: str | None = "",
    ui: str | None = None,
) -> Game:
    """A game's entry, its modules by convention unless named (a test registers it for a while)."""
    return Game(
        game_id,
        rules or f"engine.{game_id}",
        f"renderers.{game_id}" if renderer == "" else renderer,
        ui or f"cogs.games.{game_id}",
        tuple(sorted(sample_seats)),
    )


def register(game_id: str, sample_seats: tuple[int, ...], **modules: str | None) -> Game:
    """Register a game under `game_id` (see `registration`) and return its entry."""
    game = GAMES[game_id] = registration(game_id, sample_seats, **modules)
    return game


register("tomatoes", (2, 4, 6))
register("buttons", (2, 3, 4))
register("troyes", (2, 3, 4))


def game(game_id: str) -> Game:
    """The registration of a game by id."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def get_rules(game_id: str) -> Rules[Any]:
    """Return the rules object of a game by id (each game package exports RULES)."""
    rules: Rules[Any] = importlib.import_module(game(game_id).rules).RULES
    return rules
