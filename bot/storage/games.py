"""The game aggregate: games, their seats, snapshots and results, and reads of their action logs
(the log's writes are :mod:`bot.storage.action_log`'s).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from bot.storage.database import Database
from bot.storage.rows import GAME_STATUSES, ActionRow, FinishedGame, GameRow, LiveGame, SeatRow, SnapshotRow

__all__ = ["GameStore"]


class GameStore:
    """Every read and write of the ``games``, ``seats``, ``snapshots`` and ``results`` tables, and
    the reads of ``actions``.

    Parameters
    ----------
    database:
        The main connection: reads in one trip, writes in one transaction each.
    """

    def __init__(self, database: Database) -> None:
        self._db = database

    async def create_game(self, kind: str, *, seed: int, options: dict[str, Any] | None = None,
                          guild_id: int | None = None, channel_id: int | None = None,
                          thread_id: int | None = None, host_id: int | None = None,
                          settings: dict[str, Any] | None = None) -> int:
        """|coro| Create a game in the ``lobby`` status; returns its id.

        *options* are the engine's options; *settings* the table's own (e.g. ``race_window_ms``).
        """
        async with self._db.transaction() as db:
            now = self._db.clock()
            [row] = await db.execute_fetchall(  # RETURNING: SQLite >= 3.35 and PostgreSQL alike
                "INSERT INTO games (kind, guild_id, channel_id, thread_id, host_id, options, seed, status,"
                " created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                (kind, guild_id, channel_id, thread_id, host_id, json.dumps(options or {}), seed, now, now,
                 json.dumps(settings or {})),
            )
            return int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        """|coro| The game with this id, or ``None``."""
        row = await self._db.row("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """|coro| Games in any of *statuses*, oldest first."""
        marks = ",".join("?" * len(statuses))
        rows = await self._db.rows(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
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
        games = [_game(r) for r in await self._db.rows(query, params)]
        if not games:
            return []
        span = f"g.status IN ({marks}) AND g.id > ? AND g.id <= ?"
        bounds = (*statuses, after_id, games[-1].id)
        seats: dict[int, list[SeatRow]] = {g.id: [] for g in games}
        for r in await self._db.rows(f"SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id"
                                     f" WHERE {span} ORDER BY s.game_id, s.seat", bounds):
            seats.setdefault(r["game_id"], []).append(_seat(r))
        snaps: dict[int, SnapshotRow] = {}
        for r in await self._db.rows(f"SELECT n.* FROM snapshots n JOIN games g ON g.id = n.game_id WHERE {span}",
                                     bounds):
            snaps[r["game_id"]] = _snapshot(r)
        tails: dict[int, list[ActionRow]] = {}
        for r in await self._db.rows(f"SELECT a.* FROM games g JOIN snapshots n ON n.game_id = g.id"
                                     f" JOIN actions a ON a.game_id = g.id AND a.seq > n.seq"
                                     f" WHERE {span} ORDER BY a.game_id, a.seq", bounds):
            tails.setdefault(r["game_id"], []).append(_action(r))
        return [LiveGame(g, seats.get(g.id, []), snaps.get(g.id), tails.get(g.id, [])) for g in games]

    async def set_game_status(self, game_id: int, status: str) -> None:
        """|coro| Set a game's status (a :class:`str`, e.g. a table's ``TableStatus``).

        Raises
        ------
        ValueError
            *status* is none of :data:`~bot.storage.rows.GAME_STATUSES`; nothing is written.
        """
        if status not in GAME_STATUSES:
            raise ValueError(f"status {status!r} must be one of {GAME_STATUSES}")
        await self._set(game_id, "status", str(status))

    async def set_game_thread(self, game_id: int, thread_id: int | None) -> None:
        """|coro| Set the thread (a snowflake, or ``None``) a game is played in."""
        await self._set(game_id, "thread_id", thread_id)

    async def set_game_message(self, game_id: int, message_id: int | None) -> None:
        """|coro| Set a game's public table message (a snowflake, or ``None``)."""
        await self._set(game_id, "message_id", message_id)

    async def set_game_host(self, game_id: int, host_id: int | None) -> None:
        """|coro| Set a game's host (a Discord user's snowflake, or ``None``)."""
        await self._set(game_id, "host_id", host_id)

    async def _set(self, game_id: int, column: Literal["status", "thread_id", "message_id", "host_id"],
                   value: str | int | None) -> None:
        """|coro| Set one column of a game (named by this module, never by a caller) and its ``updated_at``."""
        async with self._db.transaction() as db:
            await db.execute(f"UPDATE games SET {column} = ?, updated_at = ? WHERE id = ?",
                             (value, self._db.clock(), game_id))

    # ------------------------------------------------------------------ seats

    async def set_seats(self, game_id: int, seats: Sequence[tuple[Any, ...]]) -> None:
        """|coro| Replace the seats of a game with *seats* in seat order.

        Each seat is ``(player_id, user_id, bot_name)`` or ``(player_id, user_id, bot_name, display_name)``.
        """
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO seats (game_id, seat, player_id, user_id, bot_name, joined_at, name)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, i, s[0], s[1], s[2], now, s[3] if len(s) > 3 else None) for i, s in enumerate(seats)],
            )

    async def seats(self, game_id: int) -> list[SeatRow]:
        """|coro| The seats of a game in seat order."""
        rows = await self._db.rows("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_seat(r) for r in rows]

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRow]:
        """|coro| The action log of a game in order: the actions numbered above *after* (default: all)."""
        rows = await self._db.rows("SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after))
        return [_action(r) for r in rows]

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
        rows = await self._db.rows("SELECT player_id, action FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                   (game_id, after))
        decoded = json.loads("[" + ",".join([r[1] for r in rows]) + "]")
        if len(decoded) != len(rows):  # a row holding "1,2" would shift every later action
            raise ValueError(f"game {game_id}: a stored action is not one JSON value")
        return [(r[0], a) for r, a in zip(rows, decoded, strict=True)]

    async def delete_actions(self, game_id: int) -> None:
        """|coro| Forget a game's actions and snapshot (a rematch reuses nothing; used when a lobby restarts)."""
        async with self._db.transaction() as db:
            await db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))

    # ------------------------------------------------------------------ snapshots

    async def save_snapshots(self, rows: Sequence[tuple[int, int, str, bytes]]) -> None:
        """|coro| Keep each row's snapshot ``(game_id, seq, code, state)``, all in one transaction: *state*
        is a running game after its action number *seq*, *code* names the code that can read it
        (``docs/tables.md``, "Restarts"). It replaces the game's snapshot before, never a newer one.
        """
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.executemany(
                "INSERT INTO snapshots (game_id, seq, code, state, taken_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, code = excluded.code,"
                " state = excluded.state, taken_at = excluded.taken_at WHERE excluded.seq >= snapshots.seq",
                [(game_id, seq, code, state, now) for game_id, seq, code, state in rows])

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        """|coro| The latest snapshot of a game, or ``None``."""
        r = await self._db.row("SELECT * FROM snapshots WHERE game_id = ?", (game_id,))
        return _snapshot(r) if r else None

    # ------------------------------------------------------------------ results

    async def save_result(self, game_id: int, result: dict[str, Any]) -> None:
        """|coro| Store a finished game's result and mark it finished, in one transaction."""
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.execute("INSERT INTO results (game_id, result, finished_at) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                             " DO UPDATE SET result = excluded.result, finished_at = excluded.finished_at",
                             (game_id, json.dumps(result), now))
            await db.execute("UPDATE games SET status = 'finished', finished_at = ?, updated_at = ? WHERE id = ?",
                             (now, now, game_id))
            await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))  # the log tells the rest

    async def result(self, game_id: int) -> dict[str, Any] | None:
        """|coro| The stored result of a game, or ``None``."""
        row = await self._db.row("SELECT result FROM results WHERE game_id = ?", (game_id,))
        return json.loads(row[0]) if row else None

    async def finished_games(self, *, guild_id: int | None = None, kind: str | None = None,
                             since_ms: int | None = None, user_id: int | None = None,
                             game_id: int | None = None) -> list[FinishedGame]:
        """|coro| Finished games with results and seats, oldest first (by finish time, then id).

        Each filter is optional: one server, one game kind, finished at or after *since_ms*
        (Unix ms), with *user_id* seated, or the one game *game_id*. Practice games (a game whose
        settings hold ``"practice": true``, ``/learn``) are never among them: they count for no rating,
        statistic or history (``docs/tables.md``, "Learning a game").
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
        query = ("SELECT g.id, g.kind, g.guild_id, g.thread_id, g.settings, r.result, r.finished_at FROM games g"
                 f" JOIN results r ON r.game_id = g.id WHERE {' AND '.join(where)} ORDER BY r.finished_at, g.id")
        rows = [r for r in await self._db.rows(query, args) if not json.loads(r["settings"] or "{}").get("practice")]
        seats: dict[int, list[SeatRow]] = {}
        if rows:
            marks = ",".join("?" for _ in rows)
            for s in await self._db.rows(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                                         [r["id"] for r in rows]):
                seats.setdefault(s["game_id"], []).append(
                    SeatRow(s["game_id"], s["seat"], s["player_id"], s["user_id"], s["bot_name"], s["joined_at"],
                            s["name"]))
        return [FinishedGame(r["id"], r["kind"], r["guild_id"], r["thread_id"], r["finished_at"],
                             json.loads(r["result"]), tuple(seats.get(r["id"], []))) for r in rows]



def _seat(r: Any) -> SeatRow:
    return SeatRow(r["game_id"], r["seat"], r["player_id"], r["user_id"], r["bot_name"], r["joined_at"], r["name"])


def _action(r: Any) -> ActionRow:
    return ActionRow(r["game_id"], r["seq"], r["player_id"], json.loads(r["action"]), r["discord_ts_ms"],
                     r["received_at_ms"])


def _snapshot(r: Any) -> SnapshotRow:
    return SnapshotRow(r["game_id"], r["seq"], r["code"], bytes(r["state"]), r["taken_at"])


def _game(r: Any) -> GameRow:
    return GameRow(r["id"], r["kind"], r["guild_id"], r["channel_id"], r["thread_id"], r["message_id"], r["host_id"],
                   json.loads(r["options"]), r["seed"], r["status"], r["created_at"], r["updated_at"],
                   r["finished_at"], json.loads(r["settings"]))
