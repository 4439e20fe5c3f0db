"""Standings and tie-breaks, in the documented order (docs/tournaments.md §6), with worked examples."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.forced import decide
from bot.tournaments.model import Match, Result, Round
from bot.tournaments.pods import seat
from bot.tournaments.standings import MWP_FLOOR, match_win_percentage, standings
from bot.tournaments.swiss import pair
from tests.tournaments.helpers import players, run


def rnd(*results: Result) -> Round:
    return Round(tuple(Match(tuple(r.places)) for r in results), results)


def won(winner: str, loser: str, w: int = 0, lose: int = 0) -> Result:
    return Result.win(winner, loser, scores={winner: w, loser: lose})


def order(rows: list) -> list[str]:
    return [s.player for s in rows]


def test_the_worked_example_of_the_docs() -> None:
    """docs/tournaments.md §6: each tie-break decides one place."""
    rounds = [rnd(won("eve", "ann", 15, 2), won("cid", "bob", 10, 5), won("dee", "fay", 10, 5)),
              rnd(won("cid", "eve", 15, 2), won("bob", "dee", 15, 8), won("fay", "ann", 12, 8)),
              rnd(won("cid", "dee", 12, 4), won("ann", "bob", 12, 2), won("eve", "fay", 20, 8))]
    rows = standings(["ann", "bob", "cid", "dee", "eve", "fay"], rounds)
    assert order(rows) == ["cid", "eve", "bob", "dee", "fay", "ann"]
    by = {s.player: s for s in rows}
    assert by["bob"].opponents == by["dee"].opponents == Fraction(5, 9) > by["fay"].opponents == Fraction(4, 9)
    assert by["bob"].game_points == by["dee"].game_points == 22 < by["fay"].game_points == 25
    assert (by["bob"].head_to_head, by["dee"].head_to_head) == (3, 0)
    assert [s.rank for s in rows] == [1, 2, 3, 4, 5, 6]


def test_points_come_before_every_tie_break() -> None:
    rows = standings(["a", "b", "c", "d"], [rnd(won("a", "b", 0, 99), Result.draw("c", "d"))])
    assert order(rows) == ["a", "c", "d", "b"]


def test_opponents_match_win_percentage_is_floored_at_a_third() -> None:
    """Two 1-0 players: a beat b, who then lost again (0/6 -> counts as 1/3); c beat d, who then won (3/6)."""
    rounds = [rnd(won("a", "b"), won("c", "d")), rnd(won("e", "b"), won("d", "f"))]
    rows = {s.player: s for s in standings(list("abcdef"), rounds)}
    assert match_win_percentage(Fraction(0), 2) == MWP_FLOOR
    assert rows["a"].opponents == Fraction(1, 3) and rows["c"].opponents == Fraction(1, 2)
    assert order(standings(["a", "c"], rounds)) == ["c", "a"]


def test_a_bye_is_no_opponent_and_counts_as_a_round_played() -> None:
    rounds = [Round.of([Match(("a", "b")), Match(("c",))]).with_result(0, won("a", "b"))]
    rows = {s.player: s for s in standings(list("abc"), rounds)}
    assert (rows["c"].points, rows["c"].byes, rows["c"].played, rows["c"].opponents) == (3, 1, 1, MWP_FLOOR)
    assert rows["c"].game_points == 0


def test_opponents_come_before_game_points() -> None:
    """a and b both 1-0; a's opponent went on to 1-1 (1/2), b's to 0-2 (1/3); b has more game points."""
    rounds = [rnd(won("a", "x", 1, 0), won("b", "y", 9, 0)), rnd(won("x", "z"), won("w", "y"))]
    rows = standings(["a", "b"], rounds)
    assert (rows[0].opponents, rows[1].opponents) == (Fraction(1, 2), Fraction(1, 3))
    assert order(rows) == ["a", "b"] and rows[0].game_points < rows[1].game_points


def test_game_points_come_before_head_to_head() -> None:
    """a beat b, then lost; b lost, then won: equal points and opponents; b's 30 game points win."""
    rounds = [rnd(won("a", "b", 1, 0), won("e", "c"), won("d", "f")),
              rnd(won("c", "a", 5, 0), won("b", "d", 30, 0))]
    rows = standings(["a", "b"], rounds)
    assert rows[0].points == rows[1].points and rows[0].opponents == rows[1].opponents == Fraction(1, 2)
    assert order(rows) == ["b", "a"]
    assert rows[0].head_to_head == rows[1].head_to_head == 0, "head to head only among players tied on all before"


def test_head_to_head_decides_last() -> None:
    """Equal on points, opponents and game points: the one who won their match is ahead (a cycle of
    four stays tied)."""
    rounds = [rnd(won("a", "b", 2, 2), won("c", "d", 2, 2)), rnd(won("b", "c", 2, 2), won("d", "a", 2, 2))]
    rows = standings(["a", "b", "c", "d"], rounds)
    assert len({(s.opponents, s.game_points) for s in rows}) == 1
    assert [s.rank for s in rows] == [1, 1, 1, 1], "a cycle (a>b>c>d>a) leaves all four tied"
    # a beat b, then lost to c; b beat d. c and d both ended 1-1, and a and b both have 7 game points.
    rounds = [rnd(won("b", "a", 2, 2), won("e", "c"), won("d", "f")),
              rnd(won("c", "b", 0, 5), won("a", "d", 5, 0))]
    two = standings(["a", "b"], rounds)
    assert two[0].key[:3] == two[1].key[:3]
    assert [(s.player, s.head_to_head, s.rank) for s in two] == [("b", 3, 1), ("a", 0, 2)]


def test_a_three_way_cycle_stays_tied() -> None:
    """a beat b, b beat c, c beat a: each scored 3 against the other two, so they share a rank."""
    rounds = [rnd(won("a", "b")), rnd(won("b", "c")), rnd(won("c", "a"))]
    rows = standings(["a", "b", "c"], rounds)
    assert [(s.head_to_head, s.rank) for s in rows] == [(3, 1), (3, 1), (3, 1)]


def test_players_equal_on_everything_share_a_rank() -> None:
    rows = standings(["b", "a", "c", "d"], [rnd(won("a", "c"), won("b", "d"))])
    assert [(s.player, s.rank) for s in rows] == [("a", 1), ("b", 1), ("c", 3), ("d", 3)]


def test_unfinished_matches_do_not_count_but_dropped_players_still_count_for_their_opponents() -> None:
    r1 = rnd(won("a", "b"), won("c", "d"))
    r2 = Round.of([Match(("a", "c")), Match(("b", "d"))]).with_result(1, won("d", "b"))
    rows = {s.player: s for s in standings(["a", "c"], [r1, r2])}  # b and d have dropped
    assert rows["a"].played == rows["c"].played == 1
    assert rows["a"].opponents == Fraction(1, 3), "b's 0-2 counts though b has dropped"
    assert rows["c"].opponents == Fraction(1, 2), "d's 1-1 counts though d has dropped"


def test_buchholz_for_pods_sums_the_mean_points_of_each_table() -> None:
    """docs/tournaments.md §6, pods: a's tablemates averaged (2 + 0) / 2 then (3 + 1.5) / 2."""
    r1 = rnd(Result.ranked({"a": 1, "b": 2, "c": 3, "d": 4}), Result.ranked({"e": 1, "f": 2, "g": 3}))
    r2 = rnd(Result.ranked({"e": 1, "a": 2, "f": 3}), Result.ranked({"b": 1, "c": 2, "d": 3, "g": 4}))
    rows = {s.player: s for s in standings(list("abcdefg"), [r1, r2], pods=True)}
    pts = {p: rows[p].points for p in "abcdefg"}
    assert pts == {"a": Fraction(9, 2), "b": 5, "c": 3, "d": 1, "e": 6, "f": Fraction(3, 2), "g": 0}
    assert rows["a"].opponents == (pts["b"] + pts["c"] + pts["d"]) / 3 + (pts["e"] + pts["f"]) / 2


def test_a_forced_result_counts_with_its_scores_as_game_points() -> None:
    """docs/tournaments.md §9: the forced result places by current score; the scores are game points."""
    r = Round.of([Match(("a", "b"))])
    r = r.with_result(0, decide(r.matches[0], {"a": 7, "b": 4}))
    rows = {s.player: s for s in standings(["a", "b"], [r])}
    assert (rows["a"].points, rows["a"].game_points, rows["b"].game_points) == (3, 7, 4)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 16), rounds=st.integers(1, 4), seed=st.integers(0, 10_000), pods=st.booleans())
def test_standings_are_ordered_by_points_then_tie_breaks(n: int, rounds: int, seed: int, pods: bool) -> None:
    entrants = players(n)
    if pods and n >= 3:
        history = run(partial(seat, size=4), entrants, rounds, seed, forfeits=True)
    else:
        history = run(pair, entrants, rounds, seed, forfeits=True)
    rows = standings(entrants, history, pods=pods)
    assert sorted(s.player for s in rows) == entrants
    keys = [s.key for s in rows]
    assert keys == sorted(keys, reverse=True)
    for s in rows:
        assert s.rank == 1 + sum(1 for k in keys if k > s.key)
    total = sum(s.played for s in rows)
    assert total == sum(len(r.places) for rnd in history for r in rnd.results if r is not None)
