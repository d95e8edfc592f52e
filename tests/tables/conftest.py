"""Fixtures for the table tests: toy games registered, a fake clock, a service on a file database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import games
from tables import Notice, Store, Table, TableService, Update

HOST, BOB, CAROL, DAN, EVE = 101, 102, 103, 104, 105
GUILD, CHANNEL = 1, 10


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move time forward and return the new time."""
        self.now += seconds
        return self.now


class Recorder:
    """A listener that keeps everything it is sent."""

    def __init__(self) -> None:
        self.items: list[Update | Notice] = []

    async def __call__(self, item: Update | Notice) -> None:
        self.items.append(item)

    @property
    def updates(self) -> list[Update]:
        """The updates received, in order."""
        return [i for i in self.items if isinstance(i, Update)]

    @property
    def notices(self) -> list[Notice]:
        """The notices received, in order."""
        return [i for i in self.items if isinstance(i, Notice)]


@pytest.fixture(autouse=True)
def toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy games so tables can be made of them."""
    for game, module in (
        ("race", "tests.toygame"),
        ("vote", "tests.tables.votegame"),
        ("claim", "tests.tables.claimgame"),
    ):
        monkeypatch.setitem(games.GAMES, game, games.registration(game, (2,), rules=module, renderer=None))


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock shared by the service under test."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test database lives (its folder does not exist yet)."""
    return tmp_path / "data" / "meeple.db"


@pytest.fixture
async def service(db_path: Path, clock: FakeClock) -> AsyncIterator[TableService]:
    """A service on a fresh file database, bots moving at once."""
    store = await Store.open(db_path)
    svc = TableService(store, clock=clock, bot_delay=0)
    yield svc
    await svc.close()


@pytest.fixture
def recorder(service: TableService) -> Recorder:
    """A listener subscribed to the service."""
    rec = Recorder()
    service.subscribe(rec)
    return rec


async def started(service: TableService, game: str = "race", *, bob: bool = True, bots: int = 0) -> Table:
    """A started table: the host, optionally Bob, then `bots` random bots."""
    table = await service.create(game, GUILD, CHANNEL, HOST, "Host")
    if bob:
        await service.join(table.id, BOB, "Bob")
    for _ in range(bots):
        await service.add_bot(table.id, HOST, "random")
    return (await service.start_game(table.id, HOST)).table
