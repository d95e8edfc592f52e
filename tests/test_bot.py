"""bot.py in process, against the fake: cog discovery, intents, command sync only on change."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.gateway
import discord.http
import pytest

import bot as botmod
import logs
from settings import load_settings
from tables.shards import ShardSet
from tests.fakediscord import FakeDiscord


def test_discovers_modules_and_packages_that_define_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "somecogs"
    (package / "helpers").mkdir(parents=True)
    (package / "games").mkdir()
    (package / "__init__.py").write_text("")
    (package / "lobby.py").write_text("async def setup(bot):\n    pass\n")
    (package / "turns.py").write_text("import os\n\ndef setup(bot):\n    pass\n")
    (package / "layout.py").write_text("def build():\n    def setup():\n        pass\n")
    (package / "_private.py").write_text("async def setup(bot):\n    pass\n")
    (package / "helpers" / "__init__.py").write_text("async def setup(bot):\n    pass\n")
    (package / "games" / "tomatoes.py").write_text("async def setup(bot):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        found = botmod.discover_extensions("somecogs")
    finally:
        sys.modules.pop("somecogs", None)
    # layout.py has only a nested setup; games/ has no __init__.py; _private is private.
    assert found == ["somecogs.helpers", "somecogs.lobby", "somecogs.turns"]
    assert "somecogs.lobby" not in sys.modules, "discovery must not import the extensions"


def test_command_stamp_sits_beside_the_database() -> None:
    assert botmod.command_stamp_path(Path("data/meeple.sqlite3")) == Path("data/meeple.sqlite3.commands.json")


def test_a_database_reached_through_a_symlink_shares_its_command_stamp(tmp_path: Path) -> None:
    real = tmp_path / "store" / "meeple.sqlite3"
    real.parent.mkdir()
    real.touch()
    link = tmp_path / "meeple.sqlite3"
    link.symlink_to(real)
    assert (
        botmod.command_stamp_path(link)
        == botmod.command_stamp_path(real)
        == real.parent / (real.name + ".commands.json")
    )


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    # create_bot points discord.py's class-level URLs at the fake: restore them afterwards.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    server = FakeDiscord()
    await server.start()
    server.add_text_channel(server.add_guild())
    yield server
    await server.close()
    assert server.problems == []


async def start_bot(fake: FakeDiscord, db: Path) -> tuple[botmod.MeepleBot, asyncio.Task[None]]:
    settings = load_settings(
        {"DISCORD_TOKEN": fake.token, "MEEPLE_DB": str(db), "MEEPLE_DISCORD_API_BASE": fake.api_base},
        db.parent / "absent.env",
    )
    bot = botmod.create_bot(settings, guild_ready_timeout=0.05)
    await bot.login(settings.token)
    task = asyncio.create_task(bot.connect())
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    return bot, task


async def stop_bot(bot: botmod.MeepleBot, task: asyncio.Task[None]) -> None:
    await bot.close()
    await asyncio.wait_for(task, 10)


def put_commands(fake: FakeDiscord) -> list[object]:
    return [r.json for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_syncs_on_first_start_and_only_when_the_commands_change(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "meeple.sqlite3"
    bot, task = await start_bot(fake, db)
    try:
        assert bot.intents.value == discord.Intents(guilds=True).value
        assert bot.store is not None and bot.tables is not None
        first = put_commands(fake)
        assert len(first) == 1
        assert await bot.sync_commands() is False
        assert len(put_commands(fake)) == 1

        @bot.tree.command(name="ping-test", description="A command added after the first sync.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        assert await bot.sync_commands() is True
        assert "ping-test" in {c["name"] for c in put_commands(fake)[-1]}  # type: ignore[index]
        assert await bot.sync_commands() is False
    finally:
        await stop_bot(bot, task)
    assert bot.is_closed()


async def test_a_refused_sync_is_logged_and_retried_at_the_next_start(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "meeple.sqlite3"
    fake.fail("PUT", r"/commands$", status=403, code=50001)
    bot, task = await start_bot(fake, db)
    try:
        assert "could not sync the commands globally" in caplog.text
        assert not botmod.command_stamp_path(db).exists()
        assert await bot.sync_commands() is True
        assert botmod.command_stamp_path(db).exists()
    finally:
        await stop_bot(bot, task)


async def test_reconnects_after_the_gateway_drops_and_still_answers(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot, task = await start_bot(fake, tmp_path / "meeple.sqlite3")
    try:
        await fake.drop_gateway()
        # The resume is refused (INVALID_SESSION), so the bot identifies again from scratch
        # (discord.py spaces IDENTIFYs 5 s apart, hence the wait).
        await fake.wait_for(lambda: len(fake.identifies) == 2, 20, "a second IDENTIFY")
        channel = next(iter(fake.channels.values()))
        await fake.wait_answered(await fake.slash("play tomatoes", fake.add_user("Ann"), channel))
        await fake.wait_message(lambda m: m.channel_id == channel.id and "Join" in m.labels(), what="a lobby")
    finally:
        await stop_bot(bot, task)


TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GqXyZw.HideMeHideMeHideMeHideMeHideMeHideMeHi"


def test_the_log_formatter_hides_the_token_and_every_part_of_it_in_any_case() -> None:
    formatter = logs.SecretHidingFormatter("%(message)s", TOKEN)
    try:
        raise ValueError(f"bad header {TOKEN[30:60]}")
    except ValueError:
        record = logging.LogRecord(
            "aiohttp", logging.ERROR, __file__, 1, "%s and %s", (TOKEN, TOKEN[5:25].upper()), sys.exc_info()
        )
    line = formatter.format(record)
    assert line.startswith("[hidden] and [hidden]") and "ValueError: bad header [hidden]" in line
    assert not [
        TOKEN[i : i + 12] for i in range(len(TOKEN) - 11) if TOKEN[i : i + 12].lower() in line.lower()
    ]
    # Less than a piece, and text around it, stays; an İ (two characters in lower case) shifts nothing.
    assert (
        logs.hide_pieces(f"İ {TOKEN[:11]} İ {TOKEN[:12]}!", [TOKEN[:12].lower()])
        == f"İ {TOKEN[:11]} İ [hidden]!"
    )


def test_debug_lines_come_from_meeple_s_own_loggers_only() -> None:
    def record(name: str, level: int) -> logging.LogRecord:
        return logging.LogRecord(name, level, __file__, 1, "x", (), None)

    assert logs.own_debug_only(record("tables.store", logging.DEBUG))
    assert logs.own_debug_only(record("meeple", logging.DEBUG))
    assert not logs.own_debug_only(record("aiosqlite", logging.DEBUG))
    assert not logs.own_debug_only(record("discord.gateway", logging.DEBUG))
    assert logs.own_debug_only(record("discord.client", logging.INFO))


def test_a_start_up_error_is_logged_on_one_line() -> None:
    assert botmod.printable("the folder a\nb\tc of the database") == "the folder a\\nb\\tc of the database"


async def test_missing_board_fonts_stop_the_start_with_status_6_and_the_command_that_installs_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import renderers.text

    absent = renderers.text.FontFile("Noto Sans CJK KR", tmp_path / "NotoSansCJK-Regular.ttc", index=1)
    monkeypatch.setattr(renderers.text, "CJK_KR", absent)
    settings = load_settings(
        {"DISCORD_TOKEN": "abc", "MEEPLE_DB": str(tmp_path / "db.sqlite3")}, tmp_path / "absent.env"
    )
    with caplog.at_level(logging.ERROR, logger="meeple"):
        assert await botmod.run(settings) == botmod.EXIT_FONTS == 6
    (line,) = [r.getMessage() for r in caplog.records if r.name == "meeple"]
    assert "apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji" in line
    assert "NotoSansCJK-Regular.ttc" in line and "\n" not in line
    assert not (tmp_path / "db.sqlite3").exists()  # stopped before the database


async def test_a_sharded_process_identifies_its_shards_and_its_service_holds_them(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "meeple.sqlite3"
    settings = load_settings(
        {
            "DISCORD_TOKEN": fake.token,
            "MEEPLE_DB": str(db),
            "MEEPLE_DISCORD_API_BASE": fake.api_base,
            "MEEPLE_SHARD_COUNT": "4",
            "MEEPLE_SHARDS": "2",
        },
        tmp_path / "absent.env",
    )
    bot = botmod.create_bot(settings, guild_ready_timeout=0.05)
    assert isinstance(bot, discord.AutoShardedClient) and isinstance(bot, botmod.MeepleBot)
    await bot.login(settings.token)
    task = asyncio.create_task(bot.connect())
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert [i.get("shard") for i in fake.identifies] == [[2, 4]]
        assert bot.tables.shards == ShardSet(4, frozenset({2}))
    finally:
        await stop_bot(bot, task)


async def test_an_unsharded_process_is_a_plain_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    bot, task = await start_bot(fake, tmp_path / "meeple.sqlite3")
    try:
        assert not isinstance(bot, discord.AutoShardedClient)
        assert bot.tables.shards is None
        assert [i.get("shard") for i in fake.identifies] in ([None], [[0, 1]])
    finally:
        await stop_bot(bot, task)
