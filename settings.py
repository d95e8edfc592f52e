"""The bot's settings: read from the environment and an optional `.env` file."""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import logging
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from yarl import URL

from tables.shards import parse_shard_ids

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


# A Discord bot token: three dot-separated base64url parts (the bot's user id, a time, an HMAC).
_TOKEN_SHAPE = re.compile(r"([A-Za-z0-9_-]{16,})\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


class SettingsError(ValueError):
    """A setting is missing or malformed; str() says which and how to fix it, never its value."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str = field(repr=False)
    db_path: Path
    """The SQLite file; with a PostgreSQL database, only where the synced command list is stamped."""
    log_level: str = "INFO"
    dev_guild: int | None = None
    """A guild whose command list is synced at once (development); None syncs globally."""
    bot_delay: float = DEFAULT_BOT_DELAY
    """Seconds a bot seat waits before it moves, so people can follow the game."""
    api_base: URL | None = None
    """Tests only: a loopback REST base such as http://127.0.0.1:8000/api/v10."""
    gateway: URL | None = None
    """Tests only: the loopback gateway URL; derived from api_base when not given."""
    clock_file: Path | None = None
    """Tests only: a file holding seconds added to the clock (MEEPLE_CLOCK_FILE; a simulated week)."""
    shard_count: int | None = None
    """MEEPLE_SHARD_COUNT: run discord.py's AutoShardedBot on that many shards (None: one plain session)."""
    shard_ids: frozenset[int] | None = None
    """MEEPLE_SHARDS: the shards this process runs (None with a shard count: all of them)."""

    db_url: str | None = field(default=None, repr=False)
    """MEEPLE_DB as a postgresql:// URL (it may hold a password): the games live in PostgreSQL."""

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL, else the SQLite file."""
        return self.db_url if self.db_url is not None else str(self.db_path)

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
            # The line is not echoed: a token pasted on a line of its own would be printed.
            raise SettingsError(f".env line {number} is not of the form KEY=value (the line is not shown)")
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
        values.update(parse_env_file(_read_env_file(env_file)))
    values.update({k: v for k, v in environ.items() if k in _KEYS})

    token = values.get("DISCORD_TOKEN", "").strip()
    _refuse_misplaced_token(values, token)
    if not token:
        raise SettingsError(TOKEN_HELP)
    _refuse_malformed_token(token)
    _refuse_control_characters(values)
    log_level = (values.get("MEEPLE_LOG_LEVEL") or "INFO").strip().upper()
    if log_level not in LOG_LEVELS:
        raise SettingsError(f"MEEPLE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    guild_text = (values.get("MEEPLE_DEV_GUILD") or "").strip()
    if guild_text and not guild_text.isdigit():
        raise SettingsError("MEEPLE_DEV_GUILD must be a server id (digits only)")
    delay_text = (values.get("MEEPLE_BOT_DELAY") or "").strip()
    try:
        bot_delay = float(delay_text) if delay_text else DEFAULT_BOT_DELAY
    except ValueError:
        bot_delay = -1.0
    if not 0 <= bot_delay <= MAX_BOT_DELAY:
        raise SettingsError(f"MEEPLE_BOT_DELAY must be a number of seconds from 0 to {MAX_BOT_DELAY:g}")
    api_base = _loopback_url("MEEPLE_DISCORD_API_BASE", values.get("MEEPLE_DISCORD_API_BASE"))
    gateway = _loopback_url("MEEPLE_DISCORD_GATEWAY", values.get("MEEPLE_DISCORD_GATEWAY"))
    if gateway is not None and api_base is None:
        raise SettingsError("MEEPLE_DISCORD_GATEWAY is only used together with MEEPLE_DISCORD_API_BASE")
    if api_base is not None and gateway is None:
        gateway = api_base.with_scheme("wss" if api_base.scheme == "https" else "ws").with_path("/gateway")
    clock_text = (values.get("MEEPLE_CLOCK_FILE") or "").strip()
    db_text = (values.get("MEEPLE_DB") or DEFAULT_DB).strip()
    db_url = db_text if db_text.startswith(("postgresql://", "postgres://")) else None
    shard_count, shard_ids = _shards(values)
    return Settings(
        token=token,
        db_path=Path(DEFAULT_DB).with_name("postgresql") if db_url is not None else Path(db_text),
        db_url=db_url,
        log_level=log_level,
        dev_guild=int(guild_text) if guild_text else None,
        bot_delay=bot_delay,
        api_base=api_base,
        gateway=gateway,
        clock_file=Path(clock_text) if clock_text else None,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )


MAX_SHARDS = 4096


def _shards(values: Mapping[str, str]) -> tuple[int | None, frozenset[int] | None]:
    """MEEPLE_SHARD_COUNT and MEEPLE_SHARDS, checked together."""
    count_text = (values.get("MEEPLE_SHARD_COUNT") or "").strip()
    ids_text = (values.get("MEEPLE_SHARDS") or "").strip()
    if not count_text:
        if ids_text:
            raise SettingsError("MEEPLE_SHARDS needs MEEPLE_SHARD_COUNT (the total number of shards)")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise SettingsError(f"MEEPLE_SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}")
    count = int(count_text)
    if not ids_text:
        return count, None
    try:
        ids = parse_shard_ids(ids_text, count)
    except ValueError as exc:
        raise SettingsError(
            f"MEEPLE_SHARDS must list shards below MEEPLE_SHARD_COUNT, such as 0-3 or 0,2: {exc}"
        ) from None
    return count, ids


_KEYS = frozenset(
    {
        "DISCORD_TOKEN",
        "MEEPLE_DB",
        "MEEPLE_LOG_LEVEL",
        "MEEPLE_DEV_GUILD",
        "MEEPLE_BOT_DELAY",
        "MEEPLE_DISCORD_API_BASE",
        "MEEPLE_DISCORD_GATEWAY",
        "MEEPLE_CLOCK_FILE",
        "MEEPLE_SHARD_COUNT",
        "MEEPLE_SHARDS",
    }
)


def _read_env_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise SettingsError(f"{path} cannot be read: {exc.strerror}") from None


def _refuse_misplaced_token(values: Mapping[str, str], token: str) -> None:
    """Refuse a Meeple setting that holds the token or a part of it, naming only the variable.

    Such a value would be printed back in a message (a database path, an address).
    """
    for key in sorted(_KEYS - {"DISCORD_TOKEN"}):
        value = (values.get(key) or "").strip()
        if value and (value == token or shares_a_piece(value, token) or _looks_like_a_token(value)):
            raise SettingsError(
                f"{key} holds what looks like the Discord token or a part of it (not shown): "
                "the token belongs in DISCORD_TOKEN only"
            )


TOKEN_PIECE = 12
"""The length from which a run of the token's characters found elsewhere counts as a part of it."""


def token_pieces(token: str) -> list[str]:
    """Every run of TOKEN_PIECE characters of the token (none for a token shorter than that)."""
    return [token[i : i + TOKEN_PIECE] for i in range(len(token) - TOKEN_PIECE + 1)]


def shares_a_piece(text: str, token: str) -> bool:
    """Whether `text` holds a part of the token at least TOKEN_PIECE characters long, in any case."""
    folded = text.casefold()
    return any(piece.casefold() in folded for piece in token_pieces(token))


def _looks_like_a_token(text: str) -> bool:
    """Whether `text` holds something shaped like a bot token, or its first part: a user id in base64."""
    for found in _TOKEN_SHAPE.finditer(text):
        if _is_a_user_id(found.group(1)):
            return True
    return any(_is_a_user_id(run) for run in _ID_PART.findall(text))


# A token's first part alone: Discord's user ids have 17 to 20 digits, 23 to 27 characters in base64.
_ID_PART = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{22,28}(?![A-Za-z0-9_-])")


def _is_a_user_id(head: str) -> bool:
    with contextlib.suppress(ValueError):
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
        return decoded.isdigit() and len(decoded) >= 16
    return False


# What Discord's tokens are made of: base64url parts joined by dots.
_TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9_.-]+")


def _refuse_malformed_token(token: str) -> None:
    """Refuse a token with a character no Discord token has (it would be sent in an HTTP header)."""
    if _TOKEN_CHARACTERS.fullmatch(token):
        return
    if token.lower().startswith("bot "):
        raise SettingsError(
            "DISCORD_TOKEN starts with 'Bot ': give the token alone, Meeple adds that word itself"
        )
    raise SettingsError(
        "DISCORD_TOKEN holds a character no Discord token has (a space, a control character or a"
        " letter outside A-Z; the token is not shown): copy it again from"
        " https://discord.com/developers/applications (your app, Bot, Reset Token)"
    )


def _refuse_control_characters(values: Mapping[str, str]) -> None:
    """Refuse a setting holding a line break or another control character, naming only the variable."""
    for key in sorted(_KEYS - {"DISCORD_TOKEN"}):
        # Cc: C0 and C1 controls (tab, line feed, NUL...); Zl, Zp: Unicode's line and paragraph breaks.
        if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in (values.get(key) or "").strip()):
            raise SettingsError(f"{key} holds a control character (a tab, a line break...): retype it")


def _loopback_url(name: str, text: str | None) -> URL | None:
    """Parse a test-only URL, refusing anything that is not a loopback IP address."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        url = URL(text)
    except ValueError:
        raise SettingsError(f"{name} is not a URL") from None
    if url.scheme not in ("http", "https", "ws", "wss"):
        raise SettingsError(f"{name} must be an http(s) or ws(s) URL")
    try:
        # Only literal addresses: a host name could resolve anywhere.
        loopback = ipaddress.ip_address(url.host or "").is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SettingsError(
            f"{name} is for tests against a local fake only: its host must be 127.0.0.1 or ::1"
        )
    return url
