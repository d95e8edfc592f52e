"""A throwaway PostgreSQL cluster for the tests, from the server installed on the machine.

One cluster per test process (each xdist worker starts its own): initdb into a temporary folder,
the server on a free port of 127.0.0.1 (and a socket in that folder), durability off since the
data is thrown away, stopped and deleted at exit. PostgreSQL refuses to run as root, so under
root it runs as the `postgres` user the Debian package creates (or `meeple-pg`, created here).
The tables' fixtures (tests/tables/conftest.py) make one database in it and empty it before each test.
"""

from __future__ import annotations

import atexit
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

SERVER_SETTINGS = (
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "shared_buffers=32MB",
    "max_connections=200",
)
"""Throwaway data: nothing is worth a disk flush."""


class NoPostgres(RuntimeError):
    """No PostgreSQL server is installed here (`apt-get install -y postgresql`)."""


def server_bin() -> Path:
    """The folder of the newest installed PostgreSQL server's programs (MEEPLE_PG_BIN overrides)."""
    given = os.environ.get("MEEPLE_PG_BIN")
    if given:
        return Path(given)
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name),
        reverse=True,
    )
    if found:
        return found[0].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoPostgres("no PostgreSQL server found: apt-get install -y postgresql (or set MEEPLE_PG_BIN)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _server_user() -> str | None:
    """Who runs the server: None for this user, unless this is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "meeple-pg"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "meeple-pg"],
        check=True,
        capture_output=True,
    )
    return "meeple-pg"


@dataclass
class Cluster:
    """A running throwaway cluster."""

    folder: Path
    port: int
    user: str | None
    bin: Path

    @classmethod
    def start(cls) -> Cluster:
        """initdb and start a cluster in a new temporary folder; stopped at exit."""
        binaries = server_bin()
        user = _server_user()
        folder = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        cluster = cls(folder, _free_port(), user, binaries)
        atexit.register(cluster.stop)
        cluster._run(
            "initdb", "-D", str(folder / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        options = " ".join(
            [f"-p {cluster.port}", "-c listen_addresses=127.0.0.1", f"-k {folder}"]
            + [f"-c {setting}" for setting in SERVER_SETTINGS]
        )
        cluster._run(
            "pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "log"), "-o", options, "-w", "start"
        )
        return cluster

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr or done.stdout}\n{tail}")

    def url(self, database: str = "postgres") -> str:
        """The URL of one of its databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def fresh_database(self, name: str) -> str:
        """A new empty database `name` (dropped first if it exists); its URL."""
        import asyncpg

        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name}")
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        if not self.folder.exists():
            return
        with suppress(RuntimeError):  # already stopped: only the folder is left
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
