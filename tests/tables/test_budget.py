"""The REST budget (bot/tables/budget.py): a token bucket under Discord's global limit, urgent requests first."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.budget import RestBudget


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_small_burst_then_requests_at_the_rate() -> None:
    clock = Clock()
    budget = RestBudget(40, clock=clock)
    assert [budget.try_take() for _ in range(5)] == [0.0] * 5, "a burst of an eighth"
    assert budget.try_take() == pytest.approx(1 / 40)
    granted = 5
    for tick in range(1, 41):  # a whole second, asked every 25 ms
        clock.now = tick / 40
        granted += sum(budget.try_take() == 0.0 for _ in range(10))
    assert 44 <= granted <= 45, "no second sees more than the rate and the burst: under Discord's 50"
    assert budget.granted == granted


def test_redraws_wait_while_an_urgent_request_waits() -> None:
    clock = Clock()
    budget = RestBudget(1, clock=clock)
    assert budget.try_take() == 0.0
    budget._urgent_waiting = 1  # an opening table is waiting for the next token
    clock.now = 1.0
    assert budget.try_take() > 0, "a redraw lets it go first"
    assert budget.try_take(urgent=True) == 0.0


def test_redraw_intervals_stretch_with_busy_tables_to_fit_the_budget() -> None:
    budget = RestBudget(40)
    assert budget.redraw_interval(1.2, 1) == 1.2
    for busy in (50, 200, 1000):
        interval = budget.redraw_interval(1.2, busy)
        assert busy / interval <= 40 * RestBudget.REDRAW_SHARE + 1e-9, "all their redraws fit the share"


def test_a_budget_for_token_redraws_gives_them_all_of_its_rate() -> None:
    """The bucket that paces redraws through click tokens (docs/tables.md, "Discord's limits"):
    at 1,000 busy tables and the default 250 a second, one edit per table every 4 s."""
    from bot.config import TablesConfig

    budget = RestBudget(TablesConfig().token_redraws_per_second, redraw_share=1.0)
    assert budget.redraw_interval(1.2, 100) == 1.2
    assert budget.redraw_interval(1.2, 1000) == 4.0


def test_a_budget_needs_a_positive_rate() -> None:
    with pytest.raises(ValueError, match="positive"):
        RestBudget(0)
    with pytest.raises(ValueError, match="redraw_share"):
        RestBudget(10, redraw_share=0)


async def test_acquire_serves_urgent_requests_before_waiting_redraws() -> None:
    budget = RestBudget(20)
    for _ in range(20):
        await budget.acquire()
    order: list[str] = []

    async def take(name: str, urgent: bool) -> None:
        await budget.acquire(urgent=urgent)
        order.append(name)

    redraws = [asyncio.create_task(take(f"redraw{i}", False)) for i in range(3)]
    await asyncio.sleep(0)
    urgent = asyncio.create_task(take("opening", True))
    await asyncio.gather(*redraws, urgent)
    assert order[0] == "opening"


async def test_waiting_requests_are_served_in_the_order_asked_at_the_rate() -> None:
    budget = RestBudget(200)  # a burst of 25, then one every 5 ms
    order: list[int] = []

    async def take(i: int) -> None:
        await budget.acquire()
        order.append(i)

    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.gather(*(take(i) for i in range(45)))
    assert order == list(range(45)), "first asked, first served"
    assert loop.time() - start >= 20 / 200 * 0.9, "the 20 past the burst waited for the rate"
    assert budget.granted == 45


async def test_a_request_cancelled_while_waiting_leaves_its_place_to_the_next() -> None:
    budget = RestBudget(8)  # a burst of 1, then one every 125 ms
    await budget.acquire()
    served: list[str] = []

    async def take(name: str) -> None:
        await budget.acquire()
        served.append(name)

    gone = asyncio.create_task(take("gone"))
    stays = asyncio.create_task(take("stays"))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(stays, timeout=2)
    assert served == ["stays"]
    assert gone.cancelled()
    assert budget.granted == 2, "the cancelled request took no token"


def test_processes_of_one_bot_together_stay_within_its_global_budget() -> None:
    """Three processes of one bot (shards 0-1, 2 and 3 of 4), each asking for requests as fast as it
    may for ten seconds: together they are granted no more than tables.rest_per_second allows (plus
    each bucket's small burst); one process taking the whole 40/s each would be granted three times that."""
    from bot.tables.budget import process_share

    now = [0.0]
    budgets = [RestBudget(process_share(40, 4, ids), clock=lambda: now[0]) for ids in ((0, 1), (2,), (3,))]
    for _ in range(10_000):  # 10 s in steps of 1 ms
        for budget in budgets:
            while budget.try_take() == 0.0:
                pass
        now[0] += 0.001
    total = sum(b.granted for b in budgets)
    assert 400 <= total <= 400 + sum(b.burst for b in budgets) + 3, total
