"""Bot levels head to head: win rates per pair of levels and time per move per level.

Run by hand (not a test), for example:
    .venv/bin/python bench/bench_bots.py --games 400 --jobs 2
    .venv/bin/python bench/bench_bots.py --game buttons --games 100 --budget 600
    .venv/bin/python bench/bench_bots.py --game troyes --games 400 --budget 1200

2-player pairs: hard v normal, normal v easy, easy v random, each over seeds 0..games-1 (from
`--first-seed` on, to check a figure on fresh seeds) with the seats swapped on odd seeds.
Diced Tomatoes and Troyes also play 3- and 4-player tables of one hard bot (its seat turning
with the seed) against normal bots. Every bot move is timed, by level, in wall time and in CPU
time (the CPU figures are what a move costs on an idle machine; the wall figures grow with the
load of whatever else runs). Each win rate comes with its standard error.
`--budget` bounds the wall time: games not started by then are left out and the counts say so.
`--save FILE` keeps every game's result by match-up and seed (JSON); `--paired FILE` compares this
run with such a file seed by seed: a change that alters few decisions replays most games move for
move, so the paired difference is far more precise than two win rates side by side. For example:
    .venv/bin/python bench/bench_bots.py --game buttons --only "2p hard" --save main.json
    (change the bot)
    .venv/bin/python bench/bench_bots.py --game buttons --only "2p hard" --paired main.json
bench/results/buttons-hard-v-normal.json holds Buttons hard v normal on seeds 0..899 and
2000..2399 (58.6% over the 1,300; 64.6% on 0..399, 53.2% on 2000..2399) as the bots of commit
ab222f3 play them: `--paired` that file, with `--first-seed` for ranges past the first.
Its blocks of seeds differ more than binomial noise explains (100-seed blocks spread 3.6 times
the variance it predicts; replays are exact and nearby seeds' dice independent, so the cause is
unknown): screen a change on 800 seeds or more.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from timing import nearest_rank

from engine.games import GAMES, get_rules

ALL_GAMES = tuple(GAMES)
"""The games with bot levels."""
PAIRS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"))
"""The 2-player match-ups: the stronger level first."""
TABLES = {"tomatoes": (3, 4), "troyes": (3, 4)}
"""Games that also play one hard bot against normal bots at these table sizes."""
GOALS = {"hard v normal": 0.65, "normal v easy": 0.75, "easy v random": 0.60}
"""The share of games the stronger level must win (issue 14)."""


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: the game, one policy per seat and the seed."""

    game: str
    policies: tuple[str, ...]
    seed: int
    label: str
    """The match-up it counts for."""
    hero: int
    """The seat of the level the match-up is about (the stronger one)."""


@dataclass(frozen=True, slots=True)
class Result:
    """What one game gave: the hero's rank share and every bot move's time by level."""

    job: Job
    share: float
    """1 for a sole win, 1/k for a k-way tie for first, 0 otherwise."""
    times: dict[str, list[float]]
    cpu: dict[str, list[float]]
    """The same moves' CPU time in this process (what the move costs on an idle machine)."""


def play(job: Job) -> Result:
    """Play one game to its end, timing each bot decision."""
    rules = get_rules(job.game)
    state = rules.setup(len(job.policies), None, job.seed)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    while (outcome := rules.outcome(state)) is None:
        prompt = rules.prompts(state)[0]
        policy = job.policies[prompt.seat]
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = rules.bot_action(state, prompt, policy)
        times[policy].append(time.perf_counter() - start)
        cpu[policy].append(time.thread_time() - start_cpu)
        state = rules.apply(state, prompt.seat, action).state
    winners = outcome.winners
    share = 1 / len(winners) if job.hero in winners else 0.0
    return Result(job, share, dict(times), dict(cpu))


def jobs(games: Sequence[str], count: int, only: str = "", first: int = 0) -> Iterator[Job]:
    """Every game of the run (seeds first..first+count-1), interleaved so a cut-off run still
    samples every match-up."""
    seeds = range(first, first + count)
    plans: list[list[Job]] = []
    for game in games:
        for strong, weak in PAIRS:
            label = f"{game} 2p {strong} v {weak}"
            plans.append(
                [
                    Job(game, (strong, weak) if seed % 2 == 0 else (weak, strong), seed, label, seed % 2)
                    for seed in seeds
                ]
            )
        for seats in TABLES.get(game, ()):
            label = f"{game} {seats}p hard v {seats - 1} normal"
            plan = []
            for seed in seeds:
                hero = seed % seats
                policies = tuple("hard" if seat == hero else "normal" for seat in range(seats))
                plan.append(Job(game, policies, seed, label, hero))
            plans.append(plan)
    plans = [plan for plan in plans if only in plan[0].label]
    for index in range(count):
        for plan in plans:
            yield plan[index]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=(*ALL_GAMES, "all"), default="all")
    parser.add_argument("--games", type=int, default=400, help="seeds per match-up")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed played")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--budget", type=float, default=3600.0, help="wall-clock seconds at most")
    parser.add_argument(
        "--only", default="", help="only match-ups whose label holds this text, e.g. '2p hard'"
    )
    parser.add_argument("--save", type=Path, help="write every game's result by match-up and seed here")
    parser.add_argument("--paired", type=Path, help="compare seed by seed with a file --save wrote")
    args = parser.parse_args(argv)
    games = ALL_GAMES if args.game == "all" else (args.game,)

    by_seed: dict[str, dict[str, float]] = defaultdict(dict)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
    start = time.monotonic()
    cut = False
    with multiprocessing.Pool(args.jobs) as pool:
        planned = jobs(games, args.games, args.only, args.first_seed)
        for result in pool.imap_unordered(play, planned, chunksize=1):
            by_seed[result.job.label][str(result.job.seed)] = result.share
            for level, spent in result.times.items():
                times[(result.job.game, level)].extend(spent)
            for level, spent in result.cpu.items():
                cpu[(result.job.game, level)].extend(spent)
            if time.monotonic() - start > args.budget:
                cut = True
                pool.terminate()
                break
    wall = time.monotonic() - start

    print(
        f"Bot levels, {args.games} seeds per match-up asked (from seed {args.first_seed}), {wall:.0f} s wall"
        + (" (cut by --budget)" if cut else "")
    )
    print(f"\n{'match-up':42} {'games':>5} {'stronger wins':>13} {'± s.e.':>7}  goal")
    for label in sorted(by_seed):
        got = list(by_seed[label].values())
        rate = sum(got) / len(got)
        error = statistics.stdev(got) / math.sqrt(len(got)) if len(got) > 1 else 0.0
        goal = GOALS.get(label.split(" ", 2)[2])
        if goal is None:
            seats = int(label.split(" ")[1].rstrip("p"))
            mark = f"fair share {1 / seats:.0%}"
        else:
            mark = f">= {goal:.0%} {'met' if rate >= goal else 'NOT met'}"
        print(f"{label:42} {len(got):5d} {rate:12.1%} {error:7.1%}   {mark}")
    if args.save:
        args.save.write_text(json.dumps(by_seed, indent=1, sort_keys=True) + "\n")
    if args.paired:
        print_paired(by_seed, json.loads(args.paired.read_text()))
    print(
        f"\n{'time per move':22} {'moves':>7} {'p50':>9} {'p95':>9} {'max':>9} {'CPU p50':>9} {'CPU p95':>9}"
    )
    for (game, level), spent in sorted(times.items()):
        used = cpu[(game, level)]
        print(
            f"{game + ' ' + level:22} {len(spent):7d} {nearest_rank(spent, 0.5) * 1e3:7.2f}ms"
            f" {nearest_rank(spent, 0.95) * 1e3:7.2f}ms {max(spent) * 1e3:7.1f}ms"
            f" {nearest_rank(used, 0.5) * 1e3:7.2f}ms {nearest_rank(used, 0.95) * 1e3:7.2f}ms"
        )
    return 0


def print_paired(now: dict[str, dict[str, float]], before: dict[str, dict[str, float]]) -> None:
    """This run's win rate against a saved run's on the seeds both played, with the paired difference."""
    heading = f"{'paired with the saved run':42} {'seeds':>5} {'differ':>6} {'saved':>6} {'now':>6}"
    print(f"\n{heading}  difference")
    for label in sorted(now):
        seeds = sorted(set(now[label]) & set(before.get(label, {})), key=int)
        if not seeds:
            continue
        diffs = [now[label][seed] - before[label][seed] for seed in seeds]
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        saved = sum(before[label][seed] for seed in seeds) / len(seeds)
        mean = sum(diffs) / len(diffs)
        print(
            f"{label:42} {len(seeds):5d} {sum(1 for d in diffs if d):6d} {saved:6.1%}"
            f" {saved + mean:6.1%}  {mean:+.1%} ± {error:.1%}"
        )


if __name__ == "__main__":
    sys.exit(main())
