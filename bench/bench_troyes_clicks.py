"""Troyes clicks: answered prompts per action type over greedy-bot games, before and after.

Run by hand: .venv/bin/python bench/bench_troyes_clicks.py [--games N] [--ref main]

Every answered prompt is a click on Discord. A seat's clicks are added up until one of them
makes something happen (an event), and that action is classed by what happened: a citizen
placed, the cathedral built, a card activated with a tradesman already on it or with a new
hire, an event fought, agriculture, a pass, an influence use, a black die countered.

With --ref, the same count also runs on the engine of that git ref (exported with
`git archive` into a temporary directory) and the two tables are printed side by side.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from refs import engine_measure_on

ROOT = Path(__file__).resolve().parent.parent

ORDER = [
    "place a citizen",
    "build the cathedral",
    "activate a staffed card",
    "hire and activate a card",
    "fight an event",
    "agriculture",
    "pass",
    "influence (re-roll, flip, citizen)",
    "counter a black die",
    "stop countering (after a counter)",
    "cube on an event (after a card)",
    "setup placement",
]


def classify(seat: int, events: list[Any]) -> str | None:
    """The action type a seat's click completed, from the events it produced (None: nothing yet)."""
    mine = [e for e in events if e.data.get("seat") == seat]
    kinds = {e.kind for e in mine}
    for event in mine:
        if event.kind == "dice_used":
            target = str(event.data["target"])
            if target.startswith("card:"):
                hired = "tradesman" in kinds
                return "hire and activate a card" if hired else "activate a staffed card"
            if target.startswith("building:"):
                return "place a citizen"
            if target.startswith("event:"):
                return "fight an event"
            return "build the cathedral" if target == "cathedral" else "agriculture"
    if "pass" in kinds:
        return "pass"
    if kinds & {"reroll", "flip", "new_citizen"}:
        return "influence (re-roll, flip, citizen)"
    if kinds & {"countered", "not_countered"}:
        return "counter a black die"
    if "event_cube" in kinds:
        return "cube on an event (after a card)"
    if "setup_place" in kinds:
        return "setup placement"
    return None if not events else "other"


def measure(games: int) -> dict[str, Any]:
    """Clicks per action type and per player per game over greedy games of 2, 3 and 4 players."""
    from engine.troyes import RULES

    per_type: dict[str, list[int]] = defaultdict(list)
    per_player_game: list[int] = []
    for seats in (2, 3, 4):
        for seed in range(games):
            state = RULES.setup(seats, seed=seed)
            pending = [0] * seats
            total = [0] * seats
            while RULES.outcome(state) is None:
                (prompt,) = RULES.prompts(state)
                seat = prompt.seat
                action = RULES.bot_action(state, prompt, "greedy")
                transition = RULES.apply(state, seat, action)
                state = transition.state
                pending[seat] += 1
                total[seat] += 1
                kind = classify(seat, list(transition.events))
                if prompt.kind == "counter_more" and action.kind == "stop":
                    kind = "stop countering (after a counter)"
                if kind is not None:
                    per_type[kind].append(pending[seat])
                    pending[seat] = 0
            per_player_game += total
    return {"per_type": dict(per_type), "per_player_game": per_player_game}


def measure_ref(ref: str, games: int) -> dict[str, Any]:
    """Run `measure` on the engine of a git ref, in a fresh process."""
    result: dict[str, Any] = engine_measure_on(ref, "bench_troyes_clicks", f"measure({games})")
    return result


def summary(values: list[int]) -> str:
    """Mean, median and maximum of click counts."""
    if not values:
        return f"{'-':>20}"
    mean, median = statistics.mean(values), statistics.median(values)
    return f"{mean:5.2f} {median:4.0f} {max(values):3d} {len(values):6d}"


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count (2, 3, 4)")
    parser.add_argument("--ref", help="also measure this git ref (for example main)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    columns = [("this tree", measure(args.games))]
    if args.ref:
        columns.insert(0, (args.ref, measure_ref(args.ref, args.games)))
    print(f"Troyes clicks (answered prompts) per action, greedy bots, {args.games} games of 2, 3, 4 seats")
    header = "".join(f" | {name:^20}" for name, _ in columns)
    print(f"{'action':36}{header}")
    print(f"{'':36}" + " | mean  med max  count" * len(columns))
    kinds = [k for k in ORDER if any(k in c["per_type"] for _, c in columns)]
    kinds += sorted({k for _, c in columns for k in c["per_type"]} - set(kinds))
    for kind in kinds:
        cells = "".join(f" | {summary(c['per_type'].get(kind, []))}" for _, c in columns)
        print(f"{kind:36}{cells}")
    cells = "".join(f" | {summary(c['per_player_game'])}" for _, c in columns)
    print(f"{'all clicks, per player per game':36}{cells}")


if __name__ == "__main__":
    main()
