"""Swiss pods for multiplayer games (docs/tournaments.md §5): sizes, byes, seating, seats."""

from __future__ import annotations

import itertools
import math
from functools import partial
from random import Random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Match, Result, Round, bye_counts, met_counts, seat_counts
from bot.tournaments.pods import POD_SIZES, seat, seat_order, table_sizes
from bot.tournaments.standings import standings
from tests.tournaments.helpers import pair_count, play, players, run


@settings(max_examples=150, deadline=None)
@given(size=st.sampled_from(POD_SIZES), data=st.data())
def test_table_sizes_are_allowed_balanced_and_seat_the_most(size: int, data: st.DataObject) -> None:
    minimum = data.draw(st.integers(2, size))
    n = data.draw(st.integers(minimum, 200))
    sizes, byes = table_sizes(n, size, minimum)
    assert sum(sizes) + byes == n
    assert all(minimum <= k <= size for k in sizes)
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert len(sizes) == math.ceil(sum(sizes) / size), "as few tables as the size allows"
    # No way to seat more: k players fit t tables of minimum..size only if t*minimum <= k <= t*size.
    for k in range(sum(sizes) + 1, n + 1):
        assert not any(t * minimum <= k <= t * size for t in range(1, k + 1))


def test_table_sizes_examples() -> None:
    """docs/tournaments.md §5's examples."""
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(9, 4) == ([3, 3, 3], 0)
    assert table_sizes(11, 5) == ([4, 4, 3], 0)
    assert table_sizes(7, 3) == ([3, 3], 1)
    assert table_sizes(5, 4, 4) == ([4], 1)
    assert table_sizes(5, 3, 2) == ([3, 2], 0)


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="3 to 5"):
        table_sizes(10, 6)
    with pytest.raises(ValueError, match="minimum"):
        table_sizes(10, 4, 5)
    with pytest.raises(ValueError, match="cannot fill"):
        table_sizes(2, 4)
    with pytest.raises(ValueError, match="twice"):
        seat(["a", "a", "b", "c"], [], Random(0), size=3)


def check_round(tables: list[Match], entrants: list[str], size: int, minimum: int) -> None:
    assert sorted(p for m in tables for p in m.players) == sorted(entrants), "everyone in exactly one match"
    sizes, byes = table_sizes(len(entrants), size, minimum)
    assert sorted((len(m.players) for m in tables if not m.is_bye), reverse=True) == sizes
    assert sum(m.is_bye for m in tables) == byes


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from(POD_SIZES), n=st.integers(3, 40), rounds=st.integers(1, 4),
       seed=st.integers(0, 10_000), data=st.data())
def test_every_round_seats_everyone_once_within_the_sizes(size: int, n: int, rounds: int, seed: int,
                                                          data: st.DataObject) -> None:
    minimum = data.draw(st.integers(2, min(size, n)))
    entrants = players(n)
    history = run(partial(seat, size=size, minimum=minimum), entrants, rounds, seed, forfeits=True)
    for rnd in history:
        check_round(list(rnd.matches), entrants, size, minimum)
    counts = [bye_counts(history).get(p, 0) for p in entrants]
    assert max(counts) - min(counts) <= 1, "nobody gets a second bye before everyone had one"


def partitions(people: list[str], sizes: list[int], after: str = "") -> list[list[tuple[str, ...]]]:
    """Every way to split *people* (sorted) into tables of *sizes* (in that order), each once.

    Tables of equal size are taken in the order of their first players (each after *after*), so the
    same split with equal tables swapped is not listed again.
    """
    if not sizes:
        return [[]]
    out = []
    for table in itertools.combinations(people, sizes[0]):
        if table[0] < after:
            continue
        rest = [p for p in people if p not in table]
        nxt = table[0] if sizes[1:] and sizes[1] == sizes[0] else ""
        out += [[table, *more] for more in partitions(rest, sizes[1:], nxt)]
    return out


def test_partitions_list_every_split_once() -> None:
    """The brute force's own check: 11 players into 4 + 4 + 3 is 11!/(4! 4! 3! 2!) splits."""
    split = partitions(players(11), [4, 4, 3])
    assert len(split) == math.factorial(11) // (24 * 24 * 6 * 2) == 5775
    assert len({frozenset(map(frozenset, s)) for s in split}) == 5775
    assert len(partitions(players(9), [3, 3, 3])) == 280


def assert_fewest_repeats(tables: list[Match], history: list[Round]) -> None:
    """No split of the players seated at *tables* into tables of the same sizes repeats fewer pairs."""
    met = met_counts(history)
    games = [m.players for m in tables if not m.is_bye]
    seated = sorted(p for t in games for p in t)
    sizes = sorted((len(t) for t in games), reverse=True)
    best = min(pair_count(split, met) for split in partitions(seated, sizes))
    assert pair_count(games, met) == best


@settings(max_examples=80, deadline=None)
@given(size=st.sampled_from(POD_SIZES), n=st.integers(6, 11), rounds=st.integers(1, 4), seed=st.integers(0, 10_000))
@example(size=3, n=10, rounds=3, seed=206)  # the swaps alone stopped at 2 repeated pairs; 1 was possible
def test_repeat_opponents_are_as_few_as_brute_force_finds(size: int, n: int, rounds: int, seed: int) -> None:
    """Among the players seated this round, no split into tables of the same sizes has fewer pairs
    who met before."""
    entrants = players(n)
    history = run(partial(seat, size=size), entrants, rounds, seed)
    assert_fewest_repeats(seat(entrants, history, Random(seed), size=size), history)


def test_fewest_repeats_beyond_the_reach_of_single_swaps() -> None:
    """Regression: 10 players at tables of 3 after three rounds. No swap of two players between
    tables lowered the repeats of the seating the local search settled on, so it kept 2 repeated
    pairs; the split (p000 p007 p009) (p001 p002 p005) (p004 p006 p008) has 1."""
    entrants = players(10)
    seatings = [
        [("p006", "p001", "p007"), ("p002", "p008", "p009"), ("p004", "p003", "p005"), ("p000",)],
        [("p001", "p000", "p003"), ("p009", "p005", "p006"), ("p007", "p002", "p004"), ("p008",)],
        [("p004", "p009", "p001"), ("p003", "p006", "p002"), ("p008", "p007", "p000"), ("p005",)],
    ]
    results = Random(207)
    history = [play(Round.of([Match(t) for t in tables]), results) for tables in seatings]
    tables = seat(entrants, history, Random(206), size=3)
    assert pair_count([m.players for m in tables if not m.is_bye], met_counts(history)) == 1
    assert_fewest_repeats(tables, history)


def test_the_first_round_is_seated_by_standings_and_later_by_score() -> None:
    """After a round of 8 at tables of 4, the two winners and the two seconds sit together.

    Each new table must take two players from each old one (4 repeated pairs in all, the least
    possible); among those splits, the closest scores put 3, 3, 2, 2 together."""
    entrants = players(8)
    r1 = Round.of([Match(tuple(entrants[:4])), Match(tuple(entrants[4:]))])
    r1 = r1.with_result(0, Result.ranked({p: i + 1 for i, p in enumerate(entrants[:4])}))
    r1 = r1.with_result(1, Result.ranked({p: i + 1 for i, p in enumerate(entrants[4:])}))
    tables = seat(entrants, [r1], Random(0), size=4)
    top = {"p000", "p001", "p004", "p005"}
    assert set(tables[0].players) == top, "the top of the standings sits at table 1"
    assert pair_count([m.players for m in tables], met_counts([r1])) == 4


def test_the_byes_go_to_the_lowest_ranked_without_one() -> None:
    entrants = players(7)
    r1 = Round.of(seat(entrants, [], Random(1), size=3))
    assert [m.players for m in r1.matches if m.is_bye] == [(r1.matches[-1].players[0],)]
    played = Round(r1.matches, tuple(r if r is not None else Result.ranked({p: i + 1 for i, p in enumerate(m.players)})
                                     for m, r in zip(r1.matches, r1.results, strict=True)))
    rows = standings(entrants, [played], pods=True)
    first_bye = r1.matches[-1].players[0]
    second = seat(entrants, [played], Random(1), size=3)[-1].players[0]
    without = [s for s in rows if s.player != first_bye]
    assert second != first_bye
    assert next(s.rank for s in rows if s.player == second) == max(s.rank for s in without)


def test_seats_rotate_so_nobody_repeats_a_seat_while_it_can_be_avoided() -> None:
    """Four players at one table for four rounds: each sits in each seat exactly once."""
    entrants = players(4)
    history = run(partial(seat, size=4), entrants, 4, seed=11)
    counts = seat_counts(history)
    assert all(counts.get((p, s), 0) == 1 for p in entrants for s in range(4))


def test_seat_order_picks_the_least_used_seats() -> None:
    history = [Round.of([Match(("a", "b", "c"))])]
    order = seat_order(["a", "b", "c"], history, Random(0))
    assert all(order[i] != ("a", "b", "c")[i] for i in range(3))


@settings(max_examples=15, deadline=None)
@given(size=st.sampled_from(POD_SIZES), n=st.integers(3, 30), rounds=st.integers(0, 3), seed=st.integers(0, 10_000))
def test_deterministic_for_a_seed_and_independent_of_the_order_given(size: int, n: int, rounds: int,
                                                                      seed: int) -> None:
    entrants = players(n)
    history = run(partial(seat, size=size), entrants, rounds, seed)
    first = seat(entrants, history, Random(seed), size=size)
    assert seat(entrants, history, Random(seed), size=size) == first
    assert seat(list(reversed(entrants)), history, Random(seed), size=size) == first
