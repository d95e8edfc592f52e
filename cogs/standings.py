"""The standings cog: /stats (a player's record, rating and rating chart) and /leaderboard (paged)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.games import UIS
from cogs.platform import clicks, views
from cogs.platform.ids import LeaderboardRef
from cogs.platform.text import discord_escape, mention, one_line, reader
from cogs.platform.translator import said
from engine.words import ENGLISH, N_, Words
from renderers import rating_chart
from renderers.image_file import file_name
from tables import stats
from tables.ratings import NEW, Rating
from tables.service import TableService

log = logging.getLogger("meeple.cogs.standings")

PER_PAGE = 10
"""Players per leaderboard page (one embed, well under its limits)."""
OOPS = N_("Something went wrong on my side. Please try again.")


def rating_text(rating: Rating, w: Words = ENGLISH) -> str:
    """A rating as the final messages give it, its uncertainty, and the value the leaderboard ranks by."""
    return w.gettext(
        "**{mu}** ± {sigma} (the leaderboard ranks by {mu} − 3 × {sigma} = {ranked})",
        mu=format(rating.mu, ".1f"),
        sigma=format(rating.sigma, ".1f"),
        ranked=minus(rating.conservative),
    )


def minus(value: float) -> str:
    """A value to one decimal with a true minus sign."""
    return f"{value:.1f}".replace("-", "−")


def stats_embed(
    name: str, game: str, report: stats.Report, others: dict[str, int], w: Words = ENGLISH
) -> discord.Embed:
    """The /stats answer for one player and game, in `w`'s words."""
    ui = UIS[game]
    embed = discord.Embed(title=f"{ui.emoji} {name} · {w.gettext(ui.title)}")
    record = report.stats
    assert record is not None
    games = f"{record.games}"
    extras = []
    if record.bot_games:
        extras.append(w.gettext("{bots} with bots", bots=record.bot_games))
    if record.solo_games:
        extras.append(w.gettext("{games} solo", games=record.solo_games))
    if extras:
        games += f" ({', '.join(extras)})"
    embed.add_field(name=w.gettext("Games"), value=games)
    rate = record.win_rate
    versus = record.games - record.solo_games
    if rate is not None:
        wins = w.gettext(
            "{wins} of {games} ({rate})", wins=record.wins, games=versus, rate=format(rate, ".0%")
        )
    else:
        wins = w.gettext("no game against others yet")
    embed.add_field(name=w.gettext("Wins"), value=wins)
    embed.add_field(name=w.gettext("Longest win streak"), value=str(record.longest_streak))
    embed.add_field(
        name=w.gettext("Score"),
        value=w.gettext(
            "average {average}, best {best}",
            average=format(record.average_score, ".1f"),
            best=record.best_score,
        ),
    )
    if report.rating is not None:
        after = w.ngettext("after {count} rated game", "after {count} rated games", report.rating.games)
        if report.rating.bot_games:
            after = w.gettext("{after} ({bots} with bots)", after=after, bots=report.rating.bot_games)
        rated = f"{rating_text(report.rating, w)}\n{after}"
    else:
        rated = w.gettext("not rated yet (solo games do not count)")
    embed.add_field(name=w.gettext("Rating"), value=rated, inline=False)
    if record.opponents:
        lines = [
            w.ngettext(
                "{player}: {count} game, ahead in {ahead}",
                "{player}: {count} games, ahead in {ahead}",
                o.games,
                player=mention(o.user_id),
                ahead=o.ahead,
            )
            for o in record.opponents
        ]
        embed.add_field(name=w.gettext("Favourite opponents"), value="\n".join(lines), inline=False)
    more = [f"{w.gettext(UIS[g].title)} ({n})" for g, n in others.items() if g != game and g in UIS]
    if more:
        embed.set_footer(text=w.gettext("Also played here: {games}", games=", ".join(more)))
    return embed


def chart_points(report: stats.Report) -> list[tuple[float, float]]:
    """The rating before the first rated game, then after each one."""
    return [(NEW.mu, NEW.sigma), *((c.rating.mu, c.rating.sigma) for c in report.history)]


def leaderboard_embed(
    game: str, guild_name: str, rows: Sequence[tuple[int, Rating]], page: int, total: int, w: Words = ENGLISH
) -> discord.Embed:
    """One page of the leaderboard of a game."""
    ui = UIS[game]
    title = w.gettext(
        "{emoji} {game} leaderboard · {server}",
        emoji=ui.emoji,
        game=w.gettext(ui.title),
        server=discord_escape(guild_name),
    )
    embed = discord.Embed(title=title)
    if not rows:
        embed.description = w.gettext(
            "Nobody is rated in this game here yet: finish a game with two or more players."
        )
        return embed
    lines = []
    for place, (user_id, rating) in enumerate(rows, start=page * PER_PAGE + 1):
        played = w.ngettext("{count} game", "{count} games", rating.games)
        if rating.bot_games:
            played = w.gettext("{played} ({bots} with bots)", played=played, bots=rating.bot_games)
        # The bold number is the rating the final messages give; the order is the conservative one.
        lines.append(f"**{place}.** <@{user_id}> **{rating.mu:.1f}** ± {rating.sigma:.1f} · {played}")
    embed.description = "\n".join(lines)
    embed.set_footer(
        text=w.gettext(
            "Page {page} of {pages} · ranked by rating − 3 × uncertainty, so a few lucky games do not outrank"
            " many steady ones (for a newcomer the uncertainty is large)",
            page=page + 1,
            pages=pages(total),
        )
    )
    return embed


def pages(total: int) -> int:
    """How many leaderboard pages `total` rated players fill (at least one)."""
    return max(1, -(-total // PER_PAGE))


def leaderboard_view(game: str, page: int, total: int, w: Words = ENGLISH) -> discord.ui.View:
    """Previous and Next buttons, each disabled at its end."""
    view = discord.ui.View(timeout=None)
    for label, target, enabled in (
        (w.gettext("Previous"), page - 1, page > 0),
        (w.gettext("Next"), page + 1, page + 1 < pages(total)),
    ):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label,
            custom_id=LeaderboardRef(game, max(0, target)).custom_id(),
            style=discord.ButtonStyle.secondary,
            disabled=not enabled,
        )
        view.add_item(views.LeaderboardComponent(button))
    return view


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a choice, read from the registry as a command is built."""
    return [app_commands.Choice(name=game_title(ui.title), value=game) for game, ui in sorted(UIS.items())]


def game_title(title: str) -> app_commands.locale_str:
    """A game's title as a command choice, in each reader's language."""
    return said(title, lambda w: w.gettext(title))


def stats_command(cog: Standings) -> app_commands.Command[Any, ..., None]:
    """/stats, its game choices the games registered now."""

    @app_commands.command(
        name="stats", description="A player's games, wins, scores and rating (only you see it)"
    )
    @app_commands.guild_only()
    @app_commands.describe(player="Whose stats (you if empty)", game="Which game (your most played if empty)")
    @app_commands.choices(game=game_choices())
    async def stats(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        async with clicks.journalled_command(interaction):
            await cog.stats(interaction, player, game)

    return stats


def leaderboard_command(cog: Standings) -> app_commands.Command[Any, ..., None]:
    """/leaderboard, its game choices the games registered now."""

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def leaderboard(interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        async with clicks.journalled_command(interaction):
            await cog.leaderboard(interaction, game)

    return leaderboard


class Standings(commands.Cog):
    """Results that last: a player's stats and a server's leaderboards."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: TableService = bot.tables
        # Built with the cog, not at import: a game registered since is one of the choices.
        self.game_commands = (stats_command(self), leaderboard_command(self))

    async def cog_load(self) -> None:
        """Add /stats and /leaderboard; route the leaderboard's page buttons here."""
        for command in self.game_commands:
            self.bot.tree.add_command(command)
        views.handle(views.LeaderboardComponent, self.on_page)
        self.bot.add_dynamic_items(views.LeaderboardComponent)

    async def cog_unload(self) -> None:
        """Remove the commands; stop routing the page buttons here."""
        for command in self.game_commands:
            self.bot.tree.remove_command(command.name)
        views.handle(views.LeaderboardComponent, None)
        self.bot.remove_dynamic_items(views.LeaderboardComponent)

    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show a player's record in a game on this server, privately, with their rating chart."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self._stats(interaction, player or interaction.user, game.value if game else None)
        except Exception:
            log.exception("/stats failed")
            await interaction.followup.send(reader(interaction).gettext(OOPS), ephemeral=True)

    async def _stats(
        self, interaction: discord.Interaction[Any], who: discord.User | discord.Member, game: str | None
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        name = discord_escape(who.display_name)
        w = reader(interaction)
        store = self.service.store
        played = await stats.games_played(store, guild_id, who.id)
        if game is None:
            game = next((g for g in played if g in UIS), None)
            if game is None:
                said = w.gettext("{player} has not finished a game here yet.", player=name)
                await interaction.followup.send(said, ephemeral=True)
                return
        report = await stats.report(store, guild_id, who.id, game)
        if report.stats is None:
            text = w.gettext(
                "{player} has not finished a game of {game} here yet.",
                player=name,
                game=w.gettext(UIS[game].title),
            )
            await interaction.followup.send(text, ephemeral=True)
            return
        embed = stats_embed(name, game, report, played, w)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if report.history:
            title = w.gettext(
                "{player} · {game} rating", player=one_line(who.display_name), game=w.gettext(UIS[game].title)
            )
            image = await asyncio.to_thread(rating_chart.render, chart_points(report), title)
            name = file_name("rating", image)
            kwargs["file"] = discord.File(io.BytesIO(image), filename=name)
            embed.set_image(url=f"attachment://{name}")
        await interaction.followup.send(**kwargs)

    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        """Post the first page of the server's leaderboard of a game, with page buttons."""
        await interaction.response.defer(thinking=True)
        try:
            embed, view = await self._page(interaction, game.value, 0)
            await interaction.followup.send(embed=embed, view=view)
        except Exception:
            log.exception("/leaderboard failed")
            await interaction.followup.send(reader(interaction).gettext(OOPS), ephemeral=True)

    async def on_page(
        self, interaction: discord.Interaction[Any], ref: LeaderboardRef, values: Sequence[str]
    ) -> None:
        """A page button: show that page on the same message (anyone may page)."""
        if ref.game not in UIS or interaction.guild_id is None:
            said = reader(interaction).gettext("That button is not one I know.")
            await interaction.response.send_message(said, ephemeral=True)
            return
        await interaction.response.defer()
        if not await views.on_its_message(interaction):
            await interaction.followup.send(reader(interaction).gettext(views.NOT_ON_MESSAGE), ephemeral=True)
            return
        try:
            embed, view = await self._page(interaction, ref.game, ref.page)
            await interaction.edit_original_response(embed=embed, view=view)
        except Exception:
            log.exception("leaderboard page failed")
            await interaction.followup.send(reader(interaction).gettext(OOPS), ephemeral=True)

    async def _page(
        self, interaction: discord.Interaction[Any], game: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        guild_id = interaction.guild_id
        assert guild_id is not None
        rows, total = await stats.leaderboard(self.service.store, guild_id, game, page, PER_PAGE)
        if not rows and page > 0:
            # Fewer players than when the page button was drawn: show the last page there is.
            page = pages(total) - 1
            rows, total = await stats.leaderboard(self.service.store, guild_id, game, page, PER_PAGE)
        # The leaderboard is posted for all to see, in the words of whoever asked for it (or paged it).
        w = reader(interaction)
        guild_name = interaction.guild.name if interaction.guild is not None else w.gettext("this server")
        return leaderboard_embed(game, guild_name, rows, page, total, w), leaderboard_view(
            game, page, total, w
        )


async def setup(bot: Any) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Standings(bot))
