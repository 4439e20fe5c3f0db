"""A tournament's standings and bracket as moments to draw (``bot.art.pictures``; ``docs/art.md`` §7).

Pure: plain data in, a frozen moment out (the tournament service draws it off the loop, in a worker
thread, and posts it with the standings it goes with). Everything here is public: names, points and
who beat whom.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.art.pictures import Bracket, BracketMatch, StandingRow, Standings
from bot.tournaments.model import Result, Round, Standing

__all__ = ["STANDINGS_ROWS", "bracket_moment", "standings_moment"]

STANDINGS_ROWS = 32
"""The most rows a standings picture shows (the best); the text has them all, page by page."""


def _fmt(value: Fraction | float | int) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:.1f}"


def standings_moment(title: str, rows: Sequence[Standing], names: Mapping[str, str]) -> Standings:
    """The standings *rows* (best first, ``bot.tournaments.standings.standings``) as a picture's moment:
    rank, name, points, game points and matches played, the first :data:`STANDINGS_ROWS`.

    Parameters
    ----------
    title:
        The picture's title (``"Spring cup: standings after round 2"``).
    names:
        Player id to the name shown (a player without one is shown by id).
    """
    shown = tuple(StandingRow(r.rank, names.get(r.player, r.player), _fmt(r.points),
                              (_fmt(r.game_points), str(r.played)))
                  for r in rows[:STANDINGS_ROWS])
    return Standings(title, shown, ("points", "game pts", "played"), "tournament-standings.png")


def _winner(result: Result | None) -> str | None:
    if result is None:
        return None
    first = [p for p, place in result.places.items() if place == 1]
    return first[0] if len(first) == 1 else None


def bracket_moment(title: str, rounds: Sequence[Round], names: Mapping[str, str]) -> Bracket:
    """An elimination's *rounds* (``docs/tournaments.md`` §2) as a bracket's moment: each round's
    matches with their players and, once decided, the winner (the lone first place); a bye is a
    match of one player.
    """
    def name(p: str) -> str:
        return names.get(p, p)

    drawn = []
    for rnd in rounds:
        matches = []
        for match, result in zip(rnd.matches, rnd.results, strict=True):
            players = tuple(name(p) for p in match.players) + (("",) if len(match.players) == 1 else ())
            winner = _winner(result)
            matches.append(BracketMatch(players, name(winner) if winner else None))
        drawn.append(tuple(matches))
    return Bracket(title, tuple(drawn))
