"""What every part of the table service shares: its clocks, :class:`Actor`, bot speeds.

The service is composed of parts (``docs/tables.md``, "The table service inside"), each an object
with its own state, given what it needs in its constructor: the
:class:`~bot.tables.registry.TableRegistry` (the tables and games of this process), the
:class:`~bot.tables.moves.Moves` (the one path of every move), the
:class:`~bot.tables.loops.Loops` (bots, timers, idle people), the :class:`~bot.tables.lobby.Lobby`
(seats and host controls), the :class:`~bot.tables.restore.Restorer` (restarts, rematches,
shutdown) and, on Discord, the public messages and live boards behind a
:class:`~bot.tables.messenger.Messenger`. :class:`~bot.tables.service.TableService` is the façade.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["Actor", "wait_event", "BOT_SPEEDS", "bot_speed_factor", "now_ms", "wall_ms", "posted_ms"]

log = logging.getLogger("parlor.tables")


def now_ms() -> float:
    """The table service's clock: monotonic milliseconds (timers, idle, race windows)."""
    return time.monotonic() * 1000


def wall_ms() -> int:
    """Unix time in milliseconds (the timestamp of a move made by a bot or a timer)."""
    return int(time.time() * 1000)


DISCORD_EPOCH_MS = 1420070400000
"""The first millisecond of 2015, Unix ms: Discord's snowflakes count from it."""


def posted_ms(message_id: int) -> int:
    """When Discord created message *message_id* (Unix ms), read from its snowflake.

    >>> posted_ms(175928847299117063)
    1462015105796
    """
    return (message_id >> 22) + DISCORD_EPOCH_MS


BOT_SPEEDS: dict[str, float] = {"slow": 4.0, "relaxed": 2.0, "normal": 1.0, "fast": 0.6}
"""A table's ``bot_speed`` setting: how much longer (or shorter) than their own pace bots take to act."""


async def wait_event(event: asyncio.Event, timeout_s: float) -> bool:
    """|coro| Wait for *event* at most *timeout_s* seconds; whether it was set.

    Not ``asyncio.wait_for``: on Python 3.11 a task cancelled just as the event is set is told the
    event came and the cancellation is lost, so a table's loop would outlive a shutdown.
    ``asyncio.timeout`` keeps the cancellation.
    """
    try:
        async with asyncio.timeout(timeout_s):
            await event.wait()
    except TimeoutError:
        return False
    return True


def bot_speed_factor(settings: dict[str, Any]) -> float:
    """The multiplier of bots' reaction times at a table with *settings* (``relaxed`` when unset).

    >>> bot_speed_factor({}), bot_speed_factor({"bot_speed": "fast"}), bot_speed_factor({"bot_speed": "slow"})
    (2.0, 0.6, 4.0)
    """
    return BOT_SPEEDS.get(str(settings.get("bot_speed", "relaxed")), BOT_SPEEDS["relaxed"])


@dataclass(frozen=True)
class Actor:
    """Who asks the table service for something: a Discord user, seen without Discord.

    Attributes
    ----------
    user_id:
        The user's snowflake.
    name:
        Their display name (shown at the table).
    moderator:
        Whether they moderate every table of the server (``docs/tables.md``, "Who may do what").
    """

    user_id: int
    name: str
    moderator: bool = False


