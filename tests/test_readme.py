"""The README's command table names every option of every /play command."""

from __future__ import annotations

from pathlib import Path

from cogs.games import UIS
from cogs.platform.lobby import play_command

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_every_play_option_is_in_the_readme() -> None:
    rows = {line.split("|")[1].strip(): line for line in README.splitlines() if line.startswith("| `/play ")}
    for ui in UIS.values():
        command = play_command(ui)
        row = rows.get(f"`/play {command.name}`")
        assert row is not None, f"the README has no row for /play {command.name}"
        for parameter in command.parameters:
            if parameter.name not in ("pace", "language"):  # one row covers every command's pace, language
                assert f"`{parameter.name}`" in row, (
                    f"/play {command.name} {parameter.name} is not in the README"
                )
