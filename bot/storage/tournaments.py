"""The tournament aggregate: tournaments, their entrants, rounds and matches (``docs/tournaments.md`` §10)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.database import Connection, Database
from bot.storage.outbox import Notice, Outbox
from bot.storage.rows import MATCH_STATUSES, TOURNAMENT_STATUSES, EntrantRow, MatchRow, RoundRow, TournamentRow

__all__ = ["TournamentStore"]


class TournamentStore:
    """Every read and write of the ``tournaments``, ``tournament_entrants``, ``tournament_rounds`` and
    ``tournament_matches`` tables.

    Parameters
    ----------
    database:
        The main connection: reads in one trip, writes in one transaction each.
    outbox:
        Where the announcements a change causes are stored, in that change's transaction (the
        methods that take ``notices``; ``docs/design.md`` §3, "The outbox").
    """

    def __init__(self, database: Database, outbox: Outbox | None = None) -> None:
        self._db = database
        self._outbox = outbox

    async def _announce(self, db: Connection, notices: Sequence[Notice]) -> None:
        """|coro| Store *notices* in the open transaction on *db*.

        Raises
        ------
        ValueError
            There are notices and this store has no outbox.
        """
        if notices:
            if self._outbox is None:
                raise ValueError("this tournament store has no outbox for announcements")
            await self._outbox.write(db, notices)

    def _announced(self, notices: Sequence[Notice]) -> None:
        """The transaction that stored *notices* committed: the sender may post them."""
        if notices and self._outbox is not None:
            self._outbox.committed()

    async def create_tournament(self, *, guild_id: int, channel_id: int, organizer_id: int, name: str, kind: str,
                                format: str, options: dict[str, Any], settings: dict[str, Any], seed: int) -> int:
        """|coro| Store a new tournament, open for registration; returns its id."""
        async with self._db.transaction() as db:
            now = self._db.clock()
            [row] = await db.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, kind, format, options, settings,"
                " seed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, organizer_id, name, kind, format, json.dumps(options), json.dumps(settings),
                 seed, now, now))
            return int(row[0])

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """|coro| The tournament with this id, or ``None``."""
        row = await self._db.row("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
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
        rows = await self._db.rows(f"SELECT * FROM tournaments WHERE {' AND '.join(where)} ORDER BY id", args)
        return [_tournament(r) for r in rows]

    async def set_tournament_status(self, tournament_id: int, status: str, *, notices: Sequence[Notice] = ()) -> None:
        """|coro| Set a tournament's status (``checkin`` at check-in, ``paused``, ``running`` again, …),
        with *notices* (its announcement) stored in the outbox in the same transaction.

        Raises
        ------
        ValueError
            *status* is none of :data:`~bot.storage.rows.TOURNAMENT_STATUSES`; nothing is written.
        """
        _check(status, TOURNAMENT_STATUSES)
        await self._set_tournament(tournament_id, {"status": str(status)}, notices)

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        """|coro| Set a tournament's public message (a snowflake, or ``None``)."""
        await self._set_tournament(tournament_id, {"message_id": message_id})

    async def start_tournament(self, tournament_id: int, settings: dict[str, Any]) -> None:
        """|coro| Mark a tournament ``running`` with its *settings* as they stand at the start (e.g. the
        number of rounds counted from the players who checked in), in one statement.
        """
        await self._set_tournament(tournament_id, {"status": "running", "settings": json.dumps(settings)})

    async def end_tournament(self, tournament_id: int, status: str, *, finished_at: int | None = None,
                             notices: Sequence[Notice] = ()) -> None:
        """|coro| Mark a tournament ``finished`` or ``cancelled``, at *finished_at* (Unix ms; now by the
        storage's clock when ``None``), in one statement; *notices* (the final standings) are stored
        in the outbox in the same transaction.

        Raises
        ------
        ValueError
            *status* is neither ``finished`` nor ``cancelled``; nothing is written.
        """
        _check(status, ("finished", "cancelled"))
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.execute("UPDATE tournaments SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?",
                             (str(status), now if finished_at is None else finished_at, now, tournament_id))
            await self._announce(db, notices)
        self._announced(notices)

    async def _set_tournament(self, tournament_id: int, changes: dict[str, Any],
                              notices: Sequence[Notice] = ()) -> None:
        """|coro| Set *changes* (columns named by this module, values as stored) and ``updated_at``,
        with *notices* stored in the same transaction.
        """
        async with self._db.transaction() as db:
            changes = {**changes, "updated_at": self._db.clock()}
            cols = ", ".join(f"{k} = ?" for k in changes)
            await db.execute(f"UPDATE tournaments SET {cols} WHERE id = ?", (*changes.values(), tournament_id))
            await self._announce(db, notices)
        self._announced(notices)

    async def set_entrant(self, tournament_id: int, user_id: int, name: str, status: str) -> None:
        """|coro| Enter *user_id* in a tournament with *status*, or change their status (their place in
        the registration order is kept).
        """
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, status, registered_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(tournament_id, user_id) DO UPDATE SET name = excluded.name,"
                " status = excluded.status, updated_at = excluded.updated_at",
                (tournament_id, user_id, name, status, now, now))

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        """|coro| Forget an entrant (unregistered before the start)."""
        async with self._db.transaction() as db:
            await db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                             (tournament_id, user_id))

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """|coro| A tournament's entrants in registration order."""
        return [EntrantRow(r["tournament_id"], r["user_id"], r["name"], r["status"], r["registered_at"])
                for r in await self._db.rows("SELECT * FROM tournament_entrants WHERE tournament_id = ?"
                                             " ORDER BY registered_at, rowid", (tournament_id,))]

    async def add_round(self, tournament_id: int, number: int, matches: Sequence[Sequence[str]],
                        data: dict[str, Any] | None = None) -> None:
        """|coro| Store round *number* with its *matches* (player ids in seat order; a single player is a bye,
        no player an empty bracket slot) and the tournament's round counter, in one transaction.

        A bye is stored done with its result; an empty slot as ``empty``; a game as ``pending``.
        """
        async with self._db.transaction() as db:
            now = self._db.clock()
            await db.execute("INSERT INTO tournament_rounds (tournament_id, number, data, started_at)"
                             " VALUES (?, ?, ?, ?)", (tournament_id, number, json.dumps(data or {}), now))
            rows = []
            for i, players in enumerate(matches):
                status = "empty" if not players else "done" if len(players) == 1 else "pending"
                result = json.dumps({"places": {players[0]: 1}}) if len(players) == 1 else None
                rows.append((tournament_id, number, i, json.dumps(list(players)), status, result))
            await db.executemany("INSERT INTO tournament_matches (tournament_id, round, number, players, status,"
                                 " result) VALUES (?, ?, ?, ?, ?, ?)", rows)
            await db.execute("UPDATE tournaments SET round = ?, updated_at = ? WHERE id = ?",
                             (number, now, tournament_id))

    async def finish_round(self, tournament_id: int, number: int, *, notices: Sequence[Notice] = ()) -> None:
        """|coro| Mark round *number* finished (now); *notices* (its standings) are stored in the
        outbox in the same transaction.
        """
        async with self._db.transaction() as db:
            await db.execute("UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND number = ?",
                             (self._db.clock(), tournament_id, number))
            await self._announce(db, notices)
        self._announced(notices)

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        """|coro| A tournament's rounds, oldest first, each with its matches in order."""
        matches = [_match(r) for r in await self._db.rows("SELECT * FROM tournament_matches WHERE tournament_id = ?"
                                                          " ORDER BY round, number", (tournament_id,))]
        return [RoundRow(r["number"], json.loads(r["data"]), r["started_at"], r["finished_at"],
                         tuple(m for m in matches if m.round == r["number"]))
                for r in await self._db.rows("SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                                             (tournament_id,))]

    # ------------------------------------------------------------------ matches

    async def set_match_status(self, tournament_id: int, round_: int, number: int, status: str, *,
                               notices: Sequence[Notice] = ()) -> None:
        """|coro| Set a match's status alone (``broken`` when its table ended without a result), and
        store *notices* (what the channel is told of it) in the outbox in the same transaction.

        Raises
        ------
        ValueError
            *status* is none of :data:`~bot.storage.rows.MATCH_STATUSES`; nothing is written.
        """
        _check(status, MATCH_STATUSES)
        await self._set_match(tournament_id, round_, number, {"status": str(status)}, notices)

    async def open_match(self, tournament_id: int, round_: int, number: int, *, game_id: int,
                         opened_at: int | None = None) -> None:
        """|coro| A match's table opened: ``playing`` at table *game_id* since *opened_at* (Unix ms; now
        by the storage's clock when ``None``), nobody shown up yet.
        """
        await self._set_match(tournament_id, round_, number, {
            "status": "playing", "game_id": game_id,
            "opened_at": self._db.clock() if opened_at is None else opened_at, "shown": "[]"})

    async def set_match_opened_at(self, tournament_id: int, round_: int, number: int, opened_at: int) -> None:
        """|coro| Restart a match's no-show clock at *opened_at* (Unix ms)."""
        await self._set_match(tournament_id, round_, number, {"opened_at": opened_at})

    async def set_match_shown(self, tournament_id: int, round_: int, number: int, shown: Sequence[str]) -> None:
        """|coro| Set the players (ids, ``u<user id>``) who showed up at a match's table."""
        await self._set_match(tournament_id, round_, number, {"shown": json.dumps(list(shown))})

    async def finish_match(self, tournament_id: int, round_: int, number: int, result: dict[str, Any], *,
                           notices: Sequence[Notice] = ()) -> None:
        """|coro| Record a match's *result* (``{"places", "forfeits", "scores", "forced"}``): it is
        ``done``; *notices* (its announcement) are stored in the outbox in the same transaction, so
        a result stored is a result announced, whatever stops the bot next.
        """
        await self._set_match(tournament_id, round_, number, {"status": "done", "result": json.dumps(result)},
                              notices)

    async def reset_match(self, tournament_id: int, round_: int, number: int) -> None:
        """|coro| Take a match back to ``pending``: no table, no no-show clock, nobody shown up (its
        result, if any, stays).
        """
        await self._set_match(tournament_id, round_, number,
                              {"status": "pending", "game_id": None, "opened_at": None, "shown": "[]"})

    async def _set_match(self, tournament_id: int, round_: int, number: int, changes: dict[str, Any],
                         notices: Sequence[Notice] = ()) -> None:
        """|coro| Set *changes* (columns named by this module, values as stored) of one match, with
        *notices* stored in the same transaction.
        """
        async with self._db.transaction() as db:
            cols = ", ".join(f"{k} = ?" for k in changes)
            await db.execute(f"UPDATE tournament_matches SET {cols} WHERE tournament_id = ? AND round = ?"
                             " AND number = ?", (*changes.values(), tournament_id, round_, number))
            await self._announce(db, notices)
        self._announced(notices)

    async def match_of_game(self, game_id: int) -> MatchRow | None:
        """|coro| The tournament match played at table *game_id*, or ``None``."""
        row = await self._db.row("SELECT * FROM tournament_matches WHERE game_id = ?", (game_id,))
        return _match(row) if row else None


def _check(status: str, allowed: tuple[str, ...]) -> None:
    """Refuse a *status* that is not one of *allowed*.

    Raises
    ------
    ValueError
        *status* is not one of *allowed*.
    """
    if status not in allowed:
        raise ValueError(f"status {status!r} must be one of {allowed}")


def _tournament(r: Any) -> TournamentRow:
    return TournamentRow(r["id"], r["guild_id"], r["channel_id"], r["message_id"], r["organizer_id"], r["name"],
                         r["kind"], r["format"], json.loads(r["options"]), json.loads(r["settings"]), r["seed"],
                         r["status"], r["round"], r["created_at"], r["finished_at"])


def _match(r: Any) -> MatchRow:
    return MatchRow(r["tournament_id"], r["round"], r["number"], tuple(json.loads(r["players"])), r["status"],
                    r["game_id"], r["opened_at"], tuple(json.loads(r["shown"])),
                    json.loads(r["result"]) if r["result"] else None)
