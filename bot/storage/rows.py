"""The rows Parlor's database hands out: frozen dataclasses, one per stored thing, and the statuses
each table allows (``bot/storage/migrations.py`` checks them as well).

Times are Unix milliseconds; ids are Discord snowflakes unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["GAME_STATUSES", "TOURNAMENT_STATUSES", "MATCH_STATUSES", "GameRow", "SeatRow", "ActionRow", "SnapshotRow",
           "LiveGame", "FinishedGame", "RatingRow", "TournamentRow", "EntrantRow", "MatchRow", "RoundRow"]

GAME_STATUSES = ("lobby", "running", "finished", "cancelled")
"""The statuses a game (a table) may have."""

TOURNAMENT_STATUSES = ("registration", "checkin", "running", "paused", "finished", "cancelled")
"""The statuses a tournament may have (``docs/tournaments.md`` §10)."""

MATCH_STATUSES = ("pending", "playing", "broken", "done", "empty")
"""The statuses a tournament match may have (:class:`MatchRow`)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game (one table). Times are Unix milliseconds; ids are Discord snowflakes."""

    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    host_id: int | None
    options: dict[str, Any]
    seed: int
    status: str
    created_at: int
    updated_at: int
    finished_at: int | None
    settings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat: exactly one of ``user_id`` (a Discord user) and ``bot_name`` is set."""

    game_id: int
    seat: int
    player_id: str
    user_id: int | None
    bot_name: str | None
    joined_at: int
    name: str | None = None
    """The display name the seat had at the table (``None`` for seats stored before names were)."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An accepted action: ``seq`` from 1, the Discord timestamp and arrival time in Unix ms."""

    game_id: int
    seq: int
    player_id: str
    action: dict[str, Any]
    discord_ts_ms: int | None
    received_at_ms: int


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """A running game's latest snapshot: its state after action number ``seq`` (``state``, bytes that
    only the code named ``code`` reads), taken at ``taken_at`` (Unix ms).
    """

    game_id: int
    seq: int
    code: str
    state: bytes
    taken_at: int


@dataclass(frozen=True, slots=True)
class LiveGame:
    """What a restart needs of one unfinished game (:meth:`Storage.live_games`): the game, its seats
    in seat order, its latest snapshot (or ``None``) and, with a snapshot, the actions after it
    (``tail``; without one the tail is empty: the whole log is read with :meth:`Storage.actions`).
    """

    game: GameRow
    seats: list[SeatRow]
    snapshot: SnapshotRow | None
    tail: list[ActionRow]



@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game with its result and seats, for ratings and statistics.

    Attributes
    ----------
    id, kind, guild_id, thread_id:
        The game, and where it was played.
    finished_at:
        When its result was stored, Unix milliseconds.
    result:
        The engine's result (``{"scores", "ranks", "winners", "detail"}``, keyed by player id).
    seats:
        The seats at the end of the game, in seat order.
    """

    id: int
    kind: str
    guild_id: int | None
    thread_id: int | None
    finished_at: int
    result: dict[str, Any]
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One stored rating: *player* is ``u<user id>`` (or ``bot:<name>``); *mu*, *sigma* OpenSkill's."""

    guild_id: int
    kind: str
    player: str
    mu: float
    sigma: float
    games: int
    last_game: int


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament (``docs/tournaments.md`` §10). Times are Unix milliseconds.

    Attributes
    ----------
    format:
        ``swiss``, ``pods``, ``elimination`` or ``round-robin`` (§1).
    options:
        The game's table options for every match.
    settings:
        The event's own settings (rounds, table size, capacity, check-in, …), see the service.
    status:
        ``registration``, ``checkin``, ``running``, ``paused``, ``finished`` or ``cancelled``.
    round:
        The current round's number (0 before the first).
    """

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organizer_id: int
    name: str
    kind: str
    format: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    round: int
    created_at: int
    finished_at: int | None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A tournament entrant: ``registered``, ``checked_in``, ``waitlisted``, ``dropped`` or ``disqualified``."""

    tournament_id: int
    user_id: int
    name: str
    status: str
    registered_at: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match of a tournament round.

    Attributes
    ----------
    players:
        Player ids (``u<user id>``) in seat order; one is a bye, none an empty bracket slot.
    status:
        ``pending`` (no table yet), ``playing``, ``broken`` (its table ended without a result),
        ``done`` or ``empty``.
    game_id:
        The table (game) the match is played at, once opened.
    opened_at:
        When its table opened (Unix ms): the no-show clock starts there.
    shown:
        The players who showed up at the table.
    result:
        The recorded result (``{"places", "forfeits", "scores", "forced"}``), or ``None``.
    """

    tournament_id: int
    round: int
    number: int
    players: tuple[str, ...]
    status: str
    game_id: int | None
    opened_at: int | None
    shown: tuple[str, ...]
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """One round of a tournament: its number, its data (e.g. an elimination field), times and matches."""

    number: int
    data: dict[str, Any]
    started_at: int
    finished_at: int | None
    matches: tuple[MatchRow, ...]
