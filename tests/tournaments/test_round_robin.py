"""Round robin by the circle method (docs/tournaments.md §8)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bot.tournaments.round_robin import schedule
from tests.tournaments.helpers import players


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_exactly_once(n: int) -> None:
    entrants = players(n)
    rounds = schedule(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(m.players) for rnd in rounds for m in rnd if not m.is_bye)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(entrants, 2)}
    assert set(meetings.values()) == {1}
    for rnd in rounds:
        assert sorted(p for m in rnd for p in m.players) == entrants, "everyone in exactly one match per round"
        assert sum(m.is_bye for m in rnd) == n % 2
    byes = [m.players[0] for rnd in rounds for m in rnd if m.is_bye]
    assert sorted(byes) == (entrants if n % 2 else [])
    firsts = Counter(m.players[0] for rnd in rounds for m in rnd if not m.is_bye)
    games = Counter(p for rnd in rounds for m in rnd if not m.is_bye for p in m.players)
    assert all(abs(firsts[p] - (games[p] - firsts[p])) <= 2 for p in entrants), "first half the time, give or take one"


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="two players"):
        schedule(["a"])
    with pytest.raises(ValueError, match="twice"):
        schedule(["a", "a"])
