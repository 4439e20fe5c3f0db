"""The table service shared by every game: lobby, seats, bots, moves, races, redraws, restore.

``docs/design.md`` §1: one :class:`~bot.tables.table.Table` per running game, kept by
the :class:`~bot.tables.service.TableService` of the bot. Game cogs register a
:class:`~bot.tables.ui.GameUI`; the service does the rest.
"""

from bot.tables.race import Claim, Outcome, RaceArbiter
from bot.tables.service import TableService
from bot.tables.table import Seat, Table, TableError
from bot.tables.ui import GameUI

__all__ = ["TableService", "Table", "Seat", "TableError", "GameUI", "RaceArbiter", "Claim", "Outcome"]
