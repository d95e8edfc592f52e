"""How a click or a command is acknowledged at once and its failure answered privately."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, TypeVar, cast

import discord

from cogs.platform import board_messages
from tables.errors import GameNotRunning, StaleVersion, TableError
from tables.models import Table, TableStatus
from tables.service import TableService

log = logging.getLogger("meeple.cogs")

SlashCallback = TypeVar("SlashCallback", bound=Callable[..., Coroutine[Any, Any, None]])
"""A slash command's callback in a cog: (cog, interaction, its options)."""

MALFORMED = "That button is not one I know; use the buttons of the latest board."
OOPS = "Something went wrong on my side; the game is unchanged. Please try again."
WATCHER = "You are not playing at this table, but you are welcome to watch."


class BadButton(TableError):
    """A custom_id or select value that does not parse or points at nothing."""

    message = MALFORMED


def stale_click_answer(table: Table | None, user_id: int, link: str | None = None) -> str:
    """The answer to a click on a component no longer live: the game over, a watcher, or an old board."""
    if table is not None and not table.status.is_open:
        return GameNotRunning.message
    # A watcher learns they are not playing, not that the board they never could use moved on.
    if table is not None and table.seat_of(user_id) is None:
        return WATCHER
    return out_of_date(table, link)


def out_of_date(table: Table | None, link: str | None = None) -> str:
    """The answer to a click on an old board: short, with a link to the current board when known."""
    link = link if table is not None and table.status is TableStatus.PLAYING else None
    return f"That board is out of date: use the latest one: {link}" if link else StaleVersion.message


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
) -> AsyncIterator[None]:
    """Acknowledge the interaction at once (privately, "thinking", unless `private` is False), then
    answer a failure of what runs inside privately: a TableError's text, else OOPS (logged).

    An out-of-date click on `table_id` is answered with a link to its current board.
    """
    if private:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    try:
        yield
    except StaleVersion as exc:
        table = await current_table(service, table_id, None) if service is not None else None
        link = (
            await board_messages.link(service, table) if service is not None and table is not None else None
        )
        await interaction.followup.send(
            out_of_date(table, link) if table is not None else str(exc), ephemeral=True
        )
    except TableError as exc:
        await interaction.followup.send(str(exc), ephemeral=True)
    except Exception:
        log.exception("%s failed", what)
        await interaction.followup.send(OOPS, ephemeral=True)


def answered(what: str) -> Callable[[SlashCallback], SlashCallback]:
    """A slash command's callback, run `deferred`: acknowledged privately, its failure answered."""

    def wrap(command: SlashCallback) -> SlashCallback:
        # functools.wraps keeps the signature discord.py reads the command's options from.
        @functools.wraps(command)
        async def run(cog: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any) -> None:
            async with deferred(interaction, what):
                await command(cog, interaction, *args, **kwargs)

        return cast(SlashCallback, run)

    return wrap
