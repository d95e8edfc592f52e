"""A simulated Discord (simcord) around the real MeepleBot, with a database file per test."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import types
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

import bot as botmod
import tables.service
from cogs.platform import presenter
from settings import Settings
from tables import TableService

GAME_SEED = 20261121
"""The seed of the first game a test starts (the next games count up from it)."""


def make_bot(db: Path) -> botmod.MeepleBot:
    """A real MeepleBot on `db` (command sync stamps live beside it)."""
    return botmod.create_bot(Settings(token="simcord", db_path=db, bot_delay=0.0))


class Harness:
    """The simulated world: a guild, a text channel, three players and a spectator."""

    def __init__(self, env: simcord.Env, db: Path) -> None:
        self.env = env
        self.db = db
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.carol = self.guild.add_member(env.create_user("carol"))
        self.watcher = self.guild.add_member(env.create_user("watcher"))

    @property
    def bot(self) -> botmod.MeepleBot:
        """The bot now attached."""
        bot: botmod.MeepleBot = self.env.bot  # type: ignore[assignment]
        return bot

    async def idle(self) -> None:
        """Let bot seats play and every update reach Discord."""
        await self.bot.tables.idle()
        await self.env.settle()

    async def restart(self) -> None:
        """Stop this bot (service and store) and attach a brand-new one on the same database file."""
        old = self.bot
        await self.env.settle()
        await old.tables.close()
        await self.env.restart_bot(make_bot(self.db))
        await self.env.settle()

    def thread(self) -> Any:
        """The only game thread of the channel."""
        threads = self.channel.threads
        assert len(threads) == 1, threads
        return threads[0]

    def board(self) -> discord.Message:
        """The latest message of the game thread."""
        message = self.thread().last_message
        assert message is not None
        return message


async def _no_clock_loop(self: TableService) -> None:
    """Tests fire clocks with run_due: simcord cannot settle while the loop waits on its stop event."""


def _declared_deliver(env: simcord.Env) -> Any:
    """TableService._deliver with its idle wait declared to simcord (else settling never ends)."""

    async def _deliver(self: TableService, queue: asyncio.Queue[Any]) -> None:
        while True:
            item = await env.external_wait(queue.get(), reason="table service update queue")
            try:
                for listener in list(self._listeners):
                    try:
                        await listener(item)
                    except Exception:
                        logging.getLogger("tables").exception("table listener failed")
            finally:
                queue.task_done()

    return _deliver


@contextlib.asynccontextmanager
async def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """A running simulated Discord with the Meeple bot logged in; bots move without delay."""
    monkeypatch.setattr(TableService, "_clock_loop", _no_clock_loop)
    # Reproducible games: the service draws each game's seed from `secrets`.
    seeds = itertools.count(GAME_SEED)
    monkeypatch.setattr(tables.service, "secrets", types.SimpleNamespace(randbits=lambda bits: next(seeds)))
    db = tmp_path / "meeple.sqlite3"
    env = simcord.Env(make_bot(db), settle_timeout=30.0)
    monkeypatch.setattr(TableService, "_deliver", _declared_deliver(env))
    await env.start()
    harness = Harness(env, db)
    try:
        yield harness
    finally:
        bot = harness.bot
        try:
            await env.shutdown()
        finally:
            await bot.close()


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The simulated world, boards posted without images (drawing is tested where it matters)."""
    monkeypatch.setattr(presenter, "render_board", lambda table, seat=None: None)
    async with running(tmp_path, monkeypatch) as harness:
        yield harness


@pytest.fixture
async def drawn_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The simulated world with the real board renderer."""
    async with running(tmp_path, monkeypatch) as harness:
        yield harness
