"""The tournament service without Discord (docs/tournaments.md §10): registration, check-in, rounds that
run themselves on the real (Discord-free) table service, results from the finished games, no-shows,
drops, forcing, restarts and the CSV export. The game is the test-only "High card" (2-4 players)."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import TablesConfig, TournamentsConfig
from bot.storage import Storage
from bot.tables.core import Actor
from bot.tables.messenger import RecordingMessenger
from bot.tables.service import Tables
from bot.tables.table import Table
from bot.tournaments.messenger import RecordingTournamentMessenger
from bot.tournaments.model import Match, Outcome, Result
from bot.tournaments.service import (
    TournamentError,
    TournamentService,
    result_from_game,
    result_from_json,
    result_to_json,
)
from bot.tournaments.standings import standings
from tests.engine.sample_game import BOTS, HighCard

ORGANIZER = Actor(99, "org")
MOD = Actor(98, "mod", moderator=True)
PLAYERS = [Actor(i, f"p{i}") for i in range(1, 9)]
GUILD, CHANNEL = 5, 6


class OfflineTables(Tables):
    """The table service without Discord (its messenger records what it would post), plus the one
    thing the Discord service adds that tournaments use: ``open_seated``, here with no thread or message.
    """

    def __init__(self, storage: Storage, config: TablesConfig) -> None:
        self.recorded = RecordingMessenger()
        super().__init__(storage, config, self.recorded)
        self.opened: list[Table] = []

    async def open_seated(self, kind: str, options: dict[str, Any], settings: dict[str, Any] | None, *,
                          guild_id: int | None, channel_id: int, seats: list[tuple[int, str]], host_id: int,
                          title: str | None = None, intro: str = "") -> Table:
        table = await self.create_seated(kind, options, settings, guild_id=guild_id, channel_id=channel_id,
                                         seats=seats, host_id=host_id)
        table.thread_id = 10_000 + table.id
        table.message_id = 20_000 + table.id
        await self.start_seated(table)
        self.opened.append(table)
        return table


def recording(storage: Storage, config: TournamentsConfig, tables: Any, ratings: Any = None) -> TournamentService:
    """The service over a messenger that records what would be posted (``service.messenger.posts``)."""
    return TournamentService(storage, config, tables, ratings, messenger=RecordingTournamentMessenger())


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Storage, OfflineTables, TournamentService]]:
    async with Storage.open(tmp_path / "t.db") as storage:
        tables = OfflineTables(storage, TablesConfig())
        tables.register_ui(_ui(), engine=HighCard, bots=BOTS)
        service = recording(storage, TournamentsConfig(no_show_minutes=1, checkin_minutes=0), tables)
        service.tick_seconds = 0.05
        service.attach()
        yield storage, tables, service
        await service.detach()
        await tables.shutdown()


def _ui() -> Any:
    from tests.e2e._sample_cog import HighCardUI

    return HighCardUI()


async def settle(service: TournamentService) -> None:
    """Let the service's background chores (recording, next rounds) run out."""
    for _ in range(500):
        await asyncio.sleep(0.01)
        if not service.core.chores:
            await asyncio.sleep(0.02)
            if not service.core.chores:
                return
    raise AssertionError("the service did not settle")


async def show_and_play(tables: OfflineTables, table: Table, absent: tuple[int, ...] = ()) -> None:
    """Every seated person (but *absent*) shows up, then everyone plays their lowest card until the end."""
    for seat in table.seats:
        if seat.user_id is not None and seat.user_id not in absent:
            tables.note_seen(table, seat.user_id)
    await asyncio.sleep(0.02)
    while table.engine is not None and not table.engine.is_over and table.status == "running":
        player = table.engine.view(None)["turn"]
        action = min(table.engine.legal_actions(player), key=lambda a: a["card"])
        await tables.submit(table, player, action, 0)


async def new_swiss(service: TournamentService, n: int = 7, **kw: Any) -> int:
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind="high-card",
                             format=kw.pop("format", "swiss"), options={"tricks": 1}, **kw)
    for p in PLAYERS[:n]:
        await service.register(t.id, p)
    return t.id


async def play_round(tables: OfflineTables, service: TournamentService, tid: int) -> None:
    s = await service.load(tid)
    assert s.current is not None
    for m in s.current.matches:
        if m.status == "playing" and m.game_id in tables.tables:
            await show_and_play(tables, tables.tables[m.game_id])
    await settle(service)


# ------------------------------------------------------------------------------------ pure helpers


def test_result_from_game_keeps_ranks_and_forfeits_the_gone() -> None:
    """A finished game's ranks and scores become places and game points; a forfeiter is last with none."""
    game = {"scores": {"u1": 1, "u2": 2, "u3": 0}, "ranks": {"u1": 2, "u2": 1, "u3": 3}}
    r = result_from_game(["u1", "u2", "u3"], game)
    assert dict(r.places) == {"u1": 2, "u2": 1, "u3": 3} and dict(r.scores) == {"u1": 1.0, "u2": 2.0, "u3": 0.0}
    gone = result_from_game(["u1", "u2", "u3"], game, gone=["u2"])
    assert gone.forfeits == {"u2"} and gone.points("u2") == 0 and gone.outcome("u1") == Outcome.WIN
    assert dict(gone.places)["u1"] == 1 and "u2" not in gone.scores
    assert result_from_game(["u1", "u2"], game, gone=["u1", "u2"]).points("u1") == 0


def test_results_round_trip_through_json() -> None:
    r = Result.ranked({"a": 1, "b": 2}, scores={"a": 3}, forfeits=["b"], forced=True)
    assert result_from_json(result_to_json(r)) == r


def test_the_default_standing_is_level_and_a_finished_game_gives_its_result() -> None:
    """High card defines no standing of its own: a running game places everyone level on 0 (a forced
    match is a draw, §9); a finished one gives its result (docs/design.md §2, ``Engine.standing``)."""
    g = HighCard.new(["a", "b"], seed=1, options={"tricks": 2})
    p = g.view(None)["turn"]
    g.apply(p, g.legal_actions(p)[0])
    now = g.standing()
    assert dict(now.scores) == {"a": 0.0, "b": 0.0} and dict(now.ranks) == {"a": 1, "b": 1}
    assert now.detail == {"provisional": True} and not HighCard.lowest_score_wins
    while not g.is_over:
        p = g.view(None)["turn"]
        g.apply(p, g.legal_actions(p)[0])
    assert g.standing() == g.result()


# ------------------------------------------------------------------------------------ registration


async def test_capacity_waitlist_and_a_freed_place(world) -> None:
    """Past the capacity players are waitlisted; an unregistration moves the first of them up."""
    storage, tables, service = world
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind="high-card",
                             format="swiss", capacity=2)
    assert "registered" in await service.register(t.id, PLAYERS[0])
    await service.register(t.id, PLAYERS[1])
    assert "waitlist (#1)" in await service.register(t.id, PLAYERS[2])
    with pytest.raises(TournamentError, match="already"):
        await service.register(t.id, PLAYERS[0])
    await service.unregister(t.id, PLAYERS[0])
    await settle(service)
    status = {e.user_id: e.status for e in await storage.entrants(t.id)}
    assert status == {2: "registered", 3: "registered"}
    assert any("moves up from the waitlist" in p for p in service.messenger.posts)


async def test_check_in_drops_the_unchecked_at_the_start(world) -> None:
    """Only the checked in play; check-in before the window is refused; only the organizer starts."""
    storage, tables, service = world
    tid = await new_swiss(service, 4)
    with pytest.raises(TournamentError, match="not open"):
        await service.check_in(tid, PLAYERS[0])
    with pytest.raises(TournamentError, match="Only the organizer"):
        await service.open_checkin(tid, PLAYERS[0])
    await service.open_checkin(tid, ORGANIZER)
    for p in PLAYERS[:3]:
        await service.check_in(tid, p)
    await service.start(tid, MOD)  # a moderator steps in
    status = {e.user_id: e.status for e in await storage.entrants(tid)}
    assert status == {1: "checked_in", 2: "checked_in", 3: "checked_in", 4: "dropped"}
    s = await service.load(tid)
    assert s.t.status == "running" and sorted(p for m in s.current.matches for p in m.players) == ["u1", "u2", "u3"]
    with pytest.raises(TournamentError, match="closed"):
        await service.register(tid, PLAYERS[5])


async def test_a_timed_start_opens_check_in_then_starts(world) -> None:
    """start_in_minutes and checkin_minutes (scaled down): check-in opens, then the event starts by itself."""
    storage, tables, service = world
    service.time_scale = 0.002  # a minute is 0.12 s
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Timed", kind="high-card",
                             format="swiss", start_in_minutes=2, checkin_minutes=1, options={"tricks": 1})
    for p in PLAYERS[:3]:
        await service.register(t.id, p)
    service.attach()
    for _ in range(100):
        if (await service.tournament(t.id)).status == "checkin":
            break
        await asyncio.sleep(0.02)
    await service.check_in(t.id, PLAYERS[0])
    await service.check_in(t.id, PLAYERS[1])
    for _ in range(100):
        if (await service.tournament(t.id)).status == "running":
            break
        await asyncio.sleep(0.02)
    s = await service.load(t.id)
    assert s.t.status == "running" and sorted(s.active) == ["u1", "u2"]


# ------------------------------------------------------------------------------------ rounds


async def test_a_three_round_swiss_runs_itself_from_the_finished_games(world) -> None:
    """7 players, 3 rounds: each round's tables open with exactly its players, results come from the
    games, the next round is paired when all are done, and the final standings are the pure logic's."""
    storage, tables, service = world
    tid = await new_swiss(service, 7, rounds=3)
    await service.start(tid, ORGANIZER)
    for number in (1, 2, 3):
        s = await service.load(tid)
        assert s.t.round == number
        games = [m for m in s.current.matches if len(m.players) == 2]
        assert len(games) == 3 and sum(len(m.players) == 1 for m in s.current.matches) == 1
        for m in games:
            assert [seat.player_id for seat in tables.tables[m.game_id].seats] == list(m.players)
        await play_round(tables, service, tid)
    s = await service.load(tid)
    assert s.t.status == "finished"
    assert all(m.status == "done" for r in s.rounds for m in r.matches)
    byes = [m.players[0] for r in s.rounds for m in r.matches if len(m.players) == 1]
    assert len(set(byes)) == 3, "byes to distinct players"
    rows = service.standings(s)
    assert [r.player for r in rows] == [r.player for r in standings(sorted(s.active), s.model_rounds())]
    assert any("Final standings" in p for p in service.messenger.posts)
    for m in (m for r in s.rounds for m in r.matches if m.game_id):
        game = await storage.result(m.game_id)
        assert result_from_json(m.result) == result_from_game(m.players, game)


async def test_swiss_pods_seat_tables_of_the_chosen_size(world) -> None:
    """7 players at tables of 4 (High card seats 2-4): 4 + 3, two rounds, points by place."""
    storage, tables, service = world
    tid = await new_swiss(service, 7, format="pods", rounds=2, table_size=4)
    await service.start(tid, ORGANIZER)
    for _ in range(2):
        s = await service.load(tid)
        assert sorted(len(m.players) for m in s.current.matches) == [3, 4]
        await play_round(tables, service, tid)
    s = await service.load(tid)
    assert s.t.status == "finished"
    assert sum(r.points for r in service.standings(s)) == sum(
        result_from_json(m.result).points(p) for r in s.rounds for m in r.matches for p in m.players)


async def test_single_elimination_and_round_robin_run_to_the_end(world) -> None:
    """5 players in a bracket of 8 (byes to the top seeds) until one winner; 4 in a round robin, 3 rounds."""
    storage, tables, service = world
    tid = await new_swiss(service, 5, format="elimination")
    await service.start(tid, ORGANIZER)
    for _ in range(5):
        if (await service.tournament(tid)).status == "finished":
            break
        await play_round(tables, service, tid)
    s = await service.load(tid)
    assert s.t.status == "finished" and len(s.rounds) == 3
    assert any("Winner" in p for p in service.messenger.posts)
    rr = await new_swiss(service, 4, format="round-robin")
    await service.start(rr, ORGANIZER)
    for _ in range(3):
        await play_round(tables, service, rr)
    s = await service.load(rr)
    assert s.t.status == "finished" and len(s.rounds) == 3
    met = {frozenset(m.players) for r in s.rounds for m in r.matches}
    assert len(met) == 6


async def test_a_no_show_forfeits(world) -> None:
    """A player who never opens their board forfeits when the no-show time runs out; the table closes."""
    storage, tables, service = world
    service.time_scale = 0.001  # no_show_minutes=1 -> 60 ms
    tid = await new_swiss(service, 2, rounds=1)
    await service.start(tid, ORGANIZER)
    s = await service.load(tid)
    (m,) = s.current.matches
    table = tables.tables[m.game_id]
    present = m.players[0]
    tables.note_seen(table, int(present[1:]))
    await asyncio.sleep(0.1)
    await service.step(tid)
    await settle(service)
    s = await service.load(tid)
    r = result_from_json(s.rounds[0].matches[0].result)
    assert r.outcome(present) == Outcome.WIN and r.forfeits == {m.players[1]}
    assert table.status == "cancelled" and any("did not show" in e for e in tables.recorded.ended)
    assert s.t.status == "finished"


async def test_a_drop_forfeits_the_match_and_leaves_the_pairings(world) -> None:
    """A player drops mid-round: their match is forfeited at once; they are not paired again."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=2)
    await service.start(tid, ORGANIZER)
    with pytest.raises(TournamentError, match="Only the organizer"):
        await service.drop(tid, PLAYERS[1], PLAYERS[0].user_id)
    await service.drop(tid, PLAYERS[0], PLAYERS[0].user_id)  # players can drop themselves
    s = await service.load(tid)
    m = next(x for x in s.current.matches if "u1" in x.players)
    assert m.status == "done" and result_from_json(m.result).forfeits == {"u1"}
    await play_round(tables, service, tid)
    s = await service.load(tid)
    assert s.t.round == 2 and all("u1" not in m.players for m in s.current.matches)
    assert any(m.players == ("u1",) or "u1" in m.players for m in s.rounds[0].matches)


async def test_forcing_decides_unfinished_matches_by_the_current_standings(world) -> None:
    """The organizer forces round 1 mid-game: matches are decided by current points, marked forced."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=2)
    await service.start(tid, ORGANIZER)
    s = await service.load(tid)
    first, second = s.current.matches
    await show_and_play(tables, tables.tables[first.game_id])  # one match finishes normally
    await settle(service)
    table = tables.tables[second.game_id]
    for seat in table.seats:
        tables.note_seen(table, seat.user_id)
    await service.force(tid, ORGANIZER)
    await settle(service)
    s = await service.load(tid)
    forced = result_from_json(s.rounds[0].matches[1].result)
    assert forced.forced and forced.outcome(second.players[0]) == Outcome.DRAW  # nobody had played a card
    assert not result_from_json(s.rounds[0].matches[0].result).forced
    assert s.t.round == 2 and table.status == "cancelled"


async def test_a_restart_keeps_the_tournament(world, tmp_path: Path) -> None:
    """Mid-round, the service and the tables are rebuilt from storage: the round goes on and completes."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=2)
    await service.start(tid, ORGANIZER)
    s = await service.load(tid)
    await show_and_play(tables, tables.tables[s.current.matches[0].game_id])
    await settle(service)
    await service.detach()
    await tables.shutdown()
    again = OfflineTables(storage, TablesConfig())
    again.register_ui(_ui(), engine=HighCard, bots=BOTS)
    assert await again.restore() >= 1
    fresh = recording(storage, TournamentsConfig(no_show_minutes=1, checkin_minutes=0), again)
    fresh.attach()
    m = (await fresh.load(tid)).current.matches[1]
    await show_and_play(again, again.tables[m.game_id])
    await settle(fresh)
    s = await fresh.load(tid)
    assert s.t.round == 2 and all(x.status == "done" for x in s.rounds[0].matches)
    await fresh.detach()
    await again.shutdown()


async def test_pause_resume_reseat_and_end(world) -> None:
    """Paused: the next round waits; resumed: it is paired; re-seat opens a new table; end posts the standings."""
    storage, tables, service = world
    tid = await new_swiss(service, 2, rounds=3)
    await service.start(tid, ORGANIZER)
    await service.pause(tid, ORGANIZER)
    await play_round(tables, service, tid)
    assert (await service.load(tid)).t.round == 1
    await service.resume(tid, ORGANIZER)
    s = await service.load(tid)
    assert s.t.round == 2
    old = s.current.matches[0].game_id
    await service.reseat(tid, ORGANIZER, 1)
    s = await service.load(tid)
    assert s.current.matches[0].game_id not in (None, old) and tables.tables.get(old) is None
    await service.end(tid, ORGANIZER)
    s = await service.load(tid)
    assert s.t.status == "finished" and any("ended early" in p for p in service.messenger.posts)


async def test_export_csv_lists_standings_and_matches(world) -> None:
    storage, tables, service = world
    tid = await new_swiss(service, 3, rounds=1)
    await service.start(tid, ORGANIZER)
    await play_round(tables, service, tid)
    s = await service.load(tid)
    rows = list(csv.DictReader(io.StringIO(service.export_csv(s))))
    assert [r["player"] for r in rows] == [s.names[r.player] for r in service.standings(s)]
    assert rows[0]["rank"] == "1" and {"points", "omw_or_buchholz", "game_points"} <= set(rows[0])
    matches = list(csv.DictReader(io.StringIO(service.export_csv(s, "matches"))))
    assert len(matches) == 2 and {m["status"] for m in matches} == {"done"}


async def test_create_refuses_what_does_not_fit(world) -> None:
    storage, tables, service = world
    kw: dict[str, Any] = {"guild_id": GUILD, "channel_id": CHANNEL, "name": "x", "kind": "high-card"}
    with pytest.raises(TournamentError, match="no table"):
        await service.create(ORGANIZER, **{**kw, "kind": "chess"}, format="swiss")
    with pytest.raises(TournamentError, match="options"):
        await service.create(ORGANIZER, **kw, format="swiss", options={"tricks": 99})
    with pytest.raises(TournamentError, match="3 to 5"):
        await service.create(ORGANIZER, **kw, format="pods", rounds=2, table_size=6)
    with pytest.raises(TournamentError, match="rounds"):
        await service.create(ORGANIZER, **kw, format="pods", table_size=3)
    assert Match(("a",)).is_bye


def test_parlor_tournament_export_prints_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`parlor tournament export ID` prints the standings (``--matches``: the matches); an unknown id exits 1."""
    from bot.cli import main

    db = tmp_path / "cli.db"

    async def build() -> None:
        async with Storage.open(db) as storage:
            tables = OfflineTables(storage, TablesConfig())
            tables.register_ui(_ui(), engine=HighCard, bots=BOTS)
            service = recording(storage, TournamentsConfig(checkin_minutes=0), tables)
            service.attach()
            tid = await new_swiss(service, 2, rounds=1)
            await service.start(tid, ORGANIZER)
            await play_round(tables, service, tid)
            await service.detach()
            await tables.shutdown()

    asyncio.run(build())
    monkeypatch.setenv("PARLOR_DB", str(db))
    monkeypatch.delenv("PARLOR_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "export", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rank,player,user_id,status,points") and len(out) == 3
    assert main(["tournament", "export", "1", "--matches"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1,1,")
    assert main(["tournament", "export", "7"]) == 1
    assert "no tournament #7" in capsys.readouterr().err


async def test_a_shard_process_restarts_the_no_show_clocks_of_its_own_guilds_tournaments_only(
        world: tuple[Storage, OfflineTables, TournamentService]) -> None:
    """Two shard processes over one database: the one whose shards do not hold the tournament's guild
    leaves its matches' no-show clocks alone (its own process restarts them), so two processes never
    rule on one tournament twice."""
    storage, tables, service = world
    tid = await new_swiss(service, 4)
    await service.start(tid, ORGANIZER)
    await settle(service)
    opened = {(m.round, m.number): m.opened_at for m in (await service.load(tid)).current.matches}
    assert any(opened.values())
    shard = (GUILD >> 22) % 2
    service.core.now = lambda: 10**13
    tables.shards = (2, {1 - shard})  # another process's guild
    await service.noshow.restart_clocks()
    assert {(m.round, m.number): m.opened_at for m in (await service.load(tid)).current.matches} == opened
    tables.shards = (2, {shard})  # this process's guild
    await service.noshow.restart_clocks()
    assert all(m.opened_at == 10**13 for m in (await service.load(tid)).current.matches if m.status == "playing")
