"""Swiss pods for multiplayer games: table sizes, seating and points by place (``docs/tournaments.md`` §5).

- **Sizes** (:func:`table_sizes`): as few tables as the chosen size allows, balanced (their sizes
  differ by at most one), never below the game's minimum; players who cannot be seated that way
  get a bye, as few as possible.
- **Byes** go to the lowest-ranked players who have had the fewest byes.
- **Seating** (:func:`seat`): the players in standings order fill the tables from the top (the
  largest tables first), then a local search swaps players between tables to lower, first, the
  number of pairs who have already met at a table and, second, the spread of points at each
  table (the sum of squared differences). Several starts (the standings order, then orders
  shuffled by the seeded generator) are tried; the best wins.
- **Seats** within a table: the order in which the players have sat least often in those seats
  (the seeded generator chooses among equals).
- **Points by place** (:func:`place_points`): each table counts as a two-player match against
  every other player at it (3 for a player beaten, 1 for a tie), averaged over the opponents.

>>> [str(p) for p in place_points(4)]
['3', '2', '1', '0']
>>> table_sizes(10, 4)
([4, 3, 3], 0)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from random import Random

from bot.tournaments.model import Match, PlayerId, Result, Round, bye_counts, met_counts, seat_counts
from bot.tournaments.standings import standings

__all__ = ["POD_SIZES", "table_sizes", "place_points", "seat", "seat_order", "check_pod_size"]

POD_SIZES = (3, 4, 5)
"""The table sizes an organizer may choose for a Swiss-pods event."""

_STARTS = 6
"""Starting orders the local search tries (the standings order and five shuffles)."""


def check_pod_size(size: int, minimum: int) -> None:
    """Refuse a table *size* outside :data:`POD_SIZES` or a game *minimum* outside 2..*size*.

    Raises
    ------
    ValueError
        With the reason.
    """
    if size not in POD_SIZES:
        raise ValueError(f"a table seats 3 to 5 players, not {size}")
    if not 2 <= minimum <= size:
        raise ValueError(f"the game's minimum ({minimum}) must be from 2 to the table size ({size})")


def table_sizes(n: int, size: int, minimum: int | None = None) -> tuple[list[int], int]:
    """Balanced table sizes for *n* players at tables of at most *size* (``docs/tournaments.md`` §5).

    Parameters
    ----------
    n:
        Players to seat.
    size:
        The chosen table size, one of :data:`POD_SIZES`.
    minimum:
        The game's least number of players at a table (default 3); no table is smaller.

    Returns
    -------
    tuple[list[int], int]
        The table sizes, largest first, as few tables as possible, sizes differing by at most
        one; and the number of byes (players left unseated), as small as possible.

    Raises
    ------
    ValueError
        A size outside :data:`POD_SIZES`, a bad minimum, or fewer than *minimum* players.

    Examples
    --------
    >>> table_sizes(10, 4), table_sizes(12, 5), table_sizes(5, 4, 4)
    (([4, 3, 3], 0), ([4, 4, 4], 0), ([4], 1))
    """
    minimum = 3 if minimum is None else minimum
    check_pod_size(size, minimum)
    if n < minimum:
        raise ValueError(f"{n} players cannot fill a table of at least {minimum}")
    for k in range(n, minimum - 1, -1):
        tables = math.ceil(k / size)
        small, big = divmod(k, tables)
        if small >= minimum:
            return [small + 1] * big + [small] * (tables - big), n - k
    raise AssertionError("unreachable: k == minimum always fits")  # pragma: no cover


def place_points(players: int) -> list[Fraction]:
    """Points by place at a table of *players* with no ties (``docs/tournaments.md`` §5).

    >>> [[str(p) for p in place_points(n)] for n in (3, 5)]
    [['3', '3/2', '0'], ['3', '9/4', '3/2', '3/4', '0']]
    """
    ids = [str(i) for i in range(players)]
    result = Result.ranked({p: i + 1 for i, p in enumerate(ids)})
    return [result.points(p) for p in ids]


def _improve(tables: list[list[PlayerId]], score: dict[PlayerId, int],
             met: dict[frozenset[PlayerId], int], repeat: int) -> int:
    """Swap players between tables while that lowers the cost (steepest descent); the final cost.

    The cost of a pair at one table is ``repeat`` per earlier meeting plus their squared score
    difference; a seating's cost is the sum over the pairs at each table.
    """
    people = [p for t in tables for p in t]
    index = {p: i for i, p in enumerate(people)}
    w = [[repeat * met.get(frozenset((a, b)), 0) + (score[a] - score[b]) ** 2 for b in people] for a in people]
    seats = [[index[p] for p in t] for t in tables]
    # to_table[p][t]: the cost of p's pairs with everyone at table t (p's own 0 included if it sits there).
    to_table = [[sum(w[p][c] for c in t) for t in seats] for p in range(len(people))]
    while True:
        best = (0, -1, -1, -1, -1)
        for i, j in itertools.combinations(range(len(seats)), 2):
            for x, a in enumerate(seats[i]):
                for y, b in enumerate(seats[j]):
                    delta = (to_table[b][i] - w[b][a] - to_table[a][i]
                             + to_table[a][j] - w[a][b] - to_table[b][j])
                    if delta < best[0]:
                        best = (delta, i, x, j, y)
        delta, i, x, j, y = best
        if delta >= 0:
            break
        a, b = seats[i][x], seats[j][y]
        seats[i][x], seats[j][y] = b, a
        for p in range(len(people)):
            to_table[p][i] += w[p][b] - w[p][a]
            to_table[p][j] += w[p][a] - w[p][b]
    tables[:] = [[people[p] for p in t] for t in seats]
    return sum(w[a][b] for t in seats for a, b in itertools.combinations(t, 2))


def seat_order(players: Sequence[PlayerId], rounds: Sequence[Round], rng: Random) -> list[PlayerId]:
    """The seat order of one table: the players sit where they have sat least often.

    Minimizes the sum, over seats, of how often the player put there sat in that seat before;
    the seeded generator chooses among the equally good orders.

    Parameters
    ----------
    players:
        The table's players, shape ``(k,)``, ``k <= 5``.
    rounds:
        The rounds so far.
    rng:
        The tournament's seeded generator.

    Returns
    -------
    list[str]
        The players in seat order, shape ``(k,)``.
    """
    counts = seat_counts(rounds)
    orders = list(itertools.permutations(sorted(players)))
    rng.shuffle(orders)
    best = min(orders, key=lambda o: sum(counts.get((p, s), 0) for s, p in enumerate(o)))
    return list(best)


def seat(players: Sequence[PlayerId], rounds: Sequence[Round], rng: Random, *, size: int,
         minimum: int | None = None) -> list[Match]:
    """The next Swiss-pods round of a multiplayer game (``docs/tournaments.md`` §5).

    Parameters
    ----------
    players:
        The active players (dropped ones left out), shape ``(n,)``, any order.
    rounds:
        The rounds so far, oldest first; their results give the standings, who met whom, the
        seats taken and the byes.
    rng:
        The tournament's seeded generator (the same seed and history give the same tables).
    size:
        The chosen table size, one of :data:`POD_SIZES`.
    minimum:
        The game's least number of players at a table (default 3).

    Returns
    -------
    list[Match]
        The tables (sizes from :func:`table_sizes`), the top of the standings first, each in
        seat order; then the byes as one-player matches. Every player is in exactly one.

    Raises
    ------
    ValueError
        A player listed twice, a bad size or minimum, or too few players.

    Examples
    --------
    >>> tables = seat([f"p{i}" for i in range(10)], [], Random(7), size=4)
    >>> [len(t.players) for t in tables]
    [4, 3, 3]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    sizes, byes = table_sizes(len(players), size, minimum)
    players = sorted(players)
    rows = {s.player: s for s in standings(players, rounds, pods=True)}
    draw = {p: rng.random() for p in players}
    order = sorted(players, key=lambda p: (rows[p].rank, draw[p]))
    had = bye_counts(rounds)
    resting = sorted(players, key=lambda p: (had.get(p, 0), -rows[p].rank, draw[p]))[:byes]
    seated = [p for p in order if p not in resting]
    den = math.lcm(*(rows[p].points.denominator for p in players))
    score = {p: int(rows[p].points * den) for p in players}
    met = met_counts(rounds)
    spread = max(score.values()) - min(score.values())
    pairs = sum(k * (k - 1) // 2 for k in sizes)
    repeat = spread * spread * pairs + 1
    best: tuple[int, list[list[PlayerId]]] | None = None
    for start in range(_STARTS):
        line = list(seated)
        if start:
            line.sort(key=lambda p: (rows[p].points if start % 2 else 0, rng.random()), reverse=bool(start % 2))
        tables: list[list[PlayerId]] = []
        for k in sizes:
            tables.append(line[:k])
            line = line[k:]
        cost = _improve(tables, score, met, repeat)
        if best is None or cost < best[0]:
            best = (cost, tables)
    assert best is not None
    place = {p: i for i, p in enumerate(order)}
    chosen = sorted(best[1], key=lambda t: min(place[p] for p in t))
    out = [Match(tuple(seat_order(t, rounds, rng))) for t in chosen]
    out += [Match((p,)) for p in sorted(resting, key=lambda p: place[p])]
    return out
