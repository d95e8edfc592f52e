"""Settings: the .env parser, defaults, validation and the loopback-only API override."""

from __future__ import annotations

from pathlib import Path

import pytest
from yarl import URL

from settings import DEFAULT_DB, SettingsError, load_settings, parse_env_file


def test_env_file_syntax() -> None:
    text = """
# a comment
DISCORD_TOKEN = "tok en"
export MEEPLE_LOG_LEVEL=debug
MEEPLE_DB=games.sqlite3  # trailing comment
MEEPLE_DEV_GUILD='123'
EMPTY=
"""
    assert parse_env_file(text) == {
        "DISCORD_TOKEN": "tok en",
        "MEEPLE_LOG_LEVEL": "debug",
        "MEEPLE_DB": "games.sqlite3",
        "MEEPLE_DEV_GUILD": "123",
        "EMPTY": "",
    }


def test_env_file_line_without_equals_is_refused_with_its_line_number() -> None:
    with pytest.raises(SettingsError, match="line 2"):
        parse_env_file("A=1\nnot a setting\n")


def test_defaults_and_environment_over_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nMEEPLE_LOG_LEVEL=debug\n")
    settings = load_settings({"DISCORD_TOKEN": "from-env", "UNRELATED": "x"}, env_file)
    assert settings.token == "from-env"
    assert settings.log_level == "DEBUG"
    assert settings.db_path == Path(DEFAULT_DB)
    assert settings.dev_guild is None and settings.api_base is None
    assert settings.bot_delay == 1.5
    assert load_settings({"DISCORD_TOKEN": "t", "MEEPLE_BOT_DELAY": "0.25"}, env_file).bot_delay == 0.25


def test_missing_token_explains_where_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings({"DISCORD_TOKEN": "  "}, tmp_path / "absent.env")
    assert "discord.com/developers" in str(info.value) and ".env" in str(info.value)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("MEEPLE_LOG_LEVEL", "LOUD", "MEEPLE_LOG_LEVEL"),
        ("MEEPLE_DEV_GUILD", "my server", "MEEPLE_DEV_GUILD"),
        ("MEEPLE_BOT_DELAY", "soon", "MEEPLE_BOT_DELAY"),
        ("MEEPLE_BOT_DELAY", "-1", "MEEPLE_BOT_DELAY"),
        ("MEEPLE_BOT_DELAY", "nan", "MEEPLE_BOT_DELAY"),
        ("MEEPLE_DISCORD_API_BASE", "https://discord.com/api/v10", "127.0.0.1"),
        ("MEEPLE_DISCORD_API_BASE", "http://localhost:80/api/v10", "127.0.0.1"),
        ("MEEPLE_DISCORD_API_BASE", "http://10.0.0.1:80/api/v10", "127.0.0.1"),
        ("MEEPLE_DISCORD_API_BASE", "ftp://127.0.0.1/api", "http"),
        ("MEEPLE_DISCORD_GATEWAY", "ws://127.0.0.1:1/gateway", "together"),
    ],
)
def test_malformed_settings_are_refused(tmp_path: Path, key: str, value: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings({"DISCORD_TOKEN": "t", key: value}, tmp_path / "absent.env")


def test_loopback_api_base_derives_the_gateway(tmp_path: Path) -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "MEEPLE_DISCORD_API_BASE": "http://127.0.0.1:8123/api/v10",
            "MEEPLE_DEV_GUILD": "42",
        },
        tmp_path / "absent.env",
    )
    assert settings.api_base == URL("http://127.0.0.1:8123/api/v10")
    assert settings.gateway == URL("ws://127.0.0.1:8123/gateway")
    assert settings.dev_guild == 42
    ipv6 = load_settings(
        {"DISCORD_TOKEN": "t", "MEEPLE_DISCORD_API_BASE": "http://[::1]:9/api/v10"}, tmp_path / "x"
    )
    assert ipv6.gateway == URL("ws://[::1]:9/gateway")
