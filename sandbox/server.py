"""The loopback Discord: an aiohttp REST v10 + gateway server for the real discord.py client.

``FakeDiscord`` serves ``/api/v10/...`` and ``/gateway`` on 127.0.0.1 (a free port) and keeps
guilds, users, channels, threads, messages, synced commands and interactions in memory, so a
test can drive a real, unmodified ``discord.Client``/``commands.Bot`` (pointed at it with
``sandbox.point_discord_py_at``) the way Discord users would, and assert on what they see.

Units: ``*_ms`` are epoch milliseconds (ints), ``*_s`` / ``seconds`` are seconds (floats).
Source of the Discord behaviour: docs/design.md §8 "Testing against a real client, without
Discord" and "Discord facts that shape the UI", and discord.py 2.7's http.py, gateway.py,
interactions.py, webhook/async_.py and state.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

import yarl
from aiohttp import web

from .driver import DriverMixin
from .emojis import EmojiMixin, FakeEmoji
from .faults import FaultsMixin
from .gateway import GatewayMixin
from .models import (
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionResult,
    RequestRecord,
    make_snowflake,
    now_ms,
)
from .ratelimits import RateLimits
from .rest import RestMixin
from .wire import (
    API_PREFIX,
    JSON,
    GatewayFrame,
    _Fault,
    _Interaction,
    _Session,
)
from .world import WorldMixin


class FakeDiscord(WorldMixin, FaultsMixin, DriverMixin, GatewayMixin, EmojiMixin, RestMixin):
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
        self.application_emojis: dict[int, FakeEmoji] = {}
        """The application's emojis by id (``sandbox/emojis.py``)."""
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
        self.rate_limits: RateLimits | None = None
        """Discord's global and per-route rate limits, when enforced (``enforce_discord_rate_limits``)."""
        self.old_message_edit_cap: int | None = None
        """Edits of messages older than 1 h allowed per channel before 30046, or ``None`` (no cap)."""
        self._old_edits: dict[int, int] = {}
        self._route_table: list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]] | None = None
        self._faults: list[_Fault] = []
        self._slow: list[_Fault] = []
        self._held: list[_Fault] = []
        self._sessions: dict[int, _Session] = {}
        self.shard_count = 1
        """The shard count of the bot's last IDENTIFY; guild ``g`` is served by shard ``(g >> 22) % shard_count``."""
        self.recommended_shards = 1
        """What ``GET /gateway/bot`` recommends (AutoShardedClient asks it when not told)."""
        self._resume_gate = asyncio.Event()
        self._resume_gate.set()
        self._ready = asyncio.Event()
        self._change = asyncio.Event()
        self.change_listeners: list[Callable[[], None]] = []
        """Called (no arguments, synchronously) after every change the fake sees: the web page's push."""
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
        assert server is not None and server.sockets
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


def point_discord_py_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Points the (unmodified) discord.py library at another Discord, process-wide.

    Sets ``discord.http.Route.BASE = api_base`` (``http://host:port/api/v10``) and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)``
    (``ws://host:port/gateway``). Must run before login. Returns the previous values so a
    caller can restore them (see ``sandbox.pointed_at``).
    """
    import discord.gateway
    import discord.http

    from bot.client import apply_api_overrides

    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    apply_api_overrides(api_base, gateway_url)
    return previous
