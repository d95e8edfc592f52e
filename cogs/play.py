"""The games cog: /play, /game show, /game abandon, /rules, and every lobby and turn click."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games import UIS, get_ui
from cogs.games.base import GameUI
from cogs.platform import board_messages, gamelog, ids, pacing, records, views
from cogs.platform.answers import (
    MALFORMED,
    OOPS,
    WATCHER,
    BadButton,
    answered,
    current_table,
    deferred,
    stale_click_answer,
)
from cogs.platform.ids import (
    ActRef,
    GroupRef,
    HistoryRef,
    LobbyRef,
    LogRef,
    MainRef,
    MineRef,
    PickRef,
    Ref,
    ReplayRef,
    UndoRef,
    VoteRef,
)
from cogs.platform.layout import group_rows, groups_of
from cogs.platform.lobby import lobby_click, play_command
from cogs.platform.presenter import Presenter
from cogs.platform.text import clip_content, names_of, shown_names
from cogs.platform.votes import vote_click
from tables.errors import GameNotRunning, NotSeated, NotYourTurn, StaleVersion, TableError
from tables.models import Table, TableStatus, Update
from tables.service import TableService

log = logging.getLogger("meeple.cogs")

UNKNOWN_COMMAND = (
    "I do not know that command any more: your Discord app shows an old list."
    " Restart the app (or press Ctrl+R) to get the current commands."
)
PLAYED_NOT_SHOWN = (
    "Your move was played and saved. Discord did not take the new board just now;"
    " I keep trying, and it appears here by itself."
)


def check_turn(
    table: Table, user_id: int, version: int, seat: int, still_offered: bool | None = None
) -> None:
    """Refuse a turn click from anyone but the seat's player, or on an outdated board.

    `still_offered`: the service's answer for an option clicked on an older board
    (TableService.option_at); by default, whether the seat's decision is unchanged since.
    """
    if table.status is not TableStatus.PLAYING:
        raise GameNotRunning("This game is over." if table.status is TableStatus.FINISHED else None)
    if table.seat_of(user_id) is None:
        raise NotSeated(WATCHER)
    # The service's rule: a board stays good for a seat whose decision has not changed since.
    if not (table.shows_current_prompt(seat, version) if still_offered is None else still_offered):
        raise StaleVersion()
    if not 0 <= seat < len(table.seats) or table.seats[seat].user_id != user_id or seat not in table.to_move:
        raise NotYourTurn()


def reaches_a_component(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py will hand this click to a MeepleComponent.

    It does only when the clicked custom_id is still on the message as Discord sent it with
    the click (discord.py 2.7 ViewStore.schedule_dynamic_item_call); a click on a component
    an edit has just replaced is otherwise dropped unanswered ("interaction failed").
    """
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    message = interaction.message
    if message is None or views.MeepleComponent.__discord_ui_compiled_template__.fullmatch(custom_id) is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def rules_command(ui: GameUI) -> app_commands.Command[Any, ..., None]:
    """`/rules <game>`: the game's rules summary, shown to the asker only."""

    async def show_rules(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title=f"{ui.emoji} {ui.title}", description=ui.rules_text)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    return app_commands.Command(
        name=ui.game_id, description=f"How to play {ui.title}, in short", callback=show_rules
    )


class Games(commands.Cog):
    """Lobbies, turns and game commands for every game that has a mapping module."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: TableService = bot.tables
        self.presenter = Presenter(bot, self.service)
        self.play = app_commands.Group(
            name="play", description="Open a game table in this channel", guild_only=True
        )
        self.rules = app_commands.Group(name="rules", description="A short summary of a game's rules")
        for ui in UIS.values():
            self.play.add_command(play_command(ui))
            self.rules.add_command(rules_command(ui))

    async def cog_load(self) -> None:
        """Register the commands, the persistent component handler and the table listener."""
        self.bot.tree.add_command(self.play)
        self.bot.tree.add_command(self.rules)
        self.bot.add_dynamic_items(views.MeepleComponent)
        views.set_handler(self.on_component)
        self.bot.tree.error(self.on_command_error)
        self.service.subscribe(self.presenter.listener)
        self.presenter.start_drawing()

        if self.bot.is_ready():
            self.presenter.keep_boards()

    async def on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Answer every failing or unknown slash command privately, never with silence."""
        if isinstance(error, app_commands.CommandNotFound):
            # A client whose command list is older than ours (a renamed or removed command).
            text = UNKNOWN_COMMAND
        elif isinstance(error, app_commands.CheckFailure):
            text = "You cannot use that command here."
        else:
            name = getattr(interaction.command, "qualified_name", "?")
            log.error("command %s failed", name, exc_info=error)
            text = OOPS
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer a failed command (%s)", type(error).__name__)

    async def cog_unload(self) -> None:
        """Undo what cog_load did (the service has no unsubscribe; its listener goes quiet)."""
        self.bot.tree.remove_command(self.play.name)
        self.bot.tree.remove_command(self.rules.name)
        self.bot.remove_dynamic_items(views.MeepleComponent)
        views.set_handler(None)
        await self.presenter.stop()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Bring every board that fell behind (a crash, a Discord outage) up to date, then keep them so."""
        self.presenter.keep_boards()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the clicks no component will: on a replaced component, or one not of this bot.

        A turn click on a board an edit replaced meanwhile (another seat moved) is played as
        on the board the player saw: the service judges whether it still stands.
        """
        if interaction.type is not discord.InteractionType.component or reaches_a_component(interaction):
            return
        data: Any = interaction.data or {}
        ref = ids.parse(str(data.get("custom_id", "")))
        if isinstance(ref, (ActRef, PickRef, GroupRef, MainRef)):
            raw = data.get("values", [])
            await self.on_component(interaction, ref, [str(v) for v in raw] if isinstance(raw, list) else [])
            return
        table_id = ref.table if ref is not None else None
        table = await current_table(self.service, table_id, interaction.channel_id)
        link = await board_messages.link(self.service, table) if table is not None else None
        try:
            await interaction.response.send_message(
                stale_click_answer(table, interaction.user.id, link), ephemeral=True
            )
        except (discord.HTTPException, discord.InteractionResponded):
            log.info("could not answer a click on an unknown component")

    # -- slash commands ------------------------------------------------------

    game = app_commands.Group(name="game", description="The game played in this thread", guild_only=True)

    @game.command(name="show", description="Post the current board of this game again")
    @answered("/game show")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Repost the board (new message, no ping)."""
        table = await self.table_here(interaction)
        await self.presenter.repost(table)
        link = await board_messages.link(self.service, table)
        again = f"Here is the board again: {link}" if link is not None else "Here is the board again."
        await interaction.followup.send(again, ephemeral=True)

    @game.command(name="abandon", description="End this game without a result (host or server managers)")
    @answered("/game abandon")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """Abandon the game played here."""
        table = await self.table_here(interaction)
        manager = bool(interaction.permissions.manage_guild)
        update = await self.service.abandon(table.id, interaction.user.id, manager)
        await self.presenter.show(update)
        await interaction.followup.send(f"Table #{table.id} was abandoned.", ephemeral=True)

    @game.command(name="leave", description="Leave this game: a bot plays your seat from now on")
    @answered("/game leave")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Hand one's seat to a bot."""
        table = await self.table_here(interaction)
        table = await self.service.leave(table.id, interaction.user.id)
        await self.presenter.flush(table.id)
        await interaction.followup.send(
            f"You left table #{table.id}; a bot plays your seat. `/game rejoin` takes it back.",
            ephemeral=True,
        )

    @game.command(name="rejoin", description="Take your seat back from the bot playing it")
    @answered("/game rejoin")
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """Take one's seat back at once: the bot makes no further move for it."""
        table = await self.table_here(interaction)
        table = await self.service.reclaim(table.id, interaction.user.id)
        await self.presenter.flush(table.id)
        link = await board_messages.link(self.service, table)
        board = f" The board: {link}" if link else ""
        answer = f"Your seat at table #{table.id} is yours again.{board}"
        await interaction.followup.send(answer, ephemeral=True)

    @game.command(name="record", description="The game's record as a JSON file, to check its dice")
    @app_commands.describe(table="The table's number (default: the game of this thread)")
    @answered("/game record")
    async def record(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        """Send the record of a game, privately; its seed only once the game is over."""
        found = await self.table_named(interaction, table)
        await records.send_record(interaction, self.service, found)

    @game.command(name="history", description="The finished games of this server, newest first")
    @answered("/game history")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        """The first page of the server's finished games, privately."""
        await records.show_history(interaction, self.service, 0, edit=False)

    @game.command(name="replay", description="Watch a finished game again, then step through it turn by turn")
    @app_commands.describe(table="The table's number (default: the game of this thread)")
    @answered("/game replay")
    async def replay(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        """Send a finished game's animated replay with step buttons, privately."""
        found = await self.table_named(interaction, table)
        await records.send_replay(interaction, self.service, found, self.presenter.drawing)

    async def table_named(self, interaction: discord.Interaction[Any], table_id: int | None) -> Table:
        """The table with that number in this server, or else the game of this thread (any status)."""
        if table_id is not None:
            return await records.table_in_guild(self.service, table_id, interaction.guild_id)
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            found = await self.service.table_for_thread(channel.id)
            if found is not None and found.seed is not None:
                return found
        return await self.table_here(interaction)

    @game.command(name="log", description="This game's log in words, shown only to you")
    @answered("/game log")
    async def game_log(self, interaction: discord.Interaction[Any]) -> None:
        """The table's log, paged, hiding what the asker's seat may not see (cogs/platform/gamelog.py)."""
        table = await self.table_here(interaction)
        page = await gamelog.log_page(self.service, table, interaction.user.id)
        if page["view"] is None:
            del page["view"]
        await interaction.followup.send(**page, ephemeral=True)

    @game.command(name="info", description="This table: game, options, pace, seats and whose move since when")
    @answered("/game info")
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        """Describe the table played here, privately."""
        table = await self.table_here(interaction)
        link = await board_messages.link(self.service, table)
        await interaction.followup.send(pacing.info_text(table, self.service, link), ephemeral=True)

    async def table_here(self, interaction: discord.Interaction[Any]) -> Table:
        """The game of this thread, or the only game played from this channel."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            table = await self.service.table_for_thread(channel.id)
            if table is not None:
                return table
        if channel is None:
            raise TableError("No game is played here.")
        tables = await self.service.tables_in_channel(channel.id, (TableStatus.PLAYING,))
        if not tables:
            raise TableError("No game is being played here.")
        if len(tables) > 1:
            raise TableError(
                "Several games are played from this channel: use the command in the game's thread."
            )
        return tables[0]

    # -- components ----------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[Any], ref: Ref | None, values: Sequence[str]
    ) -> None:
        """Every Meeple button and select: acknowledge at once, then act, answering errors privately."""
        if ref is None:
            await interaction.response.send_message(MALFORMED, ephemeral=True)
            return
        async with deferred(interaction, f"component {ref}", self.service, ref.table, private=False):
            if isinstance(ref, PickRef):
                picked = ids.parse_value(ref.table, ref.version, values[0]) if len(values) == 1 else None
                if picked is None:
                    raise BadButton()
                ref = picked
            click = CLICKS.get(type(ref))
            if click is not None:
                await click(self, interaction, ref, values)

    async def act(self, interaction: discord.Interaction[Any], ref: ActRef) -> None:
        """Play the chosen option."""
        table = await self.service.get(ref.table)
        # On an older board, the option the player saw then, if it still stands (another
        # seat's move in between left it offered).
        action = await self.service.option_at(ref.table, ref.version, ref.seat, ref.index)
        unchanged = table.shows_current_prompt(ref.seat, ref.version)
        check_turn(table, interaction.user.id, ref.version, ref.seat, unchanged or action is not None)
        if action is None:
            raise BadButton()
        update = await self.service.act(ref.table, interaction.user.id, ref.version, action)
        await self.show_played(update, interaction)

    async def open_group(self, interaction: discord.Interaction[Any], ref: GroupRef) -> None:
        """Second step: show the options of one group on the board message."""
        table = await self.service.get(ref.table)
        check_turn(table, interaction.user.id, ref.version, ref.seat)
        prompt = table.prompt_for(ref.seat)
        if prompt is None:
            raise NotYourTurn()
        ui, view = get_ui(table.game), table.view(None)
        groups = groups_of(ui, view, prompt, names_of(table))
        if ref.group >= len(groups):
            raise BadButton()
        group = groups[ref.group]
        rows = group_rows(table.id, table.version, group, ref.page)
        content = self.presenter.caption(table, ui.group_question(view, prompt, group.head))
        await interaction.edit_original_response(content=content, view=views.build_view(rows))

    async def main_page(self, interaction: discord.Interaction[Any], ref: MainRef) -> None:
        """Back to the first step (or another page of it)."""
        table = await self.service.get(ref.table)
        seat = table.seat_of(interaction.user.id)
        check_turn(table, interaction.user.id, ref.version, seat if seat is not None else -1)
        board = self.presenter.first_step(table, ref.page)
        await interaction.edit_original_response(content=board.content, view=board.view())

    async def undo(self, interaction: discord.Interaction[Any], ref: UndoRef) -> None:
        """Take back the player's own last move."""
        table = await self.service.get(ref.table)
        if table.status is not TableStatus.PLAYING:
            raise GameNotRunning()
        if table.seat_of(interaction.user.id) != ref.seat:
            raise NotSeated("Only that player can undo their own move.")
        if ref.version != table.version:
            raise StaleVersion()
        update = await self.service.undo(ref.table, interaction.user.id, ref.version)
        await self.show_played(update, interaction)

    async def show_mine(self, interaction: discord.Interaction[Any], ref: MineRef) -> None:
        """Show a seated player what their seat sees (hidden information), privately."""
        table = await self.service.get(ref.table)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated(WATCHER)
        if table.status is not TableStatus.PLAYING:
            raise GameNotRunning()
        ui = get_ui(table.game)
        png = await self.presenter.draw(table, seat)
        words = ui.private_text(table.view(seat), seat, shown_names(table))
        content = f"{ui.emoji} What you see at table #{table.id}" + (f"\n{words}" if words else "")
        kwargs: dict[str, Any] = {"content": clip_content(content), "ephemeral": True}
        if png is not None:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="my-view.png")
        await interaction.followup.send(**kwargs)

    async def show_played(self, update: Update, interaction: discord.Interaction[Any]) -> None:
        """Show an accepted move; if Discord fails us now, say the move stands (it is saved)."""
        try:
            await self.presenter.show(update, interaction)
        except Exception:
            log.exception("table %s: the move was saved but the board could not be updated", update.table.id)
            await interaction.followup.send(PLAYED_NOT_SHOWN, ephemeral=True)


Click = Callable[[Games, discord.Interaction[Any], Any, Sequence[str]], Awaitable[None]]
"""What a click on one kind of component does: (cog, interaction, reference, select values)."""

CLICKS: dict[type[Ref], Click] = {
    LobbyRef: lambda cog, interaction, ref, values: lobby_click(interaction, ref, values),
    ActRef: lambda cog, interaction, ref, values: cog.act(interaction, ref),
    GroupRef: lambda cog, interaction, ref, values: cog.open_group(interaction, ref),
    MainRef: lambda cog, interaction, ref, values: cog.main_page(interaction, ref),
    UndoRef: lambda cog, interaction, ref, values: cog.undo(interaction, ref),
    MineRef: lambda cog, interaction, ref, values: cog.show_mine(interaction, ref),
    ReplayRef: lambda cog, interaction, ref, values: records.step(
        interaction, cog.service, cog.presenter.drawing, ref
    ),
    HistoryRef: lambda cog, interaction, ref, values: records.show_history(
        interaction, cog.service, ref.page, edit=True
    ),
    LogRef: lambda cog, interaction, ref, values: gamelog.log_click(interaction, ref),
    VoteRef: lambda cog, interaction, ref, values: vote_click(interaction, ref),
}
"""The handler of each kind of component reference (a select of choices, PickRef, is read as
the ActRef or GroupRef it carries first)."""


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Games(bot))
