"""Discord faults in CI: one cell per kind of write and per kind of failure; every game goes on
or the players are told why it cannot, and none is left with a stale or doubled board."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.faultmatrix import fault_matrix
from tests.e2e.lane import Lane, games_on_discord

CI_CELLS = [
    ("post", "503"),
    ("edit", "404"),
    ("thread", "502"),
    ("answer", "429"),
    ("post", "403"),
    ("edit", "gateway"),
    ("thread", "404"),
    ("answer", "500"),
]
"""Every write and every failure at least once (the whole matrix: bench/faults.py)."""


async def test_every_game_goes_on_or_is_explained_after_discord_faults(tmp_path: Path) -> None:
    lane = Lane(tmp_path)
    await lane.open()
    try:
        cells = await fault_matrix(lane, games_on_discord(), CI_CELLS)
    finally:
        await lane.close()
    report = "\n".join(cell.line() for cell in cells)
    print(report)
    assert all(cell.hit for cell in cells), report
    assert all(cell.ok for cell in cells), report
    assert lane.fake.problems == [], lane.fake.problems
