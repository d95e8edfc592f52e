"""bot.py's log formatter on discord.py's lines: no webhook or interaction token, no component label."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord.webhook.async_ import async_context, interaction_response_params

import logs
from cogs.platform import views
from cogs.platform.ids import UndoRef
from tests.fakediscord import FakeDiscord
from tests.test_bot import start_bot, stop_bot

APP = 1309876543210987654
INTERACTION = 1309876543210987999
# Shaped as Discord's: an interaction token is long base64url, a webhook token 68 characters.
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTMwOTg3NjU0MzIxMDk4Nzk5OTpxX3Z5LWs3c0VtSjRQZzJ0UnNjYVd0TlhqTUhvZ1Zq"
WEBHOOK_TOKEN = "Zq3_x-8kLmN0pQrStUvWxYz0123456789abcdefGHIJKLmnopqrstuvwxyzABCDEFGHIJ"


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    # discord.py's routes (its webhooks' too) are built on this class-level base URL.
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base.rstrip("/"))
    monkeypatch.setattr(  # create_bot points it at the stand-in
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    yield server
    server.release_all()
    await server.close()


@pytest.fixture
def written() -> Iterator[io.StringIO]:
    """What discord.py's loggers write, every level, through Meeple's formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.SecretHidingFormatter(logs.LOG_FORMAT, "not the bot token"))
    logger = logging.getLogger("discord")
    level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield stream
    logger.removeHandler(handler)
    logger.setLevel(level)


def lines_with(stream: io.StringIO, needle: str) -> list[str]:
    """The written lines that contain `needle`."""
    return [line for line in stream.getvalue().splitlines() if needle in line]


async def test_the_rate_limit_warning_of_discord_py_s_http_client_hides_a_route_s_token(
    fake: FakeDiscord, written: io.StringIO
) -> None:
    fake.fail("POST", rf"webhooks/{APP}/", 429, retry_after=0.01)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login(fake.token)
    try:
        route = discord.http.Route(
            "POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=APP, webhook_token=WEBHOOK_TOKEN
        )
        with pytest.raises(discord.NotFound):  # the retry reaches the stand-in, which knows no such webhook
            await http.request(route, json={"content": "hi"})
    finally:
        await http.close()
    (warning,) = lines_with(written, "We are being rate limited.")
    assert f"WARNING discord.http: We are being rate limited. POST {fake.api_base.rstrip('/')}" in warning
    assert warning.endswith(f"/webhooks/{APP}/[hidden] responded with 429. Retrying in 0.01 seconds.")
    assert WEBHOOK_TOKEN not in written.getvalue() and WEBHOOK_TOKEN[:12] not in written.getvalue()
    assert len(lines_with(written, f"/webhooks/{APP}/[hidden]")) >= 3  # the DEBUG lines print the route too
    assert lines_with(written, f"with '{APP}+[hidden]' major parameters")  # its rate limit bucket


async def test_discord_py_s_webhook_and_interaction_lines_keep_the_ids_and_hide_the_tokens(
    fake: FakeDiscord, written: io.StringIO
) -> None:
    # Interactions are answered through discord.py's webhook adapter: its callback and follow-ups.
    fake.fail("POST", r"interactions/", 429, retry_after=0.01)
    fake.fail("POST", r"webhooks/", 429, retry_after=0.01)
    async with aiohttp.ClientSession() as session:
        with pytest.raises(discord.NotFound):
            await async_context.get().create_interaction_response(
                INTERACTION, INTERACTION_TOKEN, session=session, params=interaction_response_params(5)
            )
        with pytest.raises(discord.NotFound):
            await discord.Webhook.partial(APP, INTERACTION_TOKEN, session=session).send("hi")
    text = written.getvalue()
    assert INTERACTION_TOKEN not in text and INTERACTION_TOKEN[:12] not in text
    assert lines_with(written, f"Webhook ID {INTERACTION} is rate limited. Retrying in 0.01 seconds.")
    assert lines_with(written, f"Webhook ID {APP} is rate limited. Retrying in 0.01 seconds.")
    (callback_429,) = lines_with(written, "status code 429")[:1]
    assert callback_429.endswith(
        f"Webhook ID {INTERACTION} with POST {fake.api_base.rstrip('/')}/interactions/{INTERACTION}/[hidden]"
        "/callback has returned status code 429"
    )
    assert lines_with(written, f"with POST {fake.api_base.rstrip('/')}/webhooks/{APP}/[hidden] has returned")


async def test_an_aiohttp_error_naming_the_url_is_hidden_in_the_traceback(
    fake: FakeDiscord, written: io.StringIO
) -> None:
    # aiohttp names the whole URL when it cannot get a connection in time: hold the only one.
    hold = fake.hold("GET", r"users/@me$")
    connector = aiohttp.TCPConnector(limit=1)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(connect=0.2)
    ) as session:
        me = fake.api_base.rstrip("/") + "/users/@me"
        busy = asyncio.create_task(session.get(me, headers={"Authorization": f"Bot {fake.token}"}))
        await asyncio.wait_for(hold.arrived.wait(), 5)
        followup = discord.Webhook.partial(APP, INTERACTION_TOKEN, session=session)
        try:
            await followup.send("hi")
        except aiohttp.ConnectionTimeoutError as exc:
            assert INTERACTION_TOKEN in str(exc)
            # As discord.py logs a component callback's failure (discord/ui/view.py).
            view_log = logging.getLogger("discord.ui.view")
            view_log.exception("Ignoring exception in dynamic item callback for %r", 1)
        hold.release()
        (await busy).release()
    text = written.getvalue()
    assert "ERROR   discord.ui.view: Ignoring exception in dynamic item callback for 1\nTraceback" in text
    assert (
        f"aiohttp.client_exceptions.ConnectionTimeoutError: Connection timeout to host {fake.api_base}"
        in text
    )
    assert text.rstrip().endswith(f"/webhooks/{APP}/[hidden]?wait=0&with_components=0")
    assert INTERACTION_TOKEN not in text and INTERACTION_TOKEN[:12] not in text


def format_line(message: str, *args: object, exc: BaseException | None = None) -> str:
    """One record as Meeple writes it (the message alone)."""
    formatter = logs.SecretHidingFormatter("%(message)s", "")
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return formatter.format(
        logging.LogRecord("discord", logging.WARNING, __file__, 1, message, args, exc_info)
    )


def test_tokens_are_hidden_in_the_message_the_arguments_and_the_exception_alike() -> None:
    url = f"https://discord.com/api/v10/webhooks/{APP}/{WEBHOOK_TOKEN}/messages/@original"
    assert (
        format_line(f"sent {url}")
        == f"sent https://discord.com/api/v10/webhooks/{APP}/[hidden]/messages/@original"
    )
    assert format_line("sent %s", url) == format_line(f"sent {url}")
    # discord.py quotes a route's parameters; Webhook.url is https://discord.com/api/webhooks/<id>/<token>.
    quoted = f"/interactions/{INTERACTION}/{INTERACTION_TOKEN[:20]}%2B{INTERACTION_TOKEN[20:]}/callback"
    assert format_line("%s and %s", quoted, f"api/webhooks/{APP}/{WEBHOOK_TOKEN}") == (
        f"/interactions/{INTERACTION}/[hidden]/callback and api/webhooks/{APP}/[hidden]"
    )
    error = ValueError(f"400, message='Bad Request', url='http://x/api/v10/webhooks/{APP}/{WEBHOOK_TOKEN}'")
    line = format_line("failed", exc=error)
    assert line.endswith(
        f"ValueError: 400, message='Bad Request', url='http://x/api/v10/webhooks/{APP}/[hidden]'"
    )


def test_lines_without_such_a_path_are_left_as_they_are() -> None:
    # Routes without a token, a route's template (in a traceback's source lines), ordinary words.
    for text in (
        f"GET https://discord.com/api/v10/webhooks/{APP} has returned 200",
        f"POST https://discord.com/api/v10/channels/{APP}/webhooks has returned 200",
        "route = Route('POST', '/webhooks/{webhook_id}/{webhook_token}', webhook_id=webhook_id)",
        "No interactions/ or webhooks/ here: 12 interactions/s",
    ):
        assert logs.hide_url_tokens(text) == text
    plain = "a line about nothing secret"
    assert logs.hide_url_tokens(plain) is plain


def test_a_component_in_discord_py_s_ignoring_exception_lines_shows_its_custom_id_not_its_label(
    written: io.StringIO,
) -> None:
    # A board's Undo button names its player when several seats may undo (cogs/platform/layout.py).
    custom_id = UndoRef(12, 3, 1).custom_id()
    undo = views.UndoComponent(discord.ui.Button(label="Undo (Ann Smith)", custom_id=custom_id))
    view_log = logging.getLogger("discord.ui.view")
    try:
        raise RuntimeError("the handler failed")
    except RuntimeError:
        # The two lines of discord/ui/view.py that print a component.
        view_log.exception("Ignoring exception in dynamic item callback for %r", undo)
        view_log.error(
            "Ignoring exception in view %r for item %r", discord.ui.View(), undo.item, exc_info=True
        )
    text = written.getvalue()
    assert "Ann Smith" not in text and "label=" not in text
    assert (
        f"Ignoring exception in dynamic item callback for <UndoComponent custom_id='{custom_id}'>\n" in text
    )
    assert f"for item <Button custom_id='{custom_id}'>\nTraceback" in text
    assert "RuntimeError: the handler failed" in text


async def test_a_click_whose_callback_fails_is_logged_by_its_custom_id(
    fake: FakeDiscord, written: io.StringIO, tmp_path: Path
) -> None:
    channel = fake.add_text_channel(fake.add_guild())
    bot, task = await start_bot(fake, tmp_path / "meeple.sqlite3")
    try:
        await fake.wait_answered(await fake.slash("play tomatoes", fake.add_user("Ann Smith"), channel))
        lobby = await fake.wait_message(lambda m: "Join" in m.labels(), what="a lobby")
        # Acknowledged too late: Discord forgot the interaction, the click's callback raises.
        fake.fail("POST", r"interactions/.*/callback$", 404, 10062)
        await fake.click_label(lobby, "Join", fake.add_user("Bob"))
        for _ in range(200):
            if lines_with(written, "Ignoring exception"):
                break
            await asyncio.sleep(0.05)
    finally:
        await stop_bot(bot, task)
    custom_id = lobby.button("Join")["custom_id"]
    (line,) = lines_with(written, "Ignoring exception")
    assert line.endswith(
        f"ERROR   discord.ui.view: Ignoring exception in dynamic item callback for "
        f"<LobbyComponent custom_id='{custom_id}'>"
    )
    assert "label=" not in written.getvalue()
