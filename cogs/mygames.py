"""`/games`: the asker's open tables in this server, privately, their own moves first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games import get_ui
from cogs.platform import text
from cogs.platform.board_messages import board_link
from engine.words import noun
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


def game_line(table: Table, user_id: int, record: BoardRecord) -> str:
    """One game: emoji, title, number, whose move, how long it has waited, a link to its board."""
    ui = get_ui(table.game)
    head = f"{ui.emoji} **{ui.title}** #{table.id}"
    if your_move(table, user_id):
        who = "**your move**"
    else:
        names = [text.seat_name(table.seats[s]) for s in movers(table)]
        who = f"to move: {', '.join(names)}" if names else "waiting"
    waited = f"since <t:{int(waiting_since(table))}:R>"
    link = board_link(table, record)
    where = f" · [board]({link})" if link else ""
    return f"{head} · {who} {waited}{where}"


def lobby_line(table: Table, record: BoardRecord) -> str:
    """One lobby: title, number, seats taken, a link to its message."""
    ui = get_ui(table.game)
    seats = f"{len(table.seats)}/{table.rules.max_players} {noun(table.rules.max_players, 'seat', 'seats')}"
    link = ""
    if record.lobby_message_id is not None:
        link = f" · [lobby](https://discord.com/channels/{table.guild_id}/{table.channel_id}/{record.lobby_message_id})"
    return f"{ui.emoji} **{ui.title}** #{table.id} · lobby, {seats}{link}"


def games_text(tables: Sequence[Table], user_id: int, records: Mapping[int, BoardRecord]) -> str:
    """The answer to /games for one user's open tables in one server."""
    if not tables:
        return "You have no open table in this server. Open one with `/play`."
    ordered = order(tables, user_id)
    shown = ordered[:MAX_LISTED]
    lines = ["🎲 **Your tables here**"]
    for table in shown:
        record = records[table.id]
        lines.append(
            game_line(table, user_id, record)
            if table.status is TableStatus.PLAYING
            else lobby_line(table, record)
        )
    if len(ordered) > len(shown):
        lines.append(f"-# … and {len(ordered) - len(shown)} more.")
    return text.clip_content("\n".join(lines))


class MyGames(commands.Cog):
    """The /games command."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Your open tables in this server, shown only to you")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        """List the asker's lobbies and games in this server, their own moves first."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            tables = await self.bot.tables.tables_of_user(interaction.user.id)
        except TableError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        here = [t for t in tables if t.guild_id == interaction.guild_id and _known(t)]
        records = {t.id: await self.bot.tables.store.board(t.id) for t in here}
        await interaction.followup.send(games_text(here, interaction.user.id, records), ephemeral=True)


def _known(table: Table) -> bool:
    try:
        get_ui(table.game)
    except KeyError:
        return False
    return True


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(MyGames(bot))
