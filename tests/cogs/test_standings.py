"""/stats and /leaderboard through the Discord layer, on results stored as finished games leave them."""

from __future__ import annotations

import io
import sqlite3
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands
from PIL import Image

from cogs import standings
from cogs.platform.ids import LeaderboardRef
from cogs.platform.text import rating_line
from engine import games
from tables import ratings, stats
from tables.errors import StoreUnavailable
from tables.models import SeatInfo, TableStatus
from tables.results import ResultRow, insert_rows
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, buttons, play_greedily, table_of
from tests.cogs.test_fourth_game import RACE
from tests.cogs.test_lobby import lobby_now, open_table, slash_answer

BOT = None


async def seed(
    world: Harness, games: list[list[tuple[int | None, int, int]]], game: str = "tomatoes"
) -> None:
    """Store finished games of the test server, each seat (user id or BOT, rank, score); rate them."""
    store = world.bot.tables.store

    def write(db: sqlite3.Connection) -> None:
        for number, seats in enumerate(games):
            when = 1_000_000.0 + 3600 * number
            table_id = db.execute(
                "INSERT INTO tables (game, guild_id, channel_id, host_id, status, options, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, 'finished', '{}', ?, ?)",
                (game, world.guild.id, world.channel.id, world.alice.id, when, when),
            ).lastrowid
            assert table_id is not None
            insert_rows(
                db,
                [
                    ResultRow(
                        table_id=table_id,
                        seat=seat,
                        game=game,
                        guild_id=world.guild.id,
                        user_id=user,
                        bot="hard" if user is None else None,
                        replaced=False,
                        name=f"player {seat}",
                        rank=rank,
                        score=score,
                        breakdown={},
                        options={},
                        players=len(seats),
                        started_at=when - 600,
                        ended_at=when,
                        moves=40,
                    )
                    for seat, (user, rank, score) in enumerate(seats)
                ],
            )
        ratings.rebuild(db)

    await store.write(write)


def answer(result: Any) -> Any:
    """The message a deferred command answered with (its follow-up replaces the "thinking" message)."""
    return result.followups[0] if result.followups else result.response


def field(embed: Any, name: str) -> str:
    return next(str(f.value) for f in embed.fields if f.name == name)


async def test_stats_shows_a_record_a_rating_and_its_chart_privately(world: Harness) -> None:
    alice, bob, carol = world.alice.id, world.bob.id, world.carol.id
    await seed(
        world,
        [
            [(alice, 1, 30), (bob, 2, 20)],
            [(alice, 1, 35), (bob, 2, 25), (BOT, 3, 10)],
            [(bob, 1, 40), (alice, 2, 22), (carol, 3, 5)],
            [(alice, 1, 28), (BOT, 2, 27)],
            [(alice, 1, 12)],
        ],
    )
    result = await world.bob.slash(world.channel, "stats", player=world.alice, game="tomatoes")
    assert result.ephemeral
    message = answer(result)
    embed = message.embeds[0]
    assert embed.title == "🍅 alice · Diced Tomatoes"
    assert field(embed, "Games") == "5 (2 with bots, 1 solo)"
    assert field(embed, "Wins") == "3 of 4 (75%)"
    assert field(embed, "Longest win streak") == "2"
    assert field(embed, "Score") == "average 25.4, best 35"
    rating = field(embed, "Rating")
    assert (
        "±" in rating
        and "the leaderboard ranks by" in rating
        and "after 4 rated games (2 with bots)" in rating
    )
    opponents = field(embed, "Favourite opponents").splitlines()
    assert opponents == [f"<@{bob}>: 3 games, ahead in 2", f"<@{carol}>: 1 game, ahead in 1"]
    assert message.attachments and message.attachments[0].filename == "rating.webp"
    image = await message.attachments[0].read()
    assert Image.open(io.BytesIO(image)).size == (800, 460)


async def test_stats_without_arguments_shows_your_most_played_game(world: Harness) -> None:
    alice, bob = world.alice.id, world.bob.id
    await seed(world, [[(alice, 2, 1), (bob, 1, 2)]], game="buttons")
    await seed(world, [[(alice, 1, 9), (bob, 2, 3)], [(alice, 1, 9), (bob, 2, 3)]], game="tomatoes")
    embed = answer(await world.alice.slash(world.channel, "stats")).embeds[0]
    assert embed.title == "🍅 alice · Diced Tomatoes" and "Buttons (1)" in (embed.footer.text or "")
    nothing = await world.carol.slash(world.channel, "stats")
    assert slash_answer(nothing) == "carol has not finished a game here yet."
    none_of_that = await world.alice.slash(world.channel, "stats", game="troyes")
    assert slash_answer(none_of_that) == "alice has not finished a game of Troyes here yet."


async def test_stats_shows_a_name_on_one_line_without_bidi_overrides_or_markdown(world: Harness) -> None:
    odd = world.guild.add_member(world.env.create_user("\u202enna *bold*\nline"))
    refused = slash_answer(await world.alice.slash(world.channel, "stats", player=odd))
    assert refused == "nna \\*bold\\* line has not finished a game here yet.", refused


async def test_the_leaderboard_sorts_by_conservative_rating_and_pages(world: Harness) -> None:
    people = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(12)]
    # Player i beats everyone after them in one game each: i's rating falls with i.
    games = [[(people[i].id, 1, 10), (people[j].id, 2, 5)] for i in range(12) for j in range(i + 1, 12)]
    await seed(world, games)
    result = await world.watcher.slash(world.channel, "leaderboard", game="tomatoes")
    assert not result.ephemeral
    board = world.channel.last_message
    assert board is not None and board.id == answer(result).id
    embed = board.embeds[0]
    lines = (embed.description or "").splitlines()
    assert len(lines) == standings.PER_PAGE
    assert lines[0].startswith(f"**1.** <@{people[0].id}>") and lines[9].startswith(
        f"**10.** <@{people[9].id}>"
    )
    assert "11 games" in lines[0]
    assert embed.footer.text is not None and embed.footer.text.startswith("Page 1 of 2")
    shown = buttons(board)
    assert shown == {
        "Previous": LeaderboardRef("tomatoes", 0).custom_id(),
        "Next": LeaderboardRef("tomatoes", 1).custom_id(),
    }
    clicked = await world.alice.click(board, label="Next")
    assert clicked.acknowledged and not clicked.followups
    now = next(m for m in world.channel.history() if m.id == board.id)
    second = now.embeds[0]
    assert (second.description or "").splitlines()[0].startswith(f"**11.** <@{people[10].id}>")
    assert second.footer.text is not None and second.footer.text.startswith("Page 2 of 2")


async def test_an_empty_leaderboard_says_how_to_get_on_it(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "leaderboard", game="troyes")
    board = answer(result)
    assert "Nobody is rated" in (board.embeds[0].description or "")


async def test_a_game_against_a_bot_played_to_the_end_rates_the_human(world: Harness) -> None:
    lobby = await open_table(world, golden=False)
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    final = await table_of(world)
    assert final.status is TableStatus.FINISHED and final.outcome is not None
    embed = answer(await world.alice.slash(world.thread(), "stats")).embeds[0]
    assert embed.title == "🍅 alice · Diced Tomatoes"
    assert field(embed, "Games") == "1 (1 with bots)"
    assert "after 1 rated game (1 with bots)" in field(embed, "Rating")
    won = final.outcome.ranks[0] == 1
    assert field(embed, "Wins") == ("1 of 1 (100%)" if won else "0 of 1 (0%)")
    await world.watcher.slash(world.channel, "leaderboard", game="tomatoes")
    board = world.channel.last_message
    assert board is not None
    lines = (board.embeds[0].description or "").splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"**1.** <@{world.alice.id}>"), "the bot is not listed"
    # The final message says how far the game moved alice's rating, and where it stands now.
    moves = await world.bot.tables.store.read(ratings.table_moves, final.id)
    before, after = moves[0]
    assert list(moves) == [0] and before == ratings.NEW.mu and round(after, 1) == field_mu(embed)
    change = round(after, 1) - round(before, 1)
    if final.outcome.ranks == (1, 2):
        assert change > 0, "a win against a bot rated like a newcomer raises the rating"
    elif final.outcome.ranks == (2, 1):
        assert change < 0
    sign = "+" if change > 0 else "−" if change < 0 else "±"
    assert f"📈 Rating: **alice** {after:.1f} ({sign}{abs(change):.1f})" in world.board().content
    # The leaderboard's line shows that same rating (not the conservative value it ranks by), and
    # its footer says how it ranks.
    sigma = lines[0].split(" ± ")[1].split(" ")[0]
    assert lines[0] == f"**1.** <@{world.alice.id}> **{after:.1f}** ± {sigma} · 1 game (1 with bots)"
    assert "ranked by rating − 3 × uncertainty" in (board.embeds[0].footer.text or "")


def field_mu(embed: Any) -> float:
    """The mu /stats shows in its Rating field (in bold, to one decimal)."""
    return float(field(embed, "Rating").split("**")[1])


async def test_the_final_scores_go_out_without_the_rating_line_when_the_database_cannot_say(
    world: Harness, monkeypatch: Any
) -> None:
    async def unavailable(*_: Any) -> None:
        raise StoreUnavailable()

    monkeypatch.setattr(stats, "rating_moves", unavailable)
    lobby = await open_table(world, golden=False)
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    assert (await table_of(world)).status is TableStatus.FINISHED
    final = world.board().content
    assert "final scores" in final and "📈" not in final


def test_the_rating_line_gives_each_person_their_new_rating_and_its_change() -> None:
    seats = [SeatInfo(1, None, "ann"), SeatInfo(None, "normal", "Bot"), SeatInfo(3, None, "b*o*b")]
    moves = {0: (25.0, 27.13), 2: (25.0, 22.96)}
    assert rating_line(seats, moves) == r"📈 Rating: **ann** 27.1 (+2.1) · **b\*o\*b** 23.0 (−2.0)"
    assert rating_line(seats, {0: (25.04, 24.96)}) == "📈 Rating: **ann** 25.0 (±0.0)"
    assert rating_line(seats, {}) is None, "no line for a game that moved no rating"


def test_a_game_registered_after_import_is_a_choice_of_stats_and_leaderboard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game choices are read from the registry when the cog builds its commands, not at import."""
    monkeypatch.setitem(games.GAMES, RACE.id, RACE)
    cog = standings.Standings(SimpleNamespace(tables=None))
    built = {c.name: c for c in [*cog.get_app_commands(), *getattr(cog, "game_commands", ())]}
    for name in ("stats", "leaderboard"):
        command = built[name]
        assert isinstance(command, app_commands.Command)
        choices = {choice.value for choice in command.get_parameter("game").choices}  # type: ignore[union-attr]
        assert choices == set(games.GAMES) and "race" in choices, name
