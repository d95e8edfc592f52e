"""Troyes clicks through the Discord layer: whole games in simcord, every button and select counted.

Run by hand: .venv/bin/python bench/bench_troyes_discord_clicks.py [--games 2] [--players 2 3 4]

Two humans (alice and bob, with bots in the other seats) play greedy moves by clicking the
posted components, from /play troyes to the final scores; boards are posted without images
(clicks do not depend on them). A click is one interaction: a button, a select choice, a page
arrow or a group opened. Clicks are classed by the action they belong to (tests/cogs/troyes_play.py).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.platform import board, drawing  # noqa: E402
from tables.models import TableStatus  # noqa: E402
from tests.cogs import conftest  # noqa: E402
from tests.cogs.helpers import table_of  # noqa: E402
from tests.cogs.troyes_play import Clicks, open_troyes, play_counted  # noqa: E402


async def one_game(players: int, seed: int) -> tuple[Clicks, int]:
    """Clicks of one game with 2 humans and `players - 2` bots; also the number of rounds."""
    conftest.GAME_SEED = seed
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as tmp:
        # As the cogs tests' `world`: boards without images, no drawing workers.
        patch.setattr(board, "board_job", lambda table, seat=None: None)
        patch.setattr(drawing.DrawingPool, "workers", 0)
        async with conftest.running(Path(tmp)) as world:
            await open_troyes(world, bots=players - 2)
            clicks = Clicks()
            await play_counted(world, clicks, moves=100_000)
            table = await table_of(world)
            assert table.status is TableStatus.FINISHED, table.status
            return clicks, table.state.rounds


def main() -> None:
    """Play the games and print clicks per action type and per player per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    for players in args.players:
        total = Clicks()
        per_player: list[int] = []
        for game in range(args.games):
            clicks, rounds = asyncio.run(one_game(players, 1000 * players + game))
            total.per_type.update(clicks.per_type)
            total.actions.update(clicks.actions)
            per_player += [clicks.per_seat[seat] for seat in (0, 1)]
        print(f"\n== {players} players ({rounds} rounds), 2 humans, {args.games} games ==")
        print(f"{'action':<22}{'actions':>8}{'clicks':>8}{'per action':>12}")
        for kind, count in sorted(total.actions.items(), key=lambda item: -total.per_type[item[0]]):
            print(f"{kind:<22}{count:>8}{total.per_type[kind]:>8}{total.per_type[kind] / count:>12.2f}")
        every = sum(total.per_type.values())
        print(f"{'all':<22}{sum(total.actions.values()):>8}{every:>8}")
        print(f"clicks per player per game: {per_player} (mean {statistics.mean(per_player):.1f})")
        assert every == sum(per_player) and Counter(total.per_type) == total.per_type


if __name__ == "__main__":
    main()
