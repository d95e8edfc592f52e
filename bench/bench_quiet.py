"""Pings, messages, image bytes, uploads and clicks of whole games through the Discord layer.

Run by hand: .venv/bin/python bench/bench_quiet.py [--games 2] [--game tomatoes buttons troyes]
[--think 20] [--ref <commit>]

Two humans (alice and bob) and one normal bot play each game in simcord, from the lobby to the
final scores, with the real renderer: the humans answer every prompt of theirs (the optional
gold die included) with the greedy bot's choice by clicking the board. Seeds are fixed.

- A click is one interaction (a button, a select choice, a group opened, a page arrow).
- An upload is a board message posted or edited with its image.
- A turn starts each time the seats the game waits for (non-optional prompts) change to
  another non-empty set, replayed from the game's record; it is a human's or a bot's turn by
  who is awaited. Uploads count in the turn whose state they show.
- Image bytes are those of the images left in the thread at the end; uploaded bytes are those of
  every upload (an edit that replaces the image uploads it again), as a mean and for the game
  that uploaded the most (issue 33's goal holds for every game, not on average).
- Messages per roll (games with a "roll" move): thread messages over the rolls of the record.
- The humans take `--think` seconds of the service clock per click (the bots none), which is
  what a ping rule based on recent moves sees.
- A bot pauses as live (1.5 s, played as "until every queued board reached Discord").

With --ref, the same games are played on that commit too (checked out in a temporary git
worktree and run there in a fresh process), and both columns are printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BENCH_QUIET_ROOT", Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(ROOT))

from engine.games import GAMES as REGISTERED  # noqa: E402

GAMES = tuple(REGISTERED)
SEED_BASE = {game: 7100 + 100 * index for index, game in enumerate(GAMES)}
BOT_DELAY = 1.5
"""The bot's pause (the service's default). simcord cannot wait on timers, so the pause is played
as "until every queued update has reached Discord", which is what 1.5 s gives live."""


def awaited(table: Any, state: Any) -> tuple[int, ...]:
    """The seats with a non-optional prompt in `state` (Prompt.optional may not exist at the ref)."""
    prompts = table.rules.prompts(state) if table.rules.outcome(state) is None else ()
    return tuple(sorted({p.seat for p in prompts if not getattr(p, "optional", False)}))


def turns_by_version(table: Any, record: Any) -> dict[int, tuple[int, tuple[int, ...]]]:
    """State version -> (turn number, awaited seats of that turn), by replaying the record."""
    from engine.core import advance

    rules = table.rules
    history = [rules.setup(record.seats, record.options, record.seed)]
    turn, owner = 0, awaited(table, history[0])
    found = {history[0].version: (turn, owner)}
    for move in record.moves:
        history, _ = advance(rules, history, move.seat, move.action)
        state = history[-1]
        now = awaited(table, state)
        if now and now != owner:
            turn, owner = turn + 1, now
        found[state.version] = (turn, owner)
    return found


async def one_game(game: str, seed: int, think: float) -> dict[str, Any]:
    """Play one game; return its raw counts."""
    import pytest

    from cogs.platform.board_messages import BoardMessages
    from tables.models import TableStatus
    from tests.cogs import conftest, helpers
    from tests.cogs.helpers import add_bot, play_option, table_of, user_of
    from tests.cogs.test_lobby import lobby_now, slash_answer

    conftest.GAME_SEED = seed
    uploads: list[tuple[int, int]] = []  # (version shown, bytes)
    pings: Counter[int] = Counter()
    clicks: list[tuple[int, int]] = []  # (version clicked on, seat)

    def counting(name: str, posts: bool) -> Any:
        real = getattr(BoardMessages, name)

        async def wrapper(self: Any, table: Any, thread: Any, board: Any, interaction: Any) -> None:
            await real(self, table, thread, board, interaction)
            if board.image is not None:
                uploads.append((table.version, len(board.image)))
            if posts:
                pings.update(board.ping_ids)

        return wrapper

    from tables.service import TableService

    real_sleep = TableService.sleep

    async def paced(self: Any, seconds: float) -> bool:
        if seconds != BOT_DELAY:
            return bool(await real_sleep(self, seconds))
        for _ in range(100):
            busy = [t for t in self.delivery.tasks() if not t.done() and t is not asyncio.current_task()]
            if not busy:
                break
            await asyncio.gather(*busy, return_exceptions=True)
        return bool(await real_sleep(self, 0.0))

    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as tmp:
        patch.setattr(TableService, "sleep", paced)
        for name, posts in (("post", True), ("edit", False), ("finish", True)):
            patch.setattr(BoardMessages, name, counting(name, posts))
        async with conftest.running(Path(tmp)) as world:
            service = world.bot.tables
            service.bot_delay = BOT_DELAY
            clock = [time.time()]
            service.clock = lambda: clock[0]
            result = await world.alice.slash(world.channel, f"play {game}")
            assert "is open" in slash_answer(result), slash_answer(result)
            lobby = world.channel.last_message
            await world.bob.click(lobby, label="Join")
            await add_bot(world.alice, lobby_now(world, lobby))
            await world.alice.click(lobby_now(world, lobby), label="Start")
            await world.idle()

            real_press = helpers.press
            pressed: list[int] = []

            async def press(*args: Any) -> Any:
                pressed.append(1)
                return await real_press(*args)

            helpers.press = press
            try:
                while True:
                    await world.idle()
                    table = await table_of(world)
                    humans = [p for p in table.prompts if not table.is_bot(p.seat)]
                    if table.status is not TableStatus.PLAYING or not humans:
                        break
                    prompt = humans[0]
                    action = table.rules.bot_action(table.state, prompt, "greedy")
                    shortcut = [a for a in prompt.options if a.kind == "place_rest"]
                    if shortcut and action.kind == "place":
                        action = shortcut[0]  # the rest is forced: a person takes the one click
                    user = user_of(world, table.seats[prompt.seat].user_id)
                    before = len(pressed)
                    clock[0] += think
                    await play_option(world, user, world.board(), prompt.seat, prompt.options.index(action))
                    clicks += [(table.version, prompt.seat)] * (len(pressed) - before)
            finally:
                helpers.press = real_press
            await world.idle()
            table = await table_of(world)
            assert table.status is TableStatus.FINISHED, table.status
            record = await service.record(table.id)
            history = world.thread().history()
            image_bytes = sum(a.size for m in history for a in m.attachments)
            humans = [i for i, s in enumerate(table.seats) if not s.is_bot]
            user_ids = {table.seats[i].user_id: i for i in humans}
            rounds = getattr(table.state, "round", None) or getattr(table.state, "rounds", None)
            turns = turns_by_version(table, record)
            rolls = sum(1 for move in record.moves if move.action.kind == "roll")
            bots = {i for i, s in enumerate(table.seats) if s.is_bot}

    def kind(owner: tuple[int, ...]) -> str:
        if len(owner) == 1:
            return "bot" if owner[0] in bots else "human"
        return "shared"

    turn_kinds = {number: kind(owner) for number, owner in turns.values()}
    per_turn_uploads: Counter[int] = Counter(turns[v][0] for v, _ in uploads if v in turns)
    per_turn_clicks: Counter[int] = Counter(turns[v][0] for v, _ in clicks if v in turns)
    human_turns = [t for t, k in turn_kinds.items() if k == "human"]
    bot_turns = [t for t, k in turn_kinds.items() if k == "bot"]
    return {
        "pings": [pings[uid] for uid in user_ids if uid is not None],
        "rounds": rounds,
        "messages": len(history),
        "image_bytes": image_bytes,
        "uploads": len(uploads),
        "uploaded_bytes": sum(size for _, size in uploads),
        "rolls": rolls,
        "human_turn_uploads": [per_turn_uploads[t] for t in human_turns],
        "bot_turn_uploads": [per_turn_uploads[t] for t in bot_turns],
        "human_clicks": len(clicks),
        "human_turns": len(human_turns),
        "human_turn_clicks": [per_turn_clicks[t] for t in human_turns],
    }


def measure(games: list[str], count: int, think: float) -> dict[str, list[dict[str, Any]]]:
    """Every game `count` times with fixed seeds."""
    return {g: [asyncio.run(one_game(g, SEED_BASE[g] + n, think)) for n in range(count)] for g in games}


def measure_ref(ref: str, games: list[str], count: int, think: float) -> dict[str, list[dict[str, Any]]]:
    """`measure` on a git commit, in a temporary worktree and a fresh process."""
    from refs import checkout

    here = Path(__file__).resolve()
    with checkout(ref) as tree:
        command = [sys.executable, str(here), "--json", "--games", str(count), "--think", str(think)]
        command += ["--game", *games]
        env = {**os.environ, "BENCH_QUIET_ROOT": str(tree)}
        done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=tree, env=env)
    result: dict[str, list[dict[str, Any]]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def summary(runs: list[dict[str, Any]]) -> dict[str, str]:
    """The figures of one game type over its runs."""

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    pings = [p for r in runs for p in r["pings"]]
    rows = {
        "pings per human per game": f"{mean(pings):.1f}",
        "thread messages per game": f"{mean([r['messages'] for r in runs]):.1f}",
        "image MB per game": f"{mean([r['image_bytes'] for r in runs]) / 1e6:.2f}",
        "uploads per game": f"{mean([r['uploads'] for r in runs]):.1f}",
        "uploaded image MB per game": f"{mean([r.get('uploaded_bytes', 0) for r in runs]) / 1e6:.2f}",
        "uploaded image MB, largest game": f"{max(r.get('uploaded_bytes', 0) for r in runs) / 1e6:.2f}",
    }
    if all(r.get("rolls") for r in runs):
        rolls = sum(r["rolls"] for r in runs)
        rows["thread messages per roll"] = f"{sum(r['messages'] for r in runs) / rolls:.2f}"
    if all(r["rounds"] for r in runs):
        per_round = [p / r["rounds"] for r in runs for p in r["pings"]]
        rows["pings per human per round"] = f"{mean(per_round):.2f}"
    human = [u for r in runs for u in r["human_turn_uploads"]]
    bot = [u for r in runs for u in r["bot_turn_uploads"]]
    rows["uploads per human turn (mean / max)"] = f"{mean(human):.2f} / {max(human, default=0)}"
    rows["uploads per bot turn (mean / max)"] = f"{mean(bot):.2f} / {max(bot, default=0)}"
    turns = sum(r["human_turns"] for r in runs)
    rows["clicks per human turn"] = f"{sum(r['human_clicks'] for r in runs) / max(1, turns):.2f}"
    # Clicks on the turn their board shows (a gold-die answer counts in the roller's turn).
    per_turn = sorted(c for r in runs for c in r.get("human_turn_clicks", []))
    if per_turn:
        middle, high = per_turn[len(per_turn) // 2], per_turn[min(len(per_turn) - 1, len(per_turn) * 9 // 10)]
        rows["clicks in a human turn (median / p90)"] = f"{middle} / {high}"
    return rows


def main() -> None:
    """Measure, optionally against a ref, and print one table per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games of each type")
    parser.add_argument("--game", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--think", type=float, default=20.0, help="service-clock seconds per human click")
    parser.add_argument("--ref", help="also measure this commit (for example main)")
    parser.add_argument("--json", action="store_true", help="print the raw counts as JSON (for --ref)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.game, args.games, args.think)))
        return
    columns = []
    if args.ref:
        columns.append((args.ref, measure_ref(args.ref, args.game, args.games, args.think)))
    columns.append(("this tree", measure(args.game, args.games, args.think)))
    for game in args.game:
        tables = [(name, summary(data[game])) for name, data in columns]
        print(f"\n== {game}: 2 humans + 1 bot, {args.games} games, {args.think:g} s per human click ==")
        print(f"{'':<40}" + "".join(f"{name:>18}" for name, _ in tables))
        for row in tables[0][1]:
            print(f"{row:<40}" + "".join(f"{figures.get(row, '-'):>18}" for _, figures in tables))


if __name__ == "__main__":
    main()
