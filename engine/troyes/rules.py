"""The Troyes rules object: setup, prompts, play, view, outcome, bots."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from engine.core import Action, Bot, Event, Outcome, Prompt, Rules, Scalar, rank
from engine.rng import Rng
from engine.troyes import actions, text
from engine.troyes.bots import GreedyBot, RandomTroyesBot, easy_bot
from engine.troyes.hard import SearchBot
from engine.troyes.kinds import HIDDEN, Phase
from engine.troyes.options import OPTION_SPECS
from engine.troyes.scoring import breakdown
from engine.troyes.setup import new_game
from engine.troyes.state import TroyesState
from engine.words import ENGLISH, Words


class TroyesRules(Rules[TroyesState]):
    """Troyes (Pearl Games 2010) for 2 to 4 players, as Board Game Arena plays it."""

    id = "troyes"
    name = "Troyes"
    min_players = 2
    max_players = 4
    state_type = TroyesState
    hidden_information = True  # victory points and character cards
    option_specs = OPTION_SPECS

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> TroyesState:
        return new_game(seats, bool(options["tiebreak"]), rng)

    def prompts(self, state: TroyesState) -> tuple[Prompt, ...]:
        prompt = actions.current_prompt(state)
        return () if prompt is None else (prompt,)

    def _play(self, state: TroyesState, seat: int, action: Action) -> Iterable[Event]:
        return actions.play(state, seat, action)

    def clone(self, state: TroyesState) -> TroyesState:
        return state.copy()

    def _redact(self, state: TroyesState, seat: int | None) -> None:
        over = state.phase is Phase.OVER
        for other, player in enumerate(state.players):
            if other != seat and not over:
                player.vp = 0
                player.characters = [HIDDEN] * len(player.characters)
        state.character_deck = [HIDDEN] * len(state.character_deck)
        state.red_deck = [HIDDEN] * len(state.red_deck)
        state.white_deck = [HIDDEN] * len(state.white_deck)
        state.yellow_deck = [HIDDEN] * len(state.yellow_deck)
        for slot in state.cards:
            if not slot.revealed:
                slot.id = HIDDEN

    def outcome(self, state: TroyesState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        lines = tuple(breakdown(state, seat) for seat in range(state.seats))
        scores = tuple(line["Total"] for line in lines)
        if state.tiebreak:
            keys = [(s, p.deniers, p.influence) for s, p in zip(scores, state.players, strict=True)]
            ranks = rank(keys)
        else:
            ranks = rank(scores)
        winners = [f"Player {seat + 1}" for seat, r in enumerate(ranks) if r == 1]
        summary = ("Winner: " if len(winners) == 1 else "Shared victory: ") + ", ".join(winners)
        return Outcome(scores, ranks, lines, summary)

    def describe(self, event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
        return text.describe(event, names, words=words)

    def bots(self) -> Mapping[str, Bot[TroyesState]]:
        return BOTS


RULES = TroyesRules()

HARD_BUDGET = 1.0
"""Seconds of wall clock a hard bot may think about one turn (it stops at the next playout)."""

BOTS: Mapping[str, Bot[TroyesState]] = MappingProxyType(
    {
        "random": RandomTroyesBot(),
        "easy": easy_bot(),
        "normal": GreedyBot(),
        "hard": SearchBot(budget=HARD_BUDGET),
    }
)
"""The bot policies by name (stateless, so one of each serves every game)."""
