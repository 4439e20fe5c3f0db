"""Injected faults: 429s, slow routes, edit-rate and old-message caps, dropped gateways."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator

from .ratelimits import RateLimits
from .wire import (
    _Fault,
    _Session,
)


class FaultsMixin:
    """What a test injects to make the loopback Discord misbehave as Discord does."""

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

    def fail_route(self, method: str, path_regex: str, *, status: int = 403, code: int = 50013,
                   message: str = "Missing Permissions", times: int = 1) -> None:
        """Answers the next ``times`` matching requests (as :meth:`inject_rate_limit` matches them) with
        Discord's error *status*, JSON error *code* and *message*, as when a permission is missing.
        """
        self._faults.append(_Fault(method.upper(), re.compile(path_regex), times, status=status, code=code,
                                   message=message))

    def slow_route(self, method: str, path_regex: str, seconds: float, *, times: int | None = None) -> None:
        """Delays matching requests by ``seconds`` before handling them (all of them, or the next ``times``)."""
        self._slow.append(_Fault(method.upper(), re.compile(path_regex), times, seconds=seconds))

    def hold_response(self, method: str, path_regex: str, seconds: float, *, times: int | None = 1) -> None:
        """Handles matching requests at once (a message is created) but answers them only after
        ``seconds`` (the next ``times`` of them, or all with ``None``): the bot may stop or crash
        meanwhile, so what it sent is done on Discord while the bot never learns it.
        """
        self._held.append(_Fault(method.upper(), re.compile(path_regex), times, seconds=seconds))

    def enforce_edit_rate(self, edits: int = 5, window_s: float = 5.0) -> None:
        """Answers channel message edits beyond ``edits`` per ``window_s`` per channel with 429s."""
        self.edit_rate_limit = (edits, window_s)

    def enforce_discord_rate_limits(self, global_per_s: int = 50) -> RateLimits:
        """Answers requests the way Discord limits them: ``global_per_s`` requests per second outside
        interactions, and per-route buckets per channel (``sandbox/ratelimits.py``), with Discord's
        ``X-RateLimit-*`` headers on every answer and 429s (``retry_after``, ``global``) beyond.
        Returns the limiter, whose ``refused`` and ``refused_global`` count the 429s.
        """
        self.rate_limits = RateLimits(global_per_s)
        return self.rate_limits

    def cap_old_message_edits(self, edits: int = 0) -> None:
        """Refuses edits of public messages older than 1 hour (fake clock) after ``edits`` of them per
        channel, through the channel or an interaction's token alike (whether Discord caps the
        latter is not documented; the loopback assumes the stricter).

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
