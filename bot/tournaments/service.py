"""The tournament service: one façade over the parts that run every tournament of this process.

The rest of :mod:`bot.tournaments` is pure (``docs/tournaments.md`` §10): every pairing, seating,
bracket and standings decision is made by :mod:`~bot.tournaments.swiss`,
:mod:`~bot.tournaments.pods`, :mod:`~bot.tournaments.elimination`,
:mod:`~bot.tournaments.round_robin`, :mod:`~bot.tournaments.standings` and
:mod:`~bot.tournaments.forced`. The service keeps tournaments in storage, opens one table per
match through the table service and hears when those games end. Like the table service
(``docs/tables.md``, "The table service inside") and discord.py's ``Client``, which holds its
``ConnectionState`` and ``HTTPClient`` rather than inheriting from them, it holds its parts, each
an object with its own state, given what it needs in its constructor:

* :class:`~bot.tournaments.core.TournamentCore` — storage, settings, the tables (a
  :class:`~bot.tournaments.core.TableHost`), the clock, the locks and chores;
* :class:`~bot.tournaments.texts.TournamentTexts` — what the messages say (and the CSV export);
* :class:`~bot.tournaments.announcements.Announcements` — posting, through a
  :class:`~bot.tournaments.messenger.TournamentMessenger`;
* :class:`~bot.tournaments.registration.Registration` — create, register, check in, start;
* :class:`~bot.tournaments.results.Results` — results from finished games, forfeits, forcing;
* :class:`~bot.tournaments.noshow.NoShowWatch` — who showed up, and the no-shows' forfeits;
* :class:`~bot.tournaments.scheduler.Scheduler` — the one step that moves a tournament on:
  rounds paired off the event loop, tables opened, the end;
* :class:`~bot.tournaments.controls.OrganizerControls` — force, drop, re-seat, pause, resume, end;
* :class:`~bot.tournaments.ticker.Ticker` — the background loop.

No Discord here: the cog gives the service a messenger (``cogs.tournaments``), tests and the
command line a :class:`~bot.tournaments.messenger.RecordingTournamentMessenger`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.storage import Storage
from bot.tables.core import Actor
from bot.tournaments.announcements import Announcements
from bot.tournaments.controls import OrganizerControls
from bot.tournaments.core import TableHost, TournamentCore, TournamentError
from bot.tournaments.messenger import RecordingTournamentMessenger, TournamentMessenger
from bot.tournaments.noshow import NoShowWatch
from bot.tournaments.registration import Registration
from bot.tournaments.results import Results
from bot.tournaments.scheduler import Scheduler
from bot.tournaments.state import (
    FORMATS,
    TournamentState,
    plural,
    result_from_game,
    result_from_json,
    result_to_json,
)
from bot.tournaments.statuses import EntrantStatus, MatchStatus, TournamentStatus
from bot.tournaments.texts import TournamentTexts
from bot.tournaments.ticker import Ticker

__all__ = ["TournamentService", "TournamentError", "TableHost", "TournamentState", "FORMATS", "STATUSES",
           "TournamentStatus", "MatchStatus", "EntrantStatus", "result_from_game", "result_to_json",
           "result_from_json", "plural"]

STATUSES = tuple(TournamentStatus)
"""Every tournament status, in the order of a tournament's life."""


class TournamentService:
    """Every tournament of this process (``docs/tournaments.md`` §10): the parts, composed.

    Parameters
    ----------
    storage:
        The repository.
    config:
        The ``[tournaments]`` settings (``bot.config.TournamentsConfig``).
    tables:
        The table service (:class:`~bot.tournaments.core.TableHost`); the command line's export,
        which reads storage only, passes none.
    ratings:
        Optional: anything with ``seed_order(guild_id, kind, user_ids)`` (the rating service), to
        seed a single elimination by rating (§7).
    messenger:
        How the service reaches Discord; default a
        :class:`~bot.tournaments.messenger.RecordingTournamentMessenger` (posts nothing).
    clock:
        Now, in Unix milliseconds (default the wall clock).

    Attributes
    ----------
    core, texts, announce, registration, results, noshow, scheduler, controls, ticker:
        The parts (see the module's documentation). Their public methods are the façade's own
        (:meth:`register`, :meth:`step`, :meth:`force`, :meth:`standings_text`, …), as bound methods.
    messenger:
        The messenger the parts post through.
    """

    def __init__(self, storage: Storage, config: Any, tables: TableHost, ratings: Any = None, *,
                 messenger: TournamentMessenger | None = None, clock: Callable[[], int] | None = None) -> None:
        self.messenger: TournamentMessenger = messenger or RecordingTournamentMessenger()
        self.core = core = TournamentCore(storage, config, tables, clock)
        self.texts = texts = TournamentTexts(core, self.messenger)
        self.announce = announce = Announcements(core, self.messenger, texts)
        self.registration = registration = Registration(core, announce, ratings)
        self.results = results = Results(core, announce, texts)
        self.noshow = noshow = NoShowWatch(core, announce, texts, results)
        self.scheduler = scheduler = Scheduler(core, announce, texts, registration, results, noshow)
        self.controls = controls = OrganizerControls(core, announce, registration, results, noshow, scheduler)
        self.ticker = Ticker(core, scheduler, noshow, self.messenger)
        self.storage, self.config, self.tables, self.ratings = storage, config, tables, ratings
        self.tournament, self.find, self.may_run = core.tournament, core.find, core.may_run
        self.create, self.register = registration.create, registration.register
        self.unregister, self.check_in, self.open_checkin = (registration.unregister, registration.check_in,
                                                             registration.open_checkin)
        self.step, self.on_game_finished, self.on_seen = scheduler.step, scheduler.on_game_finished, noshow.on_seen
        self.force, self.drop, self.reseat = controls.force, controls.drop, controls.reseat
        self.pause, self.resume, self.end = controls.pause, controls.resume, controls.end
        self.standings, self.standings_text, self.standings_pages = (texts.standings, texts.standings_text,
                                                                     texts.standings_pages)
        self.pairings_text, self.message_text, self.export_csv = (texts.pairings_text, texts.message_text,
                                                                  texts.export_csv)

    async def start(self, tid: int, actor: Actor | None) -> None:
        """|coro| Start now (*actor* ``None``: the timer) and pair round 1, its tables opening
        (:meth:`Registration.start <bot.tournaments.registration.Registration.start>`, then :meth:`step`).

        Raises
        ------
        TournamentError
            Not allowed, already started, or too few players.
        """
        await self.registration.start(tid, actor)
        await self.scheduler.step(tid)

    async def load(self, tid: int) -> TournamentState:
        """|coro| Tournament *tid* with its entrants and rounds (for rendering).

        Raises
        ------
        TournamentError
            No such tournament.
        """
        return await self.core.state(tid)

    # ------------------------------------------------------------------ life cycle

    def attach(self) -> None:
        """Hear finished games and players showing up at tables, and start the background loop."""
        if self.on_game_finished not in self.core.tables.finish_hooks:
            self.core.tables.finish_hooks.append(self.on_game_finished)
        if self.on_seen not in self.core.tables.seen_hooks:
            self.core.tables.seen_hooks.append(self.on_seen)
        self.ticker.start()

    async def detach(self) -> None:
        """|coro| Stop hearing the tables, stop the loop and the chores (the state is in storage)."""
        if self.on_game_finished in self.core.tables.finish_hooks:
            self.core.tables.finish_hooks.remove(self.on_game_finished)
        if self.on_seen in self.core.tables.seen_hooks:
            self.core.tables.seen_hooks.remove(self.on_seen)
        await self.ticker.stop()
        await self.core.stop()

    @property
    def time_scale(self) -> float:
        """Multiplies the no-show time and the timed starts (tests use a small value)."""
        return self.core.time_scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        self.core.time_scale = value

    @property
    def tick_seconds(self) -> float:
        """Seconds between two passes of the background loop over the live tournaments."""
        return self.ticker.tick_seconds

    @tick_seconds.setter
    def tick_seconds(self, value: float) -> None:
        self.ticker.tick_seconds = value
