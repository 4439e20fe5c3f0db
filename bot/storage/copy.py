"""``parlor db copy``: every row of a SQLite database into another database (PostgreSQL, usually).

A server outgrowing one process moves its data once, with the bot stopped: the source is read table by
table (the tables its schema holds, parents before the tables that refer to them, so a migration added
later is copied without a change here) and written in one transaction into a destination that holds no
rows yet; PostgreSQL's identity counters are then moved past the copied ids (``docs/design.md`` §3).
"""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.postgres import PgConnection

__all__ = ["copy_database", "CopyError"]

_BATCH = 2_000
"""Rows read and written per statement batch."""

_SKIP = ("schema_version", "sqlite_sequence")


class CopyError(RuntimeError):
    """The copy cannot start: the source is not SQLite, or the destination already holds rows."""


async def _source_tables(src: Database) -> list[tuple[str, list[str]]]:
    """The source's tables with their columns, each after the tables its foreign keys name."""
    names = [r[0] for r in await src.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
             if r[0] not in _SKIP]
    parents = {n: {r[2] for r in await src.rows(f"PRAGMA foreign_key_list({n})")} - {n} for n in names}
    columns = {n: [r[1] for r in await src.rows(f"PRAGMA table_info({n})")] for n in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:  # a cycle (none in Parlor's schema): the rest in name order, foreign keys checked at commit
            ready = [n for n in names if n not in ordered]
        ordered += ready
    return [(n, columns[n]) for n in ordered]


async def copy_database(src: Database, dst: Database) -> dict[str, int]:
    """|coro| Copy every row of *src* (a SQLite database) into *dst* (either backend, same schema version).

    Returns the number of rows copied per table. The destination is written in one transaction:
    a failure leaves it as it was.

    Raises
    ------
    CopyError
        *src* is not SQLite, or *dst* already holds rows (nothing is written).
    sqlite3.Error
        A read or write failed (the destination's transaction is rolled back).
    """
    if isinstance(src.conn, PgConnection):
        raise CopyError("the source must be a SQLite database (a file path or sqlite:PATH)")
    tables = await _source_tables(src)
    for name, _ in tables:
        if await dst.row(f"SELECT 1 FROM {name} LIMIT 1"):
            raise CopyError(f"the destination already holds rows (table {name}); copy into a new, empty database")
    counts: dict[str, int] = {}
    async with dst.transaction() as out:
        for name, cols in tables:
            counts[name] = 0
            insert = f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
            after = -(2**63)
            while batch := await src.rows(f"SELECT rowid, {', '.join(cols)} FROM {name} WHERE rowid > ?"
                                          f" ORDER BY rowid LIMIT {_BATCH}", (after,)):
                await out.executemany(insert, [tuple(r)[1:] for r in batch])
                after = batch[-1][0]
                counts[name] += len(batch)
            if isinstance(out, PgConnection) and "id" in cols:
                await out.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                                  f" (SELECT coalesce(max(id), 0) + 1 FROM {name}), false)")
    return counts
