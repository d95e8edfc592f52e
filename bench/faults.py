"""Discord fault matrix: every kind of write (post, edit, thread create, interaction answer)
against every failure (403, 404, 429 with retry_after, 500, 502, 503, gateway drop).

Usage: .venv/bin/python bench/faults.py [--writes post,edit] [--faults 503,404] [--seed 1]

The real bot.py plays against the fake Discord on 127.0.0.1; one new table per cell, games in
turn. Prints one line per cell: outcome (goes on / explained / stuck), seconds from the fault
to the next stored move, and whether the board was left behind or doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.faultmatrix import FAULTS, WRITES, Cell, fault_matrix  # noqa: E402
from tests.e2e.lane import Lane, games_on_discord  # noqa: E402


async def run(writes: list[str], faults: list[str], seed: int) -> list[Cell]:
    """Run the chosen cells on one lane."""
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        lane = Lane(Path(tmp))
        await lane.open()
        try:
            cells = [(w, f) for w in writes for f in faults]
            results = await fault_matrix(
                lane, games_on_discord(), cells, seed, lambda line: print(line, flush=True)
            )
        finally:
            await lane.close()
        for problem in lane.fake.problems:
            print("fake Discord:", problem)
    return results


def main() -> None:
    """Parse the arguments, run the matrix, print it."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writes", default=",".join(WRITES))
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    cells = asyncio.run(run(args.writes.split(","), args.faults.split(","), args.seed))
    print(f"\n== fault matrix: {len(cells)} cells in {time.monotonic() - started:.0f} s ==")
    header = "write   " + " ".join(f"{f:>12}" for f in args.faults.split(","))
    print(header)
    for write in args.writes.split(","):
        row = [c for c in cells if c.write == write]
        print(f"{write:7} " + " ".join(f"{(c.outcome if c.hit else 'not hit'):>12}" for c in row))
    stuck = [c for c in cells if not c.ok]
    print(
        f"goes on {sum(c.outcome == 'goes on' for c in cells)}, explained "
        f"{sum(c.outcome == 'explained' for c in cells)}, stuck or failed {len(stuck)}"
    )
    sys.exit(0 if not stuck else 1)


if __name__ == "__main__":
    main()
