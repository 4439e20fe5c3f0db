"""Tournaments of the real games (docs/tournaments.md §6, §9; docs/design.md §2 ``Engine.standing``).

Each game places an unfinished game by the rule of its rules page (Dutch Blitz: hand totals, the
highest ahead; Dutch: running totals, the lowest ahead; Blitz (31): lives, more ahead; Blitzkrieg:
cards held, more ahead); a forced tournament match follows that standing, and game points count
in the game's direction. The service tests run on the real (Discord-free) table service like
``test_service.py``, with the real engines and their bots registered.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.config import TablesConfig, TournamentsConfig
from bot.engine import REGISTRY, Engine
from bot.games.blitz.engine import BlitzEngine
from bot.games.blitzkrieg.engine import Blitzkrieg
from bot.games.dutch.engine import DutchEngine
from bot.games.dutch_blitz.engine import DutchBlitz
from bot.storage import Storage
from bot.tables.table import Table
from bot.tables.ui import GameUI
from bot.tournaments.model import Match, Outcome, Result, Round
from bot.tournaments.service import TournamentError, TournamentService, result_from_game, result_from_json
from bot.tournaments.standings import standings
from tests.tournaments.test_service import ORGANIZER, PLAYERS, OfflineTables, recording, settle

GUILD, CHANNEL = 5, 6
FAST_DUTCH = {"target": 70, "jump_in_grace_seconds": 0}
"""Dutch in few rounds: one round scores at most 4 × 13 + 15 = 67, so a round never ends it."""


def _ui(kind: str) -> GameUI:
    return type(f"{kind}UI", (GameUI,), {"kind": kind})()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Storage, OfflineTables, TournamentService]]:
    async with Storage.open(tmp_path / "t.db") as storage:
        tables = OfflineTables(storage, TablesConfig(race_window_ms=1))
        for kind in ("dutch", "dutch-blitz", "blitz", "blitzkrieg"):
            tables.register_ui(_ui(kind))
        service = recording(storage, TournamentsConfig(no_show_minutes=60, checkin_minutes=0), tables)
        service.tick_seconds = 0.05
        service.attach()
        yield storage, tables, service
        await service.detach()
        await tables.shutdown()


def _policy(rng: Random, engine: Engine) -> tuple[str, dict[str, Any]] | None:
    """One real move of anyone who may move: calls and knocks first (short rounds), never a jump-in
    (a wrong one lengthens the round) nor a table action; otherwise at random."""
    moves = [(p, a) for p in engine.players for a in engine.legal_actions(p)
             if a["type"] not in engine.table_actions and a["type"] != "jump_in"]
    if not moves:
        return None
    quick = [m for m in moves if m[1]["type"] in ("dutch", "knock")] if engine.kind in ("dutch", "blitz") else []
    return rng.choice(quick) if quick and rng.random() < 0.5 else rng.choice(moves)


async def play(tables: OfflineTables, table: Table, until: Callable[[Any], bool], seed: int = 1,
               limit: int = 20_000) -> None:
    """Everyone shows up, then real moves go through the table until *until*(engine) or the end."""
    for seat in table.seats:
        if seat.user_id is not None:
            tables.note_seen(table, seat.user_id)
    rng = Random(seed)
    for _ in range(limit):
        engine = table.engine
        if engine is None or engine.is_over or table.status != "running" or until(engine):
            return
        move = _policy(rng, engine)
        assert move is not None, "nobody can move"
        await tables.submit(table, move[0], move[1], 0)
    raise AssertionError("the game did not get there")


async def two_player_match(service: TournamentService, tables: OfflineTables, kind: str,
                           options: dict[str, Any] | None = None, rounds: int = 1) -> tuple[int, Table, str, str]:
    """A started two-player Swiss of *kind*: its id, the match's live table and its two players."""
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind=kind,
                             format="swiss", rounds=rounds, options=options or {})
    for p in PLAYERS[:2]:
        await service.register(t.id, p)
    await service.start(t.id, ORGANIZER)
    s = await service.load(t.id)
    (m,) = s.current.matches
    table = tables.tables[m.game_id]
    for seat in table.seats:
        tables.note_seen(table, seat.user_id)
    await asyncio.sleep(0.02)
    return t.id, table, m.players[0], m.players[1]


async def force_result(service: TournamentService, tid: int) -> Result:
    assert await service.force(tid, ORGANIZER) == 1
    await settle(service)
    s = await service.load(tid)
    r = result_from_json(s.rounds[0].matches[0].result)
    assert r.forced
    return r


# ------------------------------------------------------------------------------------ the engines


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_every_game_places_a_new_game_level_and_a_finished_one_by_its_result(kind: str) -> None:
    """``Engine.standing``: provisional at the start (everyone level), the final result at the end."""
    cls = REGISTRY[kind]
    players = [f"p{i}" for i in range(max(2, cls.min_players))]
    game = cls.new(players, seed=3, options=cls.conformance_options)
    now = game.standing()
    assert now.detail == {"provisional": True} and set(now.ranks) == set(players) == set(now.scores)
    assert set(now.ranks.values()) == {1}, "nothing has been scored yet"
    rng = Random(3)
    while not game.is_over:
        move = _policy(rng, game) or next((p, a) for p in players for a in game.legal_actions(p))
        game.apply(*move)
    assert game.standing() == game.result()


def test_dutch_standing_is_the_running_totals_lowest_ahead() -> None:
    """docs/rules/dutch.md §9.7: after a scored round, the lower total is ahead; lowest_score_wins is set."""
    game = DutchEngine.new(["a", "b", "c"], seed=5, options=FAST_DUTCH)
    rng = Random(5)
    while game.phase != "round_over":
        game.apply(*_policy(rng, game))  # type: ignore[misc]
    now = game.standing()
    assert dict(now.scores) == {p: float(v) for p, v in game.totals.items()}
    assert all((now.ranks[p] < now.ranks[q]) == (game.totals[p] < game.totals[q]) for p in "abc" for q in "abc")
    assert DutchEngine.lowest_score_wins and not DutchBlitz.lowest_score_wins


def test_blitz_standing_puts_more_lives_ahead_and_the_out_behind() -> None:
    """docs/rules/blitz.md §8: players still in by lives, then those out, the later out ahead."""
    game = BlitzEngine.new(["a", "b", "c", "d"], seed=2)
    game.lives = {"a": 2, "b": 0, "c": 3, "d": 0}
    game.out_order = [["d"], ["b"]]
    now = game.standing()
    assert dict(now.ranks) == {"c": 1, "a": 2, "b": 3, "d": 4}
    assert dict(now.scores) == {"a": 2.0, "b": 0.0, "c": 3.0, "d": 0.0} and now.winners == ("c",)


def test_blitzkrieg_standing_counts_cards_held_and_not_the_battle_under_way() -> None:
    """docs/rules/blitzkrieg.md §4: more cards ahead; a card turned for an undecided battle still counts."""
    game = Blitzkrieg.new(["a", "b"], seed=4)
    game.apply("a", {"type": "battle"})  # a's card waits face up: the battle is not decided
    assert dict(game.standing().scores) == {"a": 27.0, "b": 27.0}
    game.apply("b", {"type": "battle"})
    while game.pending is not None:
        seat = game.players[game.pending["seat"]]
        game.apply(seat, game.legal_actions(seat)[0])
    sizes = {p: float(len(game.decks[i])) for i, p in enumerate(game.players)}
    now = game.standing()
    assert dict(now.scores) == sizes and sum(sizes.values()) + len(game.aside) == 54
    if sizes["a"] != sizes["b"]:
        assert now.winners == (max(sizes, key=sizes.__getitem__),)


# ------------------------------------------------------------------------------------ game points


def test_game_points_order_dutch_players_by_the_lower_totals() -> None:
    """§6: Dutch totals are penalties, so game points count how far below the table's highest total a
    player finished. Ann (5 against 40) and Cid (20 against 30) both won; Ann's margin puts her first,
    where the raw totals (20 > 5) would have put Cid first."""
    games = [({"ann": 5, "bob": 40}, ("ann", "bob")), ({"cid": 20, "dee": 30}, ("cid", "dee"))]
    results = tuple(result_from_game(list(order), {"scores": scores, "ranks": {order[0]: 1, order[1]: 2}},
                                     lowest_wins=True) for scores, order in games)
    rnd = Round((Match(("ann", "bob")), Match(("cid", "dee"))), results)
    rows = standings(["ann", "bob", "cid", "dee"], [rnd])
    assert [(r.player, r.game_points) for r in rows[:2]] == [("ann", 35), ("cid", 10)]
    assert [r.game_points for r in rows[2:]] == [0, 0], "the worst of each table gains nothing"
    assert rows[0].rank == 1 and rows[1].rank == 2


# ------------------------------------------------------------------------------------ forced matches


async def test_a_forced_dutch_match_goes_to_the_lower_total(world) -> None:
    """§9 and docs/rules/dutch.md §9.7: totals 5 and 40 after some rounds: the 5 wins the forced match."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "dutch", FAST_DUTCH)
    table.engine.totals = {a: 40, b: 5}  # as after rounds already scored
    r = await force_result(service, tid)
    assert r.outcome(b) == Outcome.WIN and r.outcome(a) == Outcome.LOSS
    assert dict(r.scores) == {a: 40.0, b: 5.0} and r.lowest_wins
    assert (r.game_points(b), r.game_points(a)) == (35, 0)


async def test_a_forced_blitz_match_goes_to_more_lives(world) -> None:
    """§9 and docs/rules/blitz.md §8: 4 lives against 1: the 4 wins (it used to be a draw)."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "blitz")
    table.engine.lives = {a: 1, b: 4}
    r = await force_result(service, tid)
    assert r.outcome(b) == Outcome.WIN and dict(r.scores) == {a: 1.0, b: 4.0}


async def test_a_forced_blitzkrieg_match_goes_to_more_cards(world) -> None:
    """§9 and docs/rules/blitzkrieg.md §4: 37 cards against 17: the 37 wins (it used to be a draw)."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "blitzkrieg")
    engine = table.engine
    engine.decks = [engine.decks[0][:17], engine.decks[1] + engine.decks[0][17:]]  # 10 cards won by b
    r = await force_result(service, tid)
    assert r.outcome(b) == Outcome.WIN and dict(r.scores) == {a: 17.0, b: 37.0}


async def test_a_forced_dutch_blitz_match_goes_to_the_higher_total(world) -> None:
    """§9 and docs/rules/dutch-blitz.md §9: totals 12 and −6 after some hands: the 12 wins."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "dutch-blitz")
    table.engine.totals = {a: 12, b: -6}
    r = await force_result(service, tid)
    assert r.outcome(a) == Outcome.WIN and not r.lowest_wins and r.game_points(a) == 12


async def test_a_forced_blitz_match_from_real_play_and_a_broken_table(world) -> None:
    """A real Blitz (31) round is played (someone loses a life), then the table is ended without a
    result: the match is **broken** and the channel told; forcing it rebuilds the game from its stored
    log and gives it to the player with more lives."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "blitz", {"lives": 3})
    await play(tables, table, until=lambda e: sum(e.lives.values()) < 6)
    lives = dict(table.engine.lives)
    assert lives[a] != lives[b]
    await tables.close_table(table.id, "ended by hand")
    await service.step(tid)
    s = await service.load(tid)
    assert s.current.matches[0].status == "broken"
    assert any("ended without a result" in p for p in service.messenger.posts)
    r = await force_result(service, tid)
    ahead = max(lives, key=lives.__getitem__)
    assert r.outcome(ahead) == Outcome.WIN and dict(r.scores) == {p: float(v) for p, v in lives.items()}


# ------------------------------------------------------------------------------------ a whole event


async def test_a_dutch_swiss_runs_from_real_games_with_a_forced_round(world) -> None:
    """Three players, two Swiss rounds of Dutch (fast options). Round 1's game is played to its end
    and recorded (the lowest total first); round 2 is forced after its first round is scored and goes
    to the lower total. The final standings count game points lower-is-better."""
    storage, tables, service = world
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Dutch cup", kind="dutch",
                             format="swiss", rounds=2, options=FAST_DUTCH)
    for p in PLAYERS[:3]:
        await service.register(t.id, p)
    await service.start(t.id, ORGANIZER)

    s = await service.load(t.id)
    (m1,) = [m for m in s.current.matches if len(m.players) == 2]
    table = tables.tables[m1.game_id]
    await play(tables, table, until=lambda e: False, seed=11)
    final = table.engine.result()
    await settle(service)
    s = await service.load(t.id)
    r1 = result_from_json(s.rounds[0].matches[[m.number for m in s.rounds[0].matches].index(m1.number)].result)
    assert not r1.forced and r1.lowest_wins
    assert dict(r1.scores) == {p: float(v) for p, v in final.scores.items()}
    low = min(final.scores.values())
    assert all((r1.places[p] == 1) == (final.scores[p] == low) for p in m1.players)

    assert s.t.round == 2
    (m2,) = [m for m in s.current.matches if len(m.players) == 2]
    table = tables.tables[m2.game_id]
    await play(tables, table, until=lambda e: e.phase == "round_over", seed=12)
    totals = dict(table.engine.totals)
    assert not table.engine.is_over
    assert await service.force(t.id, ORGANIZER) == 1
    await settle(service)
    s = await service.load(t.id)
    r2 = result_from_json(next(m for m in s.rounds[1].matches if len(m.players) == 2).result)
    assert r2.forced and dict(r2.scores) == {p: float(v) for p, v in totals.items()}
    x, y = m2.players
    expected = Outcome.DRAW if totals[x] == totals[y] else Outcome.WIN if totals[x] < totals[y] else Outcome.LOSS
    assert r2.outcome(x) == expected
    assert s.t.status == "finished" and table.status == "cancelled"

    rows = {r.player: r for r in service.standings(s)}
    for p in rows:
        mine = [r for rnd in s.model_rounds() for r in rnd.results if r is not None and p in r.places]
        assert rows[p].game_points == sum(r.game_points(p) for r in mine)
        assert all(r.game_points(p) >= 0 for r in mine)
    assert any("Final standings" in p for p in service.messenger.posts)


# ------------------------------------------------------------------------------------ organizer controls


async def test_disqualify_forfeits_the_match_and_bars_registering_again(world) -> None:
    """`/tournament disqualify`: only the organizer (or a moderator); before the start the player is out
    and cannot register again; mid-round their match is forfeited, they are not paired again, and the
    standings mark them (docs/tournaments.md §10)."""
    storage, tables, service = world
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind="dutch-blitz",
                             format="swiss", rounds=2)
    for p in PLAYERS[:5]:
        await service.register(t.id, p)
    with pytest.raises(TournamentError, match="Only the organizer"):
        await service.drop(t.id, PLAYERS[0], PLAYERS[4].user_id, disqualify=True)
    with pytest.raises(TournamentError, match="Only the organizer"):
        await service.drop(t.id, PLAYERS[4], PLAYERS[4].user_id, disqualify=True)
    assert "disqualified" in await service.drop(t.id, ORGANIZER, PLAYERS[4].user_id, disqualify=True)
    with pytest.raises(TournamentError, match="disqualified"):
        await service.register(t.id, PLAYERS[4])
    with pytest.raises(TournamentError, match="already out"):
        await service.drop(t.id, ORGANIZER, PLAYERS[4].user_id, disqualify=True)

    await service.start(t.id, ORGANIZER)
    s = await service.load(t.id)
    assert "u5" not in s.active and all("u5" not in m.players for m in s.current.matches)
    m = next(x for x in s.current.matches if "u1" in x.players)
    await service.drop(t.id, ORGANIZER, PLAYERS[0].user_id, disqualify=True)
    await settle(service)
    s = await service.load(t.id)
    r = result_from_json(next(x for x in s.rounds[0].matches if x.number == m.number).result)
    assert r.forfeits == {"u1"} and (len(m.players) == 1 or r.outcome(next(p for p in m.players if p != "u1"))
                                    == Outcome.WIN)
    entrants = {e.user_id: e.status for e in await storage.entrants(t.id)}
    assert entrants[1] == entrants[5] == "disqualified"
    if m.game_id is not None:
        assert m.game_id not in tables.tables, "the forfeited match's table is ended"
    await service.force(t.id, ORGANIZER)  # finish round 1: the other games are level, so drawn
    await settle(service)
    s = await service.load(t.id)
    assert s.t.round == 2 and all("u1" not in x.players for x in s.current.matches)
    assert "(disqualified)" in service.standings_text(s)


async def test_a_broken_match_is_reseated_and_then_played(world) -> None:
    """A match's table ends without a result: the match is broken; `/tournament reseat` opens a new table
    for the same players, whose finished game is then recorded (docs/tournaments.md §10)."""
    storage, tables, service = world
    tid, table, a, b = await two_player_match(service, tables, "dutch", FAST_DUTCH, rounds=1)
    old = table.id
    await tables.close_table(old, "ended by hand")
    await service.step(tid)
    s = await service.load(tid)
    assert s.current.matches[0].status == "broken" and s.t.status == "running"
    await service.reseat(tid, ORGANIZER, 1)
    s = await service.load(tid)
    m = s.current.matches[0]
    assert m.status == "playing" and m.game_id not in (None, old)
    fresh = tables.tables[m.game_id]
    assert [seat.player_id for seat in fresh.seats] == list(m.players)
    await play(tables, fresh, until=lambda e: False, seed=21)
    await settle(service)
    s = await service.load(tid)
    r = result_from_json(s.rounds[0].matches[0].result)
    assert not r.forced and s.t.status == "finished"
    assert r == result_from_game(list(m.players), await storage.result(m.game_id), lowest_wins=True)
