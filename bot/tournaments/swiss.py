"""Swiss pairing for two-player games, by maximum weight matching (``docs/tournaments.md`` §3).

The players are the nodes of a complete graph (plus one *bye* node when their count is odd, joined
to those who may take the bye); :func:`networkx.max_weight_matching` picks a perfect matching of
the largest total weight. Each edge's weight is a number with four "digits", each worth more
than any total of the digits below it, so the matching settles, in this order:

1. **Byes**: only a player who has had no bye may take one (everyone may, once all have had one).
2. **Rematches**: as few as possible (zero whenever a pairing without one exists).
3. **The bye goes to the lowest-ranked** eligible player (standings of §6).
4. **Scores**: the sum of squared score differences of the pairs is as small as possible, so
   players meet players on their score, and a player who must float meets the nearest score.
5. **The seed**: a random amount below all of the above, from the tournament's seeded generator,
   chooses among the equally good pairings (round 1 is a random pairing).

Within a pair, the player who has sat first less often sits first (the seed breaks ties).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from random import Random

from bot.tournaments.model import Match, PlayerId, Round, bye_counts, met_counts, seat_counts
from bot.tournaments.standings import standings

__all__ = ["pair", "pairing_weights", "BYE"]

BYE = "\x00bye"
"""The graph node standing for the bye (not a valid player id)."""


def _scaled(scores: Mapping[PlayerId, Fraction]) -> dict[PlayerId, int]:
    """The scores as whole numbers (multiplied by the common denominator), order kept."""
    den = math.lcm(*(s.denominator for s in scores.values())) if scores else 1
    return {p: int(s * den) for p, s in scores.items()}


def pairing_weights(players: Sequence[PlayerId], rounds: Sequence[Round], rng: Random,
                    ) -> dict[tuple[PlayerId, PlayerId], int]:
    """The edge weights the matching maximizes (``docs/tournaments.md`` §3).

    Parameters
    ----------
    players:
        The active players, shape ``(n,)``, ``n >= 2``.
    rounds:
        The rounds so far, oldest first (unfinished matches count as met).
    rng:
        The tournament's seeded generator; draws one number per edge, in a fixed order.

    Returns
    -------
    dict[tuple[str, str], int]
        ``(a, b) -> weight`` for every allowed edge; ``b`` is :data:`BYE` for a bye edge. Weights
        are positive integers (the matching is then exact).
    """
    n = len(players)
    table = {s.player: s for s in standings(players, rounds)}
    score = _scaled({p: table[p].points for p in players})
    met = met_counts(rounds)
    had_bye = bye_counts(rounds)
    fewest_byes = min(had_bye.get(p, 0) for p in players)
    pairs = n // 2 + 1
    jitter = 1_000
    u_score = jitter * pairs
    spread = max(score.values()) - min(score.values())
    max_sq = spread * spread
    u_bye = u_score * (max_sq + 1) * pairs
    u_rematch = u_bye * (n + 2)
    u_eligible = u_rematch * (pairs + 1)
    weights: dict[tuple[PlayerId, PlayerId], int] = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            fresh = met.get(frozenset((a, b)), 0) == 0
            closeness = max_sq - (score[a] - score[b]) ** 2
            weights[(a, b)] = u_eligible + u_rematch * fresh + u_score * closeness + rng.randrange(jitter)
    if n % 2:
        for a in players:
            if had_bye.get(a, 0) == fewest_byes:
                # Lower in the standings (a larger rank) -> a larger weight for taking the bye.
                weights[(a, BYE)] = (u_eligible + u_rematch + u_bye * table[a].rank + u_score * max_sq
                                     + rng.randrange(jitter))
    return weights


def pair(players: Sequence[PlayerId], rounds: Sequence[Round], rng: Random) -> list[Match]:
    """The next Swiss round of a two-player game (``docs/tournaments.md`` §3).

    Parameters
    ----------
    players:
        The active players (dropped ones left out), shape ``(n,)``, ``n >= 2``, any order.
    rounds:
        The rounds so far, oldest first; their results give the scores and ranks.
    rng:
        The tournament's seeded generator (the same seed and history give the same pairing).

    Returns
    -------
    list[Match]
        ``n // 2`` two-player matches, best-ranked pair first, then the bye (a one-player match)
        when ``n`` is odd. Every player is in exactly one of them.

    Raises
    ------
    ValueError
        Fewer than two players, or a player listed twice.

    Examples
    --------
    >>> from bot.tournaments.model import Result
    >>> r1 = pair(["a", "b", "c", "d", "e"], [], Random(1))
    >>> sorted(p for m in r1 for p in m.players), r1[-1].is_bye
    (['a', 'b', 'c', 'd', 'e'], True)
    """
    if len(players) < 2:
        raise ValueError("Swiss pairing needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    # networkx is imported on the first pairing, not with the bot: it takes 13 MB that a bot
    # without a Swiss tournament never needs (docs/tables.md, "The table service inside").
    import networkx as nx  # type: ignore[import-untyped]  # networkx ships no type information

    players = sorted(players)  # the order given must not change the pairing
    graph = nx.Graph()
    for (a, b), w in pairing_weights(players, rounds, rng).items():
        graph.add_edge(a, b, weight=w)
    matching: set[tuple[PlayerId, PlayerId]] = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {s.player: s.rank for s in standings(players, rounds)}
    firsts = {p: c for (p, seat), c in seat_counts(rounds).items() if seat == 0}
    games: list[tuple[int, PlayerId, Match]] = []
    bye: Match | None = None
    for a, b in sorted(tuple(sorted(e)) for e in matching):
        if BYE in (a, b):
            bye = Match((b if a == BYE else a,))
            continue
        flip = rng.random() < 0.5  # drawn for every pair, so later draws do not depend on seat counts
        if firsts.get(a, 0) != firsts.get(b, 0):
            order = sorted((a, b), key=lambda p: firsts.get(p, 0))
        else:
            order = [b, a] if flip else [a, b]
        games.append((min(rank[a], rank[b]), min(a, b), Match(tuple(order))))
    out = [m for _, _, m in sorted(games)]
    if bye is not None:
        out.append(bye)
    seated = sorted(p for m in out for p in m.players)
    if seated != players:  # pragma: no cover - a complete graph always has a perfect matching
        raise AssertionError("the matching left a player out")
    return out
