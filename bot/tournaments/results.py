"""A match's result: recorded from its finished game, or decided without one (forfeits, forcing).

:class:`Results` is the only part that records a match's result (``docs/tournaments.md`` §2, §9):
from the game its table played (the game's ranks become the places, its scores the game points,
players whose seat a bot finished forfeit), by forfeit (a no-show, a drop) or from the game's
current standing when the organizer forces the round. A match whose table ended without a result
is marked broken here too.
"""

from __future__ import annotations

import logging

from bot.engine.core import Result as EngineResult
from bot.storage import MatchRow
from bot.tables.table import TableStatus
from bot.tournaments import forced
from bot.tournaments.announcements import Announcements
from bot.tournaments.core import TournamentCore
from bot.tournaments.model import Match, Result
from bot.tournaments.state import TournamentState, result_from_game, result_to_json
from bot.tournaments.statuses import MatchStatus
from bot.tournaments.texts import TournamentTexts

__all__ = ["Results"]

log = logging.getLogger("parlor.tournaments")


class Results:
    """Recording the matches' results (see the module's documentation).

    Every method is called with the tournament's lock held and *s* loaded under it.

    Parameters
    ----------
    core:
        The shared state (storage, the tables, the clock).
    announce:
        How the channel is told a result.
    texts:
        How a result is said.
    """

    def __init__(self, core: TournamentCore, announce: Announcements, texts: TournamentTexts) -> None:
        self.core = core
        self.storage = core.storage
        self.announce = announce
        self.texts = texts

    async def check_game(self, s: TournamentState, m: MatchRow) -> MatchRow | None:
        """|coro| Match *m* (with a table) as its game stands: a game that finished while the match was
        playing is recorded (``None`` is returned: nothing more to watch); a table that ended without
        a result makes the match broken and the channel is told (the match is returned as stored now);
        otherwise *m* is returned as it is.
        """
        assert m.game_id is not None
        t = s.t
        game = await self.storage.game(m.game_id)
        if game is None or m.status != MatchStatus.PLAYING:
            return m
        if game.status == TableStatus.FINISHED:
            await self.record_game(s, m)
            return None
        if game.status == TableStatus.CANCELLED:
            said = (f"⚠️ The table of round {m.round}, match {m.number + 1} ended without a result. The organizer "
                    f"can `/tournament reseat match:{m.number + 1}` or `/tournament force`.")
            await self.storage.set_match_status(t.id, m.round, m.number, MatchStatus.BROKEN,
                                                notices=self.announce.notice(t, said))
            return (await self.core.match(t.id, m.round, m.number)) or m
        return m

    async def record_game(self, s: TournamentState, m: MatchRow) -> None:
        """|coro| The game of match *m* finished: its result becomes the match's (forfeits for no-shows,
        leavers and drops: the players a bot finished for, and those no longer in the tournament).
        """
        assert m.game_id is not None
        game = await self.storage.result(m.game_id) or {}
        seats = await self.storage.seats(m.game_id)
        by_bot = {x.player_id for x in seats if x.user_id is None}
        gone = [p for p in m.players if p in by_bot or p not in s.active]
        result = result_from_game(m.players, game, gone, lowest_wins=self.core.lowest_wins(s.t.kind))
        said = f"✅ Round {m.round}, match {m.number + 1}: {self.texts.result_words(s, m, result)}"
        await self.storage.finish_match(s.t.id, m.round, m.number, result_to_json(result),
                                        notices=self.announce.notice(s.t, said))
        log.info("tournament %s: round %s match %s recorded from game %s", s.t.id, m.round, m.number, m.game_id)

    async def decide(self, s: TournamentState, m: MatchRow, result: Result, why: str) -> None:
        """|coro| Record *result* for a match that did not finish at its table, and end its table (if
        any) with *why*; the channel's announcement is stored with the result (the outbox posts it).
        """
        said = f"Round {m.round}, match {m.number + 1}: {why} {self.texts.result_words(s, m, result)}"
        await self.storage.finish_match(s.t.id, m.round, m.number, result_to_json(result),
                                        notices=self.announce.notice(s.t, said))
        if m.game_id is not None:
            await self.core.tables.close_table(m.game_id, f"{why} (tournament **{self.announce.shown(s.t.name)}**)")

    async def force(self, s: TournamentState, m: MatchRow) -> None:
        """|coro| Decide unfinished match *m* by its game's current standing (``docs/tournaments.md``
        §9): no-shows past their time and players out of the tournament forfeit; without a game
        (never opened, or it cannot be read back) the players still in draw.
        """
        standing, gone = await self.standing(s, m)
        result = forced.decide(Match(m.players), standing.scores if standing else {}, forfeits=gone,
                               ranks=standing.ranks if standing else None,
                               lowest_wins=self.core.lowest_wins(s.t.kind))
        await self.decide(s, m, result, "⏩ The organizer forced the next round: decided by the current standings.")

    async def standing(self, s: TournamentState, m: MatchRow) -> tuple[EngineResult | None, list[str]]:
        """|coro| The standing of match *m*'s game now (``Engine.standing`` of the live game, or of the game
        rebuilt from its log; ``None`` without a game), restricted to the match's players, and its forfeiters.
        """
        active = set(s.active)
        late = self.core.late(m, self.core.now())
        gone = [p for p in m.players if p not in active or (late and p not in m.shown)]
        if m.game_id is None:
            return None, gone
        live = await self.core.tables.live(m.game_id)  # (a table a restart left to replay later: replayed now)
        engine = live.engine if live is not None else None
        if engine is None:
            row = await self.storage.game(m.game_id)
            if row is not None and row.kind in self.core.tables.engines:
                seats = await self.storage.seats(m.game_id)
                actions = [[player, action] for player, action in await self.storage.action_log(m.game_id)]
                try:
                    engine = self.core.engine(row.kind).replay({
                        "kind": row.kind, "seed": row.seed, "options": row.options,
                        "players": [x.player_id for x in seats], "actions": actions})
                except Exception:
                    log.exception("tournament %s: game %s could not be replayed", s.t.id, m.game_id)
        if engine is None:
            return None, gone
        seats_now = live.seats if live is not None else await self.storage.seats(m.game_id)
        gone += [x.player_id for x in seats_now if x.user_id is None and x.player_id in m.players
                 and x.player_id not in gone]
        now = engine.standing()
        keep = set(m.players)
        return EngineResult({p: float(v) for p, v in now.scores.items() if p in keep},
                            {p: int(r) for p, r in now.ranks.items() if p in keep},
                            tuple(p for p in now.winners if p in keep), now.detail), gone
