"""Lobbies on Discord: open one with /play, then Join, Leave, Add bot, Start and Cancel."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

import discord

from cogs.games import get_ui
from cogs.games.base import Tone
from cogs.platform import text
from cogs.platform.ids import LobbyOp, LobbyRef
from cogs.platform.layout import ButtonSpec, OptionItem, Row, SelectSpec
from cogs.platform.views import build_view
from engine.core import DEFAULT_LEVEL, Scalar
from tables.errors import TableError
from tables.models import Table, TableStatus

log = logging.getLogger("meeple.cogs.lobby")

THREAD_NAME_LIMIT = 100
"""Discord: a thread name is at most 100 characters."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""Keep game threads open a week between moves (async play over days)."""


def lobby_rows(table: Table) -> list[Row]:
    """The lobby's buttons, and Add bot: a select of the game's bot levels."""

    def spec(op: LobbyOp, label: str, tone: Tone, emoji: str) -> ButtonSpec:
        return ButtonSpec(LobbyRef(table.id, op).custom_id(), label, tone, emoji)

    levels = tuple(OptionItem(f"{level.capitalize()} bot", level, "🤖") for level in table.rules.levels())
    return [
        (
            spec(LobbyOp.JOIN, "Join", Tone.MAIN, "🪑"),
            spec(LobbyOp.LEAVE, "Leave", Tone.NORMAL, "🚪"),
            spec(LobbyOp.START, "Start", Tone.GOOD, "▶️"),
            spec(LobbyOp.CANCEL, "Cancel", Tone.RISKY, "✖️"),
        ),
        SelectSpec(LobbyRef(table.id, LobbyOp.BOT).custom_id(), "🤖 Add bot: pick its level", levels),
    ]


def lobby_message(table: Table) -> dict[str, Any]:
    """Keyword arguments to send or edit the lobby message (buttons only while it is a lobby)."""
    view = build_view(lobby_rows(table)) if table.status is TableStatus.LOBBY else None
    return {"content": text.lobby_text(get_ui(table.game), table), "view": view}


def thread_name(table: Table) -> str:
    """The game thread's name: the game and the table number."""
    ui = get_ui(table.game)
    return f"{ui.emoji} {ui.title} #{table.id}"[:THREAD_NAME_LIMIT]


async def open_lobby(interaction: discord.Interaction[Any], game_id: str, options: dict[str, Scalar]) -> None:
    """Create a table and post its lobby message in the channel where /play was used."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    if interaction.guild_id is None or channel is None:
        await interaction.followup.send("Games are played in a server's text channel.", ephemeral=True)
        return
    if not isinstance(channel, discord.TextChannel):
        await interaction.followup.send(
            "Open a table from a text channel (not a thread): the game gets a thread of its own.",
            ephemeral=True,
        )
        return
    service = interaction.client.tables
    try:
        table = await service.create(
            game_id,
            interaction.guild_id,
            channel.id,
            interaction.user.id,
            interaction.user.display_name,
            options,
        )
    except TableError as exc:
        await interaction.followup.send(str(exc), ephemeral=True)
        return
    try:
        message = await channel.send(**lobby_message(table), allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden:
        await service.cancel(table.id, interaction.user.id)
        await interaction.followup.send("I am not allowed to post in this channel.", ephemeral=True)
        return
    await service.set_lobby_message(table.id, message.id)
    await interaction.followup.send(
        f"Table #{table.id} is open: {message.jump_url}. Others press **Join**; you press **Start**.",
        ephemeral=True,
    )


async def lobby_click(
    interaction: discord.Interaction[Any], ref: LobbyRef, values: Sequence[str] = ()
) -> None:
    """Carry out a lobby button or the Add bot select (the interaction is already deferred)."""
    client = interaction.client
    service = client.tables
    user = interaction.user
    manager = bool(interaction.permissions.manage_guild) if interaction.permissions else False
    op = ref.op
    if op is LobbyOp.JOIN:
        table = await service.join(ref.table, user.id, user.display_name)
    elif op is LobbyOp.LEAVE:
        table = await service.leave(ref.table, user.id)
    elif op is LobbyOp.BOT:
        # An Add bot button of an older lobby message sends no level: the default one.
        table = await service.add_bot(ref.table, user.id, values[0] if values else DEFAULT_LEVEL)
    elif op is LobbyOp.CANCEL:
        table = await service.cancel(ref.table, user.id, manager)
    else:
        await start_game(interaction, ref.table)
        return
    await interaction.edit_original_response(
        **lobby_message(table), allowed_mentions=discord.AllowedMentions.none()
    )


async def start_game(interaction: discord.Interaction[Any], table_id: int) -> None:
    """Start the game, open its thread from the lobby message, and post the first board."""
    client = interaction.client
    service = client.tables
    update = await service.start_game(table_id, interaction.user.id)
    table = update.table
    message = interaction.message
    try:
        if message is not None and isinstance(message.channel, discord.TextChannel):
            thread = await message.create_thread(
                name=thread_name(table), auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        else:
            channel = client.get_channel(table.channel_id) or await client.fetch_channel(table.channel_id)
            thread = await channel.create_thread(
                name=thread_name(table),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
    except discord.HTTPException:
        log.exception("table %s: could not open a thread", table_id)
        called_off = await service.abandon(table_id, table.host_id, True)
        await interaction.edit_original_response(
            **lobby_message(called_off.table), allowed_mentions=discord.AllowedMentions.none()
        )
        raise TableError(
            "I could not open a thread here (I need the Create Public Threads permission),"
            " so the game was called off."
        ) from None
    table = await service.set_thread(table_id, thread.id)
    await interaction.edit_original_response(
        **lobby_message(table), allowed_mentions=discord.AllowedMentions.none()
    )
    presenter = client.get_cog("Games").presenter
    await presenter.show(update)
