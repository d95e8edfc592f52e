"""While you were away: the turn ping tells a player what happened since their last move.

A few lines at most, only events that both the pinged seat and every reader of the thread
may see (the board message is public), with the full log one click away (`/game log`'s view).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cogs.games.base import Tone
from cogs.platform import text
from cogs.platform.ids import LATEST_PAGE, LogRef
from cogs.platform.layout import ButtonSpec
from tables.models import Table
from tables.service import TableService

log = logging.getLogger("meeple.cogs.away")

AWAY_LINES = 4
"""At most this many lines of summary per pinged player."""
MAX_ROWS = 5
"""Discord: at most 5 rows of components per message."""


def away_lines(
    table: Table,
    rows: Sequence[Any],
    seat: int,
    shown: Sequence[str] = (),
    audience: int | None = None,
) -> list[str]:
    """What happened since `seat`'s last own move, in words, newest last; at most AWAY_LINES.

    `rows` is the action log (Store.actions); events must be visible to `seat` and to
    `audience` (None: everyone, for a public message; the seat itself for a private one).
    Lines the board caption already shows (`shown`) are left out.
    """
    last = max((i for i, row in enumerate(rows) if row.seat == seat and row.source == "human"), default=-1)
    rules = table.rules
    w = text.spoken(table)
    names = text.shown_names(table)
    skip = set(shown)
    lines: list[str] = []
    for row in rows[last + 1 :]:
        if row.undone:
            continue
        for event in row.events:
            if not (event.visible(seat) and event.visible(audience)):
                continue
            line = rules.describe(event, names, words=w)
            if line:
                line = text.discord_escape_log(line)
                if line not in skip:
                    lines.append(line)
    stood_in = {row.seat for row in rows[last + 1 :] if row.source == "bot"}
    for index, info in enumerate(table.seats):
        if index != seat and info.replaced and index in stood_in:
            lines.append(
                w.gettext("{player} left; a bot plays their seat.", player=text.discord_escape(info.name))
            )
    if len(lines) > AWAY_LINES:
        hidden = len(lines) - (AWAY_LINES - 1)
        lines = [
            w.ngettext(
                "… {count} earlier event: see the full log (`/game log`)",
                "… {count} earlier events: see the full log (`/game log`)",
                hidden,
            ),
            *lines[-(AWAY_LINES - 1) :],
        ]
    return lines


async def with_summary(service: TableService, table: Table, board: Any, shown: Sequence[str]) -> Any:
    """The board (presenter.Board) with a "while you were away" summary for each pinged player
    and a Full log button; unchanged when nobody is pinged or nothing is left to tell."""
    if not board.ping_ids or table.state is None:
        return board
    try:
        rows = await service.actions(table.id)
    except Exception:
        # The summary is a courtesy: the board and its ping go out without it.
        log.exception("table %s: no away summary", table.id)
        return board
    w = text.spoken(table)
    parts = []
    for user_id in board.ping_ids:
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        lines = away_lines(table, rows, seat, shown)
        if lines:
            name = text.discord_escape(table.seats[seat].name)
            parts.append(w.gettext("**While you were away, {player}:**", player=name))
            parts.extend(f"-# ↪ {line}" for line in lines)
    if not parts:
        return board
    content = text.clip_content(board.content + "\n" + "\n".join(parts))
    rows_out = list(board.rows)
    log_button = ButtonSpec(
        LogRef(table.id, LATEST_PAGE).custom_id(), w.gettext("Full log"), Tone.NORMAL, "📜"
    )
    if len(rows_out) < MAX_ROWS:
        rows_out.append((log_button,))
    return replace(board, content=content, rows=rows_out)
