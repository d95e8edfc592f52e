"""Play over days on Discord: the lobby's pace and standing-answer selects, and /game info."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import text
from cogs.platform.ids import LobbyOp, LobbyRef
from cogs.platform.layout import OptionItem, Row, SelectSpec
from tables.errors import NotSeated, TableError
from tables.models import Table, TableStatus
from tables.paces import LABELS, Pace, describe, duration, timing_for
from tables.players import STANDING_LABELS, StandingAnswer
from tables.service import TableService

PACE_EMOJI = {Pace.LIVE: "⚡", Pace.DAILY: "📅", Pace.RELAXED: "🌿"}


def lobby_rows(table: Table) -> list[Row]:
    """The lobby's extra selects: the pace (host) and, for games with optional choices, each seat's answer."""
    rows: list[Row] = [
        SelectSpec(
            LobbyRef(table.id, LobbyOp.PACE).custom_id(),
            "⏱️ Pace (host): live, daily or relaxed",
            tuple(OptionItem(LABELS[pace], pace.value, PACE_EMOJI[pace]) for pace in Pace),
        )
    ]
    what = get_ui(table.game).optional_choices
    if what is not None:
        rows.append(
            SelectSpec(
                LobbyRef(table.id, LobbyOp.ANSWER).custom_id(),
                f"🙋 Your answer to {what}"[:150],
                tuple(OptionItem(label, answer.value, None) for answer, label in STANDING_LABELS.items()),
            )
        )
    return rows


def lobby_line(table: Table) -> str:
    """The lobby's line saying the pace in words."""
    return f"-# ⏱️ {describe(table.timing, optional=get_ui(table.game).optional_choices is not None)}"


async def lobby_select(interaction: discord.Interaction[Any], ref: LobbyRef, values: Sequence[str]) -> Table:
    """Carry out the pace or standing-answer select of a lobby; return the table after it."""
    service: TableService = interaction.client.tables
    if len(values) != 1:
        raise TableError("Pick one of the choices.")
    if ref.op is LobbyOp.PACE:
        try:
            timing = timing_for(values[0])
        except ValueError:
            raise TableError("That pace is not one I know.") from None
        table = await service.get(ref.table)
        if table.status is not TableStatus.LOBBY:
            raise TableError("The game has begun: its pace is set.")
        return await service.set_timing(ref.table, interaction.user.id, timing)
    try:
        answer = StandingAnswer(values[0])
    except ValueError:
        raise TableError("That answer is not one I know.") from None
    table = await service.get(ref.table)
    if table.seat_of(interaction.user.id) is None:
        raise NotSeated("Join the table first: this answer is for your seat.")
    await service.players.set_seat_answer(table.id, interaction.user.id, answer)
    await interaction.followup.send(
        f"At table #{table.id} your answer to {get_ui(table.game).optional_choices} is now:"
        f" {STANDING_LABELS[answer].lower()}.",
        ephemeral=True,
    )
    return table


def info_text(table: Table, service: TableService, link: str | None = None) -> str:
    """/game info: table number, game, options, pace, seats (bots with their level), whose move since when."""
    ui = get_ui(table.game)
    lines = [f"{ui.emoji} **{ui.title}** · table #{table.id} · {table.status.value}"]
    summary = ui.option_summary(table.options)
    if summary:
        lines.append(f"**Options:** {summary}")
    lines.append(describe(table.timing, optional=get_ui(table.game).optional_choices is not None))
    lines.append("**Seats:**")
    to_move = set(table.to_move)
    now = service.clock()
    for number, seat in enumerate(table.seats, 1):
        if seat.is_bot and seat.replaced:
            who = f"{text.discord_escape(seat.name)} (a {seat.bot} bot plays for them)"
        elif seat.is_bot:
            who = text.seat_name(seat)  # "Bot (easy)": the level once
        else:
            who = f"<@{seat.user_id}>"
        turn = ""
        if number - 1 in to_move:
            since = seat.idle_since if seat.idle_since is not None and not seat.is_bot else table.updated_at
            turn = f" · **to move** for {duration(max(0.0, now - since))} (since <t:{int(since)}:f>)"
        lines.append(f"{number}. {who}{turn}")
    if table.status is TableStatus.PLAYING and not to_move:
        lines.append("Nobody is to move right now.")
    if link is not None and table.status is TableStatus.PLAYING:
        lines.append(f"The board: {link}")
    lines.append(f"-# Opened <t:{int(table.created_at)}:f> · {_ago(now - table.created_at)} ago")
    return text.clip_content("\n".join(lines))


def _ago(seconds: float) -> str:
    return duration(max(1.0, seconds)) if seconds >= 60 else "moments"
