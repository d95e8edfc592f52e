"""Diced Tomatoes karma that a turn could not spend: counted over normal-bot games.

Run by hand: .venv/bin/python bench/bench_tomatoes_karma.py [--games 210] [--players 2 3 4]

Counted: steps that gain karma for the player to move and end their turn in the same step,
by the karma held then (1 or 2 buys nothing once the dice are gone: a clean costs 3), and
those whose end of turn cut karma above 6 in that very step ("lost at once"). Before karma at
the end of the turn, passing dice earned bits whose karma ended there: at 6 karma and 2 bits,
a passed die made 7, cut back to 6 in the same step.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tomatoes import RULES


def main() -> int:
    """Play the games and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=210)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    turns = ended_with_gain = lost_at_once = 0
    left: Counter[int] = Counter()
    for game in range(args.games):
        state = RULES.setup(args.players[game % len(args.players)], {}, game)
        while RULES.outcome(state) is None:
            (prompt,) = RULES.prompts(state)
            step = RULES.apply(state, prompt.seat, RULES.bot_action(state, prompt))
            kinds = [e.kind for e in step.events]
            turns += kinds.count("turn")
            gains = [e for e in step.events if e.kind == "karma" and e.data["gained"]]
            if gains and ("turn" in kinds or "game_end" in kinds):
                ended_with_gain += 1
                left[int(gains[-1].data["karma"])] += 1
                lost_at_once += "karma_cap" in kinds
            state = step.state
    print(f"{args.games} normal-bot games, players {args.players}: {turns} turns")
    held = dict(sorted(left.items()))
    print(f"turns ended in the step that earned karma: {ended_with_gain} (by karma held then: {held})")
    print(f"karma above 6 cut in the step that earned it: {lost_at_once}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
