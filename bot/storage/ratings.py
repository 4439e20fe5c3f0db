"""The rating aggregate: ratings per server and game, and each server's settings."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.database import Database
from bot.storage.rows import RatingRow

__all__ = ["RatingStore"]


class RatingStore:
    """Every read and write of the ``ratings`` and ``guild_settings`` tables.

    Parameters
    ----------
    database:
        The main connection: reads in one trip, writes in one transaction each.
    """

    def __init__(self, database: Database) -> None:
        self._db = database

    async def ratings(self, guild_id: int, kind: str) -> list[RatingRow]:
        """|coro| Every stored rating of one server and game."""
        return [RatingRow(r["guild_id"], r["kind"], r["player"], r["mu"], r["sigma"], r["games"], r["last_game"])
                for r in await self._db.rows("SELECT * FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind))]

    async def save_ratings(self, rows: Sequence[RatingRow], *, replace_all: bool = False) -> None:
        """|coro| Store ratings (one transaction); *replace_all* first deletes every rating (a rebuild)."""
        async with self._db.transaction() as db:
            if replace_all:
                await db.execute("DELETE FROM ratings")
            await db.executemany(
                "INSERT INTO ratings (guild_id, kind, player, mu, sigma, games, last_game) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id, kind, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " games = excluded.games, last_game = excluded.last_game",
                [(r.guild_id, r.kind, r.player, r.mu, r.sigma, r.games, r.last_game) for r in rows])

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """|coro| A guild's settings (``{}`` when none were saved)."""
        row = await self._db.row("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def all_guild_settings(self) -> dict[int, dict[str, Any]]:
        """|coro| Every guild's settings, by guild id (guilds that saved none are not in it)."""
        rows = await self._db.rows("SELECT guild_id, settings FROM guild_settings")
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """|coro| Replace a guild's settings."""
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, json.dumps(settings), self._db.clock()),
            )
