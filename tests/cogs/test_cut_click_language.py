"""A click a restart cut short is answered, after the restart, in the language its player reads
private answers in (text.reader: /settings language, else the client's); a row of before, in English."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.platform import clicks
from cogs.platform.ids import ActRef, LobbyOp, LobbyRef, Ref
from cogs.upkeep import Upkeep
from engine.words import words
from tables import Store, StoreUnavailable, TableService
from tables.migrations import MIGRATIONS
from tests.cogs.test_cut_clicks import Hooks

LANGUAGE_STEP = next(
    i for i, step in enumerate(MIGRATIONS) if "ALTER TABLE pending_clicks ADD COLUMN language" in step
)
"""The schema before the step that keeps a journalled click's language."""
GUILD = 4 << 22 | 5


def interaction(service: TableService, number: int, user_id: int, locale: discord.Locale) -> Any:
    """An interaction as `clicks.journalled` reads it: a click from `user_id`'s client in `locale`."""
    return SimpleNamespace(
        id=number,
        application_id=9,
        token=f"token-{number}",
        guild_id=GUILD,
        user=SimpleNamespace(id=user_id),
        locale=locale,
        client=SimpleNamespace(tables=service),
    )


async def cut_short(service: TableService, click: Any, ref: Ref) -> None:
    """Journal a click and leave its row, as a process killed before its move was stored would."""

    async def killed(click_id: int) -> None:
        raise StoreUnavailable("the process died")

    service.store.close_click = killed  # type: ignore[method-assign]
    try:
        async with clicks.journalled(click, ref, []) as journalled:
            assert journalled is not None
    finally:
        del service.store.close_click


async def answered_at_start_up(db: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, bool]]:
    """What the next process's start-up sends through each owed click's token."""
    hooks = Hooks(refuse=set())
    monkeypatch.setattr(discord.Webhook, "from_state", hooks.from_state)
    service = TableService(await Store.open(db), clock_loop=False)
    bot: Any = type("Bot", (), {"tables": service, "_connection": object(), "is_ready": lambda self: False})()
    upkeep = Upkeep(bot)
    try:
        await upkeep.cog_load()
        assert upkeep._answering is not None
        await upkeep._answering
        assert await service.store.journalled_clicks() == []
    finally:
        await upkeep.cog_unload()
        await service.close()
    return sorted(hooks.sent)


@contextlib.asynccontextmanager
async def service_with(db: Path, user_id: int, chosen: str | None) -> AsyncIterator[TableService]:
    """A service on `db` (no clock loop) whose player `user_id` chose `chosen` in /settings (None: none)."""
    service = TableService(await Store.open(db), clock_loop=False)
    try:
        await service.players.load()
        if chosen is not None:
            await service.players.update(user_id, language=chosen)
        yield service
    finally:
        await service.close()


@pytest.mark.parametrize(
    ("locale", "chosen", "language"),
    [
        (discord.Locale.polish, None, "pl"),
        (discord.Locale.korean, None, "ko"),
        (discord.Locale.polish, "ru", "ru"),  # /settings language comes before the client's
        (discord.Locale.korean, "en", "en"),
    ],
)
async def test_a_cut_click_is_answered_at_start_up_in_its_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: discord.Locale, chosen: str | None, language: str
) -> None:
    db = tmp_path / "meeple.sqlite3"
    async with service_with(db, 101, chosen) as service:
        await cut_short(service, interaction(service, 1, 101, locale), ActRef(5, 3, 0, 2))
        await cut_short(service, interaction(service, 2, 101, locale), LobbyRef(5, LobbyOp.JOIN))

    w = words(language)
    assert await answered_at_start_up(db, monkeypatch) == [
        ("token-1", w.gettext(clicks.NOT_PLAYED), True),
        ("token-2", w.gettext(clicks.NOT_DONE), True),
    ]
    if language != "en":
        assert w.gettext(clicks.NOT_PLAYED) != clicks.NOT_PLAYED, "the message has a translation"


async def test_a_click_journalled_before_languages_were_kept_is_answered_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "meeple.sqlite3"
    # The database as the Meeple before the step left it, a move's click in its journal.
    with closing(sqlite3.connect(db)) as raw, raw:
        for step in MIGRATIONS[:LANGUAGE_STEP]:
            raw.executescript(step)
        raw.execute(f"PRAGMA user_version = {LANGUAGE_STEP}")
        raw.execute(
            "INSERT INTO pending_clicks (id, application_id, token, table_id, move, created_at, guild_id)"
            " VALUES (1, 9, 'token-1', 5, 1, ?, ?)",
            (time.time() - 60, GUILD),
        )
    assert await answered_at_start_up(db, monkeypatch) == [("token-1", clicks.NOT_PLAYED, True)]
