"""The state and chores every part of the tournament service shares, and what it uses of the tables.

:class:`TournamentCore` holds what the parts read together: the storage, the ``[tournaments]``
settings, the table service (as a :class:`TableHost`), the clock, the time scale tests turn, one
lock per tournament and the background chores. It decides nothing about a tournament; it knows
no Discord. :class:`TableHost` names every public member of the table service
(:class:`bot.tables.service.Tables`) the tournament service uses, and nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.storage import MatchRow, Storage, TournamentRow
from bot.tables.core import Actor
from bot.tables.table import Table, TableError
from bot.tournaments.state import TournamentState, multiplayer
from bot.tournaments.statuses import LIVE

__all__ = ["TournamentCore", "TournamentError", "TableHost", "wall_clock_ms"]

log = logging.getLogger("parlor.tournaments")


class TournamentError(TableError):
    """A tournament request refused with a reason the user can read."""


class TableHost(Protocol):
    """What the tournament service uses of the table service: public members of
    :class:`bot.tables.service.Tables` (and of :class:`~bot.tables.service.TableService`, which adds
    ``open_seated`` on Discord), never its parts or private state.
    """

    tables: dict[int, Table]
    engines: dict[str, tuple[Any, dict[str, Any]]]
    finish_hooks: list[Callable[[int], Awaitable[Any]]]
    seen_hooks: list[Callable[[int, int], Awaitable[Any]]]

    async def open_seated(self, kind: str, options: dict[str, Any], settings: dict[str, Any] | None, *,
                          guild_id: int | None, channel_id: int, seats: list[tuple[int, str]], host_id: int,
                          title: str | None = None, intro: str = "") -> Table:
        """|coro| Open and deal a table with exactly these seats (``TableService.open_seated``)."""

    async def close_table(self, table_id: int, text: str) -> bool:
        """|coro| End a live table at once; whether it was live (``Tables.close_table``)."""

    async def seat_to_bot(self, table: Table, user_id: int, why: str) -> bool:
        """|coro| A bot takes a user's seat; whether it did (``Tables.seat_to_bot``)."""

    async def live(self, table_id: int) -> Table | None:
        """|coro| The live table, replayed first if a restart left it for later (``Tables.live``)."""

    def on_this_shard(self, guild_id: int | None) -> bool:
        """Whether a guild belongs to this process's shards (``TableRegistry.on_this_shard``): a process
        steps only its own guilds' tournaments, so two shard processes never step one twice.
        """


def wall_clock_ms() -> int:
    """Now, in Unix milliseconds (the service's default clock)."""
    return int(time.time() * 1000)


class TournamentCore:
    """The tournaments' shared state (see the module's documentation).

    Parameters
    ----------
    storage:
        The repository.
    config:
        The ``[tournaments]`` settings (``bot.config.TournamentsConfig``).
    tables:
        The table service.
    clock:
        Now, in Unix milliseconds (default :func:`wall_clock_ms`): no-show clocks and timed starts.

    Attributes
    ----------
    time_scale:
        Multiplies the no-show time and the timed starts (tests use a small value).
    chores:
        The background tasks under way (an announcement after a command is answered, a step after a
        finished game); :meth:`stop` cancels them.
    """

    def __init__(self, storage: Storage, config: Any, tables: TableHost,
                 clock: Callable[[], int] | None = None) -> None:
        self.storage = storage
        self.config = config
        self.tables = tables
        self.now = clock or wall_clock_ms
        self.time_scale = 1.0
        self.chores: set[asyncio.Task[Any]] = set()
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ locks and chores

    def lock(self, tid: int) -> asyncio.Lock:
        """Tournament *tid*'s lock: every change to it is made holding it."""
        return self._locks.setdefault(tid, asyncio.Lock())

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run *coro* after the caller is done (kept referenced; a refusal is expected, other errors logged)."""
        async def run() -> None:
            try:
                await coro
            except TournamentError:
                pass
            except Exception:
                log.exception("tournament chore failed")

        task = asyncio.get_running_loop().create_task(run())
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def stop(self) -> None:
        """|coro| Cancel the chores under way and wait for them to end."""
        for task in list(self.chores):
            task.cancel()
        await asyncio.gather(*self.chores, return_exceptions=True)

    # ------------------------------------------------------------------ reading

    async def state(self, tid: int) -> TournamentState:
        """|coro| Tournament *tid* with its entrants and rounds.

        Raises
        ------
        TournamentError
            No such tournament.
        """
        t = await self.tournament(tid)
        return TournamentState(t, await self.storage.entrants(tid), await self.storage.rounds(tid))

    async def tournament(self, tid: int) -> TournamentRow:
        """|coro| Tournament *tid*.

        Raises
        ------
        TournamentError
            No such tournament.
        """
        t = await self.storage.tournament(tid)
        if t is None:
            raise TournamentError(f"There is no tournament #{tid}.")
        return t

    async def match(self, tid: int, round_: int, number: int) -> MatchRow | None:
        """|coro| Match *number* (from 0) of round *round_* of tournament *tid*, as stored now, or ``None``."""
        for rnd in await self.storage.rounds(tid):
            for m in rnd.matches:
                if m.round == round_ and m.number == number:
                    return m
        return None

    async def find(self, guild_id: int | None, channel_id: int | None, tid: int | None) -> TournamentRow:
        """|coro| Tournament *tid* of this server, or (without one) the newest one of this channel, else of
        the server, preferring one that is not over.

        Raises
        ------
        TournamentError
            None found.
        """
        if tid is not None:
            t = await self.storage.tournament(tid)
            if t is None or t.guild_id != guild_id:
                raise TournamentError(f"There is no tournament #{tid} in this server.")
            return t
        rows = await self.storage.tournaments(guild_id=guild_id) if guild_id is not None else []
        for pick in ([r for r in rows if r.channel_id == channel_id and r.status in LIVE],
                     [r for r in rows if r.status in LIVE], [r for r in rows if r.channel_id == channel_id], rows):
            if pick:
                return pick[-1]
        raise TournamentError("There is no tournament here yet; `/tournament create` makes one.")

    # ------------------------------------------------------------------ the game, the rules

    def engine(self, kind: str) -> Any:
        """The engine class of game *kind* (registered with the table service).

        Raises
        ------
        KeyError
            No table for *kind*.
        """
        return self.tables.engines[kind][0]

    def lowest_wins(self, kind: str) -> bool:
        """Whether game *kind*'s scores are better when lower (``Engine.lowest_score_wins``, §6)."""
        return bool(self.engine(kind).lowest_score_wins)

    def minimum(self, t: TournamentRow) -> int:
        """The fewest players a table of *t* seats: the game's minimum (at least 2) at multiplayer
        tables (pods, an elimination with tables), else 2.
        """
        return max(2, int(self.engine(t.kind).min_players)) if multiplayer(t) else 2

    def no_show_ms(self) -> float:
        """How long a player has to show up at a match's table, in milliseconds (scaled)."""
        return float(self.config.no_show_minutes) * 60_000 * self.time_scale

    def late(self, m: MatchRow, now: int) -> bool:
        """Whether match *m*'s no-show time is over at *now* (Unix ms); never before its table opened."""
        return m.opened_at is not None and now >= m.opened_at + self.no_show_ms()

    def may_run(self, t: TournamentRow, actor: Actor) -> bool:
        """Whether *actor* runs *t*: its organizer, or a moderator stepping in."""
        return actor.user_id == t.organizer_id or actor.moderator

    def check_runs(self, t: TournamentRow, actor: Actor) -> None:
        """Refuse *actor* unless they run *t* (:meth:`may_run`).

        Raises
        ------
        TournamentError
            *actor* is neither the organizer nor a moderator.
        """
        if not self.may_run(t, actor):
            raise TournamentError("Only the organizer of this tournament (or a moderator) can do that.")
