"""Single elimination (docs/tournaments.md §7): seeding, bracket shape for 2..128, advancing, pods."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.elimination import (
    advancers,
    advancing_per_table,
    bracket_order,
    bracket_size,
    first_round,
    next_field,
    next_round,
    pod_plan,
    pod_round,
    rounds_needed,
    seeding,
)
from bot.tournaments.model import Match, Result
from bot.tournaments.pods import POD_SIZES, table_sizes
from tests.tournaments.helpers import players, random_result


def test_standard_bracket_order_for_16() -> None:
    order = bracket_order(16)
    assert [tuple(sorted(order[i:i + 2])) for i in range(0, 16, 2)] == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("n", range(2, 129))
def test_the_bracket_has_the_right_shape(n: int) -> None:
    """For any count from 2 to 128: a power-of-two bracket, byes to the top seeds, seeds s and
    size + 1 - s meet in round 1, and when the better seed always wins, every round halves the field,
    seed 1 meets seed 2 only in the final, and n - 1 games are played in all."""
    seeds = players(n)
    size = bracket_size(n)
    assert size >= n > size // 2 and size & (size - 1) == 0
    rnd: list[Match | None] = list(first_round(seeds))
    assert len(rnd) == size // 2
    byes = [m.players[0] for m in rnd if m is not None and m.is_bye]
    assert sorted(byes) == seeds[:size - n], "byes fill the bracket and go to the top seeds"
    for m in rnd:
        assert m is not None
        numbers = [seeds.index(p) + 1 for p in m.players]
        assert numbers == sorted(numbers)
        if len(numbers) == 2:
            assert sum(numbers) == size + 1
    games = 0
    for r in range(rounds_needed(n)):
        assert len(rnd) == size >> (r + 1)
        results: list[Result | None] = []
        for m in rnd:
            assert m is not None
            games += not m.is_bye
            if m.players[:2] == (seeds[0], seeds[1]):
                assert len(rnd) == 1, "seeds 1 and 2 meet only in the final"
            results.append(Result.bye(m.players[0]) if m.is_bye else Result.win(*m.players))
        if len(rnd) == 1:
            champion = advancers(rnd[0], results[0]) if rnd[0] is not None and results[0] is not None else ()
            break
        rnd = next_round(rnd, results, seeds)
    assert champion == (seeds[0],) and games == n - 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 128), seed=st.integers(0, 10_000))
def test_random_results_always_end_with_one_champion(n: int, seed: int) -> None:
    rng = Random(seed)
    seeds = seeding(players(n), rng)
    rnd: list[Match | None] = list(first_round(seeds))
    alive = set(seeds)
    for _ in range(rounds_needed(n)):
        seated = [p for m in rnd if m is not None for p in m.players]
        assert sorted(seated) == sorted(alive), "everyone still in plays exactly once"
        results: list[Result | None] = [None if m is None else random_result(m, rng, forfeits=True) for m in rnd]
        if len(rnd) == 1:
            break
        rnd = next_round(rnd, results, seeds)
        alive = {p for m in rnd if m is not None for p in m.players}
    assert len(rnd) == 1 and len(alive) <= 2


def test_a_draw_advances_the_better_seed_and_a_forfeiter_never_advances() -> None:
    seeds = ["a", "b", "c", "d"]
    r1 = first_round(seeds)  # a v d, b v c
    assert [m.players for m in r1] == [("a", "d"), ("b", "c")]
    assert advancers(r1[0], Result.draw("d", "a")) == ("a",)
    assert next_round(r1, [Result.forfeit(["a"], ["a", "d"]), Result.forfeit(["b", "c"])], seeds) == [Match(("d",))]
    with pytest.raises(ValueError, match="no result"):
        next_round(r1, [Result.win("a", "d"), None], seeds)
    with pytest.raises(ValueError, match="even"):
        next_round(r1[:1], [Result.win("a", "d")], seeds)
    with pytest.raises(ValueError, match="not this match"):
        advancers(r1[0], Result.win("b", "c"))


def test_an_empty_half_gives_the_other_a_bye_and_an_empty_slot() -> None:
    seeds = players(8)
    r1 = first_round(seeds)
    results = [Result.forfeit(m.players) for m in r1[:2]] + [Result.win(*m.players) for m in r1[2:]]
    r2 = next_round(r1, results, seeds)
    assert r2[0] is None and r2[1] is not None and len(r2[1].players) == 2
    r3 = next_round(r2, [None, Result.win(*r2[1].players)], seeds)
    assert r3 == [Match((r2[1].players[0],))]


def test_seeding_puts_the_rated_first_and_shuffles_the_rest_by_the_seed() -> None:
    entrants = players(10)
    rated = ["p007", "zzz-not-entered", "p002"]
    order = seeding(entrants, Random(4), rated=rated)
    assert order[:2] == ["p007", "p002"] and sorted(order) == entrants
    assert seeding(entrants, Random(4), rated=rated) == order
    assert len({tuple(seeding(entrants, Random(s))) for s in range(5)}) > 1


def test_bad_brackets_are_refused() -> None:
    with pytest.raises(ValueError, match="two players"):
        bracket_size(1)
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(12)
    with pytest.raises(ValueError, match="twice"):
        first_round(["a", "a"])
    with pytest.raises(ValueError, match="advance"):
        advancing_per_table(10, 4, 3, 3)


@settings(max_examples=150, deadline=None)
@given(size=st.sampled_from(POD_SIZES), data=st.data())
def test_a_multiplayer_bracket_shrinks_to_one_final_table(size: int, data: st.DataObject) -> None:
    """For any count up to 128: each round has legal tables, the field shrinks, the final fits one table."""
    minimum = data.draw(st.integers(2, size))
    advance = data.draw(st.integers(1, minimum - 1))
    n = data.draw(st.integers(minimum, 128))
    plan = pod_plan(n, size=size, minimum=minimum, advance=advance)
    assert plan[0] == n and all(a > b for a, b in zip(plan, plan[1:], strict=False))
    assert minimum <= plan[-1] <= size
    rng = Random(data.draw(st.integers(0, 1000)))
    field = seeding(players(n), rng)
    for expected in plan[:-1]:
        assert len(field) == expected
        tables = pod_round(field, size=size, minimum=minimum)
        sizes, byes = table_sizes(len(field), size, minimum)
        assert sorted((len(m.players) for m in tables if not m.is_bye), reverse=True) == sizes
        assert [m.players[0] for m in tables if m.is_bye] == field[:byes], "byes to the top seeds"
        assert sorted(p for m in tables for p in m.players) == sorted(field)
        k = advancing_per_table(len(field), size, minimum, advance)
        results = [Result.bye(m.players[0]) if m.is_bye else random_result(m, rng) for m in tables]
        field = next_field(field, tables, results, k)
    final = pod_round(field, size=size, minimum=minimum)
    assert len(final) == 1 and len(final[0].players) == plan[-1]


def test_multiplayer_seeds_spread_in_snake_order() -> None:
    field = players(12)
    tables = pod_round(field, size=4)
    assert [m.players for m in tables] == [("p000", "p005", "p006", "p011"), ("p001", "p004", "p007", "p010"),
                                           ("p002", "p003", "p008", "p009")]
    winners = next_field(field, tables, [Result.ranked({p: i + 1 for i, p in enumerate(m.players)})
                                         for m in tables], 1)
    assert winners == ["p000", "p001", "p002"]
    assert pod_round(winners, size=4) == [Match(("p000", "p001", "p002"))]


def test_more_advance_when_too_few_would_be_left() -> None:
    """4 players at tables of 3 with the top 1 advancing would leave 2 for a game of 3: 2 advance."""
    assert advancing_per_table(4, 3, 3, 1) == 2
    assert pod_plan(4, size=3, minimum=3, advance=1) == [4, 3]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_the_top_seeds_are_spread_over_the_bracket(size: int) -> None:
    """Each of the 2^k parts of the bracket holds exactly one of the top 2^k seeds."""
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    parts = 2
    while parts <= size:
        width = size // parts
        tops = [min(order[i:i + width]) for i in range(0, size, width)]
        assert sorted(tops) == list(range(1, parts + 1))
        parts *= 2
