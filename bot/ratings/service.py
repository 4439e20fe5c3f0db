"""Ratings and statistics over storage: record finished games, rebuild, leaderboards, player stats.

Everything here is derived from the stored results (``docs/ratings.md``): the ``ratings`` table
is a cache that :meth:`RatingService.rebuild` recomputes from the results, in the order the
games ended, and gets the same numbers.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ratings.model import Entrant, Rating, RatingBook
from bot.storage import FinishedGame, RatingRow, Storage

__all__ = ["RatingService", "PlayerStats", "LeaderboardRow", "entrants_of", "registry_bot_orders", "THIRTY_DAYS_MS"]

DAY_MS = 24 * 3600 * 1000
"""A day in milliseconds."""
THIRTY_DAYS_MS = 30 * DAY_MS
"""The leaderboard's "last 30 days" period, in milliseconds."""


def entrants_of(game: FinishedGame, bot_order: Sequence[str]) -> list[Entrant]:
    """The seats of *game* as rating entrants (a seat without a rank in the result is left out).

    *bot_order* is the game's bots, strongest first (its ``BOTS``), for a bot's strength.
    """
    ranks = game.result.get("ranks", {})
    out = []
    for seat in game.seats:
        if seat.player_id not in ranks:
            continue
        if seat.user_id is not None:
            out.append(Entrant(f"u{seat.user_id}", int(ranks[seat.player_id])))
        else:
            name = seat.bot_name or "?"
            strength = list(bot_order).index(name) if name in bot_order else len(bot_order)
            out.append(Entrant(f"bot:{name}", int(ranks[seat.player_id]), strength))
    return out


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of a leaderboard: place (1 = top), user, rating and rated games."""

    place: int
    user_id: int
    rating: Rating


@dataclass
class PlayerStats:
    """A player's record in one server (one game, or all games).

    Attributes
    ----------
    games, wins:
        Finished games played, and those won (rank 1, shared wins count).
    best_streak:
        The most wins in a row.
    favourite:
        The game kind played most, or ``None``.
    ratings:
        Game kind to the player's rating there (only rated games count).
    recent:
        The last games, newest first: ``(game, rank, players)``.
    """

    games: int = 0
    wins: int = 0
    best_streak: int = 0
    favourite: str | None = None
    ratings: dict[str, Rating] = field(default_factory=dict)
    recent: list[tuple[FinishedGame, int]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """Wins per game, 0.0 to 1.0 (0.0 before any game)."""
        return self.wins / self.games if self.games else 0.0


class RatingService:
    """Ratings of every server and game, kept in storage.

    Parameters
    ----------
    storage:
        The open database.
    bot_orders:
        Game kind to its bots' names, strongest first (for a rated bot's fixed strength).

    Notes
    -----
    :meth:`record_game` and :meth:`rebuild` read the stored ratings and write them back; one lock
    serializes them, so two tables finishing at once (with a player in common) lose no update, and
    games are rated in the order they were recorded.
    """

    def __init__(self, storage: Storage, bot_orders: Mapping[str, Sequence[str]] | None = None) -> None:
        self.storage = storage
        self.bot_orders = dict(bot_orders or {})
        self._writing = asyncio.Lock()

    async def _rate_bots(self, guild_id: int) -> bool:
        return bool((await self.storage.guild_settings(guild_id)).get("rate_bots", False))

    async def record_game(self, game_id: int) -> bool:
        """|coro| Update the ratings with finished game *game_id*; returns whether it was rated.

        Called when a table's game ends (after its result is stored). Serialized with the other
        rating writes (see the class notes).
        """
        async with self._writing:
            return await self._record_game(game_id)

    async def _record_game(self, game_id: int) -> bool:
        games = await self.storage.finished_games(game_id=game_id)
        guild = games[0].guild_id if games else None
        if guild is None:
            return False
        game = games[0]
        stored = await self.storage.ratings(guild, game.kind)
        book = RatingBook({r.player: Rating(r.mu, r.sigma, r.games) for r in stored})
        entrants = entrants_of(game, self.bot_orders.get(game.kind, ()))
        if not book.record(entrants, rate_bots=await self._rate_bots(guild)):
            return False
        await self.storage.save_ratings([RatingRow(guild, game.kind, e.key, *_triple(book, e.key), game.id)
                                         for e in entrants if e.bot_strength is None])
        return True

    async def rebuild(self) -> int:
        """|coro| Recompute every rating from the stored results, in the order the games ended.

        Returns how many games were rated. The numbers equal those recorded game by game.
        """
        async with self._writing:
            return await self._rebuild()

    async def _rebuild(self) -> int:
        books: dict[tuple[int, str], RatingBook] = {}
        last: dict[tuple[int, str, str], int] = {}
        settings: dict[int, bool] = {}
        rated = 0
        for game in await self.storage.finished_games():
            if game.guild_id is None:
                continue
            if game.guild_id not in settings:
                settings[game.guild_id] = await self._rate_bots(game.guild_id)
            book = books.setdefault((game.guild_id, game.kind), RatingBook())
            entrants = entrants_of(game, self.bot_orders.get(game.kind, ()))
            if book.record(entrants, rate_bots=settings[game.guild_id]):
                rated += 1
                for e in entrants:
                    last[(game.guild_id, game.kind, e.key)] = game.id
        rows = [RatingRow(guild, kind, key, *_triple(book, key), last[(guild, kind, key)])
                for (guild, kind), book in books.items() for key in book.ratings]
        await self.storage.save_ratings(rows, replace_all=True)
        return rated

    async def leaderboard(self, guild_id: int, kind: str, *, since_ms: int | None = None,
                          last_days: int | None = None, min_games: int = 3) -> list[LeaderboardRow]:
        """|coro| People by rating (μ − 3σ, highest first) with at least *min_games* rated games.

        With *since_ms* (Unix ms), or *last_days* (days back from now, by the storage's clock), the
        ratings are computed over the games finished since then only, everyone starting afresh:
        "the last 30 days" is a leaderboard of that period's play.
        """
        if last_days is not None:
            since_ms = self.storage.clock() - last_days * DAY_MS
        if since_ms is None:
            ratings = {r.player: Rating(r.mu, r.sigma, r.games) for r in await self.storage.ratings(guild_id, kind)}
        else:
            book = RatingBook()
            rate_bots = await self._rate_bots(guild_id)
            for game in await self.storage.finished_games(guild_id=guild_id, kind=kind, since_ms=since_ms):
                book.record(entrants_of(game, self.bot_orders.get(kind, ())), rate_bots=rate_bots)
            ratings = book.ratings
        eligible = sorted(((key, r) for key, r in ratings.items() if key.startswith("u") and r.games >= min_games),
                          key=lambda kr: (-kr[1].ordinal, kr[0]))
        return [LeaderboardRow(i + 1, int(key[1:]), r) for i, (key, r) in enumerate(eligible)]

    async def stats(self, guild_id: int, user_id: int, kind: str | None = None, *, recent: int = 5) -> PlayerStats:
        """|coro| *user_id*'s record in one server, for one game kind or all of them."""
        stats = PlayerStats()
        streak = 0
        kinds: Counter[str] = Counter()
        played: list[tuple[FinishedGame, int]] = []
        for game in await self.storage.finished_games(guild_id=guild_id, kind=kind, user_id=user_id):
            seat = next((s for s in game.seats if s.user_id == user_id), None)
            ranks: dict[str, Any] = game.result.get("ranks", {})
            if seat is None or seat.player_id not in ranks:
                continue
            rank = int(ranks[seat.player_id])
            stats.games += 1
            kinds[game.kind] += 1
            played.append((game, rank))
            if rank == 1:
                stats.wins += 1
                streak += 1
                stats.best_streak = max(stats.best_streak, streak)
            else:
                streak = 0
        stats.favourite = kinds.most_common(1)[0][0] if kinds else None
        stats.recent = list(reversed(played[-recent:]))
        for k in ([kind] if kind else sorted(kinds)):
            row = next((r for r in await self.storage.ratings(guild_id, k) if r.player == f"u{user_id}"), None)
            if row is not None:
                stats.ratings[k] = Rating(row.mu, row.sigma, row.games)
        return stats

    async def seed_order(self, guild_id: int, kind: str, user_ids: Sequence[int]) -> list[int]:
        """|coro| *user_ids* in seeding order for a tournament: rated players by rating (μ − 3σ,
        highest first), then the unrated in the order given. For tournaments (``docs/ratings.md``).
        """
        rated = {r.player: Rating(r.mu, r.sigma, r.games) for r in await self.storage.ratings(guild_id, kind)}
        known = sorted((u for u in user_ids if f"u{u}" in rated), key=lambda u: -rated[f"u{u}"].ordinal)
        return known + [u for u in user_ids if f"u{u}" not in rated]


def registry_bot_orders() -> dict[str, list[str]]:
    """Each registered game's bots, strongest first (its declaration's order), for :class:`RatingService`."""
    from bot.engine import GAMES

    return {kind: list(game.bots) for kind, game in GAMES.items()}


def _triple(book: RatingBook, key: str) -> tuple[float, float, int]:
    r = book.rating(key)
    return r.mu, r.sigma, r.games
