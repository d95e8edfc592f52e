"""A full game of each game through Discord at a table in Russian, Polish or Korean, with the real
catalogs: public posts in the table's language, an English spectator's private answers in English.

Translators are still filling the catalogs (an untranslated message falls back to English), so
the posts are checked by messages translated now: the lobby's buttons, the final scores line,
and Hangul on every post of the Korean table.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from cogs.games import get_ui
from cogs.platform.answers import WATCHER
from cogs.platform.ids import ActRef
from cogs.platform.text import LANGUAGE_NAMES
from engine.core import LEVELS
from engine.words import ENGLISH, words
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, buttons, client_locales, play_greedily, refs, table_of
from tests.cogs.test_lobby import lobby_now, slash_answer

SCRIPTS = {"ko": re.compile("[\uac00-\ud7a3]"), "ru": re.compile("[а-яё]", re.IGNORECASE)}
"""The script every post of a table in that language shows (Polish shares English's letters)."""
FINAL = "🏁 **{game}** · table #{table} · final scores"

GAMES = ("tomatoes", "buttons", "troyes")
LANGUAGES = ("ru", "pl", "ko")
CASES = [(game, language) for game in GAMES for language in LANGUAGES]


@pytest.fixture
def clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """The client locale of each member id, as its interactions carry it (en-US if absent)."""
    yield client_locales(monkeypatch)


def translated(language: str, message: str) -> str:
    """`message` in `language`, which the catalog must already translate (else the check proves nothing)."""
    said = words(language).gettext(message)
    assert said != message, f"{message!r} is not translated in {language} yet"
    return said


def posts(world: Harness) -> list[discord.Message]:
    """The bot's posts: the lobby, and every message of the game thread (not Discord's own notes,
    such as the thread's creation, which says its name)."""
    every = [*world.channel.history(), *world.thread().history()]
    said = (discord.MessageType.default, discord.MessageType.reply)
    return [m for m in every if m.author.id == world.bot.user.id and m.type in said]


async def spectator_is_answered_in_english(world: Harness, language: str) -> None:
    """The watcher (an English client) clicks a seat's button and asks /game info: English answers."""
    board = world.board()
    custom_id, value = next((cid, value) for ref, cid, value in refs(board) if isinstance(ref, ActRef))
    if value is None:
        refused = await world.watcher.click(board, custom_id=custom_id)
    else:
        refused = await world.watcher.select(board, [value], custom_id=custom_id)
    assert refused.followups, "a spectator's click is refused"
    assert refused.followups[0].content == ENGLISH.gettext(WATCHER) != words(language).gettext(WATCHER)
    info = slash_answer(await world.watcher.slash(world.thread(), "game info"))
    assert f"**Language:** {LANGUAGE_NAMES[language]}" in info, info


@pytest.mark.parametrize(("game", "language"), CASES)
async def test_a_full_game_at_a_table_in_a_language_through_discord(
    world: Harness, clients: dict[int, str], game: str, language: str
) -> None:
    clients[world.alice.id] = language
    opened = await world.alice.slash(world.channel, f"play {game}")
    assert slash_answer(opened) != "", "the host is answered"
    lobby = world.channel.last_message
    assert lobby is not None
    assert (await table_of(world)).language == language, "the host's client language by default"
    labels = set(buttons(lobby))
    assert {translated(language, "Join"), words(language).gettext("Start")} <= labels, labels
    await add_bot(world.alice, lobby_now(world, lobby))
    await world.alice.click(lobby_now(world, lobby), label=words(language).gettext("Start"))
    await world.idle()
    table = await table_of(world)
    assert table.status is TableStatus.PLAYING

    assert await play_greedily(world, moves=3) > 0
    assert (await table_of(world)).status is TableStatus.PLAYING
    await spectator_is_answered_in_english(world, language)
    await play_greedily(world, moves=10_000)

    final = await table_of(world)
    assert final.status is TableStatus.FINISHED and final.outcome is not None
    ending = world.board().content
    title = get_ui(game).title
    said_title = words(language).gettext(title)
    assert words(language).gettext(FINAL, game=said_title, table=final.id) in ending, ending
    assert translated(language, FINAL) and ENGLISH.gettext(FINAL, game=title, table=final.id) not in ending
    if language in SCRIPTS:
        said = posts(world)
        english = [m.content for m in said if not SCRIPTS[language].search(m.content)]
        assert len(said) >= 3 and english == [], f"every post of the {language} table is in its script"
    assert world.env.errors == []


def test_every_bot_level_a_table_shows_is_a_catalog_message() -> None:
    """A bot's seat reads "Bot (normal)" in the table's language: its level goes through the
    catalog (cogs.platform.text.seat_name, the lobby's Add bot select), so extraction must find it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import catalogs  # scripts/catalogs.py, which writes locales/meeple.pot

    found = {message.id for message in catalogs.template() if message.id}
    assert set(LEVELS) - found == set(), "a level no catalog can translate"


@pytest.mark.parametrize("language", ["ru", "pl", "ko"])
def test_a_solo_tomatoes_result_is_said_in_the_tables_language(language: str) -> None:
    from engine.games import get_rules
    from renderers.playout import states

    rules = get_rules("tomatoes")
    *_, end = states(rules, 1, 7)
    outcome = rules.outcome(end)
    assert outcome is not None and len(outcome.scores) == 1
    ui = get_ui("tomatoes")
    english = ui.result_line(outcome, rules.view(end, None))
    assert english == outcome.summary  # the engine's own summary, in the source language
    said = ui.result_line(outcome, rules.view(end, None), words=words(language))
    assert said and said != english
    if language in SCRIPTS:
        assert re.search(SCRIPTS[language], said), said
