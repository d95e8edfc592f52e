"""Looking back: /game history, /game replay (an animation, then turn by turn) and /game record."""

from __future__ import annotations

import asyncio
import collections
import io
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import board_messages, views
from cogs.platform.drawing import DrawingPool
from cogs.platform.ids import HistoryRef, ReplayRef
from cogs.platform.layout import ButtonSpec, Row
from cogs.platform.text import clip_content, names_of, seat_name
from engine import recordfile
from engine.core import Record
from engine.words import count
from renderers import replay
from tables.errors import NoSuchTable, TableError
from tables.models import Table, TableStatus
from tables.service import TableService

HISTORY_PAGE = 10
"""Finished games per page of /game history."""
KEPT_REPLAYS = 8
"""Replayed games kept in memory for stepping through them (finished games never change)."""

_turns: collections.OrderedDict[int, list[replay.Turn]] = collections.OrderedDict()


class NotOver(TableError):
    """A replay asked of a game still being played."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"Table #{table_id} is still being played: its replay comes when the game ends.")


async def table_in_guild(service: TableService, table_id: int, guild_id: int | None) -> Table:
    """Table `table_id` if it was played in this server (other servers' tables are not found)."""
    try:
        table = await service.get(table_id)
    except NoSuchTable:
        table = None
    if table is None or table.guild_id != guild_id or table.status is TableStatus.CANCELLED:
        raise TableError(f"There is no table #{table_id} in this server.")
    if table.seed is None:
        raise TableError(f"Table #{table_id} never started: it has no game to show.")
    return table


# -- /game record ---------------------------------------------------------------


def record_document(table: Table, record: Record) -> bytes:
    """The record file of a table: the seed and salt only once the game is over. Blocking."""
    assert table.salt is not None
    names = names_of(table)
    document = recordfile.build(record, table.salt, reveal=table.over, table=table.id, players=names)
    return recordfile.dumps(document).encode("utf-8")


async def send_record(interaction: discord.Interaction[Any], service: TableService, table: Table) -> None:
    """Answer privately with the table's record as a JSON file."""
    if table.salt is None:
        raise TableError(f"Table #{table.id} has no commitment to its seed, so it has no record to check.")
    record = await service.record(table.id)
    data = await asyncio.to_thread(record_document, table, record)
    name = f"meeple-table-{table.id}.json"
    if table.over:
        words = (
            f"The record of table #{table.id}, its seed revealed. Anyone can check every roll with"
            f" Meeple's open source: `python -m engine.verify {name}`."
        )
    else:
        words = (
            f"The record of table #{table.id} so far. The seed stays secret until the game ends;"
            " then this file reveals it and every roll can be checked."
        )
    await interaction.followup.send(words, file=discord.File(io.BytesIO(data), filename=name), ephemeral=True)


# -- /game history --------------------------------------------------------------


def history_line(table: Table, link: str | None) -> str:
    """One finished game: number, game, players by rank with scores, when it ended, a link."""
    ui = get_ui(table.game)
    outcome = table.outcome
    players = [seat_name(seat) for seat in table.seats]
    if outcome is not None and len(table.seats) > 1:
        order = sorted(range(len(table.seats)), key=lambda s: (outcome.ranks[s], s))
        ranked = ", ".join(
            ("🥇 " if outcome.ranks[s] == 1 else "") + f"{players[s]} {outcome.scores[s]}" for s in order
        )
    elif outcome is not None:
        ranked = f"{players[0]}: {outcome.scores[0]}"
    else:
        ranked = ", ".join(players)
    where = f" · [thread]({link})" if link else ""
    return f"**#{table.id}** {ui.emoji} {ui.title} · {ranked} · <t:{int(table.updated_at)}:R>{where}"


def history_rows(page: int, pages: int) -> list[Row]:
    """Older/newer buttons, when there is more than one page."""
    if pages <= 1:
        return []
    row: list[ButtonSpec] = []
    if page > 0:
        row.append(ButtonSpec(HistoryRef(page - 1).custom_id(), "Newer", emoji="◀"))
    if page < pages - 1:
        row.append(ButtonSpec(HistoryRef(page + 1).custom_id(), "Older", emoji="▶"))
    return [tuple(row)]


async def history_page(service: TableService, guild_id: int, page: int) -> tuple[str, list[Row]]:
    """The text and buttons of one page of the server's finished games."""
    tables, total = await service.finished_in_guild(guild_id, offset=page * HISTORY_PAGE, limit=HISTORY_PAGE)
    if total == 0:
        return "No game has finished in this server yet: `/play` opens a table.", []
    pages = -(-total // HISTORY_PAGE)
    if not tables:
        raise TableError("That page of the history is gone: run /game history again.")
    head = f"🏁 Finished games in this server, newest first (page {page + 1} of {pages}, {total} in all):"
    lines = [head, *[history_line(table, await board_messages.link(service, table)) for table in tables]]
    lines.append("-# `/game replay table:<number>` replays one; `/game record` gives its record.")
    return clip_content("\n".join(lines)), history_rows(page, pages)


async def show_history(
    interaction: discord.Interaction[Any], service: TableService, page: int, *, edit: bool
) -> None:
    """Send (or, from a page button, edit to) one page of the history, privately."""
    if interaction.guild_id is None:
        raise TableError("The history is kept per server: use the command in a server.")
    if edit and not await views.on_its_message(interaction):
        raise TableError(views.NOT_ON_MESSAGE)
    content, rows = await history_page(service, interaction.guild_id, page)
    view = views.build_view(rows) if rows else None
    if edit:
        await interaction.edit_original_response(content=content, view=view)
    elif view is not None:
        await interaction.followup.send(content, view=view, ephemeral=True)
    else:
        await interaction.followup.send(content, ephemeral=True)


# -- /game replay ---------------------------------------------------------------


async def turns_of(service: TableService, table: Table) -> list[replay.Turn]:
    """The turns of a finished table, replayed from its record once and kept for stepping."""
    known = _turns.get(table.id)
    if known is not None:
        _turns.move_to_end(table.id)
        return known
    record = await service.record(table.id)
    found = await asyncio.to_thread(replay.turns, record)
    _turns[table.id] = found
    while len(_turns) > KEPT_REPLAYS:
        _turns.popitem(last=False)
    return found


def step_rows(table_id: int, turn: int, last: int) -> list[Row]:
    """First, previous, next and last turn (slots keep the custom_ids of one message apart)."""
    row: list[ButtonSpec] = []
    if turn > 1:
        row.append(ButtonSpec(ReplayRef(table_id, 1, 0).custom_id(), "First", emoji="⏮"))
        row.append(ButtonSpec(ReplayRef(table_id, turn - 1, 1).custom_id(), "Previous", emoji="◀"))
    if turn < last:
        row.append(ButtonSpec(ReplayRef(table_id, turn + 1, 2).custom_id(), "Next", emoji="▶"))
        row.append(ButtonSpec(ReplayRef(table_id, last, 3).custom_id(), "Last", emoji="⏭"))
    return [tuple(row)]


def turn_caption(table: Table, turn: replay.Turn, last: int) -> str:
    """What a step of the replay says: the table, the turn and who was to move."""
    ui = get_ui(table.game)
    head = f"{ui.emoji} Replay of table #{table.id} · turn {turn.number} of {last}"
    if turn.final:
        return f"{head}: the final board."
    movers = [seat_name(table.seats[s]) for s in turn.seats if s < len(table.seats)]
    return f"{head}: {' and '.join(movers)} to move." if movers else f"{head}."


async def send_replay(
    interaction: discord.Interaction[Any], service: TableService, table: Table, drawing: DrawingPool
) -> None:
    """Answer privately with the game as an animation, and buttons to step through it turn by turn."""
    if not table.over:
        raise NotOver(table.id)
    # One replay through the engine serves the animation and the turn-by-turn steps.
    turns = await turns_of(service, table)
    animation = await drawing.run(replay.animation_of, table.game, turns, names_of(table))
    last = len(turns)
    ui = get_ui(table.game)
    rows: list[Row] = [
        (
            ButtonSpec(ReplayRef(table.id, 1, 0).custom_id(), "Turn by turn", emoji="▶"),
            ButtonSpec(ReplayRef(table.id, last, 3).custom_id(), "Final board", emoji="⏭"),
        )
    ]
    limit = interaction.guild.filesize_limit if interaction.guild is not None else 10 * 1024 * 1024
    if len(animation.data) > limit:
        # Too large to attach here: the turn-by-turn view needs one board at a time.
        await show_turn(interaction, service, table, drawing, 1, first=True)
        return
    content = (
        f"{ui.emoji} Replay of table #{table.id} ({ui.title}): {count(last, 'turn', 'turns')},"
        " one frame each."
        " The buttons step through it here, just for you."
    )
    file = discord.File(io.BytesIO(animation.data), filename=animation.filename)
    await interaction.followup.send(content, file=file, view=views.build_view(rows), ephemeral=True)


async def show_turn(
    interaction: discord.Interaction[Any],
    service: TableService,
    table: Table,
    drawing: DrawingPool,
    number: int,
    *,
    first: bool = False,
) -> None:
    """Show one turn of a replay on the private replay message (or as a new one)."""
    if not table.over:
        raise NotOver(table.id)
    turns = await turns_of(service, table)
    last = len(turns)
    if not 1 <= number <= last:
        raise TableError("That turn is not in this game's replay.")
    turn = turns[number - 1]
    png = await drawing.run(replay.turn_png, table.game, turn, names_of(table))
    file = discord.File(io.BytesIO(png), filename=f"table-{table.id}-turn-{number}.png")
    content = turn_caption(table, turn, last)
    view = views.build_view(step_rows(table.id, number, last))
    if first:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)
    else:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)


async def step(
    interaction: discord.Interaction[Any], service: TableService, drawing: DrawingPool, ref: ReplayRef
) -> None:
    """A replay button: show the chosen turn in place."""
    if not await views.on_its_message(interaction):
        raise TableError(views.NOT_ON_MESSAGE)
    table = await table_in_guild(service, ref.table, interaction.guild_id)
    await show_turn(interaction, service, table, drawing, ref.turn)
