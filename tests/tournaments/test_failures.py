"""A tournament survives failures and stops midway (docs/tournaments.md, "Storage and restarts"):
the background loop goes on after a failed tick, one failing match holds up no other, a table dealt
but not linked to its match is closed, a long stop forfeits nobody, and a re-seat never throws a
finished game's result away."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import Any

import pytest

from bot.tournaments.service import TournamentError
from tests.tournaments.test_service import ORGANIZER, new_swiss, play_round, show_and_play


async def test_a_tick_that_fails_does_not_stop_the_loop_for_every_tournament(world) -> None:
    """The database failing while the loop lists the live tournaments skips that tick only: later
    ticks step the tournaments again (no-show rulings, timed starts go on)."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=1)
    original = storage.tournaments
    failures, stepped = 0, []

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        nonlocal failures
        if failures < 2:
            failures += 1
            raise sqlite3.OperationalError("disk I/O error")
        return await original(*args, **kwargs)

    step = service.scheduler.step

    async def counting(t: int) -> None:
        stepped.append(t)
        await step(t)

    storage.tournaments = flaky  # type: ignore[method-assign]
    service.scheduler.step = counting  # type: ignore[method-assign]
    for _ in range(100):
        if failures == 2 and tid in stepped:
            break
        await asyncio.sleep(0.05)
    assert failures == 2 and tid in stepped, "the loop stopped at the failed tick"
    assert service.ticker.task is not None and not service.ticker.task.done()


async def test_a_table_dealt_but_not_linked_to_its_match_is_closed_and_the_match_opens_once(world) -> None:
    """Storing a match's table fails once: that table is closed (its game would never be recorded),
    the next step opens the match again, and every match ends with exactly one running table."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=1)
    original = storage.open_match
    failed: list[int] = []

    async def flaky(t: int, round_: int, number: int, **kwargs: Any) -> None:
        if not failed:
            failed.append(kwargs["game_id"])
            raise sqlite3.OperationalError("disk I/O error")
        await original(t, round_, number, **kwargs)

    storage.open_match = flaky  # type: ignore[method-assign]
    try:
        await service.start(tid, ORGANIZER)
    except sqlite3.OperationalError:
        pass  # the start's own step failed at that match; the loop's next tick opens it
    for _ in range(100):
        s = await service.load(tid)
        if s.current is not None and all(m.status == "playing" for m in s.current.matches):
            break
        await asyncio.sleep(0.05)
    s = await service.load(tid)
    assert s.current is not None and all(m.status == "playing" for m in s.current.matches)
    orphan = failed[0]
    assert orphan not in [m.game_id for m in s.current.matches]
    assert (await storage.game(orphan)).status == "cancelled", "the unlinked table is still open"
    running = [t.id for t in tables.tables.values() if t.status == "running"]
    assert sorted(running) == sorted(m.game_id for m in s.current.matches)
    await play_round(tables, service, tid)
    assert (await service.load(tid)).t.status == "finished"


async def test_a_match_that_fails_does_not_hold_up_the_others(world) -> None:
    """One match's table failing to open every time leaves the round's other matches to open (at
    the round's start and at every later step), and the failing one is tried again."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=1)
    open_ = service.scheduler.open
    tries = 0

    async def failing_first(s: Any, m: Any) -> None:
        nonlocal tries
        if m.number == 0:
            tries += 1
            raise RuntimeError("this match's table cannot be opened")
        await open_(s, m)

    service.scheduler.open = failing_first  # type: ignore[method-assign]
    await service.start(tid, ORGANIZER)
    s = await service.load(tid)
    assert s.current is not None
    assert [m.status for m in s.current.matches] == ["pending", "playing"]
    await service.step(tid)
    assert tries >= 2, "the failing match is tried again at the next step"
    service.scheduler.open = open_  # type: ignore[method-assign]
    await service.step(tid)
    s = await service.load(tid)
    assert [m.status for m in s.current.matches] == ["playing", "playing"]


async def test_after_a_long_stop_the_no_show_clock_starts_afresh(world) -> None:
    """The bot was down longer than the no-show time: nobody could show up meanwhile, so after the
    restart the open matches' clocks start again instead of forfeiting everyone at the first tick."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=1)
    await service.start(tid, ORGANIZER)
    await service.detach()
    long_ago = int(time.time() * 1000) - 10 * 60_000  # ten minutes down; no_show_minutes is 1
    for m in (await service.load(tid)).current.matches:
        await storage.set_match_opened_at(tid, m.round, m.number, long_ago)
    service.attach()
    await asyncio.sleep(0.3)  # several ticks
    s = await service.load(tid)
    assert [m.status for m in s.current.matches] == ["playing", "playing"], "forfeited at the restart"
    assert all(m.opened_at is not None and m.opened_at > long_ago for m in s.current.matches)


async def test_reseating_a_match_whose_game_just_ended_records_its_result_instead(world) -> None:
    """The organizer re-seats a match whose game has ended but whose result the tournament has not
    recorded yet (the finish hook's step still to come): the result is recorded, not thrown away."""
    storage, tables, service = world
    tid = await new_swiss(service, 2, rounds=1)
    await service.start(tid, ORGANIZER)
    m = (await service.load(tid)).current.matches[0]
    await service.detach()  # neither the finish hook's step nor the loop's tick has run yet
    await show_and_play(tables, tables.tables[m.game_id])
    assert (await storage.game(m.game_id)).status == "finished"
    with pytest.raises(TournamentError, match="recorded, not re-seated"):
        await service.reseat(tid, ORGANIZER, 1)
    s = await service.load(tid)
    assert s.rounds[0].matches[0].status == "done" and s.rounds[0].matches[0].game_id == m.game_id
