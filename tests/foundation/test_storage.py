"""Storage: migrations from every version, WAL and foreign keys, and the repository."""

from __future__ import annotations

import ast
import sqlite3
from enum import StrEnum
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Storage
from bot.storage.migrations import LATEST, MIGRATIONS, current_version, migrate

STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"


async def schema(db: aiosqlite.Connection) -> list[tuple[str, str]]:
    async with db.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") as cur:
        return [(r[0], r[1]) for r in await cur.fetchall()]


async def test_fresh_database_reaches_latest(tmp_path: Path) -> None:
    """Opening a new file creates it and migrates it to the latest version."""
    path = tmp_path / "parlor.db"
    async with Storage.open(path) as storage:
        assert await storage.schema_version() == LATEST
    assert path.exists()


@pytest.mark.parametrize("start", range(LATEST + 1))
async def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """A database at any earlier version migrates to the same schema as a fresh one."""
    async with aiosqlite.connect(tmp_path / "fresh.db") as fresh:
        await migrate(fresh)
        want = await schema(fresh)
    async with aiosqlite.connect(tmp_path / "old.db") as old:
        await migrate(old, target=start)
        assert await current_version(old) == start
        assert await migrate(old) == LATEST
        assert await schema(old) == want


async def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    """Running the migrations on an up-to-date database is a no-op."""
    async with aiosqlite.connect(tmp_path / "x.db") as db:
        await migrate(db)
        before = await schema(db)
        assert await migrate(db) == LATEST
        assert await schema(db) == before


async def test_newer_database_is_refused(tmp_path: Path) -> None:
    """A database from a newer Parlor is not touched."""
    async with aiosqlite.connect(tmp_path / "x.db") as db:
        await migrate(db)
        await db.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
        await db.commit()
        with pytest.raises(RuntimeError, match="newer"):
            await migrate(db)


async def test_wal_and_foreign_keys_are_on(tmp_path: Path) -> None:
    """The connection runs in WAL mode."""
    async with Storage.open(tmp_path / "x.db") as storage:
        async with storage.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"


async def test_foreign_keys_are_enforced(database_url: str) -> None:
    """An action of a game that does not exist is refused, on both backends, with the same error class."""
    async with Storage.open(database_url) as storage:
        with pytest.raises(sqlite3.IntegrityError):
            await storage.append_action(999, 1, "p", {"type": "x"})


async def test_appended_actions_survive_a_reopen(database_url: str) -> None:
    """An appended action is committed: a new connection sees it in order, with its timestamps."""
    path = database_url
    clock = iter(range(1000, 2000)).__next__
    async with Storage.open(path, clock=clock) as storage:
        game = await storage.create_game("dutch", seed=7, options={"variant": "passive"}, guild_id=1, channel_id=2,
                                         host_id=3)
        await storage.set_seats(game, [("u3", 3, None), ("bot1", None, "perfect")])
        await storage.append_action(game, 1, "u3", {"type": "draw"}, discord_ts_ms=1234)
        await storage.append_action(game, 2, "bot1", {"type": "discard"})
    async with Storage.open(path) as storage:
        rows = await storage.actions(game)
        assert [(r.seq, r.player_id, r.action, r.discord_ts_ms) for r in rows] == [
            (1, "u3", {"type": "draw"}, 1234), (2, "bot1", {"type": "discard"}, None)]
        seats = await storage.seats(game)
        assert [(s.player_id, s.user_id, s.bot_name) for s in seats] == [("u3", 3, None), ("bot1", None, "perfect")]
        row = await storage.game(game)
        assert row.options == {"variant": "passive"} and row.status == "lobby" and row.seed == 7


async def test_the_action_log_for_a_replay_is_the_stored_actions_in_order(database_url: str) -> None:
    """``action_log`` gives (player, action) in sequence order, from any point, decoded as stored;
    a damaged row is refused, never read as other actions."""
    async with Storage.open(database_url) as storage:
        game = await storage.create_game("dutch-blitz", seed=1)
        stored = [("u1", {"type": "flip"}), ("u2", {"type": "dutch", "card": [1, "red"], "pile": None}),
                  ("u1", {"type": "post", "to": 2, "note": "ü, \"quoted\""}), ("u2", {})]
        for seq, (player, action) in reversed(list(enumerate(stored, 1))):  # stored out of order
            await storage.append_action(game, seq, player, action)
        assert await storage.action_log(game) == stored
        assert await storage.action_log(game, after=2) == stored[2:]
        assert await storage.action_log(game, after=4) == []
        assert await storage.action_log(game + 1) == []
        await storage.db.execute("UPDATE actions SET action = '1, 2' WHERE game_id = ? AND seq = 2", (game,))
        with pytest.raises(ValueError, match="not one JSON value"):
            await storage.action_log(game)
        await storage.db.execute("UPDATE actions SET action = '{\"type\":' WHERE game_id = ? AND seq = 2", (game,))
        with pytest.raises(ValueError):
            await storage.action_log(game)


async def test_duplicate_sequence_number_is_refused(database_url: str) -> None:
    """Two writers cannot both append action number 1."""
    async with Storage.open(database_url) as storage:
        game = await storage.create_game("blitz", seed=1)
        await storage.append_action(game, 1, "a", {"type": "knock"})
        with pytest.raises(sqlite3.IntegrityError):
            await storage.append_action(game, 1, "b", {"type": "knock"})


async def test_results_status_and_guild_settings(database_url: str) -> None:
    """Saving a result finishes the game; unfinished games are listed; guild settings round-trip."""
    async with Storage.open(database_url) as storage:
        a = await storage.create_game("blitz", seed=1)
        b = await storage.create_game("dutch", seed=2)
        await storage.set_game_status(b, "running")
        await storage.set_game_message(b, 55)
        await storage.save_result(a, {"winners": ["x"]})
        assert (await storage.game(a)).status == "finished"
        assert await storage.result(a) == {"winners": ["x"]}
        assert [g.id for g in await storage.games_with_status("lobby", "running")] == [b]
        assert await storage.guild_settings(9) == {}
        await storage.set_guild_settings(9, {"race_window_ms": 200})
        assert await storage.guild_settings(9) == {"race_window_ms": 200}
        with pytest.raises(ValueError, match="status"):
            await storage.set_game_status(b, "paused")


async def test_each_typed_game_update_sets_its_column_and_the_time_it_changed(database_url: str) -> None:
    """set_game_status/thread/message/host each set one column and ``updated_at``; a status may be a
    str enum (a table's TableStatus) and is stored as its plain value; an unknown one writes nothing."""

    class Status(StrEnum):
        RUNNING = "running"

    clock = iter(range(1000, 2000)).__next__
    async with Storage.open(database_url, clock=clock) as storage:
        game = await storage.create_game("blitz", seed=1, thread_id=5, host_id=6)
        await storage.set_game_thread(game, 7)
        await storage.set_game_message(game, 8)
        await storage.set_game_host(game, 9)
        await storage.set_game_status(game, Status.RUNNING)
        row = await storage.game(game)
        assert (row.thread_id, row.message_id, row.host_id, row.status) == (7, 8, 9, "running")
        assert type(row.status) is str
        assert row.created_at < row.updated_at
        with pytest.raises(ValueError, match="status 'paused'"):
            await storage.set_game_status(game, "paused")
        await storage.set_game_message(game, None)
        after = await storage.game(game)
        assert (after.status, after.message_id, after.thread_id) == ("running", None, 7)


async def test_typed_tournament_and_match_updates_set_what_they_name(database_url: str) -> None:
    """The typed tournament and match updates (one method per change, no ``**changes``) each write the
    columns they name; a status that does not fit is refused and writes nothing."""
    clock = iter(range(1000, 2000)).__next__
    async with Storage.open(database_url, clock=clock) as storage:
        tid = await storage.create_tournament(guild_id=1, channel_id=2, organizer_id=3, name="Cup", kind="blitz",
                                              format="swiss", options={}, settings={"rounds": 0}, seed=4)
        await storage.set_tournament_message(tid, 50)
        await storage.set_tournament_status(tid, "checkin")
        await storage.start_tournament(tid, {"rounds": 3})
        t = await storage.tournament(tid)
        assert (t.message_id, t.status, t.settings, t.finished_at) == (50, "running", {"rounds": 3}, None)
        await storage.set_tournament_status(tid, "paused")
        assert (await storage.tournament(tid)).status == "paused"
        with pytest.raises(ValueError, match="status 'over'"):
            await storage.set_tournament_status(tid, "over")
        with pytest.raises(ValueError, match="status 'running'"):
            await storage.end_tournament(tid, "running")
        assert (await storage.tournament(tid)).status == "paused"

        await storage.add_round(tid, 1, [["u1", "u2"], ["u3", "u4"], ["u5"]])
        game = await storage.create_game("blitz", seed=1)
        await storage.open_match(tid, 1, 0, game_id=game, opened_at=777)
        await storage.set_match_shown(tid, 1, 0, ["u1"])
        await storage.open_match(tid, 1, 1, game_id=game)
        [first, second, bye] = (await storage.rounds(tid))[0].matches
        assert (first.status, first.game_id, first.opened_at, first.shown) == ("playing", game, 777, ("u1",))
        assert (second.status, second.game_id, second.shown) == ("playing", game, ())
        assert second.opened_at is not None and second.opened_at > 777, "now, by the storage's clock"
        assert bye.status == "done"
        assert await storage.match_of_game(game) is not None

        await storage.set_match_opened_at(tid, 1, 0, 888)
        await storage.set_match_status(tid, 1, 1, "broken")
        with pytest.raises(ValueError, match="status 'lost'"):
            await storage.set_match_status(tid, 1, 1, "lost")
        [first, second, _] = (await storage.rounds(tid))[0].matches
        assert (first.opened_at, first.status, second.status) == (888, "playing", "broken")
        await storage.reset_match(tid, 1, 1)
        await storage.finish_match(tid, 1, 0, {"places": {"u1": 1, "u2": 2}})
        [first, second, _] = (await storage.rounds(tid))[0].matches
        assert (first.status, first.result, first.game_id) == ("done", {"places": {"u1": 1, "u2": 2}}, game)
        assert (second.status, second.game_id, second.opened_at, second.shown) == ("pending", None, None, ())

        await storage.end_tournament(tid, "finished", finished_at=999)
        t = await storage.tournament(tid)
        assert (t.status, t.finished_at) == ("finished", 999)
        await storage.end_tournament(tid, "cancelled")
        t = await storage.tournament(tid)
        assert t.status == "cancelled" and t.finished_at is not None and t.finished_at > 999


def test_no_storage_class_inherits_from_another_storage_module() -> None:
    """The storage is composed, not chained (docs/design.md §3): no class of bot/storage has a base
    class defined in another bot/storage module (the parts are given what they need instead)."""
    modules = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in STORAGE.glob("*.py")}
    defined = {node.name: name for name, tree in modules.items() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    chained = [f"{name}.{node.name}({ast.unparse(base)})" for name, tree in modules.items()
               for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for base in node.bases
               if defined.get(ast.unparse(base).rsplit(".", 1)[-1], name) != name]
    assert "ActionLogWriter" in defined and "GameStore" in defined
    assert not chained, chained


def test_every_migration_is_a_non_empty_script() -> None:
    """MIGRATIONS only grows: each entry is SQL."""
    assert all("CREATE" in m or "ALTER" in m for m in MIGRATIONS)
