"""Player names are shown as typed: their markdown and mentions are escaped in every message."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from cogs.platform.text import discord_escape, one_line
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import play_greedily, table_of
from tests.cogs.test_lobby import lobby_now, open_table

TRICKY = {
    "alice": "**Ann**",
    "bob": "@everyone",
    "carol": "<@123> [x](https://example.com)",
    "watcher": "_x_\n# second line",
}


def as_shown(markdown: str) -> str:
    """What Discord displays for escaped text: a backslash shows the next symbol as is."""
    return re.sub(r"\\([^A-Za-z0-9\s])", r"\1", markdown).replace("\u200b", "")


@pytest.mark.parametrize("name", [*TRICKY.values(), "plain", "a\\b", "~~s~~ `c` |sp| >q -# t"])
def test_an_escaped_name_displays_as_typed_on_one_line(name: str) -> None:
    escaped = discord_escape(name)
    assert "\n" not in escaped and "\r" not in escaped
    assert as_shown(escaped) == one_line(name)
    # No mark is left bare: every markdown symbol is escaped, every @ is broken.
    assert not re.search(r"(?<!\\)[*_~`|<>\[\]#]", escaped.replace("\\\\", ""))
    assert "@" not in escaped.replace("@\u200b", "")


def rename_players(world: Harness) -> None:
    """Replace the harness's members by members whose display names are TRICKY."""
    for attribute, name in TRICKY.items():
        user = world.env.create_user(f"{attribute}-tricky", global_name=name)
        setattr(world, attribute, world.guild.add_member(user))


# Each name's markdown or mention where it is not escaped (no backslash or zero-width space before).
UNESCAPED = [
    r"(?<!\\)\*(?<!\\)\*Ann",
    r"@everyone",
    r"(?<!\\)<@123",
    r"(?<!\\)\]\(https",
    r"(?<!\\)_x",
    r"\n\\?# second",
    r"@\u200b\u200b",
]


def assert_names_escaped(content: str) -> None:
    for name in TRICKY.values():
        assert name not in content, content
    for pattern in UNESCAPED:
        assert not re.search(pattern, content), (pattern, content)


async def test_names_are_escaped_in_every_message_of_a_whole_game(world: Harness) -> None:
    rename_players(world)
    lobby = await open_table(world)
    for player in (world.bob, world.carol, world.watcher):
        await player.click(lobby_now(world, lobby), label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    final = await table_of(world)
    assert final.status is TableStatus.FINISHED

    messages = [*world.thread().history(), lobby_now(world, lobby)]
    for message in messages:
        assert_names_escaped(message.content)
        assert not message.mention_everyone and 123 not in message.raw_mentions
    events = [line for m in messages for line in m.content.splitlines() if line.startswith("-# • ")]
    shown = {discord_escape(name) for name in TRICKY.values()}
    assert any(name in line for line in events for name in shown), "event lines name the players"
    scores = world.board().content
    assert "final scores" in scores
    for name in shown:
        assert name in scores
    assert world.thread().name == f"🍅 Diced Tomatoes #{final.id}", "no player name in the thread name"


async def test_names_are_escaped_in_the_clock_notices(world: Harness) -> None:
    rename_players(world)
    lobby = await open_table(world)
    await world.bob.click(lobby_now(world, lobby), label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    # A day: the default move is played for the one to move; three days: a bot takes the seat.
    await world.bot.tables.run_due(time.time() + 25 * 3600)
    await world.idle()
    await world.bot.tables.run_due(time.time() + 4 * 24 * 3600)
    await world.idle()
    notices = [m.content for m in world.thread().history() if m.content.startswith(("⌛", "🤖"))]
    assert notices, [m.content for m in world.thread().history()]
    for content in notices:
        assert_names_escaped(content)
        assert discord_escape(TRICKY["alice"]) in content or discord_escape(TRICKY["bob"]) in content


def test_a_mention_in_a_name_is_not_a_mention() -> None:
    message_text = f"**{discord_escape('<@123> <@!45> @everyone @here <@&5> <#7> <t:1:R>')}**"
    # Discord's mention syntax (users, roles, channels, timestamps) and the two broadcasts.
    assert not re.search(r"<(@[!&]?|#|t:)\d+", message_text)
    assert not re.search(r"@(everyone|here)", message_text)


OVERRIDES = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066\u2067]")
"""Bidi controls a name could carry into a caption (FSI and PDI are Meeple's own isolation)."""
BIDI_NAMES = {
    "alice": "Ann\u202eevil",  # a right-to-left override: the caption after it would read backwards
    "bob": "\u05d3\u05d5\u05d3 42",  # Hebrew: a right-to-left name, isolated from the caption around it
}


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ann\u202eevil", "Annevil"),
        ("\u202bx\u202c\u2066y\u2069\u200f", "xy"),
        ("\u05d3\u05d5\u05d3 42", "\u2068\u05d3\u05d5\u05d3 42\u2069"),
        ("\u0633\u0627\u0631\u0629\u202e", "\u2068\u0633\u0627\u0631\u0629\u2069"),
        ("plain", "plain"),
    ],
)
def test_a_name_loses_its_bidi_controls_and_a_right_to_left_one_is_isolated(name: str, shown: str) -> None:
    assert discord_escape(name) == shown
    assert not OVERRIDES.search(one_line(name)) and "\u2068" not in one_line(name)


async def test_no_bidi_override_of_a_name_reaches_any_message_of_a_game(world: Harness) -> None:
    for attribute, name in BIDI_NAMES.items():
        user = world.env.create_user(f"{attribute}-bidi", global_name=name)
        setattr(world, attribute, world.guild.add_member(user))
    lobby = await open_table(world)
    await world.bob.click(lobby_now(world, lobby), label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert await world.bot.tables.run_due(time.time() + 13 * 3600) >= 1  # a reminder names the player
    await world.idle()
    assert "your turn" in world.board().content
    games: Any = world.bot.get_cog("Games")
    await games.presenter.repost(await table_of(world))  # the board last again, for the players
    assert await play_greedily(world, moves=10_000) > 0
    messages = [*world.thread().history(), lobby_now(world, lobby)]
    contents = [m.content for m in messages]
    labels = [c.label or "" for m in messages for row in m.components for c in getattr(row, "children", [])]
    for content in [*contents, *labels]:
        assert not OVERRIDES.search(content), ascii(content)
        assert content.count("\u2068") == content.count("\u2069"), ascii(content)
    everything = "\n".join(contents)
    assert "Annevil" in everything
    assert "\u2068\u05d3\u05d5\u05d3 42\u2069" in everything, "the right-to-left name is isolated"
