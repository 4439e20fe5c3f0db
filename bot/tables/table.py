"""One running game: its seats, engine, version and the per-table machinery."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine import Engine, Event
from bot.engine.bots import Bot
from bot.tables.race import RaceArbiter
from bot.tables.timers import TimerBook

__all__ = ["Seat", "Table", "TableStatus", "TableError", "PrivateNote", "PUBLIC_EVENTS_KEPT", "GameOptions",
           "TableSettings"]

GameOptions = dict[str, Any]
"""A game's engine options as given to ``Engine.new`` (JSON-ready: option name to value)."""

TableSettings = dict[str, Any]
"""A table's own settings (``bot_speed``, ``race_window_ms``, ``pace``, its ``secret``, its
``tournament``), JSON-ready: stored with the game."""

PUBLIC_EVENTS_KEPT = 40
"""How many of its latest public events a table keeps (:attr:`Table.public_events`)."""

MOVES_TOLD = 12
"""How many of its latest moves a table keeps with their public events (:attr:`Table.told`)."""


class TableError(ValueError):
    """A table request refused with a reason the user can read (shown ephemerally)."""


class TableStatus(StrEnum):
    """Where a table is in its life; stored as its value in the ``games`` table (``docs/tables.md``).

    A :class:`~enum.StrEnum`: each member equals its value (``TableStatus.RUNNING == "running"``).
    """

    LOBBY = "lobby"
    """Taking seats; not dealt."""
    RUNNING = "running"
    """Dealt and playing."""
    FINISHED = "finished"
    """The game ended and its result is stored."""
    CANCELLED = "cancelled"
    """Ended before its game did (cancelled, expired, ended by the host or a moderator)."""
    PAUSED = "paused"
    """In memory only: a move could not be stored and the game could not be read back; the table
    takes no move until a restart restores it from the database."""


@dataclass
class Seat:
    """A seat at a table: a Discord user or a bot.

    Attributes
    ----------
    player_id:
        The engine's player id (``u<snowflake>`` for users, ``bot<n>`` for bots).
    user_id:
        The Discord user's snowflake, or ``None`` for a bot.
    bot_name:
        The bot's kind (a key of the game's ``BOTS``), or ``None`` for a user.
    name:
        The display name shown at the table.
    away:
        For a bot seat that a person's missed turns or idling handed to a bot: that person's user id
        and name, so opening their board gives the seat back (``docs/tables.md``, "Playing"); else
        ``None``. In memory only: a restart keeps the bot.
    """

    player_id: str
    user_id: int | None
    bot_name: str | None
    name: str
    away: tuple[int, str] | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.bot_name is not None


@dataclass(frozen=True)
class PrivateNote:
    """A line a private event adds to one player's board (a drawn card, a peek).

    Attributes
    ----------
    text:
        What the board shows (≤ 300 characters).
    until_ms:
        When it stops being shown (monotonic milliseconds), or ``None`` to stay until newer notes
        push it out: a peek is hidden again after ``peek_seconds`` (``docs/tables.md``, "Live boards").
    """

    text: str
    until_ms: float | None = None


@dataclass(eq=False)
class Table:
    """A table (one game) as the table service keeps it in memory.

    Attributes
    ----------
    id:
        The game's id in storage (also in every custom id of its components).
    kind, title:
        The engine kind and the game's display name.
    status:
        ``lobby``, ``running``, ``finished`` or ``cancelled``; in memory only, ``paused``: a move
        could not be stored and the game could not be read back (it takes no move until a restart
        restores it from the database).
    channel_id, thread_id, message_id:
        Where the table lives: the thread (or the channel itself when threads are not allowed)
        and its public message.
    version:
        Increases with every change; components carry it so stale clicks are recognised. It
        starts from the clock (Unix ms) when the table is built, so a board drawn before a
        restart can never match a version after it.
    settings:
        The table's own settings (not engine options), e.g. ``{"race_window_ms": 200}``, and its
        ``secret`` (see :attr:`codec_secret`), which is never shown.
    last_event_ms:
        Event type to when it last happened (monotonic milliseconds), e.g. for "no Dutch-pile
        play for 60 s".
    """

    id: int
    kind: str
    title: str
    guild_id: int | None
    channel_id: int
    thread_id: int
    host_id: int
    options: GameOptions
    seed: int
    min_players: int
    max_players: int
    status: TableStatus = TableStatus.LOBBY
    settings: TableSettings = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    engine: Engine | None = None
    version: int = field(default_factory=lambda: int(time.time() * 1000))
    message_id: int | None = None
    message_posted_ms: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    arbiter: RaceArbiter | None = None
    bots: dict[str, Bot] = field(default_factory=dict)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    notice: str = ""
    private_notes: dict[str, list[PrivateNote]] = field(default_factory=dict)
    timeouts: dict[str, int] = field(default_factory=dict)
    shown_up: set[int] = field(default_factory=set)
    """The seated users who showed up at the table (opened their board, moved), for the seen hooks."""
    rematch_id: int | None = None
    """The lobby gathering this finished table's rematch, once someone asked for it."""
    last_event_ms: dict[str, float] = field(default_factory=dict)
    timers: TimerBook = field(default_factory=TimerBook)
    last_move_ms: dict[str, float] = field(default_factory=dict)
    """Player id to when (monotonic ms) that player last moved, or was last given a fresh start."""
    boards_dirty: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by every change: the people's open boards (kept by the Discord side) may need a refresh."""
    revealed: tuple[str, int] = ("", 0)
    """The public story told step by step (:meth:`GameUI.story_steps <bot.tables.ui.GameUI.story_steps>`):
    its key and how many of its steps the table message shows so far."""
    checkpoint_seq: int = 0
    """How many actions the latest snapshot of the running game includes (:mod:`bot.tables.snapshots`;
    0 before the first). The snapshot and the whole log live in the database only: an unsaved move
    is undone by reading the game back from there."""
    delivered: int = 0
    """How many actions' events the table's bots have observed (a new bot reads the log up to here)."""
    told: deque[tuple[str, tuple[Event, ...]]] = field(default_factory=lambda: deque(maxlen=MOVES_TOLD))
    """The latest moves, oldest first, at most :data:`MOVES_TOLD`: who made each and its public events
    (a practice table's coach tells a learner the others' moves since their own; ``docs/tables.md``,
    "Learning a game"). Empty after a restart until the next move."""
    public_events: deque[Event] = field(default_factory=lambda: deque(maxlen=PUBLIC_EVENTS_KEPT))
    """The table's latest public events (the deal's included), oldest first, at most
    :data:`PUBLIC_EVENTS_KEPT`: for a game UI that tells the last moves in words. Private events
    never go in. Empty after a restart until the next move (a replay tells nothing)."""

    @property
    def codec_secret(self) -> str | None:
        """The table's own random secret (128 bits, hex) that keys its board tokens, or ``None``
        for a table stored before tables had one (``docs/tables.md``, "Custom ids").
        """
        secret = self.settings.get("secret")
        return str(secret) if secret else None

    def rule_ends_unix_ms(self, name: str) -> int | None:
        """When timed rule *name*'s wait ends, as Unix milliseconds (for Discord's ``<t:…:R>``
        countdown), or ``None`` when no such rule holds now or its wait is over (``docs/tables.md``,
        the table kit).
        """
        ends = self.timers.ends_at(name)
        left = None if ends is None else ends - time.monotonic() * 1000
        if left is None or left <= 0:
            return None
        return int(time.time() * 1000 + left)

    def notes_for(self, player: str, now_ms: float) -> list[str]:
        """The private notes *player*'s board shows at *now_ms* (monotonic ms): the last three unexpired."""
        return [n.text for n in self.private_notes.get(player, []) if n.until_ms is None or n.until_ms > now_ms][-3:]

    def next_note_expiry(self, now_ms: float) -> float | None:
        """When (monotonic ms) the next shown private note expires, or ``None``."""
        ends = [n.until_ms for notes in self.private_notes.values() for n in notes
                if n.until_ms is not None and n.until_ms > now_ms]
        return min(ends, default=None)

    def seat_of_user(self, user_id: int) -> Seat | None:
        """The seat of Discord user *user_id*, or ``None``."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def away_of(self, user_id: int) -> Seat | None:
        """The bot seat that Discord user *user_id* may take back (:attr:`Seat.away`), or ``None``."""
        return next((s for s in self.seats if s.away is not None and s.away[0] == user_id), None)

    def seat_of_player(self, player_id: str) -> Seat | None:
        """The seat of engine player *player_id*, or ``None``."""
        return next((s for s in self.seats if s.player_id == player_id), None)

    def display_name(self, player_id: str) -> str:
        """The display name of an engine player id."""
        seat = self.seat_of_player(player_id)
        return seat.name if seat else player_id

    def bump(self) -> None:
        """Record a change: new version, redraw wanted, waiters woken."""
        self.version += 1
        self.dirty.set()
        self.boards_dirty.set()
        self.changed.set()
        self.changed = asyncio.Event()
