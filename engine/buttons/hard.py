"""The `hard` level of Buttons: Monte Carlo playouts to the end of the round, judged by the chance of winning.

For each option the bot plays the rest of the round many times over with fresh dice (the same
dice for every option), its own later decisions played by the normal bot and the other seats'
by the quick `RolloutBot` (which rolls or stops as normal does), and keeps the option whose
rounds end best on average; the normal bot's own choice wins unless another beats it by
`FAVOUR`. A round's end is judged by a logistic model of the chance of winning from the stars
and the windows of five they start (`WIN_ODDS`), or by the real result when the game ended
there. Playing the opponents' turns is what the old expectimax missed: the gold buttons their
rolls bring, the dice their exits take, and the race to 12.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from engine.buttons.bots import _WINDOWS, NormalBot, RolloutBot, best_star
from engine.buttons.state import ButtonsState, Cell, Phase
from engine.core import Action, Prompt, Rules, rank
from engine.rng import Rng
from engine.search import MonteCarloBot

WIN_ODDS = (0.274, -0.012, 0.020, 0.091, 0.718)
"""Log-odds of winning per star, and per window of five holding 1, 2, 3 or 4 stars.

Fitted by logistic regression on the boards at the start of each round of 2,500 games
between normal bots (`bench/fit_buttons_odds.py`); the differences between two players'
sums predict who wins."""
SAMPLES = 128
"""Sampled rounds each option plays at most."""
FIRST = 32
"""Sampled rounds in the first batch; each later batch doubles the count, while time allows."""
BUDGET = 1.0
"""Seconds after which no new batch starts (a guard for a loaded machine)."""
CONFIDENCE = 3.0
"""No new batch once the best option leads the next by this many standard errors (clear calls stay cheap)."""
FAVOUR = 0.02
"""Win chance per playout the normal bot's own choice is given: the search overrules it only by more."""
MAX_STEPS = 400
"""Decisions a playout makes at most (a round rarely needs 60)."""


def windows_holding(stars: Sequence[Cell]) -> list[int]:
    """How many windows of five hold 1, 2, 3 and 4 of these stars."""
    placed = set(stars)
    by_count = [0] * 6
    for window in _WINDOWS:
        by_count[sum(1 for cell in window if cell in placed)] += 1
    return by_count[1:5]


def log_odds(stars: Sequence[Cell]) -> float:
    """What a board's stars are worth towards winning, in log-odds (WIN_ODDS)."""
    per_star, *per_window = WIN_ODDS
    counts = windows_holding(stars)
    return per_star * len(set(stars)) + sum(w * n for w, n in zip(per_window, counts, strict=True))


def win_chance(state: ButtonsState, seat: int) -> float:
    """The seat's chance of winning from a round's end: the result itself once the game is over."""
    if state.phase is Phase.OVER:
        ranks = rank([board.score for board in state.boards])
        return 1 / ranks.count(1) if ranks[seat] == 1 else 0.0
    odds = [log_odds(board.stars) for board in state.boards]
    mine = odds.pop(seat)
    return 1 / (1 + math.exp(max(odds) - mine))


def round_of(state: ButtonsState) -> Hashable:
    """The round a state is in: a playout ends when it changes."""
    return state.round


_GUIDE = NormalBot()
"""The policy whose choice each search starts from (and favours), and that plays the bot's own
later decisions in its playouts (the quick rollout plays the other seats)."""
_UNUSED_RNG = Rng.from_seed(0)


def shortlist(view: ButtonsState, prompt: Prompt) -> Sequence[Action]:
    """Every option, the normal bot's choice first; stars go where the normal bot puts them."""
    if prompt.kind == "star":
        return [best_star(view.boards[prompt.seat], prompt.options)]
    guess = _GUIDE.choose(view, prompt, _UNUSED_RNG)
    return [guess, *(option for option in prompt.options if option != guess)]


def hard_bot(rules: Rules[ButtonsState]) -> MonteCarloBot[ButtonsState]:
    """The `hard` level, searching with `rules`' playouts."""
    return MonteCarloBot(
        rules,
        RolloutBot(),
        shortlist=shortlist,
        evaluate=win_chance,
        seen=lambda state, seat: state,
        samples=SAMPLES,
        first=FIRST,
        budget=BUDGET,
        drop=False,
        handovers=MAX_STEPS,
        max_steps=MAX_STEPS,
        until=round_of,
        confidence=CONFIDENCE,
        favour=FAVOUR,
        own=_GUIDE,
    )
