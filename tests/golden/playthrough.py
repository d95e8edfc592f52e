"""Play, write and read golden playthroughs (see the package docstring)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import Action, Event, Move, Outcome, Record, Rules, Scalar, advance
from engine.games import GAMES, get_rules

FOLDER = Path(__file__).parent / "games"
NAMES = ("Ann", "Bolek", "Chae-won", "Dmitri", "Eun-ji", "Fryderyk")
"""Seat names used in the log lines (one per possible seat)."""
POLICY = "normal"
"""The bot level that plays every seat: real choices, quickly."""
MAX_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class Case:
    """One golden game: a game id, a player count, its options (beyond the defaults) and a seed."""

    game: str
    seats: int
    options: tuple[tuple[str, Scalar], ...] = ()
    seed: int = 20261127

    @property
    def name(self) -> str:
        """The file name: game, seats and the options that differ from the defaults."""
        parts = [self.game, f"{self.seats}p", *(f"{key}-{_word(value)}" for key, value in self.options)]
        return "_".join(parts) + ".txt"


def cases() -> list[Case]:
    """Every game of the registry at its defaults, then each non-default option value on its own."""
    found: list[Case] = []
    for game in GAMES:
        rules = get_rules(game)
        seats = min(max(3, rules.min_players), rules.max_players)
        found.append(Case(game, seats))
        if rules.min_players == 1:
            found.append(Case(game, 1))
        for spec in rules.option_specs:
            choices = spec.choices or ((not spec.default,) if isinstance(spec.default, bool) else ())
            for value in choices:
                if value == spec.default:
                    continue
                variant = Case(game, seats, ((spec.key, value),))
                # An option that names a player count (Buttons' two_dice_2p) is played at that count.
                if spec.key.endswith("_2p"):
                    variant = Case(game, 2, variant.options)
                found.append(variant)
    return found


def play(case: Case) -> Record:
    """Play the case to its end with bots; return its record."""
    rules = get_rules(case.game)
    history = [rules.setup(case.seats, dict(case.options), case.seed)]
    moves: list[Move] = []
    for _ in range(MAX_STEPS):
        state = history[-1]
        prompts = rules.prompts(state)
        if not prompts:
            break
        prompt = prompts[0]
        action = rules.bot_action(state, prompt, POLICY)
        history, _ = advance(rules, history, prompt.seat, action)
        moves.append(Move(prompt.seat, action))
    else:
        raise RuntimeError(f"{case.name} did not end within {MAX_STEPS} steps")
    return Record(case.game, case.seats, rules.resolve_options(dict(case.options)), case.seed, tuple(moves))


def write(case: Case, record: Record) -> str:
    """The golden text of a record: header, then each action with its log lines, then the result."""
    rules = get_rules(record.game)
    names = NAMES[: record.seats]
    options = ", ".join(f"{key}={_word(value)}" for key, value in sorted(record.options.items()))
    lines = [
        f"# {rules.name}, {record.seats} player(s), seed {record.seed}, every seat played by {POLICY} bots",
        f"# options: {options or '(none)'}",
        "# Regenerate: .venv/bin/python -m tests.golden",
        "= opening",
    ]
    history = [rules.setup(record.seats, record.options, record.seed)]
    lines += _said(rules, rules.opening(history[0]), names)
    for move in record.moves:
        history, events = advance(rules, history, move.seat, move.action)
        lines.append(f"> {names[move.seat]} {json.dumps(move.action.to_json(), sort_keys=True)}")
        lines += _said(rules, events, names)
    outcome = rules.outcome(history[-1])
    lines.append("= result")
    lines += _result(outcome, names)
    return "\n".join(lines) + "\n"


def read(text: str, case: Case) -> Record:
    """The record a golden text holds (its actions, with the case's seed and options)."""
    rules = get_rules(case.game)
    seat_of = {name: seat for seat, name in enumerate(NAMES[: case.seats])}
    moves = []
    for line in text.splitlines():
        if line.startswith("> "):
            name, action = line[2:].split(" ", 1)
            moves.append(Move(seat_of[name], Action.from_json(json.loads(action))))
    return Record(case.game, case.seats, rules.resolve_options(dict(case.options)), case.seed, tuple(moves))


def regenerate(folder: Path = FOLDER) -> Iterator[Path]:
    """Play every case afresh and write its file; yield each path written."""
    folder.mkdir(exist_ok=True)
    for case in cases():
        path = folder / case.name
        path.write_text(write(case, play(case)), encoding="utf-8")
        yield path


def _said(rules: Rules[Any], events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Each event's log line, marked with who alone may see it when it is private."""
    said = []
    for event in events:
        line = rules.describe(event, names)
        if not line:
            continue
        if event.visible_to is not None:
            seen_by = ", ".join(names[seat] for seat in sorted(event.visible_to))
            line = f"[{seen_by} only] {line}"
        said.append(f"  {line}")
    return said


def _result(outcome: Outcome | None, names: Sequence[str]) -> list[str]:
    """The final scores, ranks and breakdowns in words."""
    if outcome is None:
        return ["  (not finished)"]
    said = []
    for seat, name in enumerate(names):
        breakdown = outcome.breakdown[seat] if outcome.breakdown else {}
        parts = "".join(f", {key} {value}" for key, value in breakdown.items())
        said.append(f"  {name}: {outcome.scores[seat]} (rank {outcome.ranks[seat]}){parts}")
    if outcome.summary:
        said.append(f"  {outcome.summary}")
    return said


def _word(value: Scalar) -> str:
    """An option value as it reads in a file name and header."""
    return str(value).lower() if isinstance(value, bool) else str(value)
