"""Answering, after a restart, the clicks the last process acknowledged and never finished."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.platform import clicks
from cogs.upkeep import Upkeep
from tables import Store, TableService
from tables.clicks import ANSWER_WINDOW, PendingClick
from tables.shards import ShardSet


class Refused(discord.HTTPException):
    """What Discord answers for a token it no longer takes."""

    def __init__(self) -> None:
        self.status, self.code, self.text = 401, 50027, "Invalid Webhook Token"


class Hooks:
    """Stands in for the interaction webhooks: records what is sent through each token."""

    def __init__(self, refuse: set[str]) -> None:
        self.sent: list[tuple[str, str, bool]] = []
        self.refuse = refuse

    def from_state(self, *, data: dict[str, Any], state: Any) -> Any:
        token = str(data["token"])
        assert data["type"] == 3, "an application webhook: only it may send ephemeral messages"
        hooks = self

        class Hook:
            async def send(self, content: str, *, ephemeral: bool = False) -> None:
                if token in hooks.refuse:
                    raise Refused()
                hooks.sent.append((token, content, ephemeral))

        return Hook()


async def test_every_owed_click_is_answered_while_its_token_is_good_then_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(tmp_path / "meeple.sqlite3")
    now = time.time()
    owed = [
        PendingClick(1, 9, "token-move", 4, True, now - 60),
        PendingClick(2, 9, "token-lobby", 5, False, now - 300),
        PendingClick(3, 9, "token-old", 4, True, now - ANSWER_WINDOW - 1),
        PendingClick(4, 9, "token-refused", 4, True, now - 10),
    ]
    for click in owed:
        await store.journal_click(click)
    hooks = Hooks(refuse={"token-refused"})
    monkeypatch.setattr(discord.Webhook, "from_state", hooks.from_state)
    client: Any = type("Client", (), {"_connection": object()})()
    try:
        found = await clicks.owed(store)
        assert [c.id for c in found] == [3, 2, 1, 4]
        caplog.set_level("DEBUG")
        assert await clicks.answer_owed(client, store, found) == 2
        assert await store.journalled_clicks() == [], "answered, expired and refused rows are all gone"
    finally:
        await store.close()
    assert sorted(hooks.sent) == [
        ("token-lobby", clicks.NOT_DONE, True),
        ("token-move", clicks.NOT_PLAYED, True),
    ]
    assert "token-" not in caplog.text, "a token was logged"


async def test_a_shard_process_answers_only_the_clicks_its_shards_received(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(tmp_path / "meeple.sqlite3")
    service = TableService(store, clock_loop=False, shards=ShardSet(2, frozenset({1})))
    now = time.time()
    on_0, on_1 = 4 << 22 | 5, 7 << 22 | 5
    for click in (
        PendingClick(1, 9, "token-shard-0", None, False, now - 5, on_0),
        PendingClick(2, 9, "token-shard-1", None, False, now - 5, on_1),
        PendingClick(3, 9, "token-direct", None, False, now - 5, None),
    ):
        await store.journal_click(click)
    hooks = Hooks(refuse=set())
    monkeypatch.setattr(discord.Webhook, "from_state", hooks.from_state)
    bot: Any = type("Bot", (), {"tables": service, "_connection": object(), "is_ready": lambda self: False})()
    upkeep = Upkeep(bot)
    try:
        await upkeep.cog_load()
        assert upkeep._answering is not None
        assert await upkeep._answering == 1
        # The other process's clicks (shard 0's, and a direct message's) are left to it.
        assert [c.id for c in await store.journalled_clicks()] == [1, 3]
    finally:
        await upkeep.cog_unload()
        await service.close()
    assert hooks.sent == [("token-shard-1", clicks.NOT_DONE, True)]
