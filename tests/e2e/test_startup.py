"""bot.py as a child process: settings errors, login, ready, command sync, clean shutdown."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

from tests.e2e.botprocess import BotProcess, child_env
from tests.e2e.conftest import World

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
