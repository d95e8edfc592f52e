"""Provably fair dice on Discord (commitment, seed reveal, /game record) and looking back
(/game history, /game replay)."""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import pytest
from PIL import Image

import renderers
from cogs.platform import records
from cogs.platform.ids import ReplayRef
from engine import verify
from tables.models import Table, TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, client_locales, play_greedily, table_of
from tests.cogs.test_lobby import open_table, slash_answer
from tests.cogs.test_turns import start_two_humans
from tests.engine.test_verify import first_chance_event


async def finish_solo_game(world: Harness) -> Table:
    """alice plays a solo Diced Tomatoes game through the buttons to its end."""
    lobby = await open_table(world, golden=False)
    await world.alice.click(lobby, label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    table = await table_of(world)
    assert table.status is TableStatus.FINISHED
    return table


async def finish_by_service(world: Harness, guild_id: int, channel_id: int) -> Table:
    """A solo game created and played straight through the table service (no thread)."""
    service = world.bot.tables
    table = await service.create("tomatoes", guild_id, channel_id, world.alice.id, "alice")
    table = (await service.start_game(table.id, world.alice.id)).table
    while table.status is TableStatus.PLAYING:
        prompt = table.prompts[0]
        action = table.rules.bot_action(table.state, prompt, "normal")
        table = (await service.act(table.id, world.alice.id, table.version, action)).table
    return table


def answer_of(result: Any) -> Any:
    """The private answer to a deferred command (the follow-up may replace the "thinking" message)."""
    return result.followups[0] if result.followups else result.response


def record_of(result: Any) -> Any:
    """The JSON record attached to a /game record answer."""
    answer = answer_of(result)
    assert answer.ephemeral
    attachment = answer.attachments[0]
    assert attachment.filename.startswith("meeple-table-") and attachment.filename.endswith(".json")
    return attachment


async def test_the_game_opens_with_a_commitment_and_its_last_message_reveals_the_seed(world: Harness) -> None:
    table = await finish_solo_game(world)
    assert table.seed is not None and table.salt is not None
    committed = hashlib.sha256(f"meeple-seed-v1:{table.salt}:{table.seed}".encode()).hexdigest()
    assert table.commitment == committed
    mine = [m for m in world.thread().history() if m.author.id == world.bot.user.id]
    assert committed in mine[0].content and not mine[0].components, "the game opens with the commitment"
    assert mine[0].edited_at is None, "the commitment message is never edited"
    assert "Diced Tomatoes" in mine[1].content, "then the first board"
    assert all(committed not in m.content for m in mine[1:]), "once is enough"
    assert all(f"`{table.seed}`" not in m.content for m in mine[:-1]), "the seed stays secret until the end"
    final = world.board()
    assert final.id == table.board_message_id and "final scores" in final.content
    assert f"The seed was `{table.seed}`" in final.content
    assert "📈" not in final.content, "a solo game moves no rating"


async def test_the_record_of_a_finished_game_verifies_and_any_change_fails(world: Harness) -> None:
    table = await finish_solo_game(world)
    result = await world.watcher.slash(world.thread(), "game record")
    assert "its seed revealed" in slash_answer(result)
    document = json.loads(await record_of(result).read())
    assert document["seed"] == str(table.seed) and document["salt"] == table.salt
    assert document["commitment"]["sha256"] == table.commitment
    checked = verify.verify(document)
    assert checked.game == "tomatoes" and checked.moves == len(document["moves"])

    def change_roll(tampered: dict[str, Any]) -> None:
        _, event = first_chance_event(tampered)
        key = next(k for k, v in sorted(event["data"].items()) if isinstance(v, int | list) and k != "seat")
        value = event["data"][key]
        event["data"][key] = [*value, 6] if isinstance(value, list) else value + 1

    changes = {
        "the seed": lambda d: d.update(seed=str(int(d["seed"]) + 1)),
        "a roll": change_roll,
        "an action": lambda d: d["moves"].pop(0),
    }
    for what, change in changes.items():
        tampered = json.loads(json.dumps(document))
        change(tampered)
        with pytest.raises(verify.RecordProblem) as refused:
            verify.verify(tampered)
        assert str(refused.value), f"changing {what} is named"


async def test_the_record_of_a_game_in_play_keeps_its_seed_secret(world: Harness) -> None:
    table = await start_two_humans(world)
    result = await world.watcher.slash(world.thread(), "game record")
    assert "stays secret" in slash_answer(result)
    raw = await record_of(result).read()
    document = json.loads(raw)
    assert document["seed"] is None and document["salt"] is None
    assert table.salt is not None and table.salt.encode() not in raw
    assert document["commitment"]["sha256"] == table.commitment
    with pytest.raises(verify.CannotCheck):
        verify.verify(document)


async def test_record_of_an_unknown_or_foreign_table_is_refused(world: Harness) -> None:
    other = await finish_by_service(world, world.guild.id + 1, 5)
    for number in (other.id, 999):
        result = await world.alice.slash(world.channel, "game record", table=number)
        assert slash_answer(result) == f"There is no table #{number} in this server."


async def test_history_lists_finished_games_newest_first_in_pages(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "HISTORY_PAGE", 2)
    empty = await world.alice.slash(world.channel, "game history")
    assert "No game has finished in this server yet" in slash_answer(empty)
    first = await finish_solo_game(world)
    later = [await finish_by_service(world, world.guild.id, world.channel.id) for _ in range(2)]
    await finish_by_service(world, world.guild.id + 1, 5)  # another server's game is not listed
    await world.bot.tables.create("tomatoes", world.guild.id, world.channel.id, world.alice.id, "alice")

    result = await world.bob.slash(world.channel, "game history")
    page_one = slash_answer(result)
    assert "page 1 of 2, 3 in all" in page_one
    assert page_one.index(f"#{later[1].id}**") < page_one.index(f"#{later[0].id}**")
    assert f"#{first.id}**" not in page_one
    message = answer_of(result).message
    assert set(buttons(message)) == {"Older"}

    older = await world.bob.click(message, label="Older")
    page_two = older.response.content if older.response is not None else ""
    shown = world.env.backend.get_message(message.channel.id, message.id).content
    page_two = shown or page_two
    assert "page 2 of 2" in page_two and f"#{first.id}**" in page_two
    assert first.board_link() is not None and first.board_link() in page_two, "a link to the game's thread"


async def test_replay_sends_an_animation_then_steps_turn_by_turn(world: Harness) -> None:
    table = await finish_solo_game(world)
    playing = await world.alice.slash(world.channel, "game replay", table=table.id + 1)
    assert slash_answer(playing) == f"There is no table #{table.id + 1} in this server."

    result = await world.watcher.slash(world.thread(), "game replay")
    answer = answer_of(result)
    assert answer.ephemeral and "Replay of table" in answer.content
    gif = answer.attachments[0]
    assert gif.filename == "replay.gif"
    with Image.open(io.BytesIO(await gif.read())) as animation:
        frames = animation.n_frames
    assert frames > 2
    message = answer.message
    assert set(buttons(message)) == {"Turn by turn", "Final board"}

    async def click(label: str) -> Any:
        await world.watcher.click(current(), label=label)
        return current()

    def current() -> Any:
        stored = world.env.backend.get_message(message.channel.id, message.id)
        return records_message(world, stored)

    shown = await click("Turn by turn")
    assert f"turn 1 of {frames}" in shown.content and set(buttons(shown)) == {"Next", "Last"}
    assert shown.attachments[0].filename == f"table-{table.id}-turn-1.webp"
    shown = await click("Next")
    assert f"turn 2 of {frames}" in shown.content
    assert set(buttons(shown)) == {"First", "Previous", "Next", "Last"}
    shown = await click("Last")
    assert f"turn {frames} of {frames}: the final board" in shown.content
    assert set(buttons(shown)) == {"First", "Previous"}


async def test_a_replay_is_drawn_in_the_words_of_who_asked_for_it(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await finish_solo_game(world)
    client_locales(monkeypatch)[world.watcher.id] = "ko"
    drawn: list[str] = []
    real = renderers.render

    def spy(game: str, view: Any, viewer: int | None, names: Any, **kw: Any) -> Any:
        drawn.append(kw.get("language", "en"))
        return real(game, view, viewer, names, **kw)

    monkeypatch.setattr(renderers, "render", spy)
    answer = answer_of(await world.watcher.slash(world.thread(), "game replay"))
    assert answer.ephemeral and "Replay of table" not in answer.content, "the caption is Korean"
    assert len(drawn) > 2 and set(drawn) == {"ko"}, "and so is every frame"
    drawn.clear()
    stored = world.env.backend.get_message(answer.message.channel.id, answer.message.id)
    await world.watcher.click(records_message(world, stored), custom_id=ReplayRef(table.id, 1, 0).custom_id())
    assert drawn == ["ko"], "a step of the replay too"
    drawn.clear()
    await world.alice.slash(world.thread(), "game replay")
    assert drawn and set(drawn) == {"en"}, "an English client's replay stays English"


async def test_a_game_in_play_has_no_replay_yet(world: Harness) -> None:
    table = await start_two_humans(world)
    result = await world.alice.slash(world.thread(), "game replay")
    refused = slash_answer(result)
    assert refused == f"Table #{table.id} is still being played: its replay comes when the game ends."


def records_message(world: Harness, stored: Any) -> Any:
    """A backend message as the discord.Message tests click on."""
    from simcord.results import to_discord_message

    return to_discord_message(world.env, stored)
