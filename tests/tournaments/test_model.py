"""The tournament model: results, points by place, outcomes, rounds (docs/tournaments.md §2, §4, §5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournaments.model import (
    Match,
    Outcome,
    Result,
    Round,
    bye_counts,
    met_counts,
    opponents,
    seat_counts,
)
from bot.tournaments.pods import place_points


def test_two_player_points_are_three_one_zero() -> None:
    win, draw = Result.win("a", "b"), Result.draw("a", "b")
    assert (win.points("a"), win.points("b")) == (3, 0)
    assert (draw.points("a"), draw.points("b")) == (1, 1)
    assert (win.outcome("a"), win.outcome("b"), draw.outcome("b")) == (Outcome.WIN, Outcome.LOSS, Outcome.DRAW)


def test_a_bye_scores_as_a_win_with_no_game_points() -> None:
    bye = Result.bye("a")
    assert bye.points("a") == 3 and bye.outcome("a") is Outcome.BYE and bye.is_bye and not bye.scores


def test_a_forfeit_loses_to_the_player_present_and_a_double_forfeit_scores_nobody() -> None:
    r = Result.forfeit(["a"], ["a", "b"])
    assert (r.points("a"), r.points("b")) == (0, 3)
    assert (r.outcome("a"), r.outcome("b")) == (Outcome.FORFEIT, Outcome.WIN)
    both = Result.forfeit(["a", "b"])
    assert (both.points("a"), both.points("b")) == (0, 0) and not both.is_bye


def test_points_by_place_table() -> None:
    """docs/tournaments.md §5: the table of points by place."""
    assert place_points(2) == [3, 0]
    assert place_points(3) == [3, Fraction(3, 2), 0]
    assert place_points(4) == [3, 2, 1, 0]
    assert place_points(5) == [3, Fraction(9, 4), Fraction(3, 2), Fraction(3, 4), 0]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_table_hands_out_on_average_one_and_a_half_points(n: int) -> None:
    """Points by place are fair across table sizes: without ties the mean is 3/2 at any size."""
    assert sum(place_points(n)) / n == Fraction(3, 2)


def test_a_tie_at_a_table_counts_as_a_draw_between_the_tied_players() -> None:
    """Tied players score 1 (not 3) against each other, as a two-player draw does."""
    r = Result.ranked({"a": 1, "b": 1, "c": 3, "d": 4})
    assert r.points("a") == r.points("b") == Fraction(3 + 3 + 1, 3)
    assert (r.points("c"), r.points("d")) == (1, 0)


def test_a_forfeiter_at_a_table_counts_as_beaten() -> None:
    r = Result.ranked({"a": 1, "b": 2, "c": 3}, forfeits=["c"])
    assert [r.points(p) for p in "abc"] == [3, Fraction(3, 2), 0]
    assert r.players == ("a", "b", "c")


def test_bad_results_and_rounds_are_refused() -> None:
    with pytest.raises(ValueError, match="places start at 1"):
        Result({"a": 0, "b": 1})
    with pytest.raises(ValueError, match="not players"):
        Result({"a": 1}, scores={"z": 3})
    with pytest.raises(ValueError, match="at least one"):
        Result({})
    with pytest.raises(ValueError, match="at least one"):
        Match(())
    with pytest.raises(ValueError, match="seated twice"):
        Match(("a", "a"))
    with pytest.raises(ValueError, match="two matches"):
        Round.of([Match(("a", "b")), Match(("b", "c"))])
    with pytest.raises(ValueError, match="one result"):
        Round((Match(("a", "b")),), ())
    with pytest.raises(ValueError, match="other players"):
        Round((Match(("a", "b")),), (Result.win("a", "c"),))


def test_a_round_fills_in_as_matches_finish() -> None:
    rnd = Round.of([Match(("a", "b")), Match(("c",))])
    assert not rnd.is_complete and rnd.results[1] == Result.bye("c")
    done = rnd.with_result(0, Result.win("b", "a"))
    assert done.is_complete and rnd.results[0] is None and done.players == ("a", "b", "c")


def test_history_counts() -> None:
    rounds = [Round.of([Match(("a", "b")), Match(("c",))]), Round.of([Match(("b", "a")), Match(("c",))])]
    assert met_counts(rounds) == {frozenset("ab"): 2}
    assert bye_counts(rounds) == {"c": 2}
    assert seat_counts(rounds) == {("a", 0): 1, ("b", 1): 1, ("b", 0): 1, ("a", 1): 1}
    assert opponents(rounds) == {"a": ["b", "b"], "b": ["a", "a"], "c": []}
