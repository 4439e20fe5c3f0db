"""The one path every move takes: a person's click, a bot's, a timer's, an automatic move.

:meth:`Moves.submit` makes every decision about a move in one place (``docs/tables.md``, "Who may
do what" and "Playing"): whether the table runs, who the mover is and which seat they act for,
whether a table action is theirs to take, what a board's click means now, whether a timed rule
holds the action back, whether it races for a contested resource (the race window) or applies at
once; then it applies the move, commits it to the action log, delivers its private events and
records the result at the end. The Discord edge decodes a click and answers with the outcome; it
decides nothing. No Discord here: a contested move's caller is told through *on_contest*.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Action, Engine, Event, IllegalAction
from bot.engine.bots import Bot
from bot.tables import snapshots
from bot.tables.core import Actor, now_ms
from bot.tables.held import HeldMoves
from bot.tables.messenger import Messenger
from bot.tables.pictures import TablePictures
from bot.tables.race import Claim, Outcome, RaceArbiter
from bot.tables.rebuild import Rebuilder
from bot.tables.registry import TableRegistry
from bot.tables.table import PrivateNote, Table, TableError, TableStatus
from bot.tables.ui import Click

__all__ = ["Moves", "Mover", "Decode", "decide", "outcome_note", "BEATEN_NAMED"]

log = logging.getLogger("parlor.tables")

BEATEN_NAMED = 3
"""Players a race's winner is told it beat, by name (the closest first); the rest are counted."""

Mover = Actor | str
"""Who makes a move: a person (an :class:`~bot.tables.core.Actor`, whose seat and rights
:meth:`Moves.submit` checks) or the table itself acting for a seat, named by its player id (a bot,
a turn timer, an automatic move, a tournament ruling)."""

Decode = Callable[[Table, str], Click]
"""What a click means at the table now, for the player it acts for: read under the table lock, so a
move applied meanwhile cannot change what an index-based token stands for. Raises
:class:`~bot.tables.table.TableError` (shown as it is) for a stale or unreadable button."""


def outcome_note(table: Table, outcome: Outcome) -> str:
    """The line a move's *outcome* adds to its mover's board or answer: the click's own note, the
    race's result (whom the winner beat, by whom and how much a late claim was beaten), or the
    refusal ("Refused: …" for a rule the engine named; the table's own answers as they are).
    """
    if outcome.accepted:
        lines = [outcome.note] if outcome.note else []
        if outcome.beat:
            lines.append(_beat_line(table, outcome.beat))
        if outcome.beaten_by:  # played, but late: the race was somebody else's
            lines.append(f"⏱ Too late: {table.display_name(outcome.beaten_by)} got there first by "
                         f"{outcome.margin_ms} ms.")
        return "\n".join(lines)
    if outcome.plain:
        return "\n".join(x for x in (outcome.reason, outcome.note) if x)
    text = f"Refused: {outcome.reason}"
    if outcome.beaten_by:
        text += f" — {table.display_name(outcome.beaten_by)} got there first by {outcome.margin_ms} ms."
    return text


def _beat_line(table: Table, beat: list[tuple[str, int]]) -> str:
    """The winner's one line: each player beaten once, by their closest claim, the closest first;
    at most :data:`BEATEN_NAMED` named (a crowd of repeated clicks is counted, not listed).
    """
    closest: dict[str, int] = {}
    for loser, margin in beat:
        closest[loser] = min(margin, closest.get(loser, margin))
    order = sorted(closest.items(), key=lambda item: (item[1], item[0]))
    named = ", ".join(f"{table.display_name(p)} by {m} ms" for p, m in order[:BEATEN_NAMED])
    more = f" and {len(order) - BEATEN_NAMED} more" if len(order) > BEATEN_NAMED else ""
    return f"⚡ You got there first — ahead of {named}{more}."


def decide(table: Table, mover: Mover, action: Action | Decode) -> Outcome | tuple[str, Action, str]:
    """Who acts for which seat at *table*, and what: ``(player, action, the click's note)``, or the
    refusal (or the board step of a click that makes no move, a refused :class:`Outcome` with its
    selection). Pure: reads *table* and decides, changes nothing; :meth:`Moves.submit` calls it
    under the table lock (``docs/tables.md``, "Who may do what").
    """
    engine = table.engine
    if engine is None:
        return Outcome(False, "This table is not running any more.", plain=True)
    host = False
    if isinstance(mover, Actor):
        seat = table.seat_of_user(mover.user_id)
        host = TableRegistry.is_host(table, mover)
        if seat is not None and not seat.is_bot:
            player = seat.player_id
        elif host and table.seats:  # an unseated host or moderator acts for the table: any seat
            player = table.seats[0].player_id
        else:
            return Outcome(False, "You are not playing at this table; you can watch the table message.",
                           plain=True)
    else:
        player, seat = mover, None
    note = ""
    if callable(action):
        try:
            click = action(table, player)
        except TableError as exc:
            return Outcome(False, str(exc), plain=True)
        except (ValueError, KeyError, IndexError):  # a garbled token: answer, never raise
            log.warning("table %s: an unreadable button from %s", table.id, player)
            return Outcome(False, "That button is no longer valid — here is your fresh board.", plain=True)
        if click.action is None:
            return Outcome(False, plain=True, note=click.note, selection=click.selection)
        chosen, note = click.action, click.note
    else:
        chosen = action
    if isinstance(mover, Actor):
        table_action = chosen.get("type") in engine.table_actions
        if table_action and not host:  # the host's or the table's own moves, whatever button offered them
            return Outcome(False, "Only the host (or a moderator) can do that.", plain=True)
        if not table_action and (seat is None or seat.is_bot):
            return Outcome(False, "You are not playing at this table; only table actions are yours.",
                           plain=True)
    return player, chosen, note


class Moves:
    """Moves, races, results and the engines behind them (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process.
    games:
        What rebuilds a table's game from the database (a move that could not be stored is undone so).
    messenger:
        Where a move's public notices are posted.
    clock:
        Monotonic milliseconds (timed rules, race windows, private notes' expiry).

    Attributes
    ----------
    finish_hooks:
        Called with a game's id once its result is stored (ratings and tournaments register here).
    """

    def __init__(self, registry: TableRegistry, games: Rebuilder, messenger: Messenger,
                 clock: Callable[[], float] = now_ms) -> None:
        self.registry = registry
        self.games = games
        self.storage = registry.storage
        self.messenger = messenger
        self.clock = clock
        self.held = HeldMoves(registry, self.submit)
        """People's moves a timed rule holds back, each made when the rule allows it."""
        self.finish_hooks: list[Callable[[int], Awaitable[Any]]] = []
        self.pictures = TablePictures(registry, messenger)
        """The moments' pictures, read after each committed move and drawn off the click path."""

    # ------------------------------------------------------------------ the one path

    async def submit(self, table: Table, mover: Mover, action: Action | Decode, discord_ts_ms: int, *,
                     on_contest: Callable[[], Awaitable[Any]] | None = None) -> Outcome:
        """|coro|

        Submit one move at *table* and return its :class:`~bot.tables.race.Outcome` once it is
        applied or refused (``docs/tables.md``, "Who may do what"; ``docs/design.md`` §4).

        Parameters
        ----------
        mover:
            A person (:class:`~bot.tables.core.Actor`): they act for their seat; a host or moderator
            without one takes only table actions, for the table. Or a seat's player id: the table
            itself acts for that seat (a bot, a timer, an automatic move), trusted.
        action:
            The engine action, or a :data:`Decode` that reads a click's meaning under the table
            lock (a click that only changes the board is answered with its selection, no move).
        discord_ts_ms:
            The move's Discord timestamp (Unix ms), which orders a race.
        on_contest:
            Awaited before a contested move waits for its race window (e.g. to defer a Discord answer).

        Returns
        -------
        Outcome
            Accepted with the move's events, or refused with a reason a player can read; the state
            is untouched by a refusal. A person's move that a timed rule holds back is held
            (:class:`~bot.tables.held.HeldMoves`) and made when the rule allows it: its outcome is
            not accepted yet, and its note says when. Never raises for a refusal.
        """
        person = mover if isinstance(mover, Actor) else None
        async with table.lock:
            decided = decide(table, mover, action)
            if isinstance(decided, Outcome):
                return decided
            player, chosen, note = decided
            if person is not None:
                own = table.seat_of_user(person.user_id) is not None  # else a host or moderator, for the table
                key = player if own else f"host:{person.user_id}"
                if own:
                    table.timeouts.pop(player, None)  # a person who moves is back: their missed turns start afresh
                self.held.drop(table, key)  # a newer move replaces one held back
                wait = table.timers.wait_for(str(chosen.get("type")), self.clock())
                if wait is not None:  # quick is never wrong: made when the game's timed rule allows it
                    return self.held.hold(table, person, key, chosen, wait)
            assert table.engine is not None and table.arbiter is not None
            resource = table.engine.contested_resource(player, chosen)
            if resource is None:
                outcome = await self._apply(table, player, chosen, discord_ts_ms)
                outcome.note = note
                return outcome
            future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        if on_contest is not None:
            await on_contest()
        if table.arbiter.submit(Claim(resource, player, chosen, discord_ts_ms, future), self.clock()):
            self.registry.track(table, self._close_race_after(table, resource, table.arbiter.window_ms / 1000),
                                "race")
        outcome = await future
        outcome.note = note
        return outcome

    async def _close_race_after(self, table: Table, resource: str, delay_s: float) -> None:
        await asyncio.sleep(delay_s)
        await self._close_race(table, resource)

    async def _close_race(self, table: Table, resource: str) -> None:
        """Apply the claims of *resource*'s window in Discord-timestamp order (``docs/design.md`` §4).

        The first accepted claim wins the race. Every later claim lost it, whether the engine refuses
        it or accepts it as a late move (aggressive Dutch's right jump-in that came too late,
        ``docs/rules/dutch.md`` §7.6): its player is told who was first and by how many ms, and the
        winner whom they beat. Claimants are answered once the whole window is applied, so the
        winner's answer names everyone it beat.
        """
        assert table.arbiter is not None
        claims = table.arbiter.close(resource)
        winner: Claim | None = None
        winner_outcome = Outcome(False)
        decided: list[tuple[Claim, Outcome]] = []
        try:
            await table.lock.acquire()
        except asyncio.CancelledError:  # the table ended while this window waited its turn: say so
            for claim in claims:
                if not claim.payload.done():
                    claim.payload.set_result(Outcome(False, "The table was ended."))
            raise
        try:
            for claim in claims:
                try:
                    outcome = await self._apply(table, claim.player, claim.action, claim.discord_ts_ms)
                except Exception as exc:  # never leave a claimant waiting
                    log.exception("race on %s at table %s failed", resource, table.id)
                    if not claim.payload.done():
                        claim.payload.set_exception(exc)
                    continue
                if outcome.accepted and winner is None:
                    winner, winner_outcome = claim, outcome
                elif winner is not None and claim.player != winner.player:  # not the winner's own extra clicks
                    outcome.beaten_by = winner.player
                    outcome.margin_ms = claim.discord_ts_ms - winner.discord_ts_ms
                    winner_outcome.beat.append((claim.player, outcome.margin_ms))
                decided.append((claim, outcome))
            for claim, outcome in decided:
                if not claim.payload.done():
                    claim.payload.set_result(outcome)
        finally:
            table.lock.release()
            answered = {id(claim): outcome for claim, outcome in decided}
            for claim in claims:  # cut short midway (the table ended): nobody is left waiting
                if not claim.payload.done():
                    claim.payload.set_result(answered.get(id(claim), Outcome(False, "The table was ended.")))

    async def _apply(self, table: Table, player: str, action: Action, discord_ts_ms: int | None) -> Outcome:
        """Apply, log (committed) and announce one move; the table lock is held."""
        engine = table.engine
        assert engine is not None
        if table.status != TableStatus.RUNNING:
            return Outcome(False, "The game is over." if engine.is_over else "The table is not running.")
        wait = table.timers.wait_for(str(action.get("type")), self.clock())
        if wait is not None:  # a timed rule of the game holds this action back (docs/tables.md)
            return Outcome(False, wait.reason())
        try:
            events = engine.apply(player, action)
        except IllegalAction as exc:
            return Outcome(False, str(exc))
        ui = self.registry.uis[table.kind]
        # The move's public notices are stored with it, in the same commit (docs/design.md §3, "The outbox").
        notices = [notice for event in events
                   if event.audience is None and event.type in ui.notice_events and (line := ui.notice(table, event))
                   and (notice := self.messenger.notice(table, line)) is not None]
        try:
            await self.storage.append_action(table.id, engine.action_count, player, action,
                                             discord_ts_ms=discord_ts_ms, notices=notices)
        except Exception:
            # Not committed, so it did not happen: the game is read back from the database, as a
            # restart would read it (the bots keep theirs).
            log.exception("could not store a move at table %s; it is undone", table.id)
            try:
                table.engine = await self.games.stored_engine(table)
            except Exception:
                log.exception("table %s: the game could not be read back either; the table pauses until a restart",
                              table.id)
                table.status = TableStatus.PAUSED
                return Outcome(False, "That move could not be saved, and the game could not be read back: the "
                                      "table is paused until the bot restarts.")
            return Outcome(False, "That move could not be saved, so it did not happen. Please try again.")
        self.deliver(table, events)
        table.told.append((player, tuple(e for e in events if e.audience is None)))
        table.delivered = engine.action_count
        self._checkpoint(table)
        table.last_move_ms[player] = self.clock()
        self.pictures.observe(table, events)
        table.timers.observe(engine.timed_rules(), self.clock())
        table.bump()
        if engine.is_over:
            await self.finish(table)
        return Outcome(True, events=events)

    async def finish(self, table: Table) -> None:
        """|coro| *table*'s game ended: store its result and tell the :attr:`finish_hooks`. The table is
        finished (its Rematch, ``/table log`` in its thread) once its result is stored.
        """
        result = table.engine.result() if table.engine else None
        try:
            await self.storage.save_result(table.id, result.to_json() if result else {})
        finally:
            table.status = TableStatus.FINISHED
        log.info("table %s finished: %s in guild %s", table.id, table.kind, table.guild_id)
        for hook in self.finish_hooks:
            try:
                await hook(table.id)
            except Exception:  # a statistic must never take a finished game down
                log.exception("after-game hook %r failed for table %s", hook, table.id)

    def deliver(self, table: Table, events: list[Event]) -> None:
        """Hand *events* to whoever may see them: public ones to the table's story, private ones as
        notes on their players' boards (``GameUI.private_note``), and each to the bots of the seats
        that see it.
        """
        now = self.clock()
        ui = self.registry.uis[table.kind]
        for event in events:
            table.last_event_ms[event.type] = now
            if event.audience is None:
                table.public_events.append(event)
                continue
            for player in event.audience:
                note = ui.private_note(table, player, event)
                if note:
                    seconds = ui.private_note_seconds(table, player, event)
                    until = None if seconds is None else now + seconds * 1000
                    notes = table.private_notes.setdefault(player, [])
                    notes.append(PrivateNote(note[:300], until))
                    del notes[:-5]
        for player, bot in table.bots.items():
            visible = [e for e in events if e.visible_to(player)]
            if visible:
                bot.observe(visible)

    # ------------------------------------------------------------------ the game at the table

    def start_engine(self, table: Table, restored: tuple[Engine, dict[str, Bot]] | None = None) -> None:
        """Run *table*'s game: a new deal from the table's seed, or *restored* (an engine and its bots,
        as :meth:`~bot.tables.rebuild.Rebuilder.rebuild` gives them). The engine keeps no log: the
        database has it.
        """
        engine, bots = restored or self.games.rebuild(table, [])
        cfg = self.registry.server.tables(table.guild_id)
        arbiter = RaceArbiter(table.settings.get("race_window_ms", cfg.race_window_ms), cfg.race_tie_ms, table.seed)
        table.engine, table.bots, table.arbiter = engine, {}, arbiter  # all built: only now does it run
        table.status = TableStatus.RUNNING
        table.last_event_ms["start"] = self.clock()
        table.timers.observe(table.engine.timed_rules(), self.clock())
        table.delivered = table.engine.action_count
        if restored is None:
            table.checkpoint_seq = 0
        if table.engine.action_count == 0:  # the deal's private events as notes (the bots saw theirs)
            self.deliver(table, table.engine.setup_events)
        table.bots = bots
        table.bump()

    def _checkpoint(self, table: Table) -> None:
        """Snapshot *table*'s game after a move when :data:`~bot.tables.snapshots.SNAPSHOT_EVERY` moves
        have passed since the last one, and store it in the background (``docs/tables.md``, "Restarts").
        """
        engine = table.engine
        assert engine is not None
        if engine.action_count - table.checkpoint_seq >= snapshots.SNAPSHOT_EVERY and not engine.is_over:
            row = self.games.snapshot(table)
            if row is not None:
                self.registry.background(self.storage.save_snapshots([row]))
