"""Helpers shared by the bench scripts: percentiles, one-line summaries of timings, engine step timing.

The scripts import it as a sibling module (`from timing import ...`): running
`.venv/bin/python bench/bench_X.py` puts bench/ on sys.path.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine.core import Record, Rules
from engine.play import run_game

SCALES = {"s": 1.0, "ms": 1e3, "us": 1e6}


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def nearest_rank(values: Sequence[float], fraction: float) -> float:
    """The `fraction` percentile by nearest rank (the rounded rank, counted from 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def spread(
    values: Sequence[float],
    points: Sequence[str] = ("p50", "p99"),
    unit: str = "us",
    spec: str = "7.1f",
    sep: str = "  ",
    rank: Callable[[Sequence[float], float], float] = percentile,
) -> str:
    """Times in seconds as named points in `unit`, e.g. "p50    12.3 us  p99    40.1 us".

    A point is "pNN" (the NN-th percentile by `rank`), "max" or "mean".
    """
    scale = SCALES[unit]
    parts = []
    for point in points:
        if point == "max":
            value = max(values)
        elif point == "mean":
            value = statistics.fmean(values)
        else:
            value = rank(values, int(point.removeprefix("p")) / 100)
        parts.append(f"{point} {value * scale:{spec}} {unit}")
    return sep.join(parts)


def record_games(rules: Rules[Any], players: int, games: int, policy: str) -> tuple[list[Record], float]:
    """Play seeds 0..games-1 with one bot policy for every seat; return the records and the CPU time."""
    start = time.process_time()
    records = [run_game(rules, players, seed, policies=[policy] * players).record for seed in range(games)]
    return records, time.process_time() - start


class StepTimes(NamedTuple):
    """Seconds per replayed step, and the sum of the apply times (the engine alone)."""

    applies: list[float]
    prompts: list[float]
    choices: list[float]
    engine: float


def time_steps(rules: Rules[Any], records: list[Record]) -> StepTimes:
    """Replay records timing apply, prompts and a greedy choice per step (CPU time)."""
    applies: list[float] = []
    prompts: list[float] = []
    choices: list[float] = []
    clock = time.process_time  # CPU time: other processes on the machine do not inflate it
    for record in records:
        state = rules.setup(record.seats, record.options, record.seed)
        for move in record.moves:
            t0 = clock()
            found = rules.prompts(state)
            t1 = clock()
            rules.bot_action(state, found[0], "greedy")
            t2 = clock()
            state = rules.apply(state, move.seat, move.action).state
            t3 = clock()
            prompts.append(t1 - t0)
            choices.append(t2 - t1)
            applies.append(t3 - t2)
    return StepTimes(applies, prompts, choices, sum(applies))
