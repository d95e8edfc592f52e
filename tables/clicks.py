"""The journal of acknowledged clicks and slash commands: what a restart owes the people whose
click or command it cut short (a command's row is kept from before its defer to after its answer).

A click is journalled (one row) before the bot acknowledges it, and the row goes when the
click is done: in the very transaction that stores the move it made (Store.save closes the
click of the running task, see `current`), or right after the answer otherwise. A row found
at start-up is a click the last process acknowledged and never finished: its player is
answered through the interaction's webhook while Discord still accepts it (ANSWER_WINDOW),
then the row is deleted. The token in a row is a secret while it lives: never logged.

Why the row is a write of its own (one more per click than the move's): it must be stored
before the acknowledgement and the move after it, so no one transaction can hold both. Only
storing a quick move before acknowledging its click would save it, at the price of Discord's
"interaction failed" for a move played just before a crash; the restart tests
(tests/e2e/test_cut_clicks.py) pin the acknowledgement before the move.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field

ANSWER_WINDOW = 15 * 60.0
"""Seconds Discord accepts follow-up messages through an interaction's token."""


@dataclass(slots=True)
class PendingClick:
    """One acknowledged click not yet done; `closed` once its row is gone."""

    id: int
    """The interaction's id."""
    application_id: int
    token: str = field(repr=False)
    """The interaction's token: a secret for ANSWER_WINDOW, so kept out of repr and logs."""
    table_id: int | None
    move: bool
    """Whether the click plays a move (its answer says "not played")."""
    created_at: float
    guild_id: int | None = None
    """The server the click came from (None: a direct message); with no table, it decides the shard."""
    language: str | None = None
    """The language its answer after a restart is in: the clicker's for private answers (None: English,
    a row journalled before the language was kept)."""
    command: str | None = None
    """A slash command's name as its user's client shows it, with its slash ("/play tomatoes");
    None for a component click. Its answer after a restart says the command may not be done."""
    closed: bool = False


current: contextvars.ContextVar[PendingClick | None] = contextvars.ContextVar("meeple_click", default=None)
"""The click the running task handles; the save that stores a person's move deletes its row."""
