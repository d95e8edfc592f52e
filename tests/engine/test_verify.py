"""Records as JSON and `python -m engine.verify`: real games verify, any tampering is named."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import commitment as commit
from engine.core import UNDO, Move, Record, advance
from engine.games import GAMES as REGISTERED
from engine.games import get_rules
from engine.recordfile import build, dumps
from engine.verify import FAILED, UNCHECKABLE, VERIFIED, CannotCheck, RecordProblem, main, verify

SALT = "5a" * commit.SALT_BYTES
GAMES = tuple((game.id, game.seats, 11 + index) for index, game in enumerate(REGISTERED.values()))


def finished_record(game: str, seats: int, seed: int) -> Record:
    """A bot game played to its end, with one move taken back as a player would (as tables logs it)."""
    rules = get_rules(game)
    history = [rules.setup(seats, {}, seed)]
    moves: list[Move] = []
    undone = False
    while rules.outcome(history[-1]) is None:
        prompt = rules.prompts(history[-1])[0]
        action = rules.bot_action(history[-1], prompt)
        history, _ = advance(rules, history, prompt.seat, action)
        moves.append(Move(prompt.seat, action))
        if not undone and rules.can_undo(history[-1], prompt.seat):
            history, _ = advance(rules, history, prompt.seat, UNDO)
            moves.append(Move(prompt.seat, UNDO))
            undone = True
    assert undone
    return Record(game, seats, rules.resolve_options({}), seed, tuple(moves))


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def document(request: pytest.FixtureRequest) -> dict[str, Any]:
    game, seats, seed = request.param
    built = build(finished_record(game, seats, seed), SALT, reveal=True, players=["Ana", "Bo", "Cy", "Di"])
    return json.loads(dumps(built))  # exactly what a file gives back


def failure(document: dict[str, Any]) -> str:
    with pytest.raises(RecordProblem) as caught:
        verify(document)
    return str(caught.value)


def run_cli(tmp_path: Path, document: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    code = main([str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_finished_game_verifies(
    document: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert document["outcome"] is not None and document["seed"] is not None
    code, text = run_cli(tmp_path, document, capsys)
    assert code == VERIFIED, text
    assert text.startswith(f"VERIFIED: {document['game']}") and "Result: #1" in text


def test_a_changed_seed_is_refused_by_the_commitment(
    document: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = copy.deepcopy(document)
    document["seed"] = str(int(document["seed"]) + 1)
    code, text = run_cli(tmp_path, document, capsys)
    assert code == FAILED
    assert "FAILED: the revealed seed does not match the commitment" in text


def test_a_changed_seed_with_a_matching_commitment_fails_on_the_dice(document: dict[str, Any]) -> None:
    document = copy.deepcopy(document)
    seed = int(document["seed"]) + 1
    document["seed"] = str(seed)
    document["commitment"]["sha256"] = commit.commitment(seed, SALT)
    message = failure(document)
    assert "the record claims" in message or "is not legal" in message, message


def first_chance_event(document: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    for number, move in enumerate(document["moves"], start=1):
        for event in move["events"]:
            if event["chance"] and any(isinstance(v, int | list) for v in event["data"].values()):
                return number, event
    raise AssertionError("no roll in the game")


def test_a_changed_roll_is_named(document: dict[str, Any]) -> None:
    document = copy.deepcopy(document)
    number, event = first_chance_event(document)
    key = next(k for k, v in sorted(event["data"].items()) if isinstance(v, int | list) and k != "seat")
    value = event["data"][key]
    event["data"][key] = [*value, 6] if isinstance(value, list) else value + 1
    message = failure(document)
    assert message.startswith(f"move {number} (") and "the record claims the roll, draw or reveal" in message


def test_a_changed_result_is_named(document: dict[str, Any]) -> None:
    document = copy.deepcopy(document)
    document["outcome"]["scores"][0] += 1
    assert "the record claims the result" in failure(document)


def test_an_illegal_action_is_named(document: dict[str, Any]) -> None:
    document = copy.deepcopy(document)
    document["moves"][5]["action"] = {"kind": "cheat", "args": {}}
    message = failure(document)
    assert message.startswith("move 6 (") and "cheat" in message and "is not legal" in message


def test_another_legal_action_is_named_at_its_move(document: dict[str, Any]) -> None:
    rules = get_rules(document["game"])
    history = [rules.setup(document["seats"], document["options"], int(document["seed"]))]
    original = copy.deepcopy(document)
    for number, move in enumerate(document["moves"], start=1):
        seat = move["seat"]
        prompt = rules.prompt_for(history[-1], seat)
        others = [o for o in prompt.options if o.to_json() != move["action"]] if prompt else []
        for other in others:
            if number > 3 and any(e.visible(None) for e in rules.apply(history[-1], seat, other).events):
                document["moves"][number - 1]["action"] = other.to_json()
                message = failure(document)
                assert message.startswith(f"move {number} ("), message
                verify(original)  # the untouched record still verifies
                return
        history, _ = advance(rules, history, seat, Move.from_json(move).action)
    raise AssertionError("no move with another legal option")


def test_a_record_before_the_end_keeps_the_seed_and_private_events_secret() -> None:
    record = finished_record("troyes", 3, 21)
    rules = get_rules("troyes")
    partial = Record(record.game, record.seats, record.options, record.seed, record.moves[:60])
    document = json.loads(dumps(build(partial, SALT, reveal=False)))
    assert document["seed"] is None and document["salt"] is None and document["outcome"] is None
    text = json.dumps(document)
    assert SALT not in text and document["commitment"]["sha256"] == commit.commitment(record.seed, SALT)
    history = [rules.setup(3, record.options, record.seed)]
    private = 0
    for claimed, move in zip(document["moves"], partial.moves, strict=True):
        history, events = advance(rules, history, move.seat, move.action)
        private += sum(1 for e in events if not e.visible(None))
        assert len(claimed["events"]) == sum(1 for e in events if e.visible(None))
    assert private > 0  # character cards were dealt privately and are not in the file
    with pytest.raises(CannotCheck, match="not revealed yet"):
        verify(document)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "is not JSON"),
        ({"format": "something else"}, "not a Meeple record"),
    ],
)
def test_a_file_that_is_no_record_gets_a_clear_answer(
    content: Any, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = run_cli(tmp_path, content, capsys)
    assert code == UNCHECKABLE and expected in text


def test_the_commitment_is_sha256_of_the_documented_text() -> None:
    text = f"meeple-seed-v1:{SALT}:123456789"
    assert commit.commitment(123456789, SALT) == hashlib.sha256(text.encode()).hexdigest()
    assert commit.commitment(123456789, SALT) != commit.commitment(123456789, "5b" * commit.SALT_BYTES)
    for bad_seed in (-1, 1 << 64, True):
        with pytest.raises(commit.BadSecret):
            commit.commitment(bad_seed, SALT)
    with pytest.raises(commit.BadSecret):
        commit.commitment(1, "AB" * commit.SALT_BYTES)
