"""Standings: points, then the tie-breaks, in the order of ``docs/tournaments.md`` §6.

1. **Points** (§4 two-player, §5 pods).
2. **Opponents**: for two-player formats the opponents' match-win percentage (OMW%): the mean,
   over the player's finished matches, of each opponent's points ÷ (3 × rounds that opponent
   played), each floored at 1/3; byes are not opponents; with no opponent yet it is 1/3. For pods,
   Buchholz: the sum, over the player's finished tables, of the mean points of the others at
   that table.
3. **Game points**: the sum of the game's own scores (:attr:`Result.scores`) over the player's
   matches, counted so that more is better (:meth:`Result.game_points`: for a game won by the
   lowest score, how far below the table's highest score the player finished); a bye or a
   forfeit gives none.
4. **Head to head**: points scored against the players tied on all of the above (3 for each one
   beaten at a table, 1 for each tied with).

Players still equal after all four share a rank (listed by id). Unfinished matches do not count.

A worked example (the one of ``docs/tournaments.md`` §6): six players, three Swiss rounds of a
two-player game, the game's scores in brackets.

>>> from bot.tournaments.model import Match, Result, Round
>>> def rnd(*results):
...     return Round(tuple(Match(tuple(r.places)) for r in results), results)
>>> def won(winner, loser, w, l):
...     return Result.win(winner, loser, scores={winner: w, loser: l})
>>> rounds = [
...     rnd(won("eve", "ann", 15, 2), won("cid", "bob", 10, 5), won("dee", "fay", 10, 5)),
...     rnd(won("cid", "eve", 15, 2), won("bob", "dee", 15, 8), won("fay", "ann", 12, 8)),
...     rnd(won("cid", "dee", 12, 4), won("ann", "bob", 12, 2), won("eve", "fay", 20, 8)),
... ]
>>> for s in standings(["ann", "bob", "cid", "dee", "eve", "fay"], rounds):
...     print(s.rank, s.player, s.points, s.opponents, s.game_points, s.head_to_head)
1 cid 9 4/9 37 0
2 eve 6 5/9 37 0
3 bob 3 5/9 22 3
4 dee 3 5/9 22 0
5 fay 3 4/9 25 0
6 ann 3 4/9 22 0

Bob, Dee, Fay and Ann have 3 points each. Bob's and Dee's opponents won 5/9 of their matches
(each floored at 1/3: Bob met Cid 9/9, Dee 3/9, Ann 3/9 → (1 + 1/3 + 1/3) / 3), Fay's and Ann's
4/9, so Bob and Dee go first. Bob and Dee also have 22 game points each; Bob beat Dee in round 2,
so Bob is third on head to head. Fay's 25 game points put her above Ann's 22.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from bot.tournaments.model import WIN_POINTS, PlayerId, Result, Round, Standing

__all__ = ["standings", "match_win_percentage", "MWP_FLOOR"]

MWP_FLOOR = Fraction(1, 3)
"""The least match-win percentage an opponent counts for (the usual Swiss floor)."""


def match_win_percentage(points: Fraction, played: int) -> Fraction:
    """A player's match-win percentage: points ÷ (3 × rounds played), floored at 1/3.

    Parameters
    ----------
    points:
        Match points (§4).
    played:
        Rounds with a result, byes included (0 gives the floor).

    Examples
    --------
    >>> match_win_percentage(Fraction(3), 3), match_win_percentage(Fraction(9), 3)
    (Fraction(1, 3), Fraction(1, 1))
    """
    if played <= 0:
        return MWP_FLOOR
    return max(MWP_FLOOR, points / (WIN_POINTS * played))


def _finished(rounds: Iterable[Round]) -> list[Result]:
    return [r for rnd in rounds for r in rnd.results if r is not None]


def standings(players: Sequence[PlayerId], rounds: Sequence[Round], *, pods: bool = False) -> list[Standing]:
    """The standings of *players* after *rounds* (``docs/tournaments.md`` §6).

    Parameters
    ----------
    players:
        The players to rank, shape ``(n,)``: usually everyone who entered, dropped players too
        (their results still count for their opponents in any case).
    rounds:
        The rounds so far, oldest first; matches without a result are left out.
    pods:
        ``True`` for multiplayer (Swiss pods) standings: Buchholz instead of OMW%.

    Returns
    -------
    list[Standing]
        Shape ``(n,)``, best first; equal players share a rank and are listed by id.
    """
    results = _finished(rounds)
    points: dict[PlayerId, Fraction] = {}
    played: dict[PlayerId, int] = {}
    byes: dict[PlayerId, int] = {}
    games: dict[PlayerId, Fraction] = {}
    for r in results:
        for p in r.places:
            points[p] = points.get(p, Fraction(0)) + r.points(p)
            played[p] = played.get(p, 0) + 1
            byes[p] = byes.get(p, 0) + r.is_bye
            games[p] = games.get(p, Fraction(0)) + r.game_points(p)

    def pts(p: PlayerId) -> Fraction:
        return points.get(p, Fraction(0))

    def opp(p: PlayerId) -> Fraction:
        tables = [r for r in results if p in r.places and not r.is_bye]
        if pods:
            return sum((sum((pts(q) for q in r.places if q != p), Fraction(0)) / (len(r.places) - 1)
                        for r in tables), Fraction(0))
        mwps = [match_win_percentage(pts(q), played.get(q, 0)) for r in tables for q in r.places if q != p]
        return sum(mwps, Fraction(0)) / len(mwps) if mwps else MWP_FLOOR

    base = {p: (pts(p), opp(p), games.get(p, Fraction(0))) for p in players}
    groups: dict[tuple[Fraction, Fraction, Fraction], list[PlayerId]] = {}
    for p in players:
        groups.setdefault(base[p], []).append(p)
    h2h: dict[PlayerId, Fraction] = {}
    for group in groups.values():
        for p in group:
            h2h[p] = Fraction(0)
            if len(group) > 1:
                for r in results:
                    if p in r.places:
                        beat, tied = r.beaten_and_tied(p, among=group)
                        h2h[p] += WIN_POINTS * beat + tied
    order = sorted(players, key=lambda p: ([-x for x in base[p]], -h2h[p], p))
    rows: list[Standing] = []
    for i, p in enumerate(order):
        key = (*base[p], h2h[p])
        rank = rows[-1].rank if rows and rows[-1].key == key else i + 1
        rows.append(Standing(rank, p, *key, played.get(p, 0), byes.get(p, 0)))
    return rows
