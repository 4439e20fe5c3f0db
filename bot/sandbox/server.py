"""The loopback Discord: an aiohttp REST v10 + gateway server for the real discord.py client.

``FakeDiscord`` serves ``/api/v10/...`` and ``/gateway`` on 127.0.0.1 (a free port) and keeps
guilds, users, channels, threads, messages, synced commands and interactions in memory, so a
test can drive a real, unmodified ``discord.Client``/``commands.Bot`` (pointed at it with
``bot.sandbox.point_discord_py_at``) the way Discord users would, and assert on what they see.

Units: ``*_ms`` are epoch milliseconds (ints), ``*_s`` / ``seconds`` are seconds (floats).
Source of the Discord behaviour: ../shared/DESIGN.md "Testing against a real client, without
Discord" and "Discord facts that shape the UI", and discord.py 2.7's http.py, gateway.py,
interactions.py, webhook/async_.py and state.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from .limits import is_empty_message, validate_message, validate_modal
from .models import (
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    HAS_THREAD,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeUser,
    InteractionResult,
    RequestRecord,
    make_snowflake,
    now_ms,
    snowflake_time_ms,
    walk_components,
)

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

# Permission bits (Discord's numbering).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
DEFAULT_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 36)
    | (1 << 38)
)
"""Add reactions, view channel, send messages, embed links, attach files, read history, use app
commands, create public/private threads, send messages in threads: what @everyone has by default."""
ALL_PERMISSIONS = (1 << 51) - 1
BOT_PERMISSIONS = DEFAULT_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS
"""The bot's role: what @everyone has plus Manage Messages and Manage Threads (not Administrator)."""

JSON = dict[str, Any]


class DiscordHTTPError(Exception):
    """An error answer, shaped like Discord's: HTTP ``status`` and JSON ``body`` (``code``, ``message``)."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None,
                 headers: dict[str, str] | None = None, extra: JSON | None = None) -> None:
        self.status = status
        self.body: JSON = {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors
        if extra:
            self.body.update(extra)
        self.headers = headers or {}
        super().__init__(f"{status} {message} (code {code})")


def _json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with ``Content-Type`` exactly ``application/json`` (discord.py compares it)."""
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)


def invalid_form_body(errors: JSON) -> DiscordHTTPError:
    """Discord's 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": ...}``."""
    return DiscordHTTPError(400, 50035, "Invalid Form Body", errors)


def _not_found(what: str, code: int) -> DiscordHTTPError:
    return DiscordHTTPError(404, code, f"Unknown {what}")


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    remaining: int | None
    retry_after: float = 0.0
    seconds: float = 0.0
    is_global: bool = False

    def matches(self, method: str, path: str) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        return self.method in ("*", method) and self.pattern.fullmatch(path) is not None


@dataclass
class _Connection:
    ws: web.WebSocketResponse
    number: int
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


@dataclass
class _Session:
    id: str
    shard: int = 0
    seq: int = 0
    conn: _Connection | None = None
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=5000))


@dataclass
class _Interaction:
    """The fake's own bookkeeping for one interaction (the test sees ``result``)."""

    result: InteractionResult
    payload: JSON
    sent_loop_time: float
    sent_ms: int
    guild_id: int | None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    deadline_handle: asyncio.TimerHandle | None = None


@dataclass(frozen=True)
class GatewayFrame:
    """One gateway frame the fake sent or received: connection number, direction, op, event name, seq."""

    connection: int
    direction: str
    op: int
    t: str | None
    s: int | None


class FakeDiscord:
    """A loopback Discord for tests and local trials.

    Parameters
    ----------
    token: str
        The bot token the fake accepts (REST ``Authorization: Bot <token>`` and IDENTIFY).
    interaction_deadline_s: float
        How long the bot has for its first interaction response (Discord: 3 s). Later answers
        get 404 Unknown interaction and the interaction is recorded as failed.
    token_lifetime_s: float
        How long an interaction token works for follow-ups and @original edits (Discord: 15 min),
        measured on the fake's clock (see ``advance_clock``).
    heartbeat_interval_ms: int
        The interval sent in HELLO.
    host, port: str, int
        Where to listen; port 0 picks a free one.

    Use ``async with FakeDiscord() as fake:`` or ``await fake.start()`` / ``await fake.stop()``.
    """

    def __init__(self, *, token: str = "parlor-sandbox-token", interaction_deadline_s: float = 3.0,
                 token_lifetime_s: float = 15 * 60.0, heartbeat_interval_ms: int = 41250,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self.token = token
        self.interaction_deadline_s = interaction_deadline_s
        self.enforce_command_permissions = True
        """Refuse (``PermissionError``) a slash command the member may not use, as Discord's client would."""
        self.token_lifetime_s = token_lifetime_s
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.host = host
        self._port = port
        self.clock_offset_ms = 0
        self.application_id = make_snowflake()
        self.bot_user = FakeUser(id=self.application_id, name="Parlor", bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self._interactions: dict[int, _Interaction] = {}
        self._by_token: dict[str, _Interaction] = {}
        self.interactions: list[InteractionResult] = []
        """Every interaction sent, in order."""
        self.edit_log: list[EditRecord] = []
        """Every message edit, in order (see ``edits``)."""
        self.requests: list[RequestRecord] = []
        """Every REST request the bot made, in order."""
        self.errors: list[str] = []
        """Every error the bot caused: 4xx answers other than injected 429s, failed and late
        interactions, unknown routes. A fixture can assert it is empty at teardown."""
        self.gateway_log: list[GatewayFrame] = []
        """Gateway frames, both directions (heartbeats left out)."""
        self.identify_count = 0
        self.resume_count = 0
        self.replayed_count = 0
        """Dispatches re-sent from the buffer on RESUME (ones the bot missed)."""
        self.connection_count = 0
        self.edit_rate_limit: tuple[int, float] | None = None
        """``(edits, window_s)`` per channel enforced with 429s, or ``None`` (off, the default)."""
        self.old_message_edit_cap: int | None = None
        """Edits of messages older than 1 h allowed per channel before 30046, or ``None`` (no cap)."""
        self._old_edits: dict[int, int] = {}
        self._route_table: list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]] | None = None
        self._faults: list[_Fault] = []
        self._slow: list[_Fault] = []
        self._sessions: dict[int, _Session] = {}
        self.shard_count = 1
        """The shard count of the bot's last IDENTIFY; guild ``g`` is served by shard ``(g >> 22) % shard_count``."""
        self.recommended_shards = 1
        """What ``GET /gateway/bot`` recommends (AutoShardedClient asks it when not told)."""
        self._resume_gate = asyncio.Event()
        self._resume_gate.set()
        self._ready = asyncio.Event()
        self._change = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._writers: set[asyncio.Task[None]] = set()
        self._sockets: set[web.WebSocketResponse] = set()
        self._dm_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        """User ids whose DMs are closed: sending them a DM answers 403 (50007)."""

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        """|coro| Starts listening; returns self."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # noqa: S101 - set by start()
        self._port = server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        """|coro| Closes every gateway socket and stops the server."""
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        for task in list(self._writers):
            task.cancel()
        for rec in self._interactions.values():
            if rec.deadline_handle:
                rec.deadline_handle.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        """The TCP port the fake listens on (after ``start``)."""
        return self._port

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:PORT/api/v10``: the value for ``discord.http.Route.BASE``."""
        return f"http://{self.host}:{self._port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:PORT/gateway``: the value for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://{self.host}:{self._port}/gateway"

    def now_ms(self) -> int:
        """The fake's clock in epoch ms: wall clock plus ``advance_clock`` offsets."""
        return now_ms() + self.clock_offset_ms

    def advance_clock(self, seconds: float) -> None:
        """Moves the fake's clock forward (expires interaction tokens without waiting)."""
        self.clock_offset_ms += int(seconds * 1000)

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str = "Test Guild", *, owner: FakeUser | None = None,
                  shard: tuple[int, int] | None = None) -> FakeGuild:
        """Creates a guild the bot is in (dispatches GUILD_CREATE if a bot is connected).

        ``shard=(shard_id, shard_count)`` picks an id that Discord's formula puts on that shard.
        """
        gid = make_snowflake()
        if shard is not None:
            while (gid >> 22) % shard[1] != shard[0]:
                gid = make_snowflake(snowflake_time_ms(gid) + 1)
        owner = owner or self.add_user("owner")
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id, bot_role_id=make_snowflake())
        self.guilds[gid] = guild
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, BOT_PERMISSIONS, role_ids=[guild.bot_role_id])
        guild.members[owner.id] = FakeMember(owner, gid, ALL_PERMISSIONS)
        self._dispatch("GUILD_CREATE", self._guild_payload(guild))
        return guild

    def add_channel(self, guild: FakeGuild, name: str = "general", *, allow_threads: bool = True) -> FakeChannel:
        """Creates a text channel in ``guild`` (dispatches CHANNEL_CREATE if connected).

        ``allow_threads=False`` makes thread creation there answer 403 Missing Permissions.
        """
        channel = FakeChannel(id=make_snowflake(), name=name, type=GUILD_TEXT, guild_id=guild.id,
                              allow_threads=allow_threads, position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._dispatch("CHANNEL_CREATE", channel.to_payload())
        return channel

    def add_user(self, name: str, *, guild: FakeGuild | None = None, permissions: int | None = None,
                 manage_threads: bool = False, manage_guild: bool = False, administrator: bool = False,
                 dms_open: bool = True, roles: list[int] | None = None) -> FakeUser:
        """Creates a user; with ``guild`` also a member there.

        ``permissions`` (Discord's bitfield; default: what @everyone has) is extended by the
        ``manage_threads`` / ``manage_guild`` / ``administrator`` switches. ``dms_open=False``
        makes DMs to this user answer 403 Cannot send messages to this user (50007).
        """
        user = FakeUser(id=make_snowflake(), name=name)
        self.users[user.id] = user
        if not dms_open:
            self.closed_dms.add(user.id)
        if guild is not None:
            self.add_member(guild, user, permissions=permissions, manage_threads=manage_threads,
                            manage_guild=manage_guild, administrator=administrator, roles=roles)
        return user

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> int:
        """Creates a role in ``guild`` (dispatches GUILD_ROLE_CREATE if connected); returns its id.

        Give it to members with ``add_user(..., roles=[id])`` / ``add_member(..., roles=[id])``;
        its permission bits are added to theirs.
        """
        rid = make_snowflake()
        guild.roles[rid] = (name, permissions)
        self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": self._role_payload(guild, rid)})
        return rid

    def _role_payload(self, guild: FakeGuild, rid: int) -> JSON:
        name, perms = guild.roles[rid]
        return {"id": str(rid), "name": name, "permissions": str(perms), "position": 2 + list(guild.roles).index(rid),
                "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None}

    def add_member(self, guild: FakeGuild, user: FakeUser, *, permissions: int | None = None,
                   manage_threads: bool = False, manage_guild: bool = False,
                   administrator: bool = False, roles: list[int] | None = None) -> FakeMember:
        """Makes ``user`` a member of ``guild`` with the given permissions and roles (see ``add_user``)."""
        perms = DEFAULT_PERMISSIONS if permissions is None else permissions
        perms |= (MANAGE_THREADS if manage_threads else 0) | (MANAGE_GUILD if manage_guild else 0)
        perms |= ADMINISTRATOR if administrator else 0
        for rid in roles or []:
            perms |= guild.roles[rid][1]
        member = FakeMember(user, guild.id, perms, role_ids=list(roles or []))
        guild.members[user.id] = member
        self._dispatch("GUILD_MEMBER_ADD", {**member.to_payload(), "guild_id": str(guild.id)})
        return member

    def open_dm(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user``, created on first use (as ``POST /users/@me/channels``)."""
        cid = self._dm_channels.get(user.id)
        if cid is None:
            channel = FakeChannel(id=make_snowflake(), name=f"dm-{user.name}", type=DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self._dm_channels[user.id] = cid = channel.id
        return self.channels[cid]

    def post_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A user writes a plain message in ``channel`` (dispatches MESSAGE_CREATE)."""
        return self._create_message(channel, user, {"content": content})

    # ------------------------------------------------------------------ queries for tests

    def message(self, message_id: int) -> FakeMessage:
        """The stored message with that id (``KeyError`` if none)."""
        return self._messages[message_id]

    def messages(self, channel: FakeChannel | int, *, visible_to: FakeUser | int | None = None,
                 include_deleted: bool = False) -> list[FakeMessage]:
        """Messages of a channel, oldest first.

        With ``visible_to`` the list is what that user sees: public messages plus the ephemeral
        ones addressed to them. Without it, public messages only.
        """
        cid = channel if isinstance(channel, int) else channel.id
        uid = visible_to.id if isinstance(visible_to, FakeUser) else visible_to
        out = []
        for mid in self._channel_messages.get(cid, []):
            msg = self._messages[mid]
            if msg.deleted and not include_deleted:
                continue
            if msg.visible_to is not None and msg.visible_to != uid:
                continue
            out.append(msg)
        return out

    def last_message(self, channel: FakeChannel | int, *, visible_to: FakeUser | int | None = None) -> FakeMessage:
        """The newest message ``visible_to`` sees in the channel (``LookupError`` if none)."""
        msgs = self.messages(channel, visible_to=visible_to)
        if not msgs:
            raise LookupError("no messages in that channel")
        return msgs[-1]

    def threads(self, channel: FakeChannel | int) -> list[FakeChannel]:
        """Threads created under a channel, oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == cid]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the bot's DM channel with ``user`` (empty if none was opened)."""
        cid = self._dm_channels.get(user.id)
        return self.messages(cid, visible_to=user) if cid else []

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The synced command payloads: global ones, or those of ``guild``."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def edits(self, channel: FakeChannel | int | None = None, *, via: str | None = None,
              message: FakeMessage | int | None = None) -> list[EditRecord]:
        """Recorded message edits, optionally of one channel, one door (``"channel"``/``"interaction"``)
        and one message.
        """
        cid = channel if isinstance(channel, int) or channel is None else channel.id
        mid = message if isinstance(message, int) or message is None else message.id
        return [e for e in self.edit_log if (cid is None or e.channel_id == cid) and (via is None or e.via == via)
                and (mid is None or e.message_id == mid)]

    def max_edits_in_window(self, channel: FakeChannel | int, window_s: float = 5.0, *,
                            via: str | None = "channel") -> int:
        """The largest number of edits in the channel within any ``window_s`` span (for rate asserts)."""
        times = [e.at_ms for e in self.edits(channel, via=via)]
        best, lo = 0, 0
        for hi in range(len(times)):
            while times[hi] - times[lo] >= window_s * 1000:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    def check_clean(self, *allowed: str) -> None:
        """Raises ``AssertionError`` listing recorded ``errors`` that match none of the ``allowed`` regexes.

        For fixture teardown: a test that expects, say, a refused thread passes ``r"50013"``.
        """
        unexpected = [e for e in self.errors if not any(re.search(a, e) for a in allowed)]
        if unexpected:
            raise AssertionError("the sandbox recorded errors:\n" + "\n".join(unexpected))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, *, what: str = "") -> Any:
        """|coro| Waits until ``predicate()`` is truthy and returns its value.

        Re-checks after every change the fake sees (and every 20 ms). Raises ``TimeoutError``
        naming ``what`` (or the predicate) after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what or predicate}")
            self._change.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(left, 0.02))

    async def wait_for_ready(self, timeout: float = 10.0) -> None:
        """|coro| Waits until a bot has identified and been sent READY and every GUILD_CREATE.

        discord.py fires ``on_ready`` after its ``guild_ready_timeout`` more (``bot.sandbox.running_bot``
        waits for that too).
        """
        await asyncio.wait_for(self._ready.wait(), timeout)

    @property
    def connected(self) -> bool:
        """True while every shard's session has a gateway connection attached."""
        return bool(self._sessions) and all(s.conn is not None for s in self._sessions.values())

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that serves a guild (DMs: shard 0), by Discord's formula."""
        return (guild_id >> 22) % self.shard_count if guild_id else 0

    # ------------------------------------------------------------------ fault injection

    def inject_rate_limit(self, method: str, path_regex: str, *, retry_after: float = 0.5, times: int = 1,
                          is_global: bool = False) -> None:
        r"""Answers the next ``times`` matching requests with 429 and ``Retry-After``.

        ``method`` is an HTTP method or ``"*"``; ``path_regex`` must match the whole path below
        ``/api/v10`` (e.g. ``r"/channels/\d+/messages"``). The answer carries Discord's body
        (``retry_after``, ``global``) and the ``X-RateLimit-*`` and ``Via`` headers discord.py reads.
        """
        self._faults.append(_Fault(method.upper(), re.compile(path_regex), times, retry_after=retry_after,
                                   is_global=is_global))

    def slow_route(self, method: str, path_regex: str, seconds: float, *, times: int | None = None) -> None:
        """Delays matching requests by ``seconds`` before handling them (all of them, or the next ``times``)."""
        self._slow.append(_Fault(method.upper(), re.compile(path_regex), times, seconds=seconds))

    def enforce_edit_rate(self, edits: int = 5, window_s: float = 5.0) -> None:
        """Answers channel message edits beyond ``edits`` per ``window_s`` per channel with 429s."""
        self.edit_rate_limit = (edits, window_s)

    def cap_old_message_edits(self, edits: int = 0) -> None:
        """Refuses channel edits of messages older than 1 hour (fake clock) after ``edits`` of them per channel.

        The refusal is Discord's 429 with code 30046 ("Maximum number of edits to messages older
        than 1 hour reached") and no ``Via`` header, which discord.py raises as ``HTTPException``
        instead of retrying. Combine with ``advance_clock(3601)`` to test re-posting old tables.
        """
        self.old_message_edit_cap = edits

    def _shard_session(self, shard: int) -> _Session:
        session = self._sessions.get(shard)
        if session is None or session.conn is None:
            raise RuntimeError(f"no gateway connection for shard {shard}")
        return session

    async def drop_gateway(self, code: int = 4000, *, shard: int = 0) -> None:
        """|coro| Closes a shard's gateway socket (close ``code``); the session stays resumable.

        Dispatches made after this call and before the bot RESUMEs are buffered and replayed on
        RESUME from the bot's last seq.
        """
        session = self._sessions.get(shard)
        if session is None or session.conn is None:
            raise RuntimeError("no gateway connection to drop")
        conn, session.conn = session.conn, None
        await conn.ws.close(code=code)

    @contextlib.asynccontextmanager
    async def gateway_down(self, code: int = 4000, *, shard: int = 0) -> AsyncIterator[None]:
        """|coro| ``async with fake.gateway_down(): ...`` keeps the gateway away for the block.

        Drops the connection on entry (as ``drop_gateway``) and holds any RESUME until the block
        ends, so everything dispatched inside the block is certainly missed by the bot and must
        come back by RESUME replay.
        """
        self._resume_gate.clear()
        try:
            await self.drop_gateway(code, shard=shard)
            yield
        finally:
            self._resume_gate.set()

    async def request_reconnect(self, *, shard: int = 0) -> None:
        """|coro| Sends op 7 RECONNECT to a shard; discord.py closes and RESUMEs."""
        self._send_op(self._shard_session(shard), 7, None)

    async def invalidate_session(self, resumable: bool = False, *, shard: int = 0) -> None:
        """|coro| Sends op 9 INVALID_SESSION; with ``resumable=False`` the bot must IDENTIFY anew."""
        self._send_op(self._shard_session(shard), 9, resumable)
        if not resumable:
            del self._sessions[shard]
            self._ready.clear()

    # ------------------------------------------------------------------ interactions (the users' side)

    async def slash(self, user: FakeUser, channel: FakeChannel, command: str, *, created_at_ms: int | None = None,
                    wait: bool = True, options: JSON | None = None, **kwargs: Any) -> InteractionResult:
        """|coro| ``user`` runs a synced slash command in ``channel``.

        ``command`` is the full name with subcommand group / subcommand (``"dutch-blitz new"``);
        options come as keywords or ``options`` (values: str, int, float, bool, FakeUser,
        FakeChannel). The option types are taken from the synced command, so unknown names,
        missing required options and values outside ``choices`` raise ``ValueError`` as
        Discord's client would not send them. ``created_at_ms`` sets the interaction id's
        timestamp (default now). With ``wait`` it returns after the first response or the
        deadline; otherwise at once.
        """
        opts = {**(options or {}), **kwargs}
        data = self._command_data(command, channel.guild_id, opts)
        self._check_command_permissions(user, channel, command)
        return await self._send_interaction(2, user, channel, data, created_at_ms=created_at_ms, wait=wait)

    def _check_command_permissions(self, user: FakeUser, channel: FakeChannel, command: str) -> None:
        """As Discord does (when :attr:`enforce_command_permissions`): a member lacking a command's
        ``default_member_permissions`` cannot run it — Discord's client does not even offer it —
        except administrators and the guild owner; ``"0"`` means administrators only.

        Raises
        ------
        PermissionError
            The member may not use the command.
        """
        guild = self.guilds.get(channel.guild_id or 0)
        if not self.enforce_command_permissions or guild is None:
            return
        cmd = self._find_command(command.split()[0], guild.id)
        needed = cmd.get("default_member_permissions")
        if needed is None:
            return
        member = guild.members[user.id]
        if member.permissions & ADMINISTRATOR or user.id == guild.owner_id:
            return
        bits = int(needed)
        if bits == 0 or member.permissions & bits != bits:
            raise PermissionError(f"{user.name} may not use /{command}: it needs permissions {bits} "
                                  f"(default_member_permissions), the member has {member.permissions}")

    async def autocomplete(self, user: FakeUser, channel: FakeChannel, command: str, focused: str, typed: str, *,
                           created_at_ms: int | None = None, **kwargs: Any) -> InteractionResult:
        """|coro| ``user`` is typing ``typed`` into option ``focused`` of a slash command.

        Sends an autocomplete interaction (type 4) with the other options given as keywords
        (required ones may be missing, as while typing). Returns after the bot's type-8 answer;
        its suggestions are ``result.choices`` (list of ``{"name", "value"}``).
        """
        data = self._command_data(command, channel.guild_id, {**kwargs, focused: typed}, focused=focused)
        return await self._send_interaction(4, user, channel, data, created_at_ms=created_at_ms, wait=True)

    def _command_data(self, command: str, guild_id: int | None, opts: JSON, focused: str | None = None) -> JSON:
        """The ``data`` of an application-command interaction for ``command`` with option values ``opts``."""
        words = command.split()
        cmd = self._find_command(words[0], guild_id)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        resolved: JSON = {}
        defs = cmd.get("options") or []
        holder = data
        for word in words[1:]:
            sub = next((o for o in defs if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: {word!r} is not a subcommand; have {[o['name'] for o in defs]}")
            node: JSON = {"type": sub["type"], "name": word, "options": []}
            holder["options"] = [node]
            holder, defs = node, sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{command} needs a subcommand: one of {[o['name'] for o in defs]}")
        holder["options"] = self._build_options(command, defs, opts, guild_id, resolved, focused=focused)
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(self, user: FakeUser, message: FakeMessage | int, button: str, *,
                    created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` clicks the button (by custom_id, else label) on the message's current version.

        Raises ``LookupError`` for no such button, ``PermissionError`` for an ephemeral message of
        someone else, ``ValueError`` for a disabled or link button (Discord's client cannot click
        those). Other arguments as in ``slash``.
        """
        msg = self._current(message, user)
        info = msg.button(button)
        if info.disabled:
            raise ValueError(f"button {button!r} is disabled")
        if info.custom_id is None:
            raise ValueError(f"button {button!r} is a link button")
        comp = next(c for c in walk_components(msg.components) if c.get("custom_id") == info.custom_id)
        data = {"custom_id": info.custom_id, "component_type": 2, "id": comp.get("id")}
        return await self._component_interaction(user, msg, data, created_at_ms, wait)

    async def select(self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[str], *,
                     created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` picks ``values`` in the select menu ``custom_id`` of the message.

        Values must be among the menu's options (string selects) and their count within
        ``min_values``..``max_values``, else ``ValueError``.
        """
        msg = self._current(message, user)
        menu = next((s for s in msg.selects if s.custom_id == custom_id), None)
        if menu is None:
            raise LookupError(f"no select {custom_id!r} on message {msg.id}; have {[s.custom_id for s in msg.selects]}")
        if menu.disabled:
            raise ValueError(f"select {custom_id!r} is disabled")
        if not menu.min_values <= len(values) <= menu.max_values:
            raise ValueError(f"select {custom_id!r} takes {menu.min_values}..{menu.max_values} values, got {values}")
        if menu.type == 3:
            allowed = [v for _, v in menu.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {allowed}")
        data = {"custom_id": custom_id, "component_type": menu.type, "values": list(values)}
        return await self._component_interaction(user, msg, data, created_at_ms, wait)

    async def submit_modal(self, user: FakeUser, opened_by: InteractionResult, values: dict[str, str], *,
                           created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` fills in and submits the modal the bot answered ``opened_by`` with.

        ``values`` maps each text input's custom_id to its text; inputs left out send their
        pre-filled value (or ''). Raises ``ValueError`` if ``opened_by`` did not open a modal or
        a required input is empty.
        """
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"interaction {opened_by.id} was answered with type {opened_by.response_type}, "
                             "not a modal")
        known = {c.get("custom_id") for c in walk_components(modal.get("components", [])) if c.get("type") == 4}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; has {sorted(known)}")

        def fill(comp: JSON) -> JSON:
            if comp.get("type") == 1:
                return {"type": 1, "components": [fill(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "component": fill(comp["component"])}
            if comp.get("type") == 4:
                value = values.get(comp["custom_id"], comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal input {comp['custom_id']!r} is required")
                return {"type": 4, "custom_id": comp["custom_id"], "value": value}
            return {"type": comp.get("type"), "id": comp.get("id")}

        data = {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal.get("components", [])]}
        channel = self.channels[opened_by.channel_id]
        source = self._messages.get(opened_by.source_message_id or 0)
        return await self._send_interaction(5, user, channel, data, message=source, created_at_ms=created_at_ms,
                                            wait=wait)

    async def wait_for_response(self, result: InteractionResult, timeout: float | None = None) -> InteractionResult:
        """|coro| Waits until the interaction was answered or failed (for ``wait=False`` sends)."""
        await asyncio.wait_for(result._answered.wait(), timeout or self.interaction_deadline_s + 1.0)
        return result

    # ------------------------------------------------------------------ internals: interactions

    def _current(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        mid = message if isinstance(message, int) else message.id
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        if msg.visible_to is not None and msg.visible_to != user.id:
            raise PermissionError(f"message {msg.id} is ephemeral for another user")
        return msg

    async def _component_interaction(self, user: FakeUser, msg: FakeMessage, data: JSON,
                                     created_at_ms: int | None, wait: bool) -> InteractionResult:
        channel = self.channels[msg.channel_id]
        return await self._send_interaction(3, user, channel, data, message=msg, created_at_ms=created_at_ms,
                                            wait=wait)

    def _find_command(self, name: str, guild_id: int | None) -> JSON:
        for cmd in self.guild_commands.get(guild_id or 0, []) + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        have = [c["name"] for c in self.guild_commands.get(guild_id or 0, []) + self.global_commands]
        raise LookupError(f"no synced slash command {name!r}; synced: {have}")

    def _build_options(self, command: str, defs: list[JSON], opts: JSON, guild_id: int | None,
                       resolved: JSON, focused: str | None = None) -> list[JSON]:
        by_name = {o["name"]: o for o in defs}
        unknown = set(opts) - set(by_name)
        if unknown:
            raise ValueError(f"/{command} has no options {sorted(unknown)}; options: {sorted(by_name)}")
        out = []
        for d in defs:
            name = d["name"]
            if name == focused:
                out.append({"type": d["type"], "name": name, "value": str(opts[name]), "focused": True})
                continue
            if name not in opts:
                if d.get("required") and focused is None:
                    raise ValueError(f"/{command} needs option {name!r}")
                continue
            value = opts[name]
            otype = d["type"]
            if otype == 6:
                user = value if isinstance(value, FakeUser) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
                guild = self.guilds.get(guild_id or 0)
                if guild and user.id in guild.members:
                    member = guild.members[user.id].to_payload(with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[str(user.id)] = member
                value = str(user.id)
            elif otype == 7:
                chan = value if isinstance(value, FakeChannel) else self.channels[int(value)]
                resolved.setdefault("channels", {})[str(chan.id)] = {**chan.to_payload(),
                                                                      "permissions": str(ALL_PERMISSIONS)}
                value = str(chan.id)
            elif otype in (8, 9):
                value = str(value)
            elif otype == 4:
                value = int(value)
            elif otype == 10:
                value = float(value)
            elif otype == 5:
                value = bool(value)
            else:
                value = str(value)
            choices = d.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"/{command} option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
            out.append({"type": otype, "name": name, "value": value})
        return out

    async def _send_interaction(self, itype: int, user: FakeUser, channel: FakeChannel, data: JSON, *,
                                message: FakeMessage | None = None, created_at_ms: int | None,
                                wait: bool) -> InteractionResult:
        if self.shard_of(channel.guild_id) not in self._sessions:
            raise RuntimeError(f"no bot session serves shard {self.shard_of(channel.guild_id)} of the fake gateway")
        loop = asyncio.get_running_loop()
        iid = make_snowflake(created_at_ms if created_at_ms is not None else self.now_ms())
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        result = InteractionResult(id=iid, token=token, type=itype, user=user, channel_id=channel.id,
                                   created_at_ms=(iid >> 22) + 1420070400000, sent_at_monotonic=loop.time(),
                                   source_message_id=message.id if message else None)
        guild = self.guilds.get(channel.guild_id or 0)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel": self._channel_payload(channel),
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": "en-US",
            "app_permissions": str(BOT_PERMISSIONS & ~self._deny_of(channel) if channel.guild_id else ALL_PERMISSIONS),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise PermissionError(f"{user.name} is not a member of guild {guild.name}")
            perms = member.permissions
            payload.update(guild_id=str(guild.id), guild_locale="en-US", context=0,
                           guild={"id": str(guild.id), "locale": "en-US", "features": []},
                           member=member.to_payload(with_permissions=True),
                           authorizing_integration_owners={"0": str(guild.id)})
            owner = perms & ADMINISTRATOR or user.id == guild.owner_id
            payload["member"]["permissions"] = str(ALL_PERMISSIONS if owner else perms & ~self._deny_of(channel))
        else:
            payload.update(user=user.to_payload(), context=1,
                           authorizing_integration_owners={"0": str(self.bot_user.id)})
        if message is not None:
            payload["message"] = message.to_payload()
        rec = _Interaction(result=result, payload=payload, sent_loop_time=loop.time(), sent_ms=self.now_ms(),
                           guild_id=channel.guild_id)
        self._interactions[iid] = rec
        self._by_token[token] = rec
        self.interactions.append(result)
        rec.deadline_handle = loop.call_later(self.interaction_deadline_s, self._deadline_passed, rec)
        self._dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.wait_for_response(result)
        return result

    def _deadline_passed(self, rec: _Interaction) -> None:
        result = rec.result
        if result.response_type is None:
            result.failed = True
            msg = (f"This interaction failed: interaction {result.id} (type {result.type}) got no response "
                   f"within {self.interaction_deadline_s} s")
            result.errors.append(msg)
            self.errors.append(msg)
            result._answered.set()
            self._changed()

    # ------------------------------------------------------------------ internals: gateway

    def _changed(self) -> None:
        self._change.set()

    def _deny_of(self, channel: FakeChannel) -> int:
        """What a channel (or a thread's parent) denies @everyone."""
        parent = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        return parent.everyone_deny if parent else 0

    def _channel_payload(self, channel: FakeChannel) -> JSON:
        recipient = self.users.get(channel.recipient_id or 0)
        return channel.to_payload(recipient)

    def _guild_payload(self, guild: FakeGuild) -> JSON:
        members = [m.to_payload() for m in guild.members.values()]
        channels = [self.channels[c].to_payload() for c in guild.channel_ids]
        threads = [c.to_payload() for c in self.channels.values()
                   if c.is_thread and c.guild_id == guild.id and not c.archived]
        everyone = {"id": str(guild.id), "name": "@everyone", "permissions": str(DEFAULT_PERMISSIONS), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                    "unicode_emoji": None}
        bot_role = {**everyone, "id": str(guild.bot_role_id), "name": self.bot_user.name, "position": 1,
                    "permissions": str(BOT_PERMISSIONS), "managed": True, "tags": {"bot_id": str(self.bot_user.id)}}
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [everyone, bot_role, *(self._role_payload(guild, r) for r in guild.roles)],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "joined_at": "2024-01-01T00:00:00+00:00", "large": False,
            "unavailable": False, "member_count": len(members), "members": members, "channels": channels,
            "threads": threads, "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "lazy": True,
        }

    def _log_frame(self, conn: int, direction: str, frame: JSON) -> None:
        if frame.get("op") in (1, 11):
            return
        self.gateway_log.append(GatewayFrame(conn, direction, frame.get("op", -1), frame.get("t"), frame.get("s")))

    def _dispatch(self, event: str, data: Any, *, session: _Session | None = None) -> None:
        """Sends a DISPATCH (op 0), buffering it for RESUME replay.

        It goes to ``session`` if given, else to the session of the shard serving the guild the
        event is about (``guild_id``, or ``id`` for GUILD_CREATE); nowhere if no bot serves it.
        """
        if session is None:
            raw = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
            session = self._sessions.get(self.shard_of(int(raw) if raw else None))
        if session is None:
            return
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        text = json.dumps(frame)
        session.buffer.append((session.seq, text))
        if session.conn is not None:
            self._log_frame(session.conn.number, "out", frame)
            session.conn.queue.put_nowait(text)
        self._changed()

    def _send_op(self, session: _Session, op: int, data: Any) -> None:
        assert session.conn is not None  # noqa: S101 - checked by _shard_session
        frame = {"op": op, "d": data, "s": None, "t": None}
        self._log_frame(session.conn.number, "out", frame)
        session.conn.queue.put_nowait(json.dumps(frame))

    async def _writer(self, conn: _Connection) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.CancelledError):
            while not conn.ws.closed:
                text = await conn.queue.get()
                await conn.ws.send_str(text)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connection_count += 1
        conn = _Connection(ws=ws, number=self.connection_count)
        self._sockets.add(ws)
        writer = asyncio.create_task(self._writer(conn))
        self._writers.add(writer)
        hello = {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
        self._log_frame(conn.number, "out", hello)
        conn.queue.put_nowait(json.dumps(hello))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self._log_frame(conn.number, "in", frame)
                await self._on_frame(conn, frame)
        finally:
            self._sockets.discard(ws)
            for session in self._sessions.values():
                if session.conn is conn:
                    session.conn = None
            await asyncio.sleep(0)
            writer.cancel()
            self._writers.discard(writer)
            self._changed()
        return ws

    async def _on_frame(self, conn: _Connection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            conn.queue.put_nowait(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
        elif op == 2:
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            self.identify_count += 1
            shard, count = data.get("shard") or (0, 1)
            if count != self.shard_count:
                self._sessions.clear()
                self.shard_count = count
            self._sessions[shard] = session = _Session(id=secrets.token_hex(16), shard=shard)
            session.conn = conn
            self._ready.clear()
            mine = [g for g in self.guilds if self.shard_of(g) == shard]
            ready = {
                "v": 10, "user": self.bot_user.to_payload(), "session_id": session.id,
                "resume_gateway_url": self.gateway_url, "session_type": "normal",
                "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [], "relationships": [], "presences": [], "user_settings": {},
                "geo_ordered_rtc_regions": [], "guild_join_requests": [],
            }
            if data.get("shard"):
                ready["shard"] = data["shard"]
            self._dispatch("READY", ready, session=session)
            for gid in mine:
                self._dispatch("GUILD_CREATE", self._guild_payload(self.guilds[gid]), session=session)
            if all(i in self._sessions for i in range(count)):
                self._ready.set()
        elif op == 6:
            await self._resume_gate.wait()
            session = next((x for x in self._sessions.values() if x.id == data.get("session_id")), None)
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            if session is None:
                conn.queue.put_nowait(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                return
            self.resume_count += 1
            last = int(data.get("seq") or 0)
            if session.conn is not None and session.conn is not conn:
                old = session.conn
                session.conn = None
                await old.ws.close(code=4000)
            for seq, text in session.buffer:
                if seq > last:
                    self.replayed_count += 1
                    self._log_frame(conn.number, "out", json.loads(text))
                    conn.queue.put_nowait(text)
            session.conn = conn
            self._dispatch("RESUMED", {}, session=session)
        elif op == 8:
            gid = int(data.get("guild_id", 0)) if isinstance(data.get("guild_id"), str | int) else 0
            guild = self.guilds.get(gid)
            if guild is not None:
                self._dispatch("GUILD_MEMBERS_CHUNK", {  # routed to the guild's shard by guild_id
                    "guild_id": str(gid), "members": [m.to_payload() for m in guild.members.values()],
                    "chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce"),
                })

    # ------------------------------------------------------------------ internals: REST

    @web.middleware
    async def _middleware(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        path = request.path[len(API_PREFIX):]
        method = request.method
        for slow in self._slow:
            if slow.matches(method, path):
                if slow.remaining is not None:
                    slow.remaining -= 1
                await asyncio.sleep(slow.seconds)
        for fault in self._faults:
            if fault.matches(method, path):
                assert fault.remaining is not None  # noqa: S101 - rate-limit faults always count
                fault.remaining -= 1
                self._record(method, path, 429)
                return self._too_many(fault.retry_after, fault.is_global)
        try:
            response = await handler(request)
        except DiscordHTTPError as exc:
            self._record(method, path, exc.status)
            if exc.status != 429 or exc.body.get("code"):
                self.errors.append(f"{exc.status} {method} {path}: {json.dumps(exc.body)}")
                log.info("sandbox answered %s %s with %s: %s", method, path, exc.status, exc.body)
            self._changed()
            return _json_response(exc.body, exc.status, exc.headers)
        self._record(method, path, response.status)
        self._changed()
        return response

    def _record(self, method: str, path: str, status: int) -> None:
        self.requests.append(RequestRecord(method, path, status, self.now_ms()))

    @staticmethod
    def _too_many(retry_after: float, is_global: bool = False) -> web.Response:
        headers = {
            "Retry-After": f"{retry_after:.3f}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": "sandbox-injected",
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return _json_response(body, 429, headers)

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    async def _body(self, request: web.Request) -> Any:
        """The JSON body; for multipart uploads the ``payload_json`` part, with the files under ``_files``."""
        if not request.can_read_body:
            return {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            body = json.loads(raw) if isinstance(raw, str) else {}
            files = {}
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = (value.filename, value.content_type, value.file.read())
            if isinstance(body, dict) and files:
                body["_files"] = files
            return body
        text = await request.text()
        return json.loads(text) if text else {}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX):]
        method = request.method
        if self._route_table is None:
            self._route_table = self._routes()
        for route_method, pattern, handler, auth in self._route_table:
            if route_method != method:
                continue
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if auth:
                self._check_auth(request)
            body = await self._body(request) if method in ("POST", "PUT", "PATCH") else {}
            result = await handler(request, body, *match.groups())
            if isinstance(result, web.StreamResponse):
                return result
            if result is None:
                return web.Response(status=204)
            return _json_response(result)
        raise DiscordHTTPError(404, 0, f"404: Not Found (the sandbox has no route {method} {path})")

    def _routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]]:
        r = re.compile
        return [
            ("GET", r(r"/users/@me"), self._get_me, True),
            ("GET", r(r"/users/(\d+)"), self._get_user, True),
            ("GET", r(r"/oauth2/applications/@me"), self._get_application, True),
            ("GET", r(r"/applications/@me"), self._get_application, True),
            ("GET", r(r"/gateway(?:/bot)?"), self._get_gateway, False),
            ("PUT", r(r"/applications/(\d+)/commands"), self._put_commands, True),
            ("GET", r(r"/applications/(\d+)/commands"), self._get_commands, True),
            ("PUT", r(r"/applications/(\d+)/guilds/(\d+)/commands"), self._put_commands, True),
            ("GET", r(r"/applications/(\d+)/guilds/(\d+)/commands"), self._get_commands, True),
            ("GET", r(r"/channels/(\d+)"), self._get_channel, True),
            ("PATCH", r(r"/channels/(\d+)"), self._patch_channel, True),
            ("DELETE", r(r"/channels/(\d+)"), self._delete_channel, True),
            ("GET", r(r"/guilds/(\d+)"), self._get_guild, True),
            ("GET", r(r"/guilds/(\d+)/channels"), self._get_guild_channels, True),
            ("GET", r(r"/guilds/(\d+)/members/(\d+)"), self._get_member, True),
            ("GET", r(r"/guilds/(\d+)/threads/active"), self._get_active_threads, True),
            ("POST", r(r"/channels/(\d+)/messages"), self._post_message, True),
            ("GET", r(r"/channels/(\d+)/messages"), self._get_history, True),
            ("GET", r(r"/channels/(\d+)/messages/(\d+)"), self._get_message, True),
            ("PATCH", r(r"/channels/(\d+)/messages/(\d+)"), self._patch_message, True),
            ("DELETE", r(r"/channels/(\d+)/messages/(\d+)"), self._delete_message, True),
            ("POST", r(r"/channels/(\d+)/typing"), self._typing, True),
            ("POST", r(r"/channels/(\d+)/messages/(\d+)/threads"), self._thread_from_message, True),
            ("POST", r(r"/channels/(\d+)/threads"), self._thread_standalone, True),
            ("PUT", r(r"/channels/(\d+)/thread-members/(@me|\d+)"), self._add_thread_member, True),
            ("DELETE", r(r"/channels/(\d+)/thread-members/(@me|\d+)"), self._remove_thread_member, True),
            ("POST", r(r"/users/@me/channels"), self._open_dm, True),
            ("POST", r(r"/interactions/(\d+)/([^/]+)/callback"), self._callback, False),
            ("POST", r(r"/webhooks/(\d+)/([^/]+)"), self._followup, False),
            ("GET", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_get, False),
            ("PATCH", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_patch, False),
            ("DELETE", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_delete, False),
        ]

    # --- users, application, gateway, commands

    async def _get_me(self, request: web.Request, body: JSON) -> JSON:
        return {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False, "email": None,
                "locale": "en-US"}

    async def _get_user(self, request: web.Request, body: JSON, uid: str) -> JSON:
        user = self.users.get(int(uid))
        if user is None:
            raise _not_found("User", 10013)
        return user.to_payload()

    async def _get_application(self, request: web.Request, body: JSON) -> JSON:
        owner = FakeUser(id=self.application_id - 1, name="sandbox-owner")
        return {
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None,
            "description": "Parlor in the sandbox", "rpc_origins": [], "bot_public": True,
            "bot_require_code_grant": False, "owner": owner.to_payload(), "summary": "",
            "verify_key": "0" * 64, "team": None, "flags": 0, "tags": [], "install_params": None,
            "custom_install_url": None, "terms_of_service_url": None, "privacy_policy_url": None,
            "interactions_endpoint_url": None, "redirect_uris": [], "approximate_guild_count": len(self.guilds),
            "bot": self.bot_user.to_payload(), "integration_types_config": {},
        }

    async def _get_gateway(self, request: web.Request, body: JSON) -> JSON:
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}

    async def _put_commands(self, request: web.Request, body: Any, app_id: str, guild_id: str | None = None) -> Any:
        if int(app_id) != self.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if not isinstance(body, list):
            raise invalid_form_body({"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "Only iterables may be used"
                                                  " in a ListType"}]})
        errors: JSON = {}
        for i, cmd in enumerate(body):
            name = cmd.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                errors.setdefault(str(i), {})["name"] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME",
                                                                     "message": "Command name is invalid"}]}
            if cmd.get("type", 1) == 1 and not 1 <= len(cmd.get("description", "")) <= 100:
                errors.setdefault(str(i), {})["description"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                                            "message": "Must be between 1 and 100 in"
                                                                                       " length."}]}
            if len(cmd.get("options") or []) > 25:
                errors.setdefault(str(i), {})["options"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                                        "message": "Must be 25 or fewer in length."}]}
        if errors:
            raise invalid_form_body(errors)
        old = self.global_commands if guild_id is None else self.guild_commands.get(int(guild_id), [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored = []
        for cmd in body:
            full = {
                "type": 1, "description": "", "options": [], "default_member_permissions": None,
                "dm_permission": True, "nsfw": False, **cmd,
                "id": old_ids.get((cmd["name"], cmd.get("type", 1))) or str(make_snowflake()),
                "application_id": str(self.application_id), "version": str(make_snowflake()),
            }
            if guild_id is not None:
                full["guild_id"] = guild_id
            stored.append(full)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[int(guild_id)] = stored
        return stored

    async def _get_commands(self, request: web.Request, body: JSON, app_id: str, guild_id: str | None = None) -> Any:
        return self.global_commands if guild_id is None else self.guild_commands.get(int(guild_id), [])

    # --- guilds and channels

    def _channel(self, cid: str | int) -> FakeChannel:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise _not_found("Channel", 10003)
        return channel

    async def _get_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        return self._channel_payload(self._channel(cid))

    async def _patch_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        if "name" in body:
            channel.name = body["name"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        payload = self._channel_payload(channel)
        self._dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
        return payload

    async def _delete_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        payload = self._channel_payload(channel)
        del self.channels[channel.id]
        if channel.is_thread:
            self._dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                             "parent_id": str(channel.parent_id), "type": channel.type})
        else:
            self._dispatch("CHANNEL_DELETE", payload)
        return payload

    def _guild(self, gid: str) -> FakeGuild:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise _not_found("Guild", 10004)
        return guild

    async def _get_guild(self, request: web.Request, body: JSON, gid: str) -> JSON:
        payload = self._guild_payload(self._guild(gid))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return payload

    async def _get_guild_channels(self, request: web.Request, body: JSON, gid: str) -> list[JSON]:
        return [self.channels[c].to_payload() for c in self._guild(gid).channel_ids]

    async def _get_member(self, request: web.Request, body: JSON, gid: str, uid: str) -> JSON:
        member = self._guild(gid).members.get(int(uid))
        if member is None:
            raise _not_found("Member", 10007)
        return member.to_payload()

    async def _get_active_threads(self, request: web.Request, body: JSON, gid: str) -> JSON:
        guild = self._guild(gid)
        threads = [c.to_payload() for c in self.channels.values()
                   if c.is_thread and c.guild_id == guild.id and not c.archived]
        return {"threads": threads, "members": []}

    async def _typing(self, request: web.Request, body: JSON, cid: str) -> None:
        self._channel(cid)
        return None

    # --- messages

    def _store(self, msg: FakeMessage) -> FakeMessage:
        self._messages[msg.id] = msg
        self._channel_messages.setdefault(msg.channel_id, []).append(msg.id)
        return msg

    @staticmethod
    def _assign_component_ids(components: list[JSON]) -> list[JSON]:
        """Numbers components 1, 2, … depth first where the bot gave no ``id``, as Discord does."""
        comps = json.loads(json.dumps(components or []))
        used = {c["id"] for c in walk_components(comps) if isinstance(c.get("id"), int)}
        n = 0
        for comp in walk_components(comps):
            if not isinstance(comp.get("id"), int):
                n += 1
                while n in used:
                    n += 1
                comp["id"] = n
        return comps

    def _check_message_body(self, body: JSON, *, partial: bool = False, flags: int = 0) -> None:
        errors = validate_message(body, partial=partial, flags=flags)
        if errors:
            raise invalid_form_body(errors)
        if not partial and is_empty_message(body):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")

    def _create_message(self, channel: FakeChannel, author: FakeUser, body: JSON, *, visible_to: int | None = None,
                        interaction: _Interaction | None = None, extra_flags: int = 0,
                        validate: bool = True) -> FakeMessage:
        if validate:
            self._check_message_body(body)
        flags = int(body.get("flags") or 0) | extra_flags
        embeds = list(body.get("embeds") or [])
        if body.get("embed"):
            embeds.append(body["embed"])
        msg = FakeMessage(
            id=make_snowflake(self.now_ms()), channel_id=channel.id, guild_id=channel.guild_id, author=author,
            content=body.get("content") or "", embeds=embeds,
            components=self._assign_component_ids(body.get("components") or []), flags=flags,
            visible_to=visible_to if flags & EPHEMERAL else None, created_ms=self.now_ms(),
        )
        self._attach(msg, body)
        if interaction is not None:
            msg.interaction_id = interaction.result.id
            msg.interaction_user_id = interaction.result.user.id
            msg.interaction_type = interaction.result.type
            msg.webhook_id = self.application_id
        self._store(msg)
        if not msg.ephemeral:
            self._dispatch("MESSAGE_CREATE", self._message_event(msg))
        self._changed()
        return msg

    def _attach(self, msg: FakeMessage, body: JSON) -> None:
        """Stores the files of a multipart upload on ``msg`` as Discord attachments."""
        files = body.get("_files") or {}
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        for field_name, (filename, content_type, data) in files.items():
            index = re.search(r"\d+", field_name)
            meta = described.get(index.group() if index else "", {})
            aid = make_snowflake(self.now_ms())
            url = f"http://{self.host}:{self._port}/attachments/{msg.channel_id}/{aid}/{filename}"
            msg.attachments.append({"id": str(aid), "filename": filename, "size": len(data), "url": url,
                                    "proxy_url": url, "content_type": content_type,
                                    "description": meta.get("description")})
            msg.files[filename] = data

    def _message_event(self, msg: FakeMessage) -> JSON:
        payload = msg.to_payload()
        guild = self.guilds.get(msg.guild_id or 0)
        if guild is not None and msg.author.id in guild.members:
            member = guild.members[msg.author.id].to_payload()
            member.pop("user")
            payload["member"] = member
        return payload

    def _apply_edit(self, msg: FakeMessage, body: JSON, via: str) -> FakeMessage:
        self._check_message_body(body, partial=True, flags=msg.flags)
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = self._assign_component_ids(body["components"] or [])
        if "attachments" in body or "_files" in body:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            msg.attachments = [a for a in msg.attachments if a["id"] in keep]
            self._attach(msg, body)
        if body.get("flags") is not None:  # ephemerality is fixed when a message is created
            msg.flags = (msg.flags & (EPHEMERAL | HAS_THREAD)) | (int(body["flags"]) & ~EPHEMERAL)
        msg.flags &= ~LOADING
        msg.edited_ms = self.now_ms()
        self.edit_log.append(EditRecord(msg.edited_ms, msg.channel_id, msg.id, via))
        if not msg.ephemeral:
            self._dispatch("MESSAGE_UPDATE", self._message_event(msg))
        self._changed()
        return msg

    def post_bot_message(self, channel: FakeChannel, content: str, *,
                         buttons: Sequence[tuple[str, str]] = ()) -> FakeMessage:
        """A message from the bot with buttons ``(label, custom_id)`` the bot may not know, e.g. a board
        of an older version still in a channel's history (for tests of stale or garbled custom ids).
        """
        row = {"type": 1, "components": [{"type": 2, "style": 2, "label": label, "custom_id": cid}
                                          for label, cid in buttons]}
        body = {"content": content, "components": [row] if buttons else []}
        return self._create_message(channel, self.bot_user, body)

    def delete_message(self, message: FakeMessage | int) -> None:
        """Deletes a message as a user or moderator would (dispatches MESSAGE_DELETE); later edits of
        it answer 404 Unknown Message (10008), as on Discord.
        """
        self._delete(self.message(message if isinstance(message, int) else message.id))

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch("MESSAGE_DELETE", data)
        self._changed()

    def _channel_message(self, cid: str, mid: str) -> FakeMessage:
        channel = self._channel(cid)
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise _not_found("Message", 10008)
        return msg

    async def _post_message(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        if channel.type == DM and channel.recipient_id in self.closed_dms:
            raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived and channel.locked:
            raise DiscordHTTPError(400, 50083, "Thread is archived")
        if body.get("flags", 0) & EPHEMERAL:
            body = {**body, "flags": body["flags"] & ~EPHEMERAL}
        return self._create_message(channel, self.bot_user, body).to_payload()

    async def _get_history(self, request: web.Request, body: JSON, cid: str) -> list[JSON]:
        channel = self._channel(cid)
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = [m for m in self.messages(channel) if not m.ephemeral]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])][:limit]
        if "around" in request.query:
            around = int(request.query["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + limit % 2):]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        return [m.to_payload() for m in reversed(msgs[-limit:])]

    async def _get_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        return self._channel_message(cid, mid).to_payload()

    async def _patch_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        msg = self._channel_message(cid, mid)
        if msg.author.id != self.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        if self.edit_rate_limit is not None:
            limit, window = self.edit_rate_limit
            now = self.now_ms()
            recent = [e.at_ms for e in self.edits(msg.channel_id, via="channel") if now - e.at_ms < window * 1000]
            if len(recent) >= limit:
                retry = max(0.001, (recent[-limit] + window * 1000 - now) / 1000)
                return self._too_many(round(retry, 3))
        if self.old_message_edit_cap is not None and self.now_ms() - msg.created_ms > 3600 * 1000:
            used = self._old_edits.get(msg.channel_id, 0)
            if used >= self.old_message_edit_cap:
                raise DiscordHTTPError(429, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                       "Try again later.", extra={"retry_after": 60.0, "global": False})
            self._old_edits[msg.channel_id] = used + 1
        return self._apply_edit(msg, body, "channel").to_payload()

    async def _delete_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> None:
        self._delete(self._channel_message(cid, mid))
        return None

    # --- threads

    def _new_thread(self, parent: FakeChannel, name: str, ttype: int, thread_id: int | None = None) -> FakeChannel:
        if parent.is_thread or parent.type == DM:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        if not parent.allow_threads:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        if not 1 <= len(name or "") <= 100:
            raise invalid_form_body({"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                          "message": "Must be between 1 and 100 in length."}]}})
        thread = FakeChannel(id=thread_id or make_snowflake(self.now_ms()), name=name, type=ttype,
                             guild_id=parent.guild_id, parent_id=parent.id, owner_id=self.bot_user.id,
                             thread_member_ids={self.bot_user.id}, created_ms=self.now_ms())
        self.channels[thread.id] = thread
        self._dispatch("THREAD_CREATE", {**thread.to_payload(), "newly_created": True})
        return thread

    async def _thread_from_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        parent = self._channel(cid)
        msg = self._channel_message(cid, mid)
        if msg.thread_id is not None:
            raise DiscordHTTPError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(parent, body.get("name", ""), PUBLIC_THREAD, thread_id=msg.id)
        msg.thread_id = thread.id
        msg.flags |= HAS_THREAD
        return thread.to_payload()

    async def _thread_standalone(self, request: web.Request, body: JSON, cid: str) -> JSON:
        parent = self._channel(cid)
        ttype = int(body.get("type") or PRIVATE_THREAD)
        return self._new_thread(parent, body.get("name", ""), ttype).to_payload()

    def _member_id(self, uid: str) -> int:
        return self.bot_user.id if uid == "@me" else int(uid)

    async def _add_thread_member(self, request: web.Request, body: JSON, cid: str, uid: str) -> None:
        thread = self._channel(cid)
        if not thread.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        thread.thread_member_ids.add(self._member_id(uid))
        self._changed()
        return None

    async def _remove_thread_member(self, request: web.Request, body: JSON, cid: str, uid: str) -> None:
        thread = self._channel(cid)
        thread.thread_member_ids.discard(self._member_id(uid))
        self._changed()
        return None

    async def _open_dm(self, request: web.Request, body: JSON) -> JSON:
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise _not_found("User", 10013)
        return self._channel_payload(self.open_dm(user))

    # --- interaction callbacks and webhooks

    def _interaction_for(self, iid: str, token: str) -> _Interaction:
        rec = self._interactions.get(int(iid))
        if rec is None or rec.result.token != token:
            raise _not_found("interaction", 10062)
        return rec

    def _token_rec(self, app_id: str, token: str) -> _Interaction:
        rec = self._by_token.get(token)
        if rec is None or int(app_id) != self.application_id:
            raise _not_found("Webhook", 10015)
        if self.now_ms() - rec.sent_ms > self.token_lifetime_s * 1000:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        return rec

    async def _callback(self, request: web.Request, body: JSON, iid: str, token: str) -> Any:
        rec = self._interaction_for(iid, token)
        result = rec.result
        loop = asyncio.get_running_loop()
        late = loop.time() - rec.sent_loop_time
        if result.response_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if late > self.interaction_deadline_s or self.now_ms() - rec.sent_ms > self.token_lifetime_s * 1000:
            note = (f"late first response to interaction {result.id}: {late:.3f} s after it was sent "
                    f"(deadline {self.interaction_deadline_s} s)")
            result.errors.append(note)
            result.failed = True
            self.errors.append(note)
            raise _not_found("interaction", 10062)
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        channel = self.channels[result.channel_id]
        source = self._messages.get(result.source_message_id or 0)
        message: FakeMessage | None = None
        if ctype == 4:
            message = self._create_message(channel, self.bot_user, data, visible_to=result.user.id, interaction=rec)
            rec.original_message_id = message.id
        elif ctype == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            message = self._create_message(channel, self.bot_user, {}, visible_to=result.user.id, interaction=rec,
                                           extra_flags=flags | LOADING, validate=False)
            rec.original_message_id = message.id
        elif ctype in (6, 7):
            if source is None:
                raise DiscordHTTPError(400, 50035, "Invalid Form Body", {
                    "type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                          "message": "Interaction response type is invalid for this interaction"}]}})
            rec.original_message_id = source.id
            message = source
            if ctype == 7:
                message = self._apply_edit(source, data, "interaction")
        elif ctype == 8:
            if result.type != 4:
                raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                               "message": "Only autocomplete takes choices"}]}})
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise invalid_form_body({"data": {"choices": {"_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}})
            result.choices = choices
        elif ctype == 9:
            if result.type == 5:
                raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                               "message": "A modal cannot answer a modal submit"}]}})
            errors = validate_modal(data)
            if errors:
                raise invalid_form_body(errors)
            result.modal = data
        else:
            raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                           "message": f"Unsupported response type {ctype}"}]}})
        if rec.deadline_handle is not None:
            rec.deadline_handle.cancel()
        result.response_type = ctype
        result.response_at_ms = self.now_ms()
        result.message = message
        result._answered.set()
        self._changed()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        info: JSON = {"id": str(result.id), "type": result.type}
        answer: JSON = {"interaction": info}
        if message is not None:
            info.update(response_message_id=str(message.id), response_message_loading=message.loading,
                        response_message_ephemeral=message.ephemeral)
            if ctype in (4, 5, 7):
                answer["resource"] = {"type": ctype, "message": message.to_payload()}
        return answer

    async def _followup(self, request: web.Request, body: JSON, app_id: str, token: str) -> Any:
        rec = self._token_rec(app_id, token)
        result = rec.result
        if result.response_type is None:
            raise _not_found("Webhook", 10015)
        original = self._messages.get(rec.original_message_id or 0)
        if result.response_type == 5 and original is not None and original.loading and not rec.followup_ids:
            self._check_message_body(body)
            msg = self._apply_edit(original, body, "interaction")
        else:
            channel = self.channels[result.channel_id]
            msg = self._create_message(channel, self.bot_user, body, visible_to=result.user.id, interaction=rec)
        rec.followup_ids.append(msg.id)
        result.followups.append(msg)
        self._changed()
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.to_payload()
        return None

    def _webhook_message(self, rec: _Interaction, which: str) -> FakeMessage:
        mid = rec.original_message_id if which == "@original" else int(which)
        if mid is None or (which != "@original" and mid not in rec.followup_ids and mid != rec.original_message_id):
            raise _not_found("Message", 10008)
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise _not_found("Message", 10008)
        return msg

    async def _webhook_get(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> JSON:
        return self._webhook_message(self._token_rec(app_id, token), which).to_payload()

    async def _webhook_patch(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> JSON:
        rec = self._token_rec(app_id, token)
        msg = self._apply_edit(self._webhook_message(rec, which), body, "interaction")
        if rec.result.message is None and which == "@original":
            rec.result.message = msg
        return msg.to_payload()

    async def _webhook_delete(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> None:
        rec = self._token_rec(app_id, token)
        self._delete(self._webhook_message(rec, which))
        return None


def point_discord_py_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Points the (unmodified) discord.py library at another Discord, process-wide.

    Sets ``discord.http.Route.BASE = api_base`` (``http://host:port/api/v10``) and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)``
    (``ws://host:port/gateway``). Must run before login. Returns the previous values so a
    caller can restore them (see ``bot.sandbox.pointed_at``).
    """
    import discord.gateway
    import discord.http

    from bot.client import apply_api_overrides

    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    apply_api_overrides(api_base, gateway_url)
    return previous
