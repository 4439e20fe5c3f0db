"""The outbox's sender: posts the stored table notices and tournament announcements on Discord
(``docs/design.md`` §3, "The outbox").

One :class:`OutboxSender` per client. It posts each target's pending rows in order (a task per
target with rows, so a thread under a 429 storm holds up no other), marks each sent with the
message it made, retries what Discord or the network failed (429s discord.py gave up on, 5xx,
lost connections) with a growing pause, and drops a row whose target is gone (404, 403) with a log
line. Every message carries the row's ``nonce`` with ``enforce_nonce`` (discord.py sets it with the
nonce): a row sent but not marked (the bot stopped in between) is sent again after a restart and
Discord answers with the first message instead of a second one, within its few minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import aiohttp
import discord

from bot.storage import Storage
from bot.storage.outbox import ANNOUNCEMENT, Notice, Outbox, OutboxRow

__all__ = ["OutboxSender", "Notice", "announcement", "KEEP_SENT_MS", "GIVE_UP_AFTER"]

log = logging.getLogger("parlor.outbox")

KEEP_SENT_MS = 7 * 24 * 3600 * 1000
"""How long a sent (or dropped) row is kept, in ms, before the sender forgets it at start-up."""

GIVE_UP_AFTER = 5
"""Tries of a row that fails with an error that is neither Discord's nor the network's before it is dropped."""


def announcement(channel_id: int, text: str, pings: Sequence[int] = (), dedup: str | None = None, *,
                 guild_id: int | None = None) -> Notice:
    """The outbox row of a tournament announcement: *text* (at most 2,000 characters) in channel
    *channel_id* of server *guild_id* (snowflakes), pinging only the users *pings* (snowflakes).
    """
    return Notice(ANNOUNCEMENT, channel_id, text, tuple(int(u) for u in pings), dedup, guild_id)


class Budget(Protocol):
    """What paces the posts (:class:`bot.tables.budget.RestBudget`)."""

    async def acquire(self, *, urgent: bool = False) -> None:
        """|coro| Return once a request may be made."""


class OutboxSender:
    """Posts the outbox's rows (see the module's documentation).

    Parameters
    ----------
    storage:
        The database whose outbox (:attr:`bot.storage.Storage.outbox`) holds the rows.
    client:
        The discord.py client that posts them (channels from its cache, else partial messageables).
    budget:
        Paces the posts against Discord's global limit (the table service's; each post is urgent).
    mine:
        Whether this process posts for a server (a snowflake, ``None`` if unknown): with shards split
        over processes that share the database, each posts for the servers of its own shards
        (the table registry's ``on_this_shard``). Default: every server.

    Attributes
    ----------
    retry_s:
        The first pause after a failed try, in seconds; each further failure of the same target
        doubles it, up to :attr:`max_retry_s`.
    max_retry_s:
        The longest pause between two tries, in seconds.
    stop_grace_s:
        How long :meth:`stop` lets the pending rows go out before it stops, in seconds (0: at once,
        as a killed process would).
    """

    def __init__(self, storage: Storage, client: discord.Client, budget: Budget | None = None,
                 mine: Callable[[int | None], bool] | None = None) -> None:
        self.storage = storage
        self.client = client
        self.budget = budget
        self.mine = mine or (lambda guild_id: True)
        self.retry_s = 1.0
        self.max_retry_s = 60.0
        self.stop_grace_s = 2.0
        self._task: asyncio.Task[None] | None = None
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        """Targets that got rows while their task was running (it looks again before it ends)."""

    @property
    def outbox(self) -> Outbox:
        """The stored rows (the storage's :class:`~bot.storage.outbox.Outbox`)."""
        return self.storage.outbox

    async def enqueue(self, *notices: Notice) -> None:
        """|coro| Store *notices* on their own (:meth:`bot.storage.outbox.Outbox.enqueue`); they are
        posted once this sender runs.

        Raises
        ------
        sqlite3.Error
            The write failed: nothing is stored.
        """
        await self.outbox.enqueue(*notices)

    def start(self) -> None:
        """Start posting (once the client is ready); a second call does nothing."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="parlor-outbox")

    async def stop(self) -> None:
        """|coro| Stop posting, after giving what is pending up to :attr:`stop_grace_s` seconds to go
        out (the client still connected). What is left stays stored for the next start; a post on its way
        may reach Discord unmarked, and the next start sends it again with its nonce (no second
        message).
        """
        grace_s = self.stop_grace_s
        if self._task is not None and not self._task.done() and self.client.is_ready() and grace_s > 0:
            with contextlib.suppress(Exception):
                self._spawn(await self.outbox.pending_targets())
            busy = [t for t in self._workers.values() if not t.done()]
            if busy:
                await asyncio.wait(busy, timeout=grace_s)
        tasks = [t for t in (self._task, *self._workers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        self._workers.clear()

    async def _run(self) -> None:
        """Wait for the gateway, then start a task for each target with pending rows whenever rows
        are added (:attr:`Outbox.added`).
        """
        await self.client.wait_until_ready()
        with contextlib.suppress(Exception):
            await self.outbox.prune(self.outbox.clock() - KEEP_SENT_MS)
        while True:
            self.outbox.added.clear()
            try:
                self._spawn(await self.outbox.pending_targets())
            except Exception:
                log.exception("could not read the outbox; trying again")
                await asyncio.sleep(self.retry_s)
                continue
            await self.outbox.added.wait()

    def _spawn(self, targets: list[tuple[int, int | None]]) -> None:
        """Start a task for each of *targets* (``(target, guild_id)``) of this process's servers that
        has none; one that has a task looks again before it ends.
        """
        for target, guild_id in targets:
            if not self.mine(guild_id):
                continue
            worker = self._workers.get(target)
            if worker is not None and not worker.done():
                self._again.add(target)
                continue
            self._workers[target] = asyncio.get_running_loop().create_task(
                self._drain_logged(target), name=f"parlor-outbox-{target}")

    async def _drain_logged(self, target: int) -> None:
        """:meth:`_drain`, its failure logged (the next row added for *target* starts it again)."""
        try:
            await self._drain(target)
        except Exception:
            log.exception("the outbox's task for %s failed", target)
            self._workers.pop(target, None)

    async def _drain(self, target: int) -> None:
        """Post *target*'s pending rows in order until none is left; a failed try pauses this target
        (:attr:`retry_s`, doubling) and tries the same row again.
        """
        pause = self.retry_s
        while True:
            try:
                rows = await self.outbox.pending(target, limit=20)
            except Exception:
                log.exception("could not read the outbox of %s; trying again", target)
                rows = None
            if rows == []:
                if target in self._again:
                    self._again.discard(target)
                    continue
                self._workers.pop(target, None)
                return
            for row in rows or []:
                if not await self._post(row):
                    break
                pause = self.retry_s
            else:
                if rows is not None:
                    continue
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.max_retry_s)

    async def _post(self, row: OutboxRow) -> bool:
        """|coro| Post *row* and mark it sent (or drop it: its target is gone); returns ``False`` when
        the try failed and should be made again later.
        """
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in row.pings], everyone=False,
                                           roles=False, replied_user=False) if row.pings \
            else discord.AllowedMentions.none()
        channel: Any = self.client.get_channel(row.target) or self.client.get_partial_messageable(row.target)
        try:
            if self.budget is not None:
                await self.budget.acquire(urgent=True)
            message = await channel.send(row.text, allowed_mentions=mentions, nonce=row.nonce)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("outbox row %s: its %s %s is gone or closed to the bot (%s %s); dropped", row.id,
                        "thread" if row.kind == "table" else "channel", row.target, exc.status, exc.code)
            await self._quietly(self.outbox.drop(row.id))
            return True
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                log.info("outbox row %s for %s: Discord answered %s; trying again later", row.id, row.target,
                         exc.status)
                await self._quietly(self.outbox.mark_failed(row.id))
                return False
            log.warning("outbox row %s for %s: Discord refused it (%s %s: %s); dropped", row.id, row.target,
                        exc.status, exc.code, exc.text)
            await self._quietly(self.outbox.drop(row.id))
            return True
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:
            log.info("outbox row %s for %s: %s; trying again later", row.id, row.target, exc)
            await self._quietly(self.outbox.mark_failed(row.id))
            return False
        except Exception:  # a bug, not Discord: a few tries, then the row leaves the queue
            log.exception("outbox row %s for %s could not be posted", row.id, row.target)
            last = row.attempts + 1 >= GIVE_UP_AFTER
            await self._quietly(self.outbox.drop(row.id) if last else self.outbox.mark_failed(row.id))
            return last
        try:
            await self.outbox.mark_sent(row.id, message.id)
        except Exception:  # sent all the same: the next try's nonce finds the same message
            log.exception("outbox row %s was sent as message %s but could not be marked", row.id, message.id)
            return False
        return True

    @staticmethod
    async def _quietly(write: Any) -> None:
        """|coro| Await a write of the outbox's bookkeeping; a failure is logged (the row stays pending)."""
        try:
            await write
        except Exception:
            log.exception("could not update the outbox")
