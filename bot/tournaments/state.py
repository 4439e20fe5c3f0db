"""A tournament as the service's parts load it, and the forms they share (``docs/tournaments.md`` §10).

:class:`TournamentState` is one tournament read from storage for one step or one command (its row,
entrants and rounds); the parts never keep it across an ``await`` that another step may interleave
with, except under the tournament's lock. Player ids are ``u<user id>``; a result is stored as a
JSON object (:func:`result_to_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import EntrantRow, RoundRow, TournamentRow
from bot.tournaments.model import Match, Result, Round
from bot.tournaments.statuses import EntrantStatus, MatchStatus

__all__ = ["TournamentState", "FORMATS", "pid", "uid", "multiplayer", "result_to_json", "result_from_json",
           "result_from_game", "plural"]

FORMATS: dict[str, str] = {"swiss": "Swiss", "pods": "Swiss pods", "elimination": "Single elimination",
                           "round-robin": "Round robin"}
"""Format id to its name (``docs/tournaments.md`` §1)."""


def uid(player: str) -> int:
    """The Discord user id of player id *player* (``"u42"`` is 42)."""
    return int(player[1:])


def pid(user_id: int) -> str:
    """The player id of Discord user *user_id* (42 is ``"u42"``)."""
    return f"u{user_id}"


def multiplayer(t: TournamentRow) -> bool:
    """Whether *t* seats tables of more than two: Swiss pods, or an elimination with a ``table_size``."""
    return t.format == "pods" or (t.format == "elimination" and int(t.settings.get("table_size", 2)) > 2)


def plural(n: int, word: str, words: str | None = None) -> str:
    """*n* and the noun in its right number: ``plural(1, "round")`` is ``"1 round"``, ``plural(2, "match",
    "matches")`` is ``"2 matches"`` (*words*: the plural when it is not *word* + ``s``).
    """
    return f"{n} {word if n == 1 else words or word + 's'}"


def result_to_json(result: Result) -> dict[str, Any]:
    """A :class:`~bot.tournaments.model.Result` as stored (``{"places", "forfeits", "scores", "forced",
    "lowest_wins"}``).
    """
    return {"places": dict(result.places), "forfeits": sorted(result.forfeits),
            "scores": {p: float(s) for p, s in result.scores.items()}, "forced": result.forced,
            "lowest_wins": result.lowest_wins}


def result_from_json(data: dict[str, Any]) -> Result:
    """The stored form back as a :class:`~bot.tournaments.model.Result` (a missing key: its default).

    Raises
    ------
    KeyError
        *data* has no ``places``.
    """
    return Result(dict(data["places"]), frozenset(data.get("forfeits", ())), dict(data.get("scores", {})),
                  bool(data.get("forced", False)), bool(data.get("lowest_wins", False)))


def result_from_game(players: Sequence[str], game: dict[str, Any], gone: Sequence[str] = (), *,
                     lowest_wins: bool = False) -> Result:
    """A match's result from its finished game's stored result (``{"scores", "ranks"}``).

    Players in *gone* (a no-show, a player whose seat a bot finished, a drop) forfeit
    (``docs/tournaments.md`` §2): they take the last place and score nothing; the others keep
    the game's ranks and scores. *lowest_wins* is the game's
    :attr:`~bot.engine.core.Engine.lowest_score_wins`, kept on the result for its game points (§6).

    >>> r = result_from_game(["u1", "u2"], {"scores": {"u1": 3, "u2": 5}, "ranks": {"u1": 2, "u2": 1}})
    >>> r.outcome("u2"), dict(r.scores)
    (<Outcome.WIN: 'win'>, {'u1': 3.0, 'u2': 5.0})
    >>> result_from_game(["u1", "u2"], {"scores": {}, "ranks": {"u1": 1, "u2": 1}}, gone=["u1"]).outcome("u2")
    <Outcome.WIN: 'win'>
    """
    out = frozenset(p for p in gone if p in players)
    here = [p for p in players if p not in out]
    if not here:
        return Result.forfeit(out)
    ranks = {p: int(game.get("ranks", {}).get(p, len(players))) for p in here}
    places = {p: 1 + sum(1 for q in here if ranks[q] < ranks[p]) for p in here}
    places |= {p: len(players) for p in out}
    scores = {p: float(game.get("scores", {}).get(p, 0)) for p in here}
    return Result.ranked(places, scores=scores, forfeits=out, lowest_wins=lowest_wins)


@dataclass
class TournamentState:
    """A tournament as loaded for one step or command: its row, entrants (in registration order) and
    rounds (oldest first, each with its matches).
    """

    t: TournamentRow
    entrants: list[EntrantRow]
    rounds: list[RoundRow]

    @property
    def names(self) -> dict[str, str]:
        """Every entrant's name as stored (as typed), by player id."""
        return {pid(e.user_id): e.name for e in self.entrants}

    @property
    def active(self) -> list[str]:
        """The player ids of the checked-in entrants: once started, everyone still in."""
        return [pid(e.user_id) for e in self.entrants if e.status == EntrantStatus.CHECKED_IN]

    def entrant(self, user_id: int) -> EntrantRow | None:
        """User *user_id*'s entry, or ``None``."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def current(self) -> RoundRow | None:
        """The latest round, or ``None`` before the first."""
        return self.rounds[-1] if self.rounds else None

    def model_rounds(self) -> list[Round]:
        """The stored rounds as the pure logic's :class:`Round`s (empty bracket slots left out)."""
        out = []
        for rnd in self.rounds:
            ms = [m for m in rnd.matches if m.players]
            out.append(Round(tuple(Match(m.players) for m in ms),
                             tuple(result_from_json(m.result) if m.status == MatchStatus.DONE and m.result else None
                                   for m in ms)))
        return out
