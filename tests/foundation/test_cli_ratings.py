"""`parlor ratings rebuild` (docs/ratings.md, "Derived data"): the console command recomputes every rating
from the stored results and gives the numbers the games gave one by one, to the last bit."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot import cli
from bot.ratings.service import RatingService, registry_bot_orders
from bot.storage import RatingRow, Storage

GUILD, OTHER = 11, 12
PEOPLE = list(range(1, 9))


async def _all_ratings(storage: Storage) -> dict[tuple[int, str, str], tuple[float, float, int, int]]:
    out = {}
    for guild in (GUILD, OTHER):
        for kind in ("blitz", "dutch"):
            for r in await storage.ratings(guild, kind):
                out[(r.guild_id, r.kind, r.player)] = (r.mu, r.sigma, r.games, r.last_game)
    return out


async def _play_history(db: Path) -> tuple[dict[tuple[int, str, str], tuple[float, float, int, int]], int]:
    """Forty finished games in two servers and two games (two to four players, ties, bot seats, a
    one-rank game), each rated as it ends, the way the bot rates them. Returns the ratings and how
    many games were rated."""
    rng = random.Random(7)
    rated = 0
    async with Storage.open(db) as storage:
        ratings = RatingService(storage, registry_bot_orders())
        await storage.set_guild_settings(OTHER, {"rate_bots": True})
        for i in range(40):
            guild = GUILD if i % 3 else OTHER
            kind = "blitz" if i % 2 else "dutch"
            people = rng.sample(PEOPLE, rng.randint(2, 4))
            seats: list[tuple[str, int | None, str | None]] = [(f"u{u}", u, None) for u in people]
            if i % 5 == 0:
                strongest, weaker = registry_bot_orders()[kind][:2]  # each plays at its strength's rating
                seats += [("bot1", None, strongest), ("bot2", None, weaker)]
            ranks = {pid: rng.randint(1, len(seats)) for pid, _, _ in seats}
            if i == 13:
                ranks = dict.fromkeys(ranks, 1)  # everyone level: unrated
            game = await storage.create_game(kind, seed=i, guild_id=guild, thread_id=1000 + i)
            await storage.set_seats(game, seats)
            await storage.save_result(game, {"scores": {}, "ranks": ranks, "detail": {},
                                             "winners": [p for p, r in ranks.items() if r == 1]})
            rated += await ratings.record_game(game)
        return await _all_ratings(storage), rated


async def _spoil_and_read(db: Path) -> dict[tuple[int, str, str], tuple[float, float, int, int]]:
    async with Storage.open(db) as storage:
        await storage.save_ratings([RatingRow(GUILD, "blitz", "u1", 99.0, 0.5, 1, 1),
                                    RatingRow(GUILD, "blitz", "u999", 10.0, 1.0, 1, 1)], replace_all=True)
        return await _all_ratings(storage)


async def _read(db: Path) -> dict[tuple[int, str, str], tuple[float, float, int, int]]:
    async with Storage.open(db) as storage:
        return await _all_ratings(storage)


def test_parlor_ratings_rebuild_recomputes_the_same_numbers_from_the_results(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The ratings of forty games, each recorded as it ended, are thrown away (replaced by wrong ones);
    `parlor ratings rebuild` prints how many games it rated and restores every rating exactly
    (μ, σ, games and last game, bit for bit), in both servers and both games."""
    db = tmp_path / "parlor.db"
    before, rated = asyncio.run(_play_history(db))
    assert len({k[:2] for k in before}) == 4 and 25 <= rated < 40
    assert not any(k[2].startswith("bot") for k in before), "a bot's own rating is never stored"
    spoiled = asyncio.run(_spoil_and_read(db))
    assert spoiled != before and len(spoiled) == 2

    monkeypatch.setenv("PARLOR_DB", str(db))
    monkeypatch.delenv("PARLOR_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["ratings", "rebuild"]) == 0
    assert capsys.readouterr().out.strip() == f"ratings rebuilt from {rated} rated game(s)"
    after = asyncio.run(_read(db))
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == value, key  # exact floats: the same computation in the same order
