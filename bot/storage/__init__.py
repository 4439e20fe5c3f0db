"""Persistence: one SQLite database (aiosqlite) behind a repository layer.

No SQL lives outside this package. :class:`Storage` opens the database in WAL mode with foreign
keys on, migrates it (:mod:`bot.storage.migrations`) and offers the operations the table service
needs, each one a part's: :mod:`~bot.storage.games`, :mod:`~bot.storage.action_log`,
:mod:`~bot.storage.ratings` and :mod:`~bot.storage.tournaments`, over the rows of
:mod:`~bot.storage.rows` (``docs/design.md`` §3). Persistence is the action log: a table is restored
from its latest snapshot and the actions after it; :meth:`Storage.append_action` commits before it
returns.
"""

from bot.storage.repository import Storage
from bot.storage.rows import (
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
    TournamentRow,
)

__all__ = ["Storage", "GameRow", "SeatRow", "ActionRow", "SnapshotRow", "LiveGame", "FinishedGame", "RatingRow",
           "TournamentRow", "EntrantRow", "MatchRow", "RoundRow"]
