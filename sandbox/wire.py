"""The loopback Discord's shared vocabulary: permission bits, errors, JSON helpers and records."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .models import USE_EXTERNAL_EMOJIS as _USE_EXTERNAL_EMOJIS
from .models import (
    InteractionResult,
)

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

# Permission bits (Discord's numbering).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
USE_EXTERNAL_EMOJIS = _USE_EXTERNAL_EMOJIS
DEFAULT_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | USE_EXTERNAL_EMOJIS | (1 << 31)
    | (1 << 35) | (1 << 36) | (1 << 38)
)
"""Add reactions, view channel, send messages, embed links, attach files, read history, use external
emojis, use app commands, create public/private threads, send messages in threads: what @everyone
has by default."""
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
    status: int = 429
    code: int = 0
    message: str = ""

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
    intents: int = -1  # the IDENTIFY's gateway intents (every bit set until it says)


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
