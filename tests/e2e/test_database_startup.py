"""bot.py refuses a database it cannot use: one line saying what and where, a distinct exit status."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import bot as botmod
from tables.errors import DatabaseProblem
from tables.migrations import SCHEMA_VERSION
from tests.e2e.botprocess import ROOT, BotProcess, child_env
from tests.e2e.conftest import World

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2


def without_root_override() -> None:
    """In the child before exec: root loses the right to ignore file modes, so chmod binds it too."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_bot(db: Path, cwd: Path, *, honour_modes: bool = False) -> tuple[int, str]:
    """bot.py on `db` (Discord at a closed loopback port: nothing leaves the machine); status, output."""
    env = child_env(
        DISCORD_TOKEN="t",
        MEEPLE_DB=str(db),
        MEEPLE_LOG_LEVEL="INFO",
        MEEPLE_DISCORD_API_BASE=f"http://127.0.0.1:{closed_port()}/api/v10",
    )
    preexec: Callable[[], None] | None = None
    if honour_modes and os.geteuid() == 0:
        preexec = without_root_override
    try:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bot.py")],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=60,
            preexec_fn=preexec,
        )
    except subprocess.SubprocessError as exc:
        if preexec is None:
            raise
        pytest.skip(f"running as root without the right to drop CAP_DAC_OVERRIDE: {exc}")
    return done.returncode, done.stdout.decode(errors="replace")


def assert_one_line(out: str, *words: str) -> None:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    assert "ERROR" in lines[0] and "Traceback" not in out
    for word in words:
        assert word in lines[0], out


def make_database(path: Path) -> None:
    """A real Meeple database with a few hundred rows in it."""
    code, out = run_bot_migrate(path)
    assert code == 0, out
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT INTO tables (game, guild_id, channel_id, host_id, status, options, created_at,"
            " updated_at) VALUES ('race', 1, 2, 3, 'lobby', ?, 0, 0)",
            [("{" + '"pad": "' + "x" * 400 + '"}',) for _ in range(300)],
        )
    raw.close()


def run_bot_migrate(path: Path) -> tuple[int, str]:
    code = "import asyncio, sys\nfrom tables import Store\n"
    code += "async def main():\n    await (await Store.open(sys.argv[1])).close()\nasyncio.run(main())\n"
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True)
    return done.returncode, done.stderr


def exit_code(problem: DatabaseProblem) -> int:
    return botmod.EXIT_DATABASE[problem]


def test_every_reason_has_its_own_exit_status() -> None:
    codes = [botmod.EXIT_STOPPED, botmod.EXIT_BUG, botmod.EXIT_SETTINGS]
    codes += [botmod.EXIT_TOKEN_REFUSED, botmod.EXIT_DISCORD_UNREACHABLE, botmod.EXIT_DISCORD_FAILED]
    codes += [botmod.EXIT_DATABASE[p] for p in DatabaseProblem]
    assert len(codes) == len(set(codes)) and set(botmod.EXIT_DATABASE) == set(DatabaseProblem)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "meeple.sqlite3"
    db.write_bytes(os.urandom(5000))
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.NOT_A_DATABASE)
    assert_one_line(out, str(db), "not a SQLite database")


def test_a_fifo_named_as_the_database_is_refused_at_once(tmp_path: Path) -> None:
    """Opening a FIFO to lock it would wait for a writer forever: it is not a database file."""
    db = tmp_path / "meeple.sqlite3"
    os.mkfifo(db)
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.NOT_A_DATABASE)
    assert_one_line(out, str(db), "not a regular file", "MEEPLE_DB")


def test_a_truncated_database(tmp_path: Path) -> None:
    db = tmp_path / "meeple.sqlite3"
    make_database(db)
    with db.open("r+b") as file:
        file.truncate(db.stat().st_size // 2)
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.DAMAGED)
    assert_one_line(out, str(db), "damaged", "backup")


def test_a_database_with_a_damaged_page(tmp_path: Path) -> None:
    db = tmp_path / "meeple.sqlite3"
    make_database(db)
    size = db.stat().st_size
    with db.open("r+b") as file:
        # A page in the middle (not the schema on page 1) overwritten with noise.
        file.seek((size // 4096 // 2) * 4096)
        file.write(os.urandom(4096))
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.DAMAGED)
    assert_one_line(out, str(db), "damaged")


def test_a_database_with_many_damaged_cells_is_one_line(tmp_path: Path) -> None:
    """SQLite reports the problems of one page in one row, a line each: the log still gets one line."""
    db = tmp_path / "meeple.sqlite3"
    make_database(db)
    data = db.read_bytes()
    # Table leaves holding rows (not the empty root page of a table with none: each schema step
    # adding a table adds one).
    leaves = [
        n
        for n in range(1, len(data) // 4096)
        if data[n * 4096] == 0x0D and int.from_bytes(data[n * 4096 + 3 : n * 4096 + 5], "big") > 0
    ]
    # The cell pointers of a table leaf near the middle point past the end of the page. On some
    # pages SQLite's check stops at the first bad cell (which pages depends on the rows' sizes,
    # so on the schema): the nearest leaf whose cells it reports one by one.
    middle = leaves[len(leaves) // 2]
    for leaf in sorted(leaves, key=lambda n: (abs(n - middle), n))[:8]:
        damaged = bytearray(data)
        damaged[leaf * 4096 + 8 : leaf * 4096 + 24] = b"\xff" * 16
        for leftover in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            leftover.unlink(missing_ok=True)  # a journal of the try before would apply to this copy
        db.write_bytes(bytes(damaged))
        code, out = run_bot(db, tmp_path)
        if "out of range" in out:
            break
    assert code == exit_code(DatabaseProblem.DAMAGED)
    assert_one_line(out, str(db), "damaged", "out of range", "backup")
    # Eight cell pointers point out of the page: at least eight problems, the first one named. How
    # many more SQLite finds depends on the page chosen (which shifts with the rows' sizes).
    more = re.search(r"and (\d+) more problems", out)
    assert more is not None and int(more.group(1)) >= 7, out


def test_a_database_from_a_newer_meeple(tmp_path: Path) -> None:
    db = tmp_path / "meeple.sqlite3"
    make_database(db)
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 3}")
    raw.close()
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.TOO_NEW)
    assert_one_line(out, str(db), f"schema {SCHEMA_VERSION + 3}", "newer")


def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "meeple.sqlite3"
    make_database(db)
    db.chmod(0o444)
    code, out = run_bot(db, tmp_path, honour_modes=True)
    assert code == exit_code(DatabaseProblem.READ_ONLY)
    assert_one_line(out, str(db), "read-only")


def test_a_folder_it_cannot_write_in(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "meeple.sqlite3"
    make_database(db)
    for leftover in folder.glob("meeple.sqlite3?*"):
        leftover.unlink()
    folder.chmod(0o555)
    try:
        code, out = run_bot(db, tmp_path, honour_modes=True)
    finally:
        folder.chmod(0o755)
    assert code == exit_code(DatabaseProblem.FOLDER_NOT_WRITABLE)
    assert_one_line(out, str(folder), "not writable")


def test_a_folder_given_as_the_database(tmp_path: Path) -> None:
    code, out = run_bot(tmp_path, tmp_path)
    assert code == exit_code(DatabaseProblem.IS_A_FOLDER)
    assert_one_line(out, str(tmp_path), "is a folder", "MEEPLE_DB")


@pytest.mark.parametrize("where", ["missing/deeper", "a-file"])
def test_a_folder_that_does_not_exist(tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file").write_text("")
    db = tmp_path / where / "meeple.sqlite3"
    code, out = run_bot(db, tmp_path)
    assert code == exit_code(DatabaseProblem.NO_FOLDER)
    assert_one_line(out, str(db), "MEEPLE_DB")
    assert not (tmp_path / "missing").exists()


def test_a_path_with_a_line_break_is_refused_on_one_line(tmp_path: Path) -> None:
    """A line break in MEEPLE_DB would split the line naming the path: the setting is refused, named."""
    code, out = run_bot(tmp_path / "two\nlines" / "deeper" / "meeple.sqlite3", tmp_path)
    assert code == botmod.EXIT_SETTINGS
    lines = out.strip().splitlines()
    assert len(lines) == 1 and "MEEPLE_DB" in lines[0] and "lines" not in lines[0], out


def test_only_the_last_missing_folder_is_created(tmp_path: Path) -> None:
    # The usual first start: data/ does not exist yet. Discord is unreachable, so it stops there.
    code, out = run_bot(tmp_path / "data" / "meeple.sqlite3", tmp_path)
    assert code == botmod.EXIT_DISCORD_UNREACHABLE, out
    assert (tmp_path / "data" / "meeple.sqlite3").is_file()


SMALL_DISK = 1024 * 1024
NO_MOUNT = 97
# In a mount namespace of its own: a small tmpfs (holding a copy of $4 if given) filled up to
# $2 bytes free, then bot.py on it. The mount goes away with the process, whatever happens.
ON_A_SMALL_DISK = """
mount -t tmpfs -o size=$3 meeple-test "$1" || exit 97
if [ -n "$4" ]; then cp "$4" "$1/meeple.sqlite3" || exit 98; fi
avail=$(( $(stat -f -c '%a*%S' "$1") ))
head -c $(( avail - $2 )) /dev/zero > "$1/filler"
shift 4
exec "$@"
"""


@pytest.mark.parametrize(("database", "free_kb"), [("new", 12), ("new", 32), ("existing", 12)])
def test_a_database_on_a_full_disk(tmp_path: Path, database: str, free_kb: int) -> None:
    """With a few KB free SQLite reports an I/O error (it cannot grow its -shm file): the disk is full."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare(1) to mount a small file system")
    source = ""
    if database == "existing":
        source = str(tmp_path / "made.sqlite3")
        code, out = run_bot_migrate(Path(source))
        assert code == 0, out
    disk = tmp_path / "disk"
    disk.mkdir()
    db = disk / "meeple.sqlite3"
    env = child_env(
        DISCORD_TOKEN="t",
        MEEPLE_DB=str(db),
        MEEPLE_DISCORD_API_BASE=f"http://127.0.0.1:{closed_port()}/api/v10",
    )
    script = ["sh", "-c", ON_A_SMALL_DISK, "sh", str(disk), str(free_kb * 1024), str(SMALL_DISK), source]
    bot = [sys.executable, str(ROOT / "bot.py")]
    command = ["unshare", "--mount", "--propagation", "private", *script, *bot]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, timeout=60)
    out = (done.stdout + done.stderr).decode(errors="replace")
    if done.returncode == NO_MOUNT or "unshare failed" in out:
        pytest.skip(f"cannot mount a tmpfs here: {out.strip()}")
    assert done.returncode == exit_code(DatabaseProblem.DISK_FULL), out
    assert_one_line(out, str(db), "disk", "is full")


async def test_a_second_process_on_the_same_database_is_refused(
    world: World, bot_process: Callable[[], BotProcess]
) -> None:
    first = bot_process()
    await first.start()
    await first.wait_output("ready as")
    # Every process writes to one log file: wait for the first's last start-up line too, so the
    # second's share of the log holds only the second's own lines.
    await first.wait_output("table service started")
    assert first.proc is not None
    second = bot_process()
    mark = len(second.output())
    await second.start()
    assert await second.wait_exit() == exit_code(DatabaseProblem.LOCKED)
    refusal = second.output()[mark:].replace("--- start ---", "")
    assert_one_line(refusal, str(world.db_path), "another Meeple process", f"pid {first.proc.pid}")
    # The first one is untouched and still serving.
    assert first.proc.returncode is None

    # A crash releases the lock at once: a restart right after SIGKILL starts.
    await first.kill()
    third = bot_process()
    mark = len(third.output())
    await third.start()
    await third.wait_output("ready as", after=mark)
    assert await third.terminate() == 0


@pytest.mark.parametrize("link", ["symlink", "hard link"])
async def test_a_second_process_through_another_name_is_refused(
    world: World, bot_process: Callable[[], BotProcess], tmp_path: Path, link: str
) -> None:
    """The lock belongs to the file: a second name for a served database meets it too."""
    first = bot_process()
    await first.start()
    await first.wait_output("table service started")
    assert first.proc is not None
    other = tmp_path / "elsewhere"
    other.mkdir()
    alias = other / "alias.sqlite3"
    if link == "symlink":
        alias.symlink_to(world.db_path)
    else:
        os.link(world.db_path, alias)
    env = child_env(
        DISCORD_TOKEN=world.fake.token,
        MEEPLE_DB=str(alias),
        MEEPLE_LOG_LEVEL="INFO",
        MEEPLE_DISCORD_API_BASE=world.fake.api_base,
    )
    second = BotProcess(env, tmp_path, tmp_path / "second.log")
    await second.start()
    try:
        assert await second.wait_exit() == exit_code(DatabaseProblem.LOCKED)
    finally:
        await second.kill()
    refusal = second.output().replace("--- start ---", "")
    assert_one_line(refusal, str(alias), "another Meeple process", f"pid {first.proc.pid}")
    assert first.proc.returncode is None
    assert len(world.fake.identifies) == 1, "the second process never reached Discord"
