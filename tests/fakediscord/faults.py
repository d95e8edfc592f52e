"""Failures the fake answers with, as Discord sends them, and requests it holds for a test.

Bodies and headers follow Discord's API reference (opcodes and status codes, rate limits):
JSON errors carry `code` and `message`; a 429 carries `retry_after` (seconds, float) and
`global` in its body and the `Retry-After` and `X-RateLimit-*` headers; 502 and 503 come
from the proxies in front of the API as plain text, not JSON.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# Discord's JSON error codes used by the fault matrix.
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_INTERACTION = 10062


def error_response(
    status: int, code: int = 0, message: str = "", *, retry_after: float = 1.0
) -> web.Response:
    """The response Discord (or its proxies) gives for `status`."""
    if status == 429:
        return rate_limited(retry_after)
    if status == 502:
        return web.Response(status=502, text="error code: 502", content_type="text/plain")
    if status == 503:
        return web.Response(
            status=503,
            text="upstream connect error or disconnect/reset before headers. reset reason: overflow",
            content_type="text/plain",
        )
    text = message or {
        403: "Missing Permissions",
        404: "Unknown Channel",
        500: "500: Internal Server Error",
    }.get(status, f"{status}: error")
    return web.Response(
        status=status,
        body=json.dumps({"message": text, "code": code}).encode(),
        headers={"Content-Type": "application/json"},
    )


def rate_limited(retry_after: float, *, bucket: str = "f4k3bucket", is_global: bool = False) -> web.Response:
    """A 429 as Discord sends it: JSON body with retry_after, rate limit headers, via its proxy."""
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "shared" if not is_global else "global",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)


@dataclass(slots=True)
class Fault:
    """A failure armed by a test: the next `times` matching requests get it."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    times: int
    retry_after: float = 1.0
    drop_gateway: bool = False
    """Close every gateway session when a matching request arrives (the request still succeeds)."""
    hits: int = 0


@dataclass(slots=True)
class Hold:
    """Requests matching `method` and `path` wait (before the fake handles them) until released."""

    method: str
    path: re.Pattern[str]
    times: int = 1
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    held: list[str] = field(default_factory=list)
    """The paths of the requests held so far."""

    def matches(self, method: str, path: str) -> bool:
        """Whether this hold takes a request (and counts it)."""
        if self.times <= 0 or method != self.method or not self.path.search(path):
            return False
        self.times -= 1
        self.held.append(path)
        self.arrived.set()
        return True

    def release(self) -> None:
        """Let the held requests (and any later matching ones) through."""
        self.times = 0
        self.released.set()


@dataclass(slots=True)
class AckHold:
    """Interaction callbacks `wants` takes are acknowledged, then their answer waits until released.

    The bot's click is then acknowledged on Discord's side while the bot has not heard so yet:
    the instant the bot's own next step (storing the move) has not happened.
    """

    wants: Callable[[Any], bool]
    """Takes the fake's Interaction."""
    times: int = 1
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    held: list[int] = field(default_factory=list)
    """The ids of the interactions held so far."""

    def takes(self, interaction: Any) -> bool:
        """Whether this hold takes an acknowledged interaction (and counts it)."""
        if self.times <= 0 or not self.wants(interaction):
            return False
        self.times -= 1
        self.held.append(interaction.id)
        self.arrived.set()
        return True

    def release(self) -> None:
        """Let the held answers (and any later ones) through."""
        self.times = 0
        self.released.set()
