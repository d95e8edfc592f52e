"""Delivery: each table's updates handed to the listeners in order, by a task of that table's own."""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable

from tables.models import Notice, Update

log = logging.getLogger(__name__)

Listener = Callable[[Update | Notice], Awaitable[None]]
"""An async callback receiving every Update and Notice, in order."""


class Delivery:
    """The listeners and, per table, the updates not yet delivered and the task delivering them."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._outbox: dict[int, collections.deque[Update | Notice]] = {}
        self._deliverers: dict[int, asyncio.Task[None]] = {}

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every Update (human, bot, timeout, undo, start, abandon) and Notice."""
        self._listeners.append(listener)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The delivery tasks running now, one per table with updates pending."""
        return list(self._deliverers.values())

    def publish(self, item: Update | Notice) -> None:
        """Queue an update for the listeners behind the table's earlier ones."""
        table_id = item.table.id
        self._outbox.setdefault(table_id, collections.deque()).append(item)
        if table_id not in self._deliverers:
            self._deliverers[table_id] = asyncio.create_task(
                self._deliver(table_id), name=f"tables-deliver-{table_id}"
            )

    async def _deliver(self, table_id: int) -> None:
        """Hand a table's updates to the listeners in order; return once none is left."""
        pending = self._outbox[table_id]
        try:
            while pending:
                item = pending.popleft()
                for listener in list(self._listeners):
                    try:
                        await listener(item)
                    except Exception:
                        log.exception("table %d: listener failed on %s", table_id, type(item).__name__)
        finally:
            del self._deliverers[table_id]
            if not pending:
                del self._outbox[table_id]
