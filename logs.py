"""Meeple's log lines: written to stderr, without library DEBUG lines, any part of the bot token,
the tokens of webhook and interaction URLs, or the labels (player names) of components."""

from __future__ import annotations

import logging
import re

import discord

from settings import token_pieces

OWN_LOGGERS = frozenset({"meeple", "tables", "cogs", "renderers", "engine", "settings", "__main__"})
"""Meeple's own loggers: the only ones whose DEBUG lines are written (they log ids, never player data)."""
LIBRARY_LOGGERS = ("discord", "aiosqlite", "aiohttp", "asyncio", "PIL")
HIDDEN = "[hidden]"


def setup_logging(level: int, secret: str = "") -> None:
    """Log to stderr through the standard library, without library DEBUG lines or any part of `secret`."""
    logging.basicConfig(level=level, format=LOG_FORMAT, force=True)
    for name in LIBRARY_LOGGERS:
        # Their DEBUG lines carry player data: discord.py every payload sent and received
        # (names, message text), aiosqlite every statement with its parameters.
        logging.getLogger(name).setLevel(max(level, logging.INFO))
    for handler in logging.getLogger().handlers:
        handler.setFormatter(SecretHidingFormatter(LOG_FORMAT, secret))
        handler.addFilter(own_debug_only)


LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def own_debug_only(record: logging.LogRecord) -> bool:
    """Let a DEBUG line through only from Meeple's own loggers (a library's may carry player data)."""
    return record.levelno > logging.DEBUG or record.name.split(".", 1)[0] in OWN_LOGGERS


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class SecretHidingFormatter(logging.Formatter):
    """A formatter that writes `[hidden]` over each TOKEN_PIECE-long part of the secret and URL tokens."""

    def __init__(self, fmt: str, secret: str) -> None:
        super().__init__(fmt)
        self._pieces = [piece.translate(_ASCII_LOWER) for piece in token_pieces(secret)]

    def format(self, record: logging.LogRecord) -> str:
        """The line (arguments and traceback included) with the secret's parts and the URL tokens hidden."""
        if record.name.startswith("discord.ui."):
            record = components_by_id(record)
        return hide_pieces(hide_url_tokens(super().format(record)), self._pieces)


class Shown:
    """A log argument that prints as the text it was given."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def components_by_id(record: logging.LogRecord) -> logging.LogRecord:
    """`record`, or a copy with each discord.py component among its arguments shown by its custom_id."""
    # discord.py's "Ignoring exception in dynamic item callback for %r" (and "in view %r for item
    # %r") prints the component's label, which can hold a player's name ("Undo (Ann)"); Meeple's
    # custom_ids hold only ids.
    if not isinstance(record.args, tuple) or not any(isinstance(a, discord.ui.Item) for a in record.args):
        return record
    copy = logging.makeLogRecord(record.__dict__)
    copy.args = tuple(
        Shown(f"<{type(a).__name__} custom_id={getattr(a, 'custom_id', None)!r}>")
        if isinstance(a, discord.ui.Item)
        else a
        for a in record.args
    )
    return copy


URL_TOKEN = re.compile(r"((?:webhooks|interactions)/\d+/)[\w.~%+=-]+")
"""The token after a webhook's or an interaction's id in a URL path (token and percent-encoding alphabet)."""
BUCKET_TOKEN = re.compile(r"('\d+\+)[^'+]+(?=' major parameters)")
"""The token in the rate limit bucket of a webhook route, as discord.py's DEBUG line prints it."""


def hide_url_tokens(text: str) -> str:
    """`text` with the token of each `/webhooks/<id>/<token>` and `/interactions/<id>/<token>` hidden."""
    # An interaction's token lets anyone answer as the bot in its channel for 15 minutes, and
    # aiohttp's errors (a connection timeout, a redirect loop) carry the whole URL of the request.
    # The ids stay, so the line still says which interaction or webhook it was about. Most lines
    # have none of these words: they skip the regular expressions.
    if "webhooks/" in text or "interactions/" in text:
        text = URL_TOKEN.sub(r"\g<1>" + HIDDEN, text)
    if "' major parameters" in text:
        text = BUCKET_TOKEN.sub(r"\g<1>" + HIDDEN, text)
    return text


def hide_pieces(text: str, pieces: list[str]) -> str:
    """`text` with each run covered by one of `pieces` (lower-case ASCII; any case matches) hidden."""
    # ASCII-only lowering keeps every index in place (str.lower may not: "İ" becomes two characters).
    folded = text.translate(_ASCII_LOWER)
    covered = bytearray(len(text))
    for piece in pieces:
        start = folded.find(piece)
        while start != -1:
            covered[start : start + len(piece)] = b"\x01" * len(piece)
            start = folded.find(piece, start + 1)
    if not any(covered):
        return text
    out: list[str] = []
    for i, char in enumerate(text):
        if not covered[i]:
            out.append(char)
        elif i == 0 or not covered[i - 1]:
            out.append(HIDDEN)
    return "".join(out)
