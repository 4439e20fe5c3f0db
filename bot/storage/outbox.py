"""The outbox: every table notice and tournament announcement, stored before it is sent
(``docs/design.md`` §3, "The outbox").

A :class:`Notice` is stored with the state change that causes it: a move's notices in the action
log's group commit (:meth:`~bot.storage.action_log.ActionLogWriter.append`), a tournament's
announcement in the transaction of the tournament change (:meth:`Outbox.write`, given the
transaction's connection), a notice that changes nothing on its own (:meth:`Outbox.enqueue`). A
sender (``bot/outbox.py``) posts the pending rows in order per target and marks each sent.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Connection, Database

__all__ = ["Notice", "OutboxRow", "Outbox", "TABLE_NOTICE", "ANNOUNCEMENT", "INSERT_NOTICE", "notice_values"]

TABLE_NOTICE = "table"
"""The kind of a notice posted in a table's thread."""

ANNOUNCEMENT = "tournament"
"""The kind of an announcement posted in a tournament's channel."""

INSERT_NOTICE = ("INSERT INTO outbox (kind, target, body, pings, dedup, created_ms, attempts, guild_id)"
                 " VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (dedup) DO NOTHING")
"""The statement that stores one notice (:func:`notice_values`); a dedup key already stored stores nothing."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A message to post once, as it is enqueued.

    Attributes
    ----------
    kind:
        :data:`TABLE_NOTICE` or :data:`ANNOUNCEMENT`.
    target:
        The channel or thread to post in (a snowflake).
    text:
        The message's content, at most 2,000 characters (the caller fits it).
    pings:
        The users (snowflakes) the message may ping; nobody else is pinged, whatever *text* holds.
    dedup:
        A key no other notice may have (``None``: none): a notice enqueued twice with one key is
        stored once (e.g. a round's pairings after a restart re-runs the step that posts them).
    guild_id:
        The server of *target* (a snowflake, ``None`` if unknown): with shards split over processes,
        the process that serves the server's shard posts it.
    """

    kind: str
    target: int
    text: str
    pings: tuple[int, ...] = ()
    dedup: str | None = None
    guild_id: int | None = None


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """A stored notice. Times are Unix milliseconds; ids are Discord snowflakes but :attr:`id`.

    Attributes
    ----------
    id:
        The row's number: the order notices are posted in, per target.
    attempts:
        Tries that failed so far (a 429 discord.py gave up on, a 5xx, a network error).
    sent_ms, message_id:
        When it was posted and the message it made, ``None`` while pending.
    dropped_ms:
        When it left the queue unposted (its target gone), else ``None``.
    """

    id: int
    kind: str
    target: int
    text: str
    pings: tuple[int, ...]
    dedup: str | None
    created_ms: int
    attempts: int
    sent_ms: int | None
    message_id: int | None
    guild_id: int | None
    dropped_ms: int | None

    @property
    def nonce(self) -> str:
        """The Discord ``nonce`` of this row's message (at most 25 characters): a second send of the
        same row within Discord's few minutes returns the first message instead of a new one.
        """
        return f"po{self.id:x}.{self.created_ms:x}"[:25]


def notice_values(notice: Notice, now_ms: int) -> tuple[Any, ...]:
    """The values of :data:`INSERT_NOTICE` for *notice*, enqueued at *now_ms* (Unix ms)."""
    return (notice.kind, notice.target, notice.text, json.dumps([int(u) for u in notice.pings]), notice.dedup,
            now_ms, notice.guild_id)


class Outbox:
    """Every read and write of the ``outbox`` table (see the module's documentation).

    Parameters
    ----------
    database:
        The main connection: reads in one trip, writes in one transaction each.

    Attributes
    ----------
    added:
        Set whenever a notice was committed (by any path): the sender waits on it, then clears it.
    """

    def __init__(self, database: Database) -> None:
        self._db = database
        self.added = asyncio.Event()

    async def enqueue(self, *notices: Notice) -> None:
        """|coro| Store *notices* in one transaction of their own (a notice no state change causes).

        Raises
        ------
        sqlite3.Error
            The write failed: nothing is stored.
        """
        if not notices:
            return
        async with self._db.transaction() as db:
            await self.write(db, notices)
        self.added.set()

    async def write(self, db: Connection, notices: Iterable[Notice]) -> None:
        """|coro| Store *notices* inside the caller's open transaction on *db* (committed, or rolled
        back, with it); the caller sets :attr:`added` once it committed (:meth:`committed`).
        """
        now = self._db.clock()
        rows = [notice_values(n, now) for n in notices]
        if rows:
            await db.executemany(INSERT_NOTICE, rows)

    def clock(self) -> int:
        """The storage's clock: the current Unix time in milliseconds."""
        return self._db.clock()

    def committed(self) -> None:
        """Tell the sender that notices were committed (sets :attr:`added`)."""
        self.added.set()

    async def pending(self, target: int | None = None, *, limit: int = 100) -> list[OutboxRow]:
        """|coro| The rows not sent (nor dropped) yet, oldest first: of *target* only, or of every target."""
        where, args = ("AND target = ?", [target]) if target is not None else ("", [])
        rows = await self._db.rows(f"SELECT * FROM outbox WHERE sent_ms IS NULL AND dropped_ms IS NULL {where}"
                                   " ORDER BY id LIMIT ?", [*args, limit])
        return [_row(r) for r in rows]

    async def pending_targets(self) -> list[tuple[int, int | None]]:
        """|coro| The targets that have pending rows, each with its server (``(target, guild_id)``,
        snowflakes; the server ``None`` if unknown), the one with the oldest row first.
        """
        rows = await self._db.rows("SELECT target, MAX(guild_id) AS guild, MIN(id) AS first FROM outbox"
                                   " WHERE sent_ms IS NULL AND dropped_ms IS NULL GROUP BY target ORDER BY first")
        return [(int(r["target"]), None if r["guild"] is None else int(r["guild"])) for r in rows]

    async def rows(self, *, target: int | None = None) -> list[OutboxRow]:
        """|coro| Every row (sent, dropped or pending), oldest first, of *target* only if given."""
        where, args = ("WHERE target = ?", [target]) if target is not None else ("", [])
        return [_row(r) for r in await self._db.rows(f"SELECT * FROM outbox {where} ORDER BY id", args)]

    async def mark_sent(self, row_id: int, message_id: int) -> None:
        """|coro| Row *row_id* was posted as message *message_id* (now, by the storage's clock)."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE outbox SET sent_ms = ?, message_id = ? WHERE id = ?",
                             (self._db.clock(), message_id, row_id))

    async def mark_failed(self, row_id: int) -> None:
        """|coro| A try of row *row_id* failed (it stays pending): count it."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (row_id,))

    async def drop(self, row_id: int) -> None:
        """|coro| Row *row_id* will never be posted (its target is gone): it leaves the queue (now)."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE outbox SET dropped_ms = ?, attempts = attempts + 1 WHERE id = ?",
                             (self._db.clock(), row_id))

    async def prune(self, older_than_ms: int) -> None:
        """|coro| Forget the rows sent or dropped before *older_than_ms* (Unix ms)."""
        async with self._db.transaction() as db:
            await db.execute("DELETE FROM outbox WHERE sent_ms < ? OR dropped_ms < ?", (older_than_ms, older_than_ms))


def _row(r: Any) -> OutboxRow:
    return OutboxRow(r["id"], r["kind"], r["target"], r["body"], tuple(json.loads(r["pings"])), r["dedup"],
                     r["created_ms"], r["attempts"], r["sent_ms"], r["message_id"], r["guild_id"],
                     r["dropped_ms"])
