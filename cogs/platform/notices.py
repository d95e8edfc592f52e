"""The wording of a table's notices in its thread: reminders, timeouts, bots standing in."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from cogs.platform import board_messages, text, votes
from cogs.platform.notify import where as where_is
from tables.models import Notice, NoticeKind
from tables.service import TableService


@dataclass(frozen=True, slots=True)
class NoticeMessage:
    """A notice ready to send in the thread: its text, whom it pings, and a vote button if any."""

    content: str
    mentions: discord.AllowedMentions
    view: discord.ui.View | None = None


async def notice_message(service: TableService, notice: Notice, by_dm: str | None) -> NoticeMessage:
    """Reminders ping the player (unless told by DM: `by_dm` is ""); other notices ping nobody."""
    table = notice.table
    seat = table.seats[notice.seat]
    w = text.spoken(table)
    name = text.seat_name(seat, w)
    player = text.discord_escape(seat.name)
    mentions = discord.AllowedMentions.none()
    view = None
    if notice.kind is NoticeKind.REMINDER and notice.user_id is not None:
        # The game's name too: a player at several tables knows which one at a glance.
        link = await board_messages.link(service, table)
        content = w.gettext(
            "⏰ {mention}, it is your turn in {where}",
            mention=text.mention(notice.user_id),
            where=where_is(table, link),
        )
        vote, view = await votes.reminder_vote(service, table, notice.seat)
        content += vote + (by_dm or "")
        if by_dm != "":  # "": told by DM, the thread's copy (with the vote) pings nobody
            mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
    elif notice.kind is NoticeKind.TIMED_OUT:
        content = w.gettext("⌛ Time ran out for **{player}**: the default move was played.", player=name)
    elif notice.kind is NoticeKind.REPLACED and notice.user_id is not None:
        # Once, so the player knows their seat goes on without them and how to come back.
        content = w.gettext(
            "🤖 A bot now plays for **{player}** ({mention}) in table #{table}; `/game rejoin` or a button"
            " on your turn takes the seat back.",
            player=player,
            mention=text.mention(notice.user_id),
            table=table.id,
        )
        mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
    elif notice.kind is NoticeKind.REPLACED:
        content = w.gettext("🤖 A bot now plays for **{player}**.", player=player)
    else:
        content = w.gettext("👋 **{player}** is back and plays their seat again.", player=player)
    return NoticeMessage(content, mentions, view)
