"""Plain-data records of the fake Discord and the JSON payloads discord.py expects for them."""

from __future__ import annotations

import io
import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from PIL import Image, UnidentifiedImageError

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 51) - 1)
MEMBER_PERMISSIONS = str(0x0000_0000_0004_0000 | 0x400 | 0x800 | 0x4000 | 0x8000 | 0x10000 | (1 << 38))
MANAGE_GUILD = 0x20
EPHEMERAL = 1 << 6
LOADING = 1 << 7

TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh id whose timestamp part is now, as Discord's are."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """The current time in Discord's ISO 8601 form."""
    return datetime.now(UTC).isoformat()


@dataclass(slots=True)
class User:
    """A Discord account: a person or the bot."""

    id: int
    name: str
    bot: bool = False
    manage_guild: bool = False

    def payload(self) -> dict[str, Any]:
        """The user object."""
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member_payload(self) -> dict[str, Any]:
        """The guild member object, with this user inside."""
        permissions = int(MEMBER_PERMISSIONS) | (MANAGE_GUILD if self.manage_guild else 0)
        return {
            "user": self.payload(),
            "nick": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(permissions),
        }

    @property
    def mention(self) -> str:
        """How a message mentions this user."""
        return f"<@{self.id}>"


@dataclass(slots=True)
class Channel:
    """A text channel or a thread."""

    id: int
    guild_id: int
    name: str
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    members: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict[str, Any]:
        """The channel object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "type": self.type,
            "position": 0,
            "nsfw": False,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "permission_overwrites": [],
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=len(self.members),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso_now(),
                    "locked": self.locked,
                    "create_timestamp": iso_now(),
                },
            )
        return data


@dataclass(slots=True)
class Attachment:
    """A file stored by the fake, served from its CDN route."""

    id: int
    channel_id: int
    filename: str
    data: bytes
    content_type: str | None
    base_url: str

    @property
    def url(self) -> str:
        """Where discord.py downloads it."""
        return f"{self.base_url}/cdn/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> dict[str, Any]:
        """The attachment object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        size = image_size(self.data)
        if size is not None:
            data["width"], data["height"] = size
        return data


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of an image (as Discord gives them for PNG, WebP, GIF...), or None for
    anything else. Pillow reads only the header here."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError):
        return None
    return int(width), int(height)


@dataclass(slots=True)
class Message:
    """A message as the fake holds it; `ephemeral_to` is the one user who can see it."""

    id: int
    channel_id: int
    guild_id: int
    author: User
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    pinged: tuple[int, ...] = ()
    """The users this message notified (mentions allowed by allowed_mentions)."""
    webhook_id: int | None = None
    interaction_id: int | None = None
    ephemeral_to: int | None = None
    edited: int = 0
    deleted: bool = False
    thread_id: int | None = None

    @property
    def loading(self) -> bool:
        """A deferred "thinking" response not yet replaced."""
        return bool(self.flags & LOADING)

    def payload(self) -> dict[str, Any]:
        """The message object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso_now(),
            "edited_timestamp": iso_now() if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [
                {"id": str(uid), "username": "u", "discriminator": "0", "avatar": None} for uid in self.pinged
            ],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": 0,
            "flags": self.flags,
            "components": self.components,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data

    # -- reading helpers for tests --------------------------------------------

    def items(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons and selects), row by row."""
        found: list[dict[str, Any]] = []
        for row in self.components:
            for item in row.get("components", []):
                if item.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(item)
        return found

    def buttons(self) -> list[dict[str, Any]]:
        """The buttons, row by row."""
        return [item for item in self.items() if item.get("type") == 2]

    def button(self, label: str) -> dict[str, Any]:
        """The one button whose label is `label` (KeyError when absent)."""
        for item in self.buttons():
            if item.get("label") == label:
                return item
        raise KeyError(f"no button {label!r} on message {self.id}; labels: {self.labels()}")

    def labels(self) -> list[str]:
        """The button labels, row by row."""
        return [str(item.get("label", "")) for item in self.buttons()]

    def custom_ids(self) -> list[str]:
        """The custom ids of every interactive component."""
        return [str(item["custom_id"]) for item in self.items() if "custom_id" in item]

    def text(self) -> str:
        """Content and embed text together, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text", "")))
        return "\n".join(p for p in parts if p)


_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_users(content: str, allowed: dict[str, Any] | None) -> tuple[int, ...]:
    """The users a message content notifies under Discord's allowed_mentions rules."""
    mentioned = [int(m) for m in _MENTION.findall(content)]
    if allowed is None:
        return tuple(dict.fromkeys(mentioned))
    if "users" in (allowed.get("parse") or []):
        return tuple(dict.fromkeys(mentioned))
    listed = {int(u) for u in allowed.get("users") or []}
    return tuple(dict.fromkeys(u for u in mentioned if u in listed))


@dataclass(slots=True)
class Interaction:
    """One interaction the fake sent to the bot, and what the bot answered."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    data: dict[str, Any]
    message_id: int | None = None
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    original_id: int | None = None
    followups: list[int] = field(default_factory=list)
    errors: list[int] = field(default_factory=list)
    """Discord error codes the bot's calls for this interaction received."""

    @property
    def acknowledged(self) -> bool:
        """Whether the bot answered the interaction callback."""
        return self.callback_type is not None
