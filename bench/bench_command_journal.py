"""The journal's cost per deferred slash command (cogs/platform/clicks.py `journalled_command`): the
time its INSERT adds before the defer, and its DELETE after the answer, on a fresh file database.
Usage: .venv/bin/python bench/bench_command_journal.py [--commands 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from cogs.platform import clicks  # noqa: E402
from tables import Store, TableService  # noqa: E402


async def run(commands: int) -> tuple[float, float]:
    """Milliseconds per command spent before its body (the INSERT) and after it (the DELETE)."""
    with tempfile.TemporaryDirectory(prefix="bench-command-journal-") as tmp:
        service = TableService(await Store.open(Path(tmp) / "meeple.sqlite3"), clock_loop=False)
        await service.players.load()
        before = after = 0.0
        try:
            for number in range(commands):
                interaction: Any = SimpleNamespace(
                    id=number,
                    application_id=1,
                    token="t" * 70,
                    guild_id=5,
                    user=SimpleNamespace(id=101),
                    locale=discord.Locale.american_english,
                    command=SimpleNamespace(qualified_name="play tomatoes"),
                    client=SimpleNamespace(tables=service),
                )
                started = time.perf_counter()
                async with clicks.journalled_command(interaction):
                    entered = time.perf_counter()  # where the command defers
                    before += entered - started
                    answered = time.perf_counter()
                after += time.perf_counter() - answered
        finally:
            await service.close()
    return before / commands * 1e3, after / commands * 1e3


def main() -> None:
    """Parse the arguments, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    before, after = asyncio.run(run(args.commands))
    print(
        f"command journal: {before:.3f} ms before the defer (INSERT), {after:.3f} ms after the answer"
        f" (DELETE) per command ({args.commands} commands)"
    )


if __name__ == "__main__":
    main()
