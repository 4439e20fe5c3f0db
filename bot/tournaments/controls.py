"""The organizer's controls of a started tournament: force, drop, disqualify, re-seat, pause, resume, end.

:class:`OrganizerControls` checks who may (the organizer, or a moderator stepping in; a player may
drop themselves), changes the tournament under its lock, and lets the scheduler move it on
(``docs/tournaments.md`` §10, "Organizer controls"). A refusal raises a
:class:`~bot.tournaments.core.TournamentError`, which the cog answers privately; the channel is
told what it needs to know.
"""

from __future__ import annotations

from bot.tables.core import Actor
from bot.tables.table import TableStatus
from bot.tournaments.announcements import Announcements
from bot.tournaments.core import TournamentCore, TournamentError
from bot.tournaments.model import Result
from bot.tournaments.noshow import NoShowWatch
from bot.tournaments.registration import Registration
from bot.tournaments.results import Results
from bot.tournaments.scheduler import Scheduler
from bot.tournaments.state import pid
from bot.tournaments.statuses import (
    BEFORE_START,
    HOLDING,
    OUT,
    OVER,
    SETTLED,
    UNDECIDED,
    UNDER_WAY,
    EntrantStatus,
    MatchStatus,
    TournamentStatus,
)

__all__ = ["OrganizerControls"]


class OrganizerControls:
    """The organizer's controls (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (storage, the tables, the clock, the locks).
    announce:
        How the channel is told and the message redrawn.
    registration:
        Who moves the first of the waitlist up when a player drops before the start.
    results:
        Who decides matches by forfeit or by the current standing.
    noshow:
        Whose no-show clocks start afresh on resume.
    scheduler:
        Who moves the tournament on after a change, and ends it.
    """

    def __init__(self, core: TournamentCore, announce: Announcements, registration: Registration,
                 results: Results, noshow: NoShowWatch, scheduler: Scheduler) -> None:
        self.core = core
        self.storage = core.storage
        self.announce = announce
        self.registration = registration
        self.results = results
        self.noshow = noshow
        self.scheduler = scheduler

    async def force(self, tid: int, actor: Actor) -> int:
        """|coro| Decide every unfinished match of the current round by the game's current standings
        (``docs/tournaments.md`` §9) and move on; returns how many were decided.

        Raises
        ------
        TournamentError
            Not allowed, or no round is being played.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            self.core.check_runs(s.t, actor)
            if s.t.status not in UNDER_WAY or s.current is None:
                raise TournamentError("No round is being played.")
            undecided = [m for m in s.current.matches if m.status not in SETTLED]
            for m in undecided:
                await self.results.force(s, m)
            if s.t.status == TournamentStatus.RUNNING:
                await self.scheduler.step_locked(tid)
        return len(undecided)

    async def drop(self, tid: int, actor: Actor, user_id: int, *, disqualify: bool = False) -> str:
        """|coro| Drop (or disqualify) player *user_id*: themselves, or by the organizer. Their past results
        keep counting; a match they are playing is forfeited (``docs/tournaments.md`` §1, §2). Returns
        what happened, in words.

        Raises
        ------
        TournamentError
            Not allowed, not in the tournament, already out, or the tournament is over.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            if actor.user_id != user_id or disqualify:
                self.core.check_runs(s.t, actor)
            e = s.entrant(user_id)
            if e is None or e.status in OUT:
                raise TournamentError("That player is not in this tournament." if e is None
                                      else "That player is already out.")
            if s.t.status in OVER:
                raise TournamentError("The tournament is over.")
            await self.storage.set_entrant(tid, user_id, e.name,
                                           EntrantStatus.DISQUALIFIED if disqualify else EntrantStatus.DROPPED)
            if s.t.status in BEFORE_START and e.status in HOLDING:
                await self.registration.promote(s)
            s = await self.core.state(tid)
            m = next((x for x in (s.current.matches if s.current else ()) if pid(user_id) in x.players
                      and x.status in UNDECIDED), None)
            if m is not None:
                here = [p for p in m.players if p in s.active]
                live = self.core.tables.tables.get(m.game_id) if m.game_id is not None else None
                if len(here) >= 2 and live is not None and m.status == MatchStatus.PLAYING:
                    await self.core.tables.seat_to_bot(live, user_id, "dropped from the tournament")
                elif len(here) < 2:
                    gone = [p for p in m.players if p not in here]
                    await self.results.decide(s, m, Result.forfeit(gone, here),
                                              f"🚪 {self.announce.shown(e.name)} dropped and forfeits.")
            if s.t.status == TournamentStatus.RUNNING:
                await self.scheduler.step_locked(tid)
        word = "disqualified" if disqualify else "dropped"
        self.announce.redraw_later(tid)
        shown = self.announce.shown
        name, by = shown(e.name), "" if actor.user_id == user_id else f" by {shown(actor.name)}"
        self.announce.later(s.t, f"{'⛔' if disqualify else '🚪'} {name} is {word} from **{shown(s.t.name)}**{by}.")
        return f"{name} is {word}" + (" from the tournament." if s.t.status in UNDER_WAY else ".")

    async def reseat(self, tid: int, actor: Actor, number: int) -> str:
        """|coro| Open a new table for match *number* (from 1) of the current round, ending its old one;
        returns what happened, in words.

        Raises
        ------
        TournamentError
            Not allowed, no such match being played, or its game has just ended (its result is
            recorded instead).
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            self.core.check_runs(s.t, actor)
            m = next((x for x in (s.current.matches if s.current else ()) if x.number == number - 1), None)
            if m is None or m.status not in UNDECIDED:
                raise TournamentError(f"Match {number} of the current round is not being played.")
            game = await self.storage.game(m.game_id) if m.game_id is not None else None
            if m.status == MatchStatus.PLAYING and game is not None and game.status == TableStatus.FINISHED:
                # Its game ended but the result is not recorded yet: record it, never replay it.
                await self.scheduler.step_locked(tid)
                raise TournamentError(f"Match {number}'s game has ended: its result is recorded, not re-seated.")
            if m.game_id is not None:
                await self.core.tables.close_table(m.game_id, "♻️ The organizer re-seated this match at a new table.")
            await self.storage.reset_match(tid, m.round, m.number)
            if s.t.status == TournamentStatus.RUNNING:
                await self.scheduler.step_locked(tid)
        self.announce.later(s.t, f"♻️ Round {m.round}, match {number} of **{self.announce.shown(s.t.name)}** is "
                                 f"re-seated at a new table.")
        return f"Match {number} of round {m.round} is re-seated at a new table."

    async def pause(self, tid: int, actor: Actor) -> None:
        """|coro| Pause: tables keep playing and results are recorded, but no-shows are not ruled and
        the next round waits.

        Raises
        ------
        TournamentError
            Not allowed, or not running.
        """
        async with self.core.lock(tid):
            t = await self.core.tournament(tid)
            self.core.check_runs(t, actor)
            if t.status != TournamentStatus.RUNNING:
                raise TournamentError("Only a running tournament can be paused.")
            await self.storage.set_tournament_status(tid, TournamentStatus.PAUSED, notices=self.announce.notice(
                t, f"⏸️ **{self.announce.shown(t.name)}** is paused."))
        await self.announce.redraw(tid)

    async def resume(self, tid: int, actor: Actor) -> None:
        """|coro| Resume a paused tournament; the no-show clock of open matches starts afresh.

        Raises
        ------
        TournamentError
            Not allowed, or not paused.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            self.core.check_runs(s.t, actor)
            if s.t.status != TournamentStatus.PAUSED:
                raise TournamentError("The tournament is not paused.")
            await self.storage.set_tournament_status(tid, TournamentStatus.RUNNING, notices=self.announce.notice(
                s.t, f"▶️ **{self.announce.shown(s.t.name)}** resumes."))
            await self.noshow.restart_round(s)
        await self.scheduler.step(tid)
        await self.announce.redraw(tid)

    async def end(self, tid: int, actor: Actor) -> None:
        """|coro| End early: open tables close, unfinished matches do not count, final standings are posted
        (before the start: the tournament is cancelled).

        Raises
        ------
        TournamentError
            Not allowed, or already over.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            self.core.check_runs(s.t, actor)
            if s.t.status in OVER:
                raise TournamentError("The tournament is already over.")
            if s.t.status in BEFORE_START:
                await self.storage.end_tournament(tid, TournamentStatus.CANCELLED, finished_at=self.core.now(),
                                                  notices=self.announce.notice(
                                                      s.t, f"⛔ **{self.announce.shown(s.t.name)}** was cancelled by "
                                                           f"{self.announce.shown(actor.name)}."))
                await self.announce.redraw(tid)
                return
            for m in s.current.matches if s.current else ():
                if m.status in (MatchStatus.PLAYING, MatchStatus.BROKEN) and m.game_id is not None:
                    await self.core.tables.close_table(m.game_id, "⛔ The tournament was ended early by the organizer.")
            await self.scheduler.finish(s, early=True)
