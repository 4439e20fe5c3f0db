"""Round robin by the circle method (``docs/tournaments.md`` §8).

The first player stays put and the others rotate one place each round; with an odd count a
*bye* fills the circle, and whoever meets it sits the round out. Everyone meets everyone once in
``n - 1`` rounds (``n`` when odd). Seats are balanced: each player sits first in half of their
games, give or take one.

>>> [[m.players for m in rnd] for rnd in schedule(["a", "b", "c"])]
[[('b', 'c'), ('a',)], [('c', 'a'), ('b',)], [('a', 'b'), ('c',)]]
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Match, PlayerId

__all__ = ["schedule"]


def schedule(players: Sequence[PlayerId]) -> list[list[Match]]:
    """Every round of a round robin (``docs/tournaments.md`` §8).

    Parameters
    ----------
    players:
        The players, shape ``(n,)``, ``n >= 2``, in seed order (shuffle them with the seeded
        generator first for a random schedule).

    Returns
    -------
    list[list[Match]]
        ``n - 1`` rounds for an even ``n``, ``n`` for an odd one; each round has ``n // 2``
        two-player matches, then (odd ``n``) one bye. Every pair meets exactly once; every player
        has exactly one bye when ``n`` is odd.

    Raises
    ------
    ValueError
        Fewer than two players or a player listed twice.
    """
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    circle: list[PlayerId | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[list[Match]] = []
    for r in range(n - 1):
        games: list[Match] = []
        byes: list[Match] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None and b is not None:
                byes.append(Match((b,)))
            elif b is None and a is not None:
                byes.append(Match((a,)))
            elif a is not None and b is not None:
                first = r % 2 == 0 if i == 0 else i % 2 == 1  # the fixed player alternates by round
                games.append(Match((a, b) if first else (b, a)))
        rounds.append(games + byes)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
