"""Forcing the next round: unfinished matches decided by the game's current standings (docs/tournaments.md §9)."""

from __future__ import annotations

import pytest

from bot.tournaments.forced import decide
from bot.tournaments.model import Match, Outcome, Result


def test_the_higher_score_wins_and_equal_scores_draw() -> None:
    m = Match(("a", "b"))
    assert decide(m, {"a": 3, "b": 9}).outcome("b") is Outcome.WIN
    assert decide(m, {"a": 3, "b": 3}).outcome("a") is Outcome.DRAW
    assert decide(m, {}).outcome("a") is Outcome.DRAW, "a game that has not started is a draw"
    assert decide(m, {"a": 1}).forced


def test_a_game_won_by_the_lowest_score() -> None:
    r = decide(Match(("a", "b", "c", "d")), {"a": 20, "b": 5, "c": 12, "d": 5}, lowest_wins=True)
    assert dict(r.places) == {"a": 4, "b": 1, "c": 3, "d": 1}


def test_a_ruled_forfeit_stays_a_forfeit() -> None:
    r = decide(Match(("a", "b", "c")), {"a": 9, "b": 1, "c": 4}, forfeits=["a"])
    assert dict(r.places) == {"a": 3, "b": 2, "c": 1} and r.points("a") == 0 and "a" not in r.scores


def test_a_bye_is_a_bye_and_strangers_are_refused() -> None:
    assert decide(Match(("a",)), {}) == Result.bye("a")
    with pytest.raises(ValueError, match="not players"):
        decide(Match(("a", "b")), {"z": 1})
