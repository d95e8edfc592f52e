"""Play over days on Discord: the lobby's pace and standing-answer selects, and /game info."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import text
from cogs.platform.ids import LobbyOp, LobbyRef
from cogs.platform.layout import OptionItem, Row, SelectSpec
from engine.words import ENGLISH, N_, Words
from tables.errors import NotSeated, TableError
from tables.models import Table, TableStatus
from tables.paces import LABELS, Pace, describe, duration, timing_for
from tables.players import STANDING_LABELS, StandingAnswer
from tables.service import TableService

PACE_EMOJI = {Pace.LIVE: "⚡", Pace.DAILY: "📅", Pace.RELAXED: "🌿"}
STATUS_WORDS = {
    TableStatus.LOBBY: N_("lobby"),
    TableStatus.PLAYING: N_("playing"),
    TableStatus.FINISHED: N_("finished"),
    TableStatus.ABANDONED: N_("abandoned"),
    TableStatus.CANCELLED: N_("cancelled"),
}
"""A table's status as /game info says it (English: translated where shown)."""
LANGUAGE_VALUE = "language:"
"""A language's option in the host's pace select: "language:<code>" (the rows of a lobby are few)."""


def lobby_rows(table: Table) -> list[Row]:
    """The lobby's extra selects: the pace and language (host) and, for games with optional choices,
    each seat's answer; in the table's language."""
    w = text.spoken(table)
    paces = tuple(OptionItem(w.gettext(LABELS[pace]), pace.value, PACE_EMOJI[pace]) for pace in Pace)
    languages = tuple(
        OptionItem(name, f"{LANGUAGE_VALUE}{code}", "🌐") for code, name in text.LANGUAGE_NAMES.items()
    )
    rows: list[Row] = [
        SelectSpec(
            LobbyRef(table.id, LobbyOp.PACE).custom_id(),
            w.gettext("⏱️ Pace or 🌐 language (host)"),
            paces + languages,
        )
    ]
    what = get_ui(table.game).optional_choices
    if what is not None:
        rows.append(
            SelectSpec(
                LobbyRef(table.id, LobbyOp.ANSWER).custom_id(),
                w.gettext("🙋 Your answer to {what}", what=w.gettext(what))[:150],
                tuple(
                    OptionItem(w.gettext(label), answer.value, None)
                    for answer, label in STANDING_LABELS.items()
                ),
            )
        )
    return rows


def lobby_line(table: Table) -> str:
    """The lobby's line saying the pace in words."""
    w = text.spoken(table)
    return f"-# ⏱️ {describe(table.timing, optional=get_ui(table.game).optional_choices is not None, w=w)}"


async def lobby_select(interaction: discord.Interaction[Any], ref: LobbyRef, values: Sequence[str]) -> Table:
    """Carry out the pace (or language) or standing-answer select of a lobby; return the table after it."""
    service: TableService = interaction.client.tables
    if len(values) != 1:
        raise TableError(N_("Pick one of the choices."))
    if ref.op is LobbyOp.PACE and values[0].startswith(LANGUAGE_VALUE):
        language = values[0].removeprefix(LANGUAGE_VALUE)
        if language not in text.LANGUAGE_NAMES:
            raise TableError(N_("That language is not one I speak."))
        return await service.set_language(ref.table, interaction.user.id, language)
    if ref.op is LobbyOp.PACE:
        try:
            timing = timing_for(values[0])
        except ValueError:
            raise TableError(N_("That pace is not one I know.")) from None
        table = await service.get(ref.table)
        if table.status is not TableStatus.LOBBY:
            raise TableError(N_("The game has begun: its pace is set."))
        return await service.set_timing(ref.table, interaction.user.id, timing)
    try:
        answer = StandingAnswer(values[0])
    except ValueError:
        raise TableError(N_("That answer is not one I know.")) from None
    table = await service.get(ref.table)
    if table.seat_of(interaction.user.id) is None:
        raise NotSeated(N_("Join the table first: this answer is for your seat."))
    await service.players.set_seat_answer(table.id, interaction.user.id, answer)
    w = text.reader(interaction)
    what = get_ui(table.game).optional_choices or ""
    await interaction.followup.send(
        w.gettext(
            "At table #{table} your answer to {what} is now: {answer}.",
            table=table.id,
            what=w.gettext(what),
            answer=w.gettext(STANDING_LABELS[answer]).lower(),
        ),
        ephemeral=True,
    )
    return table


def info_text(table: Table, service: TableService, w: Words = ENGLISH) -> str:
    """/game info, in the asker's words: table number, game, options, language, pace, seats (bots with
    their level), whose move since when."""
    ui = get_ui(table.game)
    status = w.gettext(STATUS_WORDS[table.status])
    lines = [
        w.gettext(
            "{emoji} **{game}** · table #{table} · {status}",
            emoji=ui.emoji,
            game=ui.title,
            table=table.id,
            status=status,
        )
    ]
    summary = ui.option_summary(table.options, words=w)
    if summary:
        lines.append(w.gettext("**Options:** {options}", options=summary))
    lines.append(w.gettext("**Language:** {language}", language=text.LANGUAGE_NAMES[table.language]))
    lines.append(describe(table.timing, optional=get_ui(table.game).optional_choices is not None, w=w))
    lines.append(w.gettext("**Seats:**"))
    to_move = set(table.to_move)
    now = service.clock()
    for number, seat in enumerate(table.seats, 1):
        if seat.is_bot and seat.replaced:
            who = w.gettext(
                "{player} (a {level} bot plays for them)",
                player=text.discord_escape(seat.name),
                level=w.gettext(str(seat.bot)),
            )
        elif seat.is_bot:
            who = text.seat_name(seat, w)  # "Bot (easy)": the level once
        else:
            who = f"<@{seat.user_id}>"
        if number - 1 in to_move:
            since = seat.idle_since if seat.idle_since is not None and not seat.is_bot else table.updated_at
            when = f"<t:{int(since)}:f>"
            who = w.gettext(
                "{player} · **to move** for {duration} (since {when})",
                player=who,
                duration=duration(max(0.0, now - since), w),
                when=when,
            )
        lines.append(f"{number}. {who}")
    if table.status is TableStatus.PLAYING and not to_move:
        lines.append(w.gettext("Nobody is to move right now."))
    link = table.board_link()
    if link is not None and table.status is TableStatus.PLAYING:
        lines.append(w.gettext("The board: {link}", link=link))
    opened = f"<t:{int(table.created_at)}:f>"
    if now - table.created_at >= 60:
        lines.append(
            w.gettext(
                "-# Opened {when} · {duration} ago", when=opened, duration=duration(now - table.created_at, w)
            )
        )
    else:
        lines.append(w.gettext("-# Opened {when} · moments ago", when=opened))
    return text.clip_content("\n".join(lines))
