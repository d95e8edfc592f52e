"""A local stand-in for Discord's REST API, gateway and CDN, bound to 127.0.0.1 on a free port."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.fakediscord.faults import AckHold, Fault, Hold, error_response
from tests.fakediscord.payloads import (
    EPHEMERAL,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    Attachment,
    Channel,
    Interaction,
    Message,
    User,
    pinged_users,
    snowflake,
)

T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API = "/api/v10"
ACK_LIMIT = 3.0
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction's token takes follow-ups (Discord: 15 minutes; then 401, code 50027)."""
# Discord's documented component and message limits; a payload over them gets 400 (50035).
MAX_ROWS, MAX_ROW_BUTTONS, MAX_SELECT_OPTIONS = 5, 5, 25
MAX_LABEL, MAX_CUSTOM_ID, MAX_CONTENT = 80, 100, 2000


@dataclass(slots=True)
class Request:
    """One REST call the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)
    """Uploaded files by form field ("files[0]", ...)."""
    filenames: dict[str, str] = field(default_factory=dict)
    """The file name each form field was uploaded with."""
    status: int = 0
    at: float = field(default_factory=time.monotonic)
    """When it arrived (time.monotonic)."""


class _Refused(Exception):
    """A request Discord would answer with 400 Invalid Form Body; str() says why."""


PARAMS = web.RequestKey("params", dict[str, str])
RECORD = web.RequestKey("record", Request)


class FakeDiscord:
    """The fake: world state, recorded traffic, and actions tests take as users."""

    def __init__(self, *, ack_limit: float = ACK_LIMIT, heartbeat_interval: int = 41250) -> None:
        self.ack_limit = ack_limit
        self.heartbeat_interval = heartbeat_interval
        self.token = "fake-token"
        self.interactions_everywhere = False
        """Send each interaction to every session, whatever its shard, each as an interaction of its
        own (its id and token): the same click handled by two processes at once."""
        self.twins: list[Interaction] = []
        """The interactions the last click sent while `interactions_everywhere` was set."""
        self.application_id = snowflake()
        self.bot_user = User(self.application_id, "Meeple", bot=True)
        self.owner = User(snowflake(), "Owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, str] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[tuple[int | None, str], dict[str, Any]] = {}
        self.requests: list[Request] = []
        self.uploads: list[Request] = []
        """The requests that carried files, in the order their bodies were read (a board image each)."""
        self.unhandled: list[str] = []
        self.rejected: list[str] = []
        self.crashes: list[str] = []
        self.max_active_threads: int | None = None
        """Discord's limit of active (unarchived) threads per server; None: no limit."""
        self._faults: list[Fault] = []
        self._holds: list[Hold] = []
        self._ack_holds: list[AckHold] = []
        self.token_lifetime = TOKEN_LIFETIME
        self.identifies: list[dict[str, Any]] = []
        self.base_url = ""
        self._sockets: list[_GatewayConnection] = []
        # Waiters share one future, resolved (and replaced) at the next change: a change wakes
        # each waiter once, with no lock to take back in turn (a Condition's notify_all made
        # every change cost a turn of the loop per waiter, hundreds of them under load).
        self._change: asyncio.Future[None] | None = None
        # Indexes, so what waiters check each change does not grow with the whole run.
        self._in_channel: dict[int, list[Message]] = {}
        self._by_token: dict[str, Interaction] = {}
        self._attachment_by_id: dict[int, tuple[Message, Attachment]] = {}
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, list[str], Handler]] = []
        self._register_routes()

    # -- lifecycle -------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/cdn/attachments/{cid}/{aid}/{name}", self._cdn)
        app.router.add_route("*", API + "/{tail:.*}", self._dispatch_rest)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"

    async def close(self) -> None:
        """Close every gateway connection and stop listening."""
        for sock in list(self._sockets):
            await sock.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway session as Discord does on an outage (the bot must reconnect)."""
        for sock in list(self._sockets):
            await sock.ws.close(code=code, message=b"dropped by the test")

    @property
    def connected(self) -> bool:
        """Whether a bot session is identified on the gateway (it receives events)."""
        return any(sock.ready for sock in self._sockets)

    @property
    def api_base(self) -> str:
        """The REST base URL to give the bot (MEEPLE_DISCORD_API_BASE)."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """The gateway URL the bot connects to."""
        return self.base_url.replace("http://", "ws://") + "/gateway"

    @property
    def problems(self) -> list[str]:
        """Unknown routes, refused payloads and the fake's own errors: a test fails unless empty."""
        return self.unhandled + self.rejected + self.crashes

    # -- world -------------------------------------------------------------------

    def add_guild(self, name: str = "Test server") -> int:
        """Create a guild the bot is in; return its id."""
        guild_id = snowflake()
        self.guilds[guild_id] = name
        return guild_id

    def add_text_channel(self, guild_id: int, name: str = "games") -> Channel:
        """Create a text channel in a guild."""
        channel = Channel(snowflake(), guild_id, name)
        self.channels[channel.id] = channel
        return channel

    def add_user(self, name: str, *, manage_guild: bool = False) -> User:
        """Create a person who can use the bot."""
        user = User(snowflake(), name, manage_guild=manage_guild)
        self.users[user.id] = user
        return user

    def channel_messages(self, channel_id: int, *, for_user: int | None = None) -> list[Message]:
        """Live messages of a channel, oldest first; ephemerals only for the user they were for."""
        return [
            m
            for m in self._in_channel.get(channel_id, ())
            if not m.deleted and m.ephemeral_to in (None, for_user)
        ]

    def transcript(self) -> str:
        """Every request and message, readable, for a failing test's output."""
        lines = [
            f"{r.status} {r.method} {r.path} {json.dumps(r.json)[:300] if r.json else ''}"
            for r in self.requests
        ]
        lines.append("-- messages --")
        for msg in self.messages.values():
            flags = ("deleted " if msg.deleted else "") + (
                f"eph:{msg.ephemeral_to} " if msg.ephemeral_to else ""
            )
            files = [a.filename for a in msg.attachments]
            lines.append(
                f"{msg.id} in {msg.channel_id} {flags}{msg.text()[:200]!r} {files} {msg.custom_ids()}"
            )
        return "\n".join(lines)

    def threads_of(self, channel_id: int) -> list[Channel]:
        """The threads created under a channel."""
        return [c for c in self.channels.values() if c.parent_id == channel_id]

    # -- user actions ----------------------------------------------------------------

    async def slash(
        self, command: str, user: User, channel: Channel, options: dict[str, Any] | None = None
    ) -> Interaction:
        """Run a synced slash command ("play" or "game show") as `user` in `channel`."""
        name, *subs = command.split()
        spec = self.commands.get((channel.guild_id, name)) or self.commands.get((None, name))
        if spec is None:
            raise AssertionError(f"/{name} was never synced; synced: {sorted(n for _, n in self.commands)}")
        data: dict[str, Any] = {"id": spec["id"], "name": name, "type": 1, "guild_id": str(channel.guild_id)}
        level = spec
        holder = data
        for sub in subs:
            child = next(
                (o for o in level.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None
            )
            if child is None:
                raise AssertionError(f"/{command}: no subcommand {sub!r}")
            node: dict[str, Any] = {"name": sub, "type": child["type"]}
            holder["options"] = [node]
            holder, level = node, child
        given = dict(options or {})
        built = []
        for option in level.get("options", []):
            if option["type"] in (1, 2):
                continue
            if option["name"] in given:
                value = given.pop(option["name"])
                choices = [c["value"] for c in option.get("choices") or []]
                if choices and value not in choices:
                    raise AssertionError(f"/{command}: {option['name']}={value!r} is not among {choices}")
                built.append({"name": option["name"], "type": option["type"], "value": value})
            elif option.get("required"):
                raise AssertionError(f"/{command}: option {option['name']!r} is required")
        if given:
            raise AssertionError(f"/{command}: unknown option(s) {sorted(given)}")
        if built:
            holder["options"] = built
        return await self._interact(2, user, channel, data)

    async def stale_slash(self, name: str, user: User, channel: Channel) -> Interaction:
        """Run /`name` as a client whose cached command list still has it after the bot dropped it."""
        data: dict[str, Any] = {"id": str(snowflake()), "name": name, "type": 1}
        data["guild_id"] = str(channel.guild_id)
        return await self._interact(2, user, channel, data)

    async def click(
        self, message: Message | int, custom_id: str, user: User, *, as_seen: Message | None = None
    ) -> Interaction:
        """Press the button `custom_id` on a message as `user`.

        `as_seen` is a `snapshot` of the message as the user's screen still showed it: a click
        racing an edit (two players at once, or a board replaced a moment before).
        """
        return await self._component(message, custom_id, user, {"component_type": 2}, as_seen)

    async def click_label(self, message: Message | int, label: str, user: User) -> Interaction:
        """Press the button labelled `label` on a message as `user`."""
        msg = self.messages[message if isinstance(message, int) else message.id]
        return await self.click(msg, str(msg.button(label)["custom_id"]), user)

    async def select(
        self,
        message: Message | int,
        custom_id: str,
        values: list[str],
        user: User,
        *,
        as_seen: Message | None = None,
    ) -> Interaction:
        """Choose `values` in the string select `custom_id` on a message as `user`."""
        return await self._component(
            message, custom_id, user, {"component_type": 3, "values": values}, as_seen
        )

    @staticmethod
    def snapshot(message: Message) -> Message:
        """A frozen copy of a message as a user sees it now (for racing clicks)."""
        return copy.deepcopy(message)

    async def _component(
        self,
        message: Message | int,
        custom_id: str,
        user: User,
        extra: dict[str, Any],
        as_seen: Message | None,
    ) -> Interaction:
        msg = self.messages[message if isinstance(message, int) else message.id]
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if msg.ephemeral_to not in (None, user.id):
            raise AssertionError(f"{user.name} cannot see ephemeral message {msg.id}")
        seen = as_seen if as_seen is not None else msg
        item = next((i for i in seen.items() if i.get("custom_id") == custom_id), None)
        if item is None:
            raise AssertionError(
                f"message {msg.id} has no component {custom_id!r}; it has {seen.custom_ids()}"
            )
        if item.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled")
        if extra["component_type"] == 3:
            allowed = {str(o.get("value")) for o in item.get("options") or []}
            if item.get("type") != 3 or not set(extra["values"]) <= allowed:
                raise AssertionError(f"{extra['values']} are not options of select {custom_id!r}")
        channel = self.channels[msg.channel_id]
        data = {"custom_id": custom_id, **extra}
        return await self._interact(3, user, channel, data, message=seen)

    async def _interact(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any], message: Message | None = None
    ) -> Interaction:
        if not self.interactions_everywhere:
            interaction, payload = self._interaction(kind, user, channel, data, message)
            await self.dispatch("INTERACTION_CREATE", payload)
            return interaction
        self.twins = []
        for sock in [s for s in self._sockets if s.ready]:
            interaction, payload = self._interaction(kind, user, channel, data, message)
            self.twins.append(interaction)
            await sock.send({"op": 0, "t": "INTERACTION_CREATE", "s": sock.next_seq(), "d": payload})
        await self._notify()
        return self.twins[0]

    def _interaction(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any], message: Message | None
    ) -> tuple[Interaction, dict[str, Any]]:
        interaction = Interaction(
            id=snowflake(),
            token=secrets.token_urlsafe(24),
            type=kind,
            user=user,
            channel_id=channel.id,
            data=data,
            message_id=message.id if message else None,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": interaction.token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "guild_id": str(channel.guild_id),
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": user.member_payload(),
            "app_permissions": str((1 << 51) - 1),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id)},
            "context": 0,
            "data": data,
        }
        if message is not None:
            payload["message"] = message.payload()
        return interaction, payload

    # -- waiting -----------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 10.0, what: str = "") -> T:
        """Wait until predicate() is truthy (re-checked after every request and dispatch)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                label = what or getattr(predicate, "__name__", "condition")
                raise TimeoutError(f"timed out after {timeout} s waiting for {label}")
            if self._change is None or self._change.done():
                self._change = asyncio.get_running_loop().create_future()
            await asyncio.wait((self._change,), timeout=remaining)

    async def wait_connected(self, timeout: float = 15.0) -> dict[str, Any]:
        """Wait for a gateway IDENTIFY and return it."""
        count = len(self.identifies)
        await self.wait_for(lambda: len(self.identifies) > count, timeout, "the bot to identify")
        return self.identifies[-1]

    async def wait_answered(self, interaction: Interaction, timeout: float = 10.0) -> Interaction:
        """Wait until the bot acknowledged the interaction."""
        await self.wait_for(
            lambda: interaction.acknowledged, timeout, f"an answer to interaction {interaction.id}"
        )
        return interaction

    async def wait_message(
        self, predicate: Callable[[Message], bool], timeout: float = 10.0, what: str = "a message"
    ) -> Message:
        """Wait for a live message matching predicate (the newest one if several)."""

        def find() -> Message | None:
            for msg in reversed(self.messages.values()):
                if not msg.deleted and not msg.loading and predicate(msg):
                    return msg
            return None

        return await self.wait_for(find, timeout, what)

    async def _notify(self) -> None:
        if self._change is not None and not self._change.done():
            self._change.set_result(None)

    # -- gateway ---------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch event to every connected bot session that receives its server's events."""
        guild = data.get("guild_id")
        for sock in list(self._sockets):
            if sock.ready and sock.receives(None if guild is None else int(guild)):
                await sock.send({"op": 0, "t": event, "s": sock.next_seq(), "d": data})
        await self._notify()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = _GatewayConnection(ws, zlib_stream=request.query.get("compress") == "zlib-stream")
        self._sockets.append(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval}})
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op = message.get("op")
                if op == 1:
                    await conn.send({"op": 11})
                elif op == 2:
                    await self._identify(conn, message["d"])
                elif op == 6:
                    # Sessions are not resumable here: ask for a fresh IDENTIFY.
                    await conn.send({"op": 9, "d": False})
        finally:
            self._sockets.remove(conn)
            await self._notify()
        return ws

    async def _identify(self, conn: _GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        conn.intents = int(data.get("intents", 0))
        if data.get("shard"):
            conn.shard = (int(data["shard"][0]), int(data["shard"][1]))
        self.identifies.append(data)
        conn.ready = True
        guilds = [g for g in self.guilds if conn.receives(g)]
        await conn.send(
            {
                "op": 0,
                "t": "READY",
                "s": conn.next_seq(),
                "d": {
                    "v": 10,
                    "user": self.bot_user.payload(),
                    "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                    "session_id": secrets.token_hex(16),
                    "resume_gateway_url": self.gateway_url,
                    "application": {"id": str(self.application_id), "flags": 0},
                    **({"shard": list(conn.shard)} if conn.shard else {}),
                },
            }
        )
        for guild_id in guilds:
            await conn.send(
                {"op": 0, "t": "GUILD_CREATE", "s": conn.next_seq(), "d": self._guild_payload(guild_id)}
            )
        await self._notify()

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        channels = [c for c in self.channels.values() if c.guild_id == guild_id]
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "owner_id": str(next(iter(self.users))),
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "unavailable": False,
            "large": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": "104324673",
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "members": [self.bot_user.member_payload()],
            "member_count": 1,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # -- REST plumbing ---------------------------------------------------------

    def _register_routes(self) -> None:
        add = self._route
        add("GET", "users/@me", self._me)
        add("GET", "oauth2/applications/@me", self._application)
        add("GET", "gateway", self._gateway_info)
        add("GET", "gateway/bot", self._gateway_info)
        add("PUT", "applications/{app}/commands", self._put_commands)
        add("PUT", "applications/{app}/guilds/{guild}/commands", self._put_commands)
        add("GET", "applications/{app}/commands", self._get_commands)
        add("GET", "applications/{app}/guilds/{guild}/commands", self._get_commands)
        add("POST", "interactions/{iid}/{token}/callback", self._callback)
        add("POST", "webhooks/{app}/{token}", self._followup)
        add("GET", "webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        add("PATCH", "webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        add("DELETE", "webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)
        add("GET", "channels/{cid}", self._get_channel)
        add("PATCH", "channels/{cid}", self._edit_channel)
        add("POST", "channels/{cid}/typing", self._typing)
        add("POST", "channels/{cid}/messages", self._create_message)
        add("GET", "channels/{cid}/messages", self._history)
        add("GET", "channels/{cid}/messages/{mid}", self._get_message)
        add("PATCH", "channels/{cid}/messages/{mid}", self._edit_message)
        add("DELETE", "channels/{cid}/messages/{mid}", self._delete_message)
        add("POST", "channels/{cid}/messages/{mid}/threads", self._thread_from_message)
        add("POST", "channels/{cid}/threads", self._thread_in_channel)
        add("PUT", "channels/{cid}/thread-members/{uid}", self._add_thread_member)

    def _route(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method, pattern.split("/"), handler))

    async def _dispatch_rest(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"].strip("/")
        parts = tail.split("/")
        record = Request(request.method, "/" + tail, dict(request.query))
        self.requests.append(record)
        try:
            await self._read_body(request, record)
            if record.files:
                self.uploads.append(record)
            # Interaction callbacks and webhooks carry their token in the URL, not the bot token.
            by_url_token = parts[0] in ("interactions", "webhooks")
            if not by_url_token and request.headers.get("Authorization") != f"Bot {self.token}":
                response: web.StreamResponse = _error(401, 0, "401: Unauthorized")
            else:
                response = await self._handle(request, record, parts)
        except _Refused as refused:
            self.rejected.append(f"{request.method} {record.path}: {refused}")
            response = _error(400, 50035, f"Invalid Form Body: {refused}")
        except Exception as exc:
            # A bug of the fake must fail the test, not pass for a Discord outage.
            self.crashes.append(f"{request.method} {record.path}: {exc!r}")
            response = _error(500, 0, "500: the fake crashed")
        record.status = response.status
        await self._notify()
        return response

    def fail(
        self,
        method: str,
        path: str,
        status: int = 403,
        code: int = 50013,
        times: int = 1,
        *,
        retry_after: float = 1.0,
    ) -> Fault:
        """Make the next `times` calls of `method` on paths matching the regex `path` fail like Discord.

        The answer is Discord's for that status (see faults.error_response): a JSON error with
        `code`, a 429 with `retry_after` and rate limit headers, or the proxies' plain-text 502/503.
        """
        fault = Fault(method, re.compile(path), status, code, times, retry_after)
        self._faults.append(fault)
        return fault

    def drop_gateway_on(self, method: str, path: str, times: int = 1) -> Fault:
        """Close the gateway sessions when the next matching request arrives (which still succeeds)."""
        fault = Fault(method, re.compile(path), 0, 0, times, drop_gateway=True)
        self._faults.append(fault)
        return fault

    def hold(self, method: str, path: str, times: int = 1) -> Hold:
        """Keep the next `times` matching requests waiting, unhandled, until the hold is released."""
        hold = Hold(method, re.compile(path), times)
        self._holds.append(hold)
        return hold

    def hold_after_ack(self, wants: Callable[[Interaction], bool], times: int = 1) -> AckHold:
        """Acknowledge the next `times` interaction callbacks `wants` takes, then keep their answer
        (the HTTP response to the bot) waiting until the hold is released."""
        hold = AckHold(wants, times)
        self._ack_holds.append(hold)
        return hold

    def release_all(self) -> None:
        """Release every hold (a finished test must not leave requests waiting)."""
        for hold in self._holds:
            hold.release()
        for ack_hold in self._ack_holds:
            ack_hold.release()

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a thread or channel as a moderator would: its messages go, later calls get 404."""
        channel = self.channels.pop(channel_id)
        for msg in self.messages.values():
            if msg.channel_id == channel_id:
                msg.deleted = True
        if channel.is_thread:
            await self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )

    async def _handle(self, request: web.Request, record: Request, parts: list[str]) -> web.StreamResponse:
        for hold in self._holds:
            if hold.matches(request.method, record.path):
                await hold.released.wait()
        for fault in self._faults:
            if fault.times > 0 and fault.method == request.method and fault.path.search(record.path):
                fault.times -= 1
                fault.hits += 1
                if fault.drop_gateway:
                    await self.drop_gateway()
                    break
                return error_response(fault.status, fault.code, retry_after=fault.retry_after)
        for method, pattern, handler in self._routes:
            if method != request.method or len(pattern) != len(parts):
                continue
            params: dict[str, str] = {}
            for want, got in zip(pattern, parts, strict=True):
                if want.startswith("{"):
                    params[want[1:-1]] = got
                elif want != got:
                    break
            else:
                request[PARAMS] = params
                request[RECORD] = record
                return await handler(request)
        self.unhandled.append(f"{request.method} {record.path}")
        return _error(404, 0, "404: Not Found")

    async def _not_found(self, request: web.Request) -> web.StreamResponse:
        self.unhandled.append(f"{request.method} {request.path}")
        await self._notify()
        return _error(404, 0, "404: Not Found")

    @staticmethod
    async def _read_body(request: web.Request, record: Request) -> None:
        if not request.can_read_body:
            return
        if request.content_type == "multipart/form-data":
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json":
                    raw = value.file.read() if isinstance(value, web.FileField) else value
                    record.json = json.loads(raw)
                elif isinstance(value, web.FileField):
                    record.files[name] = value.file.read()
                    record.filenames[name] = value.filename
        else:
            raw = await request.read()
            if raw:
                record.json = json.loads(raw)

    # -- identity and commands ------------------------------------------------------

    async def _me(self, request: web.Request) -> web.StreamResponse:
        return _json(self.bot_user.payload())

    async def _application(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
            }
        )

    async def _gateway_info(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        params = request[PARAMS]
        guild = int(params["guild"]) if "guild" in params else None
        body = request[RECORD].json
        if not isinstance(body, list):
            return self._reject(request, "command sync body is not a list")
        for key in [k for k in self.commands if k[0] == guild]:
            del self.commands[key]
        out = []
        for command in body:
            problem = _command_problem(command)
            if problem:
                return self._reject(request, problem)
            stored = {
                **command,
                "id": str(snowflake()),
                "application_id": str(self.application_id),
                "version": str(snowflake()),
                "default_member_permissions": command.get("default_member_permissions"),
            }
            if guild is not None:
                stored["guild_id"] = str(guild)
            self.commands[(guild, command["name"])] = stored
            out.append(stored)
        return _json(out)

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        params = request[PARAMS]
        guild = int(params["guild"]) if "guild" in params else None
        return _json([c for (g, _), c in self.commands.items() if g == guild])

    # -- interactions -----------------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        params = request[PARAMS]
        interaction = self.interactions.get(int(params["iid"]))
        if interaction is None or interaction.token != params["token"]:
            return _error(404, 10062, "Unknown interaction")
        if interaction.acknowledged:
            interaction.errors.append(40060)
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - interaction.created > self.ack_limit:
            interaction.errors.append(10062)
            return _error(404, 10062, "Unknown interaction")
        if interaction.channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        record: Request = request[RECORD]
        body = record.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        problem = _message_problem(data)
        if problem:
            return self._reject(request, problem)
        ephemeral = bool(int(data.get("flags", 0)) & EPHEMERAL)
        resource: dict[str, Any] | None = None
        if kind in (4, 5):
            msg = self._new_message(
                interaction.channel_id,
                data if kind == 4 else {"flags": int(data.get("flags", 0)) | LOADING},
                record,
                webhook=True,
                ephemeral_to=interaction.user.id if ephemeral else None,
            )
            msg.interaction_id = interaction.id
            interaction.original_id = msg.id
            resource = {"type": kind, "message": msg.payload()}
        elif kind in (6, 7):
            if interaction.message_id is None:
                return self._reject(request, f"callback type {kind} is only for component interactions")
            interaction.original_id = interaction.message_id
            if kind == 7:
                msg = self.messages[interaction.message_id]
                self._apply_edit(msg, data, record)
                resource = {"type": 7, "message": msg.payload()}
        elif kind == 9:
            resource = None
        else:
            return self._reject(request, f"unsupported interaction callback type {kind}")
        interaction.callback_type = kind
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(interaction.original_id) if interaction.original_id else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            }
        }
        if resource is not None:
            answer["resource"] = resource
        for hold in self._ack_holds:
            if hold.takes(interaction):
                await self._notify()
                await hold.released.wait()
        return _json(answer)

    def _interaction_by_token(self, token: str) -> Interaction | None:
        return self._by_token.get(token)

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        interaction = self._interaction_by_token(request[PARAMS]["token"])
        if interaction is None or not interaction.acknowledged:
            return _error(404, 10015, "Unknown Webhook")
        if time.monotonic() - interaction.created > self.token_lifetime:
            interaction.errors.append(50027)
            return _error(401, 50027, "Invalid Webhook Token")
        if interaction.channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        record: Request = request[RECORD]
        data = record.json or {}
        problem = _message_problem(data)
        if problem:
            return self._reject(request, problem)
        original = self.messages.get(interaction.original_id or 0)
        if interaction.callback_type == 5 and original is not None and original.loading:
            # The first followup after a "thinking" defer replaces the loading message.
            original.flags &= ~LOADING
            self._apply_edit(original, data, record, created=True)
            return _json(original.payload())
        ephemeral = bool(int(data.get("flags", 0)) & EPHEMERAL)
        msg = self._new_message(
            interaction.channel_id,
            data,
            record,
            webhook=True,
            ephemeral_to=interaction.user.id if ephemeral else None,
        )
        msg.interaction_id = interaction.id
        interaction.followups.append(msg.id)
        return _json(msg.payload())

    def _webhook_message(self, request: web.Request) -> tuple[Interaction | None, Message | None]:
        params = request[PARAMS]
        interaction = self._interaction_by_token(params["token"])
        if interaction is None:
            return None, None
        mid = interaction.original_id if params["mid"] == "@original" else int(params["mid"])
        msg = self.messages.get(mid or 0)
        if msg is None or msg.deleted:
            return interaction, None
        return interaction, msg

    async def _webhook_get(self, request: web.Request) -> web.StreamResponse:
        _, msg = self._webhook_message(request)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        return _json(msg.payload())

    async def _webhook_edit(self, request: web.Request) -> web.StreamResponse:
        interaction, msg = self._webhook_message(request)
        if msg is None:
            if interaction is not None:
                interaction.errors.append(10008)
            return _error(404, 10008, "Unknown Message")
        record: Request = request[RECORD]
        data = record.json or {}
        problem = _message_problem(data)
        if problem:
            return self._reject(request, problem)
        msg.flags &= ~LOADING
        self._apply_edit(msg, data, record)
        return _json(msg.payload())

    async def _webhook_delete(self, request: web.Request) -> web.StreamResponse:
        _, msg = self._webhook_message(request)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        msg.deleted = True
        return web.Response(status=204)

    # -- channels and messages ----------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel | None:
        return self.channels.get(int(request[PARAMS]["cid"]))

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json(channel.payload())

    async def _edit_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body = request[RECORD].json or {}
        if "name" in body:
            channel.name = str(body["name"])[:100]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if channel.is_thread:
            await self.dispatch("THREAD_UPDATE", channel.payload())
        return _json(channel.payload())

    async def _typing(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def _create_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if channel.archived and channel.locked:
            return _error(403, 50083, "Thread is archived")
        record: Request = request[RECORD]
        data = record.json or {}
        problem = _message_problem(data)
        if problem:
            return self._reject(request, problem)
        if not (data.get("content") or data.get("embeds") or record.files or data.get("components")):
            return self._reject(request, "Cannot send an empty message")
        # Posting in an archived (unlocked) thread reopens it, as on Discord.
        channel.archived = False
        msg = self._new_message(channel.id, data, record)
        return _json(msg.payload())

    def _message(self, request: web.Request) -> Message | None:
        msg = self.messages.get(int(request[PARAMS]["mid"]))
        if msg is None or msg.deleted or msg.channel_id != int(request[PARAMS]["cid"]) or msg.ephemeral_to:
            return None
        return msg

    async def _history(self, request: web.Request) -> web.StreamResponse:
        """A page of a channel's messages, newest first, as Discord pages them (before / after)."""
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        query = request.rel_url.query
        limit = max(1, min(100, int(query.get("limit", "50"))))
        found = sorted(
            (m for m in self.channel_messages(channel.id) if m.ephemeral_to is None), key=lambda m: m.id
        )
        if "after" in query:
            page = [m for m in found if m.id > int(query["after"])][:limit]
        else:
            if "before" in query:
                found = [m for m in found if m.id < int(query["before"])]
            page = found[-limit:]
        return _json([m.payload() for m in reversed(page)])

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._message(request)
        return _error(404, 10008, "Unknown Message") if msg is None else _json(msg.payload())

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._message(request)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        if msg.author.id != self.bot_user.id:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.archived:
            # As on Discord: a message in an archived thread cannot be edited until it is reopened.
            return _error(400, 50083, "Thread is archived")
        record: Request = request[RECORD]
        data = record.json or {}
        problem = _message_problem(data)
        if problem:
            return self._reject(request, problem)
        self._apply_edit(msg, data, record)
        return _json(msg.payload())

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._message(request)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        msg.deleted = True
        return web.Response(status=204)

    async def _thread_from_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        msg = self._message(request)
        if channel is None or msg is None:
            return _error(404, 10008, "Unknown Message")
        if msg.thread_id is not None:
            return _error(400, 160004, "A thread has already been created for this message")
        if self._threads_full(channel.guild_id):
            return _error(400, 160006, "Maximum number of active threads reached")
        body = request[RECORD].json or {}
        # A thread started from a message has the message's id, as on Discord.
        thread = await self._make_thread(channel, msg.id, str(body.get("name", "")), PUBLIC_THREAD)
        if isinstance(thread, str):
            return self._reject(request, thread)
        msg.thread_id = thread.id
        return _json(thread.payload())

    async def _thread_in_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body = request[RECORD].json or {}
        kind = int(body.get("type", PRIVATE_THREAD))
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return self._reject(request, f"thread type {kind} is not a text thread")
        if self._threads_full(channel.guild_id):
            return _error(400, 160006, "Maximum number of active threads reached")
        thread = await self._make_thread(channel, snowflake(), str(body.get("name", "")), kind)
        if isinstance(thread, str):
            return self._reject(request, thread)
        return _json(thread.payload())

    def _threads_full(self, guild_id: int) -> bool:
        """Whether the server has reached `max_active_threads` (archived threads do not count)."""
        if self.max_active_threads is None:
            return False
        active = [
            c for c in self.channels.values() if c.guild_id == guild_id and c.is_thread and not c.archived
        ]
        return len(active) >= self.max_active_threads

    async def _make_thread(self, parent: Channel, thread_id: int, name: str, kind: int) -> Channel | str:
        """Create a thread, or return why Discord would refuse it."""
        if parent.is_thread or parent.type != TEXT_CHANNEL:
            return "threads can only be created in text channels"
        if not 1 <= len(name) <= 100:
            return f"thread name {name!r} must be 1 to 100 characters"
        thread = Channel(
            thread_id, parent.guild_id, name, kind, parent_id=parent.id, owner_id=self.bot_user.id
        )
        thread.members.add(self.bot_user.id)
        self.channels[thread.id] = thread
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    async def _add_thread_member(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel is None or not channel.is_thread:
            return _error(404, 10003, "Unknown Channel")
        uid = request[PARAMS]["uid"]
        channel.members.add(self.bot_user.id if uid == "@me" else int(uid))
        return web.Response(status=204)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        msg, attachment = self._attachment_by_id.get(int(request.match_info["aid"]), (None, None))
        # Served while a message shows it, as before the index.
        if msg is not None and any(a is attachment for a in msg.attachments):
            return web.Response(body=attachment.data, content_type=attachment.content_type)
        self.unhandled.append(f"GET {request.path}")
        return _error(404, 0, "404: Not Found")

    # -- message building -----------------------------------------------------------------

    def _new_message(
        self,
        channel_id: int,
        data: dict[str, Any],
        record: Request,
        *,
        webhook: bool = False,
        ephemeral_to: int | None = None,
    ) -> Message:
        channel = self.channels[channel_id]
        msg = Message(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            webhook_id=self.application_id if webhook else None,
            ephemeral_to=ephemeral_to,
        )
        self._apply_edit(msg, data, record, created=True)
        self.messages[msg.id] = msg
        self._in_channel.setdefault(channel_id, []).append(msg)
        if not ephemeral_to and channel.is_thread:
            channel.members.add(self.bot_user.id)
        return msg

    def _apply_edit(
        self, msg: Message, data: dict[str, Any], record: Request, *, created: bool = False
    ) -> None:
        # Attachments first: a refused upload must leave the message as it was.
        if "attachments" in data or record.files:
            msg.attachments = self._attachments(msg, data.get("attachments"), record)
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        if "components" in data:
            msg.components = list(data["components"] or [])
        if "flags" in data:
            msg.flags = (msg.flags & LOADING) | int(data["flags"] or 0)
        if created:
            # Discord notifies on creation only; an edit that adds a mention pings nobody.
            msg.pinged = pinged_users(msg.content, data.get("allowed_mentions"))
        else:
            msg.edited += 1

    def _attachments(
        self, msg: Message, specs: list[dict[str, Any]] | None, record: Request
    ) -> list[Attachment]:
        """The message's attachments after an edit: those kept by id plus the uploaded files."""
        if specs is None:
            # Without a list, every uploaded file is added to what the message had.
            result = list(msg.attachments)
            specs = [{"id": name.removeprefix("files[").removesuffix("]")} for name in record.files]
        else:
            kept = {str(a["id"]) for a in specs if _is_existing(a, msg)}
            result = [a for a in msg.attachments if str(a.id) in kept]
        for spec in specs:
            if _is_existing(spec, msg):
                continue
            key = f"files[{spec.get('id')}]"
            if key not in record.files:
                raise _Refused(f"attachment {spec!r} names no uploaded file")
            filename = spec.get("filename") or record.filenames[key]
            content = record.files[key]
            attachment = Attachment(
                snowflake(), msg.channel_id, filename, content, _content_type(filename), self.base_url
            )
            self._attachment_by_id[attachment.id] = (msg, attachment)
            result.append(attachment)
        return result

    def _reject(self, request: web.Request, problem: str) -> web.StreamResponse:
        self.rejected.append(f"{request.method} {request[RECORD].path}: {problem}")
        return _error(400, 50035, f"Invalid Form Body: {problem}")


class _GatewayConnection:
    """One bot session on the gateway websocket."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.zlib = zlib.compressobj() if zlib_stream else None
        self.seq = 0
        self.ready = False
        self.intents = 0
        self.shard: tuple[int, int] | None = None
        """(shard id, shard count) the session identified with; None: every server."""

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets a server's events (Discord's rule; DMs go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    async def send(self, message: dict[str, Any]) -> None:
        raw = json.dumps(message).encode()
        if self.ws.closed:
            return
        if self.zlib is not None:
            await self.ws.send_bytes(self.zlib.compress(raw) + self.zlib.flush(zlib.Z_SYNC_FLUSH))
        else:
            await self.ws.send_str(raw.decode())


def _is_existing(spec: dict[str, Any], msg: Message) -> bool:
    return any(str(a.id) == str(spec.get("id")) for a in msg.attachments)


def _content_type(filename: str) -> str | None:
    return {
        "png": "image/png",
        "webp": "image/webp",
        "gif": "image/gif",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "txt": "text/plain",
    }.get(filename.rsplit(".", 1)[-1].lower())


def _json(obj: Any, status: int = 200) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(obj).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


def _command_problem(command: dict[str, Any]) -> str | None:
    name = command.get("name", "")
    if not 1 <= len(name) <= 32 or name != name.lower():
        return f"command name {name!r} must be 1-32 lowercase characters"
    if command.get("type", 1) == 1 and not 1 <= len(command.get("description", "")) <= 100:
        return f"/{name}: description must be 1-100 characters"
    options = command.get("options") or []
    if len(options) > 25:
        return f"/{name}: more than 25 options"
    for option in options:
        if len(option.get("choices") or []) > 25:
            return f"/{name} {option.get('name')}: more than 25 choices"
        sub = _command_problem({**option, "type": 1}) if option.get("type") in (1, 2) else None
        if sub:
            return sub
    return None


def _message_problem(data: dict[str, Any]) -> str | None:
    """What Discord would refuse in a message body, or None."""
    content = data.get("content") or ""
    if len(content) > MAX_CONTENT:
        return f"content is {len(content)} characters (max {MAX_CONTENT})"
    rows = data.get("components") or []
    if len(rows) > MAX_ROWS:
        return f"{len(rows)} component rows (max {MAX_ROWS})"
    seen: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1:
            return "top-level components must be action rows"
        if not items:
            return "an action row is empty"
        selects = [i for i in items if i.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            return "a select must be alone in its row"
        if len(items) > MAX_ROW_BUTTONS:
            return f"{len(items)} buttons in one row (max {MAX_ROW_BUTTONS})"
        for item in items:
            custom_id = item.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                    return f"custom_id {custom_id!r} is {len(custom_id)} characters (max {MAX_CUSTOM_ID})"
                if custom_id in seen:
                    return f"custom_id {custom_id!r} is used twice in one message"
                seen.add(custom_id)
            elif item.get("style") != 5:
                return "a component needs a custom_id"
            if len(item.get("label") or "") > MAX_LABEL:
                return f"label {item['label']!r} is over {MAX_LABEL} characters"
            options = item.get("options") or []
            if item.get("type") == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                return f"a select has {len(options)} options (1 to {MAX_SELECT_OPTIONS})"
            for option in options:
                if len(option.get("label") or "") > 100 or len(option.get("value") or "") > 100:
                    return "a select option label or value is over 100 characters"
    return None
