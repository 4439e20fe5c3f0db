"""One process's budget of REST requests outside interactions (``docs/tables.md``, "Discord's limits").

Discord lets a bot token make 50 requests per second outside interactions (the global limit), and
every public table redraw, notice, thread and channel fetch counts. :class:`RestBudget` is a token
bucket all of them draw from, a little under that limit, so the bot never meets the global 429.
Urgent requests (a table being opened, a notice, a table a person just moved at) are served before
redraws of tables where only bots play; and since every table redraws at most once per interval,
:meth:`RestBudget.redraw_interval` stretches that interval as the number of busy tables grows, so
the redraws alone never need more than their share. Interaction answers (callbacks and the
interaction-token webhooks, which carry the click answers and the live boards) never go through
it: Discord does not count them, and a click must never wait behind a redraw. A second instance
(all of it for redraws) paces the public redraws that go through a click's interaction token:
Discord does not count those either, but each costs the bot CPU that clicks need.

No Discord here; the clock is a parameter, so the budget is tested without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Collection

__all__ = ["RestBudget", "process_share"]


def process_share(per_second: float, shard_count: int, shard_ids: Collection[int]) -> float:
    """The part of the bot's requests per second (``tables.rest_per_second``) one process takes.

    Discord's global limit is per bot token, not per process, so a process running *shard_ids* of
    *shard_count* shards takes ``per_second * len(shard_ids) / shard_count``, and all processes together stay within
    *per_second* (``docs/tables.md``, "Discord's limits"). One process running every shard (no
    *shard_ids*, or *shard_count* 0) takes it all.

    >>> process_share(40, 0, ())
    40.0
    >>> process_share(40, 4, (0, 1)), process_share(40, 4, (2,)), process_share(40, 4, (3,))
    (20.0, 10.0, 10.0)
    """
    if not shard_count or not shard_ids:
        return float(per_second)
    return per_second * len(set(shard_ids)) / shard_count


class RestBudget:
    """A token bucket of *per_second* requests (a burst of an eighth of that), urgent requests first.

    Parameters
    ----------
    per_second:
        Requests per second the bot allows itself outside interactions (``tables.rest_per_second``,
        below Discord's 50 for headroom).
    clock:
        Seconds, monotonic (default :func:`time.monotonic`).
    redraw_share:
        The share of the budget the public redraws of busy tables may use (default
        :attr:`REDRAW_SHARE`; 1.0 for a budget that only redraws).

    Attributes
    ----------
    granted:
        Requests granted so far (for benchmarks and logs).
    """

    REDRAW_SHARE = 0.7
    """The share of the budget the public redraws of busy tables may use; the rest stays free for
    openings, notices and the moves of people."""

    def __init__(self, per_second: float, clock: Callable[[], float] = time.monotonic, *,
                 redraw_share: float = REDRAW_SHARE) -> None:
        if per_second <= 0:
            raise ValueError(f"per_second must be positive, got {per_second}")
        if not 0 < redraw_share <= 1:
            raise ValueError(f"redraw_share must be in (0, 1], got {redraw_share}")
        self.per_second = float(per_second)
        self.redraw_share = float(redraw_share)
        self.burst = max(1.0, self.per_second / 8)
        """Requests that may go at once after a quiet spell: small, so that no whole second (the
        window Discord counts in) ever sees more than ``per_second + burst`` requests."""
        self._clock = clock
        self._tokens = self.burst
        self._stamp = clock()
        self._urgent_waiting = 0
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._normal: deque[asyncio.Future[None]] = deque()
        self._server: asyncio.Task[None] | None = None
        self.granted = 0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    def try_take(self, *, urgent: bool = False) -> float:
        """Take one request now if the bucket allows: ``0.0``, else the seconds to wait before asking again.

        A redraw (not *urgent*) also waits while an urgent request is waiting.

        >>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.5]).__next__
        >>> budget = RestBudget(16, clock=clock)  # a burst of 2, then one every 1/16 s
        >>> budget.try_take(), budget.try_take(), budget.try_take()
        (0.0, 0.0, 0.0625)
        >>> budget.try_take()
        0.0
        """
        self._refill()
        if self._tokens >= 1 and (urgent or not self._urgent_waiting):
            self._tokens -= 1
            self.granted += 1
            return 0.0
        return max(0.001, (1 - self._tokens) / self.per_second)

    async def acquire(self, *, urgent: bool = False) -> None:
        """|coro| Wait for one request's turn: urgent ones first, each kind in the order asked.

        Waiting requests sit in two queues served by one timer, so a thousand tables redrawing at
        once after a restart cost one wake-up per granted request, not one per waiter per tick.
        A request cancelled while waiting leaves its queue; one cancelled just as its turn came
        gives its token back.
        """
        queue = self._urgent if urgent else self._normal
        if not self._urgent and (urgent or not self._normal) and self.try_take(urgent=urgent) == 0:
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(turn)
        if urgent:
            self._urgent_waiting += 1
        if self._server is None or self._server.done():
            self._server = asyncio.create_task(self._serve(), name="parlor-rest-budget")
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # granted as it was cancelled: give it back
                self._tokens += 1
                self.granted -= 1
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(turn)
            raise
        finally:
            if urgent:
                self._urgent_waiting -= 1

    async def _serve(self) -> None:
        """Grant the queued requests one token at a time, urgent ones first, until none waits."""
        while True:
            for queue in (self._urgent, self._normal):
                while queue and queue[0].done():  # cancelled while waiting
                    queue.popleft()
            queue = self._urgent if self._urgent else self._normal
            if not queue:
                return
            wait = self.try_take(urgent=True)
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            queue.popleft().set_result(None)

    def redraw_interval(self, base_s: float, busy_tables: int) -> float:
        """Seconds between two redraws of one public table when *busy_tables* tables change at once.

        At least *base_s* (``tables.redraw_interval_ms``); with many busy tables, long enough that all
        their redraws together use at most its redraw share (:attr:`REDRAW_SHARE` unless told).

        >>> RestBudget(40).redraw_interval(1.2, 10)
        1.2
        >>> round(RestBudget(40).redraw_interval(1.2, 280), 1)
        10.0
        """
        return max(base_s, busy_tables / (self.per_second * self.redraw_share))
