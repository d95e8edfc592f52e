"""Settings: the .env parser, defaults, validation and the loopback-only API override."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from yarl import URL

from settings import DEFAULT_DB, Settings, SettingsError, load_settings, parse_env_file
from tests.e2e.botprocess import ROOT, child_env

# Shaped like a real bot token (base64 user id, timestamp, HMAC); it opens nothing.
TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0MzI.GqXyZw.Secr3tSecr3tSecr3tSecr3tSecr3tSecr3tAB"


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


def test_env_file_line_without_equals_is_refused_with_its_line_number_not_its_text() -> None:
    with pytest.raises(SettingsError, match="line 2") as info:
        parse_env_file(f"A=1\n{TOKEN}\n")
    assert TOKEN not in str(info.value)


def test_the_token_is_not_in_the_settings_repr(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, tmp_path / "absent.env")
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert isinstance(settings, Settings) and settings.token == TOKEN


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
def test_malformed_settings_are_refused_naming_the_variable_not_the_value(
    tmp_path: Path, key: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError, match=message) as info:
        load_settings({"DISCORD_TOKEN": "t", key: value}, tmp_path / "absent.env")
    assert key in str(info.value)
    assert value not in str(info.value)


@pytest.mark.parametrize(
    "key",
    ["MEEPLE_DB", "MEEPLE_LOG_LEVEL", "MEEPLE_DEV_GUILD", "MEEPLE_BOT_DELAY", "MEEPLE_DISCORD_API_BASE"],
)
def test_the_token_in_the_wrong_variable_is_refused_without_showing_it(tmp_path: Path, key: str) -> None:
    for token in (TOKEN, ""):
        with pytest.raises(SettingsError, match=key) as info:
            load_settings({"DISCORD_TOKEN": token, key: TOKEN}, tmp_path / "absent.env")
        assert "DISCORD_TOKEN" in str(info.value) and TOKEN not in str(info.value)
    other = "an-unusually-long-token-without-dots-0123456789"
    with pytest.raises(SettingsError, match=key):
        load_settings({"DISCORD_TOKEN": other, key: f"x{other}"}, tmp_path / "absent.env")


def test_a_long_dotted_file_name_is_not_taken_for_a_token(tmp_path: Path) -> None:
    name = "meeple_production_games.sqlite3.backup_2026_11_23_copy"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "MEEPLE_DB": name}, tmp_path / "absent.env")
    assert settings.db_path == Path(name)


def test_an_unreadable_env_file_is_a_settings_error(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_bytes(b"DISCORD_TOKEN=" + TOKEN.encode() + b"\xff\xfe\n")
    with pytest.raises(SettingsError, match="UTF-8") as info:
        load_settings({}, env_file)
    assert TOKEN not in str(info.value)


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


# Every way the settings can be wrong, as (.env text, environment): bot.py must exit 2 with
# one line naming the problem, and print the token nowhere, even at DEBUG.
SETTINGS_ERRORS = {
    "token alone on a .env line": (f"MEEPLE_LOG_LEVEL=DEBUG\n{TOKEN}\n", {}),
    "colon instead of equals": (f"DISCORD_TOKEN: {TOKEN}\n", {"MEEPLE_LOG_LEVEL": "DEBUG"}),
    "key with a space": (f"DISCORD TOKEN={TOKEN}\n", {"MEEPLE_LOG_LEVEL": "DEBUG"}),
    "not UTF-8": (f"DISCORD_TOKEN={TOKEN}\udcff\n", {"MEEPLE_LOG_LEVEL": "DEBUG"}),
    "token in MEEPLE_DB": (f"DISCORD_TOKEN={TOKEN}\n", {"MEEPLE_DB": TOKEN, "MEEPLE_LOG_LEVEL": "DEBUG"}),
    "token in MEEPLE_DEV_GUILD": (
        "MEEPLE_LOG_LEVEL=DEBUG\n",
        {"DISCORD_TOKEN": "", "MEEPLE_DEV_GUILD": TOKEN},
    ),
    "token in MEEPLE_BOT_DELAY": (f"MEEPLE_BOT_DELAY={TOKEN}\nMEEPLE_LOG_LEVEL=DEBUG\n", {}),
    "token in MEEPLE_LOG_LEVEL": (f"DISCORD_TOKEN={TOKEN}\nMEEPLE_LOG_LEVEL={TOKEN}\n", {}),
    "token in the API base": (
        f"DISCORD_TOKEN={TOKEN}\n",
        {"MEEPLE_DISCORD_API_BASE": f"http://127.0.0.1:1/{TOKEN}", "MEEPLE_LOG_LEVEL": "DEBUG"},
    ),
    "token as the API host": (
        f"DISCORD_TOKEN={TOKEN}\n",
        {"MEEPLE_DISCORD_API_BASE": f"http://{TOKEN.lower()}/api", "MEEPLE_LOG_LEVEL": "DEBUG"},
    ),
    "bad guild id at DEBUG": (
        f"DISCORD_TOKEN={TOKEN}\nMEEPLE_LOG_LEVEL=DEBUG\nMEEPLE_DEV_GUILD=my server\n",
        {},
    ),
    "bad bot delay": (f"DISCORD_TOKEN='{TOKEN}'\nMEEPLE_LOG_LEVEL=DEBUG\nMEEPLE_BOT_DELAY=-3\n", {}),
    "gateway without API base": (
        f"DISCORD_TOKEN={TOKEN}\nMEEPLE_LOG_LEVEL=DEBUG\nMEEPLE_DISCORD_GATEWAY=ws://127.0.0.1:1/gateway\n",
        {},
    ),
}


@pytest.mark.parametrize("case", sorted(SETTINGS_ERRORS))
def test_bot_py_never_prints_the_token_for_a_settings_error(tmp_path: Path, case: str) -> None:
    dotenv, environ = SETTINGS_ERRORS[case]
    # surrogateescape turns the lone surrogate of the "not UTF-8" case into the byte 0xff.
    (tmp_path / ".env").write_bytes(dotenv.encode("utf-8", "surrogateescape"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=child_env(**environ),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    assert done.returncode == 2, err
    assert out == ""
    for secret in (TOKEN, TOKEN.lower(), TOKEN.split(".")[-1]):
        assert secret not in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert ".env line" in err or "MEEPLE_" in err or "UTF-8" in err


@pytest.mark.parametrize(
    "key",
    ["MEEPLE_DB", "MEEPLE_LOG_LEVEL", "MEEPLE_DEV_GUILD", "MEEPLE_BOT_DELAY", "MEEPLE_DISCORD_API_BASE"],
)
@pytest.mark.parametrize("piece", [TOKEN[:12], TOKEN[20:40].lower(), TOKEN[-12:]])
def test_a_part_of_the_token_in_another_variable_is_refused_without_showing_it(
    tmp_path: Path, key: str, piece: str
) -> None:
    with pytest.raises(SettingsError, match=key) as info:
        load_settings({"DISCORD_TOKEN": TOKEN, key: f"data/{piece}.sqlite3"}, tmp_path / "absent.env")
    assert "part of it" in str(info.value)
    assert not any(TOKEN[i : i + 8] in str(info.value) for i in range(len(TOKEN) - 7))


def test_a_token_s_first_part_alone_is_refused_even_beside_another_token(tmp_path: Path) -> None:
    # The id part of some other bot's token: a user id in base64, whatever DISCORD_TOKEN holds.
    with pytest.raises(SettingsError, match="MEEPLE_DB"):
        load_settings({"DISCORD_TOKEN": "t", "MEEPLE_DB": f"data/{TOKEN.split('.')[0]}"}, tmp_path / "x")


def test_a_path_sharing_a_few_characters_with_the_token_is_kept(tmp_path: Path) -> None:
    name = f"data/{TOKEN[:11]}/meeple-production-database-2026.sqlite3"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "MEEPLE_DB": name}, tmp_path / "absent.env")
    assert settings.db_path == Path(name)


@pytest.mark.parametrize("token", ["abc\x01def", "abc\x7fdef", "abc def", "tökén", "Bot abcdef", "a\u200bb"])
def test_a_token_with_a_character_no_token_has_is_refused_without_showing_it(
    tmp_path: Path, token: str
) -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN") as info:
        load_settings({"DISCORD_TOKEN": token}, tmp_path / "absent.env")
    assert token not in str(info.value) and "\n" not in str(info.value)


def test_a_setting_with_a_control_character_is_refused_naming_it(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=t\nMEEPLE_DB=data/mee\x00ple.sqlite3\n")
    with pytest.raises(SettingsError, match="MEEPLE_DB") as info:
        load_settings({}, env_file)
    assert "mee" not in str(info.value)


def test_a_postgresql_url_in_meeple_db_chooses_postgresql_and_keeps_its_password_out_of_repr(
    tmp_path: Path,
) -> None:
    url = "postgresql://meeple:s3cret-pw@127.0.0.1:5432/meeple"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "MEEPLE_DB": url}, tmp_path / "absent.env")
    assert settings.db_url == url and settings.database == url
    assert "s3cret-pw" not in repr(settings)
    sqlite = load_settings({"DISCORD_TOKEN": TOKEN, "MEEPLE_DB": "games/x.db"}, tmp_path / "absent.env")
    assert sqlite.db_url is None and sqlite.database == "games/x.db" and sqlite.db_path == Path("games/x.db")


def test_shards_are_read_from_the_count_and_the_list(tmp_path: Path) -> None:
    absent = tmp_path / "absent.env"
    plain = load_settings({"DISCORD_TOKEN": "t"}, absent)
    assert plain.shard_count is None and plain.shard_ids is None
    every = load_settings({"DISCORD_TOKEN": "t", "MEEPLE_SHARD_COUNT": "4"}, absent)
    assert every.shard_count == 4 and every.shard_ids is None
    some = load_settings({"DISCORD_TOKEN": "t", "MEEPLE_SHARD_COUNT": "8", "MEEPLE_SHARDS": "0-3"}, absent)
    assert some.shard_count == 8 and some.shard_ids == frozenset({0, 1, 2, 3})


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"MEEPLE_SHARDS": "0-3"}, "MEEPLE_SHARDS needs MEEPLE_SHARD_COUNT"),
        ({"MEEPLE_SHARD_COUNT": "0"}, "MEEPLE_SHARD_COUNT must be a whole number"),
        ({"MEEPLE_SHARD_COUNT": "two"}, "MEEPLE_SHARD_COUNT must be a whole number"),
        ({"MEEPLE_SHARD_COUNT": "4", "MEEPLE_SHARDS": "2-5"}, "not below the shard count 4"),
        ({"MEEPLE_SHARD_COUNT": "4", "MEEPLE_SHARDS": "3-1"}, "runs backwards"),
    ],
)
def test_malformed_shards_are_refused(tmp_path: Path, values: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings({"DISCORD_TOKEN": "t", **values}, tmp_path / "absent.env")
