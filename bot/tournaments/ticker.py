"""The tournaments' background loop: every live tournament is moved on once a tick.

:class:`Ticker` runs :meth:`Scheduler.step <bot.tournaments.scheduler.Scheduler.step>` over every
live tournament every :attr:`Ticker.tick_seconds`, which is what rules no-shows, opens timed
check-ins and starts, and picks up a step that failed. Once the messenger is ready, before its
first tick, it starts every open match's no-show clock afresh (a restart forfeits nobody).
"""

from __future__ import annotations

import asyncio
import logging

from bot.tournaments.core import TournamentCore
from bot.tournaments.messenger import TournamentMessenger
from bot.tournaments.noshow import NoShowWatch
from bot.tournaments.scheduler import Scheduler
from bot.tournaments.statuses import LIVE

__all__ = ["Ticker"]

log = logging.getLogger("parlor.tournaments")


class Ticker:
    """The background loop (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (storage).
    scheduler:
        Whose :meth:`~bot.tournaments.scheduler.Scheduler.step` each tick runs (looked up at each
        tick, so a test may wrap it).
    noshow:
        Whose no-show clocks start afresh before the first tick.
    messenger:
        Waited for (:meth:`~bot.tournaments.messenger.TournamentMessenger.ready`) before the first tick.

    Attributes
    ----------
    tick_seconds:
        Seconds between two passes over the live tournaments.
    task:
        The loop's task while it runs, else ``None``.
    """

    def __init__(self, core: TournamentCore, scheduler: Scheduler, noshow: NoShowWatch,
                 messenger: TournamentMessenger) -> None:
        self.core = core
        self.scheduler = scheduler
        self.noshow = noshow
        self.messenger = messenger
        self.tick_seconds = 2.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the loop (nothing when it runs already)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="tournaments")

    async def stop(self) -> None:
        """|coro| Stop the loop and wait for it to end (a step under way is cancelled; the state is in storage)."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    async def run(self) -> None:
        """|coro| Step every live tournament once a tick. Nothing stops it but :meth:`stop`: a tick that
        fails (the database, say) is logged and the next one tries again, so no-show rulings, timed
        check-ins and starts go on for every tournament.
        """
        ready = False
        while True:
            try:
                if not ready:
                    await self.messenger.ready()
                    await self.noshow.restart_clocks()
                    ready = True
                for t in await self.core.storage.tournaments(*LIVE):
                    if not self.core.tables.on_this_shard(t.guild_id):
                        continue  # another shard process's guild (docs/design.md §3)
                    try:
                        await self.scheduler.step(t.id)
                    except Exception:  # one broken tournament must not stop the others
                        log.exception("tournament %s: step failed", t.id)
            except Exception:
                log.exception("tournaments: a tick failed; the next one tries again")
            await asyncio.sleep(self.tick_seconds)
