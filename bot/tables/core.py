"""The table service's foundation: the tables of this process, the registered games, shared chores.

The service is split by concern (``docs/tables.md``, "The table service inside"), each layer a
class built on the one below: :class:`TableCore` (this module: state, registry, seats, tasks),
:class:`~bot.tables.play.TablePlay` (moves, races, results), :class:`~bot.tables.loops.TableLoops`
(bots, turn timers, idle people, lobby expiry), :class:`~bot.tables.lobby.TableLobby` (seats and
host controls), :class:`~bot.tables.restore.TableRestore` (restart, rematch, shutdown), and
:class:`~bot.tables.discord_io.DiscordTables` (interactions, messages, redraws, live boards).
Everything below the Discord layer imports no ``discord`` and talks to Discord only through the
three hooks of :class:`TableCore` (:meth:`~TableCore._say`, :meth:`~TableCore._mark_ended`,
:meth:`~TableCore._watch`), so the lobby and move logic run in unit tests without any Discord.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine import REGISTRY, game_module
from bot.tables.race import Outcome
from bot.tables.table import Table
from bot.tables.text import fit_text
from bot.tables.ui import GameUI

if TYPE_CHECKING:
    from bot.config import TablesConfig
    from bot.storage import Storage

__all__ = ["TableCore", "Actor", "BOT_SPEEDS", "bot_speed_factor", "now_ms", "wall_ms", "posted_ms"]

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


BOT_SPEEDS: dict[str, float] = {"relaxed": 2.0, "normal": 1.0, "fast": 0.6}
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

    >>> bot_speed_factor({}), bot_speed_factor({"bot_speed": "fast"})
    (2.0, 0.6)
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


class TableCore:
    """The state every layer of the table service shares; see the module's documentation.

    Parameters
    ----------
    storage:
        The repository (games, seats, action log, results).
    config:
        The ``[tables]`` settings.

    Attributes
    ----------
    tables:
        Table id to its live :class:`~bot.tables.table.Table` (lobbies, running and just-finished games).
    uis, engines:
        The registered games: kind to its :class:`~bot.tables.ui.GameUI`, and to its engine class and bots.
    bot_delay_scale:
        Multiplies bots' reaction times (tests use a small value to play fast).
    timer_scale:
        Multiplies turn-timer, idle and expiry durations (tests use a small value).
    finish_hooks:
        Called with a game's id once its result is stored (ratings register here).
    """

    def __init__(self, storage: Storage, config: TablesConfig) -> None:
        self.storage = storage
        self.config = config
        self.tables: dict[int, Table] = {}
        self.uis: dict[str, GameUI] = {}
        self.engines: dict[str, tuple[Any, dict[str, Any]]] = {}
        self.bot_delay_scale = 1.0
        self.timer_scale = 1.0
        self.shards: tuple[int, set[int] | None] = (0, None)
        self.finish_hooks: list[Callable[[int], Awaitable[Any]]] = []
        self._chores: set[asyncio.Task[Any]] = set()
        self._closing = False
        # Running tables a restart left to replay later (table id to table, registered but without
        # an engine yet), and those being replayed (id to a future set when done): ``live``. At most
        # eight replay at once (a few logs in memory however many clicks wait), and the snapshots
        # they take are stored a batch at a time (bot.tables.restore).
        self._unreplayed: dict[int, Table] = {}
        self._replaying: dict[int, asyncio.Future[None]] = {}
        self._replay_turn = asyncio.Semaphore(8)
        self._replayed_snapshots: list[tuple[int, int, str, bytes]] = []

    # ------------------------------------------------------------------ hooks the Discord layer fills

    async def _say(self, table: Table, text: str, *, ping: bool = False) -> None:
        """Post a short new message in the table's thread (pinging only with *ping*)."""
        raise NotImplementedError

    async def _mark_ended(self, table: Table, text: str) -> None:
        """Show on the table's message that it ended (*text*), without buttons."""
        raise NotImplementedError

    def _watch(self, table: Table) -> list[Coroutine[Any, Any, None]]:
        """The tasks that keep a running table's messages current (its public message, open boards)."""
        return []

    async def _replay(self, table_id: int, *, urgent: bool = False) -> None:
        """|coro| Replay a table the restart left for later, now (the restore layer fills this)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ lookups that wait for a replay

    def awaits_replay(self, table_id: int) -> bool:
        """Whether table *table_id* is one a restart left to replay later, not replayed yet (:meth:`live`)."""
        return table_id in self._unreplayed or table_id in self._replaying

    async def live(self, table_id: int) -> Table | None:
        """|coro| The table numbered *table_id* (``None`` when there is none), ready to play.

        A running table that a restart left to replay later (its snapshot was written by other code:
        ``docs/tables.md``, "Restarts") is replayed first, at once, or waited for when its replay is
        under way. Every click, and every command or tournament step that names a table by its id,
        looks it up here.
        """
        if self.awaits_replay(table_id):
            await self._replay(table_id)
        return self.tables.get(table_id)

    async def replayed_in(self, channel_id: int | None) -> None:
        """|coro| Replay now any table left for later whose thread (or channel) is *channel_id*, so a
        slash command used there finds it ready (:meth:`table_in`).
        """
        for table_id in [i for i in (*self._unreplayed, *self._replaying)
                         if (t := self.tables.get(i)) is not None and t.thread_id == channel_id]:
            await self._replay(table_id, urgent=True)

    # ------------------------------------------------------------------ set-up

    def register_ui(self, ui: GameUI, *, engine: Any = None, bots: dict[str, Any] | None = None) -> None:
        """Make game *ui.kind* playable (called by its cog's ``cog_load``).

        Parameters
        ----------
        ui:
            The game's rendering.
        engine:
            The engine class; default ``bot.engine.REGISTRY[ui.kind]`` (tests pass a test-only game).
        bots:
            Bot name to class; default the game package's ``BOTS``.

        Raises
        ------
        KeyError
            No engine of that kind is registered.
        """
        if engine is None:
            engine = REGISTRY[ui.kind]
            bots = dict(getattr(game_module(ui.kind), "BOTS", {})) if bots is None else bots
        self.uis[ui.kind] = ui
        self.engines[ui.kind] = (engine, dict(bots or {}))

    def _engine_cls(self, kind: str) -> Any:
        return self.engines[kind][0]

    def _bots(self, kind: str) -> dict[str, Any]:
        return self.engines[kind][1]

    @property
    def _cfg(self) -> TablesConfig:
        return self.config

    def strength(self, kind: str, name: str) -> str:
        """A bot's strength in words: the game's first bot is ``hard``, its last ``easy``, others ``normal``."""
        names = list(self._bots(kind))
        if len(names) < 2 or name == names[0]:
            return "hard" if len(names) > 1 else "normal"
        return "easy" if name == names[-1] else "normal"

    def lobby_text(self, table: Table) -> str:
        """The lobby message: game, options, host and seats."""
        opts = ", ".join(f"{k}={v}" for k, v in table.options.items()) or "default options"
        seats = "\n".join(
            f"{i + 1}. {s.name}{' (bot)' if s.is_bot else ''}{' — host' if s.user_id == table.host_id else ''}"
            for i, s in enumerate(table.seats))
        status = {"lobby": "Waiting for players", "cancelled": "Cancelled"}.get(table.status, table.status)
        return (f"**{table.title}** — table #{table.id} · {status}\n{opts}\n"
                f"Seats ({len(table.seats)}/{table.max_players}, at least {table.min_players}):\n{seats}")

    def public_text(self, table: Table) -> str:
        """The public table message for the current state (≤ 2000 characters)."""
        ui = self.uis[table.kind]
        text = ui.public_text(table)
        if table.engine is not None and table.engine.is_over:
            text = f"{text}\n\n{ui.result_text(table)}"
        if table.notice:
            text = f"{table.notice}\n{text}"
        return fit_text(text)

    def table_in(self, channel_id: int | None) -> Table | None:
        """The live table whose thread (or channel, when it has no thread) is *channel_id*."""
        return next((t for t in self.tables.values() if t.thread_id == channel_id and t.status in ("lobby", "running")),
                    None)

    async def _save_seats(self, table: Table) -> None:
        await self.storage.set_seats(table.id, [(s.player_id, s.user_id, s.bot_name, s.name) for s in table.seats])

    async def _cancel(self, table: Table, why: str = "The table was cancelled.") -> None:
        table.status = "cancelled"
        await self.storage.update_game(table.id, status="cancelled")
        self._stop_tasks(table)
        self._settle_claims(table, why)
        self.tables.pop(table.id, None)

    @staticmethod
    def _settle_claims(table: Table, why: str) -> None:
        """Answer every claim still waiting in a race window of *table* with a refusal (*why*)."""
        for claim in table.arbiter.drain() if table.arbiter else []:
            if not claim.payload.done():
                claim.payload.set_result(Outcome(False, why))

    def _track(self, table: Table, coro: Any, what: str) -> None:
        """Run *coro* as one of the table's tasks (cancelled with the table)."""
        table.tasks[:] = [t for t in table.tasks if not t.done()]
        table.tasks.append(asyncio.get_running_loop().create_task(coro, name=f"table-{table.id}-{what}"))

    def _stop_tasks(self, table: Table) -> None:
        for task in table.tasks:
            task.cancel()
        table.tasks.clear()

    def _background(self, coro: Any) -> None:
        """Run a Discord call after the interaction is answered (kept referenced until done)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)
