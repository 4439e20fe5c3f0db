"""A tournament's standings and bracket as pictures' moments (``bot/tournaments/pictures.py``, docs/art.md §7)."""

from __future__ import annotations

from bot.art.pictures import BracketMatch, render
from bot.tournaments.model import Match, Result, Round
from bot.tournaments.pictures import STANDINGS_ROWS, bracket_moment, standings_moment
from bot.tournaments.standings import standings

NAMES = {"a": "Ann", "b": "Bo", "c": "Cy", "d": "Di", "e": "Ed"}


def test_a_bracket_shows_each_rounds_matches_their_winners_and_a_bye() -> None:
    """Round 1: Ann beats Bo, Cy beats Di, Ed has a bye; round 2 is under way (no winner yet)."""
    rounds = [Round((Match(("a", "b")), Match(("c", "d")), Match(("e",))),
                    (Result.win("a", "b"), Result.win("c", "d"), Result.bye("e"))),
              Round((Match(("a", "c")),), (None,))]
    moment = bracket_moment("Cup: bracket", rounds, NAMES)
    assert moment.rounds == ((BracketMatch(("Ann", "Bo"), "Ann"), BracketMatch(("Cy", "Di"), "Cy"),
                              BracketMatch(("Ed", ""), "Ed")),
                             (BracketMatch(("Ann", "Cy"), None),))
    assert "Ann v Bo (Ann won)" in render(moment).alt and "Ed v bye (Ed won)" in render(moment).alt


def test_standings_show_points_game_points_and_matches_played_of_the_best() -> None:
    """The standings' picture lists rank, name, points, game points and matches played, best first,
    at most STANDINGS_ROWS rows."""
    rounds = [Round((Match(("a", "b")),), (Result.win("a", "b", scores={"a": 12, "b": 7}),))]
    moment = standings_moment("Cup: standings", standings(["a", "b"], rounds), NAMES)
    assert [(r.rank, r.name, r.score, r.extra) for r in moment.rows] == [(1, "Ann", "3", ("12", "1")),
                                                                         (2, "Bo", "0", ("7", "1"))]
    many = standings([f"p{i}" for i in range(40)], [])
    assert len(standings_moment("Big", many, {}).rows) == STANDINGS_ROWS
