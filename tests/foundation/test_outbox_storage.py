"""The outbox's storage (docs/design.md §3, "The outbox"): a move's notices are committed with the move
(or not at all), an announcement with its tournament change, dedup keys store once, rows come out in
order per target and leave the queue once sent or dropped."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.outbox import ANNOUNCEMENT, TABLE_NOTICE, Notice
from tests.conftest import POSTGRES_MISSING, new_postgres_database


@pytest.fixture(params=["file", "memory", "postgresql"])
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's storage lives: a SQLite file, SQLite in memory, then a new database on the
    session's PostgreSQL server (skipped, with the reason, without one)."""
    if request.param == "postgresql":
        base = request.getfixturevalue("postgres_base")
        if base is None:
            pytest.skip(f"PostgreSQL tests skipped: {POSTGRES_MISSING[0]}")
        return await new_postgres_database(base)
    return str(tmp_path / "x.db") if request.param == "file" else ":memory:"


async def test_a_moves_notices_are_committed_with_it(place: str) -> None:
    """The action and its notices are both stored; the sender's event is set; a move with no notice
    stores none."""
    async with Storage.open(place) as storage:
        game = await storage.create_game("blitz", seed=1)
        await storage.append_action(game, 1, "a", {"type": "knock"})
        assert await storage.outbox.rows() == [] and not storage.outbox.added.is_set()
        await storage.append_action(game, 2, "b", {"type": "knock"},
                                    notices=[Notice(TABLE_NOTICE, 77, "b knocked"), Notice(TABLE_NOTICE, 77, "x")])
        assert [a.seq for a in await storage.actions(game)] == [1, 2]
        rows = await storage.outbox.pending(77)
        assert [(r.kind, r.target, r.text, r.sent_ms) for r in rows] == [("table", 77, "b knocked", None),
                                                                         ("table", 77, "x", None)]
        assert storage.outbox.added.is_set()


async def test_a_move_that_is_not_stored_stores_no_notice(place: str) -> None:
    """A move refused by the database (its seq taken) leaves no notice behind, alone or in a group whose
    other moves (and their notices) are committed."""
    async with Storage.open(place) as storage:
        game = await storage.create_game("blitz", seed=1)
        await storage.append_action(game, 1, "a", {"type": "knock"})
        with pytest.raises(sqlite3.IntegrityError):
            await storage.append_action(game, 1, "b", {"type": "knock"}, notices=[Notice(TABLE_NOTICE, 5, "lost")])
        assert await storage.outbox.rows() == []
        async with storage.writing:  # the next moves wait and go out as one group
            bad = asyncio.create_task(storage.append_action(game, 1, "c", {"type": "x"},
                                                            notices=[Notice(TABLE_NOTICE, 5, "bad")]))
            good = asyncio.create_task(storage.append_action(game, 2, "d", {"type": "y"},
                                                             notices=[Notice(TABLE_NOTICE, 5, "good")]))
            await asyncio.sleep(0)
        with pytest.raises(sqlite3.IntegrityError):
            await bad
        await good
        assert [r.text for r in await storage.outbox.rows()] == ["good"]
        assert [a.player_id for a in await storage.actions(game)] == ["a", "d"]


async def test_an_announcement_is_stored_with_its_match_result(database_url: str) -> None:
    """``finish_match(notices=...)``: the result and its announcement in one transaction."""
    async with Storage.open(database_url) as storage:
        tid = await storage.create_tournament(guild_id=1, channel_id=9, organizer_id=2, name="Cup", kind="blitz",
                                              format="swiss", options={}, settings={}, seed=1)
        await storage.add_round(tid, 1, [["u1", "u2"]])
        await storage.finish_match(tid, 1, 0, {"places": {"u1": 1, "u2": 2}},
                                   notices=[Notice(ANNOUNCEMENT, 9, "✅ u1 beat u2", (1,))])
        [rnd] = await storage.rounds(tid)
        [row] = await storage.outbox.pending()
        assert rnd.matches[0].status == "done" and (row.text, row.pings, row.kind) == ("✅ u1 beat u2", (1,),
                                                                                      "tournament")


async def test_rows_go_in_order_per_target_dedup_once_and_leave_when_sent_or_dropped(database_url: str) -> None:
    """Pending rows come oldest first per target; a dedup key stores once; a sent or dropped row is no
    longer pending; the nonce fits Discord's 25 characters and differs per row."""
    async with Storage.open(database_url) as storage:
        box = storage.outbox
        await box.enqueue(Notice(TABLE_NOTICE, 1, "a"), Notice(TABLE_NOTICE, 2, "b"), Notice(TABLE_NOTICE, 1, "c"))
        await box.enqueue(Notice(ANNOUNCEMENT, 3, "pairings", dedup="t1:pairings:1"))
        await box.enqueue(Notice(ANNOUNCEMENT, 3, "pairings again", dedup="t1:pairings:1"))
        assert [r.text for r in await box.pending(1)] == ["a", "c"]
        assert [r.text for r in await box.pending(3)] == ["pairings"]
        assert await box.pending_targets() == [(1, None), (2, None), (3, None)]
        a, c, b = await box.pending(1) + await box.pending(2)
        await box.mark_sent(a.id, 555)
        await box.drop(c.id)
        await box.mark_failed(b.id)
        assert [r.text for r in await box.pending()] == ["b", "pairings"]
        assert (await box.pending(2))[0].attempts == 1
        rows = await box.rows()
        assert rows[0].message_id == 555 and rows[0].sent_ms is not None
        assert len({r.nonce for r in rows}) == len(rows) and all(len(r.nonce) <= 25 for r in rows)
