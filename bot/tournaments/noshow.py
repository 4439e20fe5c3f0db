"""The no-show watch: who showed up at a match's table, and the forfeit of whoever did not in time.

Showing up is opening one's board (or making any move) at the match's table: the table service's
seen hook (:meth:`NoShowWatch.on_seen`) stores it on the match. Once ``no_show_minutes`` (scaled by
:attr:`~bot.tournaments.core.TournamentCore.time_scale`) have passed since the table opened, a
no-show forfeits (``docs/tournaments.md`` §10, "Rounds run themselves"): a table left with fewer
than two players who showed is decided by forfeit at once; at a larger table a bot takes each
no-show's seat. The clock starts afresh on resume and after a restart (nobody could show up meanwhile).
"""

from __future__ import annotations

from bot.storage import MatchRow
from bot.tournaments.announcements import Announcements
from bot.tournaments.core import TournamentCore
from bot.tournaments.model import Result
from bot.tournaments.results import Results
from bot.tournaments.state import TournamentState, pid, uid
from bot.tournaments.statuses import MatchStatus, TournamentStatus
from bot.tournaments.texts import TournamentTexts

__all__ = ["NoShowWatch"]


class NoShowWatch:
    """Who showed up, and the forfeits of those who did not (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (storage, the tables, the clock, the no-show time).
    announce:
        How the channel is told of a no-show.
    texts:
        How players' names are written.
    results:
        Who records a match decided by forfeit.
    """

    def __init__(self, core: TournamentCore, announce: Announcements, texts: TournamentTexts,
                 results: Results) -> None:
        self.core = core
        self.storage = core.storage
        self.announce = announce
        self.texts = texts
        self.results = results

    async def on_seen(self, game_id: int, user_id: int) -> None:
        """|coro| A seated user showed up at table *game_id* (a seen hook of the table service): if it is
        their tournament match, they are not a no-show.
        """
        m = await self.storage.match_of_game(game_id)
        if m is None or pid(user_id) not in m.players:
            return
        async with self.core.lock(m.tournament_id):
            m = await self.storage.match_of_game(game_id)
            if m is not None and pid(user_id) not in m.shown:
                await self.storage.set_match_shown(m.tournament_id, m.round, m.number, [*m.shown, pid(user_id)])

    async def restart_clocks(self) -> None:
        """|coro| Start afresh the no-show clock of every open match of every running tournament (once the
        service starts: nobody could show up while the bot was down, so a long stop must not forfeit
        them the moment it is back; ``docs/tournaments.md``, "Storage and restarts").
        """
        now = self.core.now()
        for t in await self.storage.tournaments(TournamentStatus.RUNNING):
            if not self.core.tables.on_this_shard(t.guild_id):
                continue  # another shard process's guild: its process restarts its clocks
            async with self.core.lock(t.id):
                current = (await self.core.state(t.id)).current
                for m in current.matches if current else ():
                    if m.status == MatchStatus.PLAYING and m.opened_at is not None:
                        await self.storage.set_match_opened_at(t.id, m.round, m.number, now)

    async def restart_round(self, s: TournamentState) -> None:
        """|coro| Start afresh the no-show clock of every match being played in *s*'s current round (on
        resume; the tournament's lock held).
        """
        for m in s.current.matches if s.current else ():
            if m.status == MatchStatus.PLAYING:
                await self.storage.set_match_opened_at(s.t.id, m.round, m.number, self.core.now())

    async def rule(self, s: TournamentState, m: MatchRow, now: int) -> None:
        """|coro| Rule on match *m*'s no-shows at *now* (Unix ms), if its time is over and *s* is running:
        players who did not show (or are no longer in) forfeit; fewer than two left decide it by
        forfeit, else a bot takes each no-show's seat at a table being played. A broken table of
        present players waits for the organizer (re-seat or force).
        """
        t = s.t
        if t.status != TournamentStatus.RUNNING or not self.core.late(m, now):
            return
        active = set(s.active)
        gone = [p for p in m.players if p not in m.shown or p not in active]
        if not gone:
            return
        here = [p for p in m.players if p not in gone]
        live = self.core.tables.tables.get(m.game_id) if m.game_id is not None else None
        names = self.texts.names(s)
        if len(here) >= 2 and m.status == MatchStatus.PLAYING and live is not None:
            for p in gone:
                if await self.core.tables.seat_to_bot(live, uid(p), "did not show"):
                    self.announce.later(t, f"⌛ {names.get(p, p)} did not show for round {m.round}, match "
                                           f"{m.number + 1}, and forfeits it; a bot plays the seat.")
            return
        if len(here) >= 2:
            return  # a broken table of present players: the organizer re-seats or forces it
        who = ", ".join(names.get(p, p) for p in gone)
        await self.results.decide(s, m, Result.forfeit(gone, here), f"⌛ Decided by forfeit: {who} did not show.")
