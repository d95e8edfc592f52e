"""The engine imports nothing of Discord, Pillow or aiosqlite (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("discord", "PIL", "aiosqlite")

_PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {forbidden!r})
print(",".join(bad))
"""


def imported_forbidden(*modules: str) -> list[str]:
    """Import `modules` in a new interpreter; return the forbidden modules that came with them."""
    probe = _PROBE.format(forbidden=set(FORBIDDEN))
    result = subprocess.run(
        [sys.executable, "-c", probe, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [m for m in result.stdout.strip().split(",") if m]


def test_engine_core_and_tomatoes_are_pure() -> None:
    modules = ("engine", "engine.core", "engine.rng", "engine.codec", "engine.games", "engine.play")
    modules += ("engine.verify", "engine.recordfile", "engine.commitment")
    assert imported_forbidden(*modules, "engine.tomatoes", "engine.tomatoes.bots") == []


def test_the_probe_does_notice_a_forbidden_import() -> None:
    assert "PIL" in imported_forbidden("engine", "PIL")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_package_is_pure(game: str) -> None:
    module = GAMES[game].rules
    if not (ROOT / Path(*module.split("."))).is_dir():
        pytest.skip(f"{module} is not written yet")
    assert imported_forbidden(module) == []
