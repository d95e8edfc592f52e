"""The rules of Buttons as Board Game Arena plays them (rules/buttons.md, rules/README.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.buttons import text
from engine.buttons.actions import DECLINE, ROLL, STOP, cell_of, place, star
from engine.buttons.bots import NormalBot, easy_bot
from engine.buttons.faces import FACES, Colour
from engine.buttons.hard import hard_bot
from engine.buttons.options import OPTION_SPECS
from engine.buttons.state import (
    LINE_BONUS,
    PLAIN_DICE,
    TARGET,
    ButtonsState,
    Cell,
    Phase,
    PlayerBoard,
    Roll,
    Status,
)
from engine.core import (
    Action,
    ArgValue,
    Bot,
    Event,
    Outcome,
    Prompt,
    RandomBot,
    Rules,
    Scalar,
    rank,
)
from engine.rng import Rng
from engine.words import ENGLISH, Words


class ButtonsRules(Rules[ButtonsState]):
    """Buttons for 2 to 4 players."""

    id = "buttons"
    name = "Buttons"
    min_players = 2
    max_players = 4
    state_type = ButtonsState
    option_specs = OPTION_SPECS

    # -- setup -------------------------------------------------------------

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> ButtonsState:
        faces = list(range(len(FACES)))
        rng.shuffle(faces)
        removed = None
        if seats == 3:
            # The physical rule: set aside one card, never the red one (section 3).
            removed = rng.choice([c for c in Colour if c is not Colour.RED])
        deck = [c for c in Colour if c is not removed]
        rng.shuffle(deck)
        per_seat = len(deck) // seats
        boards = [
            PlayerBoard(
                face=faces[seat], bonus=sorted(deck[seat * per_seat : (seat + 1) * per_seat], key=_order)
            )
            for seat in range(seats)
        ]
        starter = _red_holder(boards)
        return ButtonsState(
            rng=rng,
            boards=boards,
            removed=removed,
            starter=starter,
            active=starter,
            two_dice_2p=bool(options.get("two_dice_2p", False)),
        )

    def opening(self, state: ButtonsState) -> tuple[Event, ...]:
        """Round 1 is announced like every later round: starter and bonus colours."""
        return (_round_event(state),)

    # -- prompts -----------------------------------------------------------

    def prompts(self, state: ButtonsState) -> tuple[Prompt, ...]:
        if state.phase is Phase.TURN:
            board = state.boards[state.active]
            options = (ROLL, STOP) if board.buttons else (ROLL,)
            context: tuple[tuple[str, ArgValue], ...] = (
                ("dice", 2 + state.pool),
                ("buttons", len(board.buttons)),
            )
            return (Prompt(state.active, "turn", options, default=options[-1], context=context),)
        if state.phase is Phase.PLACE:
            return tuple(self._place_prompt(state, seat) for seat in state.waiting)
        if state.phase is Phase.STARS:
            return tuple(
                Prompt(
                    seat,
                    "star",
                    tuple(star(cell) for cell in sorted(board.buttons)),
                    default=star(min(board.buttons)),
                    context=(("stars_due", board.stars_due),),
                )
                for seat, board in enumerate(state.boards)
                if board.stars_due > 0
            )
        return ()

    def _place_prompt(self, state: ButtonsState, seat: int) -> Prompt:
        roll = state.roll
        assert roll is not None
        cells = state.candidate_cells(seat)
        context: tuple[tuple[str, ArgValue], ...]
        if seat == state.active:
            context = (("white", roll.white), ("gold", roll.gold), ("black", tuple(roll.columns())))
            options = tuple(place(cell) for cell in cells)
            return Prompt(seat, "place", options, default=options[0], context=context)
        context = (("white", roll.white), ("gold", roll.gold), ("roller", state.active))
        return Prompt(
            seat, "gold", (place(cells[0]), DECLINE), default=DECLINE, context=context, optional=True
        )

    # -- play --------------------------------------------------------------

    def _play(self, state: ButtonsState, seat: int, action: Action) -> Iterable[Event]:
        events: list[Event] = []
        if action == ROLL:
            self._roll(state, events)
        elif action == STOP:
            board = state.boards[seat]
            board.status = Status.OPTED_OUT
            taken = self._take_dice(state, board)
            events.append(Event("stop", {"seat": seat, "buttons": len(board.buttons), "dice": taken}))
            self._next_turn(state, events)
        elif action.kind == "place":
            cell = cell_of(action)
            board = state.boards[seat]
            board.buttons.append(cell)
            state.waiting.remove(seat)
            events.append(
                Event(
                    "place",
                    {
                        "seat": seat,
                        "row": cell[0],
                        "col": cell[1],
                        "colour": board.colour(cell).value,
                        "gold": seat != state.active,
                    },
                )
            )
            if not state.waiting:
                self._next_turn(state, events)
        elif action == DECLINE:
            state.waiting.remove(seat)
            events.append(Event("decline", {"seat": seat}))
            if not state.waiting:
                self._next_turn(state, events)
        elif action.kind == "star":
            self._place_star(state, seat, cell_of(action), events)
            if all(b.stars_due == 0 for b in state.boards):
                self._finish_round(state, events)
        else:  # prompts() never offers anything else, and apply() checked the action
            raise AssertionError(action)
        return events

    def _roll(self, state: ButtonsState, events: list[Event]) -> None:
        rng = state.rng
        white, gold = rng.die(), rng.die()
        roll = Roll(white=white, gold=gold, plain=[rng.die() for _ in range(state.pool)], seat=state.active)
        state.roll = roll
        state.phase = Phase.PLACE
        active = state.active
        events.append(
            Event(
                "roll",
                {"seat": active, "white": white, "gold": gold, "plain": list(roll.plain)},
                checkpoint=True,
            )
        )
        state.waiting = [seat for seat, board in enumerate(state.boards) if board.status is Status.IN]
        # Seats with nothing they may do are settled at once: no prompt with no real choice.
        state.waiting = [seat for seat in state.waiting if state.candidate_cells(seat)]
        if active not in state.waiting:
            board = state.boards[active]
            lost = len(board.buttons)
            board.buttons.clear()
            board.status = Status.BUSTED
            roll.bust = True
            taken = self._take_dice(state, board)
            events.append(Event("bust", {"seat": active, "lost": lost, "dice": taken}))
        if not state.waiting:
            self._next_turn(state, events)

    def _take_dice(self, state: ButtonsState, board: PlayerBoard) -> int:
        taken = min(state.dice_per_exit(), state.pool)
        state.pool -= taken
        board.dice_aside += taken
        return taken

    def _next_turn(self, state: ButtonsState, events: list[Event]) -> None:
        """Pass the dice clockwise to the next player still in, or end the round."""
        n = state.seats
        for step in range(1, n + 1):
            seat = (state.active + step) % n
            if state.boards[seat].status is Status.IN:
                state.active = seat
                state.phase = Phase.TURN
                events.append(Event("turn", {"seat": seat, "dice": 2 + state.pool}))
                return
        self._score_round(state, events)

    def _score_round(self, state: ButtonsState, events: list[Event]) -> None:
        for seat, board in enumerate(state.boards):
            parts = board.round_stars()
            earned = sum(parts.values())
            # Never more stars than buttons: k sets need 3k buttons for at most 1 + 2k stars.
            assert earned <= len(board.buttons)
            board.earned = earned
            board.stars_due = earned
            events.append(Event("score", {"seat": seat, "stars": earned, **parts}))
            if earned == len(board.buttons):
                # No choice to make: every button becomes a star.
                for cell in sorted(board.buttons):
                    self._place_star(state, seat, cell, events)
        state.phase = Phase.STARS
        if all(b.stars_due == 0 for b in state.boards):
            self._finish_round(state, events)

    def _place_star(self, state: ButtonsState, seat: int, cell: Cell, events: list[Event]) -> None:
        board = state.boards[seat]
        board.buttons.remove(cell)
        board.stars.append(cell)
        board.stars.sort()
        board.stars_due -= 1
        events.append(Event("star", {"seat": seat, "row": cell[0], "col": cell[1]}))

    def _finish_round(self, state: ButtonsState, events: list[Event]) -> None:
        for board in state.boards:
            board.buttons.clear()
        state.waiting = []
        if any(board.score >= TARGET for board in state.boards):
            state.phase = Phase.OVER
            events.append(Event("game_over", {"scores": [b.score for b in state.boards]}))
            return
        # Cards pass clockwise after scoring (section 3).
        held = [board.bonus for board in state.boards]
        for seat, board in enumerate(state.boards):
            board.bonus = held[seat - 1]
            board.status = Status.IN
            board.dice_aside = 0
        state.round += 1
        state.pool = PLAIN_DICE
        state.roll = None
        state.starter = state.active = _red_holder(state.boards)
        state.phase = Phase.TURN
        events.append(_round_event(state))

    # -- results -----------------------------------------------------------

    def outcome(self, state: ButtonsState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        scores = tuple(board.score for board in state.boards)
        breakdown = tuple(
            {"stars": len(board.stars), "line of 5": LINE_BONUS if board.has_line() else 0}
            for board in state.boards
        )
        return Outcome(scores, rank(scores), breakdown)

    def describe(self, event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
        return text.describe(event, names, words=words)

    def bots(self) -> Mapping[str, Bot[ButtonsState]]:
        return BOTS

    def clone(self, state: ButtonsState) -> ButtonsState:
        return clone_state(state)


def clone_state(state: ButtonsState) -> ButtonsState:
    """A deep copy written out by hand: several times faster than copy.deepcopy."""
    roll = state.roll
    return ButtonsState(
        version=state.version,
        rng=Rng(state.rng.state),
        undo_seat=state.undo_seat,
        undo_depth=state.undo_depth,
        boards=[
            PlayerBoard(
                face=b.face,
                stars=list(b.stars),
                buttons=list(b.buttons),
                bonus=list(b.bonus),
                status=b.status,
                dice_aside=b.dice_aside,
                stars_due=b.stars_due,
                earned=b.earned,
            )
            for b in state.boards
        ],
        round=state.round,
        phase=state.phase,
        active=state.active,
        starter=state.starter,
        pool=state.pool,
        roll=None
        if roll is None
        else Roll(white=roll.white, gold=roll.gold, plain=list(roll.plain), seat=roll.seat, bust=roll.bust),
        waiting=list(state.waiting),
        removed=state.removed,
        two_dice_2p=state.two_dice_2p,
    )


BOTS: Mapping[str, Bot[ButtonsState]] = {
    "random": RandomBot(),
    "easy": easy_bot(),
    "normal": NormalBot(),
    "hard": hard_bot(ButtonsRules()),
}
"""The bot policies by name: "random" and the three levels."""


def _round_event(state: ButtonsState) -> Event:
    """The start of a round: its number, the starter and everyone's bonus colours."""
    return Event(
        "round",
        {
            "round": state.round,
            "starter": state.starter,
            "bonus": [[c.value for c in b.bonus] for b in state.boards],
        },
    )


def _order(colour: Colour) -> int:
    return list(Colour).index(colour)


def _red_holder(boards: list[PlayerBoard]) -> int:
    return next(seat for seat, board in enumerate(boards) if Colour.RED in board.bonus)


RULES = ButtonsRules()
"""The rules object the game registry loads."""
