"""Meeple's entry point: settings, logging, the store, the cogs, command sync, clean shutdown."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import hashlib
import importlib
import json
import logging
import pkgutil
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
from discord.ext import commands

from cogs.platform.translator import CatalogTranslator
from logs import setup_logging
from renderers.text import FontsMissing, check_fonts
from settings import Settings, SettingsError, load_settings
from tables import Store, TableService, open_store
from tables.clock import OffsetClock
from tables.database import DatabaseLock
from tables.errors import DatabaseProblem, StoreOpenError
from tables.shards import ShardSet

log = logging.getLogger("meeple")

# Exit statuses, one per reason to stop (README.md, "Settings", lists them for operators).
EXIT_STOPPED = 0
EXIT_BUG = 1
"""Python's own status for an uncaught exception: a bug, with its traceback in the log."""
EXIT_SETTINGS = 2
EXIT_TOKEN_REFUSED = 3
EXIT_DISCORD_UNREACHABLE = 4
EXIT_DISCORD_FAILED = 5
EXIT_FONTS = 6
EXIT_DATABASE = {
    DatabaseProblem.LOCKED: 10,
    DatabaseProblem.IS_A_FOLDER: 11,
    DatabaseProblem.NO_FOLDER: 12,
    DatabaseProblem.FOLDER_NOT_WRITABLE: 13,
    DatabaseProblem.READ_ONLY: 14,
    DatabaseProblem.CANNOT_OPEN: 15,
    DatabaseProblem.NOT_A_DATABASE: 16,
    DatabaseProblem.DAMAGED: 17,
    DatabaseProblem.TOO_NEW: 18,
    DatabaseProblem.DISK_FULL: 19,
    DatabaseProblem.MIGRATION_FAILED: 20,
}

DRAIN_SECONDS = 10.0
GUILD_READY_TIMEOUT = 0.5
"""How long discord.py waits after the last server's GUILD_CREATE before READY (its default: 2 s).

Discord sends them in a burst right after READY; a server that comes later is still added
to the cache when it arrives (discord.py's state.py, `_delay_ready`)."""
SWITCH_INTERVAL = 0.001
"""How often, in seconds, Python hands the interpreter lock to a waiting thread (its default: 0.005).

The database thread lets go of the lock at each SQLite statement and must win it back from
the threads that draw boards and think for bots; at 5 ms a turn a save took ~100 ms under
load (bench/bench_commits.py)."""
INTERACTION_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-dynamic-item-",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
)


class MeepleBot(commands.Bot):
    """The Discord client: holds the settings, the store and the table service."""

    store: Store
    tables: TableService

    def __init__(self, settings: Settings, store: Store | None = None, **options: Any) -> None:
        # Slash commands and components need no privileged intent: `guilds` alone keeps the
        # channel and thread cache; member lists and message content are never read.
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("guild_ready_timeout", GUILD_READY_TIMEOUT)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.settings = settings
        self._service_starter: asyncio.Task[None] | None = None
        self._store_open = store is not None
        if store is not None:
            self.store = store
        self._service_made = False
        if log.isEnabledFor(logging.DEBUG):
            # Only then: each listener costs a task per event.
            self.add_listener(self._log_gateway_event, "on_socket_event_type")
            self.add_listener(self._log_interaction, "on_interaction")

    async def setup_hook(self) -> None:
        """Open the store unless given, create the service, load the cogs, sync commands if they changed."""
        if not self._store_open:
            self.store = await open_store(self.settings.database)
            self._store_open = True
        await self.load_cogs()
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        # Started once the gateway is ready, so listeners find channels and threads in the cache.
        self._service_starter = asyncio.create_task(self._start_service(), name="meeple-service-start")

    async def load_cogs(self) -> None:
        """Create the table service on the store and load every cog (their commands join the tree)."""
        self.tables = TableService(
            self.store, bot_delay=self.settings.bot_delay, shards=shard_set(self.settings)
        )
        if self.settings.clock_file is not None:
            # Tests only: a clock the test moves; look for due clocks often, since it jumps.
            self.tables.clock = OffsetClock(self.settings.clock_file)
            self.tables.poll_interval = 0.1
        self._service_made = True
        for name in discover_extensions():
            await self.load_extension(name)
            log.info("loaded extension %s", name)

    async def _start_service(self) -> None:
        await self.wait_until_ready()
        try:
            await self.tables.start()
        except Exception:
            log.exception("the table service failed to start: stopping")
            await self.close()
            return
        log.info("table service started")

    async def sync_commands(self) -> bool:
        """Sync the command tree when it differs from the last synced one; return whether it synced."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # With their localizations: a changed translation is synced like a changed command.
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        if translator is not None:
            payload = [await command.get_translated_payload(self.tree, translator) for command in commands]
        else:
            payload = [command.to_dict(self.tree) for command in commands]
        payload.sort(key=lambda c: (c.get("type", 1), c["name"]))
        stamp = {
            "application_id": self.application_id,
            "guild_id": self.settings.dev_guild,
            "sha256": hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest(),
        }
        stamp_path = command_stamp_path(self.settings.db_path)
        try:
            previous = json.loads(stamp_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = None
        if previous == stamp:
            log.info("application commands unchanged: not syncing")
            return False
        where = f"in guild {self.settings.dev_guild}" if guild else "globally"
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            # The bot still serves the commands Discord already knows; the next start retries.
            hint = " (is the bot in that server, invited with the applications.commands scope?)"
            log.error("could not sync the commands %s: %s%s", where, exc, hint if guild else "")
            return False
        stamp_path.parent.mkdir(parents=True, exist_ok=True)
        stamp_path.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
        log.info("synced %d application command(s) %s", len(synced), where)
        return True

    async def on_ready(self) -> None:
        """Log who we are once the gateway is ready."""
        user = self.user
        log.info("ready as %s (id %s) in %d server(s)", user, user.id if user else "?", len(self.guilds))

    async def _log_gateway_event(self, event_type: str) -> None:
        """DEBUG: the name of each gateway event (discord.py's own DEBUG lines carry whole payloads)."""
        log.debug("gateway event %s", event_type)

    async def _log_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """DEBUG: each interaction by its ids, its command or component id (never a name or text typed)."""
        data: Any = interaction.data or {}
        what = data.get("name") if interaction.type is discord.InteractionType.application_command else None
        if what is None:
            custom_id = str(data.get("custom_id", ""))
            what = custom_id if _OWN_CUSTOM_ID.fullmatch(custom_id) else "(an id not of Meeple's form)"
        log.debug(
            "interaction %s: %s %s by user %s in channel %s",
            interaction.id,
            interaction.type.name,
            what,
            interaction.user.id,
            interaction.channel_id,
        )

    async def close(self) -> None:
        """Finish the interactions in flight, stop the service (it closes the store), then the client."""
        if self._service_starter is not None:
            self._service_starter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._service_starter
            self._service_starter = None
        if self._service_made or self._store_open:
            await self._drain_interactions()
        if self._service_made:
            # Before the client: the service delivers its pending updates, then closes the store.
            self._service_made = self._store_open = False
            await self.tables.close()
            log.info("table service and store closed")
        if self._store_open:
            self._store_open = False
            await self.store.close()
        await super().close()

    async def _drain_interactions(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait (bounded) for running command and component callbacks, so none meets a closed store."""
        deadline = asyncio.get_running_loop().time() + timeout
        while pending := _interaction_tasks():
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                log.warning("closing with %d interaction(s) still running", len(pending))
                return
            log.info("waiting for %d interaction(s) to finish", len(pending))
            await asyncio.wait(pending, timeout=remaining)


class ShardedMeepleBot(MeepleBot, commands.AutoShardedBot):
    """The bot on discord.py's AutoShardedBot: one gateway session per shard of MEEPLE_SHARDS."""


def shard_set(settings: Settings) -> ShardSet | None:
    """The shards this process holds (None: not sharded, every table is this process's)."""
    if settings.shard_count is None:
        return None
    if settings.shard_ids is None:
        return ShardSet.all_of(settings.shard_count)
    return ShardSet(settings.shard_count, settings.shard_ids)


# Meeple's custom_ids ("mp:act:12:34:0:2", cogs/platform/ids.py): a forged one is not written out.
_OWN_CUSTOM_ID = re.compile(r"mp:[A-Za-z0-9_:.-]{1,97}")


def _interaction_tasks() -> set[asyncio.Task[Any]]:
    # discord.py runs every slash command and component callback in a task of its own, named
    # by these prefixes (discord.py 2.7: app_commands/tree.py, ui/view.py, ui/modal.py).
    current = asyncio.current_task()
    return {
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(INTERACTION_TASK_PREFIXES)
    }


def discover_extensions(package_name: str = "cogs") -> list[str]:
    """The modules and packages directly in a package that define a top-level `setup`."""
    package = importlib.import_module(package_name)
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        base = Path(package.__path__[0]) / info.name
        source = base / "__init__.py" if info.ispkg else base.with_suffix(".py")
        if source.is_file() and _defines_setup(source):
            found.append(f"{package.__name__}.{info.name}")
    return sorted(found)


def _defines_setup(source: Path) -> bool:
    # Read, not imported: discord.py imports the extension itself, and importing it
    # first would run the module twice.
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    return any(
        isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and node.name == "setup"
        for node in tree.body
    )


def command_stamp_path(db_path: Path) -> Path:
    """The file beside the database that remembers the last synced command list (beside the file
    itself when `db_path` is a symlink, so starting through a link does not sync again)."""
    if db_path.is_symlink():
        db_path = db_path.resolve()
    return db_path.with_name(db_path.name + ".commands.json")


def point_at_local_api(settings: Settings) -> None:
    """Tests only: send REST and gateway traffic to the loopback fake named in the settings."""
    if settings.api_base is None or settings.gateway is None:
        return
    discord.http.Route.BASE = str(settings.api_base).rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = settings.gateway
    log.warning("using the local Discord stand-in at %s", settings.api_base)


def create_bot(settings: Settings, store: Store | None = None, **options: Any) -> MeepleBot:
    """Build the bot for these settings, on `store` or on one it opens when it logs in."""
    point_at_local_api(settings)
    # Meeple has no voice features: no warning about voice libraries it never needs.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    shards = shard_set(settings)
    if shards is None:
        return MeepleBot(settings, store, **options)
    log.info("running shards %s", shards.describe())
    options.setdefault("shard_count", shards.count)
    options.setdefault("shard_ids", sorted(shards.ids))
    return ShardedMeepleBot(settings, store, **options)


async def run(settings: Settings) -> int:
    """Hold the database for this process, run the bot until Ctrl-C or SIGTERM; return the exit status."""
    try:
        # Before anything else: a board drawn without its fonts would lose names.
        check_fonts()
    except FontsMissing as exc:
        log.error("%s", printable(str(exc)))
        return EXIT_FONTS
    try:
        lock = hold_database(settings)
    except StoreOpenError as exc:
        log.error("%s", printable(str(exc)))
        return EXIT_DATABASE[exc.problem]
    with lock:
        return await serve(settings)


def hold_database(settings: Settings) -> contextlib.AbstractContextManager[object]:
    """The lock that keeps a second Meeple process off a SQLite file (none in memory nor on PostgreSQL)."""
    if settings.db_url is not None or str(settings.db_path) == ":memory:":
        # PostgreSQL is shared by design: its saves lock each table (tables/store/postgres.py).
        return contextlib.nullcontext()
    return DatabaseLock.acquire(settings.db_path)


async def serve(settings: Settings) -> int:
    """Open the database, then run the bot until Ctrl-C or SIGTERM; return the exit status."""
    try:
        # Before Discord: a database that cannot be used is reported whatever Discord does.
        store = await open_store(settings.database)
    except StoreOpenError as exc:
        log.error("%s", printable(str(exc)))
        await _let_sqlite_workers_finish()
        return EXIT_DATABASE[exc.problem]
    bot = create_bot(settings, store)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, AttributeError):
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token), name="meeple-client")
        stopper = asyncio.create_task(stop.wait(), name="meeple-stop")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if stop.is_set():
            log.info("shutting down")
            await bot.close()
        try:
            await runner
        except discord.LoginFailure:
            log.error("Discord refused the token: check DISCORD_TOKEN in .env (see .env.example)")
            return EXIT_TOKEN_REFUSED
        except aiohttp.ClientError as exc:
            log.error("cannot reach Discord at %s: %s", discord.http.Route.BASE, exc)
            return EXIT_DISCORD_UNREACHABLE
        except (discord.HTTPException, discord.GatewayNotFound) as exc:
            # After discord.py's own retries (5xx): one line, not a traceback.
            log.error("Discord failed while the bot was starting: %s", _one_line(str(exc)))
            return EXIT_DISCORD_FAILED
    log.info("stopped")
    return EXIT_STOPPED


def _one_line(text: str) -> str:
    return " ".join(text.split())


def printable(text: str) -> str:
    """`text` on one line: line breaks and other control characters (say, in a path) written as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


async def _let_sqlite_workers_finish(timeout: float = 1.0) -> None:
    # aiosqlite stops the worker thread of a connection that failed to open without waiting
    # for it; if the loop closes first, the thread reports "Event loop is closed".
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(
        t.name.endswith("(_connection_worker_thread)") for t in threading.enumerate()
    ):
        await asyncio.sleep(0.01)


def main() -> int:
    """Entry point: read the settings, then run the bot."""
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return EXIT_SETTINGS
    setup_logging(settings.log_level_number, settings.token)
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
