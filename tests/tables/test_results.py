"""Results and ratings: written once with the final save, never for abandoned games, rebuilt equal."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import tables.ratings as ratings
import tables.rebuild_ratings as rebuild_ratings
from engine.core import Action
from tables import Store, Table, TableService, TableStatus, open_store
from tables.errors import StoreUnavailable
from tables.migrations import MIGRATIONS
from tables.ratings import BOT_RATINGS, NEW, Rating
from tables.results import ResultRow, game_results, player_games, write_results
from tests.tables.conftest import BOB, CAROL, CHANNEL, GUILD, HOST, FakeClock

GOAL = {"goal": 10}


async def open_table(service: TableService, humans: tuple[int, ...], bots: tuple[str, ...] = ()) -> Table:
    """A started race to 10 with `humans` (the first hosts) then bots of the given levels."""
    table = await service.create("race", GUILD, CHANNEL, humans[0], "Host", GOAL)
    for user in humans[1:]:
        await service.join(table.id, user, f"P{user}")
    for level in bots:
        await service.add_bot(table.id, humans[0], level)
    return (await service.start_game(table.id, humans[0])).table


async def play_out(service: TableService, table_id: int, clock: FakeClock | None = None) -> Table:
    """Let the people to move play (longest strides) until the game is over."""
    while True:
        await service.idle()
        table = await service.get(table_id)
        if table.status is not TableStatus.PLAYING:
            return table
        prompt = next(p for p in table.prompts if not table.is_bot(p.seat))
        action = prompt.options[2] if prompt.kind == "stride" else Action("roll")
        if clock is not None:
            clock.advance(60)
        user = table.seats[prompt.seat].user_id
        assert user is not None
        await service.act(table.id, user, table.version, action)


async def rows_of(service: TableService, table_id: int) -> tuple[ResultRow, ...]:
    return await service.store.read(game_results, table_id)


async def all_ratings(store: Store) -> tuple[list[Any], list[Any]]:
    """The ratings table and the rating history, as plain rows."""

    def read(db: sqlite3.Connection) -> tuple[list[Any], list[Any]]:
        current = [tuple(r) for r in db.execute("SELECT * FROM ratings ORDER BY guild_id, game, user_id")]
        past = [tuple(r) for r in db.execute("SELECT * FROM rating_history ORDER BY table_id, seat")]
        return current, past

    return await store.read(read)


async def rating(service: TableService, user_id: int) -> Rating | None:
    return await service.store.read(ratings.rating_of, GUILD, "race", user_id)


async def test_a_finished_game_has_one_result_row_per_seat(service: TableService, clock: FakeClock) -> None:
    start = clock.now
    table = await open_table(service, (HOST, BOB), ("normal",))
    finished = await play_out(service, table.id, clock)
    outcome = finished.outcome
    assert finished.status is TableStatus.FINISHED and outcome is not None
    rows = await rows_of(service, table.id)
    assert [(r.seat, r.user_id, r.bot, r.replaced) for r in rows] == [
        (0, HOST, None, False),
        (1, BOB, None, False),
        (2, None, "normal", False),
    ]
    assert tuple(r.rank for r in rows) == outcome.ranks and tuple(r.score for r in rows) == outcome.scores
    moves = [a for a in await service.store.actions(table.id) if not a.undone and a.action.kind != "undo"]
    for row in rows:
        assert (row.game, row.guild_id, row.players, row.options) == ("race", GUILD, 3, {"goal": 10})
        assert row.started_at == start and row.ended_at == finished.updated_at > start
        assert row.moves == len(moves) > 0
    current, past = await all_ratings(service.store)
    assert sorted(r[2] for r in current) == [HOST, BOB], "the bot has no rating of its own"
    assert len(past) == 2 and all(r[7] == 1 for r in past), "marked as played with a bot"


async def test_a_game_against_bots_moves_the_human_rating_only(service: TableService) -> None:
    first = await play_out(service, (await open_table(service, (HOST,), ("normal", "random"))).id)
    rows = await rows_of(service, first.id)
    after = await rating(service, HOST)
    assert after is not None and (after.games, after.bot_games) == (1, 1)
    assert after.sigma < NEW.sigma
    if rows[0].rank == 1:
        assert after.mu > NEW.mu
    elif rows[0].rank == 3:
        assert after.mu < NEW.mu
    expected = ratings.rate(rows, {})
    assert [c.rating for c in expected] == [after]
    assert BOT_RATINGS == {"random": 10.0, "easy": 17.0, "normal": 25.0, "hard": 31.0}
    # The next game starts from the stored rating; the bots are as fixed as before.
    second = await play_out(service, (await open_table(service, (HOST,), ("normal",))).id)
    again = await rating(service, HOST)
    assert again == ratings.rate(await rows_of(service, second.id), {HOST: after})[0].rating
    assert again is not None and again.games == 2
    current, _ = await all_ratings(service.store)
    assert [r[2] for r in current] == [HOST]


async def test_a_solo_game_has_a_result_but_no_rating(service: TableService) -> None:
    table = await play_out(service, (await open_table(service, (HOST,))).id)
    assert len(await rows_of(service, table.id)) == 1
    assert await rating(service, HOST) is None


async def test_an_abandoned_game_records_nothing(service: TableService) -> None:
    table = await open_table(service, (HOST, BOB), ("normal",))
    await service.act(table.id, HOST, table.version, Action.of("stride", n=3))
    await service.abandon(table.id, HOST)
    assert await rows_of(service, table.id) == ()
    assert await all_ratings(service.store) == ([], [])
    assert await service.store.read(player_games, GUILD, HOST) == ()


async def test_a_final_save_that_failed_and_was_retried_writes_results_once(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    table = await open_table(service, (HOST, BOB))
    # Play until the next move ends the game, then make its save fail after the results were written.
    while True:
        now = await service.get(table.id)
        prompt = now.prompts[0]
        user = now.seats[prompt.seat].user_id
        assert user is not None
        action = prompt.options[2] if prompt.kind == "stride" else Action("roll")
        trial = now.rules.apply(now.state, prompt.seat, action).state
        if now.rules.outcome(trial) is not None:
            break
        await service.act(table.id, user, now.version, action)
    real = ratings.rate_game
    failures = 0

    def fault(db: Any, rows: Any) -> Any:
        nonlocal failures
        real(db, rows)
        failures += 1
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(ratings, "rate_game", fault)
    with pytest.raises(StoreUnavailable):
        await service.act(table.id, user, now.version, action)
    assert failures == 1 and (await service.get(table.id)).status is TableStatus.PLAYING
    assert await rows_of(service, table.id) == () and await all_ratings(service.store) == ([], [])
    monkeypatch.setattr(ratings, "rate_game", real)
    done = await service.act(table.id, user, now.version, action)
    assert done.table.status is TableStatus.FINISHED
    assert len(await rows_of(service, table.id)) == 2
    live = await all_ratings(service.store)
    assert [r[5] for r in live[0]] == [1, 1], "one rated game each"
    await service.close()

    # A restart between the final save and the board post: the start-up writes nothing again.
    again = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        await again.start()
        await again.idle()
        assert await again.store.backfill_results() == 0
        assert len(await rows_of(again, table.id)) == 2
        assert await all_ratings(again.store) == live
        finished = await again.get(table.id)

        def again_write(db: sqlite3.Connection) -> None:
            assert write_results(db, finished, lambda *_: 0) == (), "a table with results gets none again"
            with pytest.raises(sqlite3.IntegrityError):
                db.execute(
                    "INSERT INTO results (table_id, seat, game, guild_id, name, rank, score, breakdown, "
                    "options, players, started_at, ended_at, moves) SELECT table_id, seat, game, guild_id, "
                    "name, rank, score, breakdown, options, players, started_at, ended_at, moves "
                    "FROM results WHERE table_id = ? AND seat = 0",
                    (table.id,),
                )

        await again.store.write(again_write)
    finally:
        await again.close()


async def test_ratings_rebuilt_from_the_results_equal_the_live_ones(
    service: TableService, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for humans, bots in (
        ((HOST, BOB), ()),
        ((HOST, BOB, CAROL), ("random",)),
        ((BOB,), ("normal",)),
        ((CAROL, HOST), ("normal", "random")),
        ((HOST, CAROL, BOB), ()),
    ):
        await play_out(service, (await open_table(service, humans, bots)).id)
    # A player who left: a bot finishes the seat, and the game counts as their forfeit.
    table = await open_table(service, (HOST, BOB, CAROL))
    await service.leave(table.id, CAROL)
    await play_out(service, table.id)
    forfeit = (await rows_of(service, table.id))[2]
    assert forfeit.user_id == CAROL and forfeit.replaced and forfeit.forfeited and not forfeit.won
    live = await all_ratings(service.store)
    assert len(live[0]) == 3 and len(live[1]) == 5 * 2 + 1 + 3
    assert await service.store.write(ratings.rebuild) == (6, 3)
    assert await all_ratings(service.store) == live
    # And from the command line, on the file.
    await service.store.close()
    assert await asyncio.to_thread(rebuild_ratings.main, ["--db", database]) == 0
    assert "3 players from 6 rated games" in capsys.readouterr().out
    store = await open_store(database)
    try:
        assert await all_ratings(store) == live
    finally:
        await store.close()


async def test_a_forfeit_ranks_the_leaver_last(service: TableService) -> None:
    table = await open_table(service, (HOST, BOB))
    await service.leave(table.id, BOB)
    assert (await service.get(table.id)).seats[1].replaced
    await play_out(service, table.id)
    host = await rating(service, HOST)
    bob = await rating(service, BOB)
    assert host is not None and bob is not None
    assert host.mu > NEW.mu > bob.mu, "whoever won the board, the leaver lost"


async def test_finished_games_of_an_older_database_get_results_when_it_is_migrated(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    first = await play_out(service, (await open_table(service, (HOST, BOB))).id, clock)
    await play_out(service, (await open_table(service, (BOB, HOST), ("random",))).id, clock)
    rows = await rows_of(service, first.id)
    live = await all_ratings(service.store)
    await service.close()
    # The file as a Meeple without results left it.
    step = next(i for i, script in enumerate(MIGRATIONS) if "CREATE TABLE results" in script)
    with sqlite3.connect(db_path) as raw:
        raw.executescript(
            "DROP TABLE rating_history; DROP TABLE ratings; DROP TABLE results;"
            f"ALTER TABLE tables DROP COLUMN started_at; PRAGMA user_version = {step};"
        )
    raw.close()
    import tables.store.connection as store_module

    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[: step + 1])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", step + 1)
    store = await Store.open(db_path)
    try:
        migrated = await store.read(game_results, first.id)
        # The start time is then the first move's (the start itself was not logged).
        assert [r.__class__(**{**_fields(r), "started_at": 0.0}) for r in migrated] == [
            r.__class__(**{**_fields(r), "started_at": 0.0}) for r in rows
        ]
        assert await all_ratings(store) == live
    finally:
        await store.close()


def _fields(row: ResultRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__slots__}  # type: ignore[attr-defined]


async def mu_of(service: TableService, user_id: int) -> float:
    """A rated person's mu in the race."""
    found = await rating(service, user_id)
    assert found is not None
    return found.mu


async def test_a_games_rating_moves_run_from_the_last_rating_to_the_new_one(service: TableService) -> None:
    first = await play_out(service, (await open_table(service, (HOST, BOB))).id)
    host, bob = await mu_of(service, HOST), await mu_of(service, BOB)
    assert await service.store.read(ratings.table_moves, first.id) == {0: (NEW.mu, host), 1: (NEW.mu, bob)}
    assert host != NEW.mu != bob, "a two-player game moves both ratings"
    # Later games start where the last ended; a bot's seat has no move, a solo game none at all.
    second = await play_out(service, (await open_table(service, (BOB, HOST), ("normal",))).id)
    assert await service.store.read(ratings.table_moves, second.id) == {
        0: (bob, await mu_of(service, BOB)),
        1: (host, await mu_of(service, HOST)),
    }
    solo = await play_out(service, (await open_table(service, (CAROL,))).id)
    assert await service.store.read(ratings.table_moves, solo.id) == {}
