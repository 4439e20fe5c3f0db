"""What the table service's parts need of Discord, as a protocol: post a line, end a message, watch a table.

The Discord-free parts (:mod:`bot.tables.moves`, :mod:`bot.tables.loops`, :mod:`bot.tables.lobby`,
:mod:`bot.tables.restore`) are given a :class:`Messenger` in their constructor and never see
Discord; the bot gives them :class:`~bot.tables.messages.DiscordMessenger`, tests and offline tools
a :class:`RecordingMessenger` (``docs/design.md`` §1, "Composed, not chained").
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.art.pictures import Picture
from bot.storage.outbox import Notice
from bot.tables.table import Table

__all__ = ["Messenger", "RecordingMessenger"]


class Messenger(Protocol):
    """How the table service's parts reach the people at a table."""

    async def say(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Post a short new message in *table*'s thread; it pings exactly the users *pings*
        (snowflakes), whatever *text* holds (a name with a mention in it pings nobody).

        On Discord it goes through the outbox (stored, then posted and retried in order: a notice
        that no state change causes). Never raises: a message that cannot be stored is logged.
        """

    def notice(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> Notice | None:
        """The outbox row of a notice that a move causes (see :meth:`say`), to be stored in the same
        commit as the move (:meth:`bot.storage.Storage.append_action`); ``None`` when this messenger
        posts it another way (it has then taken it already).
        """

    async def mark_ended(self, table: Table, text: str) -> None:
        """|coro| Show on *table*'s public message that it ended (*text*), without buttons. Never raises."""

    async def show_picture(self, table: Table, picture: Picture) -> None:
        """|coro| Post *picture* (a moment's PNG, its file name, alt text and caption) as a new message
        in *table*'s thread, once (``docs/art.md`` §7). Never raises: a refusal is logged and dropped.
        """

    def watch(self, table: Table) -> list[Coroutine[Any, Any, None]]:
        """The tasks that keep running *table*'s messages current (its public message, its open boards)."""


@dataclass
class RecordingMessenger:
    """A :class:`Messenger` that records what it would post, for tests and tools without Discord.

    Attributes
    ----------
    said:
        The lines posted in table threads, in order.
    pinged:
        The lines among :attr:`said` posted with pings, each with the users it pings.
    ended:
        The texts tables ended with, in order.
    pictures:
        The pictures posted in table threads, in order, each with its table's id.
    """

    said: list[str] = field(default_factory=list)
    pinged: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)
    pictures: list[tuple[int, Picture]] = field(default_factory=list)

    async def say(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Record *text* and whom it pings (see :meth:`Messenger.say`)."""
        self.said.append(text)
        if pings:
            self.pinged.append((text, tuple(pings)))

    def notice(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> Notice | None:
        """Record *text* as said at once (see :meth:`Messenger.notice`): nothing to store."""
        self.said.append(text)
        if pings:
            self.pinged.append((text, tuple(pings)))
        return None

    async def mark_ended(self, table: Table, text: str) -> None:
        """|coro| Record *text* (see :meth:`Messenger.mark_ended`)."""
        self.ended.append(text)

    async def show_picture(self, table: Table, picture: Picture) -> None:
        """|coro| Record *picture* (see :meth:`Messenger.show_picture`)."""
        self.pictures.append((table.id, picture))

    def watch(self, table: Table) -> list[Coroutine[Any, Any, None]]:
        """No messages to keep current: no tasks."""
        return []
