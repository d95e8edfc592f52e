"""The table service: lobbies, seats, moves, undo, bots and turn clocks over a store."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping

from engine.core import Action, Record, Scalar
from tables.models import LoggedEvent, Notice, Table, TableStatus, Timing, Update
from tables.store import Store

Listener = Callable[[Update | Notice], Awaitable[None]]


class TableService:
    """Everything the cogs do to tables; one lock per table, the database as the truth."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 1.5,
        poll_interval: float = 30.0,
        replacement_bot: str = "greedy",
    ) -> None:
        raise NotImplementedError

    # -- life cycle ----------------------------------------------------------

    async def start(self) -> None:
        """Resume: schedule bots of games waiting on one, and start the clock loop."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the clock loop and the bot tasks, deliver pending updates, close the store."""
        raise NotImplementedError

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every Update (human, bot, timeout, undo, start, abandon) and Notice."""
        raise NotImplementedError

    async def idle(self) -> None:
        """Wait until no bot move is pending and every update has been delivered (tests)."""
        raise NotImplementedError

    async def run_due(self, now: float | None = None) -> int:
        """Fire every clock due at `now` (default: the service clock); return how many fired."""
        raise NotImplementedError

    # -- lobby ---------------------------------------------------------------

    async def create(
        self,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, Scalar] | None = None,
        *,
        timing: Timing | None = None,
    ) -> Table:
        """Open a lobby with the host in seat 0; options are validated by the game."""
        raise NotImplementedError

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a user in a lobby."""
        raise NotImplementedError

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a table: in a lobby the seat is freed (the host hands over, or the lobby is
        cancelled if no human is left); in a game a bot takes the seat over."""
        raise NotImplementedError

    async def add_bot(self, table_id: int, by_user: int, policy: str = "greedy") -> Table:
        """Seat a bot in a lobby (host only)."""
        raise NotImplementedError

    async def remove_bot(self, table_id: int, by_user: int, seat: int) -> Table:
        """Remove a bot from a lobby seat (host only)."""
        raise NotImplementedError

    async def set_options(self, table_id: int, by_user: int, options: Mapping[str, Scalar]) -> Table:
        """Change a lobby's game options (host only)."""
        raise NotImplementedError

    async def set_timing(self, table_id: int, by_user: int, timing: Timing) -> Table:
        """Change a table's turn clocks (host only; in the lobby or during the game)."""
        raise NotImplementedError

    async def cancel(self, table_id: int, by_user: int, is_manager: bool = False) -> Table:
        """Cancel a lobby (host or server manager)."""
        raise NotImplementedError

    async def start_game(self, table_id: int, by_user: int) -> Update:
        """Start the game (host only, enough seats); the seed comes from `secrets`."""
        raise NotImplementedError

    # -- play ----------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, action: Action) -> Update:
        """Play a human's move built for `version`; a seat a bot had taken over is reclaimed."""
        raise NotImplementedError

    async def undo(self, table_id: int, user_id: int, version: int) -> Update:
        """Take back the user's own last move (BGA's policy, see Rules.can_undo)."""
        raise NotImplementedError

    async def reclaim(self, table_id: int, user_id: int) -> Table:
        """Take one's seat back from the bot that replaced one."""
        raise NotImplementedError

    async def abandon(self, table_id: int, by_user: int, is_manager: bool = False) -> Update:
        """End a game in progress without a result (host or server manager)."""
        raise NotImplementedError

    # -- messages ------------------------------------------------------------

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the game is played in."""
        raise NotImplementedError

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the lobby message."""
        raise NotImplementedError

    async def set_board_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the latest board message (whose buttons are live)."""
        raise NotImplementedError

    # -- queries -------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table, or NoSuchTable."""
        raise NotImplementedError

    async def tables_in_channel(
        self, channel_id: int, statuses: tuple[TableStatus, ...] = (TableStatus.LOBBY, TableStatus.PLAYING)
    ) -> list[Table]:
        """Open tables created in a channel, oldest first."""
        raise NotImplementedError

    async def table_for_thread(self, thread_id: int) -> Table | None:
        """The table played in a thread, if any."""
        raise NotImplementedError

    async def log(self, table_id: int) -> list[LoggedEvent]:
        """Every event of the game so far, in order (filter with Event.visible for a seat)."""
        raise NotImplementedError

    async def record(self, table_id: int) -> Record:
        """The game's record (seed, options, moves with undos) for engine.core.replay."""
        raise NotImplementedError

    async def tables_of_user(
        self, user_id: int, statuses: tuple[TableStatus, ...] = (TableStatus.LOBBY, TableStatus.PLAYING)
    ) -> list[Table]:
        """The open tables where a user holds a seat, oldest first."""
        raise NotImplementedError
