"""Ratings from results, pure: OpenSkill's Plackett–Luce model over a game's ranks (``docs/ratings.md``).

A :class:`RatingBook` holds the ratings of one server and game and takes finished games in the
order they ended. Games with a bot seat are unrated unless the server rates them; then each bot
plays at a fixed rating for its strength and is never updated itself. The same results in the
same order always give the same numbers, so ratings are derived data (``parlor ratings rebuild``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["Rating", "RatingBook", "Entrant", "BOT_MU", "BOT_SIGMA", "bot_rating", "ordinal"]

MODEL = PlackettLuce()
"""The one model (default μ 25, σ 25/3, β 25/6, τ 25/300, as the openskill package sets them)."""

BOT_MU = (30.0, 22.0, 15.0)
"""A rated bot's fixed μ by strength: the game's first (strongest) bot, its second, the rest."""
BOT_SIGMA = 1.0
"""A rated bot's fixed σ: it is known, not learned."""


@dataclass(frozen=True)
class Rating:
    """A player's rating: OpenSkill's *mu* and *sigma*, and how many rated games it took."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative number shown to people: μ − 3σ (about the 99.7 % lower bound)."""
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """μ − 3σ, the rating shown on leaderboards: a newcomer starts at 0.

    >>> round(ordinal(25.0, 25 / 3), 6)
    0.0
    """
    return mu - 3 * sigma


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game as the ratings see it.

    Attributes
    ----------
    key:
        ``u<user id>`` for a person, ``bot:<name>`` for a bot.
    rank:
        The seat's final rank (1 = best; tied seats share a rank).
    bot_strength:
        ``None`` for a person; for a bot, its place in the game's list of bots (0 = strongest).
    """

    key: str
    rank: int
    bot_strength: int | None = None


def bot_rating(strength: int) -> Rating:
    """The fixed rating of a bot of *strength* (0 = the game's strongest bot)."""
    return Rating(BOT_MU[min(strength, len(BOT_MU) - 1)], BOT_SIGMA)


class RatingBook:
    """The ratings of one server and game, updated game by game.

    Parameters
    ----------
    ratings:
        Starting ratings by player key (default: none; a new player starts at μ 25, σ 25/3).
    """

    def __init__(self, ratings: Mapping[str, Rating] | None = None) -> None:
        self.ratings: dict[str, Rating] = dict(ratings or {})

    def rating(self, key: str) -> Rating:
        """The current rating of *key* (the starting one for a newcomer)."""
        return self.ratings.get(key, Rating())

    def record(self, entrants: Sequence[Entrant], *, rate_bots: bool = False) -> bool:
        """Update the people's ratings from one finished game; returns whether it was rated.

        With bot seats and *rate_bots* off, the people are rated against each other alone, by their
        places among themselves (the bots left out: ``docs/ratings.md``, "Games with bots"). A game
        is unrated when fewer than two seats (people, when the bots are left out) take part, or when
        they all share one rank (nothing to learn).
        """
        if not rate_bots:
            entrants = [e for e in entrants if e.bot_strength is None]
        if len(entrants) < 2 or len({e.rank for e in entrants}) < 2:
            return False
        teams = []
        for e in entrants:
            r = bot_rating(e.bot_strength) if e.bot_strength is not None else self.rating(e.key)
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma, name=e.key)])
        new = MODEL.rate(teams, ranks=[float(e.rank) for e in entrants])
        for e, (team,) in zip(entrants, new, strict=True):
            if e.bot_strength is None:
                self.ratings[e.key] = Rating(team.mu, team.sigma, self.rating(e.key).games + 1)
        return True
