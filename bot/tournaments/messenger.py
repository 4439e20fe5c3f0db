"""What the tournament service needs of Discord, as a protocol: post in the channel, redraw the message.

The service's parts (:mod:`bot.tournaments.service`) are given a :class:`TournamentMessenger` and
never see Discord; the bot gives them ``cogs.tournaments.DiscordTournamentMessenger``, tests and
offline tools a :class:`RecordingTournamentMessenger` (``docs/design.md`` §1, "Composed, not chained").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.art.pictures import Picture
from bot.storage import TournamentRow
from bot.storage.outbox import Notice

__all__ = ["TournamentMessenger", "RecordingTournamentMessenger", "TournamentRow"]


class TournamentMessenger(Protocol):
    """How the tournament service reaches a tournament's channel and its tournament message."""

    async def ready(self) -> None:
        """|coro| Return once messages can be posted (on Discord: once the gateway is ready)."""

    def shown(self, text: str) -> str:
        """*text*, a player's or a tournament's name, as the messages write it: never formatting a
        message nor pinging anyone (the CSV export and the storage keep names as they are).
        """

    async def say(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Post *text* in *t*'s channel (announcements: rounds, results, standings, the final).

        It pings the users of *pings* (the members it is for), whose mentions it holds, and nobody
        else. On Discord it goes through the outbox on its own (an announcement no state change
        causes, or one whose change is already stored). Never raises: a message that cannot be
        stored is logged.
        """

    def notice(self, t: TournamentRow, text: str, *, pings: Sequence[int] = (),
               dedup: str | None = None) -> Notice | None:
        """The outbox row of an announcement that a tournament change causes (see :meth:`say`), to be
        stored in that change's transaction (e.g. :meth:`bot.storage.Storage.finish_match`); ``None``
        when this messenger posts it another way (it has then taken it already).
        """

    async def redraw(self, t: TournamentRow, text: str) -> None:
        """|coro| Show *text* on *t*'s tournament message (``t.message_id``, not ``None``) with the
        buttons *t*'s status allows. Never raises.
        """

    async def show_picture(self, t: TournamentRow, picture: Picture) -> None:
        """|coro| Post *picture* (its standings or bracket, ``docs/art.md`` §7) in *t*'s channel. Never raises."""


@dataclass
class RecordingTournamentMessenger:
    """A :class:`TournamentMessenger` that records what it would post, for tests and offline tools.

    Attributes
    ----------
    posts:
        The texts posted in tournaments' channels, in order.
    pings:
        The users each post of :attr:`posts` pinged, in the same order.
    redrawn:
        ``(tournament id, text)`` of every redraw of a tournament message, in order.
    pictures:
        ``(tournament id, picture)`` of every picture posted, in order.
    """

    posts: list[str] = field(default_factory=list)
    pings: list[tuple[int, ...]] = field(default_factory=list)
    redrawn: list[tuple[int, str]] = field(default_factory=list)
    pictures: list[tuple[int, Picture]] = field(default_factory=list)

    async def ready(self) -> None:
        """|coro| Ready at once."""

    def shown(self, text: str) -> str:
        """*text* as it is (nothing renders it)."""
        return text

    async def say(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Record *text* and its *pings* (see :meth:`TournamentMessenger.say`)."""
        self.posts.append(text)
        self.pings.append(tuple(pings))

    def notice(self, t: TournamentRow, text: str, *, pings: Sequence[int] = (),
               dedup: str | None = None) -> Notice | None:
        """Record the announcement as posted at once (see :meth:`TournamentMessenger.notice`)."""
        self.posts.append(text)
        self.pings.append(tuple(pings))
        return None

    async def redraw(self, t: TournamentRow, text: str) -> None:
        """|coro| Record the redraw (see :meth:`TournamentMessenger.redraw`)."""
        self.redrawn.append((t.id, text))

    async def show_picture(self, t: TournamentRow, picture: Picture) -> None:
        """|coro| Record the picture (see :meth:`TournamentMessenger.show_picture`)."""
        self.pictures.append((t.id, picture))
