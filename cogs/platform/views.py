"""Discord components from layout specs, and the one persistent handler behind all of them."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from cogs.games.base import Tone
from cogs.platform import clicks
from cogs.platform.ids import PREFIX, Ref, parse
from cogs.platform.layout import ButtonSpec, Row, SelectSpec

log = logging.getLogger("meeple.cogs.views")

STYLES = {
    Tone.NORMAL: discord.ButtonStyle.secondary,
    Tone.MAIN: discord.ButtonStyle.primary,
    Tone.GOOD: discord.ButtonStyle.success,
    Tone.RISKY: discord.ButtonStyle.danger,
}

Handler = Callable[[discord.Interaction[Any], "Ref | None", Sequence[str]], Awaitable[None]]
"""What a click calls: the interaction, the parsed reference (None if malformed), select values."""

_handler: dict[str, Handler] = {}

Route = Callable[[discord.Interaction[Any], str, Sequence[str]], Awaitable[None]]
"""What a click of another kind of component calls: the interaction, its custom_id, select values."""

_routes: dict[str, Route] = {}


def set_route(kind: str, route: Route | None) -> None:
    """Send the clicks on `mp:<kind>:...` components (not about a table) to `route`."""
    if route is None:
        _routes.pop(kind, None)
    else:
        _routes[kind] = route


def set_handler(handler: Handler | None) -> None:
    """Route every Meeple component click to `handler` (the cog sets it when it loads)."""
    if handler is None:
        _handler.pop("handler", None)
    else:
        _handler["handler"] = handler


class MeepleComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]], template=re.compile(re.escape(PREFIX) + r".*", re.S)
):
    """Every Meeple button and select, persistent across restarts: the custom_id says it all."""

    def __init__(self, item: discord.ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MeepleComponent:
        """Wrap the clicked component, whatever its custom_id holds (the callback checks it)."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the cog's handler."""
        custom_id = str(getattr(self.item, "custom_id", "") or "")
        raw = interaction.data.get("values", []) if interaction.data else []
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        route = _routes.get(custom_id[len(PREFIX) :].partition(":")[0])
        if route is not None:
            async with clicks.journalled(interaction, None, values, other=True):
                await route(interaction, custom_id, values)
            return
        handler = _handler.get("handler")
        if handler is None:
            await interaction.response.send_message(
                "Meeple is restarting; try again in a moment.", ephemeral=True
            )
            return
        ref = parse(custom_id)
        # Journalled before the handler acknowledges it: a restart in between still answers it.
        async with clicks.journalled(interaction, ref, values):
            await handler(interaction, ref, values)


NOT_ON_MESSAGE = "That button is not on this message, so it changes nothing here."
"""The answer to a click whose component is not on the message it would edit."""


def custom_ids(message: discord.Message | discord.InteractionMessage) -> set[str]:
    """The custom_ids of a message's buttons and selects."""
    found: set[str] = set()
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None)
            if custom_id:
                found.add(str(custom_id))
    return found


async def on_its_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether the clicked component is on the message a deferred click would edit, as Discord holds it.

    The message sent with a click can say anything its sender wants; what an edit of the
    original response changes is the message Discord holds. So the handlers that edit that
    message whatever it is (vote counts, history, replay and leaderboard pages) look it up
    first (one request; only those clicks pay it).
    """
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    message = interaction.message
    if not custom_id or message is None or custom_id not in custom_ids(message):
        return False
    try:
        held = await interaction.original_response()
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        # Discord failing is not the click's fault: go by the message the click came with.
        log.info("could not look up the message of a click (%s); trusting the click", exc.status)
        return True
    return custom_id in custom_ids(held)


def button(spec: ButtonSpec) -> discord.ui.Button[Any]:
    """A discord.py button for a spec."""
    return discord.ui.Button(
        label=spec.label, custom_id=spec.custom_id, style=STYLES[spec.tone], emoji=spec.emoji
    )


def select(spec: SelectSpec) -> discord.ui.Select[Any]:
    """A discord.py select menu for a spec."""
    return discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder,
        options=[discord.SelectOption(label=o.label, value=o.value, emoji=o.emoji) for o in spec.options],
    )


def build_view(rows: Sequence[Row]) -> discord.ui.View:
    """A persistent view holding the rows, each component wrapped in MeepleComponent."""
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        if isinstance(row, SelectSpec):
            view.add_item(MeepleComponent(select(row), row=number))
        else:
            for spec in row:
                view.add_item(MeepleComponent(button(spec), row=number))
    return view
