"""Tournaments, the pure part: pairing, seating, brackets and standings (``docs/tournaments.md``).

Like the engines (``docs/design.md`` §1, §9), nothing here touches Discord, asyncio, storage or
the clock, and randomness comes only from a seeded :class:`random.Random` passed in, so the same
seed and history always give the same round.

- :mod:`~bot.tournaments.model`: players, matches, results, rounds, standings rows (§2).
- :mod:`~bot.tournaments.swiss`: Swiss pairing of two-player games (§3).
- :mod:`~bot.tournaments.pods`: Swiss pods of multiplayer games, points by place (§5).
- :mod:`~bot.tournaments.standings`: points and tie-breaks (§6).
- :mod:`~bot.tournaments.elimination`: single elimination (§7).
- :mod:`~bot.tournaments.round_robin`: round robin (§8).
- :mod:`~bot.tournaments.forced`: deciding unfinished matches when a round is forced (§9).
- :mod:`~bot.tournaments.statuses`: the statuses of tournaments, matches and entrants (§10).

The service that runs tournaments on the table service (storage, asyncio, the clock) is
:mod:`~bot.tournaments.service` and the parts it composes (``docs/tournaments.md``, "The service inside").
"""

from bot.tournaments.model import Match, Outcome, PlayerId, Result, Round, Standing
from bot.tournaments.standings import standings

__all__ = ["Match", "Outcome", "PlayerId", "Result", "Round", "Standing", "standings"]
