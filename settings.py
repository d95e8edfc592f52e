"""The bot's settings: read from the environment and an optional `.env` file."""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from yarl import URL

DEFAULT_DB = "data/meeple.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_BOT_DELAY = 1.5
MAX_BOT_DELAY = 60.0

TOKEN_HELP = """\
Meeple needs a Discord bot token to start.

  1. In the Discord Developer Portal, https://discord.com/developers/applications,
     create an application; on its "Bot" page press "Reset Token" and copy the token.
  2. Copy .env.example to .env and put the token after DISCORD_TOKEN=
     (or set the DISCORD_TOKEN environment variable).
  3. Invite the bot to your server from OAuth2 > URL Generator: scopes "bot" and
     "applications.commands"; permissions View Channels, Send Messages, Send Messages
     in Threads, Create Public Threads, Attach Files, Embed Links, Read Message History.
     No privileged intent is needed. Then start Meeple again."""


class SettingsError(ValueError):
    """A setting is missing or malformed; str() says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str
    db_path: Path
    log_level: str = "INFO"
    dev_guild: int | None = None
    """A guild whose command list is synced at once (development); None syncs globally."""
    bot_delay: float = DEFAULT_BOT_DELAY
    """Seconds a bot seat waits before it moves, so people can follow the game."""
    api_base: URL | None = None
    """Tests only: a loopback REST base such as http://127.0.0.1:8000/api/v10."""
    gateway: URL | None = None
    """Tests only: the loopback gateway URL; derived from api_base when not given."""

    @property
    def log_level_number(self) -> int:
        """The level as the logging module's number."""
        return logging.getLevelNamesMapping()[self.log_level]


def parse_env_file(text: str) -> dict[str, str]:
    """Parse `KEY=value` lines; blank lines and `#` comments are skipped, quotes stripped."""
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise SettingsError(f".env line {number}: expected KEY=value, got {raw.strip()!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            # An unquoted value may carry a trailing comment, as in shell.
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def load_settings(environ: Mapping[str, str] | None = None, env_file: Path | None = None) -> Settings:
    """Read the settings; the process environment wins over `.env` (default: ./.env)."""
    environ = os.environ if environ is None else environ
    env_file = Path(".env") if env_file is None else env_file
    values: dict[str, str] = {}
    if env_file.is_file():
        values.update(parse_env_file(env_file.read_text(encoding="utf-8")))
    values.update({k: v for k, v in environ.items() if k in _KEYS})

    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(TOKEN_HELP)
    log_level = (values.get("MEEPLE_LOG_LEVEL") or "INFO").strip().upper()
    if log_level not in LOG_LEVELS:
        raise SettingsError(f"MEEPLE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    guild_text = (values.get("MEEPLE_DEV_GUILD") or "").strip()
    if guild_text and not guild_text.isdigit():
        raise SettingsError(f"MEEPLE_DEV_GUILD must be a server id (digits), not {guild_text!r}")
    delay_text = (values.get("MEEPLE_BOT_DELAY") or "").strip()
    try:
        bot_delay = float(delay_text) if delay_text else DEFAULT_BOT_DELAY
    except ValueError:
        bot_delay = -1.0
    if not 0 <= bot_delay <= MAX_BOT_DELAY:
        raise SettingsError(
            f"MEEPLE_BOT_DELAY must be seconds from 0 to {MAX_BOT_DELAY:g}, not {delay_text!r}"
        )
    api_base = _loopback_url("MEEPLE_DISCORD_API_BASE", values.get("MEEPLE_DISCORD_API_BASE"))
    gateway = _loopback_url("MEEPLE_DISCORD_GATEWAY", values.get("MEEPLE_DISCORD_GATEWAY"))
    if gateway is not None and api_base is None:
        raise SettingsError("MEEPLE_DISCORD_GATEWAY is only used together with MEEPLE_DISCORD_API_BASE")
    if api_base is not None and gateway is None:
        gateway = api_base.with_scheme("wss" if api_base.scheme == "https" else "ws").with_path("/gateway")
    return Settings(
        token=token,
        db_path=Path((values.get("MEEPLE_DB") or DEFAULT_DB).strip()),
        log_level=log_level,
        dev_guild=int(guild_text) if guild_text else None,
        bot_delay=bot_delay,
        api_base=api_base,
        gateway=gateway,
    )


_KEYS = frozenset(
    {
        "DISCORD_TOKEN",
        "MEEPLE_DB",
        "MEEPLE_LOG_LEVEL",
        "MEEPLE_DEV_GUILD",
        "MEEPLE_BOT_DELAY",
        "MEEPLE_DISCORD_API_BASE",
        "MEEPLE_DISCORD_GATEWAY",
    }
)


def _loopback_url(name: str, text: str | None) -> URL | None:
    """Parse a test-only URL, refusing anything that is not a loopback IP address."""
    text = (text or "").strip()
    if not text:
        return None
    url = URL(text)
    if url.scheme not in ("http", "https", "ws", "wss"):
        raise SettingsError(f"{name} must be an http(s) or ws(s) URL, not {text!r}")
    try:
        # Only literal addresses: a host name could resolve anywhere.
        loopback = ipaddress.ip_address(url.host or "").is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SettingsError(f"{name} is for tests against a local fake only: use 127.0.0.1, not {url.host!r}")
    return url
