"""/settings: a player's time zone, quiet hours, how they are told, and their answer to optional choices."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.platform import clicks, text
from cogs.platform.text import LANGUAGE_NAMES
from cogs.platform.translator import untranslated
from engine.words import ENGLISH, Words
from tables.models import TableStatus
from tables.players import (
    STANDING_LABELS,
    Notify,
    PlayerSettings,
    StandingAnswer,
    clock_text,
    describe,
    is_time_zone,
    parse_clock,
    time_zones,
    zone,
)
from tables.service import TableService

AUTOCOMPLETE_LIMIT = 25
"""Discord: at most 25 autocomplete choices."""
OFF = ("off", "none", "no", "")

NOTIFY_CHOICES = [
    app_commands.Choice(name="A mention in the game's thread", value=Notify.THREAD.value),
    app_commands.Choice(name="A direct message with a link", value=Notify.DM.value),
]
CLIENT_LANGUAGE = "client"
"""The /settings language choice that drops a chosen language: answers follow the Discord app again."""
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=untranslated(name), value=code) for code, name in LANGUAGE_NAMES.items()),
    app_commands.Choice(name="The language of my Discord app", value=CLIENT_LANGUAGE),
]
STANDING_CHOICES = [
    app_commands.Choice(name=label, value=answer.value) for answer, label in STANDING_LABELS.items()
]
"""Their English names: the translator gives each its words when the commands are synced."""


def parse_quiet(text: str) -> tuple[int | None, int | None] | None:
    """(start, end) minutes for "22:00-07:00", (None, None) for "off"; None if it cannot be read."""
    if text.strip().lower() in OFF:
        return None, None
    start_text, sep, end_text = text.replace("–", "-").partition("-")
    start, end = parse_clock(start_text), parse_clock(end_text)
    if not sep or start is None or end is None or start == end:
        return None
    return start, end


def matching_zones(typed: str) -> list[str]:
    """Up to 25 time zones containing what was typed (those starting with it first)."""
    needle = typed.strip().lower().replace(" ", "_")
    names = time_zones()
    if not needle:
        return [
            "UTC",
            "Europe/London",
            "Europe/Paris",
            "America/New_York",
            "America/Los_Angeles",
            "Asia/Tokyo",
        ]
    starts = [n for n in names if n.lower().startswith(needle) or n.lower().split("/")[-1].startswith(needle)]
    inside = [n for n in names if needle in n.lower() and n not in starts]
    return (starts + inside)[:AUTOCOMPLETE_LIMIT]


def apply_changes(
    settings: PlayerSettings,
    time_zone: str | None,
    quiet_hours: str | None,
    told_by: str | None,
    optional_choices: str | None,
    language: str | None = None,
    w: Words = ENGLISH,
) -> PlayerSettings | str:
    """The settings with the given changes, or the reason they are refused (nothing changes then)."""
    if time_zone is not None:
        if not is_time_zone(time_zone.strip()):
            return w.gettext(
                "I do not know the time zone {zone}: pick one from the list (like Europe/Paris).",
                zone=repr(time_zone[:60]),
            )
        settings = replace(settings, time_zone=time_zone.strip())
    if quiet_hours is not None:
        parsed = parse_quiet(quiet_hours)
        if parsed is None:
            return w.gettext("Quiet hours are written like `22:00-07:00` (your local time), or `off`.")
        settings = replace(settings, quiet_start=parsed[0], quiet_end=parsed[1])
    if told_by is not None:
        # Choosing DMs again tries them again after a failure.
        settings = replace(settings, notify=Notify(told_by), dm_failed=False)
    if optional_choices is not None:
        settings = replace(settings, standing=StandingAnswer(optional_choices))
    if language is not None:
        settings = replace(settings, language=language if language in LANGUAGE_NAMES else None)
    return settings


class PlayerSettingsCog(commands.Cog, name="Settings"):
    """The /settings command."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: TableService = bot.tables

    @app_commands.command(
        name="settings", description="Your time zone, quiet hours, language and how you are told of your move"
    )
    @app_commands.describe(
        time_zone="Your time zone, e.g. Europe/Paris (quiet hours follow it)",
        quiet_hours="No pings or reminders then, e.g. 22:00-07:00 (your time), or off",
        told_by="How you are told it is your move",
        optional_choices="Optional choices such as the gold die on another player's roll",
        language="The language of my answers to you (a game's posts are in its table's language)",
    )
    @app_commands.choices(
        told_by=NOTIFY_CHOICES, optional_choices=STANDING_CHOICES, language=LANGUAGE_CHOICES
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        time_zone: str | None = None,
        quiet_hours: str | None = None,
        told_by: str | None = None,
        optional_choices: str | None = None,
        language: str | None = None,
    ) -> None:
        """Show the player's settings, changing those given first."""
        players = self.service.players
        await players.load()
        current = players.get(interaction.user.id)
        w = text.reader(interaction)
        changed = apply_changes(current, time_zone, quiet_hours, told_by, optional_choices, language, w)
        if isinstance(changed, str):
            await interaction.response.send_message(changed, ephemeral=True)
            return
        if changed == current:
            await interaction.response.send_message(
                w.gettext("Your settings:") + "\n" + self._shown(changed, w), ephemeral=True
            )
            return
        async with clicks.journalled_command(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            await players.save(changed)
            w = text.reader(interaction)  # the answer in the language just chosen
            if changed.standing is not current.standing:
                for table in await self.service.tables_of_user(interaction.user.id, (TableStatus.PLAYING,)):
                    await self.service.kick(table.id)
            await interaction.followup.send(
                w.gettext("Saved. Your settings:") + "\n" + self._shown(changed, w), ephemeral=True
            )

    def _shown(self, settings: PlayerSettings, w: Words) -> str:
        """The settings in words, and the player's clock now."""
        chosen = LANGUAGE_NAMES[settings.language] if settings.language is not None else None
        return describe(settings, w, chosen) + _now_line(settings, self.service.clock(), w)

    @settings.autocomplete("time_zone")
    async def time_zone_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """IANA time zones matching what is typed."""
        return [app_commands.Choice(name=name, value=name) for name in matching_zones(current)]

    @settings.autocomplete("quiet_hours")
    async def quiet_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """A few usual quiet hours (what is typed first, if it reads as such)."""
        usual = ["22:00-07:00", "23:00-08:00", "00:00-08:00", "21:00-06:00", "off"]
        typed = current.strip()
        found = [typed] if typed and parse_quiet(typed) is not None and typed not in usual else []
        return [app_commands.Choice(name=value, value=value) for value in found + usual]


def _now_line(settings: PlayerSettings, now: float, w: Words = ENGLISH) -> str:
    """Where the player's clock stands now, so a wrong time zone shows at once."""
    local = dt.datetime.fromtimestamp(now, zone(settings.time_zone))
    return "\n" + w.gettext(
        "-# Your local time now: {time}.", time=clock_text(local.hour * 60 + local.minute)
    )


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(PlayerSettingsCog(bot))
