"""Turns: a move applied and saved (the one unit every move goes through), forced steps, undo, old clicks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import UNDO, Action, EngineError, Prompt, Transition, advance
from tables.errors import (
    GameNotRunning,
    GameOver,
    IllegalMove,
    NothingToUndo,
    NotSeated,
    NotYourTurn,
    NotYourUndo,
    StaleVersion,
)
from tables.models import LoggedEvent, Notice, NoticeKind, Table, TableStatus, Update, UpdateKind, prompts_of
from tables.service.core import TableCore
from tables.service.delivery import Delivery
from tables.service.plans import plan, set_seat
from tables.store import ActionRow, NewAction
from tables.waits import held_pings

MAX_FORCED_STEPS = 16
"""A bound on the one-option steps played in a row after a move (a game keeps each turn finite)."""


class Turns:
    """Moves: a person's (act, undo), and the apply-and-save unit the lobby, clocks and bots share."""

    def __init__(self, core: TableCore, delivery: Delivery) -> None:
        self.core = core
        self.delivery = delivery
        # The prompts of past states, by (table, version), as replayed for clicks on older boards.
        self._past_prompts: dict[tuple[int, int], tuple[Prompt, ...]] = {}

    async def act(self, table_id: int, user_id: int, version: int, action: Action) -> Update:
        """Play a human's move built for `version`; a seat a bot had taken over is reclaimed."""
        return await self._play(table_id, user_id, version, None, action)

    async def choose(self, table_id: int, user_id: int, version: int, seat: int, index: int) -> Update:
        """Play option `index` of `seat`'s decision as a board built at `version` showed it (a click)."""
        return await self._play(table_id, user_id, version, seat, index)

    async def _play(
        self, table_id: int, user_id: int, version: int, seat: int | None, choice: Action | int
    ) -> Update:
        """Check a person's move once (see `checked`), then apply and save it under the table's lock."""
        async with self.core.locked(table_id) as table:
            seat, action = await self.checked(table, user_id, version, seat, choice)
            info = table.seats[seat]
            # Checked against the prompts the table holds: the engine need not check it again.
            transition = table.rules.apply_checked(table.state, seat, action)
            base = table
            reclaimed = info.is_bot
            if reclaimed:
                base = set_seat(table, seat, replace(info, bot=None, replaced=False))
            update = await self.commit(table, base, seat, transition, UpdateKind.MOVE, action, source="human")
            update = await self.play_forced(update)
            if reclaimed:
                self.delivery.publish(Notice(NoticeKind.RECLAIMED, update.table, seat, user_id))
            self.after(update)
            return update

    async def checked(
        self, table: Table, user_id: int, version: int, seat: int | None, choice: Action | int
    ) -> tuple[int, Action]:
        """The one check of a person's move: their seat and the action it plays now, or a refusal.

        `seat` is the seat the clicked board asked (None: the user's own); `choice` an action,
        or the index of an option on that board. A board whose decision for the seat is unchanged
        offers the current prompt; an older one what the seat was asked then, while
        `_still_offered` says it stands. The refusals, in this order (the cog words them): the
        game not running (or over), not seated, out of date, not your turn, not offered.
        """
        mine = self._seated(table, user_id)
        seat = mine if seat is None else seat
        standing = None
        if not table.shows_current_prompt(seat, version):
            standing = await self._still_standing(table, version, seat, choice)
        prompt = self._own(table, mine, seat)
        if standing is not None:
            return seat, standing
        if isinstance(choice, Action):
            if choice not in prompt.options:
                raise IllegalMove()
            return seat, choice
        if not 0 <= choice < len(prompt.options):
            raise IllegalMove()
        return seat, prompt.options[choice]

    async def decision(
        self, table_id: int, user_id: int, version: int, seat: int | None = None
    ) -> tuple[Table, Prompt]:
        """The table and `seat`'s decision (None: the user's), for a step that plays no move (a group,
        a page) on a board built at `version`: the user's own and current, or `checked`'s refusal."""
        table = await self.core.load(table_id)
        mine = self._seated(table, user_id)
        seat = mine if seat is None else seat
        if not table.shows_current_prompt(seat, version):
            raise StaleVersion()
        return table, self._own(table, mine, seat)

    @staticmethod
    def _seated(table: Table, user_id: int) -> int:
        """The user's seat at a game being played, or the refusal: over, not running, not seated."""
        if table.status is not TableStatus.PLAYING:
            raise GameOver() if table.status is TableStatus.FINISHED else GameNotRunning()
        mine = table.seat_of(user_id)
        if mine is None:
            raise NotSeated()
        return mine

    @staticmethod
    def _own(table: Table, mine: int, seat: int) -> Prompt:
        """`seat`'s decision now, when it is the user's own seat (`mine`); else NotYourTurn."""
        prompt = table.prompt_for(seat) if seat == mine else None
        if prompt is None:
            raise NotYourTurn()
        return prompt

    async def _still_standing(self, table: Table, version: int, seat: int, choice: Action | int) -> Action:
        """What a board built at an older `version` plays now, or StaleVersion when it no longer stands."""
        rows = await self.core.store.actions(table.id) if 0 <= version < table.version else []
        if isinstance(choice, Action):
            action = choice
        else:
            then = await self._prompt_at(table, version, seat, rows)
            if then is None or not 0 <= choice < len(then.options):
                raise StaleVersion()
            action = then.options[choice]
        if not await self._still_offered(table, seat, version, action, rows):
            raise StaleVersion()
        return action

    async def _still_offered(
        self, table: Table, seat: int, version: int, action: Action, rows: list[ActionRow] | None = None
    ) -> bool:
        """Whether a click built at an older `version` for `action` may be played now.

        Yes when the seat's decision now is of the same kind and still offers that option (the
        moves in between, by others, left it standing), and the seat has not moved since the
        click's board (so no one acts twice on one decision).
        """
        prompt = table.prompt_for(seat)
        if not 0 <= version < table.version or prompt is None or action not in prompt.options:
            return False
        rows = await self.core.store.actions(table.id) if rows is None else rows
        if any(row.seat == seat and row.version >= version for row in rows):
            return False
        then = await self._prompt_at(table, version, seat, rows)
        return then is not None and then.kind == prompt.kind and action in then.options

    async def _prompt_at(self, table: Table, version: int, seat: int, rows: list[ActionRow]) -> Prompt | None:
        """`seat`'s prompt when the game stood at `version` (older than now), replayed from the log."""
        if not 0 <= version < table.version or table.seed is None:
            return None
        key = (table.id, version)
        prompts = self._past_prompts.get(key)
        if prompts is None:
            rules = table.rules
            history = [rules.setup(len(table.seats), table.options, table.seed)]
            for row in rows:
                if history[-1].version >= version:
                    break
                history, _ = advance(rules, history, row.seat, row.action)
            state = history[-1]
            if state.version != version:
                return None
            prompts = () if rules.outcome(state) is not None else tuple(rules.prompts(state))
            if len(self._past_prompts) >= 64:
                self._past_prompts.clear()
            self._past_prompts[key] = prompts
        return next((p for p in prompts if p.seat == seat), None)

    async def undo(self, table_id: int, user_id: int, version: int, seat: int | None = None) -> Update:
        """Take back the user's own last move (BGA's policy, see Rules.can_undo).

        `seat`: the seat whose undo button was pressed; anyone else is refused (NotYourUndo).
        """
        async with self.core.locked(table_id, TableStatus.PLAYING) as table:
            mine = table.seat_of(user_id)
            if seat is not None and mine != seat:
                raise NotYourUndo()
            if mine is None:
                raise NotSeated()
            seat = mine
            if version != table.version:
                raise StaleVersion()
            rules = table.rules
            if table.seats[seat].is_bot or not rules.can_undo(table.state, seat):
                raise NothingToUndo()
            target = await self.core.store.undo_target(table.id)
            if target is None or target.seat != seat or target.before is None:
                raise NothingToUndo()
            try:
                transition = rules.undo(table.state, seat, rules.decode(target.before))
            except EngineError as exc:
                raise NothingToUndo() from exc
            update = await self.commit(
                table, table, seat, transition, UpdateKind.UNDO, UNDO, source="human", undoes=target.seq
            )
            self.after(update)
            return update

    async def commit(
        self,
        old: Table,
        base: Table,
        seat: int | None,
        transition: Transition[Any],
        kind: UpdateKind,
        action: Action | None,
        *,
        source: str,
        undoes: int | None = None,
        now: float | None = None,
    ) -> Update:
        """Save a new game state with its log entry, seats and clocks; return the Update."""
        now = self.core.clock() if now is None else now
        rules = old.rules
        state = transition.state
        outcome = rules.outcome(state)
        before_prompts = {p.seat: p for p in old.prompts}
        after_prompts = {} if outcome is not None else {p.seat: p for p in prompts_of(rules, state)}
        self_acted = kind in (UpdateKind.MOVE, UpdateKind.UNDO)
        seats = []
        for index, info in enumerate(base.seats):
            prompt_version = info.prompt_version
            if index == seat or before_prompts.get(index) != after_prompts.get(index):
                prompt_version = state.version
            idle_since = info.idle_since
            if info.is_bot:
                idle_since = None
            elif self_acted and index == seat:
                idle_since = now if index in after_prompts else None
            elif index in after_prompts and idle_since is None:
                idle_since = now
            seats.append(replace(info, prompt_version=prompt_version, idle_since=idle_since))
        new = replace(
            base,
            state=state,
            version=state.version,
            seats=tuple(seats),
            status=TableStatus.FINISHED if outcome is not None else TableStatus.PLAYING,
        )
        fresh = set(after_prompts) - set(before_prompts)
        if seat is not None:
            fresh.add(seat)
        new = replace(new, deadlines=plan(old, new, now, fresh))
        newly = set(after_prompts) - set(before_prompts) - ({seat} if seat is not None else set())
        new = replace(new, deadlines=(*new.deadlines, *held_pings(new, newly, now, self.core.players)))
        append: tuple[NewAction, ...] = ()
        drop_undo = False
        if action is not None and seat is not None:
            before = None
            if kind is not UpdateKind.UNDO:
                # Keep the state each still-undoable move was played on; no more (see Rules.undo).
                drop_undo = state.undo_depth <= 1
                before = self.core.encoded(old) if state.undo_depth > 0 else None
            append = (NewAction(old.version, seat, action, transition.events, source, now, before),)
        saved = await self.core.save(old, new, append=append, undoes=undoes, drop_undo=drop_undo, now=now)
        return Update(
            kind=kind,
            table=saved,
            seat=seat,
            action=action,
            events=tuple(LoggedEvent(old.version, seat, e) for e in transition.events),
            new_to_move=tuple(sorted(set(after_prompts) - set(before_prompts))),
            prompts=tuple(after_prompts.values()),
            outcome=outcome,
        )

    async def play_forced(self, update: Update, now: float | None = None) -> Update:
        """Play every step that leaves a person nothing to decide, each recorded (source "auto").

        Such a step is the next prompt (not optional) of the person who just moved, with a single
        option: Diced Tomatoes' end of turn with no die and no karma left to use, the cell of
        a Buttons roll that fits only one. A turn handed to someone else still waits for their
        first click. The returned update holds `update` and those steps.
        """
        merged = update
        for _ in range(MAX_FORCED_STEPS):
            table = merged.table
            prompt = next(
                (
                    p
                    for p in table.prompts
                    if p.seat == update.seat
                    and len(p.options) == 1
                    and not p.optional
                    and not table.is_bot(p.seat)
                ),
                None,
            )
            if prompt is None:
                break
            action = prompt.options[0]
            # Its only option, offered by construction: no check to repeat.
            transition = table.rules.apply_checked(table.state, prompt.seat, action)
            step = await self.commit(
                table, table, prompt.seat, transition, UpdateKind.MOVE, action, source="auto", now=now
            )
            awaited = {p.seat for p in step.prompts}
            merged = replace(
                step,
                kind=merged.kind,
                seat=merged.seat,
                action=merged.action,
                events=merged.events + step.events,
                new_to_move=tuple(sorted((set(merged.new_to_move) | set(step.new_to_move)) & awaited)),
            )
        return merged

    def after(self, update: Update) -> None:
        """Publish an update and let bots move next (called with the table's lock held)."""
        self.delivery.publish(update)
        self.core.kick_bots(update.table)
