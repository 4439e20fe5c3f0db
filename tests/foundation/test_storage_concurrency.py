"""Storage under many tables at once: writes that never interleave (bot/storage/database.py, action_log.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from bot.storage import Storage


async def test_fifty_tables_writing_their_seats_and_moves_at_once_lose_nothing(database_url: str) -> None:
    """Fifty tables opening at once used to make sqlite3 refuse set_seats ("bad parameter or other API misuse")."""
    async with Storage.open(database_url) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(50)]

        async def table(game: int) -> None:
            for n in range(1, 5):
                await storage.set_seats(game, [(f"p{k}", k, None, f"person {k}") for k in range(n)])
                await storage.seats(game)
                await storage.set_game_host(game, n)
                await storage.game(game)
            await storage.append_action(game, 1, "p0", {"type": "flip"})
            await storage.set_game_status(game, "running")

        for _ in range(3):
            await asyncio.gather(*(table(g) for g in games))
            for game in games:
                await storage.delete_actions(game)
        await asyncio.gather(*(table(g) for g in games))
        for game in games:
            assert [s.player_id for s in await storage.seats(game)] == ["p0", "p1", "p2", "p3"]
            assert [a.action for a in await storage.actions(game)] == [{"type": "flip"}]
            assert (await storage.game(game)).status == "running"


@pytest.mark.parametrize("where", ["file", "memory"])
async def test_moves_of_many_tables_commit_together_and_a_bad_one_sinks_only_itself(database_url: str,
                                                                                      where: str) -> None:
    """Group commit: a hundred tables' moves arriving at once are written in a few transactions (one
    disk flush each), every one is stored, and a move whose number is taken fails alone. A file
    writes each group as one statement on its autocommit log connection; an in-memory database
    (no second connection) commits each group on its one connection."""
    if where == "memory" and database_url.startswith("postgresql"):
        pytest.skip("an in-memory database is SQLite's alone")
    async with Storage.open(database_url if where == "file" else ":memory:") as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(100)]
        assert (storage.log_db is not None) == (where == "file")
        commits = 0
        conn = storage.log_db or storage.db
        name = "execute" if storage.log_db is not None else "commit"
        original = getattr(conn, name)

        async def counting(*args: Any) -> Any:
            nonlocal commits
            commits += 1
            return await original(*args)

        setattr(conn, name, counting)
        for seq in (1, 2, 3):
            await asyncio.gather(*(storage.append_action(g, seq, "p0", {"type": "flip", "n": seq}) for g in games))
        assert 3 <= commits < 30, f"{commits} commits for 300 moves"
        outcomes = await asyncio.gather(storage.append_action(games[0], 2, "p0", {"type": "again"}),
                                        *(storage.append_action(g, 4, "p0", {"type": "flip"}) for g in games),
                                        return_exceptions=True)
        assert isinstance(outcomes[0], sqlite3.IntegrityError), "seq 2 is taken"
        assert all(not isinstance(o, BaseException) for o in outcomes[1:])
        for game in games:
            assert [a.seq for a in await storage.actions(game)] == [1, 2, 3, 4]
        assert [a.action["type"] for a in await storage.actions(games[0])] == ["flip"] * 4


async def test_moves_queued_behind_a_caller_cancelled_while_writing_its_own_are_still_stored(database_url: str) -> None:
    """A move that finds no write under way is written by its caller's own task; if that caller is
    cancelled mid-write, the moves that queued behind it meanwhile are written all the same and
    their callers answered (none waits forever)."""
    async with Storage.open(database_url) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(5)]
        assert storage.log_db is not None
        original = storage.log_db.execute
        writing = asyncio.Event()

        async def slow(*args: Any) -> Any:
            writing.set()
            await asyncio.sleep(0.05)
            return await original(*args)

        storage.log_db.execute = slow  # type: ignore[method-assign]
        first = asyncio.create_task(storage.append_action(games[0], 1, "p0", {"type": "flip"}))
        await writing.wait()
        behind = [asyncio.create_task(storage.append_action(g, 1, "p0", {"type": "flip"})) for g in games[1:]]
        await asyncio.sleep(0)
        first.cancel()
        await asyncio.wait_for(asyncio.gather(*behind), timeout=5)
        with pytest.raises(asyncio.CancelledError):
            await first
        for game in games[1:]:
            assert [a.action for a in await storage.actions(game)] == [{"type": "flip"}]
        await storage.append_action(games[0], 1, "p0", {"type": "flip"})  # the next move writes at once again
        assert [a.seq for a in await storage.actions(games[0])] == [1]


async def test_reads_and_writes_meeting_moves_of_many_tables_never_find_the_database_locked(database_url: str) -> None:
    """Reads, writes and moves of many tables at once: a read left open on the main connection
    between two trips to its thread, while the log connection committed a move, made the next write
    on the main connection fail at once with "database is locked" (SQLITE_BUSY_SNAPSHOT). Every
    read now runs and fetches in one trip."""
    async with Storage.open(database_url) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(20)]
        for game in games:
            await storage.set_seats(game, [(f"p{k}", k, None, f"person {k}") for k in range(4)])

        async def reader() -> None:
            for _ in range(40):
                assert len(await storage.games_with_status("lobby")) == len(games)
                assert len(await storage.seats(games[0])) == 4

        async def mover(game: int) -> None:
            for seq in range(1, 41):
                await storage.append_action(game, seq, "p0", {"type": "flip"})

        async def writer(game: int) -> None:
            for n in range(40):
                await storage.set_game_host(game, n)

        await asyncio.gather(*(reader() for _ in range(4)), *(mover(g) for g in games), *(writer(g) for g in games))
        for game in games:
            assert len(await storage.actions(game)) == 40
            assert (await storage.game(game)).host_id == 39


async def test_a_write_that_fails_midway_leaves_nothing_half_done_and_moves_go_on(database_url: str) -> None:
    """A write whose second statement fails is rolled back whole: the next write does not commit its
    first half, and the transaction it opened no longer holds the write lock, which every move
    (written through the log connection) waited for until it failed with "database is locked"."""
    async with Storage.open(database_url) as storage:
        game = await storage.create_game("dutch-blitz", seed=1)
        original = storage.db.execute

        async def failing(sql: str, *args: Any) -> Any:
            if sql.startswith("UPDATE games SET status = 'finished'"):
                raise sqlite3.OperationalError("disk I/O error")
            return await original(sql, *args)

        storage.db.execute = failing  # type: ignore[method-assign]
        with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
            await storage.save_result(game, {"places": {"p0": 1}})
        storage.db.execute = original  # type: ignore[method-assign]
        await asyncio.wait_for(storage.append_action(game, 1, "p0", {"type": "flip"}), timeout=3)
        await storage.set_game_host(game, 7)
        assert await storage.result(game) is None, "the failed write's first statement was committed"
        assert (await storage.game(game)).status == "lobby"
        assert [a.seq for a in await storage.actions(game)] == [1]


async def test_a_move_whose_caller_is_cancelled_while_another_write_holds_the_database_is_still_stored(
        database_url: str) -> None:
    """The engine has applied a move before it is stored: a caller cancelled while another write
    (a seat, a result) held the database must still leave its move to be written, or the log would
    skip a number that the table's snapshot counts."""
    async with Storage.open(database_url) as storage:
        game = await storage.create_game("dutch-blitz", seed=1)
        held, release = asyncio.Event(), asyncio.Event()

        async def other_write() -> None:
            async with storage.writing:
                held.set()
                await release.wait()

        other = asyncio.create_task(other_write())
        await held.wait()
        move = asyncio.create_task(storage.append_action(game, 1, "p0", {"type": "flip"}))
        await asyncio.sleep(0)
        move.cancel()
        release.set()
        await other
        with pytest.raises(asyncio.CancelledError):
            await move
        await asyncio.wait_for(storage.append_action(game, 2, "p0", {"type": "flip"}), timeout=3)
        assert [a.seq for a in await storage.actions(game)] == [1, 2]


async def test_a_group_the_database_itself_fails_fails_whole_without_a_retry_per_row(database_url: str) -> None:
    """A locked or broken database fails a group of moves at once: retrying its rows one by one
    would wait out the busy timeout once per row while every table's moves wait (a bad row, an
    IntegrityError, is still written around: the test above)."""
    async with Storage.open(database_url) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(5)]
        assert storage.log_db is not None
        calls = 0

        async def locked(*args: Any) -> Any:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.01)
            raise sqlite3.OperationalError("database is locked")

        storage.log_db.execute = locked  # type: ignore[method-assign]
        outcomes = await asyncio.gather(*(storage.append_action(g, 1, "p0", {"type": "flip"}) for g in games),
                                        return_exceptions=True)
        assert all(isinstance(o, sqlite3.OperationalError) for o in outcomes)
        assert calls == 2, f"{calls} statements for a lone move and a group of four"


async def test_callers_waiting_on_a_group_whose_write_is_cut_short_are_told_not_left_waiting(database_url: str) -> None:
    """The group's task cancelled mid-write (the database closing): every caller still waiting is
    answered with an error (its move may not be stored), none waits forever."""
    async with Storage.open(database_url) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(4)]
        assert storage.log_db is not None
        original = storage.log_db.execute

        async def slow(*args: Any) -> Any:
            await asyncio.sleep(0.2)
            return await original(*args)

        storage.log_db.execute = slow  # type: ignore[method-assign]
        lone = asyncio.create_task(storage.append_action(games[0], 1, "p0", {"type": "flip"}))
        await asyncio.sleep(0.05)
        queued = [asyncio.create_task(storage.append_action(g, 1, "p0", {"type": "flip"})) for g in games[1:]]
        await lone
        await asyncio.sleep(0.05)  # the group's task is writing now
        assert storage.log_writer.group_task is not None
        storage.log_writer.group_task.cancel()
        outcomes = await asyncio.wait_for(asyncio.gather(*queued, return_exceptions=True), timeout=3)
        assert all(isinstance(o, RuntimeError) and "may not be stored" in str(o) for o in outcomes)
        storage.log_db.execute = original  # type: ignore[method-assign]
        await storage.append_action(games[0], 2, "p0", {"type": "flip"})  # the next move is written again
        assert [a.seq for a in await storage.actions(games[0])] == [1, 2]
