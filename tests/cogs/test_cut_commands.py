"""Slash commands in the click journal: a deferred command's row lives from before its defer to after
its answer, and a command a restart cut short is answered after it (cogs/platform/clicks.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.platform import clicks
from engine.words import words
from tables import StoreUnavailable, TableService
from tests.cogs.conftest import Harness
from tests.cogs.test_cut_click_language import GUILD, answered_at_start_up, service_with
from tests.cogs.test_turns import start_two_humans

COMMANDS: list[tuple[str, str, str, dict[str, Any]]] = [
    # (who, where, command, options): every slash command that defers, those that change state included.
    ("carol", "channel", "play tomatoes", {}),
    ("alice", "thread", "game show", {}),
    ("alice", "thread", "game info", {}),
    ("alice", "thread", "game log", {}),
    ("alice", "thread", "game record", {}),
    ("alice", "channel", "game history", {}),
    ("alice", "thread", "game replay", {}),
    ("bob", "thread", "game leave", {}),
    ("bob", "thread", "game rejoin", {}),
    ("bob", "channel", "settings", {"language": "ru"}),
    ("bob", "channel", "games", {}),
    ("bob", "channel", "stats", {}),
    ("bob", "channel", "leaderboard", {"game": "tomatoes"}),
    ("alice", "thread", "game abandon", {}),
]


async def test_a_deferred_slash_command_is_journalled_before_its_defer_and_forgotten_after_its_answer(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start_two_humans(world)
    store = world.bot.tables.store
    events: list[str] = []
    rows: dict[int, str | None] = {}
    journal, close = store.journal_click, store.close_click

    async def journal_click(click: Any) -> None:
        await journal(click)
        rows[click.id] = click.command
        events.append("journal")

    async def close_click(click_id: int) -> None:
        events.append("close")
        await close(click_id)

    defer, send = discord.InteractionResponse.defer, discord.Webhook.send

    async def deferred(self: Any, *args: Any, **kwargs: Any) -> Any:
        events.append("defer")
        return await defer(self, *args, **kwargs)

    async def answer(self: Any, *args: Any, **kwargs: Any) -> Any:
        events.append("answer")
        return await send(self, *args, **kwargs)

    monkeypatch.setattr(store, "journal_click", journal_click)
    monkeypatch.setattr(store, "close_click", close_click)
    monkeypatch.setattr(discord.InteractionResponse, "defer", deferred)
    monkeypatch.setattr(discord.Webhook, "send", answer)
    for who, where, command, options in COMMANDS:
        events.clear()
        rows.clear()
        place = world.thread() if where == "thread" else world.channel
        await getattr(world, who).slash(place, command, **options)
        await world.idle()
        assert events[:2] == ["journal", "defer"], (command, events)
        assert "answer" in events and events[-1] == "close", (command, events)
        assert events.count("journal") == events.count("close") == 1, (command, events)
        assert list(rows.values()) == [f"/{command}"], (command, rows)
        assert await store.journalled_clicks() == [], command


def command(number: int, name: str, user_id: int, locale: discord.Locale, service: TableService) -> Any:
    """A slash command's interaction as `clicks.journalled_command` reads it."""
    return SimpleNamespace(
        id=number,
        application_id=9,
        token=f"token-{number}",
        guild_id=GUILD,
        user=SimpleNamespace(id=user_id),
        locale=locale,
        command=SimpleNamespace(qualified_name=name),
        client=SimpleNamespace(tables=service),
    )


async def cut_after_defer(service: TableService, interaction: Any) -> None:
    """Run a journalled command that dies after its defer: its row stays, as after a SIGKILL."""

    async def killed(click_id: int) -> None:
        raise StoreUnavailable("the process died")

    service.store.close_click = killed  # type: ignore[method-assign]
    try:
        async with clicks.journalled_command(interaction) as journalled:
            assert journalled is not None
    finally:
        del service.store.close_click


@pytest.mark.parametrize(
    ("locale", "chosen", "language"),
    [
        (discord.Locale.american_english, None, "en"),
        (discord.Locale.polish, None, "pl"),
        (discord.Locale.korean, "ru", "ru"),  # /settings language comes before the client's
    ],
)
async def test_a_slash_command_cut_after_its_defer_is_answered_at_start_up_in_its_users_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: discord.Locale, chosen: str | None, language: str
) -> None:
    db = tmp_path / "meeple.sqlite3"
    async with service_with(db, 101, chosen) as service:
        for number, name in enumerate(("play tomatoes", "game abandon", "settings"), start=1):
            await cut_after_defer(service, command(number, name, 101, locale, service))
        owed = await service.store.journalled_clicks()
    # The command as the user's client names it (its catalog's name), in the answer's words.
    names = [
        clicks.command_name(command(1, n, 101, locale, service)) for n in ("play tomatoes", "game abandon")
    ]
    assert [c.command for c in owed] == [
        *names,
        clicks.command_name(command(3, "settings", 101, locale, service)),
    ]
    w = words(language)
    assert await answered_at_start_up(db, monkeypatch) == [
        (f"token-{number}", w.gettext(clicks.NOT_FINISHED, command=c.command), True)
        for number, c in enumerate(owed, start=1)
    ]
    if language == "en":
        assert w.gettext(clicks.NOT_FINISHED, command=owed[0].command) == (
            "Meeple restarted before it finished /play tomatoes. If nothing changed, run it again."
        )
