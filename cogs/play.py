"""The games cog: /play, /game show, /game abandon, /rules, and every lobby and turn click."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
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
    BadButton,
    answered,
    clicked,
    current_table,
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
    ReplayRef,
    UndoRef,
    VoteRef,
)
from cogs.platform.layout import group_rows, groups_of
from cogs.platform.lobby import lobby_click, play_command
from cogs.platform.presenter import Presenter
from cogs.platform.text import clip_content, names_of, reader, shown_names, spoken
from cogs.platform.votes import vote_click
from engine.words import N_
from renderers.image_file import file_name
from tables.errors import GameNotRunning, NotSeated, TableError
from tables.models import Table, TableStatus, Update
from tables.service import TableService

log = logging.getLogger("meeple.cogs")

UNKNOWN_COMMAND = N_(
    "I do not know that command any more: your Discord app shows an old list."
    " Restart the app (or press Ctrl+R) to get the current commands."
)
PLAYED_NOT_SHOWN = N_(
    "Your move was played and saved. Discord did not take the new board just now;"
    " I keep trying, and it appears here by itself."
)
NOT_HERE = N_("You cannot use that command here.")


def reaches_a_component(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py will hand this click to a MeepleComponent (views.COMPONENTS).

    It does only when the clicked custom_id is still on the message as Discord sent it with
    the click (discord.py 2.7 ViewStore.schedule_dynamic_item_call); a click on a component
    an edit has just replaced is otherwise dropped unanswered ("interaction failed").
    """
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    message = interaction.message
    if message is None or views.component_for(custom_id) is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def rules_command(ui: GameUI) -> app_commands.Command[Any, ..., None]:
    """`/rules <game>`: the game's rules summary, shown to the asker only."""

    async def show_rules(interaction: discord.Interaction[Any]) -> None:
        w = reader(interaction)
        embed = discord.Embed(title=f"{ui.emoji} {w.gettext(ui.title)}", description=w.gettext(ui.rules_text))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # The tree's strings are looked up in the catalog as written (CatalogTranslator).
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
        for component, handler in self.clicks():
            views.handle(component, handler)
        self.bot.add_dynamic_items(*(component for component, _ in self.clicks()))
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
            text = NOT_HERE
        else:
            name = getattr(interaction.command, "qualified_name", "?")
            log.error("command %s failed", name, exc_info=error)
            text = OOPS
        text = reader(interaction).gettext(text)
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
        for component, _ in self.clicks():
            views.handle(component, None)
        self.bot.remove_dynamic_items(*(component for component, _ in self.clicks()))
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
        custom_id = str(data.get("custom_id", ""))
        ref = ids.parse(custom_id)
        w = reader(interaction)
        handler = views.handler_of(ref)
        if isinstance(ref, (ActRef, PickRef, GroupRef, MainRef)) and handler is not None:
            raw = data.get("values", [])
            await handler(interaction, ref, [str(v) for v in raw] if isinstance(raw, list) else [])
            return
        if custom_id.startswith(ids.PREFIX) and views.component_for(custom_id) is None:
            answer = w.gettext(MALFORMED)
        else:
            table_id = ref.table if ref is not None else None
            table = await current_table(self.service, table_id, interaction.channel_id)
            link = await board_messages.link(self.service, table) if table is not None else None
            answer = stale_click_answer(table, interaction.user.id, w, link)
        try:
            await interaction.response.send_message(answer, ephemeral=True)
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
        w = reader(interaction)
        if link is not None:
            again = w.gettext("Here is the board again: {link}", link=link)
        else:
            again = w.gettext("Here is the board again.")
        await interaction.followup.send(again, ephemeral=True)

    @game.command(name="abandon", description="End this game without a result (host or server managers)")
    @answered("/game abandon")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """Abandon the game played here."""
        table = await self.table_here(interaction)
        manager = bool(interaction.permissions.manage_guild)
        update = await self.service.abandon(table.id, interaction.user.id, manager)
        await self.presenter.show(update)
        w = reader(interaction)
        await interaction.followup.send(
            w.gettext("Table #{table} was abandoned.", table=table.id), ephemeral=True
        )

    @game.command(name="leave", description="Leave this game: a bot plays your seat from now on")
    @answered("/game leave")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Hand one's seat to a bot."""
        table = await self.table_here(interaction)
        table = await self.service.leave(table.id, interaction.user.id)
        await self.presenter.flush(table.id)
        w = reader(interaction)
        left = w.gettext(
            "You left table #{table}; a bot plays your seat. `/game rejoin` takes it back.", table=table.id
        )
        await interaction.followup.send(left, ephemeral=True)

    @game.command(name="rejoin", description="Take your seat back from the bot playing it")
    @answered("/game rejoin")
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """Take one's seat back at once: the bot makes no further move for it."""
        table = await self.table_here(interaction)
        table = await self.service.reclaim(table.id, interaction.user.id)
        await self.presenter.flush(table.id)
        link = await board_messages.link(self.service, table)
        w = reader(interaction)
        if link:
            answer = w.gettext(
                "Your seat at table #{table} is yours again. The board: {link}", table=table.id, link=link
            )
        else:
            answer = w.gettext("Your seat at table #{table} is yours again.", table=table.id)
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
        page = await gamelog.log_page(self.service, table, interaction.user.id, w=reader(interaction))
        if page["view"] is None:
            del page["view"]
        await interaction.followup.send(**page, ephemeral=True)

    @game.command(name="info", description="This table: game, options, pace, seats and whose move since when")
    @answered("/game info")
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        """Describe the table played here, privately."""
        table = await self.table_here(interaction)
        link = await board_messages.link(self.service, table)
        await interaction.followup.send(
            pacing.info_text(table, self.service, reader(interaction), link), ephemeral=True
        )

    async def table_here(self, interaction: discord.Interaction[Any]) -> Table:
        """The game of this thread, or the only game played from this channel."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            table = await self.service.table_for_thread(channel.id)
            if table is not None:
                return table
        if channel is None:
            raise TableError(N_("No game is played here."))
        tables = await self.service.tables_in_channel(channel.id, (TableStatus.PLAYING,))
        if not tables:
            raise TableError(N_("No game is being played here."))
        if len(tables) > 1:
            raise TableError(
                N_("Several games are played from this channel: use the command in the game's thread.")
            )
        return tables[0]

    # -- components ----------------------------------------------------------

    def clicks(self) -> tuple[tuple[type[views.MeepleComponent], views.Handler], ...]:
        """The handler of each kind of component this cog answers (the leaderboard's is /standings')."""
        return (
            (views.LobbyComponent, self.lobby),
            (views.ActComponent, self.act),
            (views.GroupComponent, self.group),
            (views.MainComponent, self.main_page),
            (views.UndoComponent, self.undo),
            (views.PickComponent, self.pick),
            (views.MineComponent, self.show_mine),
            (views.ReplayComponent, self.replay_step),
            (views.HistoryComponent, self.history_page),
            (views.LogComponent, self.log_page),
            (views.VoteComponent, self.vote),
        )

    @clicked
    async def lobby(
        self, interaction: discord.Interaction[Any], ref: LobbyRef, values: Sequence[str]
    ) -> None:
        """A lobby button, or one of the host's selects."""
        await lobby_click(interaction, ref, values)

    @clicked
    async def act(self, interaction: discord.Interaction[Any], ref: ActRef, values: Sequence[str]) -> None:
        """Play the chosen option."""
        await self.play_option(interaction, ref)

    @clicked
    async def group(
        self, interaction: discord.Interaction[Any], ref: GroupRef, values: Sequence[str]
    ) -> None:
        """Open a group of options."""
        await self.open_group(interaction, ref)

    @clicked
    async def pick(self, interaction: discord.Interaction[Any], ref: PickRef, values: Sequence[str]) -> None:
        """A select of options or groups: the one chosen, as if its button was pressed."""
        picked = ids.parse_value(ref.table, ref.version, values[0]) if len(values) == 1 else None
        if isinstance(picked, ActRef):
            await self.play_option(interaction, picked)
        elif isinstance(picked, GroupRef):
            await self.open_group(interaction, picked)
        else:
            raise BadButton()

    async def play_option(self, interaction: discord.Interaction[Any], ref: ActRef) -> None:
        """Play the chosen option: the service checks it once and words nothing; its refusals are
        worded by `deferred` (an older board plays the option the player saw, if it still stands)."""
        update = await self.service.choose(ref.table, interaction.user.id, ref.version, ref.seat, ref.index)
        await self.show_played(update, interaction)

    async def open_group(self, interaction: discord.Interaction[Any], ref: GroupRef) -> None:
        """Second step: show the options of one group on the board message."""
        table, prompt = await self.service.decision(ref.table, interaction.user.id, ref.version, ref.seat)
        ui, view = get_ui(table.game), table.view(None)
        # The board message is public: its second step speaks the table's language.
        w = spoken(table)
        groups = groups_of(ui, view, prompt, names_of(table), w)
        if ref.group >= len(groups):
            raise BadButton()
        group = groups[ref.group]
        rows = group_rows(table.id, table.version, group, ref.page, w)
        content = self.presenter.caption(table, ui.group_question(view, prompt, group.head, words=w))
        await interaction.edit_original_response(content=content, view=views.build_view(rows))

    @clicked
    async def main_page(
        self, interaction: discord.Interaction[Any], ref: MainRef, values: Sequence[str]
    ) -> None:
        """Back to the first step (or another page of it)."""
        table, _ = await self.service.decision(ref.table, interaction.user.id, ref.version)
        board = self.presenter.first_step(table, ref.page)
        await interaction.edit_original_response(content=board.content, view=board.view())

    @clicked
    async def undo(self, interaction: discord.Interaction[Any], ref: UndoRef, values: Sequence[str]) -> None:
        """Take back the player's own last move (the service checks who and when)."""
        update = await self.service.undo(ref.table, interaction.user.id, ref.version, ref.seat)
        await self.show_played(update, interaction)

    @clicked
    async def show_mine(
        self, interaction: discord.Interaction[Any], ref: MineRef, values: Sequence[str]
    ) -> None:
        """Show a seated player what their seat sees (hidden information), privately."""
        table = await self.service.get(ref.table)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated()
        if table.status is not TableStatus.PLAYING:
            raise GameNotRunning()
        ui = get_ui(table.game)
        image = await self.presenter.draw(table, seat)
        w = reader(interaction)
        private = ui.private_text(table.view(seat), seat, shown_names(table), words=w)
        content = w.gettext("{emoji} What you see at table #{table}", emoji=ui.emoji, table=table.id)
        content += f"\n{private}" if private else ""
        kwargs: dict[str, Any] = {"content": clip_content(content), "ephemeral": True}
        if image is not None:
            kwargs["file"] = discord.File(io.BytesIO(image), filename=file_name("my-view", image))
        await interaction.followup.send(**kwargs)

    @clicked
    async def replay_step(
        self, interaction: discord.Interaction[Any], ref: ReplayRef, values: Sequence[str]
    ) -> None:
        """A step of a finished game's replay."""
        await records.step(interaction, self.service, self.presenter.drawing, ref)

    @clicked
    async def history_page(
        self, interaction: discord.Interaction[Any], ref: HistoryRef, values: Sequence[str]
    ) -> None:
        """A page of the server's finished games."""
        await records.show_history(interaction, self.service, ref.page, edit=True)

    @clicked
    async def log_page(
        self, interaction: discord.Interaction[Any], ref: LogRef, values: Sequence[str]
    ) -> None:
        """A page of the table's log."""
        await gamelog.log_click(interaction, ref)

    @clicked
    async def vote(self, interaction: discord.Interaction[Any], ref: VoteRef, values: Sequence[str]) -> None:
        """A vote to hand an idle seat to a bot."""
        await vote_click(interaction, ref)

    async def show_played(self, update: Update, interaction: discord.Interaction[Any]) -> None:
        """Show an accepted move; if Discord fails us now, say the move stands (it is saved)."""
        try:
            await self.presenter.show(update, interaction)
        except Exception:
            log.exception("table %s: the move was saved but the board could not be updated", update.table.id)
            w = reader(interaction)
            await interaction.followup.send(w.gettext(PLAYED_NOT_SHOWN), ephemeral=True)


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Games(bot))
