"""Lobbies on Discord: open one with /play, then Join, Leave, Add bot, Start and Cancel."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from cogs.games import get_ui
from cogs.games.base import GameUI, Tone
from cogs.platform import clicks, pacing, text, threads
from cogs.platform.ids import LobbyOp, LobbyRef
from cogs.platform.layout import MAX_OPTION_TEXT, ButtonSpec, OptionItem, Row, SelectSpec, clip
from cogs.platform.translator import said, untranslated
from cogs.platform.views import build_view
from engine.core import DEFAULT_LEVEL, OptionSpec, Scalar, level_name
from engine.games import get_rules
from engine.words import ENGLISH, N_, Words, language_of, words
from tables.errors import TableError, Wording
from tables.models import Table, TableStatus
from tables.paces import DEFAULT_PACE, PACE_HELP, PaceName, timing_for

log = logging.getLogger("meeple.cogs.lobby")

THREAD_NAME_LIMIT = 100
"""Discord: a thread name is at most 100 characters."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""Keep game threads open a week between moves (async play over days)."""
THREAD_WAIT = 8.0
"""Seconds to wait for Discord to open a thread (discord.py retries server errors for ~25 s)."""
THREAD_ALREADY_CREATED = 160004
"""Discord's error code: this message already has a thread."""


def lobby_rows(table: Table) -> list[Row]:
    """The lobby's buttons, and Add bot: a select of the game's bot levels (in the table's language)."""
    w = text.spoken(table)

    def spec(op: LobbyOp, label: str, tone: Tone, emoji: str) -> ButtonSpec:
        return ButtonSpec(LobbyRef(table.id, op).custom_id(), label, tone, emoji)

    levels = tuple(
        OptionItem(w.gettext("{level} bot", level=w.gettext(level).capitalize()), level, "🤖")
        for level in table.rules.levels()
    )
    rows: list[Row] = [
        (
            spec(LobbyOp.JOIN, w.gettext("Join"), Tone.MAIN, "🪑"),
            spec(LobbyOp.LEAVE, w.gettext("Leave"), Tone.NORMAL, "🚪"),
            spec(LobbyOp.START, w.gettext("Start"), Tone.GOOD, "▶️"),
            spec(LobbyOp.CANCEL, w.gettext("Cancel"), Tone.RISKY, "✖️"),
        ),
        SelectSpec(
            LobbyRef(table.id, LobbyOp.BOT).custom_id(), w.gettext("🤖 Add bot: pick its level"), levels
        ),
    ]
    removable = removable_players(table)
    if removable:
        placeholder = w.gettext("🚫 Remove a player or bot (host)")
        if table.barred:
            placeholder = w.gettext("🚫 Remove a player or bot, or let a removed player back (host)")
        rows.append(SelectSpec(LobbyRef(table.id, LobbyOp.REMOVE).custom_id(), placeholder, removable))
    return rows


BOT_VALUE = "bot:"
"""A bot's option in the host's select: "bot:<seat>:<name>" (the name guards against seats that moved)."""
BACK_VALUE = "back:"
"""A removed player's option in the host's select: "back:<user id>" lets them Join again."""


def removable_players(table: Table) -> tuple[OptionItem, ...]:
    """The options of the host's select: every other seat (a person's value is their user id, a bot's
    "bot:<seat>:<name>"), then each removed player to let back in ("back:<user id>")."""
    w = text.spoken(table)
    items = []
    for number, seat in enumerate(table.seats):
        if seat.bot is not None:
            level = w.gettext(level_name(seat.bot))
            label = w.gettext("Remove {player} ({level})", player=text.one_line(seat.name), level=level)
            value = f"{BOT_VALUE}{number}:{seat.name}"[:100]
            items.append(OptionItem(clip(label, MAX_OPTION_TEXT), value, "🤖"))
        elif seat.user_id is not None and seat.user_id != table.host_id:
            label = w.gettext("Remove {player}", player=text.one_line(seat.name))
            items.append(OptionItem(clip(label, MAX_OPTION_TEXT), str(seat.user_id), "🚫"))
    for user_id, name in reversed(table.barred):  # the latest first, if more than fit
        label = w.gettext("Let {player} join again", player=text.one_line(name))
        items.append(OptionItem(clip(label, MAX_OPTION_TEXT), f"{BACK_VALUE}{user_id}", "↩️"))
    return tuple(items[:25])


def lobby_message(table: Table) -> dict[str, Any]:
    """Keyword arguments to send or edit the lobby message (buttons only while it is a lobby)."""
    lobby = table.status is TableStatus.LOBBY
    view = build_view([*lobby_rows(table), *pacing.lobby_rows(table)]) if lobby else None
    content = text.lobby_text(get_ui(table.game), table)
    if lobby:
        content = text.clip_content(f"{content}\n{pacing.lobby_line(table)}")
    return {"content": content, "view": view}


def thread_name(table: Table) -> str:
    """The game thread's name: the game and the table number, in the table's language."""
    ui = get_ui(table.game)
    w = text.spoken(table)
    return w.gettext("{emoji} {game} #{table}", emoji=ui.emoji, game=w.gettext(ui.title), table=table.id)[
        :THREAD_NAME_LIMIT
    ]


def play_command(ui: GameUI) -> app_commands.Command[Any, ..., None]:
    """`/play <game>`: open a lobby, with the game's options that have a short name, and a pace."""
    rules = get_rules(ui.game_id)
    offered = [spec for spec in rules.option_specs if spec.short]

    async def open_table(interaction: discord.Interaction[Any], **chosen: Any) -> None:
        options = {spec.key: chosen.get(spec.short, spec.default) for spec in offered}
        # No language chosen: the host's own client language (a server's locale is no one's choice).
        language = chosen.get("language") or language_of(str(interaction.locale))
        async with clicks.journalled_command(interaction):
            await open_lobby(interaction, ui.game_id, options, chosen.get("pace", DEFAULT_PACE), language)

    # discord.py reads a command's options from its callback's signature: one per offered spec.
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        *(
            inspect.Parameter(spec.short, keyword, default=spec.default, annotation=_kind(spec))
            for spec in offered
        ),
        inspect.Parameter("pace", keyword, default=DEFAULT_PACE.value, annotation=PaceName),
        inspect.Parameter("language", keyword, default="", annotation=str),
    ]
    open_table.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(
        pace=app_commands.locale_str(PACE_HELP),
        language=app_commands.locale_str("The language of the table's posts and boards (default: yours)"),
        **{spec.short: option_help(spec) for spec in offered},
    )
    languages = app_commands.choices(
        language=[
            # Each language by its own name, never translated: a reader looks for their own.
            app_commands.Choice(name=untranslated(name), value=code)
            for code, name in text.LANGUAGE_NAMES.items()
        ]
    )

    def description(w: Words) -> str:
        return w.ngettext(
            "Open a {game} table ({least}-{count} player) in this channel",
            "Open a {game} table ({least}-{count} players) in this channel",
            rules.max_players,
            game=w.gettext(ui.title),
            least=rules.min_players,
        )

    return app_commands.Command(
        name=ui.game_id,
        description=said(description(ENGLISH), description),
        callback=languages(described(open_table)),
    )


def option_help(spec: OptionSpec) -> app_commands.locale_str:
    """An option as /play describes it: its label, what it does and its default."""

    def help_text(w: Words) -> str:
        if isinstance(spec.default, bool):
            default = w.gettext("on") if spec.default else w.gettext("off")
        else:
            default = str(spec.default)
        return w.gettext(
            "{label}: {help} (default {default})",
            label=w.gettext(spec.label),
            help=w.gettext(spec.help),
            default=default,
        )

    return said(help_text(ENGLISH), help_text)


def _kind(spec: OptionSpec) -> Any:
    """The annotation that makes discord.py offer a spec's values: a flag, or a choice among its values."""
    if isinstance(spec.default, bool):
        return bool
    return Literal[spec.choices]


async def open_lobby(
    interaction: discord.Interaction[Any],
    game_id: str,
    options: dict[str, Scalar],
    pace: str = DEFAULT_PACE,
    language: str = "en",
) -> None:
    """Create a table speaking `language` and post its lobby message in the channel where /play was used."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    w = text.reader(interaction)
    channel = interaction.channel
    if interaction.guild_id is None or channel is None:
        await interaction.followup.send(
            w.gettext("Games are played in a server's text channel."), ephemeral=True
        )
        return
    if not isinstance(channel, discord.TextChannel):
        await interaction.followup.send(
            w.gettext("Open a table from a text channel (not a thread): the game gets a thread of its own."),
            ephemeral=True,
        )
        return
    service = interaction.client.tables
    try:
        table = await service.create(
            game_id,
            interaction.guild_id,
            channel.id,
            interaction.user.id,
            interaction.user.display_name,
            options,
            timing=timing_for(pace),
            language=language,
        )
    except TableError as exc:
        await interaction.followup.send(exc.said(w), ephemeral=True)
        return
    try:
        message = await channel.send(**lobby_message(table), allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden:
        await service.cancel(table.id, interaction.user.id)
        await interaction.followup.send(
            w.gettext("I am not allowed to post in this channel."), ephemeral=True
        )
        return
    await service.set_lobby_message(table.id, message.id)
    await interaction.followup.send(
        w.gettext(
            "Table #{table} is open: {link}. Others press **Join**; you press **Start**.",
            table=table.id,
            link=message.jump_url,
        ),
        ephemeral=True,
    )


async def lobby_click(
    interaction: discord.Interaction[Any], ref: LobbyRef, values: Sequence[str] = ()
) -> None:
    """Carry out a lobby button or the Add bot select (the interaction is already deferred)."""
    client = interaction.client
    service = client.tables
    user = interaction.user
    manager = bool(interaction.permissions.manage_guild) if interaction.permissions else False
    op = ref.op
    if op is LobbyOp.JOIN:
        table = await service.join(ref.table, user.id, user.display_name)
    elif op is LobbyOp.LEAVE:
        was_host = (await service.get(ref.table)).host_id == user.id
        table = await service.leave(ref.table, user.id)
        if was_host and table.status is TableStatus.LOBBY:
            await _tell_new_host(interaction, table, user.id)
    elif op is LobbyOp.BOT:
        # An Add bot button of an older lobby message sends no level: the default one.
        table = await service.add_bot(ref.table, user.id, values[0] if values else DEFAULT_LEVEL)
    elif op is LobbyOp.CANCEL:
        table = await service.cancel(ref.table, user.id, manager)
    elif op is LobbyOp.REMOVE:
        table = await _remove_or_let_back(interaction, ref.table, values[0] if len(values) == 1 else "")
    elif op in (LobbyOp.PACE, LobbyOp.ANSWER):
        table = await pacing.lobby_select(interaction, ref, values)
    else:
        await start_game(interaction, ref.table)
        return
    await interaction.edit_original_response(
        **lobby_message(table), allowed_mentions=discord.AllowedMentions.none()
    )


async def _remove_or_let_back(interaction: discord.Interaction[Any], table_id: int, value: str) -> Table:
    """The host's select: remove a person (told privately, barred from Join) or a bot, or let someone back."""
    service = interaction.client.tables
    host = interaction.user.id
    if value.startswith(BOT_VALUE):
        seat, _, name = value.removeprefix(BOT_VALUE).partition(":")
        if not _user_id(seat):
            raise TableError(N_("Pick the seat to free from the list."))
        freed: Table = await service.remove_bot(table_id, host, int(seat), name)
        return freed
    back = value.removeprefix(BACK_VALUE)
    if not _user_id(back):
        raise TableError(N_("Pick the player to remove from the list."))
    table: Table
    if back != value:
        table = await service.let_back(table_id, host, int(back))
        message = N_(
            "The host of table #{table} ({game}) in {channel} let you back: you can press **Join** again."
        )
    else:
        table = await service.remove_player(table_id, host, int(back))
        message = N_(
            "The host of table #{table} ({game}) in {channel} removed you from its lobby; you can join it"
            " again only if they let you back."
        )
    # Their own language if they chose one in /settings, else the table's (a DM has no locale to read).
    told = words(service.players.get(int(back)).language or table.language)
    line = told.gettext(
        message, table=table.id, game=told.gettext(get_ui(table.game).title), channel=f"<#{table.channel_id}>"
    )
    if not await _tell_privately(interaction, int(back), line):
        await interaction.followup.send(
            text.reader(interaction).gettext(
                "I could not tell {player} privately (their direct messages are closed to me).",
                player=text.mention(int(back)),
            ),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    return table


def _user_id(value: str) -> bool:
    """Whether a select value is a plausible Discord id (digits only, not too long)."""
    return value.isascii() and value.isdigit() and len(value) <= 20


async def _tell_privately(interaction: discord.Interaction[Any], user_id: int, line: str) -> bool:
    """Send a direct message; False if Discord refuses it (their DMs are closed, or they are gone)."""
    client = interaction.client
    try:
        person = client.get_user(user_id) or await client.fetch_user(user_id)
        await person.send(line, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        return False
    return True


async def _tell_new_host(interaction: discord.Interaction[Any], table: Table, left: int) -> None:
    """Ping the player a leaving host handed the lobby to, once, so it is not passed on unseen."""
    await interaction.followup.send(
        text.spoken(table).gettext(
            "{host}, you are now the host of table #{table} ({left} left): you can add bots and press"
            " **Start**.",
            host=text.mention(table.host_id),
            table=table.id,
            left=text.mention(left),
        ),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(table.host_id)]),
    )


async def start_game(interaction: discord.Interaction[Any], table_id: int) -> None:
    """Open the game's thread from the lobby message, start the game with it, post the first board.

    The game is in play only once its thread exists and is recorded with it (one write), so
    a Start interrupted at any point leaves a lobby (whose thread the next Start reuses) or a
    game with its thread (whose first board the presenter's keeper posts).
    """
    client = interaction.client
    service = client.tables
    table = await service.check_start(table_id, interaction.user.id)
    thread = await open_thread(client, table, interaction.message)
    update = await service.start_game(table_id, interaction.user.id, thread_id=thread.id)
    await interaction.edit_original_response(
        **lobby_message(update.table), allowed_mentions=discord.AllowedMentions.none()
    )
    presenter = client.get_cog("Games").presenter
    await presenter.show(update)


async def open_thread(client: Any, table: Table, message: discord.Message | None) -> Any:
    """The lobby's game thread: the one recorded by an earlier Start if it still exists, else a new one."""
    service = client.tables
    presenter = client.get_cog("Games").presenter
    if table.thread_id is not None:
        existing = await presenter.channel(table.thread_id)
        if existing is not None:
            return existing
    from_message = message is not None and isinstance(message.channel, discord.TextChannel)
    try:
        thread = await asyncio.wait_for(_create_thread(client, table, message), THREAD_WAIT)
    except discord.HTTPException as exc:
        if from_message and exc.code == THREAD_ALREADY_CREATED and message is not None:
            # An earlier Start made it but stopped before recording it; it has the message's id.
            thread = await presenter.channel(message.id)
            if thread is None:
                raise TableError(thread_failure(exc)) from None
        else:
            log.warning("table %s: could not open a thread: %s", table.id, exc)
            raise TableError(thread_failure(exc)) from None
    except TimeoutError:
        log.warning("table %s: Discord did not open the thread within %.0f s", table.id, THREAD_WAIT)
        raise TableError(
            N_(
                "Discord did not open the game's thread in time (it is failing or slow right now), so the"
                " game has not started: press **Start** again in a moment."
            )
        ) from None
    await service.set_thread(table.id, thread.id)
    return thread


async def _create_thread(client: Any, table: Table, message: discord.Message | None) -> Any:
    if message is not None and isinstance(message.channel, discord.TextChannel):
        return await message.create_thread(
            name=thread_name(table), auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
    channel = client.get_channel(table.channel_id) or await client.fetch_channel(table.channel_id)
    return await channel.create_thread(
        name=thread_name(table),
        type=discord.ChannelType.public_thread,
        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
    )


def thread_failure(exc: discord.HTTPException) -> Wording:
    """What went wrong opening a game's thread, said so that the host knows what to do (in their words)."""
    if exc.code == threads.TOO_MANY_THREADS:
        return threads.too_many_threads
    if isinstance(exc, discord.Forbidden):
        return lambda w: w.gettext(
            "I am not allowed to open a thread here (I need the Create Public Threads permission),"
            " so the game has not started."
        )
    if isinstance(exc, discord.NotFound):
        return lambda w: w.gettext("This channel or the lobby message is gone, so the game has not started.")
    if exc.status == 429:
        return lambda w: w.gettext(
            "Discord asks me to slow down right now, so the game has not started: press **Start** again"
            " in a minute."
        )
    if exc.status >= 500:
        return lambda w: w.gettext(
            "Discord failed while opening the game's thread (server error {status}), so the game has not"
            " started: press **Start** again in a moment.",
            status=exc.status,
        )
    return lambda w: w.gettext(
        "Discord refused to open the game's thread (error {status}), so the game has not started.",
        status=exc.status,
    )
