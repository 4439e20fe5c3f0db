"""Deciding an unfinished match when the organizer forces the next round (``docs/tournaments.md`` §9).

When the organizer forces the next round, every match still being played is decided by the game's
current standing: :meth:`bot.engine.core.Engine.standing`, which each game defines in its rules
page (a game that has not started, or that defines none, places everyone level on 0):

- the players are placed by the standing's ranks, or, without ranks, by score (the higher the
  better, or the lower for a game where the lowest score wins); equal ranks share a place, so a
  two-player match with equal scores is a draw;
- the scores become the result's game points (a forfeiter's excepted), counted in the game's
  direction (:meth:`~bot.tournaments.model.Result.game_points`); the result is marked *forced*;
- a player who had forfeited (a no-show already ruled) stays a forfeiter.

>>> r = decide(Match(("ann", "bob")), {"ann": 12, "bob": 30})
>>> r.outcome("bob"), r.forced
(<Outcome.WIN: 'win'>, True)
>>> decide(Match(("ann", "bob")), {"ann": 12, "bob": 30}, lowest_wins=True).outcome("ann")
<Outcome.WIN: 'win'>
>>> decide(Match(("ann", "bob")), {}).outcome("ann")
<Outcome.DRAW: 'draw'>
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.tournaments.model import Match, PlayerId, Result

__all__ = ["decide"]


def decide(match: Match, scores: Mapping[PlayerId, float], *, lowest_wins: bool = False,
           forfeits: Iterable[PlayerId] = (), ranks: Mapping[PlayerId, int] | None = None) -> Result:
    """The forced result of an unfinished *match* (``docs/tournaments.md`` §9).

    Parameters
    ----------
    match:
        The unfinished match (a bye is decided already and comes back as :meth:`Result.bye`).
    scores:
        Each player's current score in the game (missing: 0), e.g. ``engine.standing().scores``.
    lowest_wins:
        ``True`` for a game won by the lowest score (:attr:`bot.engine.core.Engine.lowest_score_wins`):
        it orders the scores when *ranks* are not given, and the result's game points.
    forfeits:
        Players of the match already ruled to have forfeited.
    ranks:
        The game's own current ranks (1 = best, ties share; e.g. ``engine.standing().ranks``):
        when given they place the players instead of the scores (missing: last).

    Returns
    -------
    Result
        Places among the players who did not forfeit (ties share a place), forfeiters last, the
        scores as game points, ``forced=True``.

    Raises
    ------
    ValueError
        A score, rank or forfeit of a player not in the match.

    Examples
    --------
    >>> r = decide(Match(("a", "b", "c")), {"a": 5, "b": 9, "c": 5}, lowest_wins=True)
    >>> dict(r.places)
    {'a': 1, 'b': 3, 'c': 1}
    >>> dict(decide(Match(("a", "b", "c")), {"a": 0, "b": 0, "c": 2}, ranks={"a": 3, "b": 2, "c": 1}).places)
    {'a': 3, 'b': 2, 'c': 1}
    """
    if match.is_bye:
        return Result.bye(match.players[0])
    unknown = (set(scores) | set(forfeits) | set(ranks or {})) - set(match.players)
    if unknown:
        raise ValueError(f"not players of this match: {sorted(unknown)}")
    gone = frozenset(forfeits)
    if ranks is not None:
        value = {p: -float(ranks.get(p, len(match.players) + 1)) for p in match.players}
    else:
        sign = -1 if lowest_wins else 1
        value = {p: sign * float(scores.get(p, 0)) for p in match.players}
    places = {p: 1 + sum(1 for q in match.players if q not in gone and value[q] > value[p]) for p in match.players
              if p not in gone}
    places |= {p: len(match.players) for p in gone}
    return Result.ranked(places, scores={p: float(scores.get(p, 0)) for p in match.players if p not in gone},
                         forfeits=gone, forced=True, lowest_wins=lowest_wins)
