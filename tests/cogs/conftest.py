"""A simulated Discord (simcord) around the real MeepleBot, with a database file per test."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

import bot as botmod
from cogs.platform import board as board_module
from cogs.platform import drawing
from settings import Settings

GAME_SEED = 20261121
"""The seed of the first game a test starts (the next games count up from it)."""


class SimcordBot(botmod.MeepleBot):
    """The real MeepleBot, its table service set for simcord before it starts.

    Clocks fire only when a test calls run_due (with a fake time), and the delivery task's
    wait for the next update is declared to simcord as intended, so settling can finish.
    """

    def __init__(self, settings: Settings, env: Callable[[], simcord.Env], seeds: Callable[[], int]) -> None:
        super().__init__(settings)
        self._env = env
        self._seeds = seeds

    async def setup_hook(self) -> None:
        """Set up as the real bot does, then set the table service for the simulation."""
        await super().setup_hook()
        env = self._env()
        self.tables.clock_loop = False
        self.tables.idle_wait = lambda awaitable, reason: env.external_wait(awaitable, reason=reason)
        self.tables.new_seed = self._seeds


def make_bot(db: Path, env: Callable[[], simcord.Env], seeds: Callable[[], int]) -> botmod.MeepleBot:
    """A real MeepleBot on `db` (command sync stamps live beside it), attached to `env` later;
    its games take their seeds from `seeds`."""
    return SimcordBot(Settings(token="simcord", db_path=db, bot_delay=0.0), env, seeds)


class Harness:
    """The simulated world: a guild, a text channel, three players and a spectator."""

    def __init__(self, env: simcord.Env, db: Path, seeds: Callable[[], int]) -> None:
        self.env = env
        self.db = db
        self.seeds = seeds
        """Game seeds, one per started game, counting on across restarts."""
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
        await self.env.restart_bot(make_bot(self.db, lambda: self.env, self.seeds))
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


@contextlib.asynccontextmanager
async def running(tmp_path: Path) -> AsyncIterator[Harness]:
    """A running simulated Discord with the Meeple bot logged in; bots move without delay."""
    # Reproducible games: GAME_SEED, then counting up.
    seeds = itertools.count(GAME_SEED).__next__
    db = tmp_path / "meeple.sqlite3"
    env = simcord.Env(make_bot(db, lambda: env, seeds), settle_timeout=30.0)
    await env.start()
    harness = Harness(env, db, seeds)
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
    monkeypatch.setattr(board_module, "board_job", lambda table, seat=None: None)
    # No worker processes for boards without images; a test's fake jobs are drawn in a thread.
    monkeypatch.setattr(drawing.DrawingPool, "workers", 0)
    async with running(tmp_path) as harness:
        yield harness


@pytest.fixture
async def drawn_world(tmp_path: Path) -> AsyncIterator[Harness]:
    """The simulated world with the real board renderer."""
    async with running(tmp_path) as harness:
        yield harness
