"""A game's record as a JSON document anyone can check: see docs/record-format.md."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import commitment as commit
from engine.codec import JSON
from engine.core import Action, Event, Move, Outcome, Record, Rules, Scalar, advance
from engine.games import get_rules

FORMAT = "meeple-record"
FORMAT_VERSION = 1


class NotARecord(ValueError):
    """The document is not a Meeple record this version can read; the message says what is wrong."""


def build(
    record: Record,
    salt: str,
    *,
    reveal: bool,
    table: int | None = None,
    players: Sequence[str] | None = None,
) -> dict[str, JSON]:
    """The JSON document of `record`: the seed and salt only when `reveal` (the game is over).

    Replays the record through the engine to list, after each move, the events a spectator
    saw (rolls, draws and reveals among them) and the final result: what the verifier checks.
    """
    rules = get_rules(record.game)
    history = [rules.setup(record.seats, record.options, record.seed)]
    opening = [event_json(e) for e in rules.opening(history[0]) if e.visible(None)]
    moves: list[JSON] = []
    for move in record.moves:
        history, events = advance(rules, history, move.seat, move.action)
        moves.append({**move.to_json(), "events": [event_json(e) for e in events if e.visible(None)]})
    outcome = rules.outcome(history[-1])
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": record.game,
        "table": table,
        "players": list(players) if players is not None else None,
        "seats": record.seats,
        "options": dict(rules.resolve_options(record.options)),
        "commitment": {"scheme": commit.SCHEME, "sha256": commit.commitment(record.seed, salt)},
        "seed": str(record.seed) if reveal else None,
        "salt": salt if reveal else None,
        "opening": opening,
        "moves": moves,
        "outcome": outcome_json(outcome) if outcome is not None else None,
    }


def dumps(document: Mapping[str, JSON]) -> str:
    """The document as JSON text: one key per line, one move per line."""
    lines = []
    for key, value in document.items():
        if key == "moves" and value:
            inner = ",\n".join(f"    {_compact(move)}" for move in value)
            lines.append(f'  "moves": [\n{inner}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def event_json(event: Event) -> dict[str, JSON]:
    """An event as the record holds it; `chance` marks a roll, a draw or a reveal."""
    return {"kind": event.kind, "data": _plain(dict(event.data)), "chance": event.checkpoint}


def outcome_json(outcome: Outcome) -> dict[str, JSON]:
    """The final result as the record holds it."""
    return {
        "scores": list(outcome.scores),
        "ranks": list(outcome.ranks),
        "breakdown": [dict(line) for line in outcome.breakdown],
        "summary": outcome.summary,
    }


def _plain(value: Any) -> JSON:
    """Plain JSON data (tuples as lists), as it reads back from a file."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True, slots=True)
class ClaimedMove:
    """One move of a record file and the events the file claims it produced."""

    move: Move
    events: tuple[JSON, ...]


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A record document, read and checked for shape (not yet for truth)."""

    game: str
    rules: Rules[Any]
    seats: int
    options: Mapping[str, Scalar]
    commitment: str
    seed: int | None
    salt: str | None
    opening: tuple[JSON, ...]
    moves: tuple[ClaimedMove, ...]
    outcome: JSON | None
    players: tuple[str, ...] | None

    def record(self, seed: int) -> Record:
        """The engine record, replayable with engine.core.replay."""
        return Record(self.game, self.seats, self.options, seed, tuple(m.move for m in self.moves))


def parse(document: Any) -> RecordFile:
    """Read a record document; raises NotARecord naming the first field that is wrong."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise NotARecord(f'not a Meeple record (its "format" must be "{FORMAT}")')
    if document.get("format_version") != FORMAT_VERSION:
        raise NotARecord(f"record format version {document.get('format_version')!r} is not {FORMAT_VERSION}")
    game = _field(document, "game", str)
    try:
        rules = get_rules(game)
    except KeyError:
        raise NotARecord(f"unknown game {game!r}") from None
    seats = _field(document, "seats", int)
    options = _field(document, "options", Mapping)
    committed = _field(document, "commitment", Mapping)
    if committed.get("scheme") != commit.SCHEME:
        raise NotARecord(f'commitment scheme {committed.get("scheme")!r} is not "{commit.SCHEME}"')
    digest = committed.get("sha256")
    if not isinstance(digest, str) or not commit.is_digest(digest):
        raise NotARecord("the commitment must be 64 lowercase hex digits")
    seed, salt = _secret(document)
    moves = tuple(_move(i, raw) for i, raw in enumerate(_field(document, "moves", list), start=1))
    players = document.get("players")
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise NotARecord('"players" must be a list of names')
    return RecordFile(
        game=game,
        rules=rules,
        seats=seats,
        options=dict(options),
        commitment=digest,
        seed=seed,
        salt=salt,
        opening=tuple(_field(document, "opening", list)),
        moves=moves,
        outcome=document.get("outcome"),
        players=tuple(players) if players is not None else None,
    )


def _field(document: Mapping[str, Any], key: str, kind: type) -> Any:
    value = document.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise NotARecord(f'the record has no valid "{key}"')
    return value


def _secret(document: Mapping[str, Any]) -> tuple[int | None, str | None]:
    raw_seed, salt = document.get("seed"), document.get("salt")
    if raw_seed is None and salt is None:
        return None, None
    if not isinstance(raw_seed, str) or not raw_seed.isdigit() or str(int(raw_seed)) != raw_seed:
        raise NotARecord('"seed" must be the seed in decimal digits, as a string')
    seed = int(raw_seed)
    try:
        commit.check_seed(seed)
    except commit.BadSecret as exc:
        raise NotARecord(str(exc)) from None
    if not isinstance(salt, str) or not commit.is_salt(salt):
        raise NotARecord(f'"salt" must be {2 * commit.SALT_BYTES} lowercase hex digits')
    return seed, salt


def _move(number: int, raw: Any) -> ClaimedMove:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("events"), list):
        raise NotARecord(f"move {number} is not a seat, an action and its events")
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise NotARecord(f"move {number} has no valid seat")
    try:
        action = Action.from_json(raw.get("action") or {})
    except Exception:
        raise NotARecord(f"move {number} has no valid action") from None
    return ClaimedMove(Move(seat, action), tuple(raw["events"]))
