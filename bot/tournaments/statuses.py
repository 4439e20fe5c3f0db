"""The statuses of a tournament, of its matches and of its entrants, as string enums (``docs/tournaments.md`` §10).

Each is stored as its value (``bot/storage/migrations.py`` allows exactly these); a row read back
holds the plain string, which equals its member (``TournamentStatus.RUNNING == "running"``), like
:class:`bot.tables.table.TableStatus`. Pure: no storage, no clock.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TournamentStatus", "MatchStatus", "EntrantStatus", "BEFORE_START", "UNDER_WAY", "OVER", "LIVE",
           "HOLDING", "OUT", "UNDECIDED", "SETTLED"]


class TournamentStatus(StrEnum):
    """Where a tournament is in its life; stored as its value in the ``tournaments`` table."""

    REGISTRATION = "registration"
    """Open for registration; not started."""
    CHECKIN = "checkin"
    """The check-in window is open; not started."""
    RUNNING = "running"
    """Rounds are being played."""
    PAUSED = "paused"
    """Started, paused by the organizer: tables play on, no-shows wait, the next round waits."""
    FINISHED = "finished"
    """Over, with final standings (also when ended early)."""
    CANCELLED = "cancelled"
    """Ended before it started (by the organizer, or a timed start with too few players)."""


class MatchStatus(StrEnum):
    """Where a tournament match is; stored as its value in the ``tournament_matches`` table."""

    PENDING = "pending"
    """No table yet (or its table is to be opened again)."""
    PLAYING = "playing"
    """Its table is open."""
    BROKEN = "broken"
    """Its table ended without a result (or could not be opened): the organizer re-seats or forces it."""
    DONE = "done"
    """Its result is recorded (a bye is done from the start)."""
    EMPTY = "empty"
    """An empty bracket slot: nobody plays it."""


class EntrantStatus(StrEnum):
    """Where a player stands in a tournament; stored as its value in the ``tournament_entrants`` table."""

    REGISTERED = "registered"
    """Holds a place; not checked in."""
    CHECKED_IN = "checked_in"
    """Holds a place and checked in; once the tournament runs, every player still in is checked in."""
    WAITLISTED = "waitlisted"
    """Registered past the capacity: moves up when a place frees."""
    DROPPED = "dropped"
    """Left (or was dropped); their past results keep counting."""
    DISQUALIFIED = "disqualified"
    """Disqualified by the organizer; cannot register again."""


BEFORE_START = (TournamentStatus.REGISTRATION, TournamentStatus.CHECKIN)
"""A tournament not started yet: players register and check in."""
UNDER_WAY = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
"""A started tournament that is not over."""
OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
"""A tournament that is over."""
LIVE = (*BEFORE_START, *UNDER_WAY)
"""The tournaments the background loop moves on."""
HOLDING = (EntrantStatus.REGISTERED, EntrantStatus.CHECKED_IN)
"""Entrant statuses that hold a place."""
OUT = (EntrantStatus.DROPPED, EntrantStatus.DISQUALIFIED)
"""Entrant statuses of a player who left."""
UNDECIDED = (MatchStatus.PENDING, MatchStatus.PLAYING, MatchStatus.BROKEN)
"""A match of the current round that still waits for its result."""
SETTLED = (MatchStatus.DONE, MatchStatus.EMPTY)
"""A match that needs nothing more."""
