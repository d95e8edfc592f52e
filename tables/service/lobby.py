"""The lobby: open a table, take and free seats, set options and clocks, cancel, start the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import commitment as commit
from engine.core import DEFAULT_LEVEL, BadOptions, Scalar, Transition
from engine.games import UnknownGame as EngineUnknownGame
from engine.games import get_rules
from engine.words import LANGUAGES, N_
from tables.errors import (
    AlreadySeated,
    BadTableOptions,
    GameNotRunning,
    LobbyFull,
    NotAllowed,
    NotEnoughPlayers,
    NotHost,
    NotSeated,
    UnknownBot,
    UnknownGame,
)
from tables.models import SeatInfo, Table, TableStatus, Timing, Update, UpdateKind
from tables.service.core import TableCore
from tables.service.plans import plan
from tables.service.seats import Seats
from tables.service.turns import Turns


class Lobby:
    """A table before its game: every change here is the host's or a joining player's."""

    def __init__(self, core: TableCore, turns: Turns, seats: Seats) -> None:
        self.core = core
        self.turns = turns
        self.seats = seats

    async def create(
        self,
        game: str,
        guild_id: int,
        channel_id: int,
        host: tuple[int, str],
        options: Mapping[str, Scalar] | None,
        timing: Timing | None,
        language: str = "en",
    ) -> Table:
        """Open a lobby with the host (user id, name) in seat 0; options are validated by the game."""
        host_id, host_name = host
        try:
            rules = get_rules(game)
        except (EngineUnknownGame, ModuleNotFoundError):
            raise UnknownGame() from None
        resolved = _resolve(rules, options or {})
        now = self.core.clock()
        table = Table(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status=TableStatus.LOBBY,
            seats=(SeatInfo(user_id=host_id, bot=None, name=host_name),),
            options=resolved,
            created_at=now,
            updated_at=now,
            timing=_checked(timing or Timing()),
            language=_spoken(language),
        )
        table = await self.core.store.insert_table(table)
        self.core.keep(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a user in a lobby."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            if table.seat_of(user_id) is not None:
                raise AlreadySeated()
            if any(barred == user_id for barred, _ in table.barred):
                raise NotAllowed(N_("The host removed you from this table; only they can let you back in."))
            if len(table.seats) >= table.rules.max_players:
                raise LobbyFull()
            seat = SeatInfo(user_id=user_id, bot=None, name=name)
            return await self.core.save(table, replace(table, seats=(*table.seats, seat)))

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a table: in a lobby the seat is freed (the host hands over, or the lobby is
        cancelled if no human is left); in a game a bot takes the seat over."""
        async with self.core.locked(table_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if table.status is TableStatus.LOBBY:
                seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
                new = replace(table, seats=seats)
                if user_id == table.host_id:
                    heirs = [s.user_id for s in seats if s.user_id is not None and not s.is_bot]
                    if heirs:
                        new = replace(new, host_id=heirs[0])
                    else:
                        new = replace(new, status=TableStatus.CANCELLED)
                return await self.core.save(table, new)
            if table.status is not TableStatus.PLAYING:
                raise GameNotRunning()
            if table.seats[seat].is_bot:
                return table
            return await self.seats.to_bot(table, seat)

    async def add_bot(self, table_id: int, by_user: int, policy: str = DEFAULT_LEVEL) -> Table:
        """Seat a bot playing at one of the game's levels (or any of its policies) in a lobby (host only)."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            if policy not in table.rules.levels() and policy not in table.rules.bots():
                raise UnknownBot()
            if len(table.seats) >= table.rules.max_players:
                raise LobbyFull()
            # The level is shown next to the name (cogs), so the name only tells bots apart.
            taken = {s.name for s in table.seats}
            name = next(n for k in range(1, 99) if (n := "Bot" if k == 1 else f"Bot {k}") not in taken)
            seat = SeatInfo(user_id=None, bot=policy, name=name)
            return await self.core.save(table, replace(table, seats=(*table.seats, seat)))

    async def remove_bot(self, table_id: int, by_user: int, seat: int, name: str | None = None) -> Table:
        """Remove a bot from a lobby seat (host only); `name`, if given, must still be that seat's."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            if not 0 <= seat < len(table.seats) or not table.seats[seat].is_bot:
                raise NotAllowed(N_("That seat is not taken by a bot."))
            if name is not None and table.seats[seat].name != name:
                raise NotAllowed(N_("That bot is no longer in that seat: look at the lobby again."))
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            return await self.core.save(table, replace(table, seats=seats))

    async def remove_player(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Free the lobby seat of another human (host only)."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            seat = table.seat_of(user_id)
            if seat is None or table.seats[seat].is_bot:
                raise NotAllowed(N_("That player is not seated at this table."))
            if user_id == by_user:
                raise NotAllowed(N_("You cannot remove yourself: press **Leave** or **Cancel**."))
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            # Barred until the host lets them back (let_back): else Join would undo the removal at once.
            barred = (*table.barred, (user_id, table.seats[seat].name))
            return await self.core.save(table, replace(table, seats=seats, barred=barred))

    async def let_back(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Let a player the host removed Join this lobby again (host only)."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            barred = tuple(entry for entry in table.barred if entry[0] != user_id)
            if barred == table.barred:
                raise NotAllowed(N_("That player was not removed from this table."))
            return await self.core.save(table, replace(table, barred=barred))

    async def set_options(self, table_id: int, by_user: int, options: Mapping[str, Scalar]) -> Table:
        """Change a lobby's game options (host only); unnamed options keep their defaults."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            resolved = _resolve(table.rules, options)
            return await self.core.save(table, replace(table, options=resolved))

    async def set_timing(self, table_id: int, by_user: int, timing: Timing) -> Table:
        """Change a table's turn clocks (host only; in the lobby or during the game)."""
        async with self.core.locked(table_id) as table:
            _require_host(table, by_user)
            if not table.status.is_open:
                raise GameNotRunning()
            new = replace(table, timing=_checked(timing))
            if table.status is TableStatus.PLAYING:
                # Re-arm every clock under the new settings, counted from now.
                now = self.core.clock()
                fresh = set(new.to_move)
                new = replace(new, deadlines=plan(table, new, now, fresh))
            return await self.core.save(table, new)

    async def set_language(self, table_id: int, by_user: int, language: str) -> Table:
        """Change the language of a lobby's public posts and boards (host only)."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _require_host(table, by_user)
            return await self.core.save(table, replace(table, language=_spoken(language)))

    async def cancel(self, table_id: int, by_user: int, is_manager: bool = False) -> Table:
        """Cancel a lobby (host or server manager)."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            if by_user != table.host_id and not is_manager:
                raise NotAllowed(N_("Only the host or a server manager can cancel this table."))
            return await self.core.save(table, replace(table, status=TableStatus.CANCELLED))

    async def check_start(self, table_id: int, by_user: int) -> Table:
        """The lobby if `by_user` may start it now (host, enough seats), else the refusal."""
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _check_start(table, by_user)
            return table

    async def start_game(self, table_id: int, by_user: int, *, thread_id: int | None = None) -> Update:
        """Start the game (host only, enough seats) with a seed from `new_seed`.

        `thread_id`, the game's thread, is recorded in the same transaction: the game is
        never in play without the thread it is shown in.
        """
        async with self.core.locked(table_id, TableStatus.LOBBY) as table:
            _check_start(table, by_user)
            rules = table.rules
            seed = self.core.new_seed()
            salt = commit.new_salt()
            try:
                state = rules.setup(len(table.seats), table.options, seed)
            except BadOptions as exc:
                raise BadTableOptions(str(exc)) from exc
            playing = replace(table, status=TableStatus.PLAYING, seed=seed, salt=salt)
            if thread_id is not None:
                playing = replace(playing, thread_id=thread_id)
            update = await self.turns.commit(
                table,
                playing,
                None,
                Transition(state, rules.opening(state)),
                UpdateKind.START,
                None,
                source="",
            )
            self.turns.after(update)
            return update


def _require_host(table: Table, user_id: int) -> None:
    """NotHost unless `user_id` hosts the table."""
    if user_id != table.host_id:
        raise NotHost()


def _check_start(table: Table, user_id: int) -> None:
    """Refuse a start by anyone but the host, or with too few seats taken."""
    _require_host(table, user_id)
    rules = table.rules
    if len(table.seats) < rules.min_players:
        raise NotEnoughPlayers(
            lambda w: w.ngettext(
                "{game} needs at least {count} player.",
                "{game} needs at least {count} players.",
                rules.min_players,
                game=rules.name,
            )
        )


def _resolve(rules: Any, options: Mapping[str, Scalar]) -> dict[str, Scalar]:
    """The game's options with defaults filled in, or BadTableOptions."""
    try:
        resolved: dict[str, Scalar] = rules.resolve_options(options)
    except BadOptions as exc:
        raise BadTableOptions(str(exc)) from exc
    return resolved


def _spoken(language: str) -> str:
    """`language` if Meeple speaks it (engine.words.LANGUAGES), else BadTableOptions."""
    if language not in LANGUAGES:
        raise BadTableOptions(N_("That language is not one I speak."))
    return language


def _checked(timing: Timing) -> Timing:
    """The timing, if every clock is a positive duration or off (else BadTableOptions)."""
    for key, value in timing.to_json().items():
        if key != "pace" and value is not None and not (isinstance(value, float | int) and value > 0):
            raise BadTableOptions(N_("Every turn clock must be a positive duration or off."))
    return timing
