"""The tables and games of this process, and the chores every part of the table service shares.

:class:`TableRegistry` holds the state that the service's parts read together: the live tables,
the registered games (their UI, engine class and bots), the tuning tests turn (bot and timer
scales), the shards this process serves and the background tasks. It decides nothing about a move
(:mod:`bot.tables.moves` does); it knows no Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.engine import GAMES, Engine
from bot.engine.bots import Bot
from bot.engine.coach import Coach, load_coach, plain_coach
from bot.engine.game import STRENGTHS, BotChoice, pick_bot
from bot.engine.options import describe_options
from bot.tables.core import Actor
from bot.tables.faces import CardFaces
from bot.tables.race import Outcome
from bot.tables.seats import PublicParts, SeatPanel
from bot.tables.server import ServerSettings
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
    organizer_role_ids:
        ``tournaments.organizer_role_ids`` (the fallback of a server's organizer roles).
    faces:
        This client's card emojis (:mod:`bot.tables.faces`); default none loaded (cards as text).

    Attributes
    ----------
    server:
        The servers' own settings over the config: read every table value of a guild through it
        (``server.tables(guild_id)``; ``docs/tables.md``, "Server settings").
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
        The card emojis every registered UI draws its cards with (``docs/art.md`` §8).
    """

    def __init__(self, storage: Storage, config: TablesConfig, faces: CardFaces | None = None, *,
                 organizer_role_ids: tuple[int, ...] = ()) -> None:
        self.storage = storage
        self.config = config
        self.faces = faces or CardFaces()
        self.server = ServerSettings(storage, config, organizer_role_ids=organizer_role_ids, engine_cls=self.engine_cls)
        self.tables: dict[int, Table] = {}
        self.uis: dict[str, GameUI] = {}
        self.engines: dict[str, tuple[type[Engine], dict[str, Callable[..., Bot]]]] = {}
        self.coaches: dict[str, Coach] = {}  # kind to its coach at practice tables (/learn; bot.tables.practice)
        self.strengths: dict[str, Mapping[str, BotChoice]] = {}
        """Game kind to its declared bot strengths (``Game.strengths``; none for a test-only game)."""
        self.bot_delay_scale = 1.0
        self.timer_scale = 1.0
        self.shards: tuple[int, set[int] | None] = (0, None)
        self.closing = False
        self.chores: set[asyncio.Task[Any]] = set()
        self._pings: dict[int, tuple[set[int], set[int]]] = {}  # guild id to who turned pings (off, on)

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
        strengths: Mapping[str, BotChoice] = {}
        if engine is None:
            game = GAMES[ui.kind]
            strengths = game.strengths if bots is None else {}  # strengths name the declared bots
            engine, bots = game.engine, dict(game.bots) if bots is None else bots
            self.coaches[ui.kind] = load_coach(game.coach) if game.coach else plain_coach
        ui.faces = self.faces
        self.uis[ui.kind] = ui
        self.strengths[ui.kind] = strengths
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

    def bot_for(self, kind: str, choice: str | None = None) -> str:
        """The bot kind of game *kind* that *choice* names: a strength (``easy``, ``normal``, ``hard``), a
        bot kind (as older tables stored it), or ``None`` for the default strength, ``normal``
        (``bot.engine.game.pick_bot``; ``docs/tables.md``, "Bots").

        Raises
        ------
        KeyError
            The game has no bots, or *choice* names none of them.
        """
        return pick_bot(self.bots(kind), self.strengths.get(kind, {}), choice)

    def strength(self, kind: str, name: str) -> str:
        """The strength bot kind *name* plays at game *kind* (``easy``, ``normal``, ``hard``), or the
        kind itself for a bot no strength names (a test-only game's).
        """
        return next((s for s in reversed(STRENGTHS) if (c := self.strengths.get(kind, {}).get(s)) and c.bot == name),
                    name)

    def bot_menu(self, kind: str) -> list[tuple[str, str, str]]:
        """The lobby's Add-bot menu of game *kind*: ``(value, label, description)``, easy to hard, the
        value a strength (a game that declares none: its bots by kind, strongest first). A plain
        **Add bot** seats the default strength, ``normal`` (``DEFAULT_STRENGTH``).
        """
        strengths = self.strengths.get(kind, {})
        if strengths:
            return [(s, s.capitalize(), strengths[s].description) for s in STRENGTHS]
        return [(name, f"Add a bot: {name}", "") for name in self.bots(kind)]

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

    async def _chosen_pings(self, guild_id: int) -> tuple[set[int], set[int]]:
        """|coro| The users of server *guild_id* who turned the tables' pings off, and those who turned
        them on (``/table pings``; stored in the server's settings row, read once and then kept).
        """
        if guild_id not in self._pings:
            row = await self.storage.guild_settings(guild_id)
            self._pings[guild_id] = ({int(u) for u in row.get("quiet_users", [])},
                                     {int(u) for u in row.get("ping_users", [])})
        return self._pings[guild_id]

    async def quiet_users(self, guild_id: int | None) -> set[int]:
        """|coro| The users of server *guild_id* who turned the tables' pings off for themselves."""
        return set() if guild_id is None else (await self._chosen_pings(guild_id))[0]

    async def set_pings(self, guild_id: int, user_id: int, *, on: bool) -> None:
        """|coro| Turn the tables' pings on or off for *user_id* in server *guild_id* (stored at once;
        their choice wins over the server's default, ``/settings set pings``).
        """
        def change(row: dict[str, Any]) -> dict[str, Any]:
            quiet = {int(u) for u in row.get("quiet_users", [])}
            loud = {int(u) for u in row.get("ping_users", [])}
            (loud if on else quiet).add(user_id)
            (quiet if on else loud).discard(user_id)
            return {**row, "quiet_users": sorted(quiet), "ping_users": sorted(loud)}

        row = await self.server.change(guild_id, change)
        self._pings[guild_id] = (set(row["quiet_users"]), set(row["ping_users"]))

    async def pingable(self, table: Table, user_ids: list[int]) -> list[int]:
        """|coro| Those of *user_ids* whom *table* may ping: not those who turned the tables' pings off,
        and where the server turned pings off by default (``/settings set pings off``), only those who
        turned them on (all of them when the settings cannot be read: a turn timer must never stop on it).
        """
        if table.guild_id is None:
            return list(user_ids)
        try:
            quiet, loud = await self._chosen_pings(table.guild_id)
        except Exception:
            log.warning("could not read the pings of server %s; pinging as usual", table.guild_id, exc_info=True)
            return list(user_ids)
        default = self.server.pings(table.guild_id)
        return [u for u in user_ids if u not in quiet and (default or u in loud)]

    # ------------------------------------------------------------------ what the table shows

    def options_text(self, table: Table) -> str:
        """*table*'s game options in words: only those that differ from the game's defaults, e.g.
        ``"target 30 · red kings -2 · jokers off"``, else ``"the standard rules"``.
        """
        specs = describe_options(self.engine_cls(table.kind).Options)
        words = [f"{spec.name.replace('_', ' ')} {_worded(table.options[spec.name])}" for spec in specs
                 if spec.name in table.options and table.options[spec.name] != spec.default]
        return " · ".join(words) or "the standard rules"

    def lobby_parts(self, table: Table) -> PublicParts:
        """The lobby message in parts: the header (game, table, status), a :class:`SeatPanel` per seat
        (``1. name``, ``(bot)``, ``— host``) and the options (those that differ from the defaults, in
        words) with the seat count (``docs/tables.md``, "Message layouts").
        """
        seats = tuple(SeatPanel(s.player_id, f"{i + 1}. {s.name}{' (bot)' if s.is_bot else ''}"
                                             f"{' — host' if s.user_id == table.host_id else ''}")
                      for i, s in enumerate(table.seats))
        status = {TableStatus.LOBBY: "Waiting for players", TableStatus.CANCELLED: "Cancelled"}.get(
            table.status, str(table.status))
        return PublicParts(f"**{table.title}** — table #{table.id} · {status}", seats,
                           f"{self.options_text(table)}\n"
                           f"Seats ({len(table.seats)}/{table.max_players}, at least {table.min_players})")

    def lobby_text(self, table: Table) -> str:
        """The lobby message as text: game, options (those that differ from the defaults, in words), host and seats."""
        parts = self.lobby_parts(table)
        return "\n".join([parts.header, f"{parts.body}:", *(s.text for s in parts.seats)])

    def public_text(self, table: Table) -> str:
        """The public table message for the current state (≤ 2000 characters).

        Cards are drawn as emojis where they may be; a message too long with them is drawn again
        with cards as text (``docs/art.md`` §8) before lines are left out.
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

    def public_parts(self, table: Table) -> PublicParts:
        """The public table message in parts for its layout: the UI's header (game, table, hand or
        round, target), its seats (:meth:`GameUI.public_parts <bot.tables.ui.GameUI.public_parts>`),
        and the rest with the notice on top and the standings below once over, fitted so that seats
        and body together stay within 2,000 characters as the text does.
        """
        ui = self.uis[table.kind]
        parts = ui.public_parts(table)
        body = parts.body
        if table.engine is not None and table.engine.is_over:
            body = f"{body}\n\n{ui.result_text(table)}"
        if table.notice:
            body = f"{table.notice}\n\n{body}"
        room = max(CONTENT_MAX - sum(len(s.text) + 1 for s in parts.seats), CONTENT_MAX // 4)
        return PublicParts(parts.header, parts.seats, fit_text(body.strip("\n"), room))

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
