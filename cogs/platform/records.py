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
from cogs.platform.text import clip_content, names_of, reader, seat_name
from engine import recordfile
from engine.core import Record
from engine.words import ENGLISH, N_, Words
from renderers import replay
from renderers.image_file import file_name
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
        super().__init__(
            N_("Table #{table} is still being played: its replay comes when the game ends."), table=table_id
        )


async def table_in_guild(service: TableService, table_id: int, guild_id: int | None) -> Table:
    """Table `table_id` if it was played in this server (other servers' tables are not found)."""
    try:
        table = await service.get(table_id)
    except NoSuchTable:
        table = None
    if table is None or table.guild_id != guild_id or table.status is TableStatus.CANCELLED:
        raise TableError(N_("There is no table #{table} in this server."), table=table_id)
    if table.seed is None:
        raise TableError(N_("Table #{table} never started: it has no game to show."), table=table_id)
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
        raise TableError(
            N_("Table #{table} has no commitment to its seed, so it has no record to check."), table=table.id
        )
    record = await service.record(table.id)
    data = await asyncio.to_thread(record_document, table, record)
    name = f"meeple-table-{table.id}.json"
    w = reader(interaction)
    if table.over:
        words = w.gettext(
            "The record of table #{table}, its seed revealed. Anyone can check every roll with"
            " Meeple's open source: `python -m engine.verify {file}`.",
            table=table.id,
            file=name,
        )
    else:
        words = w.gettext(
            "The record of table #{table} so far. The seed stays secret until the game ends;"
            " then this file reveals it and every roll can be checked.",
            table=table.id,
        )
    await interaction.followup.send(words, file=discord.File(io.BytesIO(data), filename=name), ephemeral=True)


# -- /game history --------------------------------------------------------------


def history_line(table: Table, link: str | None, w: Words = ENGLISH) -> str:
    """One finished game: number, game, players by rank with scores, when it ended, a link."""
    ui = get_ui(table.game)
    outcome = table.outcome
    players = [seat_name(seat, w) for seat in table.seats]
    if outcome is not None and len(table.seats) > 1:
        order = sorted(range(len(table.seats)), key=lambda s: (outcome.ranks[s], s))
        ranked = ", ".join(
            ("🥇 " if outcome.ranks[s] == 1 else "") + f"{players[s]} {outcome.scores[s]}" for s in order
        )
    elif outcome is not None:
        ranked = f"{players[0]}: {outcome.scores[0]}"
    else:
        ranked = ", ".join(players)
    where = " · " + w.gettext("[thread]({link})", link=link) if link else ""
    game = w.gettext(ui.title)
    return f"**#{table.id}** {ui.emoji} {game} · {ranked} · <t:{int(table.updated_at)}:R>{where}"


def history_rows(page: int, pages: int, w: Words = ENGLISH) -> list[Row]:
    """Older/newer buttons, when there is more than one page."""
    if pages <= 1:
        return []
    row: list[ButtonSpec] = []
    if page > 0:
        row.append(ButtonSpec(HistoryRef(page - 1).custom_id(), w.gettext("Newer"), emoji="◀"))
    if page < pages - 1:
        row.append(ButtonSpec(HistoryRef(page + 1).custom_id(), w.gettext("Older"), emoji="▶"))
    return [tuple(row)]


async def history_page(
    service: TableService, guild_id: int, page: int, w: Words = ENGLISH
) -> tuple[str, list[Row]]:
    """The text and buttons of one page of the server's finished games."""
    tables, total = await service.finished_in_guild(guild_id, offset=page * HISTORY_PAGE, limit=HISTORY_PAGE)
    if total == 0:
        return w.gettext("No game has finished in this server yet: `/play` opens a table."), []
    pages = -(-total // HISTORY_PAGE)
    if not tables:
        raise TableError(N_("That page of the history is gone: run /game history again."))
    head = w.ngettext(
        "🏁 Finished games in this server, newest first (page {page} of {pages}, {count} in all):",
        "🏁 Finished games in this server, newest first (page {page} of {pages}, {count} in all):",
        total,
        page=page + 1,
        pages=pages,
    )
    lines = [head, *[history_line(table, await board_messages.link(service, table), w) for table in tables]]
    lines.append(w.gettext("-# `/game replay table:<number>` replays one; `/game record` gives its record."))
    return clip_content("\n".join(lines)), history_rows(page, pages, w)


async def show_history(
    interaction: discord.Interaction[Any], service: TableService, page: int, *, edit: bool
) -> None:
    """Send (or, from a page button, edit to) one page of the history, privately."""
    if interaction.guild_id is None:
        raise TableError(N_("The history is kept per server: use the command in a server."))
    if edit and not await views.on_its_message(interaction):
        raise TableError(views.NOT_ON_MESSAGE)
    content, rows = await history_page(service, interaction.guild_id, page, reader(interaction))
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


def step_rows(table_id: int, turn: int, last: int, w: Words = ENGLISH) -> list[Row]:
    """First, previous, next and last turn (slots keep the custom_ids of one message apart)."""
    row: list[ButtonSpec] = []
    if turn > 1:
        row.append(ButtonSpec(ReplayRef(table_id, 1, 0).custom_id(), w.gettext("First"), emoji="⏮"))
        row.append(ButtonSpec(ReplayRef(table_id, turn - 1, 1).custom_id(), w.gettext("Previous"), emoji="◀"))
    if turn < last:
        row.append(ButtonSpec(ReplayRef(table_id, turn + 1, 2).custom_id(), w.gettext("Next"), emoji="▶"))
        row.append(ButtonSpec(ReplayRef(table_id, last, 3).custom_id(), w.gettext("Last"), emoji="⏭"))
    return [tuple(row)]


def turn_caption(table: Table, turn: replay.Turn, last: int, w: Words = ENGLISH) -> str:
    """What a step of the replay says: the table, the turn and who was to move."""
    ui = get_ui(table.game)
    head = w.gettext(
        "{emoji} Replay of table #{table} · turn {turn} of {last}",
        emoji=ui.emoji,
        table=table.id,
        turn=turn.number,
        last=last,
    )
    if turn.final:
        return w.gettext("{head}: the final board.", head=head)
    movers = [seat_name(table.seats[s], w) for s in turn.seats if s < len(table.seats)]
    if not movers:
        return f"{head}."
    return w.gettext("{head}: {players} to move.", head=head, players=w.join(movers))


async def send_replay(
    interaction: discord.Interaction[Any], service: TableService, table: Table, drawing: DrawingPool
) -> None:
    """Answer privately with the game as an animation, and buttons to step through it turn by turn."""
    if not table.over:
        raise NotOver(table.id)
    # One replay through the engine serves the animation and the turn-by-turn steps.
    turns = await turns_of(service, table)
    w = reader(interaction)
    animation = await drawing.run(replay.animation_of, table.game, turns, names_of(table), w.language)
    last = len(turns)
    ui = get_ui(table.game)
    rows: list[Row] = [
        (
            ButtonSpec(ReplayRef(table.id, 1, 0).custom_id(), w.gettext("Turn by turn"), emoji="▶"),
            ButtonSpec(ReplayRef(table.id, last, 3).custom_id(), w.gettext("Final board"), emoji="⏭"),
        )
    ]
    limit = interaction.guild.filesize_limit if interaction.guild is not None else 10 * 1024 * 1024
    if len(animation.data) > limit:
        # Too large to attach here: the turn-by-turn view needs one board at a time.
        await show_turn(interaction, service, table, drawing, 1, first=True)
        return
    content = w.ngettext(
        "{emoji} Replay of table #{table} ({game}): {count} turn, one frame each. The buttons step"
        " through it here, just for you.",
        "{emoji} Replay of table #{table} ({game}): {count} turns, one frame each. The buttons step"
        " through it here, just for you.",
        last,
        emoji=ui.emoji,
        table=table.id,
        game=w.gettext(ui.title),
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
        raise TableError(N_("That turn is not in this game's replay."))
    turn = turns[number - 1]
    w = reader(interaction)
    image = await drawing.run(replay.turn_file, table.game, turn, names_of(table), w.language)
    file = discord.File(io.BytesIO(image), filename=file_name(f"table-{table.id}-turn-{number}", image))
    content = turn_caption(table, turn, last, w)
    view = views.build_view(step_rows(table.id, number, last, w))
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
