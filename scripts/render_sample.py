"""Write the README's sample boards (docs/board-*.webp, as the bot posts them) from seeded mid-game
bot playouts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games import GAMES, get_rules
from renderers import has_renderer, render_file
from renderers.image_file import file_name
from renderers.playout import states

DOCS = Path(__file__).resolve().parent.parent / "docs"
NAMES = ("Ana", "Bartholomew", "Chloé", "Dmitri")
FRACTION = {"tomatoes": 0.6}
"""How far into the game a sample board is taken, where not half-way."""
SAMPLES = tuple(
    (game.id, min(len(NAMES), game.seats), 2024, FRACTION.get(game.id, 0.5)) for game in GAMES.values()
)
"""(game, players, seed, how far into the game) for each sample board."""


def _buttons_placed(game: str, state: Any) -> int:
    """How many buttons of this round are on the boards (Buttons), else a number that always passes."""
    return sum(len(board.buttons) for board in state.boards) if game == "buttons" else 99


def _telling(game: str, rules: Any, state: Any) -> bool:
    """Whether a state shows its game at work: a die being placed, or (Troyes) dice being chosen."""
    if game == "troyes":
        return any(step.dice for step in state.stack) and any(state.lying)
    return any(p.kind == "place" for p in rules.prompts(state)) and _buttons_placed(game, state) >= 4


def main() -> None:
    """Draw each sample as a spectator sees it and save it under docs/."""
    DOCS.mkdir(exist_ok=True)
    for game, seats, seed, fraction in SAMPLES:
        if not has_renderer(game):
            continue
        rules = get_rules(game)
        every = list(states(rules, seats, seed))
        # The first state past that point where a player is placing (the roll is on show)
        # with some buttons of the round already on the boards; in Troyes, where a player is
        # choosing dice while an expelled citizen lies on a building.
        state = next(s for s in every[int(len(every) * fraction) :] if _telling(game, rules, s))
        data = render_file(game, rules.view(state, None), None, NAMES[:seats])
        path = DOCS / file_name(f"board-{game}", data)
        path.write_bytes(data)
        print(f"{path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
