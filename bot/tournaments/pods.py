"""Swiss pods for multiplayer games: table sizes, seating and points by place (``docs/tournaments.md`` §5).

- **Sizes** (:func:`table_sizes`): as few tables as the chosen size allows, balanced (their sizes
  differ by at most one), never below the game's minimum; players who cannot be seated that way
  get a bye, as few as possible.
- **Byes** go to the lowest-ranked players who have had the fewest byes.
- **Seating** (:func:`seat`): the players in standings order fill the tables from the top (the
  largest tables first), then a local search swaps players between tables to lower, first, the
  number of pairs who have already met at a table and, second, the spread of points at each
  table (the sum of squared differences). Several starts (the standings order, then orders
  shuffled by the seeded generator) are tried, more while the best still repeats a pair; the
  best wins. Swaps alone can stop short of the fewest repeated pairs, so if that seating repeats
  some, an exact branch and bound (:func:`_fewest_repeats`) looks for a split with fewer, which
  the swaps then even out by points. It is exhaustive within :data:`_STEPS` steps (a dozen
  players or fewer, in practice), else it keeps the fewest found.
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

_STARTS_IF_REPEATS = 30
"""Starting orders it tries in all while the best seating found still repeats a pair (up to
:data:`_MANY` players)."""

_STEPS = 20_000
"""Steps of the exact search for fewer repeated pairs (:func:`_fewest_repeats`) before it settles,
up to :data:`_MANY` players; beyond, fewer by the square of the players (a step takes that much longer)."""

_MANY = 48
"""Players beyond which the extra starts are skipped and the exact search shortened (time)."""


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


def _pig(players: int, tables: int) -> int:
    """The fewest pairs sitting together when *players* share *tables* tables (spread evenly)."""
    q, r = divmod(players, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def _fewest_repeats(people: Sequence[PlayerId], sizes: Sequence[int], rounds: Sequence[Round], bound: int,
                    budget: int) -> list[list[PlayerId]] | None:
    """A split of *people* into tables of *sizes* with fewer than *bound* repeated pairs, the fewest.

    Branch and bound: the tables are filled one after another, each from the most constrained
    player left (so no split is reached twice), pruned by two lower bounds on the repeats still to
    come: the players of each earlier table still to seat spread over the tables left, at best
    evenly; and each player still to seat needs as many tablemates as the smallest table left,
    and those beyond the ones it never met are repeats. The search stops after *budget* steps
    (the best split found so far is kept), so it is exact whenever it ends sooner.

    Returns
    -------
    list[list[str]] | None
        The split, or ``None`` if none under *bound* was found.
    """
    n = len(people)
    index = {p: i for i, p in enumerate(people)}
    cliques = [[index[p] for p in m.players if p in index] for rnd in rounds for m in rnd.matches]
    cliques = [c for c in cliques if len(c) > 1]
    w = [[0] * n for _ in range(n)]
    member: list[list[int]] = [[] for _ in range(n)]
    for i, c in enumerate(cliques):
        for a in c:
            member[a].append(i)
            for b in c:
                if a != b:
                    w[a][b] += 1
    left = {k: sizes.count(k) for k in set(sizes)}  # tables still to open, by size
    rest = [len(c) for c in cliques]  # players of each earlier table not seated yet
    placed = [False] * n
    strangers = [[b for b in range(n) if b != a and not w[a][b]] for a in range(n)]
    met = [[(b, w[a][b]) for b in range(n) if w[a][b]] for a in range(n)]
    free = [len(s) for s in strangers]  # per player: the unseated players it never met
    tables: list[list[int]] = []
    # per open table, per player: repeats with the table's players, and how many of them it met
    joins: list[tuple[list[int], list[int]]] = []
    found: list[list[int]] | None = None
    steps = 0

    def place(a: int, by: int) -> None:
        """Seat *a* at the open table (*by* = -1) or take it back (*by* = 1)."""
        placed[a] = by < 0
        for b in strangers[a]:
            if not placed[b]:
                free[b] += by
        for i in member[a]:
            rest[i] += by
        join, known = joins[-1]
        for b, x in met[a]:
            join[b] -= by * x
            known[b] -= by

    most = max(rest, default=0)
    pig = [[_pig(r, t) if t else 0 for r in range(most + 1)] for t in range(len(sizes) + 1)]  # pig[t][r]

    def hopeless(cost: int, smallest: int, open_tables: int, table: list[int]) -> bool:
        """Whether *cost* plus a lower bound on the repeats still to come reaches the bound."""
        if cost + sum(map(pig[open_tables].__getitem__, rest)) >= bound:
            return True
        short = 0
        for a in range(n):
            if not placed[a] and free[a] < smallest - 1:
                short += max(0, smallest - 1 - free[a] - (len(table) - joins[-1][1][a] if table else 0))
        return cost + (short + 1) // 2 >= bound

    def open_table(cost: int) -> bool:
        nonlocal found, bound
        todo = [a for a in range(n) if not placed[a]]
        if not todo:
            found, bound = [list(t) for t in tables], cost
            return True
        if hopeless(cost, min(k for k, c in left.items() if c), sum(left.values()), []):
            return True
        first = min(todo, key=lambda a: (free[a], a))
        others = sorted((b for b in todo if b != first), key=lambda b: (w[first][b], free[b], b))
        for k in sorted((k for k, c in left.items() if c), reverse=True):
            left[k] -= 1
            tables.append([first])
            joins.append(([0] * n, [0] * n))
            place(first, -1)
            going = grow(others, 0, k, cost)
            place(first, 1)
            joins.pop()
            tables.pop()
            left[k] += 1
            if not going:
                return False
        return True

    def grow(others: list[int], start: int, k: int, cost: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        table = tables[-1]
        if len(table) == k:
            return open_table(cost)
        smallest = min([k] + [q for q, c in left.items() if c])
        open_tables = sum(left.values()) + 1
        for i in range(start, len(others) - (k - len(table)) + 1):
            b = others[i]
            after = cost + joins[-1][0][b]
            if after >= bound:
                continue
            table.append(b)
            place(b, -1)
            going = True
            if len(table) == k or not hopeless(after, smallest, open_tables, table):
                going = grow(others, i + 1, k, after)
            place(b, 1)
            table.pop()
            if not going:
                return False
        return True

    open_table(0)
    return None if found is None else [[people[a] for a in t] for t in found]


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
    for start in range(_STARTS_IF_REPEATS if len(seated) <= _MANY else _STARTS):
        if start >= _STARTS and best is not None and best[0] < repeat:
            break  # no repeated pair: the usual starts are enough
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
    if best[0] >= repeat:  # repeated pairs left: look for a split with fewer, then even out its points
        steps = _STEPS * _MANY**2 // max(_MANY, len(seated)) ** 2  # a step's time grows as the players squared
        fewer = _fewest_repeats(seated, sizes, rounds, best[0] // repeat, steps)
        if fewer is not None:
            cost = _improve(fewer, score, met, repeat)
            if cost < best[0]:
                best = (cost, fewer)
    place = {p: i for i, p in enumerate(order)}
    chosen = sorted(best[1], key=lambda t: min(place[p] for p in t))
    out = [Match(tuple(seat_order(t, rounds, rng))) for t in chosen]
    out += [Match((p,)) for p in sorted(resting, key=lambda p: place[p])]
    return out
