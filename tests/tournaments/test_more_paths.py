"""More tournament paths through the service (docs/tournaments.md §7, docs/ratings.md "Tournaments"):
a single elimination seeded from the server's stored ratings when it starts, and a single elimination
of a multiplayer game where the top *k* of each table advance. The game is the test-only "High card"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import TablesConfig, TournamentsConfig
from bot.ratings.service import RatingService
from bot.storage import Storage
from bot.tournaments.service import TournamentService, result_from_json
from tests.engine.sample_game import BOTS, HighCard
from tests.tournaments.test_service import (
    CHANNEL,
    GUILD,
    ORGANIZER,
    PLAYERS,
    OfflineTables,
    _ui,
    play_round,
    recording,
)

OTHER_GUILD = GUILD + 1


@pytest.fixture
async def rated_world(tmp_path: Path) -> AsyncIterator[tuple[Storage, OfflineTables, TournamentService,
                                                             RatingService]]:
    """The tournament service with the rating service plugged in, as the bot wires them."""
    async with Storage.open(tmp_path / "t.db") as storage:
        tables = OfflineTables(storage, TablesConfig())
        tables.register_ui(_ui(), engine=HighCard, bots=BOTS)
        ratings = RatingService(storage)
        service = recording(storage, TournamentsConfig(no_show_minutes=1, checkin_minutes=0), tables, ratings)
        service.tick_seconds = 0.05
        service.attach()
        yield storage, tables, service, ratings
        await service.detach()
        await tables.shutdown()


async def finished_game(storage: Storage, ratings: RatingService, guild: int, winner: int, loser: int,
                        kind: str = "high-card") -> None:
    """A stored, finished two-player game *winner* beat *loser*, rated as the bot rates it."""
    game = await storage.create_game(kind, seed=1, guild_id=guild)
    await storage.set_seats(game, [(f"u{winner}", winner, None), (f"u{loser}", loser, None)])
    await storage.save_result(game, {"scores": {}, "ranks": {f"u{winner}": 1, f"u{loser}": 2},
                                     "winners": [f"u{winner}"], "detail": {}})
    assert await ratings.record_game(game)


async def test_single_elimination_start_seeds_the_rated_by_rating_then_the_unrated(rated_world) -> None:
    """Six register (u1..u6). In this server u5 > u2 > u4 by rating (u8, not entered, is rated best;
    u1 is rated only in another server, u3 only at another game). ``start`` seeds u5, u2, u4 first,
    then the unrated; the bracket of 8 gives the byes to seeds 1 and 2, and seed 3 meets seed 6."""
    storage, tables, service, ratings = rated_world
    for _ in range(3):
        await finished_game(storage, ratings, GUILD, 5, 2)
        await finished_game(storage, ratings, GUILD, 2, 4)
        await finished_game(storage, ratings, GUILD, 8, 5)
    await finished_game(storage, ratings, OTHER_GUILD, 1, 6)
    await finished_game(storage, ratings, GUILD, 3, 6, kind="blitz")
    stored = {r.player: r.mu - 3 * r.sigma for r in await storage.ratings(GUILD, "high-card")}
    assert stored["u5"] > stored["u2"] > stored["u4"] and "u1" not in stored and "u3" not in stored

    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind="high-card",
                             format="elimination", options={"tricks": 1})
    for p in PLAYERS[:6]:
        await service.register(t.id, p)
    await service.start(t.id, ORGANIZER)
    s = await service.load(t.id)
    seeds = list(s.t.settings["seeds"])
    assert seeds[:3] == ["u5", "u2", "u4"]
    assert sorted(seeds[3:]) == ["u1", "u3", "u6"]
    first = {frozenset(m.players) for m in s.current.matches}
    assert first == {frozenset({"u5"}), frozenset({"u2"}), frozenset({"u4", seeds[5]}),
                     frozenset({seeds[3], seeds[4]})}, first
    # the byes went to the two best-rated entrants; the real matches opened tables of exactly their players
    for m in s.current.matches:
        if len(m.players) == 2:
            assert [seat.player_id for seat in tables.tables[m.game_id].seats] == list(m.players)


async def test_multiplayer_single_elimination_advances_the_top_k_of_each_table(rated_world) -> None:
    """Eight players at tables of 4, top 2 advance: round 1 is two tables of 4; round 2 is one final table
    of the top two of each (ties at the cut to the better seed), and its winner wins the event."""
    storage, tables, service, ratings = rated_world
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Knockout", kind="high-card",
                             format="elimination", table_size=4, advance=2, options={"tricks": 1})
    for p in PLAYERS[:8]:
        await service.register(t.id, p)
    await service.start(t.id, ORGANIZER)
    s = await service.load(t.id)
    seeds = list(s.t.settings["seeds"])
    assert sorted(seeds) == sorted(f"u{p.user_id}" for p in PLAYERS)
    first = s.current.matches
    assert sorted(len(m.players) for m in first) == [4, 4]
    assert sorted(p for m in first for p in m.players) == sorted(seeds)
    for m in first:
        assert [seat.player_id for seat in tables.tables[m.game_id].seats] == list(m.players)

    await play_round(tables, service, t.id)
    s = await service.load(t.id)
    assert s.t.round == 2, "the final is paired when both tables are done"
    expected: set[str] = set()
    for m in s.rounds[0].matches:
        r = result_from_json(m.result)
        assert set(r.places) == set(m.players) and not r.forfeits
        expected |= set(sorted(m.players, key=lambda p: (r.places[p], seeds.index(p)))[:2])
    (final,) = s.current.matches
    assert set(final.players) == expected and len(expected) == 4
    assert [seat.player_id for seat in tables.tables[final.game_id].seats] == list(final.players)

    await play_round(tables, service, t.id)
    s = await service.load(t.id)
    assert s.t.status == "finished" and len(s.rounds) == 2
    r = result_from_json(s.rounds[1].matches[0].result)
    best = min(r.places[p] for p in final.players)
    first = [p for p in final.players if r.places[p] == best]  # a tie for first is broken by the standings
    over = next(p for p in service.messenger.posts if "is over" in p)
    assert any(f"Winner: **{s.names[p]}**" in over for p in first), over


@pytest.mark.parametrize("size", [3, 4, 5])
def test_a_two_player_minimum_game_may_advance_two_a_table_and_the_bracket_still_shrinks(size: int) -> None:
    """Every game here seats 2+, and ``create`` accepts advance 1-2 for it: with the top 2 advancing, every
    field from 2 to 128 shrinks round by round to one final table (a table of two sends one on)."""
    from bot.tournaments.elimination import advancing_per_table, pod_plan

    assert pod_plan(16, size=4, minimum=2, advance=2) == [16, 8, 4]
    assert advancing_per_table(5, 3, 2, 2) == 1  # 5 at tables of 3: 3 + 2; the table of two sends one on
    for n in range(2, 129):
        plan = pod_plan(n, size=size, minimum=2, advance=2)
        assert all(a > b for a, b in zip(plan, plan[1:], strict=False)) and 2 <= plan[-1] <= size, (n, plan)
    with pytest.raises(ValueError, match="advance"):
        advancing_per_table(8, 4, 2, 3)
