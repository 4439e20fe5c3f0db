"""Ratings, statistics and leaderboards from stored results (``docs/ratings.md``).

:mod:`bot.ratings.model` is pure (OpenSkill over ranks); :mod:`bot.ratings.service` reads and
writes them through storage.
"""

from bot.ratings.model import Entrant, Rating, RatingBook, ordinal
from bot.ratings.service import PlayerStats, RatingService

__all__ = ["Entrant", "Rating", "RatingBook", "ordinal", "PlayerStats", "RatingService"]
