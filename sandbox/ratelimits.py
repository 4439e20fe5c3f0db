"""Discord's rate limits, as the loopback Discord can enforce them (off unless a test turns them on).

Discord limits a bot token to 50 requests per second across all routes (the *global* limit),
except interaction endpoints (callbacks and the interaction-token webhooks), and each route to its
own *bucket* per major parameter (a channel, a guild, a webhook). Every answer carries the
bucket's ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket``
headers, which discord.py reads to pace itself; a request over a limit is answered 429 with
``retry_after`` (seconds) and ``global``, ``X-RateLimit-Scope`` and ``Retry-After``.

The bucket sizes below are the documented or commonly observed ones; they are settings of
:class:`RateLimits`, so a test can make them tighter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["RateLimits", "Verdict", "exempt_from_global"]


@dataclass(frozen=True)
class _Route:
    method: str
    pattern: re.Pattern[str]
    name: str
    limit: int
    window_s: float


ROUTES = (
    _Route("POST", re.compile(r"/channels/(\d+)/messages"), "create-message", 5, 5.0),
    _Route("PATCH", re.compile(r"/channels/(\d+)/messages/\d+"), "edit-message", 5, 5.0),
    _Route("DELETE", re.compile(r"/channels/(\d+)/messages/\d+"), "delete-message", 5, 1.0),
    _Route("POST", re.compile(r"/channels/(\d+)/threads"), "create-thread", 10, 10.0),
    _Route("POST", re.compile(r"/channels/(\d+)/messages/\d+/threads"), "create-thread", 10, 10.0),
    _Route("GET", re.compile(r"/channels/(\d+)"), "get-channel", 5, 1.0),
)
"""Per-route buckets: ``(method, path, bucket name, requests, window in seconds)``; the major
parameter is the path's first number. Other routes have a generic bucket of 50 per second."""


def exempt_from_global(path: str) -> bool:
    """Whether a request to *path* (below ``/api/v10``) is outside the global limit: interactions.

    >>> exempt_from_global("/interactions/1/tok/callback"), exempt_from_global("/webhooks/1/tok/messages/@original")
    (True, True)
    >>> exempt_from_global("/channels/5/messages")
    False
    """
    return path.startswith(("/interactions/", "/webhooks/"))


@dataclass(frozen=True)
class Verdict:
    """What the limiter says of one request.

    Attributes
    ----------
    allowed:
        Whether it goes through (else it is answered 429).
    retry_after:
        Seconds until it may be tried again (429 only).
    is_global:
        Whether the global limit refused it.
    headers:
        The ``X-RateLimit-*`` headers of the answer.
    """

    allowed: bool
    retry_after: float = 0.0
    is_global: bool = False
    headers: dict[str, str] = field(default_factory=dict)


class RateLimits:
    """Discord's global and per-route limits over a clock in milliseconds (the loopback's own).

    Parameters
    ----------
    global_per_s:
        Requests per second per bot token outside interactions (Discord: 50).
    """

    def __init__(self, global_per_s: int = 50) -> None:
        self.global_per_s = global_per_s
        self._global: list[float] = []
        self._buckets: dict[tuple[str, str], list[float]] = {}
        self.refused = 0
        """429s answered so far."""
        self.refused_global = 0
        """Of which by the global limit."""

    def check(self, method: str, path: str, now_ms: float) -> Verdict:
        """Count one request to *path* at *now_ms*; the verdict and the headers of its answer."""
        if path.startswith("/interactions/"):  # answering an interaction: one answer each, never limited
            return Verdict(True)
        if path.startswith("/webhooks/"):  # an interaction token's webhook: a bucket of its own per token
            token = path.split("/")[3] if path.count("/") >= 3 else ""
            return self._bucket("interaction-webhook", token, 5, 2000.0, now_ms)
        route = next((r for r in ROUTES if r.method == method and r.pattern.fullmatch(path)), None)
        if route is not None:
            match = route.pattern.fullmatch(path)
            major = match.group(1) if match else ""
            name, limit, window_ms = route.name, route.limit, route.window_s * 1000
        else:
            name, major, limit, window_ms = f"{method} {path.split('/')[1] if '/' in path else path}", "", 50, 1000
        if not exempt_from_global(path):  # a fixed window: the count starts again each whole second
            self._global[:] = [t for t in self._global if t // 1000 == now_ms // 1000]
            if len(self._global) >= self.global_per_s:
                self.refused += 1
                self.refused_global += 1
                retry = max(0.001, (now_ms // 1000 + 1) - now_ms / 1000)
                return Verdict(False, round(retry, 3), True, {"X-RateLimit-Global": "true",
                                                               "X-RateLimit-Scope": "global"})
        verdict = self._bucket(name, major, limit, window_ms, now_ms)
        if verdict.allowed:
            self._global.append(now_ms)
        return verdict

    def _bucket(self, name: str, major: str, limit: int, window_ms: float, now_ms: float) -> Verdict:
        hits = self._buckets.setdefault((name, major), [])
        hits[:] = [t for t in hits if now_ms - t < window_ms]
        if len(hits) >= limit:
            self.refused += 1
            retry = max(0.001, (hits[0] + window_ms - now_ms) / 1000)
            return Verdict(False, round(retry, 3), False, self._headers(name, major, limit, 0, retry, now_ms)
                           | {"X-RateLimit-Scope": "user"})
        hits.append(now_ms)
        reset = (hits[0] + window_ms - now_ms) / 1000
        return Verdict(True, headers=self._headers(name, major, limit, limit - len(hits), reset, now_ms))

    @staticmethod
    def _headers(name: str, major: str, limit: int, remaining: int, reset_after: float,
                 now_ms: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{(now_ms / 1000 + reset_after):.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": name.replace(" ", "-"),  # one hash per route; discord.py adds the major part
        }
