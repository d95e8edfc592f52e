"""The database file: its folder, the one-process lock beside it, and what a SQLite error means."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
from pathlib import Path

from engine.words import count
from tables.errors import DatabaseProblem, StoreOpenError

# SQLite's primary result codes (the low byte of an extended code), https://sqlite.org/rescode.html
SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

LASTING_CODES = frozenset(
    {SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB}
)
"""Failures that do not go away by trying again: the disk, the file or its permissions need a person."""


def primary_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code of an error raised by sqlite3, if it carries one."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_lasting(exc: sqlite3.Error) -> bool:
    """Whether a database error persists until someone fixes the disk or the file (not busy, not a bug)."""
    return primary_code(exc) in LASTING_CODES


def lock_path(db_path: Path) -> Path:
    """The lock file beside the database."""
    return db_path.with_name(db_path.name + ".lock")


def prepare_folder(db_path: Path) -> None:
    """Check that the database can live at `db_path`, creating its folder (one level) if missing."""
    if db_path.is_dir():
        raise StoreOpenError(
            DatabaseProblem.IS_A_FOLDER,
            f"the database path {db_path} is a folder, not a file: set MEEPLE_DB to a file inside it",
        )
    folder = db_path.parent
    if not folder.exists():
        try:
            # Only the last level: a missing grandparent is more likely a typo in MEEPLE_DB.
            folder.mkdir()
        except FileNotFoundError:
            raise StoreOpenError(
                DatabaseProblem.NO_FOLDER,
                f"the folder {folder} of the database {db_path} does not exist, nor does {folder.parent}:"
                " create them or fix MEEPLE_DB",
            ) from None
        except OSError as exc:
            raise _folder_error(db_path, exc) from None
    if not folder.is_dir():
        raise StoreOpenError(
            DatabaseProblem.NO_FOLDER,
            f"{folder} is not a folder, so the database {db_path} cannot live in it: fix MEEPLE_DB",
        )


def _folder_error(db_path: Path, exc: OSError) -> StoreOpenError:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return StoreOpenError(
            DatabaseProblem.FOLDER_NOT_WRITABLE,
            f"the folder {db_path.parent} is not writable by this user ({exc.strerror}); SQLite keeps its"
            f" journal and a lock file beside the database {db_path}",
        )
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return StoreOpenError(
            DatabaseProblem.NO_FOLDER,
            f"the folder {db_path.parent} of the database {db_path} does not exist:"
            " create it or fix MEEPLE_DB",
        )
    return StoreOpenError(
        DatabaseProblem.CANNOT_OPEN,
        f"cannot use the folder {db_path.parent} of the database {db_path}: {exc}",
    )


def check_folder_writable(db_path: Path) -> None:
    """Refuse a folder this process cannot create files in (the WAL journal lives there)."""
    if not os.access(db_path.parent, os.W_OK | os.X_OK):
        raise _folder_error(db_path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))


class DatabaseLock:
    """An OS lock on `<database>.lock`, held while the process runs; a crash releases it at once."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, db_path: Path) -> DatabaseLock:
        """Take the lock of the database at `db_path`, or refuse: another process holds it."""
        prepare_folder(db_path)
        path = lock_path(db_path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if not path.exists():
                raise _folder_error(db_path, exc) from None
            raise StoreOpenError(
                DatabaseProblem.CANNOT_OPEN,
                f"cannot open the lock file {path} of the database {db_path}: {exc.strerror}",
            ) from None
        try:
            # flock belongs to the open file: it goes when the process exits, however it exits.
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreOpenError(
                    DatabaseProblem.CANNOT_OPEN,
                    f"cannot lock the database {db_path} ({path}): {exc.strerror}",
                ) from None
            who = f" (pid {holder})" if holder else ""
            raise StoreOpenError(
                DatabaseProblem.LOCKED,
                f"another Meeple process{who} is using the database {db_path}: stop it first,"
                " or give this one its own MEEPLE_DB",
            ) from None
        # The holder's pid, for the message a second process prints (a full disk only loses it).
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    def release(self) -> None:
        """Let another process take the database (closing the file drops the lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> DatabaseLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(os.pread(fd, 32, 0).decode().strip())
    return None


def open_error(db_path: str, exc: sqlite3.Error, *, migrating: bool = False) -> StoreOpenError:
    """The one-line start-up error for a SQLite failure while opening or migrating the database."""
    code = primary_code(exc)
    if code == SQLITE_NOTADB:
        return StoreOpenError(
            DatabaseProblem.NOT_A_DATABASE, f"{db_path} is not a SQLite database: check MEEPLE_DB"
        )
    if code == SQLITE_CORRUPT:
        return StoreOpenError(
            DatabaseProblem.DAMAGED, f"the database {db_path} is damaged ({exc}): restore it from a backup"
        )
    if code == SQLITE_READONLY:
        return StoreOpenError(
            DatabaseProblem.READ_ONLY,
            f"the database {db_path} is read-only: make the file writable by this user",
        )
    if code == SQLITE_FULL:
        return StoreOpenError(DatabaseProblem.DISK_FULL, f"the disk holding the database {db_path} is full")
    if code in (SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR) or not migrating:
        return StoreOpenError(DatabaseProblem.CANNOT_OPEN, f"cannot open the database {db_path}: {exc}")
    return StoreOpenError(
        DatabaseProblem.MIGRATION_FAILED, f"the database {db_path} could not be brought up to date: {exc}"
    )


def damaged(db_path: str, report: list[str]) -> StoreOpenError:
    """The start-up error for a database whose integrity check found problems."""
    first = report[0] if report else "integrity check failed"
    more = f" and {count(len(report) - 1, 'more problem', 'more problems')}" if len(report) > 1 else ""
    return StoreOpenError(
        DatabaseProblem.DAMAGED,
        f"the database {db_path} is damaged ({first}{more}): restore it from a backup",
    )
