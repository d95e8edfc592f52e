"""Click-to-board time through the Discord layer: the real bot.py in a child process, the fake on 127.0.0.1.

Usage: .venv/bin/python bench/bench_discord.py [--clicks 200] [--players 1]

One human (plus bots if --players > 1, moving without delay) plays Diced Tomatoes by clicking
the posted components; games restart until enough clicks are measured. For every click:
  ack    - the fake sends INTERACTION_CREATE -> the bot's interaction callback arrives;
  board  - -> the first message created or edited after the callback (the board, or step two);
  ready  - -> the next component the player can click is on screen (bots' moves included).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import nearest_rank, spread  # noqa: E402

from tests.e2e.botprocess import BotProcess, child_env  # noqa: E402
from tests.e2e.players import choices, find_choice, press, version_of  # noqa: E402
from tests.fakediscord import Channel, FakeDiscord, Message, User  # noqa: E402

MESSAGE_WRITES = ("POST", "PATCH")


async def open_game(fake: FakeDiscord, channel: Channel, user: User, bots: int) -> int:
    """Open a lobby, seat the bots, start; return the game thread's id."""
    known = {t.id for t in fake.threads_of(channel.id)}
    await fake.wait_answered(await fake.slash("play tomatoes", user, channel))
    lobby = await fake.wait_message(
        lambda m: m.channel_id == channel.id and "Start" in m.labels() and m.id not in known, what="a lobby"
    )
    add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
    for seated in range(1, bots + 1):
        await fake.wait_answered(await fake.select(lobby, add_bot, ["normal"], user))

        def shown(count: int = seated) -> bool:
            return lobby.edited >= count

        await fake.wait_for(shown, 10, "a bot seated")
    await fake.wait_answered(await fake.click_label(lobby, "Start", user))
    threads = await fake.wait_for(
        lambda: [t for t in fake.threads_of(channel.id) if t.id not in known], 10, "the game thread"
    )
    return threads[0].id


def first_write_after(fake: FakeDiscord, index: int, callback_at: float) -> float | None:
    """When the first message write after request `index` (and after the callback) arrived."""
    for request in fake.requests[index:]:
        if request.at < callback_at or request.method not in MESSAGE_WRITES:
            continue
        if "/messages" in request.path or request.path.startswith("/webhooks/"):
            return request.at
    return None


class Timings:
    """Per-click latencies in seconds."""

    def __init__(self) -> None:
        self.ack: list[float] = []
        self.board: list[float] = []
        self.ready: list[float] = []


async def measure_click(fake: FakeDiscord, thread_id: int, user: User, timings: Timings) -> bool:
    """Click the player's next component and time it; False when there is none (game over)."""
    try:
        msg, item = await fake.wait_for(
            lambda: find_choice(fake, thread_id, user, choices), 10, "a component"
        )
    except TimeoutError:
        return False
    version = version_of(item)
    index = len(fake.requests)
    start = time.monotonic()
    interaction, final = await press(fake, msg, item, user)
    callback = next(
        r.at for r in fake.requests[index:] if r.path.startswith(f"/interactions/{interaction.id}/")
    )
    timings.ack.append(callback - start)
    written = await fake.wait_for(lambda: first_write_after(fake, index, callback), 10, "a board")
    timings.board.append(written - start)

    def pick(m: Message) -> list[dict[str, object]]:
        if final:
            return [i for i in choices(m) if version_of(i) > version]
        return choices(m, version, final_only=True)

    try:
        await fake.wait_for(lambda: find_choice(fake, thread_id, user, pick), 10, "the next component")
    except TimeoutError:
        return True  # that click ended the game
    timings.ready.append(time.monotonic() - start)
    return True


async def run(clicks: int, players: int) -> None:
    """Start the fake and bot.py, play until `clicks` clicks are timed, print the figures."""
    fake = FakeDiscord()
    await fake.start()
    channel = fake.add_text_channel(fake.add_guild("Bench"))
    alice = fake.add_user("Alice")
    timings = Timings()
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(
            DISCORD_TOKEN=fake.token,
            MEEPLE_DB=str(Path(tmp) / "meeple.sqlite3"),
            MEEPLE_LOG_LEVEL="WARNING",
            MEEPLE_BOT_DELAY="0",
            MEEPLE_DISCORD_API_BASE=fake.api_base,
        )
        bot = BotProcess(env, Path(tmp), Path(tmp) / "bot.log")
        await bot.start()
        try:
            await fake.wait_connected()
            # on_ready (and with it the table service) comes 2 s after the last GUILD_CREATE.
            await asyncio.sleep(2.5)
            while len(timings.ack) < clicks:
                thread_id = await open_game(fake, channel, alice, players - 1)
                games += 1
                while len(timings.ack) < clicks and await measure_click(fake, thread_id, alice, timings):
                    pass
            await bot.terminate()
        finally:
            await bot.kill()
            await fake.close()
    print(f"bench_discord: {len(timings.ack)} clicks in {games} game(s) of Diced Tomatoes, {players} seat(s)")
    for name, values in (("ack", timings.ack), ("board", timings.board), ("ready", timings.ready)):
        figures = spread(values, ("p50", "p95", "max", "mean"), "ms", sep="   ", rank=nearest_rank)
        print(f"  {name:5} {figures}   (n={len(values)})")
    uploads = [r for r in fake.requests if r.files]
    size = statistics.fmean(len(r.files["files[0]"]) for r in uploads) / 1024 if uploads else 0.0
    print(f"  {len(uploads)} board image upload(s), {size:.0f} KiB on average")
    if fake.problems:
        print("problems:", *fake.problems, sep="\n  ")


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--players", type=int, default=1, help="seats in all; the others are bots")
    args = parser.parse_args()
    asyncio.run(run(args.clicks, args.players))


if __name__ == "__main__":
    main()
