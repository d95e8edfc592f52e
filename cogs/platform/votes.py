"""The vote on a reminder: the other humans may hand a long-due seat to a bot now."""

from __future__ import annotations

from typing import Any

import discord

from cogs.games.base import Tone
from cogs.platform import text
from cogs.platform.ids import VoteRef
from cogs.platform.layout import ButtonSpec
from cogs.platform.views import NOT_ON_MESSAGE, build_view, on_its_message
from tables.models import Table
from tables.service import TableService
from tables.votes import SeatVotes, Tally, electorate

TALLY_MARK = "-# 🗳️"
"""Starts the line of a reminder that tells the vote count (replaced as votes arrive)."""


def vote_line(table: Table, tally: Tally) -> str:
    """The count of a vote, in words."""
    w = text.spoken(table)
    name = text.discord_escape(table.seats[tally.seat].name)
    if tally.carried:
        line = w.gettext(
            "{yes} of {voters} voted: a bot plays for **{player}** now.",
            yes=tally.yes,
            voters=tally.voters,
            player=name,
        )
    else:
        line = w.ngettext(
            "{yes} of {count} other player voted to hand **{player}**'s seat to a bot now"
            " ({needed} needed; a move by {player} ends the vote).",
            "{yes} of {count} other players voted to hand **{player}**'s seat to a bot now"
            " ({needed} needed; a move by {player} ends the vote).",
            tally.voters,
            yes=tally.yes,
            needed=tally.needed,
            player=name,
        )
    return f"{TALLY_MARK} {line}"


async def reminder_vote(service: TableService, table: Table, seat: int) -> tuple[str, discord.ui.View | None]:
    """The vote line (with the votes so far) and button a reminder carries; nothing when no
    other human can vote."""
    info = table.seats[seat]
    if info.is_bot or info.idle_since is None or seat not in table.to_move or not electorate(table, seat):
        return "", None
    tally = await SeatVotes(service).tally(table, seat)
    ref = VoteRef(table.id, seat, int(info.idle_since))
    button = ButtonSpec(ref.custom_id(), text.spoken(table).gettext("Vote: a bot plays now"), Tone.RISKY, "🗳️")
    return "\n" + vote_line(table, tally), build_view([(button,)])


def _with_line(content: str, line: str) -> str:
    kept = [part for part in content.split("\n") if not part.startswith(TALLY_MARK)]
    return text.clip_content("\n".join([*kept, line]))


async def vote_click(interaction: discord.Interaction[Any], ref: VoteRef) -> None:
    """Count a vote from the reminder's button and show the count on the reminder."""
    w = text.reader(interaction)
    if not await on_its_message(interaction):
        await interaction.followup.send(w.gettext(NOT_ON_MESSAGE), ephemeral=True)
        return
    service: TableService = interaction.client.tables
    table = await service.get(ref.table)
    message = interaction.message
    content = message.content if message is not None else ""
    if 0 <= ref.seat < len(table.seats) and table.seat_of(interaction.user.id) is not None:
        info = table.seats[ref.seat]
        moved = info.idle_since is None or int(info.idle_since) != ref.since or ref.seat not in table.to_move
        if moved and not info.is_bot:
            # The player moved (or the game ended) since this reminder: its vote is over, the button goes.
            name = text.discord_escape(info.name)
            over = text.spoken(table).gettext("Vote over: **{player}** played.", player=name)
            await interaction.edit_original_response(
                content=_with_line(content, f"{TALLY_MARK} {over}"), view=None
            )
    before = await SeatVotes(service).tally(table, ref.seat) if 0 <= ref.seat < len(table.seats) else None
    tally = await SeatVotes(service).vote(ref.table, ref.seat, interaction.user.id, ref.since)
    table = await service.get(ref.table)
    kwargs: dict[str, Any] = {"content": _with_line(content, vote_line(table, tally))}
    if tally.carried:
        kwargs["view"] = None
    await interaction.edit_original_response(**kwargs, allowed_mentions=discord.AllowedMentions.none())
    if tally.carried:
        answer = w.gettext("Your vote carried it: a bot plays that seat now.")
    elif before is not None and tally.yes == before.yes:
        # A second click by the same voter adds nothing (one vote per player).
        answer = w.gettext("You have already voted: your vote still counts, once.")
    else:
        answer = w.gettext("Your vote counts.")
    await interaction.followup.send(answer, ephemeral=True)
