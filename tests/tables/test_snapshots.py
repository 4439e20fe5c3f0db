"""Snapshots and restore without Discord (docs/tables.md, "Restarts"; issue 18).

A running table keeps no log in memory: the database has it, and every SNAPSHOT_EVERY moves a
snapshot of the engine and its bots. A restore reads the latest snapshot and only the actions
after it; a clean shutdown snapshots every table, so the next start replays nothing.
"""

from __future__ import annotations

import asyncio
import pickle
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import TablesConfig
from bot.games.blitz import BOTS as BLITZ_BOTS
from bot.games.blitz import ENGINE as BLITZ
from bot.games.dutch import BOTS as DUTCH_BOTS
from bot.games.dutch import ENGINE as DUTCH
from bot.storage import Storage
from bot.tables import restore as restore_module
from bot.tables import snapshots
from bot.tables.service import Tables
from bot.tables.table import Table, TableError
from tests.tables.test_service_logic import ALICE, BOB, offline_tables, ui_for


def service(storage: Storage) -> Tables:
    tables = offline_tables(storage, TablesConfig(race_window_ms=50, turn_timeout_seconds=3600))
    tables.register_ui(ui_for("blitz"), engine=BLITZ, bots=BLITZ_BOTS)
    tables.register_ui(ui_for("dutch"), engine=DUTCH, bots=DUTCH_BOTS)
    tables.bot_delay_scale = 0.001
    return tables


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with Storage.open(str(tmp_path / "t.db")) as storage:
        yield storage


async def running(tables: Tables, kind: str = "blitz", bots: int = 0, channel_id: int = 20) -> Table:
    """A running table of *kind* in channel *channel_id*: alice and bob, plus *bots* of the game's default bot."""
    options = {"lives": 10} if kind == "blitz" else {"jump_in_grace_seconds": 0}
    table = await tables.create(kind, ALICE, options, None, guild_id=10, channel_id=channel_id)
    tables.tables[table.id] = table
    await tables.storage.set_game_thread(table.id, table.thread_id)  # as the Discord layer does
    await tables.join(table, BOB)
    for _ in range(bots):
        await tables.add_bot(table, ALICE)
    await tables.start(table, ALICE)
    return table


async def play(tables: Tables, table: Table, moves: int, seed: int = 7) -> None:
    """The people of *table* make *moves* random legal moves between them, never a knock or a Dutch
    call (the game goes on); when no person can move, the bots play."""
    rng = random.Random(seed)
    people = [s.player_id for s in table.seats if not s.is_bot]
    done = 0
    for _attempt in range(10 * moves):
        if done == moves:
            return
        engine = table.engine
        assert engine is not None and not engine.is_over
        for _wait in range(500):
            choices = {p: [a for a in engine.legal_actions(p) if a["type"] not in ("knock", "dutch")]
                       for p in people}
            who = [p for p in people if choices[p]]
            if who:
                break
            await asyncio.sleep(0.01)
        assert who, "a person can move"
        player = rng.choice(who)
        outcome = await tables.submit(table, player, rng.choice(choices[player]), 0)
        if table.bots:  # a bot may have moved first (a jump-in window closed): choose again
            done += outcome.accepted
        else:
            assert outcome.accepted, outcome.reason
            done += 1
    raise AssertionError(f"only {done} of {moves} moves were accepted")


def views(table: Table) -> dict[str | None, object]:
    assert table.engine is not None
    return {p: table.engine.view(p) for p in [*table.engine.players, None]}


async def test_a_table_keeps_no_log_no_snapshot_and_no_moves_since_it_in_memory(storage: Storage) -> None:
    """Memory bounded by the state: after 150 moves the engine holds no log, the table neither a
    snapshot nor the moves after it (only that the last snapshot was taken at move 128), and the
    database the snapshot and all 150 moves."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 150)
    assert table.engine is not None and not table.engine.keeps_log and table.engine.action_count == 150
    with pytest.raises(LookupError):
        table.engine.log()
    assert table.checkpoint_seq == 2 * snapshots.SNAPSHOT_EVERY == 128
    assert not hasattr(table, "checkpoint") and not hasattr(table, "tail")
    await tables.shutdown()
    assert len(await storage.actions(table.id)) == 150


async def test_a_restore_reads_only_the_actions_after_the_latest_snapshot(storage: Storage) -> None:
    """Crash after move 100 (no clean shutdown): the restore starts from the snapshot of move 64 and
    applies moves 65 to 100; the moves before the snapshot are not even read (they are deleted here)."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 100)
    before = views(table)
    await storage.db.execute("DELETE FROM actions WHERE game_id = ? AND seq <= 64", (table.id,))
    await storage.db.commit()
    snap = await storage.snapshot(table.id)
    assert snap is not None and snap.seq == 64
    tables.stop_tasks(table)  # a crash: no shutdown snapshot

    again = service(storage)
    assert await again.restore() == 1
    restored = again.tables[table.id]
    assert views(restored) == before and restored.engine is not None and restored.engine.action_count == 100
    assert restored.checkpoint_seq == 64
    await play(again, restored, 5, seed=8)  # and the game goes on
    await again.shutdown()


async def test_a_clean_shutdown_snapshots_every_table_so_the_restart_replays_nothing(storage: Storage) -> None:
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 30)
    before = views(table)
    await tables.shutdown()
    snap = await storage.snapshot(table.id)
    assert snap is not None and snap.seq == 30

    again = service(storage)
    await again.restore()
    restored = again.tables[table.id]
    assert views(restored) == before and restored.checkpoint_seq == 30
    await again.shutdown()


async def test_a_snapshot_of_other_code_is_ignored_and_the_whole_log_replays(storage: Storage) -> None:
    """Parlor was updated between stop and start: the snapshot's code differs, so the restore replays
    every stored move from the deal and takes a new snapshot with today's code."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 70)
    before = views(table)
    await tables.shutdown()
    await storage.db.execute("UPDATE snapshots SET code = 'an older parlor', state = x'00'")
    await storage.db.commit()

    again = service(storage)
    await again.restore()
    restored = again.tables[table.id]
    assert views(restored) == before
    await again.shutdown()
    snap = await storage.snapshot(table.id)
    assert snap is not None and snap.code == snapshots.code_version(BLITZ) and snap.seq == 70


async def test_restored_bots_remember_what_they_were_shown(storage: Storage) -> None:
    """Dutch, the memory game: two perfect bots are pickled with the table, memory and random
    generator included, so after a restart they are exactly the bots they were."""
    tables = service(storage)
    table = await running(tables, "dutch", bots=2)
    await play(tables, table, 40)
    tables.stop_tasks(table)
    await asyncio.sleep(0)
    bots = pickle.dumps(table.bots)
    movers = {a.player_id for a in await storage.actions(table.id)}
    assert set(table.bots) <= movers, "the bots played too"
    await tables.shutdown()

    again = service(storage)
    await again.restore()  # its tasks have not run yet: the bots are as restored
    restored = again.tables[table.id]
    assert pickle.dumps(restored.bots) == bots
    await again.shutdown()


async def test_a_move_that_cannot_be_stored_is_undone_from_the_snapshot(storage: Storage,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """After a snapshot, an unsaved move is taken back by reading the game back from the database:
    the stored snapshot and the moves stored after it."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 70)
    before, count = views(table), 70
    engine = table.engine
    assert engine is not None

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage, "append_action", broken)
    player = next(p for p in engine.players if engine.legal_actions(p))
    outcome = await tables.submit(table, player, engine.legal_actions(player)[0], 0)
    assert not outcome.accepted and "could not be saved" in outcome.reason
    assert views(table) == before and table.engine is not None and table.engine.action_count == count
    monkeypatch.undo()
    await play(tables, table, 3, seed=9)
    await tables.shutdown()


async def test_live_games_reads_every_unfinished_game_with_its_seats_snapshot_and_tail_at_once(
        storage: Storage) -> None:
    """What a restart reads (Storage.live_games): a game with a snapshot comes with only the actions
    after it; one without a snapshot with none (the restore reads its whole log); finished games not at all."""
    tables = service(storage)
    snapped, young, done = [await running(tables, channel_id=c) for c in (20, 21, 22)]
    await play(tables, snapped, 70)
    await play(tables, young, 5)
    await storage.set_game_status(done.id, "finished")
    tables.stop_tasks(snapped)
    tables.stop_tasks(young)

    live = {g.game.id: g for g in await storage.live_games("lobby", "running")}
    assert set(live) == {snapped.id, young.id}
    assert live[snapped.id].seats == await storage.seats(snapped.id)
    assert live[snapped.id].snapshot == await storage.snapshot(snapped.id)
    assert [a.seq for a in live[snapped.id].tail] == list(range(65, 71)), "only the moves after the snapshot"
    assert live[snapped.id].tail == await storage.actions(snapped.id, after=64)
    assert live[young.id].snapshot is None and live[young.id].tail == []
    assert [s.player_id for s in live[young.id].seats] == [s.player_id for s in young.seats]
    await tables.shutdown()


async def test_a_restart_reads_the_stored_tables_a_batch_at_a_time(storage: Storage,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Storage.live_games in batches (after_id, limit) gives the same games as in one read, and a
    restore with batches of two restores all five tables as they were."""
    tables = service(storage)
    five = [await running(tables, channel_id=c) for c in range(30, 35)]
    for n, table in enumerate(five):
        await play(tables, table, 10 + 30 * n, seed=n)
    before = {t.id: views(t) for t in five}
    await tables.shutdown()

    whole = await storage.live_games("lobby", "running")
    batches, after = [], 0
    while batch := await storage.live_games("lobby", "running", after_id=after, limit=2):
        batches.append(batch)
        after = batch[-1].game.id
    assert [len(b) for b in batches] == [2, 2, 1] and [g for b in batches for g in b] == whole

    monkeypatch.setattr(restore_module, "RESTORE_BATCH", 2)
    again = service(storage)
    assert await again.restore() == 5
    assert {t: views(again.tables[t]) for t in before} == before
    await again.shutdown()


async def test_a_table_whose_game_cannot_be_read_back_pauses_until_a_restart(storage: Storage) -> None:
    """The database refuses a move and then the read-back as well: the table pauses (no move is
    taken, none is half-applied), and a restart restores the game as it was stored."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 10)
    before = views(table)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk I/O error")

    storage.append_action = broken  # type: ignore[method-assign]
    storage.snapshot = broken  # type: ignore[method-assign]
    engine = table.engine
    assert engine is not None
    player = next(p for p in engine.players if engine.legal_actions(p))
    action = engine.legal_actions(player)[0]
    outcome = await tables.submit(table, player, action, 0)
    assert not outcome.accepted and "paused until the bot restarts" in outcome.reason
    assert table.status == "paused"
    again = await tables.submit(table, player, action, 0)
    assert not again.accepted and again.reason == "The table is not running."
    tables.stop_tasks(table)  # the bot goes down
    del storage.append_action, storage.snapshot  # the database is back after the restart

    restored_tables = service(storage)
    assert await restored_tables.restore() == 1
    restored = restored_tables.tables[table.id]
    assert views(restored) == before and restored.status == "running"
    await restored_tables.shutdown()


async def test_tables_past_the_replay_budget_are_replayed_in_the_background_or_at_once_when_used(
        storage: Storage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """After an update (every snapshot from other code) with no time to replay before going online,
    the restore registers every table at once without an engine; the one used first is replayed on
    the spot, two uses at once share one replay, the rest replay in the background, and each takes
    a snapshot with today's code. Their seats count from the start: nobody opens a second table."""
    tables = service(storage)
    three = [await running(tables, channel_id=c) for c in (40, 41, 42)]
    for n, table in enumerate(three):
        await play(tables, table, 70 + n, seed=n)
    before = {t.id: views(t) for t in three}
    await tables.shutdown()
    await storage.db.execute("UPDATE snapshots SET code = 'an older parlor', state = x'00'")
    await storage.db.commit()

    monkeypatch.setattr(restore_module, "REPLAY_BEFORE_READY_S", 0.0)
    real = storage.action_log
    delays = {three[1].id: 0.3, three[2].id: 0.1}  # the one used first ends while another replays

    async def slowed(game_id: int, **kwargs: object) -> object:
        await asyncio.sleep(delays.get(game_id, 0))
        return await real(game_id, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(storage, "action_log", slowed)
    again = service(storage)
    caplog.set_level("INFO", logger="parlor.tables")
    assert await again.restore() == 3
    assert [again.tables[t.id].engine for t in three] == [None, None, None]
    with pytest.raises(TableError, match="already sit at table"):
        await again.create("blitz", ALICE, {"lives": 10}, None, guild_id=10, channel_id=42)
    last = three[-1].id
    first, second = await asyncio.gather(again.live(last), again.live(last))
    assert first is second is again.tables[last] and views(first) == before[last]
    for _ in range(200):
        if all(again.tables[t.id].engine is not None for t in three):
            break
        await asyncio.sleep(0.01)
    assert {t.id: views(again.tables[t.id]) for t in three} == before
    assert any("replayed 3 table(s) in the background" in r.getMessage() for r in caplog.records)
    await play(again, again.tables[three[0].id], 5, seed=9)  # and the games go on
    await again.shutdown()
    for table in three:
        snap = await storage.snapshot(table.id)
        assert snap is not None and snap.code == snapshots.code_version(BLITZ)


async def test_a_table_left_to_replay_later_whose_log_does_not_replay_is_cancelled(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored log that no longer replays (a refused move) cancels that table when its turn comes,
    as a restore before going online does; looking it up then finds no table."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 20)
    tables.stop_tasks(table)  # a crash: no snapshot (20 < 64 moves)
    await storage.db.execute("UPDATE actions SET action = '{\"type\": \"no such move\"}' WHERE game_id = ? AND seq = 5",
                             (table.id,))
    await storage.db.commit()

    monkeypatch.setattr(restore_module, "REPLAY_BEFORE_READY_S", 0.0)
    again = service(storage)
    assert await again.restore() == 1
    assert await again.live(table.id) is None
    assert (await storage.game(table.id)).status == "cancelled"
    await again.shutdown()


async def test_a_shutdown_during_a_replay_starts_no_table_again(storage: Storage,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot shuts down while a table left for later is being replayed (its log slow to read):
    the replay finishes, but the table's turn timer is not started after shutdown stopped
    everything, and its new snapshot is stored."""
    tables = service(storage)
    table = await running(tables)
    await play(tables, table, 70)
    await tables.shutdown()
    await storage.db.execute("UPDATE snapshots SET code = 'an older parlor', state = x'00'")
    await storage.db.commit()

    monkeypatch.setattr(restore_module, "REPLAY_BEFORE_READY_S", 0.0)
    again = service(storage)
    real = storage.action_log

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.2)
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "action_log", slow)
    assert await again.restore() == 1
    await asyncio.sleep(0.05)  # the background replay is reading the log
    assert again.awaits_replay(table.id)
    await again.shutdown()
    restored = again.tables[table.id]
    assert restored.engine is not None and restored.engine.action_count == table.engine.action_count
    assert not [t for t in restored.tasks if not t.done()], "no task started after shutdown"
    snap = await storage.snapshot(table.id)
    assert snap is not None and snap.code == snapshots.code_version(BLITZ)


OPENING_STEPS = ("stored", "thread", "seats", "dealt", "message", "linked")
"""What opening a tournament match's table writes, in order (``Tables.open_seated``, then the
tournament's link): the bot may be killed after any of them."""


@pytest.mark.parametrize("killed_after", range(1, len(OPENING_STEPS) + 1))
async def test_a_match_table_the_bot_was_killed_while_opening_is_ended_at_the_next_start(
        storage: Storage, killed_after: int) -> None:
    """Killed after each write of a match table's opening (issue #31, item 1): at the next start a
    table no match points to is ended, not restored holding its players' seats nor left a lobby row;
    the one the tournament linked comes back running."""
    tid = await storage.create_tournament(guild_id=1, channel_id=20, organizer_id=9, name="Cup", kind="blitz",
                                          format="swiss", options={}, settings={}, seed=1)
    await storage.add_round(tid, 1, [["u1", "u2"]])
    game = await storage.create_game("blitz", seed=3, options={}, guild_id=1, channel_id=20, host_id=9,
                                     settings={"tournament": tid})
    writes = [lambda: storage.set_game_thread(game, 21),
              lambda: storage.set_seats(game, [("u1", 1, None, "ann"), ("u2", 2, None, "bo")]),
              lambda: storage.set_game_status(game, "running"),
              lambda: storage.set_game_message(game, 22),
              lambda: storage.open_match(tid, 1, 0, game_id=game)]
    for write in writes[:killed_after - 1]:
        await write()
    tables = service(storage)  # the next start
    restored = await tables.restore()
    row = await storage.game(game)
    assert row is not None
    if OPENING_STEPS[killed_after - 1] == "linked":
        assert restored == 1 and tables.tables[game].status == "running"
    else:
        assert restored == 0 and game not in tables.tables and row.status == "cancelled", row.status
    await tables.shutdown()
