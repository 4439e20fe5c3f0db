"""The next round is paired or seated in a worker thread, off the event loop (docs/tournaments.md §5).

Pods seating can take most of a second at 128 players; while it runs, the loop must keep answering
every table's clicks. These tests hold the pairing function until the loop has had a turn: the loop
can only take that turn if the pairing runs in another thread. The wait has a time limit, so seating
on the loop fails the test instead of hanging it. No timing is asserted. The game is the test-only
"High card" (2-4 players)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from bot.tournaments import pods, swiss
from bot.tournaments.model import Match
from tests.engine.sample_game import HighCard
from tests.tournaments.test_service import (
    ORGANIZER,
    new_swiss,
    play_round,
    settle,
    show_and_play,
)

WAIT = 5.0
"""Seconds the held pairing waits for the loop's turn (or its release) before it gives up."""

REAL_SEAT, REAL_PAIR = pods.seat, swiss.pair
"""The real pure functions (the tests replace the module attributes the service calls)."""


class Held:
    """Wraps a pairing function: each call asks the event loop for a turn, and waits for it (or for
    :attr:`release`) before it computes the real result.

    Attributes
    ----------
    calls:
        One entry per call: whether it ran off the loop's thread, whether the loop took its turn
        while the call waited, and the real function's result.
    entered, release, returned:
        Set when a call starts waiting; lets a call go on (used instead of the loop's turn when
        ``hold`` is true); set when a call returned.
    """

    def __init__(self, real: Callable[..., list[Match]], loop: asyncio.AbstractEventLoop) -> None:
        self.real = real
        self.loop = loop
        self.loop_thread = threading.get_ident()
        self.hold = False
        self.calls: list[tuple[bool, bool, list[Match]]] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.returned = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> list[Match]:
        turn = threading.Event()
        self.entered.set()
        if self.hold:
            went_on = self.release.wait(WAIT)
        else:
            # Other work on the loop: it can only run now if this call is not blocking the loop.
            self.loop.call_soon_threadsafe(turn.set)
            went_on = turn.wait(WAIT)
        result = self.real(*args, **kwargs)
        self.calls.append((threading.get_ident() != self.loop_thread, went_on, result))
        self.returned.set()
        return result


def _expected(fmt: str, active: list[str], done: list[Any], seed: int, number: int) -> list[list[str]]:
    """The round the real pure function gives for these inputs (as the service stores it)."""
    rng = Random(f"{seed}:{number}")
    if fmt == "swiss":
        return [list(m.players) for m in REAL_PAIR(sorted(active), done, rng)]
    return [list(m.players) for m in REAL_SEAT(sorted(active), done, rng, size=4, minimum=HighCard.min_players)]


@pytest.mark.parametrize(("fmt", "module", "name"), [("pods", pods, "seat"), ("swiss", swiss, "pair")],
                         ids=["pods", "swiss"])
async def test_a_round_is_seated_off_the_event_loop_so_other_work_goes_on(
        world, monkeypatch: pytest.MonkeyPatch, fmt: str, module: Any, name: str) -> None:
    """Both rounds of a 7-player event are paired in a worker thread while the loop takes a turn, and
    the stored tables are exactly the ones the real function gives."""
    storage, tables, service = world
    held = Held(REAL_SEAT if name == "seat" else REAL_PAIR, asyncio.get_running_loop())
    monkeypatch.setattr(module, name, held)
    kw: dict[str, Any] = {"table_size": 4} if fmt == "pods" else {}
    tid = await new_swiss(service, 7, format=fmt, rounds=2, **kw)
    await service.start(tid, ORGANIZER)
    await play_round(tables, service, tid)  # the last game's step pairs round 2
    s = await service.load(tid)
    assert len(s.rounds) == 2 and len(held.calls) == 2
    for off_loop, loop_had_a_turn, _ in held.calls:
        assert loop_had_a_turn, "the event loop got no turn while the round was being paired"
        assert off_loop, "the round was paired on the event loop's thread"
    for n, rnd in enumerate(s.rounds, start=1):
        stored = [list(m.players) for m in rnd.matches]
        assert stored == [list(m.players) for m in held.calls[n - 1][2]]
        assert stored == _expected(fmt, s.active, s.model_rounds()[:n - 1], s.t.seed, n)
    if fmt == "pods":
        assert sorted(len(m.players) for m in s.rounds[0].matches) == [3, 4]


async def test_a_round_being_seated_when_the_service_stops_is_seated_the_same_after_a_restart(
        world, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service stops while a worker thread seats round 2: it stops at once, the thread's result
    is dropped (nothing is stored), and after a restart the step seats the same round 2."""
    storage, tables, service = world
    held = Held(REAL_SEAT, asyncio.get_running_loop())
    monkeypatch.setattr(pods, "seat", held)
    tid = await new_swiss(service, 7, format="pods", rounds=2, table_size=4)
    await service.start(tid, ORGANIZER)
    held.hold, held.entered, held.returned = True, threading.Event(), threading.Event()
    s = await service.load(tid)
    assert s.current is not None
    for m in s.current.matches:
        if m.status == "playing" and m.game_id in tables.tables:
            await show_and_play(tables, tables.tables[m.game_id])
    assert await asyncio.to_thread(held.entered.wait, WAIT), "round 2 was never seated"
    assert not held.returned.is_set(), "round 2 was seated on the event loop, which it blocked meanwhile"
    await asyncio.wait_for(service.detach(), WAIT)  # does not wait for the seating thread
    assert not held.returned.is_set()
    held.release.set()
    assert await asyncio.to_thread(held.returned.wait, WAIT)
    await asyncio.sleep(0.05)
    assert len((await service.load(tid)).rounds) == 1
    held.hold = False
    service.attach()
    await service.step(tid)
    await settle(service)
    s = await service.load(tid)
    assert len(s.rounds) == 2
    off_loop, loop_had_a_turn, _ = held.calls[-1]
    assert off_loop and loop_had_a_turn
    assert [list(m.players) for m in s.rounds[1].matches] == _expected(
        "pods", s.active, s.model_rounds()[:1], s.t.seed, 2)
