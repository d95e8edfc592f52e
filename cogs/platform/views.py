"""Discord components from layout specs, and the persistent component class of each kind of custom_id."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar

import discord

from cogs.games.base import Tone
from cogs.platform import clicks, ids
from cogs.platform.layout import ButtonSpec, Row, SelectSpec
from engine.words import N_, words

log = logging.getLogger("meeple.cogs.views")

STYLES = {
    Tone.NORMAL: discord.ButtonStyle.secondary,
    Tone.MAIN: discord.ButtonStyle.primary,
    Tone.GOOD: discord.ButtonStyle.success,
    Tone.RISKY: discord.ButtonStyle.danger,
}

Handler = Callable[[discord.Interaction[Any], Any, Sequence[str]], Awaitable[None]]
"""What a click calls: the interaction, the reference its custom_id stands for, select values."""


class MeepleComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A Meeple button or select, persistent across restarts: one subclass per kind of reference.

    Each subclass matches only its kind's custom_ids (the reference's TEMPLATE), parses its own
    reference and hands it to the handler a cog set for it (`handle`).
    """

    REF: ClassVar[type[Any]]
    """The kind of reference this class's custom_ids stand for (cogs/platform/ids.py)."""

    def __init_subclass__(cls, *, ref: type[Any]) -> None:
        super().__init_subclass__(template=ref.TEMPLATE)
        cls.REF = ref

    def __init__(self, item: discord.ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)
        match = self.template.fullmatch(self.custom_id)
        if match is None:
            raise ValueError(f"{self.custom_id!r} is not a custom_id of {type(self).__name__}")
        self.ref: Any = ids.from_match(self.REF, match)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MeepleComponent:
        """Wrap the clicked component (its template matched, so its reference parses)."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to its kind's handler, journalled while it runs (cogs/platform/clicks.py)."""
        raw = interaction.data.get("values", []) if interaction.data else []
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        handler = _handlers.get(type(self))
        if handler is None:
            w = words(interaction.locale)
            await interaction.response.send_message(w.gettext(RESTARTING), ephemeral=True)
            return
        about_a_table = isinstance(self.ref, ids.TABLE_REFS)
        # Journalled before the handler acknowledges it: a restart in between still answers it.
        async with clicks.journalled(
            interaction, self.ref if about_a_table else None, values, other=not about_a_table
        ):
            await handler(interaction, self.ref, values)


RESTARTING = N_("Meeple is restarting; try again in a moment.")
"""The answer to a click that arrives while its cog is not loaded."""


class LobbyComponent(MeepleComponent, ref=ids.LobbyRef):
    """A lobby button or the host's selects."""


class ActComponent(MeepleComponent, ref=ids.ActRef):
    """A turn's option."""


class GroupComponent(MeepleComponent, ref=ids.GroupRef):
    """A group of a turn's options (the first of two steps)."""


class MainComponent(MeepleComponent, ref=ids.MainRef):
    """Back to the first step of a turn's choices, or another page of it."""


class UndoComponent(MeepleComponent, ref=ids.UndoRef):
    """Undo one's last move."""


class PickComponent(MeepleComponent, ref=ids.PickRef):
    """A select of a turn's options or groups."""


class MineComponent(MeepleComponent, ref=ids.MineRef):
    """ "My hand": what one's own seat sees."""


class ReplayComponent(MeepleComponent, ref=ids.ReplayRef):
    """A step of a finished game's replay."""


class HistoryComponent(MeepleComponent, ref=ids.HistoryRef):
    """A page of the server's finished games."""


class LogComponent(MeepleComponent, ref=ids.LogRef):
    """A page of a table's log."""


class VoteComponent(MeepleComponent, ref=ids.VoteRef):
    """A vote to hand an idle seat to a bot."""


class LeaderboardComponent(MeepleComponent, ref=ids.LeaderboardRef):
    """A page of a server's leaderboard of one game."""


COMPONENTS: tuple[type[MeepleComponent], ...] = tuple(MeepleComponent.__subclasses__())
"""Every kind of Meeple component, one per kind of reference; their templates never overlap."""
_handlers: dict[type[MeepleComponent], Handler] = {}


def handle(component: type[MeepleComponent], handler: Handler | None) -> None:
    """Send the clicks on `component`'s kind to `handler` (set by a cog as it loads; None as it unloads)."""
    if handler is None:
        _handlers.pop(component, None)
    else:
        _handlers[component] = handler


def component_for(custom_id: str) -> type[MeepleComponent] | None:
    """The kind of Meeple component a custom_id belongs to, or None (malformed, or not Meeple's)."""
    return next((c for c in COMPONENTS if c.__discord_ui_compiled_template__.fullmatch(custom_id)), None)


def handler_of(ref: Any) -> Handler | None:
    """The handler a cog set for references of this kind, or None."""
    return next((h for c, h in _handlers.items() if isinstance(ref, c.REF)), None)


def wrap(item: discord.ui.Item[Any], *, row: int | None = None) -> discord.ui.Item[Any]:
    """The component, persistent as its kind of MeepleComponent (a malformed id stays as it is)."""
    component = component_for(str(getattr(item, "custom_id", "") or ""))
    if component is None:
        item.row = row
        return item
    return component(item, row=row)


NOT_ON_MESSAGE = N_("That button is not on this message, so it changes nothing here.")
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
    """A persistent view holding the rows, each component wrapped as its kind of MeepleComponent."""
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        if isinstance(row, SelectSpec):
            view.add_item(wrap(select(row), row=number))
        else:
            for spec in row:
                view.add_item(wrap(button(spec), row=number))
    return view
