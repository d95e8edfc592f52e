"""`python -m tables.rebuild_ratings [--db PATH]`: recompute every rating from the stored results.

Kept out of tables/ratings.py, which the store imports for its save hook: the command opens a
store, so living there made the two modules import each other.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from engine.words import ENGLISH
from tables import ratings
from tables.errors import StoreOpenError, StoreUnavailable
from tables.store import open_store
from tables.store.postgres import redacted


async def rebuild_file(path: str) -> str:
    """Recompute the ratings stored in the database at `path` (a SQLite file or a PostgreSQL URL)."""
    store = await open_store(path)
    try:
        backfilled = await store.backfill_results()
        games, people = await store.write(ratings.rebuild)
    finally:
        await store.close()
    # An operator's line, in English: a count still goes through the plural forms.
    earlier = (
        ENGLISH.ngettext(
            " ({count} earlier finished game got its results first)",
            " ({count} earlier finished games got their results first)",
            backfilled,
        )
        if backfilled
        else ""
    )
    rated = ENGLISH.ngettext("{count} rated game", "{count} rated games", games)
    people_rated = ENGLISH.ngettext("{count} player", "{count} players", people)
    return f"rebuilt the ratings of {people_rated} from {rated} in {redacted(path)}{earlier}"


def main(argv: Sequence[str] | None = None) -> int:
    """Recompute every rating from the stored results of the database given (default: $MEEPLE_DB)."""
    parser = argparse.ArgumentParser(prog="python -m tables.rebuild_ratings", description=main.__doc__)
    parser.add_argument(
        "--db",
        default=os.environ.get("MEEPLE_DB", "data/meeple.sqlite3"),
        help="the SQLite file or postgresql:// URL (default: $MEEPLE_DB)",
    )
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(rebuild_file(args.db)))
    except (StoreOpenError, StoreUnavailable) as exc:
        print(f"cannot rebuild: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
