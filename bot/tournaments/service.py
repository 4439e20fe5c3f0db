"""The tournament service: registration, check-in, rounds that run themselves, results from the games.

This is the one module of :mod:`bot.tournaments` that is not pure (``docs/tournaments.md`` §10):
it keeps tournaments in storage, opens one table per match through the table service and hears
when those games end. Every pairing, seating, bracket and standings decision is made by the pure
modules (:mod:`~bot.tournaments.swiss`, :mod:`~bot.tournaments.pods`,
:mod:`~bot.tournaments.elimination`, :mod:`~bot.tournaments.round_robin`,
:mod:`~bot.tournaments.standings`, :mod:`~bot.tournaments.forced`), each round with its own
generator seeded from the tournament's seed and the round number, so a restored tournament pairs
exactly as it would have.

No Discord here either: the service talks to Discord through two hooks a subclass fills
(:meth:`TournamentService._say` posts in the tournament's channel, :meth:`TournamentService._redraw`
redraws its message), and to the tables through the table service's Discord-free methods
(``open_seated``, ``close_table``, ``seat_to_bot``, ``finish_hooks``, ``seen_hooks``).

One path, :meth:`TournamentService.step`, moves a tournament on: it opens the tables of pending
matches, records finished games, marks broken tables, rules no-shows, and pairs the next round
when the current one is complete. It runs on every finished game, on every command and once per
tick, so nothing is lost across a restart: the state is the storage. The next round is computed in
a worker thread (pods seating can take most of a second), so the event loop keeps answering every
table's clicks meanwhile.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, Protocol

from bot.engine.core import Result as EngineResult
from bot.storage import EntrantRow, MatchRow, RoundRow, Storage, TournamentRow
from bot.tables.core import Actor
from bot.tables.table import TableError
from bot.tournaments import elimination, forced, pods, round_robin, swiss
from bot.tournaments.model import Match, Result, Round, Standing
from bot.tournaments.standings import standings
from bot.tournaments.statuses import HOLDING, LIVE, TournamentStatus

__all__ = ["TournamentService", "TournamentError", "TableHost", "FORMATS", "STATUSES", "result_from_game",
           "result_to_json", "result_from_json", "plural"]

log = logging.getLogger("parlor.tournaments")

FORMATS: dict[str, str] = {"swiss": "Swiss", "pods": "Swiss pods", "elimination": "Single elimination",
                           "round-robin": "Round robin"}
"""Format id to its name (``docs/tournaments.md`` §1)."""

STATUSES = tuple(TournamentStatus)
"""Every tournament status, in the order of a tournament's life."""
PLAYING = HOLDING
"""Entrant statuses that hold a place."""


class TournamentError(TableError):
    """A tournament request refused with a reason the user can read."""


class TableHost(Protocol):
    """What the tournament service uses of the table service (:class:`bot.tables.TableService`)."""

    tables: dict[int, Any]
    engines: dict[str, tuple[Any, dict[str, Any]]]
    finish_hooks: list[Callable[[int], Awaitable[Any]]]
    seen_hooks: list[Callable[[int, int], Awaitable[Any]]]

    async def open_seated(self, kind: str, options: dict[str, Any], settings: dict[str, Any] | None, *,
                          guild_id: int | None, channel_id: int, seats: list[tuple[int, str]], host_id: int,
                          title: str | None = None, intro: str = "") -> Any:
        """Open and deal a table with exactly these seats (``bot.tables.service``)."""

    async def close_table(self, table_id: int, text: str) -> bool:
        """End a live table at once (``bot.tables.lobby``)."""

    async def seat_to_bot(self, table: Any, user_id: int, why: str) -> bool:
        """A bot takes a user's seat (``bot.tables.lobby``)."""

    async def live(self, table_id: int) -> Any:
        """The live table, replayed first if a restart left it for later (``bot.tables.core``)."""


def _uid(player: str) -> int:
    return int(player[1:])


def _pid(user_id: int) -> str:
    return f"u{user_id}"


def _now_ms() -> int:
    return int(time.time() * 1000)


# ---------------------------------------------------------------------------------------- results


def result_to_json(result: Result) -> dict[str, Any]:
    """A :class:`~bot.tournaments.model.Result` as stored (``{"places", "forfeits", "scores", "forced",
    "lowest_wins"}``).
    """
    return {"places": dict(result.places), "forfeits": sorted(result.forfeits),
            "scores": {p: float(s) for p, s in result.scores.items()}, "forced": result.forced,
            "lowest_wins": result.lowest_wins}


def result_from_json(data: dict[str, Any]) -> Result:
    """The stored form back as a :class:`~bot.tournaments.model.Result` (a missing key: its default)."""
    return Result(dict(data["places"]), frozenset(data.get("forfeits", ())), dict(data.get("scores", {})),
                  bool(data.get("forced", False)), bool(data.get("lowest_wins", False)))


def result_from_game(players: Sequence[str], game: dict[str, Any], gone: Sequence[str] = (), *,
                     lowest_wins: bool = False) -> Result:
    """A match's result from its finished game's stored result (``{"scores", "ranks"}``).

    Players in *gone* (a no-show, a player whose seat a bot finished, a drop) forfeit
    (``docs/tournaments.md`` §2): they take the last place and score nothing; the others keep
    the game's ranks and scores. *lowest_wins* is the game's
    :attr:`~bot.engine.core.Engine.lowest_score_wins`, kept on the result for its game points (§6).

    >>> r = result_from_game(["u1", "u2"], {"scores": {"u1": 3, "u2": 5}, "ranks": {"u1": 2, "u2": 1}})
    >>> r.outcome("u2"), dict(r.scores)
    (<Outcome.WIN: 'win'>, {'u1': 3.0, 'u2': 5.0})
    >>> result_from_game(["u1", "u2"], {"scores": {}, "ranks": {"u1": 1, "u2": 1}}, gone=["u1"]).outcome("u2")
    <Outcome.WIN: 'win'>
    """
    out = frozenset(p for p in gone if p in players)
    here = [p for p in players if p not in out]
    if not here:
        return Result.forfeit(out)
    ranks = {p: int(game.get("ranks", {}).get(p, len(players))) for p in here}
    places = {p: 1 + sum(1 for q in here if ranks[q] < ranks[p]) for p in here}
    places |= {p: len(players) for p in out}
    scores = {p: float(game.get("scores", {}).get(p, 0)) for p in here}
    return Result.ranked(places, scores=scores, forfeits=out, lowest_wins=lowest_wins)


def plural(n: int, word: str, words: str | None = None) -> str:
    """*n* and the noun in its right number: ``plural(1, "round")`` is ``"1 round"``, ``plural(2, "match",
    "matches")`` is ``"2 matches"`` (*words*: the plural when it is not *word* + ``s``).
    """
    return f"{n} {word if n == 1 else words or word + 's'}"


def _fmt(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


@dataclass
class _State:
    """A tournament as loaded for one step: its row, entrants and rounds."""

    t: TournamentRow
    entrants: list[EntrantRow]
    rounds: list[RoundRow]

    @property
    def names(self) -> dict[str, str]:
        return {_pid(e.user_id): e.name for e in self.entrants}

    @property
    def active(self) -> list[str]:
        return [_pid(e.user_id) for e in self.entrants if e.status == "checked_in"]

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def current(self) -> RoundRow | None:
        return self.rounds[-1] if self.rounds else None

    def model_rounds(self) -> list[Round]:
        """The stored rounds as the pure logic's :class:`Round`s (empty bracket slots left out)."""
        out = []
        for rnd in self.rounds:
            ms = [m for m in rnd.matches if m.players]
            out.append(Round(tuple(Match(m.players) for m in ms),
                             tuple(result_from_json(m.result) if m.status == "done" and m.result else None
                                   for m in ms)))
        return out


class TournamentService:
    """Every tournament of this process (``docs/tournaments.md`` §10).

    Parameters
    ----------
    storage:
        The repository.
    config:
        The ``[tournaments]`` settings (``bot.config.TournamentsConfig``).
    tables:
        The table service (:class:`TableHost`).
    ratings:
        Optional: anything with ``seed_order(guild_id, kind, user_ids)`` (the rating service), to
        seed a single elimination by rating (§7).

    Attributes
    ----------
    time_scale:
        Multiplies the no-show time and the timed starts (tests use a small value).
    tick_seconds:
        Seconds between two passes of the background loop over the live tournaments.
    """

    def __init__(self, storage: Storage, config: Any, tables: TableHost, ratings: Any = None) -> None:
        self.storage = storage
        self.config = config
        self.tables = tables
        self.ratings = ratings
        self.time_scale = 1.0
        self.tick_seconds = 2.0
        self._locks: dict[int, asyncio.Lock] = {}
        self._loop_task: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ hooks a Discord layer fills

    async def _say(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """Post *text* in the tournament's channel (announcements: rounds, standings, the final). It pings
        the users of *pings* (the members it is for), whose mentions it holds, and nobody else.
        """

    def shown(self, text: str) -> str:
        """*text*, a player's or a tournament's name, as the messages write it: the Discord layer escapes
        markdown and mentions, so that a name never formats a message nor pings anyone (the CSV export
        and the storage keep names as they are).
        """
        return text

    def _names(self, s: _State) -> dict[str, str]:
        """Every entrant's name as the messages write it (:meth:`shown`), by player id."""
        return {p: self.shown(n) for p, n in s.names.items()}

    async def _redraw(self, t: TournamentRow) -> None:
        """Redraw the tournament's message (its players and buttons)."""

    async def _ready(self) -> None:
        """|coro| Wait until messages can be posted (the Discord layer waits for the gateway)."""

    # ------------------------------------------------------------------ life cycle

    def attach(self) -> None:
        """Hear finished games and players showing up at tables, and start the background loop."""
        if self.on_game_finished not in self.tables.finish_hooks:
            self.tables.finish_hooks.append(self.on_game_finished)
        if self.on_seen not in self.tables.seen_hooks:
            self.tables.seen_hooks.append(self.on_seen)
        if self._loop_task is None:
            self._loop_task = asyncio.get_running_loop().create_task(self._loop(), name="tournaments")

    async def detach(self) -> None:
        """|coro| Stop hearing the tables and stop the loop (the state is in storage)."""
        if self.on_game_finished in self.tables.finish_hooks:
            self.tables.finish_hooks.remove(self.on_game_finished)
        if self.on_seen in self.tables.seen_hooks:
            self.tables.seen_hooks.remove(self.on_seen)
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
            self._loop_task = None
        for task in list(self._chores):
            task.cancel()
        await asyncio.gather(*self._chores, return_exceptions=True)

    async def _loop(self) -> None:
        """Step every live tournament once a tick. Nothing stops it but :meth:`detach`: a tick that
        fails (the database, say) is logged and the next one tries again, so no-show rulings, timed
        check-ins and starts go on for every tournament.
        """
        ready = False
        while True:
            try:
                if not ready:
                    await self._ready()
                    await self._restart_no_show_clocks()
                    ready = True
                for t in await self.storage.tournaments(*LIVE):
                    try:
                        await self.step(t.id)
                    except Exception:  # one broken tournament must not stop the others
                        log.exception("tournament %s: step failed", t.id)
            except Exception:
                log.exception("tournaments: a tick failed; the next one tries again")
            await asyncio.sleep(self.tick_seconds)

    async def _restart_no_show_clocks(self) -> None:
        """|coro| Once started: the no-show clock of every open match of a running tournament starts
        afresh, as on :meth:`resume` (nobody could show up while the bot was down, so a long stop
        must not forfeit them the moment it is back; ``docs/tournaments.md``, "Storage and restarts").
        """
        now = _now_ms()
        for t in await self.storage.tournaments("running"):
            async with self._lock(t.id):
                current = (await self._state(t.id)).current
                for m in current.matches if current else ():
                    if m.status == "playing" and m.opened_at is not None:
                        await self.storage.set_match_opened_at(t.id, m.round, m.number, now)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        """Run *coro* after the caller is done (kept referenced; a refusal is expected, other errors logged)."""
        async def run() -> None:
            try:
                await coro
            except TournamentError:
                pass
            except Exception:
                log.exception("tournament chore failed")

        task = asyncio.get_running_loop().create_task(run())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _lock(self, tid: int) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    async def _state(self, tid: int) -> _State:
        t = await self.storage.tournament(tid)
        if t is None:
            raise TournamentError(f"There is no tournament #{tid}.")
        return _State(t, await self.storage.entrants(tid), await self.storage.rounds(tid))

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

    def _engine(self, kind: str) -> Any:
        return self.tables.engines[kind][0]

    def _pods(self, t: TournamentRow) -> bool:
        return t.format == "pods" or (t.format == "elimination" and int(t.settings.get("table_size", 2)) > 2)

    def _lowest_wins(self, kind: str) -> bool:
        """Whether game *kind*'s scores are better when lower (``Engine.lowest_score_wins``, §6)."""
        return bool(self._engine(kind).lowest_score_wins)

    def _minimum(self, t: TournamentRow) -> int:
        return max(2, int(self._engine(t.kind).min_players))

    # ------------------------------------------------------------------ create, register, check in

    async def create(self, organizer: Actor, *, guild_id: int, channel_id: int, name: str, kind: str, format: str,
                     options: dict[str, Any] | None = None, rounds: int = 0, table_size: int = 0,
                     advance: int = 1, capacity: int = 0, start_in_minutes: int | None = None,
                     checkin_minutes: int | None = None) -> TournamentRow:
        """|coro| Create a tournament, open for registration (``docs/tournaments.md`` §1, §10).

        Parameters
        ----------
        organizer:
            Who runs it (the caller checks they may create one).
        kind, options:
            The game (one with a table) and its table options for every match.
        format:
            A key of :data:`FORMATS`.
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
            The check-in window before the start (0: none; ``None``: the configured default).

        Raises
        ------
        TournamentError
            An unknown game or format, options the game refuses, or settings that do not fit.
        """
        if kind not in self.tables.engines:
            raise TournamentError(f"There is no table for the game {kind!r}; pick one of: "
                                  f"{', '.join(sorted(self.tables.engines))}.")
        if format not in FORMATS:
            raise TournamentError(f"The format must be one of: {', '.join(FORMATS)}.")
        engine = self._engine(kind)
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
        cap_max = int(self.config.max_entrants)
        capacity = capacity or cap_max
        if not 2 <= capacity <= cap_max:
            raise TournamentError(f"capacity must be from 2 to {cap_max}.")
        checkin = int(self.config.checkin_minutes if checkin_minutes is None else checkin_minutes)
        settings: dict[str, Any] = {"rounds": rounds, "table_size": table_size if multi else 2, "advance": advance,
                                    "capacity": capacity, "checkin_minutes": checkin}
        if start_in_minutes is not None:
            if not checkin <= start_in_minutes <= 7 * 24 * 60:
                raise TournamentError("The start must be at least the check-in window away, and within a week.")
            settings["start_at"] = _now_ms() + int(start_in_minutes * 60_000 * self.time_scale)
        seed = secrets.randbelow(2**31)
        tid = await self.storage.create_tournament(guild_id=guild_id, channel_id=channel_id,
                                                   organizer_id=organizer.user_id, name=name[:100], kind=kind,
                                                   format=format, options=options, settings=settings, seed=seed)
        log.info("tournament %s created: %s %s in guild %s by %s", tid, format, kind, guild_id, organizer.user_id)
        return await self.tournament(tid)

    def may_run(self, t: TournamentRow, actor: Actor) -> bool:
        """Whether *actor* runs *t*: its organizer, or a moderator stepping in."""
        return actor.user_id == t.organizer_id or actor.moderator

    def _check_runs(self, t: TournamentRow, actor: Actor) -> None:
        if not self.may_run(t, actor):
            raise TournamentError("Only the organizer of this tournament (or a moderator) can do that.")

    async def register(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* registers (waitlisted past the capacity); returns what happened, in words.

        Raises
        ------
        TournamentError
            Registration is closed, or they are already in (or disqualified).
        """
        async with self._lock(tid):
            s = await self._state(tid)
            if s.t.status not in ("registration", "checkin"):
                raise TournamentError("Registration is closed: the tournament has started.")
            e = s.entrant(actor.user_id)
            if e is not None and e.status == "disqualified":
                raise TournamentError("You were disqualified from this tournament.")
            if e is not None and e.status in (*PLAYING, "waitlisted"):
                raise TournamentError("You are already registered." if e.status != "waitlisted"
                                      else "You are already on the waitlist.")
            held = sum(1 for x in s.entrants if x.status in PLAYING)
            if held >= int(s.t.settings["capacity"]):
                await self.storage.set_entrant(tid, actor.user_id, actor.name, "waitlisted")
                answer = f"The tournament is full; you are on the waitlist (#{self._waiting(s) + 1})."
            else:
                await self.storage.set_entrant(tid, actor.user_id, actor.name, "registered")
                # A check-in is planned only before a timed start with a window; otherwise the organizer
                # starts when they like, and opens a check-in first only if they choose to (then every
                # registered player is told in the channel).
                planned = s.t.settings.get("start_at") and s.t.settings.get("checkin_minutes")
                answer = "You are registered." + (
                    " Check in when the check-in opens, "
                    f"{plural(int(s.t.settings['checkin_minutes']), 'minute')} before the start."
                    if s.t.status == "registration" and planned else
                    " Press **Check in** to confirm." if s.t.status == "checkin" else "")
        return answer

    @staticmethod
    def _waiting(s: _State) -> int:
        return sum(1 for x in s.entrants if x.status == "waitlisted")

    async def unregister(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* leaves before the start; the first on the waitlist takes the place.

        Raises
        ------
        TournamentError
            The tournament has started, or they are not registered.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            if s.t.status not in ("registration", "checkin"):
                raise TournamentError("The tournament has started: use `/tournament drop` to leave it.")
            e = s.entrant(actor.user_id)
            if e is None or e.status not in (*PLAYING, "waitlisted"):
                raise TournamentError("You are not registered.")
            await self.storage.remove_entrant(tid, actor.user_id)
            if e.status in PLAYING:
                await self._promote(s)
        return "You are no longer registered."

    async def _promote(self, s: _State) -> None:
        """The first on the waitlist takes a freed place (told in the channel)."""
        nxt = next((x for x in s.entrants if x.status == "waitlisted"), None)
        if nxt is not None:
            await self.storage.set_entrant(s.t.id, nxt.user_id, nxt.name, "registered")
            check = " — press **Check in**" if s.t.status == "checkin" else ""
            self._spawn(self._say(s.t, f"🎟️ <@{nxt.user_id}> moves up from the waitlist into "
                                       f"**{self.shown(s.t.name)}**{check}.", pings=[nxt.user_id]))

    async def check_in(self, tid: int, actor: Actor) -> str:
        """|coro| *actor* checks in during the check-in window.

        Raises
        ------
        TournamentError
            Check-in is not open, or they hold no place (waitlisted players check in once they move up).
        """
        async with self._lock(tid):
            s = await self._state(tid)
            if s.t.status != "checkin":
                raise TournamentError("Check-in is not open." if s.t.status == "registration"
                                      else "Check-in is over: the tournament has started.")
            e = s.entrant(actor.user_id)
            if e is None or e.status not in PLAYING:
                raise TournamentError("You are on the waitlist; you can check in once a place frees up."
                                      if e is not None and e.status == "waitlisted" else "Register first.")
            if e.status == "checked_in":
                return "You are already checked in."
            await self.storage.set_entrant(tid, actor.user_id, actor.name, "checked_in")
        return "✅ You are checked in."

    async def open_checkin(self, tid: int, actor: Actor | None) -> None:
        """|coro| Open the check-in window now (*actor* ``None``: the timer).

        Raises
        ------
        TournamentError
            Not allowed, or registration is not open.
        """
        async with self._lock(tid):
            t = await self.tournament(tid)
            if actor is not None:
                self._check_runs(t, actor)
            if t.status != "registration":
                raise TournamentError("Check-in opens during registration only.")
            await self.storage.set_tournament_status(tid, "checkin")
            t = await self.tournament(tid)
        await self._say(t, f"📋 Check-in for **{self.shown(t.name)}** is open: registered players, press **Check in** "
                           f"on the tournament message. Whoever has not checked in at the start is dropped.")
        await self._redraw(t)

    # ------------------------------------------------------------------ start and rounds

    async def start(self, tid: int, actor: Actor | None) -> None:
        """|coro| Start now (*actor* ``None``: the timer): during check-in the unchecked are dropped,
        otherwise every registered player plays; round 1 is paired and its tables open.

        Raises
        ------
        TournamentError
            Not allowed, already started, or too few players.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            if actor is not None:
                self._check_runs(s.t, actor)
            if s.t.status not in ("registration", "checkin"):
                raise TournamentError("The tournament has already started.")
            checkin = s.t.status == "checkin"
            playing = [e for e in s.entrants if e.status == ("checked_in" if checkin else "registered")
                       or e.status == "checked_in"]
            minimum = self._minimum(s.t) if self._pods(s.t) else 2
            if len(playing) < max(2, minimum):
                raise TournamentError(f"{plural(len(playing), 'player')} {'checked in' if checkin else 'registered'}; "
                                      f"at least {max(2, minimum)} are needed.")
            for e in s.entrants:
                if e in playing and e.status != "checked_in":
                    await self.storage.set_entrant(tid, e.user_id, e.name, "checked_in")
                elif e not in playing and e.status == "registered":
                    await self.storage.set_entrant(tid, e.user_id, e.name, "dropped")
            settings = dict(s.t.settings)
            ids = [_pid(e.user_id) for e in playing]
            rng = Random(f"{s.t.seed}:start")
            if s.t.format == "elimination":
                rated: list[str] = []
                if self.ratings is not None:
                    order = await self.ratings.seed_order(s.t.guild_id, s.t.kind, [e.user_id for e in playing])
                    known = {r.player for r in await self.storage.ratings(s.t.guild_id, s.t.kind)}
                    rated = [_pid(u) for u in order if _pid(u) in known]
                settings["seeds"] = elimination.seeding(ids, rng, rated=rated)
            elif s.t.format == "round-robin":
                shuffled = sorted(ids)
                rng.shuffle(shuffled)
                settings["schedule"] = [[list(m.players) for m in rnd] for rnd in round_robin.schedule(shuffled)]
            elif s.t.format == "swiss" and not settings.get("rounds"):
                settings["rounds"] = max(1, math.ceil(math.log2(len(ids))))
            await self.storage.start_tournament(tid, settings)
            dropped = [self.shown(e.name) for e in s.entrants if e.status == "registered" and e not in playing]
        t = await self.tournament(tid)
        note = f" Dropped for not checking in: {', '.join(dropped)}." if dropped else ""
        await self._say(t, f"🏁 **{self.shown(t.name)}** starts with {plural(len(ids), 'player')} "
                           f"({FORMATS[t.format]}).{note}")
        await self._redraw(t)
        await self.step(tid)

    def _next_matches(self, s: _State, minimum: int) -> tuple[list[list[str]], dict[str, Any]] | None:
        """The next round's matches (player ids in seat order) and its data, or ``None`` when the event is over.

        Pure: it reads only *s* (loaded for this step, not shared) and *minimum* (the game's minimum
        players, used by pods), and touches neither storage, Discord, the loop nor the service's state,
        so :meth:`_step` runs it in a worker thread (pods seating can take most of a second).
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
        if not self._pods(t):
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

    async def step(self, tid: int) -> None:
        """|coro| Move tournament *tid* on (see the module's documentation); safe to call at any time.

        The next round is paired or seated in a worker thread, with this tournament's lock held.
        """
        async with self._lock(tid):
            await self._step(tid)

    async def _step(self, tid: int) -> None:
        s = await self._state(tid)
        t, now = s.t, _now_ms()
        if t.status in ("registration", "checkin") and t.settings.get("start_at"):
            start_at = int(t.settings["start_at"])
            window = int(t.settings.get("checkin_minutes", 0)) * 60_000 * self.time_scale
            if t.status == "registration" and window and now >= start_at - window:
                self._spawn(self.open_checkin(tid, None))
            elif now >= start_at:
                self._spawn(self._timed_start(tid))
            return
        if t.status not in ("running", "paused"):
            return
        rnd = s.current
        if rnd is not None:
            for m in rnd.matches:
                try:
                    await self._watch_match(s, m, now)
                except Exception:  # one match that fails must not hold up the others (the next step tries again)
                    log.exception("tournament %s: round %s match %s failed", tid, m.round, m.number)
            s = await self._state(tid)
            rnd = s.current
        if t.status == "paused":
            return
        if rnd is not None and any(m.status not in ("done", "empty") for m in rnd.matches):
            return
        # The pairing or seating is pure but can take most of a second (pods at 128 players): a worker
        # thread computes it, so the loop keeps answering every table's clicks meanwhile. The lock is
        # held, so nothing changes this tournament until it is stored; the engine registry (the game's
        # minimum) is read here, on the loop.
        minimum = self._minimum(s.t) if self._pods(s.t) else 2
        nxt = await asyncio.to_thread(self._next_matches, s, minimum)
        if rnd is not None and rnd.finished_at is None:
            await self.storage.finish_round(tid, rnd.number)
            if nxt is not None:  # after the last round, the final standings say it
                await self._say(t, self.standings_text(s, title=f"Standings after round {rnd.number}"))
        if nxt is None:
            await self._finish(s, early=False)
            return
        matches, data = nxt
        await self.storage.add_round(tid, len(s.rounds) + 1, matches, data)
        s = await self._state(tid)
        await self._say(t, self.pairings_text(s))
        assert s.current is not None
        for m in s.current.matches:
            if m.status == "pending":
                try:
                    await self._open(s, m)
                except Exception:  # the next step opens it again; the other matches open now
                    log.exception("tournament %s: round %s match %s did not open", tid, m.round, m.number)
        await self._redraw(s.t)

    async def _timed_start(self, tid: int) -> None:
        try:
            await self.start(tid, None)
        except TournamentError as exc:
            t = await self.tournament(tid)
            if t.status in ("registration", "checkin"):
                await self.storage.end_tournament(tid, "cancelled", finished_at=_now_ms())
                await self._say(t, f"⛔ **{self.shown(t.name)}** could not start and is cancelled: {exc}")
                await self._redraw(await self.tournament(tid))

    async def _open(self, s: _State, m: MatchRow) -> None:
        """Open match *m*'s table with exactly its players seated."""
        t = s.t
        here = [p for p in m.players if p in s.active]
        if len(here) < 2:
            gone = [p for p in m.players if p not in here]
            await self._decide(s, m, Result.forfeit(gone, here), "🚪 Decided by forfeit: a player is out.")
            return
        seats = [(_uid(p), s.names.get(p, p)) for p in here]
        minutes = self.config.no_show_minutes
        vs = " vs ".join(f"<@{_uid(p)}>" for p in here)
        intro = (f"🏆 **{self.shown(t.name)}** — round {m.round}, match {m.number + 1}: {vs}\n"
                 f"Open your board here within {plural(minutes, 'minute')} or forfeit the match. The result is "
                 f"recorded when the game ends.")
        try:
            table = await self.tables.open_seated(t.kind, dict(t.options), {"tournament": t.id}, guild_id=t.guild_id,
                                                  channel_id=t.channel_id, seats=seats, host_id=t.organizer_id,
                                                  title=f"{t.name} · R{m.round} M{m.number + 1}", intro=intro)
        except Exception as exc:
            log.exception("tournament %s: could not open round %s match %s", t.id, m.round, m.number)
            await self.storage.set_match_status(t.id, m.round, m.number, "broken")
            await self._say(t, f"⚠️ The table of round {m.round}, match {m.number + 1} could not be opened ({exc}). "
                               f"The organizer can `/tournament reseat match:{m.number + 1}` or `/tournament force`.")
            return
        try:
            await self.storage.open_match(t.id, m.round, m.number, game_id=table.id, opened_at=_now_ms())
        except BaseException:
            # Dealt but not linked: the match is still pending and the next step opens it again, so
            # this table must not stay (its players would play a game the tournament never records).
            log.warning("tournament %s: round %s match %s: table %s could not be linked; it is closed",
                        t.id, m.round, m.number, table.id)
            await asyncio.shield(self.tables.close_table(
                table.id, "⚠️ This table could not be recorded for the tournament; the match opens again."))
            raise

    def _no_show_ms(self) -> float:
        return float(self.config.no_show_minutes) * 60_000 * self.time_scale

    async def _watch_match(self, s: _State, m: MatchRow, now: int) -> None:
        """One open match: record a finished game, mark a broken table, rule the no-shows."""
        t = s.t
        if m.status == "pending" and t.status == "running":
            await self._open(s, m)
            return
        if m.status not in ("playing", "broken") or m.game_id is None:
            return
        game = await self.storage.game(m.game_id)
        if game is not None and game.status == "finished" and m.status == "playing":
            await self._record_game(s, m)
            return
        if game is not None and game.status == "cancelled" and m.status == "playing":
            await self.storage.set_match_status(t.id, m.round, m.number, "broken")
            await self._say(t, f"⚠️ The table of round {m.round}, match {m.number + 1} ended without a result. The "
                               f"organizer can `/tournament reseat match:{m.number + 1}` or `/tournament force`.")
            m = (await self._match(t.id, m.round, m.number)) or m
        if t.status != "running" or m.opened_at is None or now < m.opened_at + self._no_show_ms():
            return
        active = set(s.active)
        gone = [p for p in m.players if p not in m.shown or p not in active]
        if not gone:
            return
        here = [p for p in m.players if p not in gone]
        live = self.tables.tables.get(m.game_id) if m.game_id is not None else None
        if len(here) >= 2 and m.status == "playing" and live is not None:
            for p in gone:
                if await self.tables.seat_to_bot(live, _uid(p), "did not show"):
                    self._spawn(self._say(t, f"⌛ {self._names(s).get(p, p)} did not show for round {m.round}, match "
                                             f"{m.number + 1}, and forfeits it; a bot plays the seat."))
            return
        if len(here) >= 2:
            return  # a broken table of present players: the organizer re-seats or forces it
        result = Result.forfeit(gone, here)
        names = ", ".join(self._names(s).get(p, p) for p in gone)
        await self._decide(s, m, result, f"⌛ Decided by forfeit: {names} did not show.")

    async def _match(self, tid: int, round_: int, number: int) -> MatchRow | None:
        for rnd in await self.storage.rounds(tid):
            for m in rnd.matches:
                if m.round == round_ and m.number == number:
                    return m
        return None

    async def _decide(self, s: _State, m: MatchRow, result: Result, why: str) -> None:
        """Record *result* for a match that did not finish at its table, and end the table."""
        await self.storage.finish_match(s.t.id, m.round, m.number, result_to_json(result))
        if m.game_id is not None:
            await self.tables.close_table(m.game_id, f"{why} (tournament **{self.shown(s.t.name)}**)")
        self._spawn(self._say(s.t, f"Round {m.round}, match {m.number + 1}: {why} {self._result_words(s, m, result)}"))

    def _result_words(self, s: _State, m: MatchRow, r: Result) -> str:
        names = self._names(s)
        if len(m.players) == 1:
            return f"{names.get(m.players[0], m.players[0])} has a bye."
        order = sorted(m.players, key=lambda p: (p in r.forfeits, r.places[p]))
        if len(m.players) == 2:
            a, b = order
            if a in r.forfeits:
                return "Both forfeit."
            if r.places[a] == r.places[b]:
                return f"{names.get(a, a)} and {names.get(b, b)} draw."
            return f"{names.get(a, a)} beats {names.get(b, b)}."
        return "Places: " + ", ".join(f"{'—' if p in r.forfeits else r.places[p]}. {names.get(p, p)}" for p in order)

    async def _record_game(self, s: _State, m: MatchRow) -> None:
        """The game of match *m* finished: its result becomes the match's (forfeits for no-shows, leavers)."""
        assert m.game_id is not None
        game = await self.storage.result(m.game_id) or {}
        seats = await self.storage.seats(m.game_id)
        by_bot = {x.player_id for x in seats if x.user_id is None}
        gone = [p for p in m.players if p in by_bot or p not in s.active]
        result = result_from_game(m.players, game, gone, lowest_wins=self._lowest_wins(s.t.kind))
        await self.storage.finish_match(s.t.id, m.round, m.number, result_to_json(result))
        log.info("tournament %s: round %s match %s recorded from game %s", s.t.id, m.round, m.number, m.game_id)
        self._spawn(self._say(s.t, f"✅ Round {m.round}, match {m.number + 1}: {self._result_words(s, m, result)}"))

    async def on_game_finished(self, game_id: int) -> None:
        """|coro| A table's result was stored (a finish hook): if it is a tournament match, record it and
        move the tournament on, after this returns (the last click must be answered quickly).
        """
        m = await self.storage.match_of_game(game_id)
        if m is not None and m.status == "playing":
            self._spawn(self.step(m.tournament_id))

    async def on_seen(self, game_id: int, user_id: int) -> None:
        """|coro| A seated user showed up at table *game_id* (a seen hook): not a no-show."""
        m = await self.storage.match_of_game(game_id)
        if m is None or _pid(user_id) not in m.players:
            return
        async with self._lock(m.tournament_id):
            m = await self.storage.match_of_game(game_id)
            if m is not None and _pid(user_id) not in m.shown:
                await self.storage.set_match_shown(m.tournament_id, m.round, m.number, [*m.shown, _pid(user_id)])

    async def _finish(self, s: _State, *, early: bool) -> None:
        t = s.t
        await self.storage.end_tournament(t.id, "finished", finished_at=_now_ms())
        t = await self.tournament(t.id)
        s = _State(t, s.entrants, s.rounds)
        rows = self.standings(s)
        winner = self._winner(s, rows)
        head = f"🏆 **{self.shown(t.name)}** {'ended early' if early else 'is over'}!"
        if winner:
            head += f" Winner: **{self._names(s).get(winner, winner)}** (<@{_uid(winner)}>)."
        await self._say(t, f"{head}\n{self.standings_text(s, title='Final standings')}",
                        pings=[_uid(winner)] if winner else [])
        await self._redraw(t)
        log.info("tournament %s finished (early=%s)", t.id, early)

    def _winner(self, s: _State, rows: list[Standing]) -> str | None:
        if s.t.format == "elimination" and s.rounds:
            final = s.rounds[-1]
            if len([m for m in final.matches if m.players]) == 1:
                m = next(m for m in final.matches if m.players)
                if m.result:
                    ahead = elimination.advancers(Match(m.players), result_from_json(m.result))
                    return ahead[0] if ahead else None
        if rows and rows[0].played and (len(rows) < 2 or rows[1].rank != rows[0].rank):
            return rows[0].player
        return None

    # ------------------------------------------------------------------ organizer controls

    async def force(self, tid: int, actor: Actor) -> int:
        """|coro| Decide every unfinished match of the current round by the game's current standings
        (``docs/tournaments.md`` §9) and move on; returns how many were decided.

        Raises
        ------
        TournamentError
            Not allowed, or no round is being played.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            self._check_runs(s.t, actor)
            if s.t.status not in ("running", "paused") or s.current is None:
                raise TournamentError("No round is being played.")
            open_ = [m for m in s.current.matches if m.status not in ("done", "empty")]
            for m in open_:
                standing, gone = await self._standing(s, m)
                result = forced.decide(Match(m.players), standing.scores if standing else {}, forfeits=gone,
                                       ranks=standing.ranks if standing else None,
                                       lowest_wins=self._lowest_wins(s.t.kind))
                await self._decide(s, m, result, "⏩ The organizer forced the next round: decided by the current "
                                                 "standings.")
            if s.t.status == "running":
                await self._step(tid)
        return len(open_)

    async def _standing(self, s: _State, m: MatchRow) -> tuple[EngineResult | None, list[str]]:
        """The standing of match *m*'s game now (``Engine.standing`` of the live game, or of the game
        rebuilt from its log; ``None`` without a game), restricted to the match's players, and its forfeiters.
        """
        active = set(s.active)
        late = m.opened_at is not None and _now_ms() >= m.opened_at + self._no_show_ms()
        gone = [p for p in m.players if p not in active or (late and p not in m.shown)]
        if m.game_id is None:
            return None, gone
        live = await self.tables.live(m.game_id)  # (a table a restart left to replay later: replayed now)
        engine = live.engine if live is not None else None
        if engine is None:
            row = await self.storage.game(m.game_id)
            if row is not None and row.kind in self.tables.engines:
                seats = await self.storage.seats(m.game_id)
                actions = [[player, action] for player, action in await self.storage.action_log(m.game_id)]
                try:
                    engine = self._engine(row.kind).replay({"kind": row.kind, "seed": row.seed, "options": row.options,
                                                            "players": [x.player_id for x in seats],
                                                            "actions": actions})
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

    async def drop(self, tid: int, actor: Actor, user_id: int, *, disqualify: bool = False) -> str:
        """|coro| Drop (or disqualify) player *user_id*: themselves, or by the organizer. Their past results
        keep counting; a match they are playing is forfeited (``docs/tournaments.md`` §1, §2).

        Raises
        ------
        TournamentError
            Not allowed, not in the tournament, or already out.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            if actor.user_id != user_id or disqualify:
                self._check_runs(s.t, actor)
            e = s.entrant(user_id)
            if e is None or e.status in ("dropped", "disqualified"):
                raise TournamentError("That player is not in this tournament." if e is None
                                      else "That player is already out.")
            if s.t.status in ("finished", "cancelled"):
                raise TournamentError("The tournament is over.")
            await self.storage.set_entrant(tid, user_id, e.name, "disqualified" if disqualify else "dropped")
            if s.t.status in ("registration", "checkin") and e.status in PLAYING:
                await self._promote(s)
            s = await self._state(tid)
            pid = _pid(user_id)
            m = next((x for x in (s.current.matches if s.current else ()) if pid in x.players
                      and x.status in ("pending", "playing", "broken")), None)
            if m is not None:
                here = [p for p in m.players if p in s.active]
                live = self.tables.tables.get(m.game_id) if m.game_id is not None else None
                if len(here) >= 2 and live is not None and m.status == "playing":
                    await self.tables.seat_to_bot(live, user_id, "dropped from the tournament")
                elif len(here) < 2:
                    gone = [p for p in m.players if p not in here]
                    await self._decide(s, m, Result.forfeit(gone, here),
                                       f"🚪 {self.shown(e.name)} dropped and forfeits.")
            if s.t.status == "running":
                await self._step(tid)
        word = "disqualified" if disqualify else "dropped"
        self._spawn(self._redraw(s.t))
        name, by = self.shown(e.name), "" if actor.user_id == user_id else f" by {self.shown(actor.name)}"
        self._spawn(self._say(s.t, f"{'⛔' if disqualify else '🚪'} {name} is {word} from "
                                   f"**{self.shown(s.t.name)}**{by}."))
        return f"{name} is {word}" + (" from the tournament." if s.t.status in ("running", "paused")
                                        else ".")

    async def reseat(self, tid: int, actor: Actor, number: int) -> str:
        """|coro| Open a new table for match *number* (from 1) of the current round, ending its old one.

        Raises
        ------
        TournamentError
            Not allowed, no such open match.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            self._check_runs(s.t, actor)
            m = next((x for x in (s.current.matches if s.current else ()) if x.number == number - 1), None)
            if m is None or m.status not in ("pending", "playing", "broken"):
                raise TournamentError(f"Match {number} of the current round is not being played.")
            game = await self.storage.game(m.game_id) if m.game_id is not None else None
            if m.status == "playing" and game is not None and game.status == "finished":
                # Its game ended but the result is not recorded yet: record it, never replay it.
                await self._step(tid)
                raise TournamentError(f"Match {number}'s game has ended: its result is recorded, not re-seated.")
            if m.game_id is not None:
                await self.tables.close_table(m.game_id, "♻️ The organizer re-seated this match at a new table.")
            await self.storage.reset_match(tid, m.round, m.number)
            if s.t.status == "running":
                await self._step(tid)
        self._spawn(self._say(s.t, f"♻️ Round {m.round}, match {number} of **{self.shown(s.t.name)}** is re-seated "
                                   f"at a new table."))
        return f"Match {number} of round {m.round} is re-seated at a new table."

    async def pause(self, tid: int, actor: Actor) -> None:
        """|coro| Pause: tables keep playing and results are recorded, but no-shows are not ruled and
        the next round waits.

        Raises
        ------
        TournamentError
            Not allowed, or not running.
        """
        async with self._lock(tid):
            t = await self.tournament(tid)
            self._check_runs(t, actor)
            if t.status != "running":
                raise TournamentError("Only a running tournament can be paused.")
            await self.storage.set_tournament_status(tid, "paused")
        await self._say(t, f"⏸️ **{self.shown(t.name)}** is paused.")
        await self._redraw(await self.tournament(tid))

    async def resume(self, tid: int, actor: Actor) -> None:
        """|coro| Resume a paused tournament; the no-show clock of open matches starts afresh.

        Raises
        ------
        TournamentError
            Not allowed, or not paused.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            self._check_runs(s.t, actor)
            if s.t.status != "paused":
                raise TournamentError("The tournament is not paused.")
            await self.storage.set_tournament_status(tid, "running")
            for m in s.current.matches if s.current else ():
                if m.status == "playing":
                    await self.storage.set_match_opened_at(tid, m.round, m.number, _now_ms())
        await self._say(s.t, f"▶️ **{self.shown(s.t.name)}** resumes.")
        await self.step(tid)
        await self._redraw(await self.tournament(tid))

    async def end(self, tid: int, actor: Actor) -> None:
        """|coro| End early: open tables close, unfinished matches do not count, final standings are posted
        (before the start: the tournament is cancelled).

        Raises
        ------
        TournamentError
            Not allowed, or already over.
        """
        async with self._lock(tid):
            s = await self._state(tid)
            self._check_runs(s.t, actor)
            if s.t.status in ("finished", "cancelled"):
                raise TournamentError("The tournament is already over.")
            if s.t.status in ("registration", "checkin"):
                await self.storage.end_tournament(tid, "cancelled", finished_at=_now_ms())
                await self._say(s.t, f"⛔ **{self.shown(s.t.name)}** was cancelled by {self.shown(actor.name)}.")
                await self._redraw(await self.tournament(tid))
                return
            for m in s.current.matches if s.current else ():
                if m.status in ("playing", "broken") and m.game_id is not None:
                    await self.tables.close_table(m.game_id, "⛔ The tournament was ended early by the organizer.")
            await self._finish(s, early=True)

    # ------------------------------------------------------------------ reading

    async def load(self, tid: int) -> _State:
        """|coro| Tournament *tid* with its entrants and rounds (for rendering)."""
        return await self._state(tid)

    def standings(self, s: _State) -> list[Standing]:
        """The standings of everyone who played (``docs/tournaments.md`` §6)."""
        rounds = s.model_rounds()
        seen = {p for r in rounds for p in r.players}
        players = [_pid(e.user_id) for e in s.entrants if _pid(e.user_id) in seen or e.status == "checked_in"]
        if s.t.status in ("registration", "checkin"):
            return []
        return standings(players, rounds, pods=self._pods(s.t))

    def standings_text(self, s: _State, *, title: str = "Standings", page: int = 0,
                       per_page: int = 20) -> str:
        """The standings as a message: rank, name, points and the tie-breaks (one page of *per_page*)."""
        rows = self.standings(s)
        if not rows:
            return f"**{self.shown(s.t.name)}** — no standings before the first round."
        status = {e.user_id: e.status for e in s.entrants}
        opp = "Buchholz" if self._pods(s.t) else "OMW"
        names = self._names(s)
        lines = [f"**{self.shown(s.t.name)}** — {title}"]
        for r in rows[page * per_page:(page + 1) * per_page]:
            out = status.get(_uid(r.player))
            mark = " (dropped)" if out == "dropped" else " (disqualified)" if out == "disqualified" else ""
            opp_value = f"{float(r.opponents) * 100:.1f}%" if not self._pods(s.t) else _fmt(r.opponents)
            lines.append(f"{r.rank}. {names.get(r.player, r.player)}{mark} — **{_fmt(r.points)}** pts · "
                         f"{opp} {opp_value} · GP {_fmt(r.game_points)}"
                         + (f" · H2H {_fmt(r.head_to_head)}" if r.head_to_head else ""))
        pages = max(1, -(-len(rows) // per_page))
        if pages > 1:
            lines.append(f"Page {page + 1} of {pages}")
        legend = ["Buchholz: the other players' mean points at each of your tables, summed" if self._pods(s.t)
                  else "OMW: opponents' match-win %", "GP: game points"]
        if any(r.head_to_head for r in rows[page * per_page:(page + 1) * per_page]):
            legend.append("H2H: points against the players tied with you")
        lines.append("-# " + " · ".join(legend))
        return "\n".join(lines)

    def standings_pages(self, s: _State, per_page: int = 20) -> int:
        """How many pages :meth:`standings_text` has."""
        return max(1, -(-len(self.standings(s)) // per_page))

    def pairings_text(self, s: _State, number: int | None = None) -> str:
        """Round *number*'s matches (default the current) with their state or result."""
        rnd = next((r for r in s.rounds if r.number == number), None) if number else s.current
        if rnd is None:
            return f"**{self.shown(s.t.name)}** — no round has been paired yet."
        names = self._names(s)
        lines = [f"**{self.shown(s.t.name)}** — round {rnd.number} pairings"]
        for m in rnd.matches:
            if not m.players:
                continue
            who = " vs ".join(names.get(p, p) for p in m.players)
            if m.status == "done" and m.result:
                state = self._result_words(s, m, result_from_json(m.result))
                if m.result.get("forced"):
                    state += " (forced)"
            else:
                state = {"pending": "table opening", "playing": "playing", "broken": "table broken"}.get(m.status,
                                                                                                       m.status)
            if len(m.players) == 1:
                lines.append(f"Bye: {who}")
            else:
                lines.append(f"Match {m.number + 1}: {who} — {state}"
                             + (f" (table #{m.game_id})" if m.game_id is not None else ""))
        return "\n".join(lines)

    def message_text(self, s: _State) -> str:
        """The tournament message: what, when, its state and the list of players."""
        t = s.t
        engine = self.tables.engines.get(t.kind)
        game = (engine[0].title if engine else "") or t.kind
        rounds = int(t.settings.get("rounds") or 0)
        fmt = FORMATS[t.format] + (f", tables of {t.settings['table_size']}" if self._pods(t) else "")
        fmt += f", {plural(rounds, 'round')}" if t.format in ("swiss", "pods") and rounds else ""
        state = {"registration": "Registration open", "checkin": "Check-in open",
                 "running": f"Round {t.round} being played", "paused": f"Paused in round {t.round}",
                 "finished": "Finished", "cancelled": "Cancelled"}[t.status]
        how = " — press **Check in**" if t.status == "checkin" else ""
        lines = [f"🏆 **{self.shown(t.name)}** — tournament #{t.id}", f"{game} · {fmt} · organizer <@{t.organizer_id}>",
                 f"**{state}**{how}"]
        if t.settings.get("start_at") and t.status in ("registration", "checkin"):
            lines.append(f"Starts <t:{int(t.settings['start_at']) // 1000}:R>"
                         + (f"; check-in opens {plural(int(t.settings['checkin_minutes']), 'minute')} before."
                            if t.settings.get("checkin_minutes") and t.status == "registration" else "."))
        holding = [e for e in s.entrants if e.status in PLAYING]
        lines.append(f"Players ({len(holding)}/{t.settings['capacity']}):")
        shown = holding[:40]
        lines += [f"{'✅' if e.status == 'checked_in' and t.status == 'checkin' else '•'} {self.shown(e.name)}"
                  for e in shown]
        if len(holding) > len(shown):
            lines.append(f"… and {len(holding) - len(shown)} more")
        waiting = [self.shown(e.name) for e in s.entrants if e.status == "waitlisted"]
        if waiting and t.status in ("registration", "checkin"):
            lines.append(f"Waitlist: {', '.join(waiting[:20])}" + (" …" if len(waiting) > 20 else ""))
        out = [self.shown(e.name) for e in s.entrants if e.status in ("dropped", "disqualified")]
        if out:
            lines.append(f"Out: {', '.join(out[:20])}" + (" …" if len(out) > 20 else ""))
        return "\n".join(lines)

    def export_csv(self, s: _State, what: str = "standings") -> str:
        """The standings (or, with *what* ``matches``, every match) as CSV text (``docs/tournaments.md`` §10)."""
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        names = s.names
        if what == "matches":
            out.writerow(["round", "match", "game_id", "players", "status", "places", "forfeits", "scores", "forced"])
            for rnd in s.rounds:
                for m in rnd.matches:
                    if not m.players:
                        continue
                    res = m.result or {}
                    out.writerow([rnd.number, m.number + 1, m.game_id or "",
                                  " | ".join(names.get(p, p) for p in m.players), m.status,
                                  " | ".join(f"{names.get(p, p)}={v}" for p, v in res.get("places", {}).items()),
                                  " | ".join(names.get(p, p) for p in res.get("forfeits", [])),
                                  " | ".join(f"{names.get(p, p)}={v:g}" for p, v in res.get("scores", {}).items()),
                                  "yes" if res.get("forced") else ""])
            return buf.getvalue()
        status = {e.user_id: e.status for e in s.entrants}
        out.writerow(["rank", "player", "user_id", "status", "points", "omw_or_buchholz", "game_points",
                      "head_to_head", "played", "byes"])
        for r in self.standings(s):
            out.writerow([r.rank, names.get(r.player, r.player), _uid(r.player), status.get(_uid(r.player), ""),
                          f"{float(r.points):.4g}", f"{float(r.opponents):.4f}", f"{float(r.game_points):.4g}",
                          f"{float(r.head_to_head):.4g}", r.played, r.byes])
        return buf.getvalue()

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
