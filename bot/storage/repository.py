"""The repository: every read and write of Parlor's database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.storage.migrations import migrate

__all__ = ["Storage", "GameRow", "SeatRow", "ActionRow", "SnapshotRow", "LiveGame", "GAME_STATUSES", "TournamentRow",
           "EntrantRow", "MatchRow", "RoundRow"]

GAME_STATUSES = ("lobby", "running", "finished", "cancelled")

log = logging.getLogger("parlor.storage")

_ROWS_PER_INSERT = 500
"""Actions written by one statement at most (6 values each, well within SQLite's 32,766 variables)."""


def _insert_actions_sql(rows: int) -> str:
    """The statement that inserts *rows* actions (6 values each)."""
    return ("INSERT INTO actions (game_id, seq, player_id, action, discord_ts_ms, received_at_ms) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?)"] * rows))


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game (one table). Times are Unix milliseconds; ids are Discord snowflakes."""

    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    host_id: int | None
    options: dict[str, Any]
    seed: int
    status: str
    created_at: int
    updated_at: int
    finished_at: int | None
    settings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat: exactly one of ``user_id`` (a Discord user) and ``bot_name`` is set."""

    game_id: int
    seat: int
    player_id: str
    user_id: int | None
    bot_name: str | None
    joined_at: int
    name: str | None = None
    """The display name the seat had at the table (``None`` for seats stored before names were)."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An accepted action: ``seq`` from 1, the Discord timestamp and arrival time in Unix ms."""

    game_id: int
    seq: int
    player_id: str
    action: dict[str, Any]
    discord_ts_ms: int | None
    received_at_ms: int


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """A running game's latest snapshot: its state after action number ``seq`` (``state``, bytes that
    only the code named ``code`` reads), taken at ``taken_at`` (Unix ms).
    """

    game_id: int
    seq: int
    code: str
    state: bytes
    taken_at: int


@dataclass(frozen=True, slots=True)
class LiveGame:
    """What a restart needs of one unfinished game (:meth:`Storage.live_games`): the game, its seats
    in seat order, its latest snapshot (or ``None``) and, with a snapshot, the actions after it
    (``tail``; without one the tail is empty: the whole log is read with :meth:`Storage.actions`).
    """

    game: GameRow
    seats: list[SeatRow]
    snapshot: SnapshotRow | None
    tail: list[ActionRow]


class Storage:
    """The database of one Parlor process.

    Use as ``async with Storage.open(path) as storage:``; opening creates the file if needed,
    turns on WAL and foreign keys and applies missing migrations.

    Parameters
    ----------
    db:
        An open aiosqlite connection.
    clock:
        Returns the current Unix time in milliseconds (tests pass a fake).
    log_db:
        A second connection to the same file in autocommit mode (``isolation_level=None``), for
        the action log only, or ``None`` (an in-memory database, which has no second connection).
        With it a group of actions is one ``INSERT`` statement that commits by itself: one trip
        to the database thread instead of two (the statement, then the commit) on every click's
        path (``docs/design.md`` §3).
    """

    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], int] = _now_ms, *,
                 log_db: aiosqlite.Connection | None = None) -> None:
        self.db = db
        self.clock = clock
        self.log_db = log_db
        self.writing = asyncio.Lock()
        """Held by every write from its first statement to its commit: one connection serves every
        table at once, and two writes interleaved on it would commit each other's halves (and
        sqlite3 refuses an ``executemany`` while another statement is pending)."""
        self._queued_actions: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._writing_actions = False
        """Whether a group of actions is being written (by its caller, or by :attr:`_flusher`)."""
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, path: str | Path, *, clock: Callable[[], int] = _now_ms,
                      run_migrations: bool = True) -> Self:
        """|coro|

        Open (and create) the database at *path* (``":memory:"`` for a private in-memory one).
        Its directory must exist: no directory is created.

        Raises
        ------
        sqlite3.Error
            The file cannot be opened or migrated.
        """
        db = await aiosqlite.connect(str(path))
        log_db: aiosqlite.Connection | None = None
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=FULL")  # a committed move survives a power cut
            db.row_factory = aiosqlite.Row
            if run_migrations:
                await migrate(db)
            if str(path) != ":memory:":
                log_db = await aiosqlite.connect(str(path), isolation_level=None)
                await log_db.execute("PRAGMA foreign_keys=ON")
                await log_db.execute("PRAGMA synchronous=FULL")
        except BaseException:
            if log_db is not None:
                await log_db.close()
            await db.close()
            raise
        return cls(db, clock, log_db=log_db)

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> _Opener:
        """An async context manager that connects on enter and closes on exit."""
        return _Opener(cls, path, kwargs)

    async def close(self) -> None:
        """|coro| Commit the actions still queued, then close the connection."""
        if self._flusher is not None:  # (asyncio.wait: a cancelled close does not cancel the group's write)
            await asyncio.wait([self._flusher])
        if self.log_db is not None:
            await self.log_db.close()
        await self.db.close()

    async def migrate(self) -> int:
        """|coro| Bring the schema up to date; returns the version (``LATEST``)."""
        return await migrate(self.db)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """Hold :attr:`writing` for one transaction on the main connection: committed when the block
        ends, rolled back whole when it raises (a statement failed, the commit failed, or the caller
        was cancelled). A failed write so leaves nothing half-done for the next write to commit, and
        no open transaction holding the database's write lock, for which every move (written
        through the log connection) would wait and then fail. Reads on this connection see the
        block's rows before its commit; the callers' own locks (a table's, a tournament's) keep them
        from acting on rows a rollback then takes back.
        """
        async with self.writing:
            try:
                yield
                await self.db.commit()
            except BaseException:
                try:
                    await self.db.rollback()
                except Exception:  # the first error is the one to report
                    log.exception("could not roll back a failed write")
                raise

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """|coro| Every row of a query, run and fetched in one trip to the database thread.

        No query stays open between two trips: a read left open on the main connection while the log
        connection commits a move makes this connection's next write fail at once with "database is
        locked" (SQLite's ``SQLITE_BUSY_SNAPSHOT``: its read began before that commit), and the other
        coroutines' writes go through this connection in the meantime.
        """
        return list(await self.db.execute_fetchall(sql, params))

    async def _row(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """|coro| The first row of a query, or ``None`` (see :meth:`_rows`)."""
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    # ------------------------------------------------------------------ games

    async def create_game(self, kind: str, *, seed: int, options: dict[str, Any] | None = None,
                          guild_id: int | None = None, channel_id: int | None = None,
                          thread_id: int | None = None, host_id: int | None = None,
                          settings: dict[str, Any] | None = None) -> int:
        """|coro| Create a game in the ``lobby`` status; returns its id.

        *options* are the engine's options; *settings* the table's own (e.g. ``race_window_ms``).
        """
        async with self._transaction():
            now = self.clock()
            cur = await self.db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, thread_id, host_id, options, seed, status,"
                " created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (kind, guild_id, channel_id, thread_id, host_id, json.dumps(options or {}), seed, now, now,
                 json.dumps(settings or {})),
            )
            assert cur.lastrowid is not None  # an INSERT always sets it
            return int(cur.lastrowid)

    async def game(self, game_id: int) -> GameRow | None:
        """|coro| The game with this id, or ``None``."""
        row = await self._row("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """|coro| Games in any of *statuses*, oldest first."""
        marks = ",".join("?" * len(statuses))
        rows = await self._rows(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
        return [_game(r) for r in rows]

    async def live_games(self, *statuses: str, after_id: int = 0, limit: int | None = None) -> list[LiveGame]:
        """|coro| The games in any of *statuses* with an id above *after_id*, oldest first, at most
        *limit* of them (all when ``None``), each with its seats, snapshot and the actions after the
        snapshot: four queries however many games (``docs/tables.md``, "Restarts"). A restart reads
        its tables a batch at a time, so the snapshots of a thousand tables are never in memory at once.
        """
        marks = ",".join("?" * len(statuses))
        query = f"SELECT * FROM games WHERE status IN ({marks}) AND id > ? ORDER BY id"
        params: tuple[Any, ...] = (*statuses, after_id)
        if limit is not None:
            query += " LIMIT ?"
            params = (*params, limit)
        games = [_game(r) for r in await self._rows(query, params)]
        if not games:
            return []
        span = f"g.status IN ({marks}) AND g.id > ? AND g.id <= ?"
        bounds = (*statuses, after_id, games[-1].id)
        seats: dict[int, list[SeatRow]] = {g.id: [] for g in games}
        for r in await self._rows(f"SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id"
                                  f" WHERE {span} ORDER BY s.game_id, s.seat", bounds):
            seats.setdefault(r["game_id"], []).append(_seat(r))
        snaps: dict[int, SnapshotRow] = {}
        for r in await self._rows(f"SELECT n.* FROM snapshots n JOIN games g ON g.id = n.game_id WHERE {span}",
                                  bounds):
            snaps[r["game_id"]] = _snapshot(r)
        tails: dict[int, list[ActionRow]] = {}
        for r in await self._rows(f"SELECT a.* FROM games g JOIN snapshots n ON n.game_id = g.id"
                                  f" JOIN actions a ON a.game_id = g.id AND a.seq > n.seq"
                                  f" WHERE {span} ORDER BY a.game_id, a.seq", bounds):
            tails.setdefault(r["game_id"], []).append(_action(r))
        return [LiveGame(g, seats.get(g.id, []), snaps.get(g.id), tails.get(g.id, [])) for g in games]

    async def update_game(self, game_id: int, **changes: Any) -> None:
        """|coro| Update columns of a game (``status``, ``message_id``, ``thread_id``, ``host_id``,
        ``options``, ``seed``, ``finished_at``).

        Raises
        ------
        ValueError
            An unknown column or status.
        """
        async with self._transaction():
            allowed = {"status", "message_id", "thread_id", "host_id", "options", "seed", "finished_at", "channel_id"}
            bad = set(changes) - allowed
            if bad:
                raise ValueError(f"cannot update {sorted(bad)}; columns: {sorted(allowed)}")
            if "status" in changes and changes["status"] not in GAME_STATUSES:
                raise ValueError(f"status {changes['status']!r} must be one of {GAME_STATUSES}")
            if "options" in changes:
                changes["options"] = json.dumps(changes["options"])
            changes["updated_at"] = self.clock()
            cols = ", ".join(f"{k} = ?" for k in changes)
            await self.db.execute(f"UPDATE games SET {cols} WHERE id = ?", (*changes.values(), game_id))

        # ------------------------------------------------------------------ seats

    async def set_seats(self, game_id: int, seats: Sequence[tuple[Any, ...]]) -> None:
        """|coro| Replace the seats of a game with *seats* in seat order.

        Each seat is ``(player_id, user_id, bot_name)`` or ``(player_id, user_id, bot_name, display_name)``.
        """
        async with self._transaction():
            now = self.clock()
            await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self.db.executemany(
                "INSERT INTO seats (game_id, seat, player_id, user_id, bot_name, joined_at, name)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, i, s[0], s[1], s[2], now, s[3] if len(s) > 3 else None) for i, s in enumerate(seats)],
            )

    async def seats(self, game_id: int) -> list[SeatRow]:
        """|coro| The seats of a game in seat order."""
        return [_seat(r) for r in await self._rows("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]

    # ------------------------------------------------------------------ the action log

    async def _insert_actions(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
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

    async def _insert_actions_and_commit(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        """Write *rows* through the main connection (an in-memory database): one transaction, or row
        by row when a bad row (:class:`sqlite3.IntegrityError`) sank it; any other failure, or a
        cancellation, rolls it back whole. Returns, per row, ``None`` or the error that kept it out.
        """
        insert = _insert_actions_sql(1)
        try:
            await self.db.executemany(insert, rows)
            await self.db.commit()
            return [None] * len(rows)
        except BaseException as exc:
            await self.db.rollback()
            if not isinstance(exc, Exception):
                raise
            if not isinstance(exc, sqlite3.IntegrityError) or len(rows) == 1:
                return [exc] * len(rows)
        results: list[BaseException | None] = []
        for row in rows:
            try:
                await self.db.execute(insert, row)
                await self.db.commit()
                results.append(None)
            except Exception as one:
                await self.db.rollback()
                results.append(one)
        return results

    async def append_action(self, game_id: int, seq: int, player_id: str, action: dict[str, Any], *,
                            discord_ts_ms: int | None = None) -> ActionRow:
        """|coro| Append an accepted action and commit before returning.

        Group commit: an action that arrives when no write is under way is written at once by the
        caller's own task (no other task to wait for on a click's path); the actions of every table
        that arrive while a write is under way are written together in the next transaction, so
        one disk flush serves them all and the database keeps up with many busy tables
        (``docs/design.md`` §3). Each caller still returns only once its own action is committed;
        a caller cancelled meanwhile leaves the actions queued behind it to be written all the same.

        Parameters
        ----------
        seq:
            The action's number in the game, from 1, gap-free.
        discord_ts_ms:
            The Discord timestamp of the interaction (Unix ms), ``None`` for bots and timers.

        Raises
        ------
        sqlite3.IntegrityError
            *seq* is already taken (a second writer), or the game does not exist; the other
            actions of the same group are committed all the same.
        """
        now = self.clock()
        row = (game_id, seq, player_id, json.dumps(action, sort_keys=True), discord_ts_ms, now)
        if self._writing_actions or self.writing.locked():
            # A group is being written, or another write holds the database: join the next group,
            # which a task of its own writes (a caller cancelled meanwhile leaves its row to it).
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._queued_actions.append((row, done))
            if not self._writing_actions:
                self._start_group()
            await done
        else:
            # Nothing under way: the caller takes the free lock without waiting and hands its row to
            # the database thread before its first pause (a file's log connection writes it in one
            # statement), so a cancellation cannot keep it out.
            self._writing_actions = True
            try:
                async with self.writing:
                    [error] = await self._write_actions([row])
            finally:
                self._flush_queued()
            if error is not None:
                raise error
        return ActionRow(game_id, seq, player_id, action, discord_ts_ms, now)

    async def _write_actions(self, rows: list[tuple[Any, ...]]) -> list[BaseException | None]:
        return await (self._insert_actions(rows) if self.log_db is not None
                      else self._insert_actions_and_commit(rows))

    def _flush_queued(self) -> None:
        """After a write: the actions that arrived meanwhile go out as the next group, in a task."""
        if self._queued_actions:
            self._start_group()
        else:
            self._writing_actions = False

    def _start_group(self) -> None:
        """Start the task that writes the queued actions (:meth:`_flush_actions`)."""
        self._writing_actions = True
        self._flusher = asyncio.get_running_loop().create_task(self._flush_actions(), name="parlor-group-commit")

    async def _flush_actions(self) -> None:
        """Commit the queued actions, a group per transaction, until none are left. Cancelled (the
        database closing), it tells every caller still waiting that its move may not be stored.
        """
        group: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        try:
            while self._queued_actions:
                async with self.writing:
                    group, self._queued_actions = self._queued_actions, []
                    results = await self._write_actions([row for row, _ in group])
                for (_, done), error in zip(group, results, strict=True):
                    if done.done():  # its caller gave up (cancelled); the row stands or fell all the same
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        except BaseException:
            for _, done in group + self._queued_actions:
                if not done.done():
                    done.set_exception(RuntimeError("the action log's write was cut short: this move may not "
                                                    "be stored"))
            self._queued_actions = []
            raise
        finally:
            self._writing_actions = False

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRow]:
        """|coro| The action log of a game in order: the actions numbered above *after* (default: all)."""
        return [_action(r) for r in await self._rows("SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                                     (game_id, after))]

    async def action_log(self, game_id: int, *, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
        """|coro| What a replay needs of a game's action log, in order: ``(player id, action)`` of
        the actions numbered above *after* (default: all).

        The stored actions are decoded in one pass as one JSON array, not row by row: a restart
        that replays a thousand logs of hundreds of moves spends a fraction of the time
        (``docs/tables.md``, "Restarts").

        Raises
        ------
        ValueError
            A stored action is not valid JSON (a damaged database).
        """
        rows = await self._rows("SELECT player_id, action FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                (game_id, after))
        decoded = json.loads("[" + ",".join([r[1] for r in rows]) + "]")
        if len(decoded) != len(rows):  # a row holding "1,2" would shift every later action
            raise ValueError(f"game {game_id}: a stored action is not one JSON value")
        return [(r[0], a) for r, a in zip(rows, decoded, strict=True)]

    async def delete_actions(self, game_id: int) -> None:
        """|coro| Forget a game's actions and snapshot (a rematch reuses nothing; used when a lobby restarts)."""
        async with self._transaction():
            await self.db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            await self.db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))

    # ------------------------------------------------------------------ snapshots

    async def save_snapshots(self, rows: Sequence[tuple[int, int, str, bytes]]) -> None:
        """|coro| Keep each row's snapshot ``(game_id, seq, code, state)``, all in one transaction: *state*
        is a running game after its action number *seq*, *code* names the code that can read it
        (``docs/tables.md``, "Restarts"). It replaces the game's snapshot before, never a newer one.
        """
        async with self._transaction():
            now = self.clock()
            await self.db.executemany(
                "INSERT INTO snapshots (game_id, seq, code, state, taken_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, code = excluded.code,"
                " state = excluded.state, taken_at = excluded.taken_at WHERE excluded.seq >= snapshots.seq",
                [(game_id, seq, code, state, now) for game_id, seq, code, state in rows])

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        """|coro| The latest snapshot of a game, or ``None``."""
        r = await self._row("SELECT * FROM snapshots WHERE game_id = ?", (game_id,))
        return _snapshot(r) if r else None

        # ------------------------------------------------------------------ results

    async def save_result(self, game_id: int, result: dict[str, Any]) -> None:
        """|coro| Store a finished game's result and mark it finished, in one transaction."""
        async with self._transaction():
            now = self.clock()
            await self.db.execute("INSERT OR REPLACE INTO results (game_id, result, finished_at) VALUES (?, ?, ?)",
                                  (game_id, json.dumps(result), now))
            await self.db.execute("UPDATE games SET status = 'finished', finished_at = ?, updated_at = ? WHERE id = ?",
                                  (now, now, game_id))
            await self.db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))  # the log tells the rest

    async def result(self, game_id: int) -> dict[str, Any] | None:
        """|coro| The stored result of a game, or ``None``."""
        row = await self._row("SELECT result FROM results WHERE game_id = ?", (game_id,))
        return json.loads(row[0]) if row else None

    async def finished_games(self, *, guild_id: int | None = None, kind: str | None = None,
                             since_ms: int | None = None, user_id: int | None = None,
                             game_id: int | None = None) -> list[FinishedGame]:
        """|coro| Finished games with results and seats, oldest first (by finish time, then id).

        Each filter is optional: one server, one game kind, finished at or after *since_ms*
        (Unix ms), with *user_id* seated, or the one game *game_id*.
        """
        where: list[str] = ["1 = 1"]
        args: list[Any] = []
        for clause, value in (("g.guild_id = ?", guild_id), ("g.kind = ?", kind), ("r.finished_at >= ?", since_ms),
                              ("g.id = ?", game_id)):
            if value is not None:
                where.append(clause)
                args.append(value)
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            args.append(user_id)
        query = ("SELECT g.id, g.kind, g.guild_id, g.thread_id, r.result, r.finished_at FROM games g"
                 f" JOIN results r ON r.game_id = g.id WHERE {' AND '.join(where)} ORDER BY r.finished_at, g.id")
        rows = await self._rows(query, args)
        seats: dict[int, list[SeatRow]] = {}
        if rows:
            marks = ",".join("?" for _ in rows)
            for s in await self._rows(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                                      [r["id"] for r in rows]):
                seats.setdefault(s["game_id"], []).append(
                    SeatRow(s["game_id"], s["seat"], s["player_id"], s["user_id"], s["bot_name"], s["joined_at"],
                            s["name"]))
        return [FinishedGame(r["id"], r["kind"], r["guild_id"], r["thread_id"], r["finished_at"],
                             json.loads(r["result"]), tuple(seats.get(r["id"], []))) for r in rows]

    async def ratings(self, guild_id: int, kind: str) -> list[RatingRow]:
        """|coro| Every stored rating of one server and game."""
        return [RatingRow(r["guild_id"], r["kind"], r["player"], r["mu"], r["sigma"], r["games"], r["last_game"])
                for r in await self._rows("SELECT * FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind))]

    async def save_ratings(self, rows: Sequence[RatingRow], *, replace_all: bool = False) -> None:
        """|coro| Store ratings (one transaction); *replace_all* first deletes every rating (a rebuild)."""
        async with self._transaction():
            if replace_all:
                await self.db.execute("DELETE FROM ratings")
            await self.db.executemany(
                "INSERT INTO ratings (guild_id, kind, player, mu, sigma, games, last_game) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id, kind, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " games = excluded.games, last_game = excluded.last_game",
                [(r.guild_id, r.kind, r.player, r.mu, r.sigma, r.games, r.last_game) for r in rows])

        # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """|coro| A guild's settings (``{}`` when none were saved)."""
        row = await self._row("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """|coro| Replace a guild's settings."""
        async with self._transaction():
            await self.db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, json.dumps(settings), self.clock()),
            )

        # ------------------------------------------------------------------ tournaments (docs/tournaments.md §10)

    async def create_tournament(self, *, guild_id: int, channel_id: int, organizer_id: int, name: str, kind: str,
                                format: str, options: dict[str, Any], settings: dict[str, Any], seed: int) -> int:
        """|coro| Store a new tournament, open for registration; returns its id."""
        async with self._transaction():
            now = self.clock()
            cur = await self.db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, kind, format, options, settings,"
                " seed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, organizer_id, name, kind, format, json.dumps(options), json.dumps(settings),
                 seed, now, now))
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """|coro| The tournament with this id, or ``None``."""
        row = await self._row("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament(row) if row else None

    async def tournaments(self, *statuses: str, guild_id: int | None = None) -> list[TournamentRow]:
        """|coro| Tournaments in any of *statuses* (all when none is given), of one server if given, oldest first."""
        where: list[str] = ["1 = 1"]
        args: list[Any] = []
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            args += list(statuses)
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        rows = await self._rows(f"SELECT * FROM tournaments WHERE {' AND '.join(where)} ORDER BY id", args)
        return [_tournament(r) for r in rows]

    async def update_tournament(self, tournament_id: int, **changes: Any) -> None:
        """|coro| Update ``status``, ``message_id``, ``round``, ``settings`` or ``finished_at`` of a tournament.

        Raises
        ------
        ValueError
            An unknown column.
        """
        async with self._transaction():
            allowed = {"status", "message_id", "round", "settings", "finished_at"}
            if set(changes) - allowed:
                raise ValueError(f"cannot update {sorted(set(changes) - allowed)}; columns: {sorted(allowed)}")
            if "settings" in changes:
                changes["settings"] = json.dumps(changes["settings"])
            changes["updated_at"] = self.clock()
            cols = ", ".join(f"{k} = ?" for k in changes)
            await self.db.execute(f"UPDATE tournaments SET {cols} WHERE id = ?", (*changes.values(), tournament_id))

    async def set_entrant(self, tournament_id: int, user_id: int, name: str, status: str) -> None:
        """|coro| Enter *user_id* in a tournament with *status*, or change their status (their place in
        the registration order is kept).
        """
        async with self._transaction():
            now = self.clock()
            await self.db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, status, registered_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(tournament_id, user_id) DO UPDATE SET name = excluded.name,"
                " status = excluded.status, updated_at = excluded.updated_at",
                (tournament_id, user_id, name, status, now, now))

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """|coro| Forget an entrant (unregistered before the start)."""
        async with self._transaction():
            await self.db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                                  (tournament_id, user_id))

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """|coro| A tournament's entrants in registration order."""
        return [EntrantRow(r["tournament_id"], r["user_id"], r["name"], r["status"], r["registered_at"])
                for r in await self._rows("SELECT * FROM tournament_entrants WHERE tournament_id = ?"
                                          " ORDER BY registered_at, rowid", (tournament_id,))]

    async def add_round(self, tournament_id: int, number: int, matches: Sequence[Sequence[str]],
                        data: dict[str, Any] | None = None) -> None:
        """|coro| Store round *number* with its *matches* (player ids in seat order; a single player is a bye,
        no player an empty bracket slot) and the tournament's round counter, in one transaction.

        A bye is stored done with its result; an empty slot as ``empty``; a game as ``pending``.
        """
        async with self._transaction():
            now = self.clock()
            await self.db.execute("INSERT INTO tournament_rounds (tournament_id, number, data, started_at)"
                                  " VALUES (?, ?, ?, ?)", (tournament_id, number, json.dumps(data or {}), now))
            rows = []
            for i, players in enumerate(matches):
                status = "empty" if not players else "done" if len(players) == 1 else "pending"
                result = json.dumps({"places": {players[0]: 1}}) if len(players) == 1 else None
                rows.append((tournament_id, number, i, json.dumps(list(players)), status, result))
            await self.db.executemany("INSERT INTO tournament_matches (tournament_id, round, number, players, status,"
                                      " result) VALUES (?, ?, ?, ?, ?, ?)", rows)
            await self.db.execute("UPDATE tournaments SET round = ?, updated_at = ? WHERE id = ?",
                                  (number, now, tournament_id))

    async def finish_round(self, tournament_id: int, number: int) -> None:
        """|coro| Mark round *number* finished (now)."""
        async with self._transaction():
            await self.db.execute("UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND number = ?",
                                  (self.clock(), tournament_id, number))

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        """|coro| A tournament's rounds, oldest first, each with its matches in order."""
        matches = [_match(r) for r in await self._rows("SELECT * FROM tournament_matches WHERE tournament_id = ?"
                                                       " ORDER BY round, number", (tournament_id,))]
        return [RoundRow(r["number"], json.loads(r["data"]), r["started_at"], r["finished_at"],
                         tuple(m for m in matches if m.round == r["number"]))
                for r in await self._rows("SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                                          (tournament_id,))]

    async def update_match(self, tournament_id: int, round_: int, number: int, **changes: Any) -> None:
        """|coro| Update ``status``, ``game_id``, ``opened_at``, ``shown`` (a list) or ``result`` (a dict) of a match.

        Raises
        ------
        ValueError
            An unknown column.
        """
        async with self._transaction():
            allowed = {"status", "game_id", "opened_at", "shown", "result"}
            if set(changes) - allowed:
                raise ValueError(f"cannot update {sorted(set(changes) - allowed)}; columns: {sorted(allowed)}")
            for key in ("shown", "result"):
                if key in changes and changes[key] is not None:
                    changes[key] = json.dumps(changes[key])
            cols = ", ".join(f"{k} = ?" for k in changes)
            await self.db.execute(f"UPDATE tournament_matches SET {cols} WHERE tournament_id = ? AND round = ?"
                                  " AND number = ?", (*changes.values(), tournament_id, round_, number))

    async def match_of_game(self, game_id: int) -> MatchRow | None:
        """|coro| The tournament match played at table *game_id*, or ``None``."""
        row = await self._row("SELECT * FROM tournament_matches WHERE game_id = ?", (game_id,))
        return _match(row) if row else None

    async def schema_version(self) -> int:
        """|coro| The schema version of the open database."""
        from bot.storage.migrations import current_version

        return await current_version(self.db)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game with its result and seats, for ratings and statistics.

    Attributes
    ----------
    id, kind, guild_id, thread_id:
        The game, and where it was played.
    finished_at:
        When its result was stored, Unix milliseconds.
    result:
        The engine's result (``{"scores", "ranks", "winners", "detail"}``, keyed by player id).
    seats:
        The seats at the end of the game, in seat order.
    """

    id: int
    kind: str
    guild_id: int | None
    thread_id: int | None
    finished_at: int
    result: dict[str, Any]
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One stored rating: *player* is ``u<user id>`` (or ``bot:<name>``); *mu*, *sigma* OpenSkill's."""

    guild_id: int
    kind: str
    player: str
    mu: float
    sigma: float
    games: int
    last_game: int


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament (``docs/tournaments.md`` §10). Times are Unix milliseconds.

    Attributes
    ----------
    format:
        ``swiss``, ``pods``, ``elimination`` or ``round-robin`` (§1).
    options:
        The game's table options for every match.
    settings:
        The event's own settings (rounds, table size, capacity, check-in, …), see the service.
    status:
        ``registration``, ``checkin``, ``running``, ``paused``, ``finished`` or ``cancelled``.
    round:
        The current round's number (0 before the first).
    """

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organizer_id: int
    name: str
    kind: str
    format: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    round: int
    created_at: int
    finished_at: int | None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A tournament entrant: ``registered``, ``checked_in``, ``waitlisted``, ``dropped`` or ``disqualified``."""

    tournament_id: int
    user_id: int
    name: str
    status: str
    registered_at: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match of a tournament round.

    Attributes
    ----------
    players:
        Player ids (``u<user id>``) in seat order; one is a bye, none an empty bracket slot.
    status:
        ``pending`` (no table yet), ``playing``, ``broken`` (its table ended without a result),
        ``done`` or ``empty``.
    game_id:
        The table (game) the match is played at, once opened.
    opened_at:
        When its table opened (Unix ms): the no-show clock starts there.
    shown:
        The players who showed up at the table.
    result:
        The recorded result (``{"places", "forfeits", "scores", "forced"}``), or ``None``.
    """

    tournament_id: int
    round: int
    number: int
    players: tuple[str, ...]
    status: str
    game_id: int | None
    opened_at: int | None
    shown: tuple[str, ...]
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """One round of a tournament: its number, its data (e.g. an elimination field), times and matches."""

    number: int
    data: dict[str, Any]
    started_at: int
    finished_at: int | None
    matches: tuple[MatchRow, ...]


def _tournament(r: aiosqlite.Row) -> TournamentRow:
    return TournamentRow(r["id"], r["guild_id"], r["channel_id"], r["message_id"], r["organizer_id"], r["name"],
                         r["kind"], r["format"], json.loads(r["options"]), json.loads(r["settings"]), r["seed"],
                         r["status"], r["round"], r["created_at"], r["finished_at"])


def _match(r: aiosqlite.Row) -> MatchRow:
    return MatchRow(r["tournament_id"], r["round"], r["number"], tuple(json.loads(r["players"])), r["status"],
                    r["game_id"], r["opened_at"], tuple(json.loads(r["shown"])),
                    json.loads(r["result"]) if r["result"] else None)


def _seat(r: Any) -> SeatRow:
    return SeatRow(r["game_id"], r["seat"], r["player_id"], r["user_id"], r["bot_name"], r["joined_at"], r["name"])


def _action(r: Any) -> ActionRow:
    return ActionRow(r["game_id"], r["seq"], r["player_id"], json.loads(r["action"]), r["discord_ts_ms"],
                     r["received_at_ms"])


def _snapshot(r: Any) -> SnapshotRow:
    return SnapshotRow(r["game_id"], r["seq"], r["code"], bytes(r["state"]), r["taken_at"])


def _game(r: aiosqlite.Row) -> GameRow:
    return GameRow(r["id"], r["kind"], r["guild_id"], r["channel_id"], r["thread_id"], r["message_id"], r["host_id"],
                   json.loads(r["options"]), r["seed"], r["status"], r["created_at"], r["updated_at"],
                   r["finished_at"], json.loads(r["settings"]))


class _Opener:
    def __init__(self, cls: type[Storage], path: str | Path, kwargs: dict[str, Any]) -> None:
        self._args = (cls, path, kwargs)
        self._storage: Storage | None = None

    async def __aenter__(self) -> Storage:
        cls, path, kwargs = self._args
        self._storage = await cls.connect(path, **kwargs)
        return self._storage

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._storage is not None:
            await self._storage.close()


