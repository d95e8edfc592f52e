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
    name = text.seat_name(seat)
    mentions = discord.AllowedMentions.none()
    view = None
    if notice.kind is NoticeKind.REMINDER and notice.user_id is not None:
        # The game's name too: a player at several tables knows which one at a glance.
        link = await board_messages.link(service, table)
        content = f"⏰ <@{notice.user_id}>, it is your turn in {where_is(table, link)}"
        vote, view = await votes.reminder_vote(service, table, notice.seat)
        content += vote + (by_dm or "")
        if by_dm != "":  # "": told by DM, the thread's copy (with the vote) pings nobody
            mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
    elif notice.kind is NoticeKind.TIMED_OUT:
        content = f"⌛ Time ran out for **{name}**: the default move was played."
    elif notice.kind is NoticeKind.REPLACED and notice.user_id is not None:
        # Once, so the player knows their seat goes on without them and how to come back.
        content = (
            f"🤖 A bot now plays for **{text.discord_escape(seat.name)}** (<@{notice.user_id}>) in table"
            f" #{table.id}; `/game rejoin` or a button on your turn takes the seat back."
        )
        mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
    elif notice.kind is NoticeKind.REPLACED:
        content = f"🤖 A bot now plays for **{text.discord_escape(seat.name)}**."
    else:
        content = f"👋 **{text.discord_escape(seat.name)}** is back and plays their seat again."
    return NoticeMessage(content, mentions, view)
