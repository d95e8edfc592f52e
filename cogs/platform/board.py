"""What a board message shows: its caption, image and components, and who the board awaits."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from cogs.games import get_ui
from cogs.games.base import GameUI
from cogs.platform import text
from cogs.platform.drawing import DrawJob
from cogs.platform.layout import Row, main_rows
from cogs.platform.views import build_view
from engine.core import Prompt
from renderers.image_file import file_name
from tables.models import Table, TableStatus, Update, UpdateKind

log = logging.getLogger("meeple.cogs.board")


@dataclass(frozen=True, slots=True)
class Step:
    """One update waiting to be shown: its version, log lines, and whether it began a turn."""

    version: int
    lines: tuple[str, ...]
    turn_began: bool
    new_to_move: frozenset[int]
    undo: bool = False
    """A move taken back: the board goes back whatever the log says."""


def step(ui: GameUI, update: Update) -> Step:
    """What an update adds to its table's board: its visible log lines and who it set to move."""
    table = update.table
    rules = table.rules
    names = text.shown_names(table)
    w = text.spoken(table)
    lines = []
    began = update.kind is UpdateKind.START
    for logged in update.events:
        began = began or ui.starts_turn(logged.event)
        if logged.event.visible(None):
            line = rules.describe(logged.event, names, words=w)
            if line:
                lines.append(text.discord_escape_log(line))
    fresh = set(update.new_to_move)
    if began:
        fresh |= set(table.to_move)
    return Step(table.version, tuple(lines), began, frozenset(fresh), update.kind is UpdateKind.UNDO)


def bot_continues(update: Update) -> bool:
    """Whether a bot moved and is still the one awaited: the middle of a bot's turn."""
    if update.kind is not UpdateKind.BOT_MOVE or update.seat is None or update.outcome is not None:
        return False
    table = update.table
    return table.is_bot(update.seat) and awaited_seats(table) == (update.seat,)


@dataclass(frozen=True, slots=True)
class Board:
    """A board message ready to send: caption, image, components."""

    content: str
    image: bytes | None
    rows: list[Row]
    ping_ids: tuple[int, ...]

    def file(self) -> discord.File | None:
        """The image as an upload, or None when the game has no renderer."""
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), filename=file_name("board", self.image))

    def view(self) -> discord.ui.View | None:
        """The components, or None when nobody human is to move."""
        return build_view(self.rows) if self.rows else None

    def mentions(self) -> discord.AllowedMentions:
        """Ping exactly the players newly to move; never roles, everyone or spectators."""
        users = [discord.Object(uid) for uid in self.ping_ids]
        return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def board_job(table: Table, seat: int | None = None) -> DrawJob | None:
    """What drawing the table as `seat` sees it (None: a spectator) needs; None when the game has no image."""
    try:
        from renderers import has_renderer  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    if not has_renderer(table.game) or table.state is None:
        return None
    view = table.view(seat)
    extra = {} if seat is None else get_ui(table.game).render_options(view, seat, table.prompt_for(seat))
    return DrawJob(table.game, view, seat, tuple(text.names_of(table)), dict(extra), language=table.language)


def render_board(table: Table, seat: int | None = None) -> bytes | None:
    """The table as `seat` sees it (None: a spectator); None when the game has no renderer. Blocking."""
    try:
        job = board_job(table, seat)
        return None if job is None else job.draw()
    except (KeyError, LookupError, NotImplementedError):
        return None
    except Exception:
        # A drawing bug must not stop the game: the caption and buttons still go out.
        log.exception("table %s: could not draw the board", table.id)
        return None


def awaited_seats(table: Table) -> tuple[int, ...]:
    """The seats the game waits for: an open prompt that is not optional (Prompt.optional).

    Only these count as "to move" for the board: a change among them posts a new message and
    pings; an optional decision (Buttons' gold die for the non-rollers) edits the board quietly.
    """
    return tuple(sorted({p.seat for p in table.prompts if not p.optional}))


def bots_move_next(table: Table) -> bool:
    """Whether only bots are awaited (a person's optional decision aside): their move shows next."""
    movers = awaited_seats(table)
    return bool(movers) and all(table.is_bot(seat) for seat in movers)


def human_prompts(table: Table) -> list[Prompt]:
    """The open prompts a person answers with buttons (a seat a bot stands in for included)."""
    return [p for p in table.prompts if not table.is_bot(p.seat) or table.seats[p.seat].replaced]


def compose(
    table: Table,
    lines: Sequence[str],
    ping_seats: set[int],
    image: bytes | None,
    question: str | None = None,
    page: int = 0,
    first: bool = False,
) -> Board:
    """The caption and components of a table's current board (`first`: the game's first board)."""
    ui = get_ui(table.game)
    names = text.names_of(table)
    state = table.state
    rules = table.rules
    prompts = human_prompts(table)
    view = table.view(None)
    shown = text.shown_names(table)
    w = text.spoken(table)
    questions = (
        [question] if question is not None else [ui.question(view, p, shown, words=w) for p in prompts]
    )
    undo_seats = [
        seat
        for seat, info in enumerate(table.seats)
        if not info.is_bot and table.status is TableStatus.PLAYING and rules.can_undo(state, seat)
    ]
    private = rules.hidden_information and table.status is TableStatus.PLAYING
    rows = (
        main_rows(table.id, table.version, ui, view, prompts, names, undo_seats, page, private, w)
        if prompts or private
        else []
    )
    awaited = awaited_seats(table)
    ping_ids = tuple(
        info.user_id
        for seat, info in enumerate(table.seats)
        if seat in ping_seats and seat in awaited and not info.is_bot and info.user_id is not None
    )
    content = text.board_text(ui, table, lines, "\n".join(questions), ping_ids, first)
    return Board(content, image, rows, ping_ids)
