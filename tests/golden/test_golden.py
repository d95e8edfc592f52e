"""Each golden playthrough replays to the same log text and result (a change shows as a diff)."""

from __future__ import annotations

import difflib

import pytest

from engine.core import IllegalAction
from tests.golden.playthrough import FOLDER, Case, cases, read, write

REGENERATE = "regenerate with `.venv/bin/python -m tests.golden` and read the diff"


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_replay_matches_the_golden_text(case: Case) -> None:
    path = FOLDER / case.name
    assert path.exists(), f"no golden file {path.name}: {REGENERATE}"
    golden = path.read_text(encoding="utf-8")
    try:
        replayed = write(case, read(golden, case))
    except IllegalAction as exc:
        pytest.fail(f"{path.name}: a recorded action is no longer legal ({exc}): {REGENERATE}")
    if replayed != golden:
        diff = difflib.unified_diff(
            golden.splitlines(), replayed.splitlines(), "golden", "replayed", lineterm="", n=1
        )
        pytest.fail(f"{path.name} differs ({REGENERATE}):\n" + "\n".join(list(diff)[:60]))


def test_every_golden_file_is_a_case() -> None:
    names = {case.name for case in cases()}
    stale = sorted(path.name for path in FOLDER.glob("*.txt") if path.name not in names)
    assert not stale, f"golden files for no case: {stale}: {REGENERATE}"


def test_a_changed_log_line_shows_as_a_diff(tmp_path: object) -> None:
    case = cases()[0]
    golden = (FOLDER / case.name).read_text(encoding="utf-8")
    tampered = golden.replace("\n  ", "\n  (changed) ", 1)
    assert write(case, read(tampered, case)) != tampered
