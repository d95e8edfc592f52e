"""Refusals the table layer raises: a short sentence for the user, in English and in their language.

Each refusal keeps its message as written (an English template marked for the catalog) and its
fields, or a function of the reader's Words (for a count: `lambda w: w.ngettext(...)`), so the
cogs say it in the reader's language with `said(words)`; str() is the English.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from engine.words import ENGLISH, N_, Words

Wording = Callable[[Words], str]
"""A refusal said in any language: given the reader's Words, the sentence."""


class TableError(Exception):
    """Base of every refusal; its text is a short user-facing sentence."""

    message = N_("That cannot be done right now.")

    def __init__(self, message: str | Wording | None = None, /, **fields: object) -> None:
        self.template: str | Wording = message or self.message
        self.fields = fields
        super().__init__(self.said(ENGLISH))

    def said(self, words: Words) -> str:
        """The refusal in `words`' language, its fields filled."""
        if callable(self.template):
            return self.template(words)
        return words.gettext(self.template, **self.fields)


class NoSuchTable(TableError):
    """The table id is unknown."""

    message = N_("That game table no longer exists.")


class UnknownGame(TableError):
    """No game has that id."""

    message = N_("There is no such game.")


class BadTableOptions(TableError):
    """The options given for the game are not valid."""

    message = N_("Those options are not valid for this game.")


class UnknownBot(TableError):
    """The game has no bot policy of that name."""

    message = N_("This game has no bot of that kind.")


class LobbyFull(TableError):
    """Every seat of the lobby is taken."""

    message = N_("This table is full.")


class AlreadySeated(TableError):
    """The user already holds a seat at the table."""

    message = N_("You are already seated at this table.")


class NotSeated(TableError):
    """The user holds no seat at the table."""

    message = N_("You are not seated at this table.")


class NotHost(TableError):
    """Only the table's host may do this."""

    message = N_("Only the host of this table can do that.")


class NotAllowed(TableError):
    """The user may not do this (not the host, a server manager or the right seat)."""

    message = N_("You are not allowed to do that.")


class LobbyClosed(TableError):
    """The table is no longer a lobby: it started or ended."""

    message = N_("This game has already started or ended.")


class GameNotRunning(TableError):
    """The table is not being played (still a lobby, or over)."""

    message = N_("This game is not in progress.")


class GameOver(GameNotRunning):
    """The game has ended: a click on one of its boards plays nothing."""

    message = N_("This game is over.")


class NotEnoughPlayers(TableError):
    """Too few seats are filled to start."""

    message = N_("There are not enough players to start.")


class NotYourTurn(TableError):
    """The user's seat has nothing to decide now."""

    message = N_("It is not your turn.")


class StaleVersion(TableError):
    """The button or command was built for an earlier position of the game."""

    message = N_("That board is out of date: use the latest one.")


class IllegalMove(TableError):
    """The move is not among the seat's options now."""

    message = N_("That move is not allowed now.")


class NotYourUndo(NotSeated):
    """An undo button pressed by someone other than the player whose move it takes back."""

    message = N_("Only that player can undo their own move.")


class NothingToUndo(TableError):
    """The seat has no action of its own that may be taken back."""

    message = N_("There is nothing of yours to undo.")


class StoreUnavailable(TableError):
    """The database failed; the game is unchanged."""

    message = N_("The game could not be saved, so nothing changed. Please try again.")


class StorePaused(StoreUnavailable):
    """The database cannot be written for a lasting reason (disk full, read-only, I/O error)."""

    message = N_(
        "This game is paused: I cannot save games right now, so nothing changed."
        " The bot's operator can see why in its log."
    )


class DatabaseProblem(Enum):
    """Why the database could not be opened at start-up (bot.py maps each to an exit code)."""

    LOCKED = "locked"
    IS_A_FOLDER = "is a folder"
    NO_FOLDER = "no folder"
    FOLDER_NOT_WRITABLE = "folder not writable"
    READ_ONLY = "read-only"
    CANNOT_OPEN = "cannot open"
    NOT_A_DATABASE = "not a database"
    DAMAGED = "damaged"
    TOO_NEW = "too new"
    DISK_FULL = "disk full"
    MIGRATION_FAILED = "migration failed"


class StoreOpenError(StoreUnavailable):
    """The database cannot be used at start-up; str() is one line for the operator: what and where."""

    def __init__(self, problem: DatabaseProblem, line: str) -> None:
        super().__init__(line)
        self.problem = problem

    def said(self, words: Words) -> str:
        """The operator's line as written (it names a path: never a catalog message)."""
        return str(self.template)
