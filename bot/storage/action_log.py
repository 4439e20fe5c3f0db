"""The action log's writer: every accepted move committed before its player is told, with group
commit (``docs/design.md`` §3).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.storage.database import Connection, Database
from bot.storage.outbox import INSERT_NOTICE, Notice, Outbox, notice_values
from bot.storage.rows import ActionRow

__all__ = ["ActionLogWriter"]

_ROWS_PER_INSERT = 500
"""Actions written by one statement at most (6 values each, well within SQLite's 32,766 variables)."""


def _insert_actions_sql(rows: int) -> str:
    """The statement that inserts *rows* actions (6 values each)."""
    return ("INSERT INTO actions (game_id, seq, player_id, action, discord_ts_ms, received_at_ms) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?)"] * rows))


class ActionLogWriter:
    """Appends accepted actions to the log, a group of them per commit.

    It owns the queue of actions waiting for the next group, the task that writes that group and
    the use of the log connection; it shares the main connection's :attr:`Database.writing` lock,
    so a move never interleaves with another write on the main connection.

    Parameters
    ----------
    database:
        The main connection (its lock and clock; an in-memory database's actions are written on it).
    log_db:
        A second connection to the same file in autocommit mode (``isolation_level=None``; on
        PostgreSQL an autocommit :class:`~bot.storage.postgres.PgConnection`), for
        the action log only, or ``None`` (an in-memory database, which has no second connection).
        With it a group of actions is one ``INSERT`` statement that commits by itself: one trip
        to the database thread instead of two (the statement, then the commit) on every click's
        path (``docs/design.md`` §3). The writer uses it but does not close it.
    outbox:
        Where a move's notices are stored, in the same commit as the move (``docs/design.md`` §3,
        "The outbox"); ``None``: moves carry no notices.
    """

    def __init__(self, database: Database, log_db: Connection | None, outbox: Outbox | None = None) -> None:
        self.database = database
        self.log_db = log_db
        self.outbox = outbox
        self._notices: dict[int, tuple[Notice, ...]] = {}
        """The notices of the queued rows that carry some, by ``id()`` of the row."""
        self._queued: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._writing = False
        """Whether a group of actions is being written (by its caller, or by :attr:`group_task`)."""
        self._group_task: asyncio.Task[None] | None = None

    @property
    def group_task(self) -> asyncio.Task[None] | None:
        """The task that writes (or last wrote) the queued actions, ``None`` before the first group."""
        return self._group_task

    async def append(self, game_id: int, seq: int, player_id: str, action: dict[str, Any], *,
                     discord_ts_ms: int | None = None, notices: Sequence[Notice] = ()) -> ActionRow:
        """|coro| Append an accepted action and commit before returning.

        Group commit: an action that arrives when no write is under way is written at once by the
        caller's own task (no other task to wait for on a click's path); the actions of every table
        that arrive while a write is under way are written together in the next transaction, so
        one disk flush serves them all and the database keeps up with many busy tables
        (``docs/design.md`` §3). Each caller still returns only once its own action is committed;
        a caller cancelled meanwhile leaves the actions queued behind it to be written all the same.

        Parameters
        ----------
        game_id:
            The game the action belongs to.
        seq:
            The action's number in the game, from 1, gap-free.
        player_id:
            The seat's player id that made the action.
        action:
            The action, stored as JSON (keys sorted).
        discord_ts_ms:
            The Discord timestamp of the interaction (Unix ms), ``None`` for bots and timers.
        notices:
            What the move tells its table (:class:`~bot.storage.outbox.Notice`), stored in the
            outbox in the same commit as the action: both are stored, or neither. A group that
            carries notices is one transaction of several statements; a group without any stays
            the one statement it was (``docs/design.md`` §3, "The outbox").

        Returns
        -------
        ActionRow
            The stored action, with its arrival time (Unix ms, by the database's clock).

        Raises
        ------
        sqlite3.IntegrityError
            *seq* is already taken (a second writer), or the game does not exist; the other
            actions of the same group are committed all the same.
        sqlite3.Error
            The database failed the write (locked, full, gone): the move is not stored.
        RuntimeError
            The group's task was cut short (the database closing): the move may not be stored.
        """
        now = self.database.clock()
        row = (game_id, seq, player_id, json.dumps(action, sort_keys=True), discord_ts_ms, now)
        if notices:
            if self.outbox is None:
                raise ValueError("this action log has no outbox for a move's notices")
            self._notices[id(row)] = tuple(notices)
        if self._writing or self.database.writing.locked():
            # A group is being written, or another write holds the database: join the next group,
            # which a task of its own writes (a caller cancelled meanwhile leaves its row to it).
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._queued.append((row, done))
            if not self._writing:
                self._start_group()
            await done
        else:
            # Nothing under way: the caller takes the free lock without waiting and hands its row to
            # the database thread before its first pause (a file's log connection writes it in one
            # statement), so a cancellation cannot keep it out.
            self._writing = True
            try:
                async with self.database.writing:
                    [error] = await self._write([row])
            finally:
                self._flush_queued()
            if error is not None:
                raise error
        return ActionRow(game_id, seq, player_id, action, discord_ts_ms, now)

    async def drain(self) -> None:
        """|coro| Wait until the queued actions are written (or their group's task ended otherwise).

        A cancelled caller does not cancel the group's write (``asyncio.wait``, not ``await``).
        """
        if self._group_task is not None:
            await asyncio.wait([self._group_task])

    async def _write(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        notices = [self._notices.pop(id(row), ()) for row in rows] if self._notices else []
        if any(notices):
            results = await self._write_with_notices(rows, notices)
            if any(n and r is None for n, r in zip(notices, results, strict=True)) and self.outbox is not None:
                self.outbox.committed()
            return results
        return await (self._insert(rows) if self.log_db is not None else self._insert_and_commit(rows))

    async def _write_with_notices(self, rows: list[tuple[Any, ...]],
                                  notices: list[tuple[Notice, ...]]) -> list[BaseException | None]:
        """Write *rows* and their *notices* (the outbox rows, same order) in one transaction; a bad row
        (:class:`sqlite3.IntegrityError`) sinks it, and then each row goes in a transaction of its
        own with its notices, so one bad row fails only itself and its notices. Returns, per row,
        ``None`` or the error that kept it (and its notices) out.
        """
        try:
            await self._transaction(rows, [n for ns in notices for n in ns])
            return [None] * len(rows)
        except sqlite3.IntegrityError as exc:
            if len(rows) == 1:
                return [exc]
        except Exception as exc:
            return [exc] * len(rows)
        results: list[BaseException | None] = []
        for row, own in zip(rows, notices, strict=True):
            try:
                await self._transaction([row], list(own))
                results.append(None)
            except Exception as one:
                results.append(one)
        return results

    async def _transaction(self, rows: list[tuple[Any, ...]], notices: list[Notice]) -> None:
        """Insert *rows* and *notices* in one transaction (on the log connection when there is one),
        committed, or rolled back whole when anything fails (a cancellation too).
        """
        conn = self.log_db if self.log_db is not None else self.database.conn
        now = self.database.clock()
        try:
            if self.log_db is not None:  # autocommit: the transaction is opened by hand
                await conn.execute("BEGIN")
            await conn.executemany(_insert_actions_sql(1), rows)
            await conn.executemany(INSERT_NOTICE, [notice_values(n, now) for n in notices])
            if self.log_db is not None:
                await conn.execute("COMMIT")
            else:
                await conn.commit()
        except BaseException:
            await conn.rollback()
            raise

    def _flush_queued(self) -> None:
        """After a write: the actions that arrived meanwhile go out as the next group, in a task."""
        if self._queued:
            self._start_group()
        else:
            self._writing = False

    def _start_group(self) -> None:
        """Start the task that writes the queued actions (:meth:`_write_groups`)."""
        self._writing = True
        self._group_task = asyncio.get_running_loop().create_task(self._write_groups(), name="parlor-group-commit")

    async def _write_groups(self) -> None:
        """Commit the queued actions, a group per transaction, until none are left. Cancelled (the
        database closing), it tells every caller still waiting that its move may not be stored.
        """
        group: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        try:
            while self._queued:
                async with self.database.writing:
                    group, self._queued = self._queued, []
                    results = await self._write([row for row, _ in group])
                for (_, done), error in zip(group, results, strict=True):
                    if done.done():  # its caller gave up (cancelled); the row stands or fell all the same
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        except BaseException:
            self._notices.clear()  # their rows are cut short with them
            for _, done in group + self._queued:
                if not done.done():
                    done.set_exception(RuntimeError("the action log's write was cut short: this move may not "
                                                    "be stored"))
            self._queued = []
            raise
        finally:
            self._writing = False

    async def _insert(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        """Write *rows* through the autocommit connection: one statement a chunk, each its own
        transaction; a chunk refused for a bad row (:class:`sqlite3.IntegrityError`) is written again
        row by row, so one bad row fails only itself, while a chunk the database itself failed
        (locked, full, gone) fails whole at once: trying its rows one by one would wait out the busy
        timeout once per row, holding every table's moves. Returns, per row, ``None`` or the error
        that kept it out.
        """
        assert self.log_db is not None
        results: list[BaseException | None] = []
        for start in range(0, len(rows), _ROWS_PER_INSERT):
            chunk = rows[start:start + _ROWS_PER_INSERT]
            try:
                await self.log_db.execute(_insert_actions_sql(len(chunk)), [v for row in chunk for v in row])
                results += [None] * len(chunk)
            except sqlite3.IntegrityError as exc:  # the statement is undone whole: one by one
                if len(chunk) == 1:
                    results.append(exc)
                    continue
                for row in chunk:
                    try:
                        await self.log_db.execute(_insert_actions_sql(1), row)
                        results.append(None)
                    except Exception as one:
                        results.append(one)
            except Exception as exc:
                results += [exc] * len(chunk)
        return results

    async def _insert_and_commit(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        """Write *rows* through the main connection (an in-memory database): one transaction, or row
        by row when a bad row (:class:`sqlite3.IntegrityError`) sank it; any other failure, or a
        cancellation, rolls it back whole. Returns, per row, ``None`` or the error that kept it out.
        """
        db = self.database.conn
        insert = _insert_actions_sql(1)
        try:
            await db.executemany(insert, rows)
            await db.commit()
            return [None] * len(rows)
        except BaseException as exc:
            await db.rollback()
            if not isinstance(exc, Exception):
                raise
            if not isinstance(exc, sqlite3.IntegrityError) or len(rows) == 1:
                return [exc] * len(rows)
        results: list[BaseException | None] = []
        for row in rows:
            try:
                await db.execute(insert, row)
                await db.commit()
                results.append(None)
            except Exception as one:
                await db.rollback()
                results.append(one)
        return results
