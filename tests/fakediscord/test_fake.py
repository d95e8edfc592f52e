"""The fake's own rules: auth, unknown routes, Discord's limits, acknowledgements, threads, files."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from PIL import Image

from tests.fakediscord import Channel, FakeDiscord


def png(width: int, height: int) -> bytes:
    """A blank PNG of that size."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height)).save(buffer, "PNG")
    return buffer.getvalue()


PNG = png(640, 480)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(ack_limit=0.3)
    await server.start()
    yield server
    await server.close()


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(fake.api_base + "/", headers=headers) as session:
        yield session


@pytest.fixture
def channel(fake: FakeDiscord) -> Channel:
    return fake.add_text_channel(fake.add_guild())


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


async def test_binds_to_loopback_only(fake: FakeDiscord) -> None:
    assert fake.base_url.startswith("http://127.0.0.1:")


async def test_wrong_token_is_unauthorized_and_unknown_routes_are_recorded(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with http.get("users/@me", headers={"Authorization": "Bot nope"}) as response:
        assert response.status == 401
    async with http.get("guilds/1/audit-logs") as response:
        assert response.status == 404
    assert fake.unhandled == ["GET /guilds/1/audit-logs"]
    assert fake.problems == fake.unhandled


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "rows"),
        ({"components": [row(*[button(f"b{i}") for i in range(6)])]}, "buttons in one row"),
        ({"components": [row(button("x" * 101))]}, "custom_id"),
        ({"components": [row(button("a", "L" * 81))]}, "label"),
        ({"components": [row(button("a"), button("a"))]}, "used twice"),
        (
            {
                "components": [
                    row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    )
                ]
            },
            "26 options",
        ),
        ({}, "empty"),
    ],
)
async def test_messages_over_discord_limits_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel, body: dict[str, Any], problem: str
) -> None:
    async with http.post(f"channels/{channel.id}/messages", json=body) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert len(fake.rejected) == 1 and problem in fake.rejected[0]
    assert fake.channel_messages(channel.id) == []


async def test_multipart_upload_is_served_back_from_the_cdn(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    form = aiohttp.FormData()
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "board.png"}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", PNG, filename="board.png", content_type="image/png")
    async with http.post(f"channels/{channel.id}/messages", data=form) as response:
        assert response.status == 200
        sent = await response.json()
    attachment = sent["attachments"][0]
    assert (attachment["filename"], attachment["width"], attachment["height"]) == ("board.png", 640, 480)
    async with aiohttp.ClientSession() as plain, plain.get(attachment["url"]) as response:
        assert await response.read() == PNG
    # An edit that lists no attachments removes them, as on Discord.
    async with http.patch(
        f"channels/{channel.id}/messages/{sent['id']}", json={"attachments": []}
    ) as response:
        assert (await response.json())["attachments"] == []


async def test_a_thread_from_a_message_takes_its_id_once(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    async with http.post(f"channels/{channel.id}/messages", json={"content": "lobby"}) as response:
        message_id = (await response.json())["id"]
    path = f"channels/{channel.id}/messages/{message_id}/threads"
    async with http.post(path, json={"name": "Game #1"}) as response:
        thread = await response.json()
    assert thread["id"] == message_id and thread["parent_id"] == str(channel.id)
    async with http.post(path, json={"name": "again"}) as response:
        assert (await response.json())["code"] == 160004
    assert [t.id for t in fake.threads_of(channel.id)] == [int(message_id)]


async def test_interactions_are_acknowledged_once_and_within_the_limit(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    fake.commands[(None, "hello")] = {"id": "1", "name": "hello", "options": []}
    user = fake.add_user("Ann")
    first = await fake.slash("hello", user, channel)
    url = f"interactions/{first.id}/{first.token}/callback"
    reply = {"type": 4, "data": {"content": f"hi <@{user.id}>", "flags": 64}}
    async with http.post(url, json=reply, headers={"Authorization": ""}) as response:
        body = await response.json()
    assert body["resource"]["message"]["content"].startswith("hi")
    assert fake.messages[first.original_id or 0].ephemeral_to == user.id
    # Without allowed_mentions, Discord's default notifies every user mentioned.
    assert fake.messages[first.original_id or 0].pinged == (user.id,)
    async with http.post(url, json=reply) as response:
        assert (await response.json())["code"] == 40060
    late = await fake.slash("hello", user, channel)
    await asyncio.sleep(0.35)
    async with http.post(f"interactions/{late.id}/{late.token}/callback", json=reply) as response:
        assert (await response.json())["code"] == 10062
    assert first.errors == [40060] and late.errors == [10062] and not late.acknowledged


async def test_slash_checks_the_synced_schema(fake: FakeDiscord, channel: Channel) -> None:
    user = fake.add_user("Ann")
    with pytest.raises(AssertionError, match="never synced"):
        await fake.slash("play", user, channel)
    fake.commands[(None, "play")] = {
        "id": "1",
        "name": "play",
        "options": [
            {
                "type": 1,
                "name": "tomatoes",
                "options": [
                    {"type": 5, "name": "golden"},
                    {"type": 3, "name": "size", "choices": [{"value": "s"}]},
                ],
            }
        ],
    }
    with pytest.raises(AssertionError, match="unknown option"):
        await fake.slash("play tomatoes", user, channel, {"colour": True})
    with pytest.raises(AssertionError, match="not among"):
        await fake.slash("play tomatoes", user, channel, {"size": "xl"})
    interaction = await fake.slash("play tomatoes", user, channel, {"golden": False})
    assert interaction.data["options"] == [
        {"name": "tomatoes", "type": 1, "options": [{"name": "golden", "type": 5, "value": False}]}
    ]


async def test_a_body_the_fake_cannot_read_is_a_problem_not_an_outage(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    async with http.post(f"channels/{channel.id}/messages", data=b"{not json") as response:
        assert response.status == 500
    assert len(fake.crashes) == 1 and fake.problems == fake.crashes


def upload(payload: dict[str, Any], *files: tuple[str, bytes]) -> aiohttp.FormData:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, (name, data) in enumerate(files):
        form.add_field(f"files[{index}]", data, filename=name, content_type="image/png")
    return form


async def test_edits_keep_listed_attachments_and_refuse_missing_files(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    async with http.post(
        f"channels/{channel.id}/messages", data=upload({"content": "v1"}, ("a.png", PNG))
    ) as r:
        sent = await r.json()
    path = f"channels/{channel.id}/messages/{sent['id']}"
    # No attachments list: the new file joins the old one.
    async with http.patch(path, data=upload({"content": "v2"}, ("b.png", PNG))) as r:
        assert [a["filename"] for a in (await r.json())["attachments"]] == ["a.png", "b.png"]
    # A list naming a file that was not uploaded: refused, and the message is unchanged.
    bad = {"content": "v3", "attachments": [{"id": 0, "filename": "c.png"}]}
    async with http.patch(path, json=bad) as r:
        assert r.status == 400
    message = fake.messages[int(sent["id"])]
    assert message.content == "v2" and [a.filename for a in message.attachments] == ["a.png", "b.png"]
    assert fake.rejected and "no uploaded file" in fake.rejected[0]


async def test_injected_faults_answer_as_discord_does(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    path = f"channels/{channel.id}/messages"
    fake.fail("POST", path + "$", 429, retry_after=0.25)
    fake.fail("POST", path + "$", 403, 50013)
    fake.fail("POST", path + "$", 503)
    body = {"content": "hi"}
    async with http.post(path, json=body) as response:
        assert response.status == 429
        assert (await response.json())["retry_after"] == 0.25
        assert response.headers["Retry-After"] == "1" and response.headers["X-RateLimit-Remaining"] == "0"
        # discord.py treats a 429 without Via as Cloudflare's ban, not as a rate limit.
        assert "Via" in response.headers and "X-RateLimit-Reset-After" in response.headers
    async with http.post(path, json=body) as response:
        assert response.status == 403
        assert (await response.json())["code"] == 50013
    async with http.post(path, json=body) as response:
        # The proxies in front of the API answer 502 and 503 in plain text.
        assert response.status == 503 and response.content_type == "text/plain"
    async with http.post(path, json=body) as response:
        assert response.status == 200
    assert [m.content for m in fake.channel_messages(channel.id)] == ["hi"]


async def test_a_held_request_is_handled_only_when_released(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    hold = fake.hold("POST", rf"^/channels/{channel.id}/messages$")
    sending = asyncio.ensure_future(http.post(f"channels/{channel.id}/messages", json={"content": "late"}))
    await asyncio.wait_for(hold.arrived.wait(), 5)
    assert fake.channel_messages(channel.id) == []
    hold.release()
    async with await sending as response:
        assert response.status == 200
    assert [m.content for m in fake.channel_messages(channel.id)] == ["late"]


async def test_a_deleted_thread_answers_unknown_channel(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    async with http.post(f"channels/{channel.id}/threads", json={"name": "game", "type": 11}) as response:
        thread_id = int((await response.json())["id"])
    await fake.delete_channel(thread_id)
    async with http.post(f"channels/{thread_id}/messages", json={"content": "x"}) as response:
        assert response.status == 404
        assert (await response.json())["code"] == 10003


async def test_an_archived_thread_refuses_edits_until_a_post_reopens_it(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    async with http.post(f"channels/{channel.id}/threads", json={"name": "game", "type": 11}) as response:
        thread_id = int((await response.json())["id"])
    async with http.post(f"channels/{thread_id}/messages", json={"content": "board"}) as response:
        message_id = (await response.json())["id"]
    async with http.patch(f"channels/{thread_id}", json={"archived": True}) as response:
        assert response.status == 200
    edit = f"channels/{thread_id}/messages/{message_id}"
    async with http.patch(edit, json={"content": "new"}) as response:
        assert response.status == 400 and (await response.json())["code"] == 50083
    async with http.post(f"channels/{thread_id}/messages", json={"content": "move"}) as response:
        assert response.status == 200
    async with http.patch(edit, json={"content": "new"}) as response:
        assert response.status == 200


async def test_the_active_thread_limit_refuses_a_new_thread(
    fake: FakeDiscord, http: aiohttp.ClientSession, channel: Channel
) -> None:
    fake.max_active_threads = 1
    async with http.post(f"channels/{channel.id}/threads", json={"name": "one", "type": 11}) as response:
        first = int((await response.json())["id"])
    async with http.post(f"channels/{channel.id}/threads", json={"name": "two", "type": 11}) as response:
        assert response.status == 400 and (await response.json())["code"] == 160006
    async with http.patch(f"channels/{first}", json={"archived": True}) as response:
        assert response.status == 200
    async with http.post(f"channels/{channel.id}/threads", json={"name": "two", "type": 11}) as response:
        assert response.status == 200, "archived threads do not count"
