"""A small fake Discord on 127.0.0.1: the REST routes the referee uses and a gateway websocket.

The bot under test is the real one, unmodified: only discord.py's API base URL (``Route.BASE``) points here,
and ``/gateway/bot`` hands out this server's websocket URL. Every request the bot makes is recorded, and a test
can push INTERACTION_CREATE events, make the next callback fail (500 once, or 429 with retry-after), or drop the
gateway connection to see the bot resume.

The gateway is shard-aware, as Discord documents it: IDENTIFY's ``shard: [id, count]`` picks the servers a
connection hears about, a server belongs to shard ``(guild_id >> 22) % count`` (direct messages to shard 0), and
each server's events and interactions go only to the connections of the shard that owns it. Several bots (several
processes, each with its own shard ids) can be connected at once. Discord applies the formula to every session on
its own, so two sessions that identified as the same shard (overlapping SHARD_IDS, or a replacement started before
the old process stopped) both receive each interaction; the first callback answers it and any later one gets
Discord's 400 "Interaction has already been acknowledged." (code 40060), kept in ``refused``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.waits import scaled

APPLICATION_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 900000000000000003
OTHER_GUILD_ID = 900000000000000999  # a second server the bot is in: every server is its own world
GUILDS = (GUILD_ID, OTHER_GUILD_ID)
CHANNEL_ID = 900000000000000004
PLAYER_ID = 900000000000000005
OPPONENT_ID = 900000000000000006
RESULTS_CHANNEL_ID = 900000000000000010  # the first server's other text channels: where results are copied,
LEAGUE_CHANNEL_ID = 900000000000000011  # and where league news goes, when the server's settings say so
REJECTED_TOKEN = "a-token-discord-rejects"
_ids = itertools.count(910000000000000000)


def reply(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON exactly as Discord sends it: discord.py reads a body as JSON only for 'application/json', no charset."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})  # fmt: skip


def unknown_message() -> web.Response:
    """Discord's answer to an edit of a deleted message."""
    return reply({"message": "Unknown Message", "code": 10008}, status=404)


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that owns a server (Discord's formula); direct messages are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A server id (a plausible snowflake) that shard ``shard`` of ``count`` owns; ``n`` picks another one."""
    base = 900000000000000003 >> 22
    timestamp = base + ((shard - base) % count) + n * count
    guild_id = (timestamp << 22) | 3
    assert shard_of(guild_id, count) == shard
    return guild_id


@dataclass
class Connection:
    """One gateway connection: the shard it identified as, its session and its own event sequence."""

    socket: web.WebSocketResponse
    shard: tuple[int, int] = (0, 1)
    session_id: str = ""
    sequence: int = 0


def embeds_of(payload: Any) -> list[dict[str, Any]]:
    """The embeds a request carries: a callback's (in its data) or a message's."""
    if not isinstance(payload, dict):
        return []
    body = payload.get("data") if isinstance(payload.get("data"), dict) else payload
    return list(body.get("embeds") or [])


def oversized(embed: dict[str, Any]) -> bool:
    """Whether Discord refuses ``embed``: a description over 4,096, a field over 1,024, more than 25 fields, or
    over 6,000 characters in all (title, description, footer, author, field names and values)."""
    fields = embed.get("fields") or []
    total = sum(len(embed.get(key) or "") for key in ("title", "description"))
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    return (len(embed.get("description") or "") > 4096 or len(fields) > 25 or total > 6000
            or any(len(f.get("value") or "") > 1024 for f in fields))  # fmt: skip


def channel_of(guild_id: int) -> int:
    """Each server's one channel (the first server's is CHANNEL_ID)."""
    return CHANNEL_ID if guild_id == GUILD_ID else guild_id + 1


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None,
            "bot": bot, "public_flags": 0}  # fmt: skip


@dataclass
class Call:
    """One REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    payload: Any
    files: list[str] = field(default_factory=list)
    received: float = field(default_factory=time.perf_counter)  # when the request reached the fake Discord
    sizes: list[int] = field(default_factory=list)  # the bytes of each attached file
    contents: list[bytes] = field(default_factory=list)  # each attached file (docs/screenshots/ shows the charts)


class FakeDiscord:
    def __init__(self, guilds: tuple[int, ...] = GUILDS, *, recommended_shards: int = 1) -> None:
        self.guilds = guilds  # the servers the bot is in
        self.recommended_shards = recommended_shards  # what GET /gateway/bot advises
        self.calls: list[Call] = []
        self.synced: dict[str, list[dict[str, Any]]] = {}
        self.fail_next: list[tuple[int, float]] = []  # (status, retry_after) for the next callbacks
        self.sockets: list[web.WebSocketResponse] = []
        self.connections: dict[web.WebSocketResponse, Connection] = {}
        self.sessions: dict[str, tuple[int, int]] = {}  # session id -> (shard, count), for RESUME
        self.identified = asyncio.Event()
        self.shards_changed = asyncio.Condition()  # a shard identified, resumed or went away
        self.resumed = 0
        self.ready_count = 0
        self.answers: dict[str, list[Call]] = defaultdict(list)  # interaction token -> its callbacks and edits
        # interaction token -> the callbacks refused because another had already answered it (400, code 40060)
        self.refused: dict[str, list[Call]] = defaultdict(list)
        self.answered = asyncio.Condition()
        self.uploads: dict[str, bytes] = {}  # attachment id -> content, served as Discord's CDN would
        # Users and members the REST API serves (GET /users/{id}, /guilds/{g}/members/{id}): any id is a user
        # named by ``user_names`` (else "user" and its last digits) and a member of every server, with a nickname
        # from ``nicknames``, unless it is in ``not_members``. A channel in ``closed_channels`` refuses messages (403).
        self.user_names: dict[int, str] = {}
        self.nicknames: dict[tuple[int, int], str] = {}
        self.not_members: set[int] = set()
        self.closed_channels: set[int] = set()
        self.messages: dict[str, dict[str, Any]] = {}  # every message the bot posted, by id (as first posted)
        # Messages deleted (DELETE /channels/{c}/messages/{id}, or a user's delete: ``delete_message``): a later
        # edit of one, by the channel's route or its interaction's @original, gets Discord's 404 Unknown Message.
        self.deleted: set[str] = set()
        self.pressed: dict[str, str] = {}  # a component or form's interaction token -> the message it was on
        # Threads started on a message (Start Thread from Message; a thread's id is its message's), by id; and every
        # message the bot posted to a channel or a thread (POST /channels/{id}/messages), by channel id. A channel
        # in ``no_threads`` refuses to start threads (403, as without Create Public Threads).
        self.threads: dict[str, dict[str, Any]] = {}
        self.responses: dict[str, str] = {}  # interaction token -> the id of the message its callback made
        self.modals: dict[str, dict[str, Any]] = {}  # every form (MODAL callback, type 9) opened, by its custom id
        self.posted: dict[str, list[Call]] = defaultdict(list)
        self.no_threads: set[int] = set()
        # A channel in ``closed_threads`` starts threads that refuse messages (403, as without Send Messages in
        # Threads): each thread started there is added to ``closed_channels``.
        self.closed_threads: set[int] = set()
        # With ``strict_embeds``, a message whose embed passes one of Discord's limits is refused as Discord does
        # (400 Invalid Form Body, code 50035), whatever route carries it.
        self.strict_embeds = False
        self.runner: web.AppRunner | None = None
        self.port = 0

    # --- the server ---------------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway)
        app.router.add_get("/cdn/{id}/{name}", self.cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for socket in self.sockets:
            await socket.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def attachment(self, filename: str, content: bytes) -> dict[str, Any]:
        """A file a user attached to a command: its resolved object (the bot downloads it from the fake CDN)."""
        attachment_id = snowflake()
        self.uploads[attachment_id] = content
        url = f"http://127.0.0.1:{self.port}/cdn/{attachment_id}/{filename}"
        return {"id": attachment_id, "filename": filename, "size": len(content), "url": url, "proxy_url": url,
                "content_type": "application/x-yaml"}  # fmt: skip

    async def cdn(self, request: web.Request) -> web.Response:
        content = self.uploads.get(request.match_info["id"])
        return web.Response(body=content) if content is not None else web.Response(status=404)

    # --- REST ---------------------------------------------------------------------------------------------------

    async def rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        payload: Any = None
        files: list[str] = []
        sizes: list[int] = []
        contents: list[bytes] = []
        if request.content_type == "application/json":
            payload = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    files.append(part.filename or "")  # type: ignore[union-attr]
                    contents.append(bytes(await part.read()))  # type: ignore[union-attr]
                    sizes.append(len(contents[-1]))
        call = Call(request.method, path, dict(request.query), payload, files, sizes=sizes, contents=contents)
        self.calls.append(call)
        async with self.answered:
            self.answered.notify_all()  # for wait_calls
        return await self.route(request.method, path, call, request.headers.get("Authorization", ""))

    async def route(self, method: str, path: str, call: Call, authorization: str = "") -> web.StreamResponse:
        parts = path.strip("/").split("/")
        if authorization == f"Bot {REJECTED_TOKEN}":
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
        if self.strict_embeds and method in ("POST", "PATCH") and any(map(oversized, embeds_of(call.payload))):
            return reply({"message": "Invalid Form Body", "code": 50035}, status=400)
        if path == "/gateway/bot":
            return reply({"url": self.gateway_url, "shards": self.recommended_shards,
                                      "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                                              "max_concurrency": 1}})  # fmt: skip
        if path == "/users/@me":
            return reply(user(BOT_ID, "Referee", bot=True) | {"flags": 0, "mfa_enabled": False})
        if path == "/oauth2/applications/@me":
            return reply({"id": str(APPLICATION_ID), "name": "Referee", "icon": None, "description": "",
                                      "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                                      "flags": 0, "owner": user(PLAYER_ID, "owner"), "summary": ""})  # fmt: skip
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            scope = "global" if len(parts) == 3 else f"guild:{parts[3]}"
            commands = [
                command | {"id": snowflake(), "application_id": str(APPLICATION_ID), "version": snowflake()}
                for command in (call.payload or [])
            ]
            self.synced[scope] = commands
            return reply(commands)
        if parts[0] == "interactions" and parts[-1] == "callback":
            if parts[2] in self.responses:  # a second callback: another session answered this interaction first
                async with self.answered:
                    self.refused[parts[2]].append(call)
                    self.answered.notify_all()
                return reply({"message": "Interaction has already been acknowledged.", "code": 40060}, status=400)
            if self.fail_next:
                status, retry_after = self.fail_next.pop(0)
                if status == 429:
                    return reply(
                        {"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
                        status=429,
                        headers={"Retry-After": str(retry_after), "Via": "1.1 google"},
                    )
                return reply({"message": "Internal Server Error", "code": 0}, status=status)
            response = self.callback_response(parts[1], call.payload)
            # answered: before any await (a form, type 9, makes no message)
            self.responses[parts[2]] = response["interaction"]["response_message_id"] or ""
            await self.answer(parts[2], call)
            return reply(response)
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            if int(parts[1]) in self.closed_channels:
                return reply({"message": "Missing Access", "code": 50001}, status=403)
            self.posted[parts[1]].append(call)
            return reply(self.message(call.payload) | {"channel_id": parts[1]})
        if parts[0] == "channels" and len(parts) == 5 and parts[2] == "messages" and parts[4] == "threads":
            if method != "POST":
                return reply({"message": "405: Method Not Allowed", "code": 0}, status=405)
            if int(parts[1]) in self.no_threads or int(parts[1]) in self.closed_channels:
                return reply({"message": "Missing Permissions", "code": 50013}, status=403)
            if parts[3] in self.threads:
                return reply({"message": "A thread has already been created for this message", "code": 160004},
                             status=400)  # fmt: skip
            thread = self.thread(parts[1], parts[3], call.payload or {})
            self.threads[parts[3]] = thread
            if int(parts[1]) in self.closed_threads:
                self.closed_channels.add(int(parts[3]))
            return reply(thread, status=201)
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and method == "DELETE":
            self.delete_message(parts[3])
            return web.Response(status=204)
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and parts[3] in self.deleted:
            return unknown_message()
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and method == "PATCH":
            return reply(self.message(call.payload) | {"channel_id": parts[1], "id": parts[3]})
        if path == "/users/@me/channels" and method == "POST":
            recipient = int(call.payload["recipient_id"])
            return reply({"id": str(recipient + 7), "type": 1, "last_message_id": None,
                          "recipients": [self.user_of(recipient)]})  # fmt: skip
        if parts[0] == "users" and len(parts) == 2 and method == "GET":
            return reply(self.user_of(int(parts[1])))
        if parts[0] == "guilds" and len(parts) == 4 and parts[2] == "members" and method == "GET":
            guild_id, user_id = int(parts[1]), int(parts[3])
            if user_id in self.not_members:
                return reply({"message": "Unknown Member", "code": 10007}, status=404)
            return reply({"user": self.user_of(user_id), "nick": self.nicknames.get((guild_id, user_id)), "roles": [],
                          "joined_at": "2026-11-22T00:00:00+00:00", "deaf": False, "mute": False,
                          "flags": 0})  # fmt: skip
        if parts[0] == "webhooks" and len(parts) >= 3:
            await self.answer(parts[2], call)
            if (
                method == "PATCH"
                and parts[-2] == "messages"
                and self.edited_message(parts[2], parts[-1]) in self.deleted
            ):
                return unknown_message()
            return reply(self.message(call.payload))
        return reply({"message": f"the fake Discord has no route {method} {path}", "code": 0}, status=404)

    def edited_message(self, token: str, message: str) -> str:
        """The message an interaction's webhook edits: ``@original`` is the pressed message (a component or a
        form sent from one) or the callback's own; else the id given."""
        if message != "@original":
            return message
        return self.pressed.get(token) or self.responses.get(token, "")

    def delete_message(self, message_id: str) -> None:
        """A message deleted (by the bot's DELETE, or by a user or moderator in Discord's client)."""
        self.deleted.add(str(message_id))

    def thread(self, channel_id: str, message_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A public thread (type 11) as Start Thread from Message returns it: the channel object, its id the
        message's, with its metadata and the bot as its one member."""
        now = "2026-11-22T00:00:00+00:00"
        guild = next((g for g in self.guilds if str(channel_of(g)) == channel_id), GUILD_ID)
        return {"id": message_id, "type": 11, "guild_id": str(guild), "parent_id": channel_id,
                "owner_id": str(BOT_ID), "name": payload.get("name", ""), "last_message_id": None,
                "message_count": 0, "total_message_sent": 0, "member_count": 1, "flags": 0,
                "rate_limit_per_user": payload.get("rate_limit_per_user") or 0,
                "thread_metadata": {"archived": False, "locked": False, "archive_timestamp": now,
                                    "auto_archive_duration": payload.get("auto_archive_duration", 4320),
                                    "create_timestamp": now},
                "member": {"id": message_id, "user_id": str(BOT_ID), "join_timestamp": now,
                           "flags": 0}}  # fmt: skip

    def in_channel(self, channel_id: int | str) -> list[dict[str, Any]]:
        """The messages the bot posted to a channel or thread, oldest first, each with the names of its files."""
        return [(call.payload or {}) | {"files": call.files} for call in self.posted.get(str(channel_id), [])]

    def user_of(self, user_id: int) -> dict[str, Any]:
        return user(user_id, self.user_names.get(user_id, f"user{user_id % 1000}"))

    async def answer(self, token: str, call: Call) -> None:
        async with self.answered:
            self.answers[token].append(call)
            self.answered.notify_all()

    def forget(self) -> None:
        """Drop every call kept so far (long benchmarks: the fake shares the bot's process and its collector)."""
        self.calls.clear()
        self.answers.clear()
        self.uploads.clear()
        self.messages.clear()
        self.posted.clear()
        self.threads.clear()
        self.responses.clear()
        self.deleted.clear()
        self.pressed.clear()

    def message(self, payload: Any) -> dict[str, Any]:
        body = payload if isinstance(payload, dict) else {}
        message_id = snowflake()
        self.messages[message_id] = body
        return {"id": message_id, "channel_id": str(CHANNEL_ID), "author": user(BOT_ID, "Referee", bot=True),
                "content": body.get("content", ""), "timestamp": "2026-11-22T00:00:00+00:00",
                "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
                "mention_roles": [], "attachments": [], "embeds": body.get("embeds", []), "pinned": False,
                "type": 0, "flags": body.get("flags", 0), "components": body.get("components", [])}  # fmt: skip

    def callback_response(self, interaction_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        kind = payload.get("type")
        data = payload.get("data") or {}
        if kind == 9:  # MODAL: a form opened for the user, no message (``modals`` keeps it by its custom id)
            self.modals[str(data.get("custom_id", ""))] = data
            return {"interaction": {"id": interaction_id, "type": 3, "response_message_id": None,
                                    "response_message_loading": False, "response_message_ephemeral": False},
                    "resource": {"type": kind}}  # fmt: skip
        ephemeral = bool((data.get("flags") or 0) & 64)
        message = self.message(data)
        return {"interaction": {"id": interaction_id, "type": 2, "response_message_id": message["id"],
                                "response_message_loading": kind == 5, "response_message_ephemeral": ephemeral},
                "resource": {"type": kind, "message": message}}  # fmt: skip

    # --- the gateway --------------------------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.sockets.append(socket)
        connection = self.connections[socket] = Connection(socket)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for message in socket:
                if message.type == WSMsgType.TEXT:
                    await self.gateway_message(connection, json.loads(message.data))
        finally:
            await self.shard_event()  # this connection's shard is no longer answered
        return socket

    async def gateway_message(self, connection: Connection, data: dict[str, Any]) -> None:
        op, socket = data.get("op"), connection.socket
        if op == 1:
            await socket.send_json({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            shard = (data.get("d") or {}).get("shard") or [0, 1]
            connection.shard = (int(shard[0]), int(shard[1]))
            connection.session_id = f"fake-session-{snowflake()}"
            self.sessions[connection.session_id] = connection.shard
            owned = [g for g in self.guilds if shard_of(g, connection.shard[1]) == connection.shard[0]]
            ready = {
                "v": 10, "user": user(BOT_ID, "Referee", bot=True), "session_id": connection.session_id,
                "guilds": [{"id": str(g), "unavailable": True} for g in owned],
                "resume_gateway_url": self.gateway_url, "shard": list(connection.shard),
                "application": {"id": str(APPLICATION_ID), "flags": 0},
            }  # fmt: skip
            await self.send(connection, "READY", ready)
            for guild_id in owned:
                await self.send(connection, "GUILD_CREATE", self.guild(guild_id))
            self.ready_count += 1
            self.identified.set()
            await self.shard_event()
        elif op == 6:
            session = (data.get("d") or {}).get("session_id", "")
            if session not in self.sessions:  # Discord: INVALID_SESSION, not resumable
                await socket.send_json({"op": 9, "d": False, "s": None, "t": None})
                return
            connection.shard, connection.session_id = self.sessions[session], session
            self.resumed += 1
            await self.send(connection, "RESUMED", {})
            self.identified.set()
            await self.shard_event()

    async def shard_event(self) -> None:
        async with self.shards_changed:
            self.shards_changed.notify_all()

    def live(self) -> dict[tuple[int, int], Connection]:
        """The open connections by (shard, count) that have identified or resumed (the newest for each)."""
        return {c.shard: c for c in self.live_connections()}

    def live_connections(self) -> list[Connection]:
        """Every open connection that has identified or resumed, oldest first (two may run the same shard)."""
        return [c for c in self.connections.values() if c.session_id and not c.socket.closed]

    async def wait_shards(self, shards: set[int] | list[int] | range, count: int, timeout: float = 30.0) -> None:
        """Wait until every one of ``shards`` (of ``count``) has a live connection."""

        async def connected() -> None:
            async with self.shards_changed:
                await self.shards_changed.wait_for(lambda: all((s, count) in self.live() for s in shards))

        await asyncio.wait_for(connected(), scaled(timeout))

    async def send(self, connection: Connection, event: str, data: Any) -> None:
        connection.sequence += 1
        await connection.socket.send_json({"op": 0, "t": event, "s": connection.sequence, "d": data})

    def guild(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        name = "Test Guild" if guild_id == GUILD_ID else f"Other Guild {guild_id % 1000}"
        return {"id": str(guild_id), "name": name, "icon": None, "owner_id": str(PLAYER_ID), "roles": [
                    {"id": str(guild_id), "name": "@everyone", "permissions": "2147483647", "position": 0, "color": 0,
                     "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
                "emojis": [], "stickers": [], "features": [], "member_count": 2, "large": False, "unavailable": False,
                "channels": self.channels(guild_id),
                "members": [], "threads": [], "voice_states": [], "presences": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": [], "premium_tier": 0, "preferred_locale": "en-US",
                "joined_at": "2026-11-22T00:00:00+00:00", "afk_timeout": 300, "verification_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
                "system_channel_flags": 0}  # fmt: skip

    @staticmethod
    def channels(guild_id: int) -> list[dict[str, Any]]:
        """A server's text channels: its battles channel; the first server has a results and a league channel too."""
        names = [(channel_of(guild_id), "battles")]
        if guild_id == GUILD_ID:
            names += [(RESULTS_CHANNEL_ID, "results"), (LEAGUE_CHANNEL_ID, "league")]
        return [{"id": str(channel_id), "type": 0, "name": name, "position": position, "permission_overwrites": [],
                 "guild_id": str(guild_id)} for position, (channel_id, name) in enumerate(names)]  # fmt: skip

    async def drop_gateway(self) -> None:
        """Close the bot's websockets mid-stream (as Discord does on a reconnect request)."""
        self.identified.clear()
        for socket in self.sockets:
            if not socket.closed:
                await socket.close(code=4000, message=b"the fake Discord dropped you")

    def connections_for(self, guild_id: int | None) -> list[Connection]:
        """Every live connection whose shard owns ``guild_id``: Discord computes the formula for each session, so
        two sessions of one shard both hear of the server (LookupError when no connection owns it: Discord would
        then fail the interaction, and the player would see "The application did not respond")."""
        owners = [c for c in self.live_connections() if c.shard[0] == shard_of(guild_id, c.shard[1])]
        if not owners:
            raise LookupError(f"no connected shard owns server {guild_id}")
        return owners

    async def interaction(self, payload: dict[str, Any]) -> None:
        """Push an INTERACTION_CREATE to every connection of the shard that owns its server (one, unless two
        sessions run that shard)."""
        guild = payload.get("guild_id")
        if payload.get("message"):
            self.pressed[payload["token"]] = str(payload["message"]["id"])
        owners = self.connections_for(None if guild is None else int(guild))
        await asyncio.gather(*(self.send(owner, "INTERACTION_CREATE", payload) for owner in owners))

    async def ask(self, payload: dict[str, Any], answers: int = 1) -> list[Call]:
        """Push an interaction and wait for the bot's first ``answers`` calls about it."""
        await self.interaction(payload)
        return await self.wait_answers(payload["token"], answers)

    async def wait_calls(self, wanted: Callable[[Call], bool], count: int = 1, timeout: float = 10.0) -> list[Call]:
        """Wait until the bot has made ``count`` requests that ``wanted`` accepts (one it makes on its own, after
        an answer: an edit of an older message, a reminder); those requests."""

        async def enough() -> list[Call]:
            async with self.answered:
                await self.answered.wait_for(lambda: len([c for c in self.calls if wanted(c)]) >= count)
                return [c for c in self.calls if wanted(c)]

        return await asyncio.wait_for(enough(), scaled(timeout))

    async def wait_answers(self, token: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        async def enough() -> list[Call]:
            async with self.answered:
                await self.answered.wait_for(lambda: len(self.answers[token]) >= count)
                return self.answers[token]

        return await asyncio.wait_for(enough(), scaled(timeout))


@dataclass
class Answer:
    """A combat result as the user sees it: shown at once, then edited to add its record id and buttons."""

    first: dict[str, Any]  # the message shown at once (the callback's data)
    data: dict[str, Any]  # the message after the edit
    files: list[str]  # attached to the edit
    calls: list[Call]


async def final_answer(fake: FakeDiscord, token: str, timeout: float = 20.0) -> Answer:
    """The callback that shows a result, and the edit that adds its record (exactly these two calls)."""
    calls = await fake.wait_answers(token, 2, timeout)
    return Answer(calls[0].payload.get("data") or {}, calls[1].payload, calls[1].files, calls)


def command_interaction(
    name: str, options: list[dict[str, Any]], *, user_id: int = PLAYER_ID, subcommand: str | None = None,
    resolved: dict[str, Any] | None = None, permissions: str = "2147483647", guild_id: int = GUILD_ID,
) -> dict[str, Any]:  # fmt: skip
    """An APPLICATION_COMMAND interaction as Discord sends it (in ``guild_id``: another server is another id)."""
    if subcommand is not None:
        options = [{"type": 1, "name": subcommand, "options": options}]
    data: dict[str, Any] = {"id": snowflake(), "name": name, "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    return base_interaction(2, data, user_id=user_id, permissions=permissions, guild_id=guild_id)


def component_interaction(
    custom_id: str, components: list[dict[str, Any]], *, user_id: int = PLAYER_ID, message_flags: int = 0,
    guild_id: int = GUILD_ID, asked_by: int | None = None, message_id: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A button click on a message the bot sent: Discord sends the message (``message_id``: that one, e.g. from
    ``responses``) with its components, its flags (64 for an ephemeral message, which only its presser sees) and,
    for an answer to a command, who used the command."""
    payload = base_interaction(3, {"custom_id": custom_id, "component_type": 2}, user_id=user_id, guild_id=guild_id)
    channel = str(channel_of(guild_id))
    payload["message"] = {"id": message_id or snowflake(), "channel_id": channel,
                          "author": user(BOT_ID, "Referee", bot=True),
                          "content": "", "timestamp": "2026-11-22T00:00:00+00:00", "edited_timestamp": None,
                          "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
                          "attachments": [], "embeds": [], "pinned": False, "type": 20, "flags": message_flags,
                          "components": components}  # fmt: skip
    if asked_by is not None:
        owners = {"0": str(guild_id)}
        payload["message"]["interaction_metadata"] = {"id": snowflake(), "type": 2, "user": user(asked_by, "asker"),
                                                      "authorizing_integration_owners": owners}  # fmt: skip
    return payload


def modal_submit_interaction(
    custom_id: str, values: dict[str, str], *, user_id: int = PLAYER_ID, guild_id: int = GUILD_ID,
    message_id: str | None = None, message_components: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A form (a modal) sent: MODAL_SUBMIT (type 5) with each text input's custom id and value, in its action row; a
    form opened from a button carries that button's message, as Discord sends it."""
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": name, "value": value}]} for name, value in
            values.items()]  # fmt: skip
    payload = base_interaction(5, {"custom_id": custom_id, "components": rows}, user_id=user_id, guild_id=guild_id)
    if message_id is not None:
        payload["message"] = {"id": message_id, "channel_id": str(channel_of(guild_id)),
                              "author": user(BOT_ID, "Referee", bot=True), "content": "",
                              "timestamp": "2026-11-22T00:00:00+00:00", "edited_timestamp": None, "tts": False,
                              "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
                              "embeds": [], "pinned": False, "type": 0, "flags": 0,
                              "components": message_components or []}  # fmt: skip
    return payload


def base_interaction(
    kind: int, data: dict[str, Any], *, user_id: int, permissions: str = "2147483647", guild_id: int = GUILD_ID
) -> dict[str, Any]:
    return {"id": snowflake(), "application_id": str(APPLICATION_ID), "type": kind, "data": data,
            "guild_id": str(guild_id), "channel_id": str(channel_of(guild_id)),
            "channel": {"id": str(channel_of(guild_id)), "type": 0, "name": "battles", "guild_id": str(guild_id)},
            "member": {"user": user(user_id, f"player{user_id % 1000}"), "roles": [], "permissions": permissions,
                       "joined_at": "2026-11-22T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0},
            "token": f"token-{snowflake()}", "version": 1, "app_permissions": "2147483647", "locale": "en-US",
            "guild_locale": "en-US", "entitlements": [], "attachment_size_limit": 8 * 1024 * 1024,
            "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0}  # fmt: skip
