"""Rounds that run themselves: the one step that moves a tournament on, pairing, tables, the end.

:meth:`Scheduler.step` is the one path that moves a tournament on (``docs/tournaments.md`` §10): it
opens the check-in and starts a timed tournament when due, opens the tables of pending matches,
records finished games and marks broken tables (:class:`~bot.tournaments.results.Results`), rules
no-shows (:class:`~bot.tournaments.noshow.NoShowWatch`), and pairs or seats the next round when the
current one is complete, or ends the tournament after the last. It runs on every finished game,
on every command and once per tick, so nothing is lost across a restart: the state is the storage.

The next round is computed by :func:`next_matches` in a worker thread (pods seating can take most
of a second), so the event loop keeps answering every table's clicks meanwhile; each round has its
own generator seeded from the tournament's seed and the round number, so a restored tournament
pairs exactly as it would have.
"""

from __future__ import annotations

import asyncio
import logging
from random import Random
from typing import Any

from bot.storage import MatchRow
from bot.tournaments import elimination, pods, swiss
from bot.tournaments.announcements import Announcements
from bot.tournaments.core import TournamentCore, TournamentError
from bot.tournaments.model import Match, Result
from bot.tournaments.noshow import NoShowWatch
from bot.tournaments.pictures import bracket_moment, standings_moment
from bot.tournaments.registration import Registration
from bot.tournaments.results import Results
from bot.tournaments.state import TournamentState, multiplayer, plural, result_from_json, uid
from bot.tournaments.statuses import BEFORE_START, SETTLED, UNDER_WAY, MatchStatus, TournamentStatus
from bot.tournaments.texts import TournamentTexts

__all__ = ["Scheduler", "next_matches"]

log = logging.getLogger("parlor.tournaments")


def next_matches(s: TournamentState, minimum: int) -> tuple[list[list[str]], dict[str, Any]] | None:
    """The next round's matches (player ids in seat order) and its data, or ``None`` when the event is over.

    Pure: it reads only *s* (loaded for this step, not shared) and *minimum* (the game's minimum
    players, used at multiplayer tables), and touches neither storage, Discord, the loop nor the
    service's state, so :meth:`Scheduler.step` runs it in a worker thread.
    """
    t, done = s.t, s.model_rounds()
    active = sorted(s.active)
    number = len(s.rounds) + 1
    rng = Random(f"{t.seed}:{number}")
    if t.format in ("swiss", "pods"):
        if number > int(t.settings["rounds"]) or len(active) < (minimum if t.format == "pods" else 2):
            return None
        if t.format == "swiss":
            return [list(m.players) for m in swiss.pair(active, done, rng)], {}
        tables = pods.seat(active, done, rng, size=int(t.settings["table_size"]), minimum=minimum)
        return [list(m.players) for m in tables], {}
    if t.format == "round-robin":
        schedule = t.settings["schedule"]
        if number > len(schedule) or len(active) < 2:
            return None
        out = []
        for players in schedule[number - 1]:
            here = [p for p in players if p in active]
            if here:
                out.append(here)
        return out, {}
    # single elimination
    if not multiplayer(t):
        seeds = t.settings["seeds"]
        if number == 1:
            return [list(m.players) for m in elimination.first_round(seeds)], {}
        last = s.rounds[-1]
        if len(last.matches) <= 1:
            return None
        ms = [Match(m.players) if m.players else None for m in last.matches]
        rs = [result_from_json(m.result) if m.result else None for m in last.matches]
        nxt = elimination.next_round(ms, rs, seeds)
        return [[p for p in m.players if p in active] if m else [] for m in nxt], {}
    size, advance = int(t.settings["table_size"]), int(t.settings["advance"])
    if number == 1:
        field = list(t.settings["seeds"])
    else:
        last = s.rounds[-1]
        prev_field = list(last.data["field"])
        if len(prev_field) <= size:
            return None
        tables = [Match(m.players) for m in last.matches]
        results = [result_from_json(m.result) if m.result else Result.forfeit(m.players) for m in last.matches]
        field = [p for p in elimination.next_field(prev_field, tables, results, int(last.data["k"]))
                 if p in active]
    if len(field) < 2 or (len(field) < minimum and number > 1):
        return None
    if len(field) < minimum:
        return None
    k = elimination.advancing_per_table(len(field), size, minimum, advance) if len(field) > size else 1
    return [list(m.players) for m in elimination.pod_round(field, size=size, minimum=minimum)], \
        {"field": field, "k": k}


class Scheduler:
    """The step that moves tournaments on (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (storage, the tables, the clock, the locks).
    announce:
        How the channel is told (pairings, standings, the final) and the message redrawn.
    texts:
        What the standings and pairings say.
    registration:
        Who opens the check-in and starts a timed tournament when due.
    results:
        Who records finished games and marks broken tables.
    noshow:
        Who rules the no-shows.
    """

    def __init__(self, core: TournamentCore, announce: Announcements, texts: TournamentTexts,
                 registration: Registration, results: Results, noshow: NoShowWatch) -> None:
        self.core = core
        self.storage = core.storage
        self.announce = announce
        self.texts = texts
        self.registration = registration
        self.results = results
        self.noshow = noshow

    async def step(self, tid: int) -> None:
        """|coro| Move tournament *tid* on (see the module's documentation); safe to call at any time.

        The next round is paired or seated in a worker thread, with this tournament's lock held.

        Raises
        ------
        TournamentError
            No such tournament.
        """
        async with self.core.lock(tid):
            await self.step_locked(tid)

    async def step_locked(self, tid: int) -> None:
        """|coro| :meth:`step`, for a caller that holds tournament *tid*'s lock already (a command)."""
        s = await self.core.state(tid)
        t, now = s.t, self.core.now()
        if t.status in BEFORE_START and t.settings.get("start_at"):
            self._start_when_due(s, now)
            return
        if t.status not in UNDER_WAY:
            return
        rnd = s.current
        if rnd is not None:
            for m in rnd.matches:
                try:
                    await self.watch(s, m, now)
                except Exception:  # one match that fails must not hold up the others (the next step tries again)
                    log.exception("tournament %s: round %s match %s failed", tid, m.round, m.number)
            s = await self.core.state(tid)
            rnd = s.current
        if t.status == TournamentStatus.PAUSED:
            return
        if rnd is not None and any(m.status not in SETTLED for m in rnd.matches):
            return
        # The pairing or seating is pure but can take most of a second (pods at 128 players): a worker
        # thread computes it, so the loop keeps answering every table's clicks meanwhile. The lock is
        # held, so nothing changes this tournament until it is stored; the engine registry (the game's
        # minimum) is read here, on the loop.
        nxt = await asyncio.to_thread(next_matches, s, self.core.minimum(s.t))
        if rnd is not None and rnd.finished_at is None:
            # after the last round, the final standings say it
            said = [] if nxt is None else self.announce.notice(
                t, self.texts.standings_text(s, title=f"Standings after round {rnd.number}"))
            await self.storage.finish_round(tid, rnd.number, notices=said)
            if nxt is not None:
                self.pictures(s, f"standings after round {rnd.number}")
        if nxt is None:
            await self.finish(s, early=False)
            return
        matches, data = nxt
        await self.storage.add_round(tid, len(s.rounds) + 1, matches, data)
        s = await self.core.state(tid)
        await self.announce.say(t, self.texts.pairings_text(s))
        assert s.current is not None
        for m in s.current.matches:
            if m.status == MatchStatus.PENDING:
                try:
                    await self.open(s, m)
                except Exception:  # the next step opens it again; the other matches open now
                    log.exception("tournament %s: round %s match %s did not open", tid, m.round, m.number)
        await self.announce.redraw(tid)

    def _start_when_due(self, s: TournamentState, now: int) -> None:
        """A timed tournament at *now* (Unix ms): open the check-in when its window has come, start it
        when its time has come (each as a chore: they take the lock this step holds).
        """
        t = s.t
        start_at = int(t.settings["start_at"])
        window = int(t.settings.get("checkin_minutes", 0)) * 60_000 * self.core.time_scale
        if t.status == TournamentStatus.REGISTRATION and window and now >= start_at - window:
            self.core.spawn(self.registration.open_checkin(t.id, None))
        elif now >= start_at:
            self.core.spawn(self._timed_start(t.id))

    async def _timed_start(self, tid: int) -> None:
        """|coro| Start tournament *tid* at its time and pair round 1; too few players cancel it (said why)."""
        try:
            await self.registration.start(tid, None)
            await self.step(tid)
        except TournamentError as exc:
            t = await self.core.tournament(tid)
            if t.status in BEFORE_START:
                said = f"⛔ **{self.announce.shown(t.name)}** could not start and is cancelled: {exc}"
                await self.storage.end_tournament(tid, TournamentStatus.CANCELLED, finished_at=self.core.now(),
                                                  notices=self.announce.notice(t, said))
                await self.announce.redraw(tid)

    async def watch(self, s: TournamentState, m: MatchRow, now: int) -> None:
        """|coro| One match of the current round at *now* (Unix ms): open a pending match's table (while
        running), record a finished game, mark a broken table, rule the no-shows.
        """
        if m.status == MatchStatus.PENDING and s.t.status == TournamentStatus.RUNNING:
            await self.open(s, m)
            return
        if m.status not in (MatchStatus.PLAYING, MatchStatus.BROKEN) or m.game_id is None:
            return
        still = await self.results.check_game(s, m)
        if still is not None:
            await self.noshow.rule(s, still, now)

    async def open(self, s: TournamentState, m: MatchRow) -> None:
        """|coro| Open match *m*'s table with exactly its players seated (a match with fewer than two
        players still in is decided by forfeit). A table that will not open makes the match broken
        (the channel is told); a table dealt but not stored as the match's is closed again.

        Raises
        ------
        Exception
            Storing the table as the match's failed (the table is closed first; the match stays
            pending and the next step opens it again).
        """
        t = s.t
        here = [p for p in m.players if p in s.active]
        if len(here) < 2:
            gone = [p for p in m.players if p not in here]
            await self.results.decide(s, m, Result.forfeit(gone, here), "🚪 Decided by forfeit: a player is out.")
            return
        seats = [(uid(p), s.names.get(p, p)) for p in here]
        minutes = self.core.config.no_show_minutes
        vs = " vs ".join(f"<@{uid(p)}>" for p in here)
        intro = (f"🏆 **{self.announce.shown(t.name)}** — round {m.round}, match {m.number + 1}: {vs}\n"
                 f"Open your board here within {plural(minutes, 'minute')} or forfeit the match. The result is "
                 f"recorded when the game ends.")
        try:
            table = await self.core.tables.open_seated(
                t.kind, dict(t.options), {"tournament": t.id}, guild_id=t.guild_id, channel_id=t.channel_id,
                seats=seats, host_id=t.organizer_id, title=f"{t.name} · R{m.round} M{m.number + 1}", intro=intro)
        except Exception as exc:
            log.exception("tournament %s: could not open round %s match %s", t.id, m.round, m.number)
            said = (f"⚠️ The table of round {m.round}, match {m.number + 1} could not be opened ({exc}). The "
                    f"organizer can `/tournament reseat match:{m.number + 1}` or `/tournament force`.")
            await self.storage.set_match_status(t.id, m.round, m.number, MatchStatus.BROKEN,
                                                notices=self.announce.notice(t, said))
            return
        try:
            await self.storage.open_match(t.id, m.round, m.number, game_id=table.id, opened_at=self.core.now())
        except BaseException:
            # Dealt but not linked: the match is still pending and the next step opens it again, so
            # this table must not stay (its players would play a game the tournament never records).
            log.warning("tournament %s: round %s match %s: table %s could not be linked; it is closed",
                        t.id, m.round, m.number, table.id)
            await asyncio.shield(self.core.tables.close_table(
                table.id, "⚠️ This table could not be recorded for the tournament; the match opens again."))
            raise

    async def finish(self, s: TournamentState, *, early: bool) -> None:
        """|coro| End *s*'s tournament (*early*: by the organizer) and post the final standings, pinging
        the winner (if there is one); its message says it is finished. The caller holds its lock.
        """
        t = s.t
        winner = self.texts.winner(s, self.texts.standings(s))
        head = f"🏆 **{self.announce.shown(t.name)}** {'ended early' if early else 'is over'}!"
        if winner:
            head += f" Winner: **{self.texts.names(s).get(winner, winner)}** (<@{uid(winner)}>)."
        # The final standings are stored with the end (the standings read the same while it runs).
        await self.storage.end_tournament(t.id, TournamentStatus.FINISHED, finished_at=self.core.now(),
                                          notices=self.announce.notice(
                                              t, f"{head}\n{self.texts.standings_text(s, title='Final standings')}",
                                              pings=[uid(winner)] if winner else []))
        self.pictures(s, "final standings")
        await self.announce.redraw(t.id)
        log.info("tournament %s finished (early=%s)", t.id, early)

    def pictures(self, s: TournamentState, title: str) -> None:
        """Post *s*'s standings picture (and an elimination's bracket) after the standings text, as chores
        drawn off the loop (``docs/art.md`` §7).
        """
        names = s.names  # as typed: a picture renders no Markdown
        rows = self.texts.standings(s)
        if rows:
            self.announce.picture_later(s.t, standings_moment(f"{s.t.name}: {title}", rows, names))
        if s.t.format == "elimination" and s.rounds:
            self.announce.picture_later(s.t, bracket_moment(f"{s.t.name}: bracket", s.model_rounds(), names))

    async def on_game_finished(self, game_id: int) -> None:
        """|coro| A table's result was stored (a finish hook of the table service): if it is a tournament
        match, record it and move the tournament on, after this returns (the last click must be
        answered quickly).
        """
        m = await self.storage.match_of_game(game_id)
        if m is not None and m.status == MatchStatus.PLAYING:
            self.core.spawn(self.step(m.tournament_id))
