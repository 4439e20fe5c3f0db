"""What the tournament service posts: lines in the tournament's channel and its redrawn message.

:class:`Announcements` is the one way the parts reach Discord, through the
:class:`~bot.tournaments.messenger.TournamentMessenger` it is given; the texts are
:class:`~bot.tournaments.texts.TournamentTexts`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.art.pictures import Moment, render
from bot.storage import TournamentRow
from bot.storage.outbox import Notice
from bot.tournaments.core import TournamentCore
from bot.tournaments.messenger import TournamentMessenger
from bot.tournaments.texts import TournamentTexts

__all__ = ["Announcements"]

log = logging.getLogger("parlor.tournaments")


class Announcements:
    """Posting for the tournament service (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (storage, chores).
    messenger:
        How to reach the channel and the tournament message.
    texts:
        What the tournament message says.
    """

    def __init__(self, core: TournamentCore, messenger: TournamentMessenger, texts: TournamentTexts) -> None:
        self.core = core
        self.messenger = messenger
        self.texts = texts
        self.shown = messenger.shown

    async def say(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Post *text* in *t*'s channel now, pinging only *pings*. Never raises (the messenger's rule)."""
        await self.messenger.say(t, text, pings=pings)

    def notice(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> list[Notice]:
        """The announcement *text* in *t*'s channel, as the outbox rows to store with the change that
        causes it (``notices=`` of the storage's tournament writes): a change stored is a change
        announced (``docs/design.md`` §3, "The outbox"). Empty when the messenger posts it another way.
        """
        notice = self.messenger.notice(t, text, pings=pings)
        return [notice] if notice is not None else []

    def later(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """Post *text* in *t*'s channel once the caller is done (a chore: a command answers first)."""
        self.core.spawn(self.messenger.say(t, text, pings=pings))

    async def redraw(self, tid: int) -> None:
        """|coro| Redraw tournament *tid*'s message from what is stored now (nothing before it is posted).

        Raises
        ------
        TournamentError
            No such tournament.
        """
        s = await self.core.state(tid)
        if s.t.message_id is not None:
            await self.messenger.redraw(s.t, self.texts.message_text(s))

    def redraw_later(self, tid: int) -> None:
        """Redraw tournament *tid*'s message once the caller is done (a chore)."""
        self.core.spawn(self.redraw(tid))

    async def picture(self, t: TournamentRow, moment: Moment) -> None:
        """|coro| Draw *moment* (standings, a bracket) in a worker thread, off the loop, and post it in
        *t*'s channel (``docs/art.md`` §7). Never raises: a picture that cannot be drawn is logged.
        """
        try:
            drawn = await asyncio.to_thread(render, moment)
        except Exception:
            log.exception("tournament %s: could not draw its %s", t.id, type(moment).__name__)
            return
        await self.messenger.show_picture(t, drawn)

    def picture_later(self, t: TournamentRow, moment: Moment) -> None:
        """Post *moment*'s picture in *t*'s channel once the caller is done (a chore, after the text
        it goes with).
        """
        self.core.spawn(self.picture(t, moment))
