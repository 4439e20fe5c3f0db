"""Moves, races and results: the one path every move takes, a person's or a bot's (``docs/tables.md``).

Check who may act, send contested moves through the race arbiter, apply to the engine, append to
the action log (committed), deliver private events, and record the result at the end. No Discord
here: a contested move's caller is told through *on_contest* that it waits for a race window.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Engine, Event, IllegalAction
from bot.engine.bots import Bot
from bot.tables import snapshots
from bot.tables.core import TableCore, now_ms
from bot.tables.race import Claim, Outcome, RaceArbiter
from bot.tables.table import PrivateNote, Table

__all__ = ["TablePlay"]

log = logging.getLogger("parlor.tables")

BEATEN_NAMED = 3
"""Players a race's winner is told it beat, by name (the closest first); the rest are counted."""


class TablePlay(TableCore):
    """Moves, races, results and seat hand-overs (a layer of the table service; see :mod:`bot.tables.core`)."""

    def _start_engine(self, table: Table, restored: tuple[Engine, dict[str, Bot]] | None = None) -> None:
        """Run *table*'s game: a new deal from the table's seed, or *restored* (an engine and its bots,
        as :meth:`_rebuild` gives them). The engine keeps no log: the database has it.
        """
        engine, bots = restored or self._rebuild(table, [])
        table.engine, table.bots = engine, {}
        table.status = "running"
        table.arbiter = RaceArbiter(table.settings.get("race_window_ms", self._cfg.race_window_ms),
                                    self._cfg.race_tie_ms, table.seed)
        table.last_event_ms["start"] = now_ms()
        table.timers.observe(table.engine.timed_rules(), now_ms())
        table.delivered = table.engine.action_count
        if restored is None:
            table.checkpoint_seq = 0
        if table.engine.action_count == 0:  # the deal's private events as notes (the bots saw theirs)
            self._deliver(table, table.engine.setup_events)
        table.bots = bots
        table.bump()

    def _make_bot(self, table: Table, player: str, name: str, seen: list[Event], salt: str = "") -> Bot:
        """A bot of kind *name* for seat *player* that has observed *seen* (what the seat was shown)."""
        bot: Bot = self._bots(table.kind)[name](player, random.Random(f"{table.seed}:{player}{salt}"))
        if seen:
            bot.observe(seen)
        return bot

    async def _new_bot(self, table: Table, player: str, name: str, salt: str = "") -> Bot:
        """|coro| A bot of kind *name* for seat *player* that has observed everything the seat was shown.

        Rebuilt from the stored log's private and public events (:meth:`Engine.seen_by`) up to the
        last action the table's bots have observed (:attr:`Table.delivered`), so a bot that takes over
        a seat knows exactly what that seat knew (``docs/tables.md``, "Bots"); the moves after that
        reach it as they reach every bot. The caller adds it to ``table.bots`` without awaiting
        anything in between.
        """
        engine_cls = self._engine_cls(table.kind)
        actions = await self.storage.action_log(table.id)
        while len(actions) < table.delivered:  # a move was stored and observed meanwhile
            actions = await self.storage.action_log(table.id)
        log_ = {"kind": engine_cls.kind, "seed": table.seed, "options": table.options,
                "players": [s.player_id for s in table.seats],
                "actions": [[player, action] for player, action in actions[:table.delivered]]}
        return self._make_bot(table, player, name, engine_cls.seen_by(log_, player), salt)

    def _rebuild(self, table: Table, actions: list[tuple[str, dict[str, Any]]],
                 checkpoint: bytes | None = None) -> tuple[Engine, dict[str, Bot]]:
        """The engine and bots of *table* after *actions*, applied from *checkpoint* (a snapshot,
        :func:`bot.tables.snapshots.take`, with the bots it holds) or else from the deal (with a bot
        for every bot seat). Bots observe what their seats see on the way. A bot seat the checkpoint
        does not hold (a bot took it over later) has no bot: rebuild from the deal for that.

        Raises
        ------
        IllegalAction, ValueError
            An action is refused, or the checkpoint cannot be read.
        """
        engine_cls = self._engine_cls(table.kind)
        if checkpoint is not None:
            engine, bots = snapshots.load(checkpoint)
        else:
            engine = engine_cls.new([s.player_id for s in table.seats], seed=table.seed, options=table.options,
                                    keep_log=False)
            known = self._bots(table.kind)
            bots = {s.player_id: self._make_bot(table, s.player_id, str(s.bot_name),
                                                [e for e in engine.setup_events if e.visible_to(s.player_id)])
                    for s in table.seats if s.bot_name in known}
        for player, action in actions:
            events = engine.apply(player, action)
            for who, bot in bots.items():
                visible = [e for e in events if e.visible_to(who)]
                if visible:
                    bot.observe(visible)
        return engine, bots

    async def _stored_engine(self, table: Table) -> Engine:
        """|coro| *table*'s engine as the database has it: its latest snapshot this code can read and
        the actions stored after it, else the whole log from the deal (``docs/tables.md``, "Restarts").

        Raises
        ------
        Exception
            The database cannot be read (whatever its driver raises), or the stored game does not
            replay (:class:`~bot.engine.IllegalAction`, :class:`ValueError`).
        """
        snap = await self.storage.snapshot(table.id)
        if snap is not None and snap.code == snapshots.code_version(self._engine_cls(table.kind)):
            return self._rebuild(table, await self.storage.action_log(table.id, after=snap.seq), snap.state)[0]
        return self._rebuild(table, await self.storage.action_log(table.id))[0]

    def _checkpoint(self, table: Table) -> None:
        """Snapshot *table*'s game after a move when :data:`~bot.tables.snapshots.SNAPSHOT_EVERY` moves
        have passed since the last one, and store it in the background (``docs/tables.md``, "Restarts").
        """
        engine = table.engine
        assert engine is not None
        if engine.action_count - table.checkpoint_seq >= snapshots.SNAPSHOT_EVERY and not engine.is_over:
            self._store_snapshot(table)

    def _store_snapshot(self, table: Table) -> None:
        """Take *table*'s snapshot now and store it by a task of its own."""
        row = self._snapshot(table)
        if row is not None:
            self._background(self.storage.save_snapshots([row]))

    def _snapshot(self, table: Table) -> tuple[int, int, str, bytes] | None:
        """Take *table*'s snapshot now as its checkpoint; the row to store (``Storage.save_snapshots``),
        or ``None`` when it cannot be pickled (a snapshot is an optimisation: the log still restores).
        """
        engine = table.engine
        assert engine is not None
        try:
            state = snapshots.take(engine, table.bots)
        except Exception:
            log.exception("could not snapshot table %s", table.id)
            return None
        table.checkpoint_seq = engine.action_count
        return table.id, engine.action_count, snapshots.code_version(type(engine)), state

    async def submit(self, table: Table, player: str, action: dict[str, Any], discord_ts_ms: int,
                     on_contest: Callable[[], Awaitable[Any]] | None = None) -> Outcome:
        """|coro|

        Submit one move for *player* (a human's click or a bot's), through the race arbiter when
        it is contested (then *on_contest* is awaited first, e.g. to defer a Discord answer).
        *discord_ts_ms* is the move's Discord timestamp (Unix ms), which orders a race. Returns its
        :class:`~bot.tables.race.Outcome` once applied or refused.
        """
        assert table.engine is not None and table.arbiter is not None
        resource = table.engine.contested_resource(player, action)
        if resource is None:
            async with table.lock:
                return await self._apply(table, player, action, discord_ts_ms)
        if on_contest is not None:
            await on_contest()
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        opened = table.arbiter.submit(Claim(resource, player, action, discord_ts_ms, future), now_ms())
        if opened:
            self._track(table, self._close_race_after(table, resource, table.arbiter.window_ms / 1000), "race")
        return await future

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
        async with table.lock:
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

    async def _apply(self, table: Table, player: str, action: dict[str, Any], discord_ts_ms: int | None) -> Outcome:
        """Apply, log (committed) and announce one move; the table lock is held."""
        engine = table.engine
        assert engine is not None
        if table.status != "running":
            return Outcome(False, "The game is over." if engine.is_over else "The table is not running.")
        wait = table.timers.wait_for(str(action.get("type")), now_ms())
        if wait is not None:  # a timed rule of the game holds this action back (docs/tables.md)
            return Outcome(False, wait.reason())
        try:
            events = engine.apply(player, action)
        except IllegalAction as exc:
            return Outcome(False, str(exc))
        try:
            await self.storage.append_action(table.id, engine.action_count, player, action,
                                                 discord_ts_ms=discord_ts_ms)
        except Exception:
            # Not committed, so it did not happen: the game is read back from the database, as a
            # restart would read it (the bots keep theirs).
            log.exception("could not store a move at table %s; it is undone", table.id)
            try:
                table.engine = await self._stored_engine(table)
            except Exception:
                log.exception("table %s: the game could not be read back either; the table pauses until a restart",
                              table.id)
                table.status = "paused"
                return Outcome(False, "That move could not be saved, and the game could not be read back: the "
                                      "table is paused until the bot restarts.")
            return Outcome(False, "That move could not be saved, so it did not happen. Please try again.")
        self._deliver(table, events)
        table.delivered = engine.action_count
        self._checkpoint(table)
        table.last_move_ms[player] = now_ms()
        ui = self.uis[table.kind]
        for event in events:
            if event.audience is None and event.type in ui.notice_events and (line := ui.notice(table, event)):
                self._track(table, self._say(table, line), "notice")
        table.timers.observe(engine.timed_rules(), now_ms())
        table.bump()
        if engine.is_over:
            await self._finish(table)
        return Outcome(True, events=events)

    async def _finish(self, table: Table) -> None:
        table.status = "finished"
        result = table.engine.result() if table.engine else None
        await self.storage.save_result(table.id, result.to_json() if result else {})
        log.info("table %s finished: %s in guild %s", table.id, table.kind, table.guild_id)
        for hook in self.finish_hooks:
            try:
                await hook(table.id)
            except Exception:  # a statistic must never take a finished game down
                log.exception("after-game hook %r failed for table %s", hook, table.id)

    def _deliver(self, table: Table, events: list[Event]) -> None:
        now = now_ms()
        for event in events:
            table.last_event_ms[event.type] = now
            if event.audience is None:
                table.public_events.append(event)
                continue
            for player in event.audience:
                ui = self.uis[table.kind]
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

    def _outcome_note(self, table: Table, outcome: Outcome, note: str = "") -> str:
        if outcome.accepted:
            lines = [note] if note else []
            if outcome.beat:
                lines.append(self._beat_line(table, outcome.beat))
            if outcome.beaten_by:  # played, but late: the race was somebody else's
                lines.append(f"⏱ Too late: {table.display_name(outcome.beaten_by)} got there first by "
                             f"{outcome.margin_ms} ms.")
            return "\n".join(lines)
        text = f"Refused: {outcome.reason}"
        if outcome.beaten_by:
            text += f" — {table.display_name(outcome.beaten_by)} got there first by {outcome.margin_ms} ms."
        return text

    @staticmethod
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

    async def _pass_host(self, table: Table) -> str:
        """Hand the host role to the first seated person (no one left: moderators only); returns a notice."""
        humans = [s for s in table.seats if not s.is_bot]
        table.host_id = humans[0].user_id if humans and humans[0].user_id is not None else 0
        await self.storage.update_game(table.id, host_id=table.host_id)
        return f" 👑 {humans[0].name} is now the host." if humans else " Only moderators run the table now."
