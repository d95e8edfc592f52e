"""Troyes: deniers spent without a click that stated them, over random games (issue 32).

Run by hand: .venv/bin/python bench/bench_troyes_money.py [--games 20] [--seats 3] [--bot random] [--ref REF]

Every answered prompt is a click. The deniers a click spends are read from the events it caused
for the clicking seat: dice bought ("bought"), a tradesman's hire ("tradesman" cost) and what the
card's activations cost ("card_yield": its paid_deniers, or on an engine without that field the
net loss it shows). Income, wages and event levies are not spent by a click. What the click
stated is its option's `spend_deniers` in the prompt; an engine without that field stated at
most the die's price in a dice prompt (`prices`) and the hire in the turn menu (`hire`).
A click counts the deniers it spent beyond what it stated.

With --ref, the same count also runs on the engine of that git ref (exported with `git archive`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from refs import engine_measure_on

ROOT = Path(__file__).resolve().parent.parent


def stated_deniers(prompt: Any, action: Any) -> int:
    """The deniers the prompt says choosing `action` takes (see the module docstring)."""
    context = dict(prompt.context)
    place = prompt.options.index(action)
    if "spend_deniers" in context:
        return int(context["spend_deniers"][place])
    key = {"dice": "prices", "turn": "hire"}.get(prompt.kind)
    values = context.get(key) if key else None
    return int(values[place]) if values and place < len(values) else 0


def spent_deniers(events: Any, seat: int) -> int:
    """Deniers `seat` spent on the click that caused these events."""
    spent = 0
    for event in events:
        d = event.data
        if d.get("seat") != seat:
            continue
        if event.kind == "bought":
            spent += int(d["deniers"])
        elif event.kind == "tradesman":
            spent += int(d.get("cost", 0))
        elif event.kind == "card_yield":
            spent += int(d["paid_deniers"]) if "paid_deniers" in d else max(0, -int(d["deniers"]))
    return spent


def measure(games: int, seats: int, bot: str) -> dict[str, int]:
    """Clicks, paying clicks and deniers spent beyond what the clicked option stated."""
    from engine.troyes import RULES

    totals = {"games": games, "clicks": 0, "paying clicks": 0, "deniers spent": 0}
    totals |= {"clicks that spent unstated deniers": 0, "deniers spent without a click that stated them": 0}
    for seed in range(games):
        state = RULES.setup(seats, seed=seed)
        while RULES.outcome(state) is None:
            (prompt,) = RULES.prompts(state)
            action = RULES.bot_action(state, prompt, bot)
            transition = RULES.apply(state, prompt.seat, action)
            state = transition.state
            spent = spent_deniers(transition.events, prompt.seat)
            beyond = max(0, spent - stated_deniers(prompt, action))
            totals["clicks"] += 1
            totals["paying clicks"] += spent > 0
            totals["deniers spent"] += spent
            totals["clicks that spent unstated deniers"] += beyond > 0
            totals["deniers spent without a click that stated them"] += beyond
    return totals


def measure_ref(ref: str, games: int, seats: int, bot: str) -> dict[str, int]:
    """Run `measure` on the engine of a git ref, in a fresh process."""
    call = f"measure({games}, {seats}, {bot!r})"
    result: dict[str, int] = engine_measure_on(ref, "bench_troyes_money", call)
    return result


def main() -> None:
    """Print the counts for this tree (and a ref)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--bot", default="random", help="bot policy for every seat (random, easy, normal)")
    parser.add_argument("--ref", help="also measure this git ref (for example main)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    columns = [("this tree", measure(args.games, args.seats, args.bot))]
    if args.ref:
        columns.insert(0, (args.ref, measure_ref(args.ref, args.games, args.seats, args.bot)))
    print(f"Troyes, {args.games} games of {args.seats} {args.bot} bots (seeds 0..{args.games - 1})")
    print(f"{'':50}" + "".join(f"{name:>12}" for name, _ in columns))
    for key in columns[0][1]:
        print(f"{key:50}" + "".join(f"{result[key]:>12}" for _, result in columns))


if __name__ == "__main__":
    main()
