"""Who reads which language: a table's public posts in its language, private answers in the reader's.

The catalogs are not translated yet, so a pseudo-catalog stands in for Russian, Polish and
Korean: each message comes back as written with "Ж " before it. A post is in a language when
its lines carry the mark; simcord's clients are in English unless a test sets a member's locale.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

import engine.words
import renderers
from cogs.platform.board import board_job
from cogs.platform.ids import GroupRef, LobbyOp
from cogs.platform.pacing import LANGUAGE_VALUE
from tests.cogs.conftest import Harness
from tests.cogs.helpers import (
    add_bot,
    client_locales,
    components,
    fresh,
    play_greedily,
    press,
    refs,
    table_of,
)
from tests.cogs.test_days import select_id
from tests.cogs.test_lobby import lobby_now, slash_answer

MARK = "Ж "


class Pseudo(gettext.NullTranslations):
    """Every message "translated" by putting the mark before it, its {fields} kept."""

    def gettext(self, message: str) -> str:
        return MARK + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return MARK + (singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return MARK + message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """Pseudo-translated catalogs; returns the client locale of each member id (en-US if absent)."""
    locales = client_locales(monkeypatch)
    monkeypatch.setattr(engine.words, "_catalog", lambda language: Pseudo())
    engine.words.words.cache_clear()
    yield locales
    engine.words.words.cache_clear()


def spoken(text: str) -> bool:
    """Whether every line of a post is in the pseudo-language (but the game's own words for its
    options, which the games' words will say: cogs/games)."""
    return all(
        MARK in line
        for line in text.splitlines()
        if line and not line.startswith("-# Variants") and not re.fullmatch(r"\d+\. <@\d+>", line)
    )


async def test_play_opens_the_table_in_the_hosts_client_language(
    world: Harness, pseudo: dict[int, str]
) -> None:
    pseudo[world.alice.id] = "ru"
    result = await world.alice.slash(world.channel, "play tomatoes")
    assert slash_answer(result).startswith(MARK), "the host's own answer in their language"
    table = await table_of(world)
    assert table.language == "ru"
    lobby = world.channel.last_message
    assert lobby is not None and lobby.content.startswith(MARK) and "🌐 Русский" in lobby.content
    assert spoken(lobby.content), lobby.content
    # Bob's client is in English: his private answers are, the lobby stays in the table's language.
    joined = await world.bob.click(lobby, label=MARK + "Join")
    assert not joined.followups or not any((m.content or "").startswith(MARK) for m in joined.followups)
    assert spoken(lobby_now(world, lobby).content)
    games = await world.bob.slash(world.channel, "games")
    assert not slash_answer(games).startswith(MARK)


async def test_the_host_may_choose_another_language_and_change_it_in_the_lobby(
    world: Harness, pseudo: dict[int, str]
) -> None:
    result = await world.alice.slash(world.channel, "play tomatoes", language="ko")
    assert not slash_answer(result).startswith(MARK), "alice's client is in English"
    assert (await table_of(world)).language == "ko"
    lobby = world.channel.last_message
    assert lobby is not None and "🌐 한국어" in lobby.content and spoken(lobby.content)
    await world.bob.click(lobby, label=MARK + "Join")
    refused = await world.bob.select(
        lobby_now(world, lobby), [f"{LANGUAGE_VALUE}en"], custom_id=select_id(lobby, LobbyOp.PACE)
    )
    assert refused.followups and "host" in (refused.followups[0].content or "")
    assert (await table_of(world)).language == "ko"
    await world.alice.select(
        lobby_now(world, lobby), [f"{LANGUAGE_VALUE}en"], custom_id=select_id(lobby, LobbyOp.PACE)
    )
    assert (await table_of(world)).language == "en"
    now = lobby_now(world, lobby).content
    assert "🌐 English" in now and MARK not in now, "English is the source: no catalog"


async def test_boards_and_captions_speak_the_tables_language(
    world: Harness, pseudo: dict[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.alice.slash(world.channel, "play tomatoes", language="pl")
    lobby = world.channel.last_message
    assert lobby is not None
    await world.bob.click(lobby, label=MARK + "Join")
    await world.alice.click(lobby_now(world, lobby), label=MARK + "Start")
    await world.idle()
    board = world.board()
    assert board.content.startswith(MARK), board.content
    table = await table_of(world)
    job = board_job(table, None)  # the real one: this world posts boards without images
    assert job is not None and job.language == "pl", "the draw job carries the table's language"
    told: list[Any] = []
    real = renderers.render_file

    def spy(game: str, view: Any, viewer: int | None, names: Any, **kw: Any) -> bytes:
        told.append(kw.get("language"))
        return real(game, view, viewer, names, **kw)

    monkeypatch.setattr(renderers, "render_file", spy)
    assert job.draw().startswith(b"RIFF") and told == ["pl"], "and hands it to the renderer"
    info = await world.watcher.slash(world.thread(), "game info")
    answer = slash_answer(info)
    assert not answer.startswith(MARK) and "**Language:** Polski" in answer, "/game info in the asker's words"


async def test_settings_language_overrides_the_client_for_private_answers(
    world: Harness, pseudo: dict[int, str]
) -> None:
    shown = await world.bob.slash(world.channel, "settings", language="ru")
    answer = slash_answer(shown) if shown.followups else str(shown.response.content)
    assert answer.startswith(MARK) and "Русский" in answer, answer
    assert world.bot.tables.players.get(world.bob.id).language == "ru"
    games = await world.bob.slash(world.channel, "games")
    assert slash_answer(games).startswith(MARK), "bob chose Russian over his English client"
    back = await world.bob.slash(world.channel, "settings", language="client")
    answer = slash_answer(back) if back.followups else str(back.response.content)
    assert not answer.startswith(MARK)
    assert world.bot.tables.players.get(world.bob.id).language is None


async def test_a_refusal_is_said_in_the_clickers_language(world: Harness, pseudo: dict[int, str]) -> None:
    pseudo[world.bob.id] = "ko"
    await world.alice.slash(world.channel, "play tomatoes", language="en")
    lobby = world.channel.last_message
    assert lobby is not None
    refused = await world.bob.click(lobby, label="Start")
    assert refused.followups
    assert refused.followups[0].content == MARK + "Only the host of this table can do that."
    again = await world.alice.click(lobby_now(world, lobby), label="Join")
    assert again.followups and again.followups[0].content == "You are already seated at this table."


def test_every_language_has_its_own_name() -> None:
    from cogs.platform.text import LANGUAGE_NAMES
    from engine.words import LANGUAGES

    assert list(LANGUAGE_NAMES) == list(LANGUAGES)


async def test_the_turn_menu_and_its_second_step_speak_the_tables_language(
    world: Harness, pseudo: dict[int, str]
) -> None:
    """The game's own labels and question (Buttons' are in the catalog), and a group's second step
    (its question, Back and page arrows), in the table's language, not the platform's English."""
    await world.alice.slash(world.channel, "play buttons", language="pl")
    lobby = world.channel.last_message
    assert lobby is not None
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label=MARK + "Start")
    await world.idle()
    board = world.board()
    labels = [c.label for c in components(board) if isinstance(c, discord.Button)]
    labels += [o.label for c in components(board) if isinstance(c, discord.SelectMenu) for o in c.options]
    assert labels and all(label.startswith(MARK) for label in labels), labels
    question = board.content.splitlines()[-1]
    assert "alice" in question and question.startswith(MARK), board.content


async def test_a_groups_second_step_speaks_the_tables_language(
    world: Harness, pseudo: dict[int, str]
) -> None:
    await world.alice.slash(world.channel, "play tomatoes", language="ko")
    lobby = world.channel.last_message
    assert lobby is not None
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label=MARK + "Start")
    for _ in range(20):
        await world.idle()
        board = world.board()
        group = next(((cid, value) for ref, cid, value in refs(board) if isinstance(ref, GroupRef)), None)
        if group is not None:
            break
        await play_greedily(world, moves=1)
    assert group is not None, "alice was offered a group of options"
    await press(world, world.alice, board, *group)
    step = fresh(world, board)
    labels = [c.label for c in components(step) if isinstance(c, discord.Button)]
    assert MARK + "Back" in labels and not {"Back", "More", "Previous"} & set(labels), labels


async def test_every_line_of_a_whole_games_posts_speaks_the_tables_language(
    world: Harness, pseudo: dict[int, str]
) -> None:
    """Buttons, whose words are all in the catalog: the lobby's option line, every board's log lines,
    questions and the final scores, in the table's language; /game log in the reader's."""
    pseudo[world.bob.id] = "ko"
    await world.alice.slash(world.channel, "play buttons", language="pl")
    lobby = world.channel.last_message
    assert lobby is not None
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label=MARK + "Start")
    assert await play_greedily(world, moves=10_000) > 0
    assert (await table_of(world)).status.value == "finished"
    every = [*world.channel.history(), *world.thread().history()]
    said = [m for m in every if m.author.id == world.bot.user.id and m.type is discord.MessageType.default]
    unspoken = [line for m in said for line in m.content.splitlines() if line and not spoken(line)]
    assert len(said) > 5 and unspoken == []
    watched = slash_answer(await world.watcher.slash(world.thread(), "game log"))
    logged = [line for line in watched.splitlines() if line.startswith("-# • ") or line.startswith("• ")]
    assert MARK not in watched, "the English spectator's log is in English"
    read = slash_answer(await world.bob.slash(world.thread(), "game log"))
    assert read.count(MARK) > len(logged) // 2, "the log in the reader's language"
