"""The table's background work: bots, turn timers, idle people, Ready between hands, lobby expiry.

Each is a task of its table (``docs/tables.md``, "Playing"); durations come from ``[tables]`` in
seconds times ``timer_scale``. Every move they make goes through :meth:`Moves.submit
<bot.tables.moves.Moves.submit>`. No Discord here: warnings go through the
:class:`~bot.tables.messenger.Messenger`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.engine import TURNS, Action
from bot.engine.bots import Bot
from bot.tables.core import bot_speed_factor, now_ms, wait_event, wall_ms
from bot.tables.messenger import Messenger
from bot.tables.moves import Decode, Moves
from bot.tables.registry import TableRegistry
from bot.tables.table import Seat, Table, TableError, TableStatus
from bot.tables.text import fit_text
from bot.tables.ui import Click, GameUI

__all__ = ["Loops"]

log = logging.getLogger("parlor.tables")

TIMEOUT_MOVES_MAX = 8
"""The most moves one timeout makes for a player (a whole turn is two or three)."""

RECENTLY_MS = 10_000
"""A person who moved this recently (ms) is at the table: their turn starting pings nobody."""


REPLACEMENT_STRENGTH = "hard"
"""The strength of the bot that takes a seat a person left or timed out of: the hard one, which
knows everything the seat was shown (``docs/tables.md``, "Bots"); a bot a host adds is ``normal``
by default."""


class Loops:
    """Bots, timers, idle people, expiry and seats handed to bots (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process (its ``timer_scale`` and ``bot_delay_scale`` apply).
    moves:
        The one path of every move.
    messenger:
        Where warnings and notices are posted; its :meth:`~bot.tables.messenger.Messenger.watch`
        tasks run with a table's own.
    clock:
        Monotonic milliseconds (idle clocks).
    """

    def __init__(self, registry: TableRegistry, moves: Moves, messenger: Messenger,
                 clock: Callable[[], float] = now_ms) -> None:
        self.registry = registry
        self.moves = moves
        self.messenger = messenger
        self.clock = clock

    def start_tasks(self, table: Table) -> None:
        """Start running *table*'s tasks: its messages' watchers, its bots, its turn timer or idle
        watch, its story's reveal and its people's automatic moves.
        """
        loop = asyncio.get_running_loop()
        self.moves.pictures.prepare(table.kind)
        for i, watcher in enumerate(self.messenger.watch(table)):
            table.tasks.append(loop.create_task(watcher, name=f"table-{table.id}-watch{i}"))
        for player in table.bots:
            table.tasks.append(loop.create_task(self._bot_loop(table, player), name=f"table-{table.id}-{player}"))
        if self.registry.engine_cls(table.kind).play_mode == TURNS:
            table.tasks.append(loop.create_task(self._timer_loop(table), name=f"table-{table.id}-timer"))
        else:
            table.tasks.append(loop.create_task(self._idle_loop(table), name=f"table-{table.id}-idle"))
        ui = self.registry.uis[table.kind]
        if ui.reveal_ms > 0:
            table.revealed = ui.story_steps(table)  # a story already there (a restore) shows whole
            table.tasks.append(loop.create_task(self._reveal_loop(table), name=f"table-{table.id}-reveal"))
        for seat in table.seats:
            if not seat.is_bot:
                self.start_person(table, seat.player_id)
        table.dirty.set()

    def start_person(self, table: Table, player: str) -> None:
        """Start the tasks of the person at seat *player* (the game UI's automatic moves, if it has any):
        at the deal, or when the person takes their seat back from a bot.
        """
        if type(self.registry.uis[table.kind]).auto_action is not GameUI.auto_action:
            self.registry.track(table, self._auto_loop(table, player), f"auto-{player}")

    async def _reveal_loop(self, table: Table) -> None:
        """Tell the public story step by step (``GameUI.story_steps``): one more step every ``reveal_ms``.

        Each step only marks the table message for a redraw, so the edits stay coalesced
        (``redraw_interval_ms``); durations are times :attr:`timer_scale`.
        """
        ui = self.registry.uis[table.kind]
        while table.status == TableStatus.RUNNING and table.engine is not None:
            changed = table.changed
            key, steps = ui.story_steps(table)
            told = ui.shown_steps(table)
            table.revealed = (key, told)
            if told >= steps:
                await changed.wait()
                continue
            await asyncio.sleep(max(0.01, ui.reveal_ms * self.registry.timer_scale / 1000))
            key, steps = ui.story_steps(table)
            if table.revealed[0] == key:
                table.revealed = (key, min(steps, table.revealed[1] + 1))
                table.dirty.set()

    async def _auto_loop(self, table: Table, player: str) -> None:
        """Make the game UI's automatic moves for the person *player* (``GameUI.auto_action``).

        Each waits until the public story is told, then one more step's pause; it goes through
        :meth:`submit` like a click. The loop ends when a bot takes the seat.
        """
        ui = self.registry.uis[table.kind]
        pause = max(0.05, ui.reveal_ms * self.registry.timer_scale / 1000)
        while table.status == TableStatus.RUNNING and table.engine is not None:
            seat = table.seat_of_player(player)
            if seat is None or seat.is_bot:
                return
            changed = table.changed
            try:
                action = ui.auto_action(table, player)
                if action is None:
                    await changed.wait()
                    continue
                told = ui.shown_steps(table) >= ui.story_steps(table)[1]
                wait = table.timers.wait_for(str(action.get("type")), self.clock())
                await asyncio.sleep(pause + (wait.left_ms / 1000 if wait is not None else 0.0))  # a timed rule
                if (not told or table.status != TableStatus.RUNNING or ui.auto_action(table, player) != action
                        or ui.shown_steps(table) < ui.story_steps(table)[1]):
                    continue
                await self.moves.submit(table, player, action, wall_ms())
            except Exception:  # an automatic move must never take the table down
                log.exception("automatic move of %s at table %s failed", player, table.id)
                await asyncio.sleep(1)

    async def _bot_loop(self, table: Table, player: str) -> None:
        bot = table.bots[player]
        while table.status == TableStatus.RUNNING and table.engine is not None and table.bots.get(player) is bot:
            changed = table.changed
            try:
                legal = [a for a in table.engine.legal_actions(player) if a["type"] not in table.engine.table_actions]
                legal = self.registry.uis[table.kind].bot_actions(table, player, legal)
                choice = bot.choose(table.engine.view(player), legal) if legal else None
                if choice is None:
                    await changed.wait()
                    continue
                scale = bot_speed_factor(table.settings) * self.registry.bot_delay_scale
                await asyncio.sleep(bot.delay_ms() * scale / 1000)
                if table.status != TableStatus.RUNNING or table.bots.get(player) is not bot:
                    return  # the game ended, or the seat's person took it back
                await self.moves.submit(table, player, self._while_bot(bot, player, choice), wall_ms())
            except Exception:  # a bot must never take the table down, nor stop for good
                log.exception("bot %s at table %s failed", player, table.id)
                await asyncio.sleep(1)

    @staticmethod
    def _while_bot(bot: Bot, player: str, choice: Action) -> Decode:
        """*choice*, made only while *bot* still plays seat *player* (read under the table lock, as
        :meth:`Moves.submit <bot.tables.moves.Moves.submit>` decides): a person who took the seat back
        meanwhile is not played for.
        """
        def decode(table: Table, _player: str) -> Click:
            if table.bots.get(player) is not bot:
                raise TableError("this seat is no longer the bot's")
            return Click(choice)
        return decode

    async def _timer_loop(self, table: Table) -> None:
        """Turn timers: warn, then play the rest of the turn (:meth:`_time_out`), then after N missed
        turns in a row seat a bot.

        Guarded by the state version: any change restarts the timer, so a stale timer never fires
        on a new turn. Durations come from the server's settings, else ``[tables]`` (seconds), times
        :attr:`timer_scale` (``docs/tables.md``, "Server settings").
        """
        was_waiting: set[str] = set()
        while table.status == TableStatus.RUNNING and table.engine is not None:
            cfg = self.registry.server.tables(table.guild_id)  # the server's times, read afresh for each wait
            changed, version = table.changed, table.version
            engine = table.engine
            waiting = [s for s in table.seats if not s.is_bot and engine.timeout_action(s.player_id) is not None]
            await self._turn_pings(table, [s for s in waiting if s.player_id not in was_waiting])
            was_waiting = {s.player_id for s in waiting}
            if not waiting:
                await changed.wait()
                continue
            phases = [(cfg.turn_timeout_seconds - cfg.turn_warning_seconds, True), (cfg.turn_warning_seconds, False)]
            moved = False
            for seconds, warn_after in phases:
                if await wait_event(changed, max(0.0, seconds * self.registry.timer_scale)):
                    moved = True
                    break
                if warn_after and cfg.turn_warning_seconds > 0:
                    people = [s.user_id for s in waiting if s.user_id is not None]
                    await self.messenger.say(table, " ".join(f"<@{u}>" for u in people)
                                             + f" ⏰ {cfg.turn_warning_seconds} s left before the table moves for you.",
                                             pings=await self.registry.pingable(table, people))
            if moved:
                continue
            for seat in waiting:
                if table.version != version or table.status != TableStatus.RUNNING:
                    break
                if await self._time_out(table, seat.player_id):
                    table.timeouts[seat.player_id] = table.timeouts.get(seat.player_id, 0) + 1
                    if table.timeouts[seat.player_id] >= cfg.timeouts_before_bot:
                        async with table.lock:  # no move, and no person taking the seat back, meanwhile
                            if table.status == TableStatus.RUNNING and not seat.is_bot:
                                await self.replace_with_bot(table, seat, "timed out too often", returnable=True)

    async def _turn_pings(self, table: Table, starting: list[Seat]) -> None:
        """|coro| Mention once each person of *starting* (whose turn, or their part of the table's
        wait, just began) in the thread, pinging only them, unless they moved in the last
        :data:`RECENTLY_MS` or turned the tables' pings off (``docs/tables.md``, "Playing").
        """
        now = self.clock()
        ui = self.registry.uis[table.kind]
        starting = [s for s in starting if ui.auto_action(table, s.player_id) is None]  # made for them: no ping
        dealt = table.last_event_ms.get("start", float("-inf"))  # no move yet: they sat down at the deal
        away = [s for s in starting if s.user_id is not None
                and now - table.last_move_ms.get(s.player_id, dealt) >= RECENTLY_MS * self.registry.timer_scale]
        for seat in away:
            assert seat.user_id is not None
            pings = await self.registry.pingable(table, [seat.user_id])
            if pings:
                self.registry.track(table, self.messenger.say(
                    table, f"<@{seat.user_id}> ▶ the table waits for you (table #{table.id}).", pings=pings),
                    f"turn-{seat.player_id}")

    async def _time_out(self, table: Table, player: str) -> bool:
        """|coro| *player*'s timer ran out: make the game's timeout moves for them, the whole turn.

        The first is the engine's ``timeout_action``; after it the table goes on with the player's
        next timeout move while that one's type is in the engine's ``timeout_continues`` (the steps
        of the same turn: Dutch's discard after the draw and a skipped power, Blitz's discard), so
        one timeout is one missed turn (``docs/tables.md``, "Turn timers"). A move that begins
        something new (a draw, the opening look, the next round) waits for a timer of its own.
        Returns whether any move was made.
        """
        engine = table.engine
        assert engine is not None
        continues = type(engine).timeout_continues
        made = 0
        while table.status == TableStatus.RUNNING and table.engine is engine and made < TIMEOUT_MOVES_MAX:
            action = engine.timeout_action(player)
            if action is None or (made and action.get("type") not in continues):
                break
            outcome = await self.moves.submit(table, player, action, wall_ms())
            if not outcome.accepted:
                break
            made += 1
        return made > 0

    async def _idle_loop(self, table: Table) -> None:
        """Real-time games: warn an idle person, then seat a bot; make the not-ready ready between hands.

        Durations come from the server's settings, else ``[tables]`` (``idle_seconds``, ``idle_warning_seconds``,
        ``ready_timeout_seconds``, seconds) times :attr:`timer_scale` (``docs/tables.md``).
        """
        scale = self.registry.timer_scale
        warned: set[str] = set()
        between_since: float | None = None
        while table.status == TableStatus.RUNNING and table.engine is not None:
            cfg = self.registry.server.tables(table.guild_id)  # the server's times, else the config's
            await asyncio.sleep(max(0.02, min(1.0, cfg.idle_warning_seconds * scale / 3 or 1.0)))
            engine, now = table.engine, self.clock()
            humans = [s for s in table.seats if not s.is_bot]
            waiting_ready = [s for s in humans if engine.timeout_action(s.player_id) == {"type": "ready"}]
            if waiting_ready:
                if between_since is None:  # the hand just ended: those away hear the table waits for Ready
                    await self._turn_pings(table, waiting_ready)
                for seat in humans:  # between hands nobody idles; the next hand starts everyone afresh
                    table.last_move_ms[seat.player_id] = now
                between_since = between_since or now
                if now - between_since >= cfg.ready_timeout_seconds * 1000 * scale:
                    for seat in waiting_ready:
                        await self.moves.submit(table, seat.player_id, {"type": "ready"}, wall_ms())
                    between_since = None
                continue
            between_since = None
            for seat in humans:
                if not [a for a in engine.legal_actions(seat.player_id) if a["type"] not in engine.table_actions]:
                    table.last_move_ms[seat.player_id] = now  # nothing to do is not idling
                    continue
                idle = now - table.last_move_ms.setdefault(seat.player_id, now)
                if idle >= cfg.idle_seconds * 1000 * scale:
                    warned.discard(seat.player_id)
                    async with table.lock:
                        if table.status == TableStatus.RUNNING and not seat.is_bot:
                            await self.replace_with_bot(table, seat, "idle", returnable=True)
                elif (idle >= (cfg.idle_seconds - cfg.idle_warning_seconds) * 1000 * scale
                      and seat.player_id not in warned and cfg.idle_warning_seconds > 0):
                    warned.add(seat.player_id)
                    warning = (f"<@{seat.user_id}> ⏰ no move for a while: a bot takes your seat in "
                               f"{cfg.idle_warning_seconds} s.")
                    pings = await self.registry.pingable(table, [seat.user_id] if seat.user_id is not None else [])
                    self.registry.track(table, self.messenger.say(table, warning, pings=pings), "idle-warning")

    async def expire_lobby(self, table: Table) -> None:
        """Close a lobby that never started after ``lobby_expiry_minutes`` (``docs/tables.md``)."""
        await asyncio.sleep(self.registry.config.lobby_expiry_minutes * 60 * self.registry.timer_scale)
        current = asyncio.current_task()
        if current in table.tasks:  # cancelling the table's tasks below must not cancel this one
            table.tasks.remove(current)
        async with table.lock:
            if table.status != TableStatus.LOBBY or self.registry.tables.get(table.id) is not table:
                return
            await self.registry.cancel(table, "The lobby expired.")
        log.info("table %s: lobby expired", table.id)
        if table.message_id is not None:
            await self.messenger.mark_ended(table, fit_text(f"⌛ This lobby expired: nobody started it within "
                                                   f"{self.registry.config.lobby_expiry_minutes} minutes.\n"
                                                   f"{self.registry.lobby_text(table)}"))

    async def replace_with_bot(self, table: Table, seat: Seat, why: str, *, returnable: bool = False) -> bool:
        """Hand *seat* to the game's bot of :data:`REPLACEMENT_STRENGTH` (the player id stays, so the game goes on).

        With *returnable* (the person missed turns or idled; not one who left or was removed), the
        person gets the seat back by opening their board (:meth:`Lobby.take_back
        <bot.tables.lobby.Lobby.take_back>`). Returns ``False`` when the game has no bots (nothing
        changes). The notice is posted by a task of its own, so no caller holding the table lock
        waits on Discord.
        """
        bots = self.registry.bots(table.kind)
        if not bots or seat.is_bot:
            return False
        name = self.registry.bot_for(table.kind, REPLACEMENT_STRENGTH)
        who = seat.name
        was_host = seat.user_id == table.host_id
        seat.away = (seat.user_id, who) if returnable and seat.user_id is not None else None
        seat.bot_name, seat.user_id, seat.name = name, None, f"{who} (bot)"
        host_note = await self.pass_host(table) if was_host else ""  # the host left or timed out
        await self.registry.save_seats(table)
        table.bots[seat.player_id] = await self.moves.games.new_bot(table, seat.player_id, name, ":replacement")
        self.registry.track(table, self._bot_loop(table, seat.player_id), seat.player_id)
        back = f" {who}: press **{self.registry.uis[table.kind].board_label}** to take it back." if seat.away else ""
        table.notice = f"🤖 A bot took over {who}'s seat ({why}).{host_note}{back}"
        table.dirty.set()
        self.registry.track(table, self.messenger.say(table, table.notice), "notice")
        if table.status == TableStatus.RUNNING and not any(not s.is_bot for s in table.seats):
            self.registry.background(self._abandon(table))
        return True

    async def _abandon(self, table: Table) -> None:
        """A running table with no person left ends itself (``docs/tables.md``)."""
        async with table.lock:
            if table.status != TableStatus.RUNNING or any(not s.is_bot for s in table.seats):
                return
            await self.registry.cancel(table, "The table ended: no players were left.")
            text = self.registry.public_text(table)
        log.info("table %s ended: no players left", table.id)
        if table.message_id is not None:
            ended = fit_text(f"⛔ This table ended itself: no players were left.\n{text}")
            await self.messenger.mark_ended(table, ended)

    async def pass_host(self, table: Table) -> str:
        """|coro| Hand the host role to the first seated person (no one left: moderators only); returns a notice."""
        humans = [s for s in table.seats if not s.is_bot]
        table.host_id = humans[0].user_id if humans and humans[0].user_id is not None else 0
        await self.registry.storage.set_game_host(table.id, table.host_id)
        return f" 👑 {humans[0].name} is now the host." if humans else " Only moderators run the table now."
