"""Ratings over storage (bot/ratings/service.py): record, rebuild, leaderboards, stats, seeding, replays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import cli
from bot.engine import REGISTRY, get_game
from bot.engine.simulate import bot_classes_for, play_game
from bot.ratings.service import THIRTY_DAYS_MS, RatingService
from bot.storage import Storage

GUILD = 77


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


async def finish(storage: Storage, ranks: dict[int, int], *, kind: str = "blitz", bots: tuple[str, ...] = (),
                 guild: int = GUILD) -> int:
    """Store a finished game: users (id -> rank) and bot seats (name, last)."""
    game = await storage.create_game(kind, seed=1, guild_id=guild, thread_id=1000 + guild)
    seats = [(f"u{u}", u, None) for u in ranks] + [(f"bot{i}", None, name) for i, name in enumerate(bots)]
    await storage.set_seats(game, seats)
    result = {"scores": {}, "ranks": {**{f"u{u}": r for u, r in ranks.items()},
                                      **{f"bot{i}": len(ranks) + 1 for i in range(len(bots))}},
              "winners": [f"u{u}" for u, r in ranks.items() if r == 1], "detail": {}}
    await storage.save_result(game, result)
    return game


@pytest.fixture
async def storage(tmp_path: Path):
    clock = Clock()
    async with Storage.open(tmp_path / "p.db", clock=clock) as s:
        s.clock_ref = clock  # type: ignore[attr-defined]
        yield s


async def test_recorded_game_by_game_equals_a_rebuild(storage: Storage) -> None:
    """Ratings recorded as games end are the ones `ratings rebuild` recomputes from the results."""
    service = RatingService(storage, {"blitz": ["heuristic", "easy"]})
    for ranks in ({1: 1, 2: 2}, {2: 1, 3: 2, 1: 3}, {1: 1, 3: 2}, {3: 1, 2: 1, 1: 3}):
        game = await finish(storage, ranks)
        assert await service.record_game(game)
    before = {r.player: (r.mu, r.sigma, r.games) for r in await storage.ratings(GUILD, "blitz")}
    assert await service.rebuild() == 4
    after = {r.player: (r.mu, r.sigma, r.games) for r in await storage.ratings(GUILD, "blitz")}
    assert after == before and set(after) == {"u1", "u2", "u3"}  # the same numbers, to the last bit


async def test_two_games_recorded_at_once_lose_no_update(storage: Storage) -> None:
    """Two tables of one game end together with a player in common: both finish hooks run at once,
    and the ratings are still those a rebuild computes (neither update overwrites the other)."""
    service = RatingService(storage)
    first = await finish(storage, {1: 1, 2: 2})
    second = await finish(storage, {1: 2, 3: 1})
    assert await asyncio.gather(service.record_game(first), service.record_game(second)) == [True, True]
    recorded = {r.player: (r.mu, r.sigma, r.games) for r in await storage.ratings(GUILD, "blitz")}
    assert recorded["u1"][2] == 2, "the player of both games has both games rated"
    assert await service.rebuild() == 2
    rebuilt = {r.player: (r.mu, r.sigma, r.games) for r in await storage.ratings(GUILD, "blitz")}
    assert recorded == rebuilt


async def test_games_with_bots_are_unrated_unless_the_server_rates_them(storage: Storage) -> None:
    """One person against a bot: unrated by default (no second person); with the server's rate_bots on, rated."""
    service = RatingService(storage, {"blitz": ["heuristic", "easy"]})
    first = await finish(storage, {1: 1}, bots=("easy",))
    assert not await service.record_game(first)
    await storage.set_guild_settings(GUILD, {"rate_bots": True})
    second = await finish(storage, {1: 1}, bots=("easy",))
    assert await service.record_game(second)
    assert [r.player for r in await storage.ratings(GUILD, "blitz")] == ["u1"]


async def test_leaderboard_order_minimum_games_and_period(storage: Storage) -> None:
    """Highest μ − 3σ first; fewer than the minimum of games is left out; the 30-day board starts afresh."""
    service = RatingService(storage)
    for _ in range(3):
        await service.record_game(await finish(storage, {1: 1, 2: 2}))
    await service.record_game(await finish(storage, {3: 1, 2: 2}))
    board = await service.leaderboard(GUILD, "blitz", min_games=3)
    assert [r.user_id for r in board] == [1, 2] and [r.place for r in board] == [1, 2]
    assert board[0].rating.ordinal > board[1].rating.ordinal
    assert [r.user_id for r in await service.leaderboard(GUILD, "blitz", min_games=1)][:1] == [1]
    storage.clock_ref.now += THIRTY_DAYS_MS + 60_000  # type: ignore[attr-defined]
    recent = await finish(storage, {2: 1, 1: 2})
    await service.record_game(recent)
    since = storage.clock_ref.now - 1000  # type: ignore[attr-defined]
    month = await service.leaderboard(GUILD, "blitz", since_ms=since, min_games=1)
    assert [r.user_id for r in month] == [2, 1] and all(r.rating.games == 1 for r in month)
    assert await service.leaderboard(GUILD, "blitz", last_days=30, min_games=1) == month, \
        "the last 30 days by the storage's clock: only the recent game"


async def test_stats_count_games_wins_streak_and_favourite(storage: Storage) -> None:
    """Games, wins, best streak, favourite game and the last games, newest first."""
    service = RatingService(storage)
    for ranks, kind in (({1: 1, 2: 2}, "blitz"), ({1: 1, 2: 2}, "blitz"), ({1: 2, 2: 1}, "dutch"),
                        ({1: 1, 2: 2}, "blitz")):
        await service.record_game(await finish(storage, ranks, kind=kind))
    s = await service.stats(GUILD, 1)
    assert (s.games, s.wins, s.best_streak, s.favourite) == (4, 3, 2, "blitz")
    assert s.win_rate == 0.75 and [g.kind for g, _ in s.recent] == ["blitz", "dutch", "blitz", "blitz"]
    assert set(s.ratings) == {"blitz", "dutch"}
    assert (await service.stats(GUILD, 1, "dutch")).games == 1


async def test_ratings_survive_a_restart(tmp_path: Path) -> None:
    """Closed and opened again, the database has the same ratings."""
    async with Storage.open(tmp_path / "p.db") as storage:
        service = RatingService(storage)
        await service.record_game(await finish(storage, {1: 1, 2: 2}))
        before = await storage.ratings(GUILD, "blitz")
    async with Storage.open(tmp_path / "p.db") as storage:
        assert await storage.ratings(GUILD, "blitz") == before != []


async def test_tournament_seeding_uses_ratings_then_the_given_order(storage: Storage) -> None:
    """Rated players by rating, highest first; the unrated after them in the order given."""
    service = RatingService(storage)
    await service.record_game(await finish(storage, {1: 2, 2: 1}))
    assert await service.seed_order(GUILD, "blitz", [9, 1, 8, 2]) == [2, 1, 9, 8]


def test_replay_of_a_finished_dutch_blitz_game_reproduces_its_final_scores(tmp_path: Path, monkeypatch,
                                                                          capsys) -> None:
    """`parlor replay GAME_ID` tells a stored game to its end, with the final totals of its stored result."""
    kind = "dutch-blitz"
    record = play_game(REGISTRY[kind], ["p0", "p1"], seed=5, options={"target": 10},
                       bot_classes=bot_classes_for(get_game(kind), None, 2))
    db = tmp_path / "p.db"

    async def store() -> int:
        async with Storage.open(db) as storage:
            game = await storage.create_game(kind, seed=5, options={"target": 10}, guild_id=GUILD)
            await storage.set_seats(game, [("p0", 1, None), ("p1", 2, None)])
            for seq, (player, action) in enumerate(record.engine.log()["actions"], start=1):
                await storage.append_action(game, seq, player, action)
            await storage.save_result(game, record.engine.result().to_json())
            return game

    game = asyncio.run(store())
    monkeypatch.setenv("PARLOR_DB", str(db))
    assert cli.main(["replay", str(game)]) == 0
    out = capsys.readouterr().out
    last = [line for line in out.splitlines() if "Game over" in line][-1]
    for player, score in record.engine.result().scores.items():
        seat = "Seat 1" if player == "p0" else "Seat 2"  # seats stored without names are named by number
        assert f"{seat} {score}" in last
    assert cli.main(["replay", str(game), "--player", "3"]) == 1
    assert "no seat" in capsys.readouterr().err
