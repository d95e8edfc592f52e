"""The database file: its folder, the one-process lock on it, and what a SQLite error means."""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import stat
from pathlib import Path

from engine.words import ENGLISH
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
    """An OS lock on the database file itself, held while the process runs; a crash releases it at once.

    It belongs to the file, not to the name given: a symbolic or a hard link to a served
    database meets the same lock. It is a flock(2) lock, which on Linux is independent of
    the POSIX (fcntl) locks SQLite takes on the same file; the descriptor must stay open
    until the store is closed, since closing any descriptor of a file drops every POSIX
    lock this process holds on it.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, db_path: Path) -> DatabaseLock:
        """Take the lock of the database at `db_path` (creating an empty file), or refuse: it is held."""
        prepare_folder(db_path)
        try:
            # Read-only is enough for flock (a read-only file is refused later with its own status);
            # non-blocking, so a FIFO named as the database does not hang the start.
            fd = os.open(db_path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
        except OSError as exc:
            if not db_path.exists():
                raise _folder_error(db_path, exc) from None
            raise StoreOpenError(
                DatabaseProblem.CANNOT_OPEN, f"cannot open the database {db_path}: {exc.strerror}"
            ) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise StoreOpenError(
                DatabaseProblem.NOT_A_DATABASE,
                f"{db_path} is not a regular file, so not a database: check MEEPLE_DB",
            )
        try:
            # flock belongs to the open file: it goes when the process exits, however it exits.
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _lock_holder(os.fstat(fd))
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreOpenError(
                    DatabaseProblem.CANNOT_OPEN, f"cannot lock the database {db_path}: {exc.strerror}"
                ) from None
            who = f" (pid {holder})" if holder else ""
            raise StoreOpenError(
                DatabaseProblem.LOCKED,
                f"another Meeple process{who} is using the database {db_path}: stop it first,"
                " or give this one its own MEEPLE_DB",
            ) from None
        return cls(Path(os.path.realpath(db_path)), fd)

    def release(self) -> None:
        """Let another process take the database (closing the file drops the lock); after the store closes."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> DatabaseLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock_holder(held: os.stat_result, locks: Path = Path("/proc/locks")) -> int | None:
    """The pid holding a flock on this file, from Linux's lock table (None if it cannot be told)."""
    try:
        lines = locks.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    same_inode: list[int] = []
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 7933 fe:00:2146737 0 EOF"; waiters are marked "->".
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK":
            continue
        major, minor, inode = [*fields[5].split(":"), "", "", ""][:3]
        if not (fields[4].isdigit() and inode.isdigit() and int(inode) == held.st_ino):
            continue
        try:
            device = os.makedev(int(major, 16), int(minor, 16))
        except ValueError:
            device = -1
        if device == held.st_dev:
            return int(fields[4])
        # Some file systems (overlayfs, btrfs) show another device number than stat gives.
        same_inode.append(int(fields[4]))
    return same_inode[0] if len(same_inode) == 1 else None


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
    if code == SQLITE_FULL or (code == SQLITE_IOERR and _nearly_full(Path(db_path).parent)):
        # SQLite reports a shared-memory file it could not grow (SQLITE_IOERR_SHMSIZE) as an I/O
        # error without its errno: a new database on a disk with 12 KB free fails that way.
        return StoreOpenError(
            DatabaseProblem.DISK_FULL, f"the disk holding the database {db_path} is full: free some space"
        )
    if code in (SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR) or not migrating:
        return StoreOpenError(DatabaseProblem.CANNOT_OPEN, f"cannot open the database {db_path}: {exc}")
    return StoreOpenError(
        DatabaseProblem.MIGRATION_FAILED, f"the database {db_path} could not be brought up to date: {exc}"
    )


NEARLY_FULL_BYTES = 1 << 20
"""Below this much free space an I/O error while opening is taken for a full disk."""


def _nearly_full(folder: Path) -> bool:
    """Whether the file system holding `folder` has (almost) no space left for this process."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    # Root may also write into the blocks reserved for it.
    blocks = stats.f_bfree if os.geteuid() == 0 else stats.f_bavail
    return blocks * stats.f_frsize < NEARLY_FULL_BYTES


def damaged(db_path: str, report: list[str]) -> StoreOpenError:
    """The one-line start-up error for a database whose integrity check found problems."""
    # SQLite packs several problems into one row, one a line, under a "*** in database main ***" heading.
    problems = [
        line.strip()
        for row in report
        for line in row.splitlines()
        if line.strip() and not line.lstrip().startswith("*** in database")
    ]
    first = problems[0] if problems else "integrity check failed"
    if len(problems) > 1:
        first = ENGLISH.ngettext(
            "{first} and {count} more problem",
            "{first} and {count} more problems",
            len(problems) - 1,
            first=first,
        )
    return StoreOpenError(
        DatabaseProblem.DAMAGED,
        f"the database {db_path} is damaged ({first}): restore it from a backup",
    )
