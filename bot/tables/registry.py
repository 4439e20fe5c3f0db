"""The tables and games of this process, and the chores every part of the table service shares.

:class:`TableRegistry` holds the state that the service's parts read together: the live tables,
the registered games (their UI, engine class and bots), the tuning tests turn (bot and timer
scales), the shards this process serves and the background tasks. It decides nothing about a move
(:mod:`bot.tables.moves` does); it knows no Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.engine import GAMES, Engine
from bot.engine.bots import Bot
from bot.engine.options import describe_options
from bot.tables.core import Actor
from bot.tables.faces import CardFaces
from bot.tables.race import Outcome
from bot.tables.table import Table, TableError, TableStatus
from bot.tables.text import CONTENT_MAX, fit_text
from bot.tables.ui import GameUI

if TYPE_CHECKING:
    from bot.config import TablesConfig
    from bot.storage import Storage

__all__ = ["TableRegistry", "LIVE"]


def _worded(value: object) -> str:
    """An option's value in words: ``on``/``off`` for a switch, else as it is."""
    return ("on" if value else "off") if isinstance(value, bool) else str(value)

log = logging.getLogger("parlor.tables")

LIVE = (TableStatus.LOBBY, TableStatus.RUNNING)
"""The statuses of a table that still takes players or moves."""


class TableRegistry:
    """The tables and registered games of this process (see the module's documentation).

    Parameters
    ----------
    storage:
        The repository (games, seats, action log, results).
    config:
        The ``[tables]`` settings.
    faces:
        This client's card emojis (:mod:`bot.tables.faces`); default none loaded (cards as text).

    Attributes
    ----------
    tables:
        Table id to its live :class:`~bot.tables.table.Table` (lobbies, running and just-finished games).
    uis, engines:
        The registered games: kind to its :class:`~bot.tables.ui.GameUI`, and to its engine class and bots.
    bot_delay_scale:
        Multiplies bots' reaction times (tests use a small value to play fast).
    timer_scale:
        Multiplies turn-timer, idle and expiry durations (tests use a small value).
    shards:
        ``(shard_count, shard ids)`` of this process (``(0, None)``: every guild).
    closing:
        Set once the bot shuts down: nothing new starts.
    faces:
        The card emojis every registered UI draws its cards with (``docs/art.md`` §7).
    """

    def __init__(self, storage: Storage, config: TablesConfig, faces: CardFaces | None = None) -> None:
        self.storage = storage
        self.config = config
        self.faces = faces or CardFaces()
        self.tables: dict[int, Table] = {}
        self.uis: dict[str, GameUI] = {}
        self.engines: dict[str, tuple[type[Engine], dict[str, Callable[..., Bot]]]] = {}
        self.bot_delay_scale = 1.0
        self.timer_scale = 1.0
        self.shards: tuple[int, set[int] | None] = (0, None)
        self.closing = False
        self.chores: set[asyncio.Task[Any]] = set()
        self._quiet: dict[int, set[int]] = {}  # guild id to the users who turned the tables' pings off
        self._settings_lock = asyncio.Lock()  # one read-change-write of a server's settings at a time

    # ------------------------------------------------------------------ the games

    def register_ui(self, ui: GameUI, *, engine: type[Engine] | None = None,
                    bots: dict[str, Callable[..., Bot]] | None = None) -> None:
        """Make game *ui.kind* playable (called by its cog's ``cog_load``).

        Parameters
        ----------
        ui:
            The game's rendering.
        engine:
            The engine class; default the declared game's (``bot.engine.GAMES[ui.kind]``; tests pass
            a test-only game).
        bots:
            Bot name to class; default the declared game's.

        Raises
        ------
        KeyError
            No engine of that kind is registered.
        """
        if engine is None:
            game = GAMES[ui.kind]
            engine, bots = game.engine, dict(game.bots) if bots is None else bots
        ui.faces = self.faces
        self.uis[ui.kind] = ui
        self.engines[ui.kind] = (engine, dict(bots or {}))

    def engine_cls(self, kind: str) -> type[Engine]:
        """The engine class of registered game *kind*.

        Raises
        ------
        KeyError
            No game *kind* is registered.
        """
        return self.engines[kind][0]

    def bots(self, kind: str) -> dict[str, Callable[..., Bot]]:
        """Bot name to bot class of registered game *kind*, strongest first (empty: no bots)."""
        return self.engines[kind][1]

    def strength(self, kind: str, name: str) -> str:
        """A bot's strength in words: the game's first bot is ``hard``, its last ``easy``, others ``normal``."""
        names = list(self.bots(kind))
        if len(names) < 2 or name == names[0]:
            return "hard" if len(names) > 1 else "normal"
        return "easy" if name == names[-1] else "normal"

    # ------------------------------------------------------------------ the tables

    def table_in(self, channel_id: int | None) -> Table | None:
        """The live table whose thread (or channel, when it has no thread) is *channel_id*."""
        return next((t for t in self.tables.values() if t.thread_id == channel_id and t.status in LIVE), None)

    def moderated_table(self, channel_id: int | None, actor: Actor) -> Table:
        """The live table of thread *channel_id*, if *actor* runs it.

        Raises
        ------
        TableError
            No live table there, or *actor* is neither its host nor a moderator.
        """
        table = self.table_in(channel_id)
        if table is None:
            raise TableError("Use this inside the thread of a live table.")
        if not self.is_host(table, actor):
            raise TableError("Only the host or a member with Manage Threads can do that.")
        return table

    def on_this_shard(self, guild_id: int | None) -> bool:
        """Whether a guild's tables belong to this process (Discord's ``(guild_id >> 22) % shard_count``)."""
        count, mine = self.shards
        if not count or mine is None or guild_id is None:
            return True
        return (guild_id >> 22) % count in mine

    @staticmethod
    def is_host(table: Table, actor: Actor) -> bool:
        """Whether *actor* runs *table*: its host, or a moderator of the server (``docs/tables.md``,
        "Who may do what").
        """
        return actor.user_id == table.host_id or actor.moderator

    # ------------------------------------------------------------------ pings

    async def quiet_users(self, guild_id: int | None) -> set[int]:
        """|coro| The users of server *guild_id* who turned the tables' pings off for themselves
        (``/table pings``; stored in the server's settings, read once and then kept).
        """
        if guild_id is None:
            return set()
        if guild_id not in self._quiet:
            settings = await self.storage.guild_settings(guild_id)
            self._quiet[guild_id] = {int(u) for u in settings.get("quiet_users", [])}
        return self._quiet[guild_id]

    async def set_pings(self, guild_id: int, user_id: int, *, on: bool) -> None:
        """|coro| Turn the tables' pings on or off for *user_id* in server *guild_id* (stored at once)."""
        async with self._settings_lock:
            settings = await self.storage.guild_settings(guild_id)
            quiet = {int(u) for u in settings.get("quiet_users", [])}
            if on:
                quiet.discard(user_id)
            else:
                quiet.add(user_id)
            await self.storage.set_guild_settings(guild_id, {**settings, "quiet_users": sorted(quiet)})
            self._quiet[guild_id] = quiet

    async def pingable(self, table: Table, user_ids: list[int]) -> list[int]:
        """|coro| Those of *user_ids* who have not turned the tables' pings off in *table*'s server
        (all of them when the settings cannot be read: a turn timer must never stop on it).
        """
        try:
            quiet = await self.quiet_users(table.guild_id)
        except Exception:
            log.warning("could not read the pings of server %s; pinging as usual", table.guild_id, exc_info=True)
            return list(user_ids)
        return [u for u in user_ids if u not in quiet]

    # ------------------------------------------------------------------ what the table shows

    def options_text(self, table: Table) -> str:
        """*table*'s game options in words: only those that differ from the game's defaults, e.g.
        ``"target 30 · red kings -2 · jokers off"``, else ``"the standard rules"``.
        """
        specs = describe_options(self.engine_cls(table.kind).Options)
        words = [f"{spec.name.replace('_', ' ')} {_worded(table.options[spec.name])}" for spec in specs
                 if spec.name in table.options and table.options[spec.name] != spec.default]
        return " · ".join(words) or "the standard rules"

    def lobby_text(self, table: Table) -> str:
        """The lobby message: game, options (those that differ from the defaults, in words), host and seats."""
        opts = self.options_text(table)
        seats = "\n".join(
            f"{i + 1}. {s.name}{' (bot)' if s.is_bot else ''}{' — host' if s.user_id == table.host_id else ''}"
            for i, s in enumerate(table.seats))
        status = {TableStatus.LOBBY: "Waiting for players", TableStatus.CANCELLED: "Cancelled"}.get(
            table.status, str(table.status))
        return (f"**{table.title}** — table #{table.id} · {status}\n{opts}\n"
                f"Seats ({len(table.seats)}/{table.max_players}, at least {table.min_players}):\n{seats}")

    def public_text(self, table: Table) -> str:
        """The public table message for the current state (≤ 2000 characters).

        Cards are drawn as emojis where they may be; a message too long with them is drawn again
        with cards as text (``docs/art.md`` §7) before lines are left out.
        """
        text = self._public_text(table)
        if len(text) > CONTENT_MAX and self.faces.style(table.thread_id).uses_emojis:
            with self.faces.plain():
                text = self._public_text(table)
        return fit_text(text)

    def _public_text(self, table: Table) -> str:
        ui = self.uis[table.kind]
        text = ui.public_text(table)
        if table.engine is not None and table.engine.is_over:
            text = f"{text}\n\n{ui.result_text(table)}"
        if table.notice:
            text = f"{table.notice}\n{text}"
        return text

    # ------------------------------------------------------------------ storage and tasks

    async def save_seats(self, table: Table) -> None:
        """|coro| Store *table*'s seats as they are."""
        await self.storage.set_seats(table.id, [(s.player_id, s.user_id, s.bot_name, s.name) for s in table.seats])

    async def cancel(self, table: Table, why: str = "The table was cancelled.") -> None:
        """|coro| End *table* as cancelled: stored so, its tasks stopped, its waiting race claims
        answered with *why*, and let go.
        """
        table.status = TableStatus.CANCELLED
        await self.storage.set_game_status(table.id, TableStatus.CANCELLED)
        self.stop_tasks(table)
        self.settle_claims(table, why)
        self.tables.pop(table.id, None)

    @staticmethod
    def settle_claims(table: Table, why: str) -> None:
        """Answer every claim still waiting in a race window of *table* with a refusal (*why*)."""
        for claim in table.arbiter.drain() if table.arbiter else []:
            if not claim.payload.done():
                claim.payload.set_result(Outcome(False, why))

    @staticmethod
    def track(table: Table, coro: Any, what: str) -> None:
        """Run *coro* as one of *table*'s tasks (cancelled with the table), named after *what*."""
        table.tasks[:] = [t for t in table.tasks if not t.done()]
        table.tasks.append(asyncio.get_running_loop().create_task(coro, name=f"table-{table.id}-{what}"))

    @staticmethod
    def stop_tasks(table: Table) -> None:
        """Cancel every task of *table* (a crash, as far as the table is concerned: nothing is stored)."""
        for task in table.tasks:
            task.cancel()
        table.tasks.clear()

    def background(self, coro: Any) -> None:
        """Run *coro* as a task of its own, kept referenced until done (e.g. a Discord call after the
        interaction is answered); :meth:`~bot.tables.restore.Restorer.shutdown` waits for them.
        """
        task = asyncio.get_running_loop().create_task(coro)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)
