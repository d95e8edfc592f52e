"""The bot runner: one task per table playing its bots and standing answers, paced and retried."""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from engine.core import DEFAULT_LEVEL, Prompt
from tables.errors import NoSuchTable, StaleVersion, StoreUnavailable
from tables.models import Table, TableStatus, Update, UpdateKind
from tables.service.core import TableCore
from tables.service.delivery import Delivery
from tables.service.turns import Turns
from tables.waits import answers_itself, auto_answer

log = logging.getLogger(__name__)


class BotRunner:
    """Bots never give up while their game is in play: a failed move is retried after a capped backoff."""

    def __init__(self, core: TableCore, turns: Turns, delivery: Delivery) -> None:
        self.core = core
        self.turns = turns
        self.delivery = delivery
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}

    def tasks(self) -> list[asyncio.Task[None]]:
        """The bot tasks of the tables where a bot is playing or about to."""
        return list(self._bot_tasks.values())

    def kick(self, table: Table) -> None:
        """Start the bot task of a table if a bot must move (call with the table's lock held)."""
        if self.core.closed or table.status is not TableStatus.PLAYING or not self.core.owns(table):
            # Another process's shard: its bots play there (clicks for it never come here).
            return
        if not any(table.is_bot(p.seat) or self._auto(table, p) for p in table.prompts):
            return
        task = self._bot_tasks.get(table.id)
        if task is None or task.done():
            self._bot_tasks[table.id] = asyncio.create_task(self._run_bots(table.id), name=f"bots-{table.id}")

    async def _run_bots(self, table_id: int) -> None:
        """Play the bot seats of a table until a human must move; retry failures while it is in play."""
        failures = 0
        delay = self._bot_pause(failures)
        try:
            while await self.core.sleep(delay):
                try:
                    moved = await self._bot_move(table_id)
                except NoSuchTable:
                    return
                except (StoreUnavailable, StaleVersion) as exc:
                    failures += 1
                    delay = self._bot_pause(failures)
                    log.warning(
                        "table %d: bot move not saved (%s); retry %d in %.1f s",
                        table_id,
                        type(exc).__name__,
                        failures,
                        delay,
                    )
                    continue
                except Exception:
                    failures += 1
                    delay = self._bot_pause(failures)
                    log.exception("table %d: bot move failed; retry %d in %.1f s", table_id, failures, delay)
                    continue
                if moved is None:
                    return
                failures = 0
                if moved is False:
                    # The table moved on while the bot thought: think again on the new state at once.
                    delay = 0.0
                else:
                    # The pause is for people to follow a bot: its turn is shown once, so its
                    # steps after the first follow at once (see Presenter.show).
                    continuing = any(p.seat == moved.seat for p in moved.prompts)
                    delay = 0.0 if continuing else self._bot_pause(failures)
        finally:
            if self._bot_tasks.get(table_id) is asyncio.current_task():
                del self._bot_tasks[table_id]

    async def _bot_move(self, table_id: int) -> Update | Literal[False] | None:
        """Let one bot seat think on a snapshot without the lock, then play it if still asked.

        The others keep answering their simultaneous decisions meanwhile. The move is played
        only if the bot's decision is the one it thought about (the rule a human's board
        follows, `Table.shows_current_prompt`). Returns None when no bot must move, False when
        the thought went stale (nothing played), and the saved move's Update.
        """
        async with self.core.locked(table_id) as seen:
            prompt = self._bot_prompt(seen)
            if prompt is None:
                return None
            # A person's standing answer to an optional decision (tables.waits) needs no thought.
            standing = auto_answer(seen, prompt, self.core.players)
        if standing is not None:
            action = standing
        else:
            policy = seen.seats[prompt.seat].bot or DEFAULT_LEVEL
            # A hard bot thinks for up to a couple of seconds: off the event loop and off the lock.
            action = await asyncio.to_thread(seen.rules.bot_action, seen.state, prompt, policy)
        async with self.core.locked(table_id) as table:
            if not self._still_asked(table, seen.version, prompt):
                return False
            transition = table.rules.apply(table.state, prompt.seat, action)
            source = "bot" if standing is None else "standing"
            update = await self.turns.commit(
                table, table, prompt.seat, transition, UpdateKind.BOT_MOVE, action, source=source
            )
            self.delivery.publish(update)
        return update

    def _auto(self, table: Table, prompt: Prompt) -> bool:
        """Whether a human's optional decision is answered by their standing answer (tables.waits)."""
        return answers_itself(table, prompt, self.core.players)

    def _bot_prompt(self, table: Table) -> Prompt | None:
        """The first open decision a bot or a standing answer plays, if the game is in play."""
        if table.status is not TableStatus.PLAYING:
            return None
        return next((p for p in table.prompts if table.is_bot(p.seat) or self._auto(table, p)), None)

    def _still_asked(self, table: Table, version: int, prompt: Prompt) -> bool:
        """Whether an answer worked out for `prompt` at `version` may still be played now."""
        seat = prompt.seat
        return (
            table.status is TableStatus.PLAYING
            and (table.is_bot(seat) or self._auto(table, prompt))
            and table.prompt_for(seat) == prompt
            and table.shows_current_prompt(seat, version)
        )

    def _bot_pause(self, failures: int) -> float:
        """The wait before a bot's next try: its delay, or a capped backoff after failures."""
        if failures == 0:
            return self.core.bot_delay
        return float(min(self.core.retry_base * 2 ** (failures - 1), self.core.retry_cap))
