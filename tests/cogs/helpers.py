"""Reading boards and playing moves through the Discord layer, as a player would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord.interactions

from cogs.games import get_ui
from cogs.platform import board as board_module
from cogs.platform.ids import ActRef, GroupRef, PickRef, parse, parse_value
from cogs.platform.layout import groups_of
from cogs.platform.text import names_of
from engine.words import words
from tests.cogs.conftest import Harness


@dataclass(frozen=True)
class FixedImage:
    """A drawing job that gives fixed bytes (the `world` fixture draws in threads: never pickled)."""

    data: bytes

    def draw(self) -> bytes:
        """The fixed bytes."""
        return self.data


def draw_boards_as(monkeypatch: pytest.MonkeyPatch, image: Callable[[Any, int | None], bytes]) -> None:
    """Boards (in the `world` fixture) carry `image(table, seat)` instead of a drawing."""
    monkeypatch.setattr(board_module, "board_job", lambda table, seat=None: FixedImage(image(table, seat)))


def components(message: discord.Message) -> list[Any]:
    """Every button and select of a message."""
    return [child for row in message.components for child in getattr(row, "children", [])]


def buttons(message: discord.Message) -> dict[str, str]:
    """Button label -> custom_id."""
    return {c.label: c.custom_id for c in components(message) if isinstance(c, discord.Button) and c.label}


def bot_select(message: discord.Message) -> str:
    """The custom_id of a lobby's Add bot select."""
    return next(c.custom_id for c in components(message) if isinstance(c, discord.SelectMenu))


async def add_bot(user: Any, lobby: discord.Message, level: str = "normal") -> Any:
    """Add a bot at `level` through the lobby's Add bot select."""
    return await user.select(lobby, [level], custom_id=bot_select(lobby))


def refs(message: discord.Message) -> list[tuple[Any, str, str | None]]:
    """(reference, custom_id, select value or None) for every clickable choice of a message."""
    found: list[tuple[Any, str, str | None]] = []
    for component in components(message):
        ref = parse(component.custom_id or "")
        if isinstance(ref, PickRef):
            for option in component.options:
                found.append(
                    (parse_value(ref.table, ref.version, option.value), component.custom_id, option.value)
                )
        else:
            found.append((ref, component.custom_id, None))
    return found


def fresh(world: Harness, message: discord.Message) -> discord.Message:
    """The message as Discord holds it now."""
    thread = next((t for t in world.channel.threads if t.id == message.channel.id), None) or world.thread()
    for candidate in reversed(thread.history()):
        if candidate.id == message.id:
            return candidate
    raise AssertionError(f"message {message.id} is gone")


async def press(
    world: Harness, user: Any, message: discord.Message, custom_id: str, value: str | None
) -> Any:
    """Click a button, or choose a value in a select; a legitimate choice gets no error answer."""
    if value is None:
        result = await user.click(message, custom_id=custom_id)
    else:
        result = await user.select(message, [value], custom_id=custom_id)
    assert result.acknowledged and not result.followups, [f.content for f in result.followups]
    return result


async def play_option(world: Harness, user: Any, message: discord.Message, seat: int, index: int) -> Any:
    """Play option `index` of `seat`'s prompt through the board's buttons: open its group first if needed."""
    for _ in range(8):
        message = fresh(world, message)
        choices = refs(message)
        for ref, custom_id, value in choices:
            if isinstance(ref, ActRef) and ref.seat == seat and ref.index == index:
                return await press(world, user, message, custom_id, value)
        table_id = next(ref.table for ref, _, _ in choices if ref is not None)
        table = await world.bot.tables.get(table_id)
        prompt = table.prompt_for(seat)
        assert prompt is not None
        groups = groups_of(get_ui(table.game), table.view(None), prompt, names_of(table))
        wanted = next(g.number for g in groups if any(i == index for i, _ in g.members))
        target = GroupRef(table.id, table.version, seat, wanted)
        step = next(((cid, value) for ref, cid, value in choices if ref == target), None)
        if step is None:
            # On another page of the first step or of the group: follow the "More" arrow (in the
            # table's language).
            more = buttons(message).get(words(table.language).gettext("More"))
            assert more is not None, f"no way to option {index} on {choices}"
            step = (more, None)
        await press(world, user, message, *step)
    raise AssertionError(f"option {index} of seat {seat} is not reachable from the board")


def pinged(world: Harness, message: discord.Message) -> set[int]:
    """The users a message notifies: mentioned in it and allowed by its mention policy."""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    return {user.id for user in message.mentions if stored.allowed_mentions.allows_user(user.id)}


class WithBoard:
    """A table with its row of the board ledger: the table's fields, and the board's under their old names."""

    def __init__(self, table: Any, board: Any) -> None:
        self.table = table
        self.board = board

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    @property
    def lobby_message_id(self) -> int | None:
        return self.board.lobby_message_id  # type: ignore[no-any-return]

    @property
    def board_message_id(self) -> int | None:
        return self.board.message_id  # type: ignore[no-any-return]

    @property
    def board_version(self) -> int | None:
        return self.board.version  # type: ignore[no-any-return]

    @property
    def board_movers(self) -> tuple[int, ...]:
        return self.board.movers  # type: ignore[no-any-return]

    @property
    def board_posting(self) -> int | None:
        return self.board.posting  # type: ignore[no-any-return]

    @property
    def board_retired(self) -> tuple[int, ...]:
        return self.board.retired  # type: ignore[no-any-return]

    @property
    def board_behind(self) -> bool:
        return self.table.thread_id is not None and self.board.behind(self.table.version)  # type: ignore[no-any-return]

    def board_link(self) -> str | None:
        from cogs.platform.board_messages import board_link

        return board_link(self.table, self.board)


async def with_board(world: Harness, table: Any) -> WithBoard:
    """A table read with its row of the board ledger."""
    return WithBoard(table, await world.bot.tables.store.board(table.id))


async def table_of(world: Harness) -> Any:
    """The only table of the test channel (any status), with its row of the board ledger."""
    from tables.models import TableStatus

    tables = await world.bot.tables.tables_in_channel(world.channel.id, tuple(TableStatus))
    assert len(tables) == 1
    return await with_board(world, tables[0])


def user_of(world: Harness, user_id: int | None) -> Any:
    """The simulated member with that id."""
    return next(u for u in (world.alice, world.bob, world.carol, world.watcher) if u.id == user_id)


async def play_greedily(world: Harness, *, moves: int) -> int:
    """Let the humans to move play `moves` greedy moves through the buttons; return how many were played."""
    played = 0
    while played < moves:
        await world.idle()
        table = await table_of(world)
        humans = [p for p in table.prompts if not table.is_bot(p.seat)]
        if not humans:
            break
        prompt = humans[0]
        action = table.rules.bot_action(table.state, prompt, "greedy")
        message = world.board()
        assert message.id == table.board_message_id
        user = user_of(world, table.seats[prompt.seat].user_id)
        await play_option(world, user, message, prompt.seat, prompt.options.index(action))
        played += 1
    await world.idle()
    return played


def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each member's interactions carry the client locale the returned dict holds for them (else en-US)."""
    locales: dict[int, str] = {}
    real = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = real(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales
