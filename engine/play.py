"""Play full games with bots only and print the log and the result.

Example: python -m engine.play tomatoes --players 4 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import DEFAULT_LEVEL, Event, Move, Options, Outcome, Record, Rules, Scalar, player_name
from engine.games import GAMES, get_rules


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished bot game: its record, final state, every event and the outcome."""

    record: Record
    state: Any
    events: tuple[tuple[int, Event], ...]
    outcome: Outcome


def run_game(
    rules: Rules[Any],
    seats: int,
    seed: int,
    options: Options | None = None,
    policies: Sequence[str] | None = None,
    max_steps: int = 100_000,
    on_event: Callable[[Event], None] | None = None,
) -> PlayedGame:
    """Play one game to its end with a bot policy per seat (the normal level by default)."""
    chosen = list(policies) if policies else [DEFAULT_LEVEL] * seats
    state = rules.setup(seats, options, seed)
    moves: list[Move] = []
    events: list[tuple[int, Event]] = []
    for _ in range(max_steps):
        outcome = rules.outcome(state)
        if outcome is not None:
            record = Record(rules.id, seats, rules.resolve_options(options or {}), seed, tuple(moves))
            return PlayedGame(record, state, tuple(events), outcome)
        prompts = rules.prompts(state)
        if not prompts:
            raise RuntimeError(f"{rules.id}: no prompt and no outcome at version {state.version}")
        prompt = prompts[0]
        action = rules.bot_action(state, prompt, chosen[prompt.seat])
        transition = rules.apply(state, prompt.seat, action)
        moves.append(Move(prompt.seat, action))
        for event in transition.events:
            events.append((state.version, event))
            if on_event is not None:
                on_event(event)
        state = transition.state
    raise RuntimeError(f"{rules.id}: game did not end within {max_steps} steps (seed {seed})")


def _parse_option(text: str) -> tuple[str, Scalar]:
    key, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"options are key=value, not {text!r}")
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return key, True
    if lowered in ("false", "no", "off"):
        return key, False
    try:
        return key, int(raw)
    except ValueError:
        return key, raw


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine.play", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bots",
        default=DEFAULT_LEVEL,
        help="one policy for all, or one per seat: easy, normal, hard, random",
    )
    parser.add_argument("--option", action="append", default=[], type=_parse_option, metavar="KEY=VALUE")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)

    rules = get_rules(args.game)
    policies = args.bots.split(",")
    if len(policies) == 1:
        policies *= args.players
    if len(policies) != args.players:
        parser.error("--bots takes one policy or one per player")
    printer = None if args.quiet else (lambda event: print(rules.describe(event)))
    try:
        game = run_game(rules, args.players, args.seed, dict(args.option), policies, on_event=printer)
    except Exception as exc:  # the CLI reports any refusal plainly
        print(f"error: {exc}", file=sys.stderr)
        return 1
    players = f"{args.players} player{'' if args.players == 1 else 's'}"
    print(f"\n{rules.name}: {players}, seed {args.seed}, {len(game.record.moves)} actions")
    if game.outcome.summary:
        print(game.outcome.summary)
    for seat in sorted(range(args.players), key=lambda s: game.outcome.ranks[s]):
        parts = game.outcome.breakdown[seat] if game.outcome.breakdown else {}
        detail = ", ".join(f"{k} {v}" for k, v in parts.items())
        print(
            f"#{game.outcome.ranks[seat]} {player_name(seat)} ({policies[seat]}): {game.outcome.scores[seat]}"
            + (f"  [{detail}]" if detail else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
