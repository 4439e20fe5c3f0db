"""Restarts, rematches and shutdown: every table survives the bot's restart (``docs/tables.md``, "Restarts").

A table's state in the database is its action log and, every few dozen moves, a snapshot of its
engine and bots (:mod:`bot.tables.snapshots`); :meth:`Restorer.restore` rebuilds each unfinished
table from its latest snapshot and the actions after it. No Discord here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable

from bot.engine import Engine, IllegalAction
from bot.engine.bots import Bot
from bot.storage import LiveGame
from bot.tables import snapshots
from bot.tables.core import Actor, now_ms, posted_ms
from bot.tables.loops import Loops
from bot.tables.moves import Moves
from bot.tables.registry import LIVE, TableRegistry
from bot.tables.table import Seat, Table, TableError, TableStatus

__all__ = ["Restorer"]

log = logging.getLogger("parlor.tables")

REPLAY_BEFORE_READY_S = 0.5
"""Seconds a start spends replaying whole logs before it goes online (:meth:`Restorer.restore`):
the tables left after that are replayed in the background, or at once when used."""

RESTORE_BATCH = 100
"""Stored tables read from the database at a time by a restart (their snapshots included)."""


class Restorer:
    """Restarts, rematches and shutdown (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process.
    moves, loops:
        What rebuilds and deals a game, and what runs its tasks.
    clock:
        Monotonic milliseconds (a restored table's idle clocks start afresh).
    """

    def __init__(self, registry: TableRegistry, moves: Moves, loops: Loops,
                 clock: Callable[[], float] = now_ms) -> None:
        self.registry = registry
        self.storage = registry.storage
        self.moves = moves
        self.loops = loops
        self.clock = clock
        # Running tables a restart left to replay later (table id to table, registered but without
        # an engine yet), and those being replayed (id to a future set when done): ``live``. At most
        # eight replay at once (a few logs in memory however many clicks wait), and the snapshots
        # they take are stored a batch at a time.
        self._unreplayed: dict[int, Table] = {}
        self._replaying: dict[int, asyncio.Future[None]] = {}
        self._replay_turn = asyncio.Semaphore(8)
        self._replayed_snapshots: list[tuple[int, int, str, bytes]] = []

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
        return self.registry.tables.get(table_id)

    async def replayed_in(self, channel_id: int | None) -> None:
        """|coro| Replay now any table left for later whose thread (or channel) is *channel_id*, so a
        slash command used there finds it ready (:meth:`TableRegistry.table_in
        <bot.tables.registry.TableRegistry.table_in>`).
        """
        tables = self.registry.tables
        for table_id in [i for i in (*self._unreplayed, *self._replaying)
                         if (t := tables.get(i)) is not None and t.thread_id == channel_id]:
            await self._replay(table_id, urgent=True)

    # ------------------------------------------------------------------ rematch

    async def rematch(self, table: Table, actor: Actor) -> tuple[Table, bool]:
        """|coro| Gather another game of finished *table* (lock held): the first player to press
        Rematch opens a new lobby in the same thread, with the same options, run by the same host,
        the presser and the table's bots seated; each other player who presses it takes a seat there;
        the host deals with **Start** (``docs/tables.md``, "Playing"). Returns the rematch's lobby and
        whether *actor* joined it (else it is new: the caller posts it and starts its expiry).

        Raises
        ------
        TableError
            The game still runs, it was a tournament match, *actor* neither played nor runs the
            table, *actor* already sits in the rematch, or the rematch has started, ended or is full.
        """
        if table.status != TableStatus.FINISHED:
            raise TableError("The game is still running.")
        if table.settings.get("tournament"):
            raise TableError("This was a tournament match: the tournament pairs the next one.")
        if not table.seat_of_user(actor.user_id) and not table.away_of(actor.user_id) \
                and not self.registry.is_host(table, actor):
            raise TableError("Only the players of this table can ask for a rematch.")
        if table.rematch_id is not None:
            return await self._join_rematch(table, actor), True
        seed = random.SystemRandom().randrange(2**31)
        settings = {**table.settings, "secret": secrets.token_hex(16)}
        game_id = await self.storage.create_game(table.kind, seed=seed, options=table.options,
                                                 guild_id=table.guild_id, channel_id=table.channel_id,
                                                 thread_id=table.thread_id, host_id=table.host_id or actor.user_id,
                                                 settings=settings)
        seats = [Seat(f"u{actor.user_id}", actor.user_id, None, actor.name)]
        # The table's own bots come along; a seat a bot took from a person stays that person's to claim.
        seats += [Seat(s.player_id, None, s.bot_name, s.name) for s in table.seats
                  if s.is_bot and s.player_id.startswith("bot")]
        new = Table(id=game_id, kind=table.kind, title=table.title, guild_id=table.guild_id,
                    channel_id=table.channel_id, thread_id=table.thread_id, host_id=table.host_id or actor.user_id,
                    options=table.options, seed=seed, min_players=table.min_players, max_players=table.max_players,
                    settings=settings, seats=seats[:table.max_players])
        table.rematch_id = game_id
        self.registry.tables[game_id] = new
        await self.registry.save_seats(new)
        return new, False

    async def _join_rematch(self, table: Table, actor: Actor) -> Table:
        """|coro| Seat *actor* at the rematch lobby of *table* (see :meth:`rematch`)."""
        assert table.rematch_id is not None
        new = self.registry.tables.get(table.rematch_id)
        if new is None or new.status != TableStatus.LOBBY:
            raise TableError(f"The rematch (table #{table.rematch_id}) has already started or ended.")
        if new.seat_of_user(actor.user_id):
            raise TableError(f"You are already in the rematch (table #{new.id}); the host deals with **Start**.")
        if len(new.seats) >= new.max_players:
            raise TableError(f"The rematch (table #{new.id}) is full.")
        new.seats.append(Seat(f"u{actor.user_id}", actor.user_id, None, actor.name))
        await self.registry.save_seats(new)
        new.version += 1
        return new

    async def restore(self) -> int:
        """|coro|

        Rebuild every unfinished table of a registered game from storage, re-arming its tasks and
        posting a "restored" notice; returns how many (``docs/tables.md``, "Restarts").

        A running table restores from its snapshot and the few actions after it. One whose snapshot
        this code cannot read (Parlor was updated since) replays its whole log: for the first
        :data:`REPLAY_BEFORE_READY_S` seconds here, and after that in the background once this
        returns (:meth:`live` replays a table at once when it is used before its turn comes), so
        a thousand such tables do not keep the bot offline.
        """
        restored = 0
        after = 0
        replay_until = time.monotonic() + REPLAY_BEFORE_READY_S
        while batch := await self.storage.live_games(*LIVE, after_id=after, limit=RESTORE_BATCH):
            after = batch[-1].game.id
            taken: list[tuple[int, int, str, bytes]] = []
            for live in batch:
                restored += await self._restore_one(live, taken, replay_until)
            del batch  # the snapshots' bytes go before the next batch is read
            if taken:  # a batch's new snapshots in one transaction, not one commit per table
                self.registry.background(self.storage.save_snapshots(taken))
        if self._unreplayed:
            log.info("%d table(s) replay their whole log in the background (their snapshots are from other code); "
                     "each one used before that is replayed at once", len(self._unreplayed))
            self.registry.background(self._replay_rest())
        return restored

    async def _restore_one(self, live: LiveGame, taken: list[tuple[int, int, str, bytes]],
                           replay_until: float) -> int:
        """|coro| Rebuild one stored table (see :meth:`restore`); 1 when it was restored (or left to
        replay later: after *replay_until*, a ``time.monotonic()`` in seconds), else 0. A snapshot taken
        on the way (after a long replay) is added to *taken* for the caller to store.
        """
        row = live.game
        if not self.registry.on_this_shard(row.guild_id):
            return 0
        if row.settings.get("tournament") and await self.storage.match_of_game(row.id) is None:
            # A tournament table no match points to: the bot stopped while opening it, before the
            # tournament linked it. The match opens again (a new table), so this one must not come
            # back holding its players' seats (docs/tournaments.md, Robustness).
            log.warning("table %s: a tournament table no match points to; it is ended", row.id)
            await self.storage.set_game_status(row.id, TableStatus.CANCELLED)
            return 0
        if row.kind not in self.registry.uis or row.id in self.registry.tables or row.thread_id is None:
            return 0
        engine_cls = self.registry.engine_cls(row.kind)
        seats = [Seat(s.player_id, s.user_id, s.bot_name,
                      s.name or (f"Bot ({s.bot_name})" if s.bot_name else f"<@{s.user_id}>"))
                 for s in live.seats]
        table = Table(id=row.id, kind=row.kind, title=engine_cls.title or row.kind, guild_id=row.guild_id,
                      channel_id=row.channel_id or row.thread_id, thread_id=row.thread_id,
                      host_id=row.host_id or 0, options=row.options, seed=row.seed,
                      min_players=engine_cls.min_players, max_players=engine_cls.max_players,
                      seats=seats, message_id=row.message_id, settings=row.settings,
                      message_posted_ms=posted_ms(row.message_id) if row.message_id else 0)
        self.registry.tables[row.id] = table
        if row.status != TableStatus.RUNNING:
            self.registry.track(table, self.loops.expire_lobby(table), "expiry")
            return 1
        snap = live.snapshot
        if (snap is None or snap.code != snapshots.code_version(engine_cls)) and time.monotonic() >= replay_until:
            table.status = TableStatus.RUNNING  # its seats count as taken; every way in waits for _replay
            self._unreplayed[row.id] = table
            return 1
        try:
            self.moves.start_engine(table, await self._load_game(table, live, taken))
        except (IllegalAction, ValueError):
            log.exception("table %s could not be replayed; it is cancelled", row.id)
            await self.registry.cancel(table)
            return 0
        await self._resume(table)
        return 1

    async def _resume(self, table: Table) -> None:
        """|coro| Set restored running *table* going again: its notice, its idle clocks from now, its tasks."""
        table.notice = "♻️ Restored after a restart — every accepted move is in place."
        table.last_move_ms = {s.player_id: self.clock() for s in table.seats}
        if table.engine is not None and table.engine.is_over:  # it ended just before the stop
            await self.moves.finish(table)
        self.loops.start_tasks(table)

    async def _replay(self, table_id: int, *, urgent: bool = False) -> None:
        """|coro| Replay table *table_id*'s whole log now if the restart left it for later, or wait
        for its replay under way (see :meth:`restore`). A few replay at a time; an *urgent* one (a
        slash command waiting, undeferred) goes at once. A log that does not replay cancels the
        table; any other error (the database) leaves it waiting, for its next use to try again, and
        propagates. Once the bot is shutting down nothing is replayed or started.
        """
        if self.registry.closing:
            return
        table = self._unreplayed.pop(table_id, None)
        if table is None:
            if (under_way := self._replaying.get(table_id)) is not None:
                await asyncio.shield(under_way)
            return
        if table.status != TableStatus.RUNNING or self.registry.tables.get(table_id) is not table:
            return  # ended meanwhile
        done = self._replaying[table_id] = asyncio.get_running_loop().create_future()
        try:
            async with contextlib.AsyncExitStack() as turn:
                if not urgent:  # a few logs in memory at a time, however many clicks wait
                    await turn.enter_async_context(self._replay_turn)
                taken: list[tuple[int, int, str, bytes]] = []  # (the batch list may be stored meanwhile)
                try:
                    self.moves.start_engine(table, await self._replay_log(table, taken))
                except (IllegalAction, ValueError):
                    log.exception("table %s could not be replayed; it is cancelled", table_id)
                    await self.registry.cancel(table)
                    return
                except BaseException:
                    self._unreplayed[table_id] = table
                    raise
            self._replayed_snapshots += taken
            if len(self._replayed_snapshots) >= RESTORE_BATCH or not self._unreplayed:
                self.registry.background(self.storage.save_snapshots(self._replayed_snapshots))
                self._replayed_snapshots = []
            if not self.registry.closing:  # shutdown stopped every table's tasks: start none now
                await self._resume(table)
        finally:
            del self._replaying[table_id]
            done.set_result(None)

    async def _replay_rest(self) -> None:
        """|coro| Replay, one at a time, every table the restart left for later (until shutdown)."""
        started, count = time.monotonic(), len(self._unreplayed)
        for table_id in list(self._unreplayed):
            if self.registry.closing:
                break
            try:
                await self._replay(table_id)
            except Exception:  # the database failed: that table waits for its next use to try again
                log.exception("table %s could not be replayed", table_id)
            await asyncio.sleep(0)  # clicks waiting go first
        log.info("replayed %d table(s) in the background in %.1f s", count, time.monotonic() - started)

    async def _load_game(self, table: Table, live: LiveGame,
                         taken: list[tuple[int, int, str, bytes]]) -> tuple[Engine, dict[str, Bot]]:
        """|coro| The engine and bots of running *table* as stored (*live*, from
        :meth:`~bot.storage.Storage.live_games`): its latest snapshot and the actions after it, or,
        without a snapshot this code can read, the whole log from the deal (``docs/tables.md``,
        "Restarts"). Sets the table's :attr:`~bot.tables.table.Table.checkpoint_seq`; a long replay is
        snapshotted at once (the row added to *taken*, for the caller to store), so the next restart
        is quick.

        Raises
        ------
        IllegalAction, ValueError
            The stored log does not replay.
        """
        engine_cls = self.registry.engine_cls(table.kind)
        snap = live.snapshot
        if snap is not None and snap.code == snapshots.code_version(engine_cls):
            tail = [(a.player_id, a.action) for a in live.tail]
            try:
                engine, bots = self.moves.games.rebuild(table, tail, snap.state)
            except (IllegalAction, ValueError):
                log.warning("table %s: its snapshot does not go on; replaying the whole log", table.id, exc_info=True)
            else:
                bot_seats = {s.player_id for s in table.seats if s.bot_name in self.registry.bots(table.kind)}
                if bot_seats <= set(bots):
                    table.checkpoint_seq = snap.seq
                    return engine, bots
        return await self._replay_log(table, taken)

    async def _replay_log(self, table: Table,
                          taken: list[tuple[int, int, str, bytes]]) -> tuple[Engine, dict[str, Bot]]:
        """|coro| The engine and bots of running *table* replayed from the deal through its whole
        stored log (see :meth:`_load_game`, whose *taken* this is).

        Raises
        ------
        IllegalAction, ValueError
            The stored log does not replay.
        """
        actions = await self.storage.action_log(table.id)
        engine, bots = self.moves.games.rebuild(table, actions)
        table.checkpoint_seq = 0
        if len(actions) >= snapshots.SNAPSHOT_EVERY and not engine.is_over:  # (a finished game keeps none)
            table.engine, table.bots = engine, bots
            if (row := self.moves.games.snapshot(table)) is not None:
                taken.append(row)
        return engine, bots

    async def shutdown(self) -> None:
        """|coro| Stop every table's tasks and wait for them (the state is already in storage), then
        snapshot every running table that moved since its last snapshot, so the next start replays
        nothing (``docs/tables.md``, "Restarts").

        Claims still waiting in a race window are refused, so no click is left unanswered.
        """
        self.registry.closing = True
        tasks = [task for table in self.registry.tables.values() for task in table.tasks]
        for table in self.registry.tables.values():
            self.registry.stop_tasks(table)
            self.registry.settle_claims(table, "The table is restarting; try again in a moment.")
        await asyncio.gather(*tasks, *self.registry.chores, return_exceptions=True)
        rows = [row for table in self.registry.tables.values()
                if table.status == TableStatus.RUNNING and table.engine is not None and not table.engine.is_over
                and table.engine.action_count > table.checkpoint_seq
                and (row := self.moves.games.snapshot(table)) is not None]
        rows[:0], self._replayed_snapshots = self._replayed_snapshots, []  # replays' snapshots not yet stored
        if rows:
            try:
                await self.storage.save_snapshots(rows)
            except Exception:
                log.exception("could not store the snapshots of %d table(s)", len(rows))
