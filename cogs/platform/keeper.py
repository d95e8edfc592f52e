"""The board keeper: brings boards up to date in the background and resends failed notices."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from tables.errors import NoSuchTable
from tables.models import Notice, TableStatus
from tables.service import TableService

log = logging.getLogger("meeple.cogs.board")


class BoardKeeper:
    """Retries a failed board or notice with a capped backoff, and sweeps the boards left behind."""

    retry_base = 1.0
    """Seconds before the first retry of a failed delivery (doubling up to retry_cap)."""
    retry_cap = 60.0
    sweep_interval = 30.0

    def __init__(
        self,
        service: TableService,
        flush: Callable[[int], Awaitable[None]],
        notice: Callable[[Notice], Awaitable[None]],
        busy: Callable[[int], bool],
    ) -> None:
        self.service = service
        self._flush = flush
        """Bring one table's board up to date (raising when it could not)."""
        self._notice = notice
        self._busy = busy
        """Whether the sweep leaves a table be: its board is being shown, or its thread is gone."""
        self._keepers: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._notices: set[asyncio.Task[None]] = set()

    def resend(self, notice: Notice) -> None:
        """Send a notice that failed again in the background, while its game is in play."""
        task = asyncio.create_task(self._resend(notice), name=f"meeple-notice-{notice.table.id}")
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    def keep(self, table_id: int, delay: float = 0.0) -> None:
        """Bring a table's board up to date in the background, retrying with a capped backoff."""
        if self.service.closed:
            return
        task = self._keepers.get(table_id)
        if task is None or task.done():
            self._keepers[table_id] = asyncio.create_task(
                self._keep(table_id, delay), name=f"meeple-board-{table_id}"
            )

    async def _keep(self, table_id: int, delay: float) -> None:
        failures = 0
        try:
            while await self.service.idle_wait(self.service.pause(delay), "board keeper: waiting to retry"):
                try:
                    await self._flush(table_id)
                    return
                except NoSuchTable:
                    return
                except Exception as exc:
                    failures += 1
                    delay = min(self.retry_base * 2 ** (failures - 1), self.retry_cap)
                    log.warning(
                        "table %s: board not brought up to date (%s: %s); retry %d in %.0f s",
                        table_id,
                        type(exc).__name__,
                        exc,
                        failures,
                        delay,
                    )
        finally:
            if self._keepers.get(table_id) is asyncio.current_task():
                del self._keepers[table_id]

    async def _resend(self, notice: Notice) -> None:
        """Send a notice that failed again, with a capped backoff, while its game is in play."""
        failures = 0
        delay = self.retry_base
        while await self.service.idle_wait(self.service.pause(delay), "board keeper: waiting to resend"):
            try:
                if (await self.service.get(notice.table.id)).status is not TableStatus.PLAYING:
                    return
                await self._notice(notice)
                return
            except NoSuchTable:
                return
            except Exception as exc:
                failures += 1
                delay = min(self.retry_base * 2**failures, self.retry_cap)
                log.warning(
                    "table %s: %s notice not sent (%s); retry in %.0f s",
                    notice.table.id,
                    notice.kind,
                    exc,
                    delay,
                )

    async def sweep(self) -> list[int]:
        """Start bringing up to date every table whose board is behind; return their ids."""
        behind = await self.service.boards_behind()
        for table_id in behind:
            if not self._busy(table_id):
                self.keep(table_id)
        return behind

    def keep_boards(self) -> None:
        """Sweep now and then every sweep_interval seconds, until the service closes (idempotent)."""
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_loop(), name="meeple-board-sweep")

    async def _sweep_loop(self) -> None:
        while not self.service.closed:
            try:
                await self.sweep()
            except Exception:
                log.exception("the board sweep failed; trying again later")
            wait = self.service.pause(self.sweep_interval)
            if not await self.service.idle_wait(wait, "board keeper: waiting for the next sweep"):
                return

    async def stop(self) -> None:
        """Stop the sweep and the retries (the cog unloads)."""
        tasks = [
            t
            for t in (self._sweeper, *self._keepers.values(), *self._notices)
            if t is not None and not t.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
