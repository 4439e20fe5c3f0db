"""Persistence: one SQLite database (aiosqlite) behind a repository layer.

No SQL lives outside this package. :class:`Storage` opens the database in WAL mode with foreign
keys on, migrates it (:mod:`bot.storage.migrations`) and offers the operations the table service
needs. Persistence is the action log (``docs/design.md`` §3): a table is restored from its latest
snapshot and the actions after it; :meth:`Storage.append_action` commits before it returns.
"""

from bot.storage.repository import (
    ActionRow,
    EntrantRow,
    FinishedGame,
    GameRow,
    LiveGame,
    MatchRow,
    RatingRow,
    RoundRow,
    SeatRow,
    SnapshotRow,
    Storage,
    TournamentRow,
)

__all__ = ["Storage", "GameRow", "SeatRow", "ActionRow", "SnapshotRow", "LiveGame", "FinishedGame", "RatingRow",
           "TournamentRow", "EntrantRow", "MatchRow", "RoundRow"]
