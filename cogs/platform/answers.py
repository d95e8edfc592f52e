"""How a click or a command is acknowledged at once and its failure answered privately."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any, TypeVar, cast

import discord

from cogs.platform import board_messages, clicks
from cogs.platform.ids import ActRef, GroupRef, MainRef, MineRef, PickRef, UndoRef
from cogs.platform.text import reader
from engine.words import N_, Words
from tables.errors import GameNotRunning, IllegalMove, NotSeated, StaleVersion, TableError
from tables.models import Table, TableStatus
from tables.service import TableService

log = logging.getLogger("meeple.cogs")

SlashCallback = TypeVar("SlashCallback", bound=Callable[..., Coroutine[Any, Any, None]])
"""A slash command's callback in a cog: (cog, interaction, its options)."""
ClickCallback = TypeVar("ClickCallback", bound=Callable[..., Coroutine[Any, Any, None]])
"""A component click's handler in a cog: (cog, interaction, reference, select values)."""

MALFORMED = N_("That button is not one I know; use the buttons of the latest board.")
OOPS = N_("Something went wrong on my side; the game is unchanged. Please try again.")
WATCHER = N_("You are not playing at this table, but you are welcome to watch.")

TURN_REFUSALS: dict[type[TableError], str] = {NotSeated: WATCHER, IllegalMove: MALFORMED}
"""How a click on a board words the service's refusals of these kinds (by exact kind: NotYourUndo
has its own words)."""
TURN_REFS = (ActRef, GroupRef, MainRef, PickRef, UndoRef, MineRef)
"""The references of a board's components (their refusals are worded as TURN_REFUSALS says)."""


class BadButton(TableError):
    """A custom_id or select value that does not parse or points at nothing."""

    message = MALFORMED


def refusal(exc: TableError, w: Words, *, turn: bool = False) -> str:
    """A refusal in the asker's language: its kind's words (a board click's own for some kinds)."""
    if turn and type(exc) in TURN_REFUSALS:
        return w.gettext(TURN_REFUSALS[type(exc)])
    return exc.said(w)


def stale_click_answer(table: Table | None, user_id: int, w: Words, link: str | None = None) -> str:
    """The answer to a click on a component no longer live: the game over, a watcher, or an old board."""
    if table is not None and not table.status.is_open:
        return w.gettext(GameNotRunning.message)
    # A watcher learns they are not playing, not that the board they never could use moved on.
    if table is not None and table.seat_of(user_id) is None:
        return w.gettext(WATCHER)
    return out_of_date(table, w, link)


def out_of_date(table: Table | None, w: Words, link: str | None = None) -> str:
    """The answer to a click on an old board: short, with a link to the current board when known."""
    link = link if table is not None and table.status is TableStatus.PLAYING else None
    if link:
        return w.gettext("That board is out of date: use the latest one: {link}", link=link)
    return w.gettext(StaleVersion.message)


async def current_table(service: TableService, table_id: int | None, channel_id: int | None) -> Table | None:
    """The table a click was about (by id, else by the thread it was made in), or None."""
    try:
        if table_id is not None:
            return await service.get(table_id)
        if channel_id is not None:
            return await service.table_for_thread(channel_id)
    except TableError:
        pass
    return None


@contextlib.asynccontextmanager
async def deferred(
    interaction: discord.Interaction[Any],
    what: str,
    service: TableService | None = None,
    table_id: int | None = None,
    *,
    private: bool = True,
    turn: bool = False,
) -> AsyncIterator[None]:
    """Acknowledge the interaction at once (privately, "thinking", unless `private` is False), then
    answer a failure of what runs inside privately, in the asker's language: a TableError's
    words (`refusal`; a board click's own for some kinds when `turn`), else OOPS (logged).

    An out-of-date click on `table_id` is answered with a link to its current board.
    """
    if private:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    w = reader(interaction)
    try:
        yield
    except StaleVersion as exc:
        table = await current_table(service, table_id, None) if service is not None else None
        link = (
            await board_messages.link(service, table) if service is not None and table is not None else None
        )
        await interaction.followup.send(
            out_of_date(table, w, link) if table is not None else refusal(exc, w), ephemeral=True
        )
    except TableError as exc:
        await interaction.followup.send(refusal(exc, w, turn=turn), ephemeral=True)
    except Exception:
        log.exception("%s failed", what)
        await interaction.followup.send(w.gettext(OOPS), ephemeral=True)


def answered(what: str) -> Callable[[SlashCallback], SlashCallback]:
    """A slash command's callback, run `deferred`: acknowledged privately, its failure answered;
    journalled until answered (a restart in between answers it, cogs/platform/clicks.py)."""

    def wrap(command: SlashCallback) -> SlashCallback:
        # functools.wraps keeps the signature discord.py reads the command's options from.
        @functools.wraps(command)
        async def run(cog: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any) -> None:
            async with clicks.journalled_command(interaction), deferred(interaction, what):
                await command(cog, interaction, *args, **kwargs)

        return cast(SlashCallback, run)

    return wrap


def clicked(handler: ClickCallback) -> ClickCallback:
    """A component click's handler in a cog, run `deferred`: acknowledged at once (publicly, as
    it may edit the board), a refusal of the service worded privately for the clicker."""

    @functools.wraps(handler)
    async def run(cog: Any, interaction: discord.Interaction[Any], ref: Any, values: Sequence[str]) -> None:
        table_id = getattr(ref, "table", None)
        turn = isinstance(ref, TURN_REFS)
        async with deferred(interaction, f"component {ref}", cog.service, table_id, private=False, turn=turn):
            await handler(cog, interaction, ref, values)

    return cast(ClickCallback, run)
