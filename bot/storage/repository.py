"""The repository: :class:`Storage`, one façade over the parts that read and write Parlor's database.

Each part owns one aggregate and gets the connection it uses in its constructor; none inherits from
another (``docs/design.md`` §3):

- :class:`~bot.storage.games.GameStore`: games, seats, snapshots, results, reads of the action log;
- :class:`~bot.storage.action_log.ActionLogWriter`: the action log's group-commit writer;
- :class:`~bot.storage.ratings.RatingStore`: ratings and guild settings;
- :class:`~bot.storage.tournaments.TournamentStore`: tournaments, entrants, rounds and matches;
- :class:`~bot.storage.outbox.Outbox`: the notices and announcements to post (``docs/design.md`` §3).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.storage.action_log import ActionLogWriter
from bot.storage.database import Connection, Database, now_ms
from bot.storage.games import GameStore
from bot.storage.migrations import current_version, migrate
from bot.storage.outbox import Outbox
from bot.storage.postgres import PgConnection, is_postgres_url
from bot.storage.ratings import RatingStore
from bot.storage.rows import (
    GAME_STATUSES,
    ActionRow,
    EntrantRow,
    FinishedGame,
    GameRow,
    LiveGame,
    MatchRow,
    RatingRow,
    RoundRow,
    SeatRow,
    SnapshotRow,
    TournamentRow,
)
from bot.storage.tournaments import TournamentStore

__all__ = ["Storage", "GameRow", "SeatRow", "ActionRow", "SnapshotRow", "LiveGame", "FinishedGame", "RatingRow",
           "GAME_STATUSES", "TournamentRow", "EntrantRow", "MatchRow", "RoundRow"]


class Storage:
    """The database of one Parlor process.

    Use as ``async with Storage.open(path) as storage:``; opening creates the file if needed,
    turns on WAL and foreign keys and applies missing migrations.

    The operations are the parts' (:attr:`game_store`, :attr:`log_writer`, :attr:`rating_store`,
    :attr:`tournament_store`, :attr:`outbox`), offered here under the names callers use: e.g.
    ``storage.create_game`` is ``storage.game_store.create_game`` and ``storage.append_action`` is
    ``storage.log_writer.append``.

    Parameters
    ----------
    db:
        An open aiosqlite connection (``row_factory`` set to :class:`aiosqlite.Row`).
    clock:
        Returns the current Unix time in milliseconds (tests pass a fake).
    log_db:
        A second connection to the same file in autocommit mode (``isolation_level=None``), for
        the action log only, or ``None`` (an in-memory database, which has no second connection);
        see :class:`~bot.storage.action_log.ActionLogWriter`.
    """

    def __init__(self, db: Connection, clock: Callable[[], int] = now_ms, *,
                 log_db: Connection | None = None) -> None:
        self.db = db
        self.clock = clock
        self.log_db = log_db
        self.database = Database(db, clock)
        self.writing = self.database.writing
        """Held by every write from its first statement to its commit (:attr:`Database.writing`)."""
        self.game_store = GameStore(self.database)
        self.outbox = Outbox(self.database)
        self.log_writer = ActionLogWriter(self.database, log_db, self.outbox)
        self.rating_store = RatingStore(self.database)
        self.tournament_store = TournamentStore(self.database, self.outbox)

        games = self.game_store
        self.create_game = games.create_game
        self.game = games.game
        self.games_with_status = games.games_with_status
        self.live_games = games.live_games
        self.set_game_status = games.set_game_status
        self.set_game_thread = games.set_game_thread
        self.set_game_message = games.set_game_message
        self.set_game_host = games.set_game_host
        self.set_seats = games.set_seats
        self.seats = games.seats
        self.actions = games.actions
        self.action_log = games.action_log
        self.delete_actions = games.delete_actions
        self.save_snapshots = games.save_snapshots
        self.snapshot = games.snapshot
        self.save_result = games.save_result
        self.result = games.result
        self.finished_games = games.finished_games

        self.append_action = self.log_writer.append

        ratings = self.rating_store
        self.ratings = ratings.ratings
        self.save_ratings = ratings.save_ratings
        self.guild_settings = ratings.guild_settings
        self.set_guild_settings = ratings.set_guild_settings
        self.all_guild_settings = ratings.all_guild_settings

        tournaments = self.tournament_store
        self.create_tournament = tournaments.create_tournament
        self.tournament = tournaments.tournament
        self.tournaments = tournaments.tournaments
        self.set_tournament_status = tournaments.set_tournament_status
        self.set_tournament_message = tournaments.set_tournament_message
        self.start_tournament = tournaments.start_tournament
        self.end_tournament = tournaments.end_tournament
        self.set_entrant = tournaments.set_entrant
        self.remove_entrant = tournaments.remove_entrant
        self.entrants = tournaments.entrants
        self.add_round = tournaments.add_round
        self.finish_round = tournaments.finish_round
        self.rounds = tournaments.rounds
        self.set_match_status = tournaments.set_match_status
        self.open_match = tournaments.open_match
        self.set_match_opened_at = tournaments.set_match_opened_at
        self.set_match_shown = tournaments.set_match_shown
        self.finish_match = tournaments.finish_match
        self.reset_match = tournaments.reset_match
        self.match_of_game = tournaments.match_of_game

    @classmethod
    async def connect(cls, path: str | Path, *, clock: Callable[[], int] = now_ms,
                      run_migrations: bool = True) -> Self:
        """|coro|

        Open the database named by *path*, a ``database.url``: a PostgreSQL server's URL
        (``postgresql://user:password@host:port/database``; the database must exist), or a SQLite file
        (a path, or ``sqlite:`` followed by one; created if needed, its directory must exist;
        ``":memory:"`` for a private in-memory one). Missing migrations are applied.

        Raises
        ------
        sqlite3.Error
            The file or server cannot be opened or migrated (PostgreSQL's errors are translated to
            the same classes, :mod:`bot.storage.postgres`).
        """
        if is_postgres_url(str(path)):
            return await cls._connect_postgres(str(path), clock=clock, run_migrations=run_migrations)
        path = sqlite_path(str(path))
        db = await aiosqlite.connect(path)
        log_db: aiosqlite.Connection | None = None
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=FULL")  # a committed move survives a power cut
            db.row_factory = aiosqlite.Row
            if run_migrations:
                await migrate(db)
            if path != ":memory:":
                log_db = await aiosqlite.connect(path, isolation_level=None)
                await log_db.execute("PRAGMA foreign_keys=ON")
                await log_db.execute("PRAGMA synchronous=FULL")
        except BaseException:
            if log_db is not None:
                await log_db.close()
            await db.close()
            raise
        return cls(db, clock, log_db=log_db)

    @classmethod
    async def _connect_postgres(cls, url: str, *, clock: Callable[[], int], run_migrations: bool) -> Self:
        """|coro| Two connections to the server of *url*: the main one (transactions) and the action
        log's (autocommit); the server's ``synchronous_commit`` (on by default) makes a commit durable.
        """
        db = await PgConnection.connect(url)
        log_db: PgConnection | None = None
        try:
            if run_migrations:
                await migrate(db)
            log_db = await PgConnection.connect(url, autocommit=True)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock, log_db=log_db)

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> _Opener:
        """An async context manager that connects on enter and closes on exit."""
        return _Opener(cls, path, kwargs)

    async def close(self) -> None:
        """|coro| Commit the actions still queued, then close the connections."""
        await self.log_writer.drain()
        if self.log_db is not None:
            await self.log_db.close()
        await self.db.close()

    async def migrate(self) -> int:
        """|coro| Bring the schema up to date; returns the version (``LATEST``)."""
        return await migrate(self.db)

    async def schema_version(self) -> int:
        """|coro| The schema version of the open database."""
        return await current_version(self.db)


def sqlite_path(url: str) -> str:
    """The SQLite file a ``database.url`` names: the path itself, or what follows ``sqlite:`` (and
    ``sqlite://``, as in ``sqlite:///var/lib/parlor.db``).
    """
    if url.startswith("sqlite://"):
        return url[len("sqlite://"):]
    if url.startswith("sqlite:"):
        return url[len("sqlite:"):]
    return url


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
