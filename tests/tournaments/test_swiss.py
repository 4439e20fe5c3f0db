"""Swiss pairing of two-player games (docs/tournaments.md §3), checked against brute force on small counts."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Match, Result, Round, bye_counts, met_counts, seat_counts
from bot.tournaments.standings import standings
from bot.tournaments.swiss import pair
from tests.tournaments.helpers import pairings_of, players, run

BYE = "~bye"


def objective(tables: list[Match], entrants: list[str], history: list[Round]) -> tuple[int, int, Fraction]:
    """§3's order of concerns as a key to minimize: rematches, then the bye's rank (lower is better
    for the bye, so negated), then the sum of squared score differences."""
    rows = {s.player: s for s in standings(entrants, history)}
    met = met_counts(history)
    games = [m.players for m in tables if not m.is_bye]
    byes = [m.players[0] for m in tables if m.is_bye]
    rematches = sum(1 for a, b in games if met.get(frozenset((a, b)), 0))
    bye_rank = rows[byes[0]].rank if byes else 0
    spread = sum(((rows[a].points - rows[b].points) ** 2 for a, b in games), Fraction(0))
    return rematches, -bye_rank, spread


def brute_force_best(entrants: list[str], history: list[Round]) -> tuple[int, int, Fraction]:
    """The best objective over every pairing that gives the bye to someone allowed it (§3 rule 1)."""
    had = bye_counts(history)
    fewest = min(had.get(p, 0) for p in entrants)
    nodes = sorted(entrants) + ([BYE] if len(entrants) % 2 else [])
    best = None
    for matching in pairings_of(nodes):
        tables = []
        for a, b in matching:
            if BYE in (a, b):
                player = b if a == BYE else a
                if had.get(player, 0) != fewest:
                    break
                tables.append(Match((player,)))
            else:
                tables.append(Match((a, b)))
        else:
            key = objective(tables, entrants, history)
            best = key if best is None or key < best else best
    assert best is not None
    return best


def check_round(tables: list[Match], entrants: list[str]) -> None:
    seated = [p for m in tables for p in m.players]
    assert sorted(seated) == sorted(entrants), "every active player in exactly one match"
    assert all(len(m.players) == 2 for m in tables if not m.is_bye)
    assert sum(m.is_bye for m in tables) == len(entrants) % 2
    assert all(m.is_bye for m in tables[len(entrants) // 2:])


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 9), before=st.integers(0, 5), seed=st.integers(0, 10_000), draws=st.booleans())
def test_the_pairing_is_the_best_by_brute_force(n: int, before: int, seed: int, draws: bool) -> None:
    """No avoidable rematch, the bye to the lowest-ranked eligible player, the closest scores:
    exactly as good as the best of every possible pairing."""
    entrants = players(n)
    history = run(pair, entrants, before, seed, draws=draws)
    tables = pair(entrants, history, Random(seed))
    check_round(tables, entrants)
    assert objective(tables, entrants, history) == brute_force_best(entrants, history)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 24), rounds=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_every_round_seats_everyone_once_with_byes_to_distinct_players(n: int, rounds: int, seed: int) -> None:
    entrants = players(n)
    history = run(pair, entrants, rounds, seed)
    for rnd in history:
        check_round(list(rnd.matches), entrants)
    byes = [m.players[0] for rnd in history for m in rnd.matches if m.is_bye]
    assert len(byes) == (rounds if n % 2 else 0)
    assert len(set(byes)) == min(len(byes), n), "nobody gets a second bye before everyone had one"


@settings(max_examples=20, deadline=None)
@given(half=st.integers(2, 10), seed=st.integers(0, 10_000), data=st.data())
def test_no_rematch_while_one_can_be_avoided(half: int, seed: int, data: st.DataObject) -> None:
    """With an even n and fewer than n/2 rounds played, a pairing without rematch always exists
    (the complement of who-met-whom has minimum degree >= n/2, so Dirac's theorem applies)."""
    n = 2 * half
    rounds = data.draw(st.integers(1, half))
    history = run(pair, players(n), rounds, seed)
    met = met_counts(history)
    assert max(met.values()) == 1


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 16), rounds=st.integers(0, 4), seed=st.integers(0, 10_000))
def test_deterministic_for_a_seed_and_independent_of_the_order_given(n: int, rounds: int, seed: int) -> None:
    entrants = players(n)
    history = run(pair, entrants, rounds, seed)
    first = pair(entrants, history, Random(seed))
    assert pair(entrants, history, Random(seed)) == first
    assert pair(list(reversed(entrants)), history, Random(seed)) == first


def test_different_seeds_give_different_first_rounds() -> None:
    entrants = players(16)
    assert len({tuple(pair(entrants, [], Random(s))) for s in range(10)}) > 1


@settings(max_examples=20, deadline=None)
@given(n=st.integers(4, 14), rounds=st.integers(1, 4), seed=st.integers(0, 10_000))
def test_the_player_who_sat_first_less_often_sits_first(n: int, rounds: int, seed: int) -> None:
    entrants = players(n)
    history = run(pair, entrants, rounds, seed)
    firsts = {p: c for (p, s), c in seat_counts(history).items() if s == 0}
    for m in pair(entrants, history, Random(seed)):
        if not m.is_bye:
            assert firsts.get(m.players[0], 0) <= firsts.get(m.players[1], 0)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    """Five players: e had the round-1 bye; d is last, so d gets the round-2 bye."""
    r1 = Round.of([Match(("a", "b")), Match(("c", "d")), Match(("e",))])
    r1 = r1.with_result(0, Result.win("a", "b")).with_result(1, Result.draw("c", "d"))
    # Standings: e 3 (bye), a 3, c 1, d 1, b 0 -> b is last and gets it.
    tables = pair(list("abcde"), [r1], Random(0))
    assert tables[-1] == Match(("b",))
    # Once b has had one too, the lowest without one is c or d (1 point each): never a, b or e.
    r2 = Round.of(tables)
    r2 = Round(r2.matches, tuple(r if r is not None else Result.draw(*m.players)
                                for m, r in zip(r2.matches, r2.results, strict=True)))
    assert pair(list("abcde"), [r1, r2], Random(0))[-1].players[0] in ("c", "d")


def test_players_pair_within_their_score_group() -> None:
    """After one round of 8 with no draws, the four winners meet each other, as do the four losers."""
    entrants = players(8)
    history = run(pair, entrants, 1, seed=5, draws=False)
    winners = {p for r in history[0].results if r is not None for p in r.places if r.places[p] == 1}
    for m in pair(entrants, history, Random(5)):
        assert (m.players[0] in winners) == (m.players[1] in winners)


def test_dropped_players_are_not_paired() -> None:
    entrants = players(9)
    history = run(pair, entrants, 2, seed=3)
    active = entrants[:-2]
    tables = pair(active, history, Random(3))
    check_round(tables, active)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="two players"):
        pair(["a"], [], Random(0))
    with pytest.raises(ValueError, match="twice"):
        pair(["a", "a", "b"], [], Random(0))
