"""Single elimination: seeding, byes, bracket order, advancing (``docs/tournaments.md`` §7).

**Two-player games.** The players are seeded (:func:`seeding`: by rating where there is one,
the rest in a random order from the seeded generator), the bracket is the next power of two, and
the missing players are byes given to the top seeds. Seeds meet in the standard order (1 v 16,
8 v 9, 5 v 12, 4 v 13, 3 v 14, 6 v 11, 7 v 10, 2 v 15 for 16, :func:`bracket_order`), so seeds 1
and 2 can only meet in the final, seeds 1 to 4 only in the semi-finals, and so on.
The winner of each match advances; a draw advances the better seed; a forfeiter never advances
(if both forfeit, the next round's opponent has a bye).

**Multiplayer games.** Each round seats the field at balanced tables (§5 sizes), the seeds spread
across the tables in snake order (1, 2, 3, 3, 2, 1, …); players who cannot be seated are byes for
the top seeds; the top *k* of each table advance (ties at the cut go to the better seed); when the
field fits one table, that table is the final. If *k* per table would leave fewer players than
the game's minimum, more advance that round (:func:`advancing_per_table`).

>>> bracket_order(8)
[1, 8, 5, 4, 3, 6, 7, 2]
>>> [m.players for m in first_round(["s1", "s2", "s3", "s4", "s5", "s6"])]
[('s1',), ('s4', 's5'), ('s3', 's6'), ('s2',)]
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from bot.tournaments.model import Match, PlayerId, Result
from bot.tournaments.pods import table_sizes

__all__ = ["seeding", "bracket_size", "bracket_order", "first_round", "advancers", "next_round",
           "advancing_per_table", "pod_round", "next_field", "pod_plan", "rounds_needed"]


def seeding(players: Sequence[PlayerId], rng: Random, *, rated: Sequence[PlayerId] = ()) -> list[PlayerId]:
    """The seed order: the rated players by rating, then the others shuffled (``docs/tournaments.md`` §7).

    Parameters
    ----------
    players:
        Everyone in the event, shape ``(n,)``, in registration order.
    rng:
        The tournament's seeded generator (shuffles the unrated).
    rated:
        The players with a rating, best first (``RatingService.seed_order`` gives this order);
        ids not in *players* are ignored.

    Returns
    -------
    list[str]
        Shape ``(n,)``, seed 1 first.

    Examples
    --------
    >>> seeding(["a", "b", "c", "d"], Random(3), rated=["c", "a"])[:2]
    ['c', 'a']
    """
    entered = set(players)
    top = [p for p in dict.fromkeys(rated) if p in entered]
    rest = [p for p in players if p not in set(top)]
    rng.shuffle(rest)
    return top + rest


def bracket_size(n: int) -> int:
    """The bracket's size for *n* players: the least power of two ``>= n`` (at least 2).

    Raises
    ------
    ValueError
        Fewer than two players.
    """
    if n < 2:
        raise ValueError("an elimination bracket needs at least two players")
    return 1 << (n - 1).bit_length()


def rounds_needed(n: int) -> int:
    """Rounds of a two-player bracket of *n* players (``log2`` of :func:`bracket_size`)."""
    return bracket_size(n).bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket positions for a bracket of *size* (a power of two).

    Consecutive positions meet in round 1; seeds ``s`` and ``size + 1 - s`` meet there, and each
    half of the bracket holds one of the top two seeds, each quarter one of the top four, …. Built
    by doubling: each seed ``s`` of the bracket of half the size becomes the pair
    ``(s, size + 1 - s)``, every second pair turned round.

    Raises
    ------
    ValueError
        *size* not a power of two of at least 2.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        pairs = [(seed, total - seed) if i % 2 == 0 else (total - seed, seed) for i, seed in enumerate(order)]
        order = [s for pair in pairs for s in pair]
    return order


def first_round(seeds: Sequence[PlayerId]) -> list[Match]:
    """Round 1 of a two-player bracket from the seed order (``docs/tournaments.md`` §7).

    Parameters
    ----------
    seeds:
        The players, seed 1 first, shape ``(n,)``, ``n >= 2``.

    Returns
    -------
    list[Match]
        Shape ``(bracket_size(n) // 2,)``, in bracket order: two-player matches (better seed
        first) and, for the top ``bracket_size(n) - n`` seeds, byes (one-player matches).

    Raises
    ------
    ValueError
        Fewer than two players or a player listed twice.
    """
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player is listed twice")
    order = bracket_order(bracket_size(len(seeds)))
    out = []
    for i in range(0, len(order), 2):
        pair = sorted(s for s in order[i:i + 2] if s <= len(seeds))
        out.append(Match(tuple(seeds[s - 1] for s in pair)))
    return out


def advancers(match: Match, result: Result, k: int = 1) -> tuple[PlayerId, ...]:
    """Who advances from *match*: the top *k* by place, ties to the earlier seat (the better seed).

    A forfeiter never advances, so fewer than *k* (even none) may.

    Examples
    --------
    >>> advancers(Match(("a", "b")), Result.draw("a", "b"))
    ('a',)
    >>> advancers(Match(("a", "b", "c", "d")), Result.ranked({"a": 3, "b": 1, "c": 2, "d": 2}), 2)
    ('b', 'c')
    """
    if set(result.places) != set(match.players):
        raise ValueError("the result is not this match's")
    seat = {p: i for i, p in enumerate(match.players)}
    ranked = sorted((p for p in match.players if p not in result.forfeits),
                    key=lambda p: (result.places[p], seat[p]))
    return tuple(ranked[:k])


def next_round(matches: Sequence[Match | None], results: Sequence[Result | None],
               seeds: Sequence[PlayerId]) -> list[Match | None]:
    """The next round of a two-player bracket (``docs/tournaments.md`` §7).

    Parameters
    ----------
    matches:
        This round, in bracket order, shape ``(m,)`` with ``m`` even; ``None`` for an empty slot
        (nobody left in that part of the bracket).
    results:
        Shape ``(m,)``: every non-empty match's result (a bye's is :meth:`Result.bye`).
    seeds:
        The seed order (for the seats: better seed first).

    Returns
    -------
    list[Match | None]
        Shape ``(m // 2,)``: the winners of matches ``2j`` and ``2j + 1`` meet in match ``j``; one
        winner gets a bye; none leaves the slot empty (``None``).

    Raises
    ------
    ValueError
        An odd number of matches, or a missing result.
    """
    if len(matches) % 2 or len(matches) != len(results):
        raise ValueError("a round of a bracket has an even number of matches, each with its result")
    rank = {p: i for i, p in enumerate(seeds)}
    winners: list[tuple[PlayerId, ...]] = []
    for m, r in zip(matches, results, strict=True):
        if m is None:
            winners.append(())
            continue
        if r is None:
            raise ValueError(f"the match of {m.players} has no result yet")
        winners.append(advancers(m, r))
    out: list[Match | None] = []
    for j in range(0, len(winners), 2):
        both = sorted(winners[j] + winners[j + 1], key=lambda p: rank.get(p, len(rank)))
        out.append(Match(tuple(both)) if both else None)
    return out


def advancing_per_table(field: int, size: int, minimum: int, advance: int) -> int:
    """How many advance from each table this round: *advance*, or more if the next field would be
    smaller than *minimum* (``docs/tournaments.md`` §7); never a whole table, so the field shrinks
    (a game of two may seat a table of two: one of it advances).

    Raises
    ------
    ValueError
        *advance* outside ``1 .. max(minimum, 3) - 1`` (the bound ``TournamentService.create``
        checks: one less than the smallest table a multiplayer round aims for).
    """
    if not 1 <= advance < max(minimum, 3):
        raise ValueError(f"the top 1 to {max(minimum, 3) - 1} of each table may advance, not {advance}")
    sizes, byes = table_sizes(field, size, minimum)
    k = min(advance, min(sizes) - 1)
    while k * len(sizes) + byes < minimum and k + 1 < min(sizes):
        k += 1
    return k


def _snake(field: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    order: list[int] = []
    while len(order) < len(field):
        order += [t for t in forward if sum(1 for o in order if o == t) < sizes[t]]
        forward.reverse()
    for p, t in zip(field, order, strict=False):
        tables[t].append(p)
    return tables


def pod_round(field: Sequence[PlayerId], *, size: int, minimum: int = 3) -> list[Match]:
    """One round of a multiplayer bracket (``docs/tournaments.md`` §7).

    Parameters
    ----------
    field:
        The players still in, best seed first, shape ``(n,)``.
    size, minimum:
        The chosen table size (§5) and the game's least number of players at a table.

    Returns
    -------
    list[Match]
        The final (one table) when ``n <= size``; otherwise balanced tables (§5 sizes), seeds
        spread across them in snake order and seated best seed first, then the byes of the top
        seeds (one-player matches).

    Raises
    ------
    ValueError
        Fewer than *minimum* players, a player listed twice, or a bad size.
    """
    if len(set(field)) != len(field):
        raise ValueError("a player is listed twice")
    sizes, byes = table_sizes(len(field), size, minimum)
    if len(field) <= size:
        return [Match(tuple(field))]
    tables = _snake(field[byes:], sizes)
    return [Match(tuple(t)) for t in tables] + [Match((p,)) for p in field[:byes]]


def next_field(field: Sequence[PlayerId], matches: Sequence[Match], results: Sequence[Result], k: int,
               ) -> list[PlayerId]:
    """Who is still in after a multiplayer round, in seed order for the next round.

    Parameters
    ----------
    field:
        This round's field, best seed first.
    matches, results:
        This round's tables (from :func:`pod_round`) and their results, parallel.
    k:
        How many advance from each table (:func:`advancing_per_table`).

    Returns
    -------
    list[str]
        The byes and table winners first, then the second places, …; within each, by seed.
    """
    seed = {p: i for i, p in enumerate(field)}
    tier: dict[PlayerId, int] = {}
    for m, r in zip(matches, results, strict=True):
        for i, p in enumerate(advancers(m, r, 1 if m.is_bye else k)):
            tier[p] = i
    return sorted(tier, key=lambda p: (tier[p], seed.get(p, len(seed))))


def pod_plan(n: int, *, size: int, minimum: int = 3, advance: int = 1) -> list[int]:
    """The field size of each round of a multiplayer bracket of *n*, the final's last.

    Assumes nobody forfeits. Strictly decreasing; the last is at most *size* and at least
    *minimum*.

    >>> pod_plan(16, size=4, advance=1), pod_plan(16, size=4, advance=2)
    ([16, 4], [16, 8, 4])
    """
    plan = [n]
    while plan[-1] > size:
        sizes, byes = table_sizes(plan[-1], size, minimum)
        plan.append(advancing_per_table(plan[-1], size, minimum, advance) * len(sizes) + byes)
    return plan
