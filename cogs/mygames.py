"""`/games`: the asker's open tables in this server, privately, their own moves first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games import get_ui
from cogs.platform import clicks, text
from cogs.platform.board_messages import board_link
from engine.words import ENGLISH, Words
from tables.errors import TableError
from tables.models import Table, TableStatus
from tables.store import BoardRecord

MAX_LISTED = 15
"""Tables listed at most (the rest are counted), to stay within one message."""


def movers(table: Table) -> list[int]:
    """The seats the game waits on: those whose decision the turn hinges on (not Prompt.optional)."""
    needed = sorted({p.seat for p in table.prompts if not p.optional})
    return needed or list(table.to_move)


def waiting_since(table: Table) -> float:
    """Since when the table has waited on its movers (the longest-waiting human), else its last change."""
    since = [table.seats[s].idle_since for s in movers(table)]
    return min((s for s in since if s is not None), default=table.updated_at)


def your_move(table: Table, user_id: int) -> bool:
    """Whether the game waits on `user_id` (a seat a bot stands in for does not count)."""
    seat = table.seat_of(user_id)
    return seat is not None and seat in movers(table) and not table.is_bot(seat)


def order(tables: Sequence[Table], user_id: int) -> list[Table]:
    """Games first (yours to move before the others'), each group longest-waiting first; then lobbies."""
    games = [t for t in tables if t.status is TableStatus.PLAYING]
    lobbies = [t for t in tables if t.status is TableStatus.LOBBY]
    games.sort(key=lambda t: (not your_move(t, user_id), waiting_since(t), t.id))
    return games + sorted(lobbies, key=lambda t: t.id)


def game_line(table: Table, user_id: int, record: BoardRecord, w: Words = ENGLISH) -> str:
    """One game: emoji, title, number, whose move, how long it has waited, a link to its board."""
    ui = get_ui(table.game)
    head = f"{ui.emoji} **{w.gettext(ui.title)}** #{table.id}"
    since = f"<t:{int(waiting_since(table))}:R>"
    if your_move(table, user_id):
        who = w.gettext("**your move** since {when}", when=since)
    else:
        names = [text.seat_name(table.seats[s], w) for s in movers(table)]
        if names:
            who = w.gettext("to move: {players} since {when}", players=", ".join(names), when=since)
        else:
            who = w.gettext("waiting since {when}", when=since)
    link = board_link(table, record)
    where = " · " + w.gettext("[board]({link})", link=link) if link else ""
    return f"{head} · {who}{where}"


def lobby_line(table: Table, record: BoardRecord, w: Words = ENGLISH) -> str:
    """One lobby: title, number, seats taken, a link to its message."""
    ui = get_ui(table.game)
    seats = w.ngettext(
        "lobby, {taken}/{count} seat",
        "lobby, {taken}/{count} seats",
        table.rules.max_players,
        taken=len(table.seats),
    )
    link = ""
    if record.lobby_message_id is not None:
        url = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{record.lobby_message_id}"
        link = " · " + w.gettext("[lobby]({link})", link=url)
    return f"{ui.emoji} **{w.gettext(ui.title)}** #{table.id} · {seats}{link}"


def games_text(
    tables: Sequence[Table], user_id: int, records: Mapping[int, BoardRecord], w: Words = ENGLISH
) -> str:
    """The answer to /games for one user's open tables in one server."""
    if not tables:
        return w.gettext("You have no open table in this server. Open one with `/play`.")
    ordered = order(tables, user_id)
    shown = ordered[:MAX_LISTED]
    lines = [w.gettext("🎲 **Your tables here**")]
    for table in shown:
        record = records[table.id]
        if table.status is TableStatus.PLAYING:
            lines.append(game_line(table, user_id, record, w))
        else:
            lines.append(lobby_line(table, record, w))
    if len(ordered) > len(shown):
        lines.append(
            w.ngettext("-# … and {count} more.", "-# … and {count} more.", len(ordered) - len(shown))
        )
    return text.clip_content("\n".join(lines))


class MyGames(commands.Cog):
    """The /games command."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Your open tables in this server, shown only to you")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        """List the asker's lobbies and games in this server, their own moves first."""
        async with clicks.journalled_command(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            w = text.reader(interaction)
            try:
                tables = await self.bot.tables.tables_of_user(interaction.user.id)
            except TableError as exc:
                await interaction.followup.send(exc.said(w), ephemeral=True)
                return
            here = [t for t in tables if t.guild_id == interaction.guild_id and _known(t)]
            records = {t.id: await self.bot.tables.store.board(t.id) for t in here}
            await interaction.followup.send(games_text(here, interaction.user.id, records, w), ephemeral=True)


def _known(table: Table) -> bool:
    try:
        get_ui(table.game)
    except KeyError:
        return False
    return True


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(MyGames(bot))
