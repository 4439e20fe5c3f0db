"""The main connection and the two ways every part of the storage uses it: a read in one trip, a
write in one transaction (``docs/design.md`` §3).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import aiosqlite

from bot.storage.postgres import PgConnection

__all__ = ["Database", "Connection", "now_ms"]

log = logging.getLogger("parlor.storage")

Connection = aiosqlite.Connection | PgConnection
"""A connection to either backend: aiosqlite's, or :class:`~bot.storage.postgres.PgConnection` (same methods)."""


def now_ms() -> int:
    """The current Unix time in milliseconds (the storage's default clock)."""
    return int(time.time() * 1000)


class Database:
    """The main connection to the database, shared by every part of :class:`~bot.storage.Storage`.

    Parts get it in their constructor and never touch the connection but through
    :meth:`transaction` (a write) and :meth:`rows` / :meth:`row` (a read); the action log's writer
    (:class:`~bot.storage.action_log.ActionLogWriter`) also takes :attr:`writing` around its groups.

    Parameters
    ----------
    conn:
        An open aiosqlite connection (``row_factory`` set to :class:`aiosqlite.Row`), or a
        :class:`~bot.storage.postgres.PgConnection` (rows are then :class:`asyncpg.Record`; both read
        by column name or index).
    clock:
        Returns the current Unix time in milliseconds (tests pass a fake).
    """

    def __init__(self, conn: Connection, clock: Callable[[], int] = now_ms) -> None:
        self.conn = conn
        self.clock = clock
        self.writing = asyncio.Lock()
        """Held by every write from its first statement to its commit: one connection serves every
        table at once, and two writes interleaved on it would commit each other's halves (and
        sqlite3 refuses an ``executemany`` while another statement is pending)."""

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """Hold :attr:`writing` for one transaction on the main connection, which the block gets:
        committed when the block ends, rolled back whole when it raises (a statement failed, the
        commit failed, or the caller was cancelled). A failed write so leaves nothing half-done for
        the next write to commit, and no open transaction holding the database's write lock, for
        which every move (written through the log connection) would wait and then fail. Reads on
        this connection see the block's rows before its commit; the callers' own locks (a table's, a
        tournament's) keep them from acting on rows a rollback then takes back.

        Raises
        ------
        sqlite3.Error
            A statement or the commit failed (after the rollback).
        """
        async with self.writing:
            try:
                yield self.conn
                await self.conn.commit()
            except BaseException:
                try:
                    await self.conn.rollback()
                except Exception:  # the first error is the one to report
                    log.exception("could not roll back a failed write")
                raise

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """|coro| Every row of a query, run and fetched in one trip to the database thread.

        No query stays open between two trips: a read left open on the main connection while the log
        connection commits a move makes this connection's next write fail at once with "database is
        locked" (SQLite's ``SQLITE_BUSY_SNAPSHOT``: its read began before that commit), and the other
        coroutines' writes go through this connection in the meantime.
        """
        return list(await self.conn.execute_fetchall(sql, params))

    async def row(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """|coro| The first row of a query, or ``None`` (see :meth:`rows`)."""
        rows = await self.rows(sql, params)
        return rows[0] if rows else None
