"""Fixtures: a fake Discord on 127.0.0.1 and the real bot.py as a child process against it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.botprocess import BotProcess, child_env
from tests.fakediscord import Channel, FakeDiscord


@dataclass
class World:
    """The fake and what it holds for a test: one server with one text channel."""

    fake: FakeDiscord
    guild_id: int
    channel: Channel
    db_path: Path


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """A running fake with a guild and a #games channel; fails the test on unknown routes."""
    fake = FakeDiscord()
    await fake.start()
    guild_id = fake.add_guild("Board gamers")
    channel = fake.add_text_channel(guild_id, "games")
    try:
        yield World(fake, guild_id, channel, tmp_path / "data" / "meeple.sqlite3")
    finally:
        await fake.close()
        print("== fake Discord transcript ==", fake.transcript(), sep="\n")
    assert fake.problems == [], f"the bot sent what Discord would refuse or not route: {fake.problems}"


@pytest.fixture
async def bot_process(world: World, tmp_path: Path) -> AsyncIterator[Callable[[], BotProcess]]:
    """A factory of bot.py children pointed at the fake; every child is killed at the end."""
    made: list[BotProcess] = []

    def make() -> BotProcess:
        env = child_env(
            DISCORD_TOKEN=world.fake.token,
            MEEPLE_DB=str(world.db_path),
            MEEPLE_LOG_LEVEL="INFO",
            MEEPLE_BOT_DELAY="0.05",
            MEEPLE_DISCORD_API_BASE=world.fake.api_base,
        )
        process = BotProcess(env, tmp_path, tmp_path / "bot.log")
        made.append(process)
        return process

    try:
        yield make
    finally:
        for process in made:
            await process.kill()
        if made:
            print("== bot.py output ==", made[0].output(), sep="\n")
