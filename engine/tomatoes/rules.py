"""The Diced Tomatoes rules object: setup, prompts, play, views, result, bots and the event log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from types import MappingProxyType

from engine.core import Action, Bot, Event, Outcome, Prompt, RandomBot, Rules, Scalar
from engine.rng import Rng
from engine.search import MonteCarloBot
from engine.tomatoes import scoring, text, turn
from engine.tomatoes.bots import NormalBot, bot_view, easy_bot, evaluate, horizon, shortlist
from engine.tomatoes.events import Ev
from engine.tomatoes.forced import PLACE_REST, forced_rest
from engine.tomatoes.karma import KARMA_ACTIONS, apply_karma, karma_options
from engine.tomatoes.offered import offered, plain
from engine.tomatoes.options import OPTION_SPECS, table_options
from engine.tomatoes.placement import placements
from engine.tomatoes.state import (
    TOKENS_PER_PLAYER,
    Colour,
    Phase,
    PlayerState,
    Token,
    TomatoState,
)
from engine.tomatoes.vines import clear_token, place_die
from engine.words import ENGLISH, Words

RED_PER_PLAYER = 11
BLACK_PER_PLAYER = 2
GOLD_PER_PLAYER = 1

ROLL = Action("roll")
"""Take dice from the bushel at random and roll them with the passed dice."""
END_TURN = Action("end_turn")
"""End the turn: pass the dice that cannot be placed."""
KEEP = Action("keep")
"""Finish the turn at the end-of-turn step (keeping any zero-value vines left)."""


@cache
def place_action(die: int, owner: int, token: int) -> Action:
    """The action placing rolled die `die` on token `token` of seat `owner`."""
    return Action("place", (("die", die), ("owner", owner), ("token", token)))


class TomatoRules(Rules[TomatoState]):
    """Diced Tomatoes for 1 to 6 players, with BGA's variants as table options."""

    id = "tomatoes"
    name = "Diced Tomatoes"
    min_players = 1
    max_players = 6
    state_type = TomatoState
    option_specs = OPTION_SPECS

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> TomatoState:
        table = table_options(options)
        bushel = {Colour.RED: RED_PER_PLAYER * seats, Colour.BLACK: BLACK_PER_PLAYER * seats}
        if table.golden_hybrid:
            bushel[Colour.GOLD] = GOLD_PER_PLAYER * seats
        players = [PlayerState(tokens=[Token() for _ in range(TOKENS_PER_PLAYER)]) for _ in range(seats)]
        # Section 4 / 15 item 12: the lowest opening roll makes the last player; drawing the
        # first player uniformly is equivalent and needs no re-roll of ties.
        first = rng.below(seats)
        state = TomatoState(
            rng=rng,
            options=table,
            players=players,
            bushel=bushel,
            first_seat=first,
            total_dice=sum(bushel.values()),
        )
        turn.start_turn(state, first)
        return state

    # -- decisions ---------------------------------------------------------

    def prompts(self, state: TomatoState) -> tuple[Prompt, ...]:
        seat = state.active
        if state.phase is Phase.ROLL:
            return (self._roll_prompt(state),)
        if state.phase is Phase.PLACE:
            return (self._place_prompt(state),)
        if state.phase is Phase.CLEAR:
            # The end-of-turn step: clear your zero vines, spend karma (seed: "at any time
            # during active player's turn"; bits for passed dice arrive here), or finish.
            zero = tuple(turn.zero_vines(state))
            karma = karma_options(state) if state.options.end_step_karma else []
            options = (*(Action.of("clear", token=t) for t in zero), KEEP, *karma)
            context = (("tokens", zero), ("karma", state.players[seat].karma))
            return (Prompt(seat, "clear", options, default=KEEP, context=context),)
        return ()

    def _roll_prompt(self, state: TomatoState) -> Prompt:
        player = state.players[state.active]
        context = (
            ("take", turn.dice_to_take(state)),
            ("held", len(player.hand)),
            ("bushel_red", state.bushel.get(Colour.RED, 0)),
            ("bushel_black", state.bushel.get(Colour.BLACK, 0)),
            ("bushel_gold", state.bushel.get(Colour.GOLD, 0)),
        )
        if state.options.pick_colours and turn.dice_to_take(state):
            rolls = tuple(Action.of("roll", red=r, black=b, gold=g) for r, b, g in turn.colour_mixes(state))
        else:
            rolls = (ROLL,)
        # Karma may be spent "at any time during active player's turn", before the roll too:
        # with no dice rolled yet, that is cleaning a vine or flipping a seed.
        options = (*rolls, *karma_options(state))
        return Prompt(state.active, "roll", options, default=rolls[0], context=context)

    def _place_prompt(self, state: TomatoState) -> Prompt:
        legal = placements(state)
        options = [place_action(d, o, t) for d, o, t in legal]
        rest = forced_rest(state, legal, self.clone)
        if rest is not None:
            options.append(PLACE_REST)
        if not legal:
            options.append(END_TURN)
        options += karma_options(state)
        context = (
            ("colours", tuple(d.colour.value for d in state.rolled)),
            ("values", tuple(d.value for d in state.rolled)),
            ("placeable", tuple(sorted({d for d, _, _ in legal}))),
            ("karma", state.players[state.active].karma),
            ("must_place", bool(legal)),
            ("rest", tuple(x for placement in rest or () for x in placement)),
        )
        return Prompt(
            state.active,
            "place",
            tuple(options),
            default=None if legal else END_TURN,
            context=context,
        )

    def is_offered(self, state: TomatoState, seat: int, action: Action) -> bool:
        """Whether `action` is offered to `seat` now, checked directly (`offered`) when it is plain.

        Same answer as membership in the prompt (a property test holds them equal), without
        listing every placement and karma action again on each apply.
        """
        if plain(action) and action != PLACE_REST:  # rare: checked against the prompt itself
            return offered(state, seat, action)
        return super().is_offered(state, seat, action)

    # -- play --------------------------------------------------------------

    def _play(self, state: TomatoState, seat: int, action: Action) -> Iterable[Event]:
        kind = action.kind
        if kind == "place":
            return place_die(state, action["die"], action["owner"], action["token"])
        if kind == PLACE_REST.kind:
            rest = forced_rest(state, placements(state), self.clone)
            assert rest is not None  # apply() checked that it is offered
            return [event for placement in rest for event in place_die(state, *placement)]
        if kind in KARMA_ACTIONS:
            events = apply_karma(state, action)
            if state.phase is Phase.CLEAR and not turn.end_step_open(state):
                events += turn.finish_turn(state)
            return events
        if kind == "roll":
            if action.args:
                drawn = turn.draw_mix(state, (action["red"], action["black"], action["gold"]))
            else:
                drawn = turn.draw_random(state)
            return turn.roll(state, drawn)
        if kind == "end_turn":
            return turn.end_turn(state)
        if kind == "clear":
            events = [clear_token(state, seat, action["token"], Ev.CLEAR)]
            if turn.end_step_open(state):
                return events
            return events + turn.finish_turn(state)
        if kind == "keep":
            return turn.finish_turn(state)
        raise AssertionError(f"unhandled action {kind}")

    def outcome(self, state: TomatoState) -> Outcome | None:
        return scoring.outcome(state)

    def opening(self, state: TomatoState) -> tuple[Event, ...]:
        """The first player's first turn, logged like every later turn."""
        data = {"seat": state.active, "turn": state.players[state.active].turns, "final_round": False}
        return (Event(Ev.TURN, data, checkpoint=True),)

    def describe(self, event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
        return text.describe(event, names, words=words)

    # -- bots and copies ---------------------------------------------------

    def bots(self) -> Mapping[str, Bot[TomatoState]]:
        return BOTS

    def bot_action(self, state: TomatoState, prompt: Prompt, policy: str = "normal") -> Action:
        """As `Rules.bot_action`, but the bot reads `bot_view` (no secret but the generator) not a copy."""
        bot = BOTS[self.policy(policy)]
        # Seeded from public facts only, as in the base, so a choice reveals nothing of the dice.
        return bot.choose(bot_view(state), prompt, Rng.from_seed(state.version, prompt.seat))

    def clone(self, state: TomatoState) -> TomatoState:
        """A fast deep copy: dice, slots and options are immutable and shared.

        Built with __new__ and plain attribute writes, about twice as fast as the dataclass
        constructors; a field added to the state must be added here (a test checks them all).
        """
        new = object.__new__
        copy: TomatoState = new(TomatoState)
        copy.version = state.version
        copy.rng = Rng(state.rng.state)
        copy.undo_seat = state.undo_seat
        copy.undo_depth = state.undo_depth
        copy.options = state.options
        players = []
        for player in state.players:
            twin: PlayerState = new(PlayerState)
            tokens = []
            for token in player.tokens:
                fresh: Token = new(Token)
                fresh.dice = token.dice[:]
                tokens.append(fresh)
            twin.tokens = tokens
            twin.slots = player.slots[:]
            twin.karma = player.karma
            twin.karma_bits = player.karma_bits
            twin.hand = player.hand[:]
            twin.turns = player.turns
            players.append(twin)
        copy.players = players
        copy.bushel = dict(state.bushel)
        copy.rolled = state.rolled[:]
        copy.active = state.active
        copy.first_seat = state.first_seat
        copy.phase = state.phase
        copy.final_round = state.final_round
        copy.first_to_six = state.first_to_six
        copy.total_dice = state.total_dice
        copy.ended = state.ended
        return copy


RULES = TomatoRules()
"""The Diced Tomatoes rules object registered as "tomatoes"."""

HARD_SAMPLES = 16
"""Sampled futures the best searched option plays (the same ones for every option)."""
HARD_FIRST = 4
"""Sampled futures every searched option plays before the worse half is dropped (successive halving)."""
HARD_BUDGET = 1.0
"""Seconds after which the hard bot starts no new halving round (a guard for a loaded machine)."""

BOTS: Mapping[str, Bot[TomatoState]] = MappingProxyType(
    {
        "random": RandomBot(),
        "easy": easy_bot(),
        "normal": NormalBot(),
        "hard": MonteCarloBot(
            RULES,
            NormalBot(),
            shortlist=shortlist,
            evaluate=evaluate,
            seen=lambda state, seat: bot_view(state),
            samples=HARD_SAMPLES,
            first=HARD_FIRST,
            budget=HARD_BUDGET,
            # The rest of its own turn and the next player's whole turn; to the end near it.
            handovers=horizon,
        ),
    }
)
"""The bot policies by name (stateless, so one of each serves every game)."""
