"""Forward-only schema migrations.

``MIGRATIONS[i]`` brings the schema from version ``i`` to ``i + 1``. A migration is never edited
once released; a change is a new entry at the end. :func:`migrate` applies the missing ones in
order, each in its own transaction, and records the version in ``schema_version``.
"""

from __future__ import annotations

from bot.storage.database import Connection
from bot.storage.postgres import PgConnection

__all__ = ["MIGRATIONS", "LATEST", "current_version", "migrate"]

MIGRATIONS: list[str] = [
    # 1: games, seats, the action log, results.
    """
    CREATE TABLE games (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        kind          TEXT    NOT NULL,
        guild_id      INTEGER,
        channel_id    INTEGER,
        thread_id     INTEGER,
        message_id    INTEGER,
        host_id       INTEGER,
        options       TEXT    NOT NULL DEFAULT '{}',
        seed          INTEGER NOT NULL,
        status        TEXT    NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        finished_at   INTEGER
    );
    CREATE INDEX games_status ON games(status);
    CREATE TABLE seats (
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL,
        player_id  TEXT    NOT NULL,
        user_id    INTEGER,
        bot_name   TEXT,
        joined_at  INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, player_id),
        CHECK ((user_id IS NULL) <> (bot_name IS NULL))
    );
    CREATE TABLE actions (
        game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq             INTEGER NOT NULL,
        player_id       TEXT    NOT NULL,
        action          TEXT    NOT NULL,
        discord_ts_ms   INTEGER,
        received_at_ms  INTEGER NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE results (
        game_id      INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        result       TEXT    NOT NULL,
        finished_at  INTEGER NOT NULL
    );
    """,
    # 2: per-guild settings, and looking tables up by thread.
    """
    CREATE TABLE guild_settings (
        guild_id    INTEGER PRIMARY KEY,
        settings    TEXT    NOT NULL DEFAULT '{}',
        updated_at  INTEGER NOT NULL
    );
    CREATE INDEX games_thread ON games(thread_id);
    """,
    # 3: table settings that are not engine options (e.g. a table's own race window).
    """
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    """,
    # 4: ratings, derived from the results (docs/ratings.md): one row per server, game and player.
    """
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        player     TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        last_game  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, player)
    );
    CREATE INDEX results_finished ON results(finished_at);
    """,
    # 5: each seat's display name, so a restored table shows names, not mentions.
    """
    ALTER TABLE seats ADD COLUMN name TEXT;
    """,
    # 6: tournaments (docs/tournaments.md §10): the event, its entrants, its rounds and matches.
    """
    CREATE TABLE tournaments (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        message_id    INTEGER,
        organizer_id  INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        kind          TEXT    NOT NULL,
        format        TEXT    NOT NULL
                      CHECK (format IN ('swiss', 'pods', 'elimination', 'round-robin')),
        options       TEXT    NOT NULL DEFAULT '{}',
        settings      TEXT    NOT NULL DEFAULT '{}',
        seed          INTEGER NOT NULL,
        status        TEXT    NOT NULL DEFAULT 'registration'
                      CHECK (status IN ('registration', 'checkin', 'running', 'paused', 'finished', 'cancelled')),
        round         INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        finished_at   INTEGER
    );
    CREATE INDEX tournaments_status ON tournaments(status);
    CREATE TABLE tournament_entrants (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        user_id        INTEGER NOT NULL,
        name           TEXT    NOT NULL,
        status         TEXT    NOT NULL
                       CHECK (status IN ('registered', 'checked_in', 'waitlisted', 'dropped', 'disqualified')),
        registered_at  INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number         INTEGER NOT NULL,
        data           TEXT    NOT NULL DEFAULT '{}',
        started_at     INTEGER NOT NULL,
        finished_at    INTEGER,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE tournament_matches (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round          INTEGER NOT NULL,
        number         INTEGER NOT NULL,
        players        TEXT    NOT NULL,
        status         TEXT    NOT NULL
                       CHECK (status IN ('pending', 'playing', 'broken', 'done', 'empty')),
        game_id        INTEGER REFERENCES games(id),
        opened_at      INTEGER,
        shown          TEXT    NOT NULL DEFAULT '[]',
        result         TEXT,
        PRIMARY KEY (tournament_id, round, number)
    );
    CREATE INDEX tournament_matches_game ON tournament_matches(game_id);
    """,
    # 7: a running table's latest snapshot (docs/tables.md, "Restarts"): a restore replays only the
    # actions after it. ``code`` names the engine and bot code that wrote it; another code replays all.
    """
    CREATE TABLE snapshots (
        game_id   INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        seq       INTEGER NOT NULL,
        code      TEXT    NOT NULL,
        state     BLOB    NOT NULL,
        taken_at  INTEGER NOT NULL
    );
    """,
    # 8: the outbox (docs/design.md §3, "The outbox"): every table notice and tournament announcement,
    # stored with the change that causes it, posted in ``id`` order per target, marked sent (or
    # dropped: its target is gone). Plain SQL (INTEGER and TEXT), for a port to another database.
    """
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY,
        kind        TEXT    NOT NULL CHECK (kind IN ('table', 'tournament')),
        target      INTEGER NOT NULL,
        body        TEXT    NOT NULL,
        pings       TEXT    NOT NULL DEFAULT '[]',
        dedup       TEXT    UNIQUE,
        created_ms  INTEGER NOT NULL,
        attempts    INTEGER NOT NULL DEFAULT 0,
        sent_ms     INTEGER,
        message_id  INTEGER,
        dropped_ms  INTEGER,
        guild_id    INTEGER
    );
    CREATE INDEX outbox_pending ON outbox(sent_ms, dropped_ms, target, id);
    """,
]

LATEST = len(MIGRATIONS)
"""The schema version this code expects."""


async def current_version(db: Connection) -> int:
    """The schema version of *db* (0 for an empty database), SQLite's or PostgreSQL's."""
    # Each read runs and fetches in one trip to the database thread (see ``bot.storage.database.Database.rows``).
    if isinstance(db, PgConnection):
        exists = await db.execute_fetchall("SELECT to_regclass('schema_version') IS NOT NULL")
    else:
        exists = list(await db.execute_fetchall(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"))
    if not exists or not exists[0][0]:
        return 0
    rows = list(await db.execute_fetchall("SELECT version FROM schema_version"))
    return int(rows[0][0]) if rows else 0


_PG_MIGRATION_LOCK = 0x7061726C6F72  # "parlor": processes starting at once over one server migrate one at a time


async def migrate(db: Connection, *, target: int = LATEST) -> int:
    """Apply the missing migrations up to *target*; return the version reached.

    The same :data:`MIGRATIONS` serve both backends: on PostgreSQL each script is translated by
    :func:`bot.storage.postgres.to_postgres` and run under an advisory lock, so two processes
    starting together over one server do not both apply it.

    Raises
    ------
    RuntimeError
        The database is newer than this code (a downgrade is not supported).
    """
    if isinstance(db, PgConnection):
        await db.execute(f"SELECT pg_advisory_lock({_PG_MIGRATION_LOCK})")
        try:
            return await _migrate(db, target)
        finally:
            await db.execute(f"SELECT pg_advisory_unlock({_PG_MIGRATION_LOCK})")
            await db.commit()
    return await _migrate(db, target)


async def _migrate(db: Connection, target: int) -> int:
    version = await current_version(db)
    if version > LATEST:
        raise RuntimeError(f"database schema version {version} is newer than this Parlor ({LATEST}); upgrade Parlor")
    for index in range(version, target):
        body = MIGRATIONS[index] + (
            "\nCREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
            "\nDELETE FROM schema_version;"
            f"\nINSERT INTO schema_version (version) VALUES ({index + 1});"
        )
        try:
            if isinstance(db, PgConnection):
                await db.execute(body)  # a script: its own transaction, committed below
                await db.commit()
            else:
                await db.executescript("BEGIN;\n" + body + "\nCOMMIT;")
        except Exception:
            await db.rollback()
            raise
        version = index + 1
    return version
