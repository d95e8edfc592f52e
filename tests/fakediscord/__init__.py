"""A local stand-in for Discord (REST, gateway, CDN) that the real bot can log in to."""

from tests.fakediscord.payloads import Attachment, Channel, Interaction, Message, User
from tests.fakediscord.server import FakeDiscord, Request

__all__ = ["Attachment", "Channel", "FakeDiscord", "Interaction", "Message", "Request", "User"]
