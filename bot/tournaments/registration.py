"""Before the first round: create a tournament, register, unregister, the waitlist, check in, start.

:class:`Registration` changes a tournament only while it has not started, and starts it: the
players who play are fixed, and what the format decides once (an elimination's seeds, a round
robin's schedule, a Swiss event's number of rounds) is stored with it. Pairing round 1 is the
scheduler's (:mod:`bot.tournaments.scheduler`), as every round's.
"""

from __future__ import annotations

import logging
import math
import secrets
from random import Random
from typing import Any

from bot.storage import TournamentRow
from bot.tables.core import Actor
from bot.tournaments import elimination, round_robin
from bot.tournaments.announcements import Announcements
from bot.tournaments.core import TournamentCore, TournamentError
from bot.tournaments.state import FORMATS, TournamentState, pid, plural
from bot.tournaments.statuses import BEFORE_START, HOLDING, EntrantStatus, TournamentStatus

__all__ = ["Registration"]

log = logging.getLogger("parlor.tournaments")


class Registration:
    """Creating, entering and starting tournaments (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state.
    announce:
        How the channel is told (a player moved up, the check-in opened, the start).
    ratings:
        Optional: anything with ``seed_order(guild_id, kind, user_ids)`` (the rating service), to
        seed a single elimination by rating (``docs/tournaments.md`` §7).
    """

    def __init__(self, core: TournamentCore, announce: Announcements, ratings: Any = None) -> None:
        self.core = core
        self.storage = core.storage
        self.announce = announce
        self.ratings = ratings

    async def create(self, organizer: Actor, *, guild_id: int, channel_id: int, name: str, kind: str, format: str,
                     options: dict[str, Any] | None = None, rounds: int = 0, table_size: int = 0,
                     advance: int = 1, capacity: int = 0, start_in_minutes: int | None = None,
                     checkin_minutes: int | None = None) -> TournamentRow:
        """|coro| Create a tournament, open for registration (``docs/tournaments.md`` §1, §10); returns its row.

        Parameters
        ----------
        organizer:
            Who runs it (the caller checks they may create one).
        kind, options:
            The game (one with a table) and its table options for every match.
        format:
            A key of :data:`~bot.tournaments.state.FORMATS`.
        rounds:
            Swiss and pods: the number of rounds (0: about log2 of the players for Swiss; pods
            need it). Ignored by elimination (until a winner) and round robin.
        table_size:
            Pods, and an elimination of a multiplayer game: players a table (3–5).
        advance:
            Elimination of a multiplayer game: the top *k* of each table advance.
        capacity:
            Most players (0: ``max_entrants``); later registrations are waitlisted.
        start_in_minutes:
            Registration closes and the event starts this many minutes from now; ``None``: when
            the organizer runs ``/tournament start``.
        checkin_minutes:
            The check-in window before the start, in minutes (0: none; ``None``: the configured default).

        Raises
        ------
        TournamentError
            An unknown game or format, options the game refuses, or settings that do not fit.
        """
        engines = self.core.tables.engines
        if kind not in engines:
            raise TournamentError(f"There is no table for the game {kind!r}; pick one of: "
                                  f"{', '.join(sorted(engines))}.")
        if format not in FORMATS:
            raise TournamentError(f"The format must be one of: {', '.join(FORMATS)}.")
        engine = self.core.engine(kind)
        options = dict(options or {})
        try:
            engine.Options(**options)
        except (TypeError, ValueError) as exc:
            raise TournamentError(f"Those game options don't work: {exc}") from None
        two_player = engine.min_players <= 2 <= engine.max_players
        multi = format == "pods" or (format == "elimination" and table_size > 2)
        if multi:
            if not 3 <= table_size <= 5 or table_size > engine.max_players:
                raise TournamentError(f"Tables seat 3 to 5 players, at most {engine.max_players} for "
                                      f"{engine.title or kind}; pick table_size.")
            if format == "elimination" and not 1 <= advance < max(2, engine.min_players, 3):
                raise TournamentError("advance must be from 1 to one less than the smallest table.")
        elif not two_player:
            raise TournamentError(f"{FORMATS[format]} is for two-player games; {engine.title or kind} needs "
                                  f"{engine.min_players}+ players: use pods (or elimination with a table_size).")
        if format == "pods" and rounds < 1:
            raise TournamentError("Swiss pods need a number of rounds.")
        if not 0 <= rounds <= 20:
            raise TournamentError("rounds must be from 0 to 20.")
        cap_max = int(self.core.config.max_entrants)
        capacity = capacity or cap_max
        if not 2 <= capacity <= cap_max:
            raise TournamentError(f"capacity must be from 2 to {cap_max}.")
        checkin = int(self.core.config.checkin_minutes if checkin_minutes is None else checkin_minutes)
        settings: dict[str, Any] = {"rounds": rounds, "table_size": table_size if multi else 2, "advance": advance,
                                    "capacity": capacity, "checkin_minutes": checkin}
        if start_in_minutes is not None:
            if not checkin <= start_in_minutes <= 7 * 24 * 60:
                raise TournamentError("The start must be at least the check-in window away, and within a week.")
            settings["start_at"] = self.core.now() + int(start_in_minutes * 60_000 * self.core.time_scale)
        seed = secrets.randbelow(2**31)
        tid = await self.storage.create_tournament(guild_id=guild_id, channel_id=channel_id,
                                                   organizer_id=organizer.user_id, name=name[:100], kind=kind,
                                                   format=format, options=options, settings=settings, seed=seed)
        log.info("tournament %s created: %s %s in guild %s by %s", tid, format, kind, guild_id, organizer.user_id)
        return await self.core.tournament(tid)

    async def register(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* registers (waitlisted past the capacity); returns what happened, in words.

        Raises
        ------
        TournamentError
            Registration is closed, or they are already in (or disqualified).
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            if s.t.status not in BEFORE_START:
                raise TournamentError("Registration is closed: the tournament has started.")
            e = s.entrant(actor.user_id)
            if e is not None and e.status == EntrantStatus.DISQUALIFIED:
                raise TournamentError("You were disqualified from this tournament.")
            if e is not None and e.status in (*HOLDING, EntrantStatus.WAITLISTED):
                raise TournamentError("You are already registered." if e.status != EntrantStatus.WAITLISTED
                                      else "You are already on the waitlist.")
            held = sum(1 for x in s.entrants if x.status in HOLDING)
            if held >= int(s.t.settings["capacity"]):
                await self.storage.set_entrant(tid, actor.user_id, actor.name, EntrantStatus.WAITLISTED)
                waiting = sum(1 for x in s.entrants if x.status == EntrantStatus.WAITLISTED)
                return f"The tournament is full; you are on the waitlist (#{waiting + 1})."
            await self.storage.set_entrant(tid, actor.user_id, actor.name, EntrantStatus.REGISTERED)
            # A check-in is planned only before a timed start with a window; otherwise the organizer
            # starts when they like, and opens a check-in first only if they choose to (then every
            # registered player is told in the channel).
            planned = s.t.settings.get("start_at") and s.t.settings.get("checkin_minutes")
            return "You are registered." + (
                " Check in when the check-in opens, "
                f"{plural(int(s.t.settings['checkin_minutes']), 'minute')} before the start."
                if s.t.status == TournamentStatus.REGISTRATION and planned else
                " Press **Check in** to confirm." if s.t.status == TournamentStatus.CHECKIN else "")

    async def unregister(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* leaves before the start; the first on the waitlist takes the place.

        Raises
        ------
        TournamentError
            The tournament has started, or they are not registered.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            if s.t.status not in BEFORE_START:
                raise TournamentError("The tournament has started: use `/tournament drop` to leave it.")
            e = s.entrant(actor.user_id)
            if e is None or e.status not in (*HOLDING, EntrantStatus.WAITLISTED):
                raise TournamentError("You are not registered.")
            await self.storage.remove_entrant(tid, actor.user_id)
            if e.status in HOLDING:
                await self.promote(s)
        return "You are no longer registered."

    async def promote(self, s: TournamentState) -> None:
        """|coro| The first on *s*'s waitlist takes a freed place (told in the channel, pinged).

        Called with the tournament's lock held, *s* loaded before the place was freed.
        """
        nxt = next((x for x in s.entrants if x.status == EntrantStatus.WAITLISTED), None)
        if nxt is not None:
            await self.storage.set_entrant(s.t.id, nxt.user_id, nxt.name, EntrantStatus.REGISTERED)
            check = " — press **Check in**" if s.t.status == TournamentStatus.CHECKIN else ""
            self.announce.later(s.t, f"🎟️ <@{nxt.user_id}> moves up from the waitlist into "
                                     f"**{self.announce.shown(s.t.name)}**{check}.", pings=[nxt.user_id])

    async def check_in(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* checks in during the check-in window; returns what happened, in words.

        Raises
        ------
        TournamentError
            Check-in is not open, or they hold no place (waitlisted players check in once they move up).
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            if s.t.status != TournamentStatus.CHECKIN:
                raise TournamentError("Check-in is not open." if s.t.status == TournamentStatus.REGISTRATION
                                      else "Check-in is over: the tournament has started.")
            e = s.entrant(actor.user_id)
            if e is None or e.status not in HOLDING:
                raise TournamentError("You are on the waitlist; you can check in once a place frees up."
                                      if e is not None and e.status == EntrantStatus.WAITLISTED
                                      else "Register first.")
            if e.status == EntrantStatus.CHECKED_IN:
                return "You are already checked in."
            await self.storage.set_entrant(tid, actor.user_id, actor.name, EntrantStatus.CHECKED_IN)
        return "✅ You are checked in."

    async def open_checkin(self, tid: int, actor: Actor | None) -> None:
        """|coro| Open the check-in window now (*actor* ``None``: the timer).

        Raises
        ------
        TournamentError
            Not allowed, or registration is not open.
        """
        async with self.core.lock(tid):
            t = await self.core.tournament(tid)
            if actor is not None:
                self.core.check_runs(t, actor)
            if t.status != TournamentStatus.REGISTRATION:
                raise TournamentError("Check-in opens during registration only.")
            await self.storage.set_tournament_status(tid, TournamentStatus.CHECKIN, notices=self.announce.notice(
                t, f"📋 Check-in for **{self.announce.shown(t.name)}** is open: registered players, press "
                   f"**Check in** on the tournament message. Whoever has not checked in at the start is dropped."))
        await self.announce.redraw(tid)

    async def start(self, tid: int, actor: Actor | None) -> None:
        """|coro| Start now (*actor* ``None``: the timer): during check-in the unchecked are dropped,
        otherwise every registered player plays. The tournament is then ``running`` with no round: the
        scheduler's next step pairs round 1 (:meth:`TournamentService.start
        <bot.tournaments.service.TournamentService.start>` takes it at once).

        Raises
        ------
        TournamentError
            Not allowed, already started, or too few players.
        """
        async with self.core.lock(tid):
            s = await self.core.state(tid)
            if actor is not None:
                self.core.check_runs(s.t, actor)
            if s.t.status not in BEFORE_START:
                raise TournamentError("The tournament has already started.")
            checkin = s.t.status == TournamentStatus.CHECKIN
            playing = [e for e in s.entrants if e.status == EntrantStatus.CHECKED_IN
                       or not checkin and e.status == EntrantStatus.REGISTERED]
            needed = self.core.minimum(s.t)
            if len(playing) < needed:
                raise TournamentError(f"{plural(len(playing), 'player')} {'checked in' if checkin else 'registered'}; "
                                      f"at least {needed} are needed.")
            for e in s.entrants:
                if e in playing and e.status != EntrantStatus.CHECKED_IN:
                    await self.storage.set_entrant(tid, e.user_id, e.name, EntrantStatus.CHECKED_IN)
                elif e not in playing and e.status == EntrantStatus.REGISTERED:
                    await self.storage.set_entrant(tid, e.user_id, e.name, EntrantStatus.DROPPED)
            await self.storage.start_tournament(tid, await self._settings_at_start(s, [e.user_id for e in playing]))
            dropped = [self.announce.shown(e.name) for e in s.entrants
                       if e.status == EntrantStatus.REGISTERED and e not in playing]
        t = await self.core.tournament(tid)
        note = f" Dropped for not checking in: {', '.join(dropped)}." if dropped else ""
        await self.announce.say(t, f"🏁 **{self.announce.shown(t.name)}** starts with "
                                   f"{plural(len(playing), 'player')} ({FORMATS[t.format]}).{note}")
        await self.announce.redraw(tid)

    async def _settings_at_start(self, s: TournamentState, user_ids: list[int]) -> dict[str, Any]:
        """|coro| *s*'s settings with what its format fixes at the start for the players *user_ids*:
        an elimination's seeds (rated players first, by rating), a round robin's schedule, a Swiss
        event's number of rounds when it was left to the count of players.
        """
        settings = dict(s.t.settings)
        ids = [pid(u) for u in user_ids]
        rng = Random(f"{s.t.seed}:start")
        if s.t.format == "elimination":
            rated: list[str] = []
            if self.ratings is not None:
                order = await self.ratings.seed_order(s.t.guild_id, s.t.kind, user_ids)
                known = {r.player for r in await self.storage.ratings(s.t.guild_id, s.t.kind)}
                rated = [pid(u) for u in order if pid(u) in known]
            settings["seeds"] = elimination.seeding(ids, rng, rated=rated)
        elif s.t.format == "round-robin":
            shuffled = sorted(ids)
            rng.shuffle(shuffled)
            settings["schedule"] = [[list(m.players) for m in rnd] for rnd in round_robin.schedule(shuffled)]
        elif s.t.format == "swiss" and not settings.get("rounds"):
            settings["rounds"] = max(1, math.ceil(math.log2(len(ids))))
        return settings
