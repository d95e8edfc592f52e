"""The Monte Carlo search of the hard level: plain sampling and successive halving."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core import Action, Event, GameState, Outcome, Prompt, RandomBot, Rules, Scalar
from engine.rng import Rng
from engine.search import MonteCarloBot

ARMS = (0.2, 0.5, 0.45, 0.1, 0.3, 0.35)
"""Chance that each option of the toy game wins."""


@dataclass(slots=True, kw_only=True)
class BanditState(GameState):
    """A one-decision game: pick an arm, then a die decides whether it pays."""

    picked: int | None = None
    won: bool = False
    draws: list[int] = field(default_factory=list)


class BanditRules(Rules[BanditState]):
    """Seat 0 picks one of the ARMS; arm k pays with chance ARMS[k]."""

    id = "bandit"
    name = "Bandit"
    min_players = 1
    max_players = 1
    state_type = BanditState

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> BanditState:
        return BanditState(rng=rng)

    def prompts(self, state: BanditState) -> tuple[Prompt, ...]:
        if state.picked is not None:
            return ()
        return (Prompt(0, "arm", tuple(Action.of("arm", k=k) for k in range(len(ARMS)))),)

    def _play(self, state: BanditState, seat: int, action: Action) -> Iterable[Event]:
        state.picked = action["k"]
        draw = state.rng.below(1000)
        state.draws.append(draw)
        state.won = draw < ARMS[state.picked] * 1000
        return ()

    def outcome(self, state: BanditState) -> Outcome | None:
        if state.picked is None:
            return None
        return Outcome((int(state.won),), (1,))


RULES = BanditRules()


def _bot(
    arms: tuple[int, ...] | None = None, **kwargs: int | float | None
) -> tuple[MonteCarloBot[BanditState], list[int]]:
    """A search bot over these arms (every arm by default), and the list of arms its playouts tried."""
    tried: list[int] = []

    def evaluate(state: BanditState, seat: int) -> float:
        assert state.picked is not None
        tried.append(state.picked)
        return float(state.won)

    bot = MonteCarloBot(
        RULES,
        RandomBot(),
        shortlist=lambda view, prompt: prompt.options if arms is None else [prompt.options[k] for k in arms],
        evaluate=evaluate,
        seen=lambda state, seat: state,
        **kwargs,  # type: ignore[arg-type]
    )
    return bot, tried


def _choose(bot: MonteCarloBot[BanditState], seed: int) -> int:
    state = RULES.setup(1, None, 0)
    prompt = RULES.prompts(state)[0]
    choice: int = bot.choose(RULES.view(state, 0), prompt, Rng.from_seed(seed))["k"]
    return choice


def test_plain_sampling_plays_every_option_on_every_sample() -> None:
    bot, tried = _bot(samples=40)
    _choose(bot, 1)
    assert sorted(set(tried)) == list(range(len(ARMS)))
    assert len(tried) == 40 * len(ARMS)


def test_successive_halving_spends_fewer_playouts_and_still_finds_the_best_arms() -> None:
    plain, plain_tried = _bot(samples=256)
    halving, halving_tried = _bot(samples=256, first=32)
    picks = [_choose(halving, seed) for seed in range(20)]
    _choose(plain, 0)
    per_choice = len(halving_tried) / 20
    # 6 x 32 + 3 x 32 + 2 x 64 + nothing once one is left: 416 of plain sampling's 1536.
    assert per_choice == 6 * 32 + 3 * 32 + 2 * 64
    assert per_choice < len(plain_tried) / 3
    # The two best arms (0.5 and 0.45) are the only ones it ever keeps.
    assert set(picks) <= {1, 2}
    assert picks.count(1) > picks.count(2)


def test_common_random_numbers_give_every_option_the_same_futures() -> None:
    seen: dict[int, list[int]] = {}

    def evaluate(state: BanditState, seat: int) -> float:
        assert state.picked is not None
        seen.setdefault(state.picked, []).extend(state.draws)
        return float(state.won)

    bot = MonteCarloBot(
        RULES,
        RandomBot(),
        shortlist=lambda view, prompt: prompt.options,
        evaluate=evaluate,
        seen=lambda state, seat: state,
        samples=8,
    )
    _choose(bot, 3)
    assert all(draws == seen[0] for draws in seen.values())


def test_a_spent_budget_stops_the_halving_after_its_first_round() -> None:
    bot, tried = _bot(samples=256, first=8, budget=0.0)
    _choose(bot, 5)
    assert len(tried) == 8 * len(ARMS)


def test_without_dropping_every_option_plays_every_batch() -> None:
    bot, tried = _bot(samples=64, first=16, drop=False)
    _choose(bot, 2)
    assert sorted(tried) == sorted(k for k in range(len(ARMS)) for _ in range(64))


def test_a_spent_budget_stops_the_batches_without_dropping_too() -> None:
    bot, tried = _bot(samples=64, first=16, drop=False, budget=0.0)
    _choose(bot, 2)
    assert len(tried) == 16 * len(ARMS)


def test_a_clear_leader_ends_the_batches_early_and_a_close_race_plays_on() -> None:
    settings: dict[str, int | float | None] = {"samples": 256, "first": 32, "drop": False, "confidence": 3.0}
    # Arm 1 pays on 50% of the futures and arm 3 on 10% of the same ones: a lead of 0.4 shows at once.
    clear, clear_tried = _bot((1, 3), **settings)
    assert _choose(clear, 4) == 1
    assert len(clear_tried) == 2 * 32
    # Arms 1 and 2 (50% and 45%) differ on one future in twenty: it takes far more batches.
    close, close_tried = _bot((1, 2), **settings)
    _choose(close, 4)
    assert len(close_tried) >= 2 * 128


def test_the_favoured_first_option_loses_only_to_a_lead_larger_than_its_favour() -> None:
    settings: dict[str, int | float | None] = {"samples": 256, "first": 32, "drop": False, "confidence": 3.0}
    # Arm 2 (45%) listed first against arm 1 (50%): a favour of 0.1 covers the 5-point gap.
    plain, _ = _bot((2, 1), **settings)
    favoured, _ = _bot((2, 1), favour=0.1, **settings)
    assert [_choose(plain, seed) for seed in range(5)].count(1) >= 3
    assert [_choose(favoured, seed) for seed in range(5)] == [2] * 5
    # Arm 3 (10%) first against arm 1: a lead of 40 points overrules the same favour at once.
    overruled, tried = _bot((3, 1), favour=0.1, **settings)
    assert _choose(overruled, 4) == 1
    assert len(tried) == 2 * 32
