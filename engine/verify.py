"""Check a game's record: the seed matches its commitment, and every move, roll and the result follow.

Usage: python -m engine.verify record.json

Exit status 0: verified; 1: the record fails a check (the message names the first problem);
2: the file cannot be checked (unreadable, not a record, or the seed is not revealed yet).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import commitment as commit
from engine.codec import JSON
from engine.core import Event, Move, Rules, advance, player_name
from engine.recordfile import NotARecord, RecordFile, event_json, outcome_json, parse

VERIFIED, FAILED, UNCHECKABLE = 0, 1, 2


class RecordProblem(Exception):
    """The record does not follow from its seed: the message names the first problem."""


class CannotCheck(Exception):
    """The record cannot be checked (yet): not a record, or its seed is not revealed."""


@dataclass(frozen=True, slots=True)
class Verified:
    """What a successful check established."""

    game: str
    seats: int
    moves: int
    result: str
    """The final scores in words, or a note that the game did not finish."""


def verify(document: Any) -> Verified:
    """Check a parsed JSON record; raises RecordProblem or CannotCheck with a clear message."""
    try:
        found = parse(document)
    except NotARecord as exc:
        raise CannotCheck(str(exc)) from None
    if found.seed is None or found.salt is None:
        raise CannotCheck("the seed is not revealed yet (the game is not over): only its commitment is known")
    if not commit.matches(found.seed, found.salt, found.commitment):
        raise RecordProblem(
            f"the revealed seed does not match the commitment: SHA-256 of "
            f'"{commit.preimage(found.seed, found.salt)}" is {commit.commitment(found.seed, found.salt)}, '
            f"the record commits to {found.commitment}"
        )
    rules, names = found.rules, found.players
    try:
        history = [rules.setup(found.seats, found.options, found.seed)]
    except Exception as exc:  # any refusal of untrusted options is a finding, not a crash
        raise RecordProblem(f"the game cannot be set up with these seats and options: {exc}") from None
    _compare(rules, "the opening", found.opening, rules.opening(history[0]), names)
    for number, claimed in enumerate(found.moves, start=1):
        where = f"move {number} ({_move_words(claimed.move, names)})"
        try:
            history, events = advance(rules, history, claimed.move.seat, claimed.move.action)
        except Exception as exc:  # the engine refusing a move is the finding
            raise RecordProblem(f"{where} is not legal at that point: {exc}") from None
        _compare(rules, where, claimed.events, events, names)
    return Verified(found.game, found.seats, len(found.moves), _check_outcome(rules, found, history[-1]))


def _compare(
    rules: Rules[Any],
    where: str,
    claimed: Sequence[JSON],
    actual: Sequence[Event],
    names: Sequence[str] | None,
) -> None:
    """Raise at the first event claimed that the replay does not give."""
    public = [e for e in actual if e.visible(None)]
    for index, event in enumerate(public):
        expected = event_json(event)
        if index >= len(claimed):
            raise RecordProblem(f'{where}: the record leaves out "{_say(rules, expected, names)}"')
        if claimed[index] != expected:
            kind = "roll, draw or reveal" if expected["chance"] else "event"
            raise RecordProblem(
                f'{where}: the record claims the {kind} "{_say(rules, claimed[index], names)}", '
                f'but the seed and the moves give "{_say(rules, expected, names)}"'
            )
    if len(claimed) > len(public):
        extra = claimed[len(public)]
        raise RecordProblem(f'{where}: the record adds "{_say(rules, extra, names)}", which did not happen')


def _check_outcome(rules: Rules[Any], found: RecordFile, final: Any) -> str:
    """Compare the claimed result with the replayed one; return the result in words."""
    outcome = rules.outcome(final)
    actual = outcome_json(outcome) if outcome is not None else None
    if found.outcome != actual:
        if actual is None:
            raise RecordProblem("the record claims a result, but after its moves the game is not over")
        if found.outcome is None:
            raise RecordProblem("the record claims no result, but its moves end the game")
        raise RecordProblem(
            f"the record claims the result {_result(found.outcome, found.players)}, "
            f"but the moves give {_result(actual, found.players)}"
        )
    if actual is None:
        return "the game did not finish (abandoned): there is no result to check"
    return _result(actual, found.players)


def _result(outcome: Any, names: Sequence[str] | None) -> str:
    try:
        scores, ranks = outcome["scores"], outcome["ranks"]
        seats = sorted(range(len(scores)), key=lambda s: ranks[s])
        return ", ".join(f"#{ranks[s]} {player_name(s, names)} {scores[s]}" for s in seats)
    except (KeyError, TypeError, IndexError):
        return json.dumps(outcome)


def _move_words(move: Move, names: Sequence[str] | None) -> str:
    args = " ".join(f"{k}={v}" for k, v in move.action.args)
    return f"{player_name(move.seat, names)}: {move.action.kind}{' ' + args if args else ''}"


def _say(rules: Rules[Any], event: Any, names: Sequence[str] | None) -> str:
    """An event of the record in plain English, or as JSON when it cannot be described."""
    try:
        return rules.describe(Event(event["kind"], event["data"]), names)
    except Exception:  # a tampered event may not be describable: show it as it is
        return json.dumps(event, ensure_ascii=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: print a verdict, return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.verify", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the record file (JSON) that /game record gives")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as file:
            document = json.load(file)
    except OSError as exc:
        print(f"cannot read {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return UNCHECKABLE
    except (ValueError, UnicodeDecodeError) as exc:
        print(f"{args.record} is not JSON: {exc}", file=sys.stderr)
        return UNCHECKABLE
    try:
        verified = verify(document)
    except CannotCheck as exc:
        print(f"CANNOT CHECK: {exc}", file=sys.stderr)
        return UNCHECKABLE
    except RecordProblem as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return FAILED
    print(
        f"VERIFIED: {verified.game}, {verified.seats} seat(s), {verified.moves} moves. The seed matches "
        "the commitment, every move was legal, and every roll, draw and the result follow from the seed."
    )
    print(f"Result: {verified.result}")
    return VERIFIED


if __name__ == "__main__":
    raise SystemExit(main())
