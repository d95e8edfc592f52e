"""`/game log`: a table's log in words, paged with Older and Newer buttons, private to the asker.

Each reader sees only the events their seat may see (Event.visible); spectators only the
public ones.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.games import get_ui
from cogs.games.base import Tone
from cogs.platform import text
from cogs.platform.ids import LATEST_PAGE, LogRef
from cogs.platform.layout import ButtonSpec, Row
from cogs.platform.views import build_view
from engine.words import ENGLISH, N_, Words
from tables.errors import TableError
from tables.models import Table
from tables.service import TableService

PAGE_LINES = 15
"""Log lines per page (well within a message's 2000 characters)."""


def log_lines(table: Table, logged: list[Any], seat: int | None, w: Words = ENGLISH) -> list[str]:
    """The game's events in `w`'s words, as `seat` (None: a spectator) may see them, oldest first."""
    rules = table.rules
    names = text.shown_names(table)
    lines = []
    for entry in logged:
        if not entry.event.visible(seat):
            continue
        line = rules.describe(entry.event, names, words=w)
        if line:
            lines.append(text.discord_escape_log(line))
    return lines


def reader_seat(table: Table, user_id: int) -> int | None:
    """The seat whose view a user reads the log with (None: a spectator)."""
    return table.seat_of(user_id)


def page_message(table: Table, lines: list[str], page: int, w: Words = ENGLISH) -> dict[str, Any]:
    """Content and Older/Newer buttons for one page (page 0: the oldest lines; clamped), in `w`'s words."""
    pages = max(1, -(-len(lines) // PAGE_LINES))
    page = min(max(page, 0), pages - 1)
    ui = get_ui(table.game)
    head = w.gettext(
        "📜 {emoji} **{game}** · table #{table} · log",
        emoji=ui.emoji,
        game=w.gettext(ui.title),
        table=table.id,
    )
    if not lines:
        return {"content": f"{head}\n{w.gettext('Nothing has happened yet.')}", "view": None}
    # The newest page is always a full one (it may overlap the page before it).
    first = min(page * PAGE_LINES, max(0, len(lines) - PAGE_LINES))
    shown = lines[first : first + PAGE_LINES]
    body = "\n".join(f"• {line}" for line in shown)
    where = w.gettext(
        "-# lines {first}-{last} of {total} · page {page} of {pages}",
        first=first + 1,
        last=first + len(shown),
        total=len(lines),
        page=page + 1,
        pages=pages,
    )
    buttons: list[ButtonSpec] = []
    if page > 0:
        buttons.append(
            ButtonSpec(LogRef(table.id, page - 1).custom_id(), w.gettext("Older"), Tone.NORMAL, "◀️")
        )
    if page < pages - 1:
        buttons.append(
            ButtonSpec(LogRef(table.id, page + 1).custom_id(), w.gettext("Newer"), Tone.NORMAL, "▶️")
        )
    rows: list[Row] = [tuple(buttons)] if buttons else []
    return {
        "content": text.clip_content(f"{head}\n{where}\n{body}"),
        "view": build_view(rows) if rows else None,
    }


async def log_page(
    service: TableService, table: Table, user_id: int, page: int = LATEST_PAGE, w: Words = ENGLISH
) -> dict[str, Any]:
    """One page of a table's log as `user_id` may read it, in `w`'s words."""
    if table.state is None:
        raise TableError(N_("This table has no game log yet: its game has not started."))
    logged = await service.log(table.id)
    return page_message(table, log_lines(table, logged, reader_seat(table, user_id), w), page, w)


async def log_click(interaction: discord.Interaction[Any], ref: LogRef) -> None:
    """Older/Newer on a private log page (edited in place), or "Full log" on a board (a new private page)."""
    service: TableService = interaction.client.tables
    table = await service.get(ref.table)
    kwargs = await log_page(service, table, interaction.user.id, ref.page, text.reader(interaction))
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.edit_original_response(**kwargs)
        return
    if kwargs["view"] is None:
        del kwargs["view"]
    await interaction.followup.send(**kwargs, ephemeral=True)
