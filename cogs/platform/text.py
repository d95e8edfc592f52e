"""The words of Meeple's messages: lobby, board captions, final scores, notices."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from cogs.games.base import GameUI
from engine.core import Outcome, level_name
from engine.words import ENGLISH, Words, words
from tables.chores import lobby_expired, lobby_expires_at
from tables.models import SeatInfo, Table, TableStatus

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "pl": "Polski", "ko": "한국어"}
"""Each language Meeple speaks (engine.words.LANGUAGES), by its own name (as its reader looks for it)."""

MAX_CONTENT = 2000
"""Discord: a message's content is at most 2000 characters."""
LOG_LINES = 10
"""How many recent log lines a board caption shows."""


def reader(interaction: discord.Interaction[Any]) -> Words:
    """The words of whoever clicked or typed, for a private answer: the language they chose in
    /settings, else their Discord client's."""
    chosen = interaction.client.tables.players.get(interaction.user.id).language
    return words(chosen or str(interaction.locale))


def mention(user_id: int) -> str:
    """A user's mention, as a message's field."""
    return f"<@{user_id}>"


def spoken(table: Table) -> Words:
    """The words of a table's public posts: its language."""
    return words(table.language)


def seat_name(seat: SeatInfo, w: Words = ENGLISH) -> str:
    """A seat's display name, marking bots (and seats a bot plays for an absent player)."""
    name = discord_escape(seat.name)
    if seat.bot is None:
        return name
    level = w.gettext(level_name(seat.bot))
    if seat.replaced:
        return w.gettext("{name} (bot standing in, {level})", name=name, level=level)
    if "bot" in seat.name.lower():
        return w.gettext("{name} ({level})", name=name, level=level)
    return w.gettext("{name} (bot, {level})", name=name, level=level)


MARKDOWN_MARKS = ("\\", "*", "_", "~", "`", "|", ">", "<", "#", "[", "]", ":")
"""Characters Discord's markdown gives a meaning to (`<` opens mentions, `[` masked links)."""


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Marks and embeddings, overrides and isolates of the bidirectional algorithm: a name that holds
one could reverse or reorder the text around it. Dropped, as the boards drop them (renderers.text)."""
FSI, PDI = "\u2068", "\u2069"
"""First strong isolate ... pop directional isolate: a right-to-left name stays inside them."""


def one_line(name: str) -> str:
    """A name on one line, without bidi controls: line breaks become spaces, so a name cannot
    start a new line, and no override in it can reorder what follows."""
    if not name:
        return name
    return "".join(char for char in " ".join(name.splitlines()) if char not in BIDI_CONTROLS)


def discord_escape(text: str) -> str:
    """A user-chosen name as typed in message text: on one line, markdown and mentions neutralised,
    and isolated when it is written right to left (so the caption around it keeps its order)."""
    text = one_line(text)
    for mark in MARKDOWN_MARKS:
        text = text.replace(mark, "\\" + mark)
    # A zero-width space after @ keeps @everyone, @here and <@id> from being mentions.
    text = text.replace("@", "@\u200b")
    if any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        text = FSI + text + PDI
    return text


def names_of(table: Table) -> list[str]:
    """Display names per seat on one line, for images and component labels (plain text, no markdown)."""
    return [one_line(seat.name) for seat in table.seats]


def shown_names(table: Table) -> list[str]:
    """Display names per seat escaped for message text: captions, event lines, questions."""
    return [discord_escape(seat.name) for seat in table.seats]


def lobby_text(ui: GameUI, table: Table) -> str:
    """The lobby message, in the table's language: game, host, options, language, seats, what next."""
    w = spoken(table)
    rules = table.rules
    head = w.gettext(
        "{emoji} **{game}** · table #{table} · 🌐 {language}",
        emoji=ui.emoji,
        game=w.gettext(ui.title),
        table=table.id,
        language=LANGUAGE_NAMES[table.language],
    )
    summary = ui.option_summary(table.options, words=w)
    lines = [head, f"-# {summary}"] if summary else [head]
    lines.append(w.gettext("**Seats ({taken}/{seats}):**", taken=len(table.seats), seats=rules.max_players))
    for number, seat in enumerate(table.seats, 1):
        who = f"<@{seat.user_id}>" if seat.user_id is not None and seat.bot is None else seat_name(seat, w)
        if seat.user_id == table.host_id and seat.bot is None:
            who = w.gettext("{player} (host)", player=who)
        lines.append(f"{number}. {who}")
    if table.status is TableStatus.LOBBY:
        need = rules.min_players - len(table.seats)
        if need > 0:
            hint = w.ngettext(
                "Press **Join** to play. Needs {count} more player.",
                "Press **Join** to play. Needs {count} more players.",
                need,
            )
        else:
            hint = w.gettext("Press **Join** to play. The host can start when everyone is in.")
        lines.append(hint)
        expires = f"<t:{int(lobby_expires_at(table))}:R>"
        lines.append(w.gettext("-# Not started, this table expires {when}.", when=expires))
    elif table.status is TableStatus.CANCELLED and lobby_expired(table):
        lines.append(w.gettext("This table expired: nobody started it within a week."))
    elif table.status is TableStatus.CANCELLED:
        lines.append(w.gettext("This table was cancelled."))
    elif table.thread_id is None:
        lines.append(w.gettext("This game was abandoned before it began."))
    elif table.thread_id is not None:
        thread = f"<#{table.thread_id}>"
        if table.status is TableStatus.PLAYING:
            lines.append(w.gettext("The game is being played in {thread}.", thread=thread))
        else:
            lines.append(w.gettext("The game was played in {thread}.", thread=thread))
        outcome = table.outcome if table.status is TableStatus.FINISHED else None
        if outcome is not None and len(table.seats) > 1:
            winners = w.join([seat_name(table.seats[s], w) for s in outcome.winners])
            lines.append(
                w.ngettext(
                    "🏆 {winners} won with {count} point.",
                    "🏆 {winners} won with {count} points.",
                    max(outcome.scores),
                    winners=winners,
                )
            )
        elif table.status is TableStatus.ABANDONED:
            lines.append(w.gettext("It was abandoned."))
    return clip_content("\n".join(lines))


def board_text(
    ui: GameUI,
    table: Table,
    log: Sequence[str],
    question: str,
    ping_ids: Sequence[int],
    first: bool = False,
) -> str:
    """The caption of a board message, in the table's language: who is to move (pinged once),
    recent events, the question (`first`: the game's first board, which says the order of play)."""
    w = spoken(table)
    movers = [table.seats[s] for s in table.to_move]
    who = ", ".join(
        f"<@{s.user_id}>" if s.user_id is not None and s.user_id in ping_ids else f"**{seat_name(s, w)}**"
        for s in movers
    )
    head = w.gettext(
        "{emoji} **{game}** · table #{table}", emoji=ui.emoji, game=w.gettext(ui.title), table=table.id
    )
    lines = [w.gettext("{head} · to move: {players}", head=head, players=who) if who else head]
    seating = seating_line(table) if first else None
    if seating is not None:
        lines.append(seating)
    shown = list(log)[-LOG_LINES:]
    if len(log) > len(shown):
        hidden = len(log) - len(shown)
        lines.append(w.ngettext("-# … {count} earlier event", "-# … {count} earlier events", hidden))
    lines.extend(f"-# • {line}" for line in shown)
    if question:
        lines.append(question)
    return clip_content("\n".join(lines))


def seating_line(table: Table) -> str | None:
    """The order of play and who began, said on a game's first board (bots may have played already)."""
    if len(table.seats) < 2 or table.seed is None or table.state is None:
        return None
    rules = table.rules
    # The position at the start, remade from the seed: the players asked first began.
    began = sorted(
        {prompt.seat for prompt in rules.prompts(rules.setup(len(table.seats), table.options, table.seed))}
    )
    w = spoken(table)
    order = " → ".join(f"**{seat_name(seat, w)}**" for seat in table.seats)
    if len(began) == 1:
        first = f"**{seat_name(table.seats[began[0]], w)}**"
        return w.gettext(
            "🪑 Order of play: {order}, then round again; {first} began.", order=order, first=first
        )
    return w.gettext("🪑 Order of play: {order}, then round again.", order=order)


def final_text(ui: GameUI, table: Table, outcome: Outcome) -> str:
    """Final scores, in the table's language: rank, name, total and the breakdown per player."""
    w = spoken(table)
    game = w.gettext(ui.title)
    lines = [w.gettext("🏁 **{game}** · table #{table} · final scores", game=game, table=table.id)]
    order = sorted(range(len(table.seats)), key=lambda s: (outcome.ranks[s], s))
    for seat in order:
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(outcome.ranks[seat], f"{outcome.ranks[seat]}.")
        parts = []
        if outcome.breakdown and seat < len(outcome.breakdown):
            detail = outcome.breakdown[seat]
            labels = dict(ui.breakdown_labels)
            keys = [k for k, _ in ui.breakdown_labels if k in detail] + [
                k for k in detail if k not in labels and k not in ui.breakdown_hidden
            ]
            parts = [
                w.gettext(
                    "{label} {value}", label=w.gettext(labels.get(k, k.replace("_", " "))), value=detail[k]
                )
                for k in keys
            ]
        name = f"**{seat_name(table.seats[seat], w)}**"
        if len(table.seats) == 1:
            # Alone there is no ranking: the game's own result line says won or lost.
            lines.append(
                w.gettext("{player}: {facts}", player=name, facts=", ".join(parts)) if parts else name
            )
            continue
        points = w.ngettext("{count} point", "{count} points", outcome.scores[seat])
        if parts:
            points = w.gettext("{points} ({facts})", points=points, facts=", ".join(parts))
        lines.append(w.gettext("{medal} {player}: {points}", medal=medal, player=name, points=points))
    view = table.view(None)
    for extra in (ui.result_line(outcome, view, words=w), ui.final_reveal(view, shown_names(table), words=w)):
        if extra:
            lines.append(extra)
    winners = [seat_name(table.seats[s], w) for s in outcome.winners]
    if len(table.seats) > 1 and winners:
        if len(winners) == 1:
            lines.append(w.gettext("🎉 {player} wins!", player=winners[0]))
        else:
            lines.append(w.gettext("🎉 {players} share the win!", players=w.join(winners)))
    return clip_content("\n".join(lines))


def rating_line(
    seats: Sequence[SeatInfo], moves: Mapping[int, tuple[float, float]], w: Words = ENGLISH
) -> str | None:
    """How the game moved each person's rating (`moves`: mu before and after, by seat), if it did."""
    if not moves:
        return None
    parts = []
    for seat, (before, after) in sorted(moves.items()):
        change = round(after, 1) - round(before, 1)
        sign = "+" if change > 0 else "−" if change < 0 else "±"
        parts.append(f"**{seat_name(seats[seat], w)}** {after:.1f} ({sign}{abs(change):.1f})")
    return w.gettext("📈 Rating: {ratings}", ratings=" · ".join(parts))


def commitment_line(table: Table) -> str | None:
    """The fair-dice message posted before a game's first board: the commitment to its secret seed."""
    if table.commitment is None:
        return None
    return spoken(table).gettext(
        "🎲 Table #{table}: the dice are fixed in advance. The SHA-256 commitment to the game's"
        " secret seed is `{commitment}`. The seed is revealed when the game ends, and"
        " `/game record` lets anyone check every roll against this commitment.",
        table=table.id,
        commitment=table.commitment,
    )


def seed_line(table: Table) -> str | None:
    """The line of a game's last message that reveals its seed (the salt is in the record)."""
    if table.seed is None or table.commitment is None or not table.over:
        return None
    return spoken(table).gettext(
        "-# 🎲 The seed was `{seed}` (commitment `{commitment}…`):"
        " `/game record` gives the game's record, `python -m engine.verify` checks it.",
        seed=table.seed,
        commitment=table.commitment[:12],
    )


def clip_content(text: str) -> str:
    """Keep a message within Discord's 2000 characters."""
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def discord_escape_log(line: str) -> str:
    """Keep an engine log line from pinging anyone (an @ not already broken by discord_escape)."""
    return re.sub("@(?!\u200b)", "@\u200b", line)
