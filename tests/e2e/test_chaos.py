"""Chaos in CI: every game on Discord, bot.py killed at Start, at a stored move, while a board is
posted or edited, and once a move click is acknowledged (before it is stored), restarted, played
to the end; nothing lost, doubled, behind or duplicated, and the cut-short click answered."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.chaos import chaos_run
from tests.e2e.lane import Lane, games_on_discord

CI_KINDS = ("start-thread", "stored-human", "start-board", "post", "start-click", "edit")
"""Kill instants of the short run, two per game in turn: one during Start (first), one in play."""


async def test_games_survive_sigkill_at_chosen_instants(tmp_path: Path) -> None:
    games = games_on_discord()
    assert {"tomatoes", "buttons"} <= {g.game for g in games}
    plans = [
        (spec, [*(CI_KINDS[(2 * i + k) % len(CI_KINDS)] for k in (0, 1)), "acked"])
        for i, spec in enumerate(games)
    ]
    lane = Lane(tmp_path)
    await lane.open()
    try:
        figures = await chaos_run(lane, plans, seed=1, game_limit=240)
    finally:
        await lane.close()
    print(figures.summary(), *figures.failures, sep="\n")
    report = "\n".join([figures.summary(), *figures.failures])
    assert figures.goals_met and figures.failures == [], report
    assert figures.kills == 3 * len(games), report
    assert figures.cut == figures.cut_answered == len(games), report
