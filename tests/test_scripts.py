"""scripts/setup-venv: a start with nothing changed runs no Python and no pip."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""


def _sandbox(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the project's pyproject.toml and setup-venv, with python3 and .venv/bin/python
    replaced by scripts that only record how they were called."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup-venv", tmp_path / "scripts" / "setup-venv")
    log = tmp_path / "calls.log"
    log.touch()
    fake_bin = tmp_path / "fakebin"
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    fake_bin.mkdir()
    for path in (fake_bin / "python3", tmp_path / ".venv" / "bin" / "python"):
        path.write_text(RECORDER.format(log=log))
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return fake_bin, log


def _source(tmp_path: Path, fake_bin: Path, *args: str) -> None:
    env = {**os.environ, "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(
        ["bash", "-c", f". scripts/setup-venv {' '.join(args)}"], cwd=tmp_path, env=env, check=True
    )


def test_setup_runs_nothing_when_nothing_changed(tmp_path: Path) -> None:
    fake_bin, log = _sandbox(tmp_path)
    _source(tmp_path, fake_bin, "dev")
    assert "pip install" in log.read_text()  # the first time installs
    log.write_text("")
    _source(tmp_path, fake_bin, "dev")
    _source(tmp_path, fake_bin)  # scripts/run after scripts/test: the dev install serves it
    assert log.read_text() == ""


def test_setup_installs_again_when_pyproject_changes(tmp_path: Path) -> None:
    fake_bin, log = _sandbox(tmp_path)
    _source(tmp_path, fake_bin)
    log.write_text("")
    with (tmp_path / "pyproject.toml").open("a") as file:
        file.write("\n# a new dependency\n")
    _source(tmp_path, fake_bin)
    calls = log.read_text()
    assert "pip install -qq -e ." in calls
    assert "python3" not in calls  # the venv exists: it is not made again


def test_setup_creates_the_venv_on_a_fresh_machine(tmp_path: Path) -> None:
    fake_bin, log = _sandbox(tmp_path)
    recorder = tmp_path / "recorder"
    (tmp_path / ".venv" / "bin" / "python").rename(recorder)
    # The fake python3 records its call and, as `-m venv .venv` would, makes .venv/bin/python.
    (fake_bin / "python3").write_text(
        RECORDER.format(log=log) + f'mkdir -p .venv/bin && cp "{recorder}" .venv/bin/python\n'
    )
    _source(tmp_path, fake_bin, "dev")
    assert log.read_text().splitlines() == [
        "python3 -m venv .venv",
        "python -m pip install -qq --upgrade pip",
        "python -m pip install -qq -e .[dev]",
    ]
    assert len(list((tmp_path / ".venv").glob(".installed-dev-*"))) == 1
