"""bot.py as a child process: settings errors, login, ready, command sync, clean shutdown."""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

import bot as botmod
from tests.e2e.botprocess import BotProcess, child_env
from tests.e2e.conftest import World
from tests.e2e.players import play_move, private_answer

GUILDS_INTENT = 1


async def test_without_a_token_exits_2_and_says_where_to_get_one(tmp_path: Path) -> None:
    process = BotProcess(child_env(), tmp_path, tmp_path / "bot.log")
    await process.start()
    assert await process.wait_exit() == 2
    out = process.output()
    assert "discord.com/developers" in out
    assert ".env" in out and "DISCORD_TOKEN" in out
    assert "Traceback" not in out


async def test_reads_the_token_from_dotenv_in_the_working_directory(tmp_path: Path) -> None:
    # A token from .env gets past the token check; the non-loopback API base is refused next,
    # so nothing leaves the machine.
    (tmp_path / ".env").write_text(
        "# settings\nDISCORD_TOKEN='abc'\nMEEPLE_DISCORD_API_BASE=http://discord.example/api/v10\n"
    )
    process = BotProcess(child_env(), tmp_path, tmp_path / "bot.log")
    await process.start()
    assert await process.wait_exit() == 2
    out = process.output()
    assert "MEEPLE_DISCORD_API_BASE" in out and "127.0.0.1" in out
    assert "discord.com/developers" not in out


async def test_logs_in_syncs_once_and_stops_cleanly_on_sigterm(
    world: World, bot_process: Callable[[], BotProcess]
) -> None:
    fake = world.fake
    first = bot_process()
    await first.start()
    identify = await fake.wait_connected()
    assert identify["token"] == fake.token
    # Only the guilds intent: no privileged intent (members, presences, message content).
    assert identify["intents"] == GUILDS_INTENT
    await first.wait_output("ready as")
    syncs = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1 and syncs[0].status == 200
    assert {c["name"] for c in syncs[0].json} == {name for _, name in fake.commands}
    assert world.db_path.exists()

    assert await first.terminate() == 0
    out = first.output()
    assert "shutting down" in out and "stopped" in out
    assert "Traceback" not in out and "ERROR" not in out

    # Same database, same commands: the second start does not sync again.
    second = bot_process()
    mark = len(second.output())
    await second.start()
    await fake.wait_connected()
    await second.wait_output("ready as", after=mark)
    assert "commands unchanged" in second.output()[mark:]
    assert len([r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]) == 1
    # Ctrl-C stops it as cleanly as SIGTERM.
    assert await second.terminate(sig=signal.SIGINT) == 0
    assert "stopped" in second.output()[mark:]
    assert "Traceback" not in second.output()


async def test_a_refused_token_exits_3_with_a_short_message(world: World, tmp_path: Path) -> None:
    env = child_env(DISCORD_TOKEN="not-the-token", MEEPLE_DB=str(world.db_path))
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    try:
        assert await process.wait_exit() == botmod.EXIT_TOKEN_REFUSED == 3
    finally:
        await process.kill()
    out = process.output()
    assert "refused the token" in out and "not-the-token" not in out and "Traceback" not in out
    assert world.fake.identifies == []


async def test_a_folder_as_the_database_path_exits_11_naming_it(world: World, tmp_path: Path) -> None:
    # A directory where the database file should be: SQLite cannot open it.
    taken = tmp_path / "taken.sqlite3"
    taken.mkdir()
    env = child_env(DISCORD_TOKEN=world.fake.token, MEEPLE_DB=str(taken))
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    try:
        assert await process.wait_exit() == 11
    finally:
        await process.kill()
    out = process.output()
    assert "is a folder" in out and str(taken) in out and "MEEPLE_DB" in out
    assert world.fake.requests == [], "the database is checked before Discord is contacted"
    assert "Traceback" not in out


async def test_an_unreachable_discord_exits_4_without_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = child_env(DISCORD_TOKEN="t", MEEPLE_DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10")
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    assert await process.wait_exit() == botmod.EXIT_DISCORD_UNREACHABLE == 4
    out = process.output()
    assert "cannot reach Discord" in out and "Traceback" not in out
    # Nothing about voice: Meeple has none.
    assert "voice" not in out


async def test_the_token_is_never_printed_at_debug(world: World, tmp_path: Path) -> None:
    token = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GqXyZw.DebugSecretDebugSecretDebugSecretDebugSecr"
    world.fake.token = token
    env = child_env(DISCORD_TOKEN=token, MEEPLE_DB=str(world.db_path), MEEPLE_LOG_LEVEL="DEBUG")
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    try:
        await process.wait_output("ready as")
        await world.fake.wait_answered(
            await world.fake.slash("play tomatoes", world.fake.add_user("Ann"), world.channel)
        )
        assert await process.terminate() == 0
    finally:
        await process.kill()
    out = process.output()
    assert "DEBUG" in out
    for secret in (token, token.split(".")[-1]):
        assert secret not in out


async def test_a_game_at_debug_logs_no_player_data_nor_any_part_of_the_token(
    world: World, tmp_path: Path
) -> None:
    """DEBUG holds Meeple's own lines: no statement with its parameters, no payload, no name, no text."""
    token = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GqXyZw.DebugSecretDebugSecretDebugSecretDebugSecr"
    fake, channel = world.fake, world.channel
    fake.token = token
    player = fake.add_user("Quillonia Vexbright")
    env = child_env(
        DISCORD_TOKEN=token, MEEPLE_DB=str(world.db_path), MEEPLE_LOG_LEVEL="DEBUG", MEEPLE_BOT_DELAY="0.05"
    )
    env["MEEPLE_DISCORD_API_BASE"] = fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    try:
        await process.wait_output("ready as")
        # What a player types goes into the database: a statement's parameters.
        typed = {"time_zone": "Pacific/Chatham", "quiet_hours": "21:17-06:43"}
        await fake.wait_answered(await fake.slash("settings", player, channel, typed))
        await fake.wait_answered(await fake.slash("play tomatoes", player, channel))
        lobby = await fake.wait_message(
            lambda m: m.channel_id == channel.id and "Join" in m.labels(), what="a lobby"
        )
        add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
        await fake.wait_answered(await fake.select(lobby, add_bot, ["normal"], player))
        await fake.wait_answered(await fake.click_label(lobby, "Start", player))
        thread = (await fake.wait_for(lambda: fake.threads_of(channel.id), 10, "the game thread"))[0]
        version = -1
        for _ in range(3):
            version, _ = await play_move(fake, thread.id, player, version)
        assert await process.terminate() == 0
    finally:
        await process.kill()
    out = process.output()
    assert "DEBUG" in out and "Traceback" not in out
    assert "Quillonia" not in out and "Vexbright" not in out
    assert "Chatham" not in out and "21:17" not in out
    # No SQL with its parameters (aiosqlite), no payload sent or received (discord.py).
    assert "executing" not in out and "INSERT" not in out and "WebSocket Event" not in out
    said = {line for m in fake.messages.values() for line in m.text().splitlines() if len(line) >= 12}
    assert said and not [line for line in said if line in out]
    assert not [token[i : i + 20] for i in range(len(token) - 19) if token[i : i + 20] in out]


@pytest.mark.parametrize("where", ["MEEPLE_DB", "MEEPLE_DISCORD_API_BASE"])
async def test_a_part_of_the_token_in_another_setting_is_never_printed(
    world: World, tmp_path: Path, where: str
) -> None:
    """A token pasted half into MEEPLE_DB (or an address) is refused by name, exit 2, none of it shown."""
    token = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GqXyZw.PartSecretPartSecretPartSecretPartSecretPa"
    env = child_env(DISCORD_TOKEN=token, MEEPLE_DB=str(world.db_path), MEEPLE_LOG_LEVEL="DEBUG")
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    # Each piece alone: its id part, a middle with the dots, its secret part.
    for piece in (token[:27], token[10:50], token[-30:]):
        if where == "MEEPLE_DB":
            env["MEEPLE_DB"] = str(tmp_path / "missing" / "deeper" / f"{piece}.sqlite3")
        else:
            env["MEEPLE_DISCORD_API_BASE"] = f"{world.fake.api_base}/{piece}"
        process = BotProcess(env, tmp_path, tmp_path / "bot.log")
        mark = len(process.output())
        await process.start()
        assert await process.wait_exit() == botmod.EXIT_SETTINGS == 2, process.output()[mark:]
        out = process.output()[mark:].replace("--- start ---", "").strip()
        assert len(out.splitlines()) == 1 and where in out and "Traceback" not in out, out
        assert not [token[i : i + 20] for i in range(len(token) - 19) if token[i : i + 20] in out]
    assert world.fake.requests == []


@pytest.mark.parametrize("token", ["abc\x01def", "abc\x7fdef", "abc\tdef", "Bot abcdef", "tökén"])
async def test_a_token_with_a_character_no_token_has_exits_2_naming_it(
    world: World, tmp_path: Path, token: str
) -> None:
    env = child_env(DISCORD_TOKEN=token, MEEPLE_DB=str(world.db_path))
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    assert await process.wait_exit() == botmod.EXIT_SETTINGS == 2
    out = process.output().replace("--- start ---", "").strip()
    assert len(out.splitlines()) == 1 and "DISCORD_TOKEN" in out and "Traceback" not in out, out
    assert token not in out
    assert world.fake.requests == []


async def test_a_discord_error_at_login_exits_5_in_one_line(world: World, tmp_path: Path) -> None:
    world.fake.fail("GET", r"/users/@me$", status=403, code=40002)
    env = child_env(DISCORD_TOKEN=world.fake.token, MEEPLE_DB=str(world.db_path))
    env["MEEPLE_DISCORD_API_BASE"] = world.fake.api_base
    process = BotProcess(env, tmp_path, tmp_path / "bot.log")
    await process.start()
    try:
        assert await process.wait_exit() == botmod.EXIT_DISCORD_FAILED == 5
    finally:
        await process.kill()
    out = process.output()
    assert "Discord failed while the bot was starting" in out and "403" in out
    assert "Traceback" not in out


async def test_a_command_the_bot_no_longer_has_gets_a_private_answer(
    world: World, bot_process: Callable[[], BotProcess]
) -> None:
    """A client with an old command list (no error handler: no answer at all, "interaction failed")."""
    fake, channel = world.fake, world.channel
    alice = fake.add_user("Alice")
    bot = bot_process()
    await bot.start()
    await bot.wait_output("ready as")
    answer = await private_answer(fake, await fake.stale_slash("tournament", alice, channel))
    assert "old list" in answer
