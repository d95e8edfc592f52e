"""A table's language: chosen when it opens, changed by the host in the lobby, kept in the store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.words import words
from tables import BadTableOptions, LobbyClosed, NotEnoughPlayers, NotHost, TableService
from tables.errors import NotAllowed
from tables.migrations import MIGRATIONS
from tables.store import Store
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST, FakeClock


async def test_the_language_chosen_at_opening_is_stored(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host", language="ko")
    assert table.language == "ko"
    assert (await service.store.load(table.id)).language == "ko"  # type: ignore[union-attr]


async def test_a_table_speaks_english_unless_told(service: TableService) -> None:
    assert (await service.create("race", GUILD, CHANNEL, HOST, "Host")).language == "en"
    with pytest.raises(BadTableOptions):
        await service.create("race", GUILD, CHANNEL, HOST, "Host", language="fr")


async def test_the_host_changes_the_language_in_the_lobby_only(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host", language="en")
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.set_language(table.id, BOB, "ru")
    assert (await service.set_language(table.id, HOST, "pl")).language == "pl"
    assert (await service.store.load(table.id)).language == "pl"  # type: ignore[union-attr]
    await service.start_game(table.id, HOST)
    with pytest.raises(LobbyClosed):
        await service.set_language(table.id, HOST, "ru")
    assert (await service.get(table.id)).language == "pl"


async def test_a_database_from_before_languages_gets_english_tables(db_path: Path, clock: FakeClock) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(db_path) as raw:
        for step in MIGRATIONS[:-1]:
            raw.executescript(step)
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
        raw.execute(
            "INSERT INTO tables (id, game, guild_id, channel_id, host_id, status, options, created_at, "
            "updated_at) VALUES (7, 'race', 1, 10, ?, 'lobby', '{\"goal\": 10}', 5.0, 5.0)",
            (HOST,),
        )
        raw.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (7, 0, ?, 'Host')", (HOST,))
    raw.close()
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        assert (await service.get(7)).language == "en"
        assert (await service.set_language(7, HOST, "ru")).language == "ru"
    finally:
        await service.close()


def test_a_refusal_is_said_in_the_readers_language_and_str_is_english() -> None:
    refusal = NotAllowed()
    assert str(refusal) == "You are not allowed to do that."
    assert refusal.said(words("ru")) == "Тебе нельзя это делать."
    counted = NotEnoughPlayers(lambda w: w.ngettext("{count} seat", "{count} seats", 1))
    assert str(counted) == "1 seat"
    assert NotAllowed("Table #{table} is gone.", table=4).said(words("en")) == "Table #4 is gone."


async def test_a_players_own_language_is_stored(service: TableService) -> None:
    from tables.players import Players

    assert service.players.get(BOB).language is None
    await service.players.update(BOB, language="pl")
    again = Players(service.store)
    await again.load()
    assert again.get(BOB).language == "pl" and again.get(HOST).language is None
