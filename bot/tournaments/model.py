"""The data of a tournament: players, matches, results, rounds (``docs/tournaments.md`` §2).

Everything here is plain, immutable data. A player is an opaque string id (the service uses
``u<user id>``). A :class:`Match` is one table of a round, its players in seat order; a match of
one player is a bye. A :class:`Result` says how a match ended as finishing places (1 = best, tied
players share a place), which covers both a two-player match (win, loss, draw) and a multiplayer
table; forfeits and byes are results too. A :class:`Round` holds its matches and, as they finish,
their results.

>>> m = Match(("ann", "bob"))
>>> r = Result.win("bob", "ann", scores={"bob": 12, "ann": 7})
>>> r.outcome("ann"), r.outcome("bob"), r.points("bob")
(<Outcome.LOSS: 'loss'>, <Outcome.WIN: 'win'>, Fraction(3, 1))
>>> Round.of([m, Match(("cat",))]).results
(None, Result(places={'cat': 1}, forfeits=frozenset(), scores={}, forced=False, lowest_wins=False))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

__all__ = ["PlayerId", "Outcome", "Match", "Result", "Round", "Standing", "WIN_POINTS", "DRAW_POINTS",
           "BYE_POINTS", "opponents", "seat_counts", "bye_counts", "met_counts"]

PlayerId = str
"""A player: an opaque string id (the service uses ``u<user id>``)."""

WIN_POINTS = Fraction(3)
"""Points for a two-player win, a forfeit won and a bye (``docs/tournaments.md`` §4)."""
DRAW_POINTS = Fraction(1)
"""Points for a two-player draw (``docs/tournaments.md`` §4)."""
BYE_POINTS = WIN_POINTS
"""A bye scores as a win, in every format (``docs/tournaments.md`` §5)."""


class Outcome(StrEnum):
    """A player's outcome of a two-player match (``docs/tournaments.md`` §4)."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    BYE = "bye"
    FORFEIT = "forfeit"
    """The player forfeited (a no-show, a drop mid-round): a loss with no game points."""


@dataclass(frozen=True)
class Match:
    """One table of a round: its players in seat order (``docs/tournaments.md`` §2).

    Attributes
    ----------
    players:
        Player ids, shape ``(k,)``, in seat order (seat 1 first). ``k == 1`` is a bye; ``k == 2``
        a two-player match; more is a multiplayer table (a pod).

    Raises
    ------
    ValueError
        No player, or a player seated twice.
    """

    players: tuple[PlayerId, ...]

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a match needs at least one player")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player is seated twice: {self.players}")

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye (one player, no game)."""
        return len(self.players) == 1


@dataclass(frozen=True, eq=True)
class Result:
    """How one match ended (``docs/tournaments.md`` §2, §4).

    Build one with :meth:`win`, :meth:`draw`, :meth:`bye`, :meth:`forfeit` or :meth:`ranked`.

    Attributes
    ----------
    places:
        Player id to finishing place, 1 = best; tied players share a place (``{a: 1, b: 1}`` is a
        draw). Every player of the match appears.
    forfeits:
        The players who forfeited: they score 0 and count as beaten by everyone who did not.
    scores:
        The game's own score of each player (Dutch Blitz points, Dutch penalty totals, …), for the
        *game points* tie-break (:meth:`game_points`); empty for a bye or a forfeit. Missing
        players count 0.
    forced:
        Whether the organizer forced it from an unfinished game (:func:`bot.tournaments.forced.decide`).
    lowest_wins:
        Whether the game's scores are better when lower (the game's
        :attr:`bot.engine.core.Engine.lowest_score_wins`, e.g. Dutch): :meth:`game_points` then
        counts how far below the table's highest score a player finished.

    Raises
    ------
    ValueError
        A place below 1, or a forfeit or score of a player not in *places*.
    """

    places: Mapping[PlayerId, int]
    forfeits: frozenset[PlayerId] = frozenset()
    scores: Mapping[PlayerId, float] = field(default_factory=dict)
    forced: bool = False
    lowest_wins: bool = False

    def __post_init__(self) -> None:
        if not self.places:
            raise ValueError("a result needs at least one player")
        if any(p < 1 for p in self.places.values()):
            raise ValueError(f"places start at 1: {dict(self.places)}")
        unknown = (set(self.forfeits) | set(self.scores)) - set(self.places)
        if unknown:
            raise ValueError(f"not players of this match: {sorted(unknown)}")

    __hash__ = None  # type: ignore[assignment]  # holds dicts

    @classmethod
    def win(cls, winner: PlayerId, loser: PlayerId, *, scores: Mapping[PlayerId, float] | None = None) -> Result:
        """A two-player match *winner* won."""
        return cls({winner: 1, loser: 2}, scores=dict(scores or {}))

    @classmethod
    def draw(cls, a: PlayerId, b: PlayerId, *, scores: Mapping[PlayerId, float] | None = None) -> Result:
        """A drawn two-player match."""
        return cls({a: 1, b: 1}, scores=dict(scores or {}))

    @classmethod
    def bye(cls, player: PlayerId) -> Result:
        """The result of a bye: it scores as a win (:data:`BYE_POINTS`), with no game points."""
        return cls({player: 1})

    @classmethod
    def forfeit(cls, forfeited: Iterable[PlayerId], present: Iterable[PlayerId] = ()) -> Result:
        """A match decided by forfeit: the *forfeited* players lose to those *present*.

        The present players share first place (in a two-player match, the one present wins); with
        everyone forfeited, nobody scores.
        """
        gone = frozenset(forfeited)
        here = [p for p in present if p not in gone]
        places = {p: 1 for p in here} | {p: len(here) + 1 for p in gone}
        return cls(places, forfeits=gone)

    @classmethod
    def ranked(cls, places: Mapping[PlayerId, int], *, scores: Mapping[PlayerId, float] | None = None,
               forfeits: Iterable[PlayerId] = (), forced: bool = False, lowest_wins: bool = False) -> Result:
        """A table's result from its finishing places (1 = best, ties share a place); *lowest_wins* as
        the attribute.
        """
        return cls(dict(places), frozenset(forfeits), dict(scores or {}), forced, lowest_wins)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The match's players, best place first (ties in the order given)."""
        return tuple(sorted(self.places, key=lambda p: (p in self.forfeits, self.places[p])))

    @property
    def is_bye(self) -> bool:
        """Whether this is the result of a bye."""
        return len(self.places) == 1 and not self.forfeits

    def beaten_and_tied(self, player: PlayerId, among: Iterable[PlayerId] | None = None) -> tuple[int, int]:
        """How many of *player*'s opponents (those in *among*, default all) it beat and tied.

        A forfeiter beats and ties nobody; everyone else beats each forfeiter.
        """
        if player in self.forfeits:
            return 0, 0
        mine = self.places[player]
        others = [q for q in (self.places if among is None else among) if q in self.places and q != player]
        beat = sum(1 for q in others if q in self.forfeits or self.places[q] > mine)
        tied = sum(1 for q in others if q not in self.forfeits and self.places[q] == mine)
        return beat, tied

    def points(self, player: PlayerId) -> Fraction:
        """*player*'s points from this match (``docs/tournaments.md`` §4, §5).

        A bye scores :data:`BYE_POINTS`. Otherwise the result counts as a two-player match against
        each opponent at the table (3 for each beaten, 1 for each tied, 0 for each lost to) and
        the points are the average over the opponents: a two-player match gives 3 / 1 / 0, a
        four-player table 3, 2, 1, 0 by place. A forfeiter scores 0.

        >>> r = Result.ranked({"a": 1, "b": 2, "c": 2, "d": 4})
        >>> [str(r.points(p)) for p in "abcd"]
        ['3', '4/3', '4/3', '0']
        """
        if self.is_bye:
            return BYE_POINTS
        beat, tied = self.beaten_and_tied(player)
        return (WIN_POINTS * beat + DRAW_POINTS * tied) / (len(self.places) - 1)

    def game_points(self, player: PlayerId) -> Fraction:
        """*player*'s game points from this match (``docs/tournaments.md`` §6): more is always better.

        For a game won by the highest score, the player's own score. For a game won by the lowest
        (:attr:`lowest_wins`), how far the player's score is below the highest score of the match,
        so the best of the table gains the most and the worst nothing. A bye, a forfeiter and a
        player without a score gain nothing.

        >>> Result.win("a", "b", scores={"a": 12, "b": 7}).game_points("a")
        Fraction(12, 1)
        >>> dutch = Result.ranked({"a": 1, "b": 2}, scores={"a": 5, "b": 40}, lowest_wins=True)
        >>> dutch.game_points("a"), dutch.game_points("b")
        (Fraction(35, 1), Fraction(0, 1))
        """
        if player not in self.scores or player in self.forfeits:
            return Fraction(0)
        own = Fraction(self.scores[player])
        if not self.lowest_wins:
            return own
        return max(Fraction(v) for q, v in self.scores.items() if q not in self.forfeits) - own

    def outcome(self, player: PlayerId) -> Outcome:
        """*player*'s outcome, as a two-player match (win, loss, draw, bye or forfeit)."""
        if self.is_bye:
            return Outcome.BYE
        if player in self.forfeits:
            return Outcome.FORFEIT
        beat, tied = self.beaten_and_tied(player)
        if beat == len(self.places) - 1:
            return Outcome.WIN
        return Outcome.DRAW if beat + tied == len(self.places) - 1 else Outcome.LOSS


@dataclass(frozen=True)
class Round:
    """One round: its matches and their results as they finish (``docs/tournaments.md`` §2).

    Attributes
    ----------
    matches:
        The round's tables, shape ``(m,)``; no player in two of them.
    results:
        Shape ``(m,)``, parallel to *matches*: a match's :class:`Result`, or ``None`` while it is
        being played. A bye's result is set at once.

    Raises
    ------
    ValueError
        A player in two matches, lengths that differ, or a result whose players are not its match's.
    """

    matches: tuple[Match, ...]
    results: tuple[Result | None, ...]

    def __post_init__(self) -> None:
        seated = [p for m in self.matches for p in m.players]
        if len(set(seated)) != len(seated):
            raise ValueError("a player is in two matches of one round")
        if len(self.results) != len(self.matches):
            raise ValueError("one result (or None) per match")
        for m, r in zip(self.matches, self.results, strict=True):
            if r is not None and set(r.places) != set(m.players):
                raise ValueError(f"the result of {m.players} names other players: {sorted(r.places)}")

    @classmethod
    def of(cls, matches: Sequence[Match]) -> Round:
        """A new round of *matches*, every bye already decided."""
        return cls(tuple(matches), tuple(Result.bye(m.players[0]) if m.is_bye else None for m in matches))

    def with_result(self, index: int, result: Result) -> Round:
        """A copy of the round with match *index*'s result set."""
        results = list(self.results)
        results[index] = result
        return replace(self, results=tuple(results))

    @property
    def is_complete(self) -> bool:
        """Whether every match has its result."""
        return all(r is not None for r in self.results)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Everyone seated this round, table by table."""
        return tuple(p for m in self.matches for p in m.players)


@dataclass(frozen=True)
class Standing:
    """One row of the standings (``docs/tournaments.md`` §6).

    Attributes
    ----------
    rank:
        1 = top; players equal on points and every tie-break share a rank.
    player:
        The player id.
    points:
        Match points (§4, §5).
    opponents:
        The first tie-break: opponents' match-win percentage (two-player, each opponent's floored
        at 1/3) or Buchholz (pods): a fraction from 0 to 1 or a sum of points.
    game_points:
        The second tie-break: the sum of :meth:`Result.game_points` over the player's matches
        (the game's own scores, counted so that more is better).
    head_to_head:
        The third tie-break: points scored against the players tied with this one on everything
        before (0 when nobody is).
    played:
        Rounds with a result for this player, byes included.
    byes:
        Byes received.
    """

    rank: int
    player: PlayerId
    points: Fraction
    opponents: Fraction
    game_points: Fraction
    head_to_head: Fraction
    played: int
    byes: int

    @property
    def key(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """The ordering key, best first when sorted descending: points then the tie-breaks."""
        return self.points, self.opponents, self.game_points, self.head_to_head


def opponents(rounds: Iterable[Round]) -> dict[PlayerId, list[PlayerId]]:
    """Everyone each player sat with at a table, one entry per meeting (unfinished matches count).

    >>> opponents([Round.of([Match(("a", "b")), Match(("c",))])])
    {'a': ['b'], 'b': ['a'], 'c': []}
    """
    out: dict[PlayerId, list[PlayerId]] = {}
    for rnd in rounds:
        for m in rnd.matches:
            for p in m.players:
                out.setdefault(p, []).extend(q for q in m.players if q != p)
    return out


def met_counts(rounds: Iterable[Round]) -> dict[frozenset[PlayerId], int]:
    """How often each pair of players sat at one table (unfinished matches count)."""
    out: dict[frozenset[PlayerId], int] = {}
    for rnd in rounds:
        for m in rnd.matches:
            for i, p in enumerate(m.players):
                for q in m.players[i + 1:]:
                    pair = frozenset((p, q))
                    out[pair] = out.get(pair, 0) + 1
    return out


def bye_counts(rounds: Iterable[Round]) -> dict[PlayerId, int]:
    """How many byes each player has had (only players with one appear)."""
    out: dict[PlayerId, int] = {}
    for rnd in rounds:
        for m in rnd.matches:
            if m.is_bye:
                out[m.players[0]] = out.get(m.players[0], 0) + 1
    return out


def seat_counts(rounds: Iterable[Round]) -> dict[tuple[PlayerId, int], int]:
    """How often each player sat in each seat (0-based) of a table of two or more."""
    out: dict[tuple[PlayerId, int], int] = {}
    for rnd in rounds:
        for m in rnd.matches:
            if not m.is_bye:
                for seat, p in enumerate(m.players):
                    out[(p, seat)] = out.get((p, seat), 0) + 1
    return out
