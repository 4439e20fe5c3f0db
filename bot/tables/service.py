"""The table service: one path for lobbies, seats, bots, moves, races, redraws and restore.

Every game cog uses it (``docs/tables.md``). :class:`TableService` is the thin front over the
layers, each in its own module and built on the one below (see :mod:`bot.tables.core`):

* :mod:`bot.tables.core` — the tables, the registered games, shared chores;
* :mod:`bot.tables.play` — moves, races and results: the one path every move takes;
* :mod:`bot.tables.loops` — bots, turn timers, idle people, lobby expiry;
* :mod:`bot.tables.lobby` — seats and host controls;
* :mod:`bot.tables.restore` — restarts, rematches, shutdown;
* :mod:`bot.tables.discord_io` — interactions, messages, redraws and live boards.

It is given its storage, its ``[tables]`` config and the discord.py client, not the whole bot, so
nothing here imports :mod:`bot.client`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.tables.core import BOT_SPEEDS, Actor, bot_speed_factor
from bot.tables.discord_io import DiscordTables
from bot.tables.text import CONTENT_MAX, fit_text

if TYPE_CHECKING:
    import discord

    from bot.config import TablesConfig
    from bot.storage import Storage

__all__ = ["TableService", "Actor", "BOT_SPEEDS", "bot_speed_factor", "CONTENT_MAX", "fit_text"]


class TableService(DiscordTables):
    """All tables of this process.

    Parameters
    ----------
    storage:
        The repository (games, seats, action log, results).
    config:
        The ``[tables]`` settings (``bot.config.TablesConfig``).
    client:
        The discord.py client whose channels the tables live in.
    """

    def __init__(self, storage: Storage, config: TablesConfig, client: discord.Client) -> None:
        super().__init__(storage, config, client)
