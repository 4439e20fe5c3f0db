"""The table service: one façade over the parts that run every table of this process.

Every game cog uses it (``docs/tables.md``, "The table service inside"). Like discord.py's
``Client``, which holds its ``ConnectionState`` and ``HTTPClient`` rather than inheriting from
them, the service holds its parts, each an object with its own state, given what it needs in its
constructor:

* :class:`~bot.tables.registry.TableRegistry` — the tables and registered games, shared chores;
* :class:`~bot.tables.rebuild.Rebuilder` — a table's game and bots read back from storage;
* :class:`~bot.tables.moves.Moves` — the one path every move takes (:meth:`Moves.submit
  <bot.tables.moves.Moves.submit>` makes every decision about a move);
* :class:`~bot.tables.loops.Loops` — bots, turn timers, idle people, lobby expiry;
* :class:`~bot.tables.lobby.Lobby` — seats and host controls;
* :class:`~bot.tables.restore.Restorer` — restarts, rematches, shutdown;
* :class:`~bot.tables.messages.DiscordMessenger` and :class:`~bot.tables.boards.LiveBoards` — the
  public messages and the live private boards on Discord;
* :class:`~bot.tables.interactions.Interactions` — clicks in, answers out.

The Discord-free parts reach Discord only through a :class:`~bot.tables.messenger.Messenger`:
:class:`Tables` composes them alone (tests give it a
:class:`~bot.tables.messenger.RecordingMessenger`), :class:`TableService` adds the Discord parts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import discord

from bot.engine import Action
from bot.outbox import OutboxSender
from bot.tables.boards import LiveBoards
from bot.tables.core import BOT_SPEEDS, Actor, bot_speed_factor, posted_ms
from bot.tables.faces import CardFaces
from bot.tables.interactions import Interactions, shown_name
from bot.tables.lobby import Lobby
from bot.tables.loops import Loops
from bot.tables.messages import DiscordMessenger
from bot.tables.messenger import Messenger
from bot.tables.moves import Decode, Mover, Moves
from bot.tables.practice import PRACTICE, PRACTICE_BOT_SPEED, practice_bot
from bot.tables.race import Outcome
from bot.tables.rebuild import Rebuilder
from bot.tables.registry import TableRegistry
from bot.tables.restore import Restorer
from bot.tables.table import GameOptions, Table, TableError, TableSettings, TableStatus
from bot.tables.text import CONTENT_MAX, fit_text
from bot.tables.ui import GameUI

if TYPE_CHECKING:
    from bot.config import TablesConfig
    from bot.storage import Storage

__all__ = ["TableService", "Tables", "Actor", "BOT_SPEEDS", "bot_speed_factor", "CONTENT_MAX", "fit_text"]

log = logging.getLogger("parlor.tables")

NO_PRIVATE_THREAD_ANSWER = ("A practice table opens in a private thread only you and the bot see, and I cannot open "
                            "one here. Use `/learn` in a text channel of the server where I may create private "
                            "threads (not in a thread, a forum or a voice chat).")
"""The answer to ``/learn`` where no private thread can be opened (``docs/tables.md``, "Learning a game")."""

T = TypeVar("T")


class _Forward(Generic[T]):
    """A façade attribute that is one of its parts' own, read and written there:
    ``timer_scale = _Forward[float]("registry", "timer_scale")``.
    """

    def __init__(self, part: str, name: str) -> None:
        self.part, self.name = part, name

    @overload
    def __get__(self, obj: None, owner: type) -> _Forward[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> T: ...

    def __get__(self, obj: object | None, owner: type) -> T | _Forward[T]:
        if obj is None:
            return self
        value: T = getattr(getattr(obj, self.part), self.name)
        return value

    def __set__(self, obj: object, value: T) -> None:
        setattr(getattr(obj, self.part), self.name, value)


class Tables:
    """The table service without Discord: its parts composed over one messenger.

    Parameters
    ----------
    storage:
        The repository (games, seats, action log, results).
    config:
        The ``[tables]`` settings (``bot.config.TablesConfig``).
    messenger:
        How the parts reach the people at a table.
    registry:
        The registry to compose over (the Discord service makes it first, for its own parts);
        default a new one.
    organizer_role_ids:
        ``tournaments.organizer_role_ids``, the fallback of a server's organizer roles (a new registry's).

    Attributes
    ----------
    registry, games, moves, loops, restorer, lobby:
        The parts (see the module's documentation). Their public methods are the façade's own
        (:meth:`join`, :meth:`start`, :meth:`live`, :meth:`restore`, …), as bound methods.
    """

    def __init__(self, storage: Storage, config: TablesConfig, messenger: Messenger, *,
                 registry: TableRegistry | None = None, organizer_role_ids: tuple[int, ...] = ()) -> None:
        self.registry = registry or TableRegistry(storage, config, organizer_role_ids=organizer_role_ids)
        self.messenger = messenger
        self.games = Rebuilder(self.registry)
        self.moves = Moves(self.registry, self.games, messenger)
        self.loops = Loops(self.registry, self.moves, messenger)
        self.restorer = Restorer(self.registry, self.moves, self.loops)
        self.lobby = Lobby(self.registry, self.moves, self.loops, messenger, self.restorer.live)
        registry, restorer, lobby = self.registry, self.restorer, self.lobby
        self.register_ui, self.table_in, self.strength = registry.register_ui, registry.table_in, registry.strength
        self.lobby_text, self.public_text = registry.lobby_text, registry.public_text
        self.is_host, self.stop_tasks = registry.is_host, registry.stop_tasks
        self.live, self.awaits_replay, self.replayed_in = restorer.live, restorer.awaits_replay, restorer.replayed_in
        self.restore, self.rematch, self.shutdown = restorer.restore, restorer.rematch, restorer.shutdown
        self.create, self.create_seated, self.start_seated = lobby.create, lobby.create_seated, lobby.start_seated
        self.join, self.leave, self.leave_running = lobby.join, lobby.leave, lobby.leave_running
        self.add_bot, self.start, self.cancel = lobby.add_bot, lobby.start, lobby.cancel
        self.kick_seat, self.make_host, self.seat_to_bot = lobby.kick_seat, lobby.make_host, lobby.seat_to_bot
        self.close_table, self.note_seen = lobby.close_table, lobby.note_seen
        self.moderated_table, self.endable_table = registry.moderated_table, lobby.endable_table
        self.on_this_shard = registry.on_this_shard
        self.start_tasks = self.loops.start_tasks
        # The parts' shared state, as the façade's own: the same objects, never rebound.
        self.storage, self.config, self.server = registry.storage, registry.config, registry.server
        self.tables: dict[int, Table] = registry.tables
        """Table id to its live table (lobbies, running and just-finished games)."""
        self.uis: dict[str, GameUI] = registry.uis
        """Kind to the registered game's UI."""
        self.engines: dict[str, tuple[Any, dict[str, Any]]] = registry.engines
        """Kind to the registered game's engine class and bots (strongest first); read, not written, here."""
        self.finish_hooks = self.moves.finish_hooks
        """Called with a game's id once its result is stored (ratings and tournaments register here)."""
        self.seen_hooks = lobby.seen_hooks
        """Called with a table id and a user id when that seated user first shows up at the table."""

    bot_delay_scale = _Forward[float]("registry", "bot_delay_scale")
    """Multiplies bots' reaction times (tests use a small value to play fast)."""
    timer_scale = _Forward[float]("registry", "timer_scale")
    """Multiplies turn-timer, idle and expiry durations (tests use a small value)."""
    shards = _Forward[tuple[int, "set[int] | None"]]("registry", "shards")
    """``(shard_count, shard ids)`` whose guilds' tables this process serves (``(0, None)``: all)."""

    async def submit(self, table: Table, mover: Mover, action: Action | Decode, discord_ts_ms: int, *,
                     on_contest: Callable[[], Awaitable[Any]] | None = None) -> Outcome:
        """|coro| Submit one move at *table*: see :meth:`Moves.submit <bot.tables.moves.Moves.submit>`."""
        return await self.moves.submit(table, mover, action, discord_ts_ms, on_contest=on_contest)


class TableService(Tables):
    """All tables of this process, on Discord: :class:`Tables` with the Discord parts.

    Parameters
    ----------
    storage:
        The repository (games, seats, action log, results).
    config:
        The ``[tables]`` settings (``bot.config.TablesConfig``).
    client:
        The discord.py client whose channels the tables live in.
    organizer_role_ids:
        ``tournaments.organizer_role_ids``, the fallback of a server's organizer roles.

    Attributes
    ----------
    boards, messages, interactions:
        The live private boards, the public messages (the parts' messenger) and the answers to
        clicks; their public methods are the service's own (:meth:`on_move`, :meth:`open_board`, …).
    outbox:
        The sender of the stored notices and announcements (:class:`bot.outbox.OutboxSender`).
    """

    live_boards = _Forward[bool]("boards", "live")
    """Whether open private boards follow the table (:attr:`bot.tables.boards.LiveBoards.live`)."""
    board_token_s = _Forward[float]("boards", "token_s")
    """How long an interaction token lives, in seconds (Discord: 15 minutes; tests shorten it)."""

    def __init__(self, storage: Storage, config: TablesConfig, client: discord.Client, *,
                 organizer_role_ids: tuple[int, ...] = ()) -> None:
        from bot.emoji_sync import emojis_usable

        registry = TableRegistry(storage, config, CardFaces(lambda channel_id: emojis_usable(client, channel_id)),
                                 organizer_role_ids=organizer_role_ids)
        self.client = client
        self.boards = LiveBoards(registry)
        self.messages = DiscordMessenger(registry, client, self.boards)
        super().__init__(storage, config, self.messages, registry=registry)
        self.interactions = Interactions(self.registry, self.moves, self.loops, self.lobby, self.restorer,
                                         self.messages, self.boards)
        clicks = self.interactions
        self.on_move, self.on_public, self.on_table_button = clicks.on_move, clicks.on_public, clicks.on_table_button
        self.on_bot_pick, self.open_board = clicks.on_bot_pick, clicks.open_board
        self.actor, self.is_moderator = clicks.actor, clicks.is_moderator
        self.board = self.boards.board
        self.budget, self.token_budget = self.messages.budget, self.messages.token_budget
        self.outbox = OutboxSender(storage, client, self.budget, self.registry.on_this_shard)
        """Posts the stored table notices and tournament announcements of this client (``docs/design.md``
        §3, "The outbox"); the client starts it once the tables are restored and stops it on close."""

    async def open(self, kind: str, interaction: discord.Interaction, options: GameOptions,
                   settings: TableSettings | None = None) -> Table:
        """|coro|

        Open a table of *kind* for the user of *interaction* in a new thread of its channel (in
        the channel itself where threads are not allowed) and post the lobby. *options* are the
        engine's; *settings* the table's own (``race_window_ms``, ``bot_speed``).

        Raises
        ------
        TableError
            Bad options, not a text channel, or the user already sits at a table in this channel.
        """
        channel = interaction.channel
        if channel is None or not isinstance(channel, discord.abc.Messageable):
            raise TableError("Tables can only be opened in a text channel or thread of a server.")
        table = await self.lobby.create(kind, self.interactions.actor(interaction), options, settings,
                                  guild_id=interaction.guild_id, channel_id=channel.id)
        thread: Any = channel
        if isinstance(channel, discord.TextChannel):
            try:
                await self.messages.budget.acquire(urgent=True)
                thread = await channel.create_thread(name=f"{table.title} #{table.id}",
                                                     type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=1440)
            except discord.HTTPException:
                log.info("threads not allowed in %s; table %s stays in the channel", channel.id, table.id)
        if thread is channel and self.registry.table_in(channel.id) is not None:
            await self.registry.storage.set_game_status(table.id, TableStatus.CANCELLED)
            raise TableError("This channel allows no threads and already has a running table; "
                             "finish that one first, or open the table in a channel that allows threads.")
        table.thread_id = thread.id
        self.registry.tables[table.id] = table
        await self.registry.storage.set_game_thread(table.id, table.thread_id)
        await self.registry.save_seats(table)
        await self.messages.budget.acquire(urgent=True)
        message = await thread.send(view=self.messages.lobby_view(table))
        table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
        await self.registry.storage.set_game_message(table.id, message.id)
        log.info("table %s opened: %s in guild %s by user %s", table.id, kind, interaction.guild_id,
                 interaction.user.id)
        self.registry.track(table, self.loops.expire_lobby(table), "expiry")
        if thread is not channel:  # the channel sees the new table: an invite card with Join
            await self.messages.post_invite(table, channel)
        return table

    async def open_seated(self, kind: str, options: GameOptions, settings: TableSettings | None, *,
                          guild_id: int | None, channel_id: int, seats: list[tuple[int, str]], host_id: int,
                          title: str | None = None, intro: str = "") -> Table:
        """|coro|

        Open a table of *kind* with exactly *seats* seated (``(user id, name)``, in seat order) in a
        new thread of channel *channel_id* (named *title*), run by *host_id*, and deal at once:
        a tournament match (``docs/tournaments.md`` §10). *intro* is posted first, pinging the
        seated players.

        Raises
        ------
        TableError
            Bad options or seats (:meth:`create_seated`), or the channel is gone.
        """
        channel: Any = self.client.get_channel(channel_id)
        if channel is None:
            try:
                await self.messages.budget.acquire(urgent=True)
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                raise TableError(f"The channel {channel_id} is gone.") from None
        table = await self.lobby.create_seated(kind, options, settings, guild_id=guild_id, channel_id=channel_id,
                                               seats=[(uid, shown_name(name)) for uid, name in seats],
                                               host_id=host_id)
        try:
            thread: Any = channel
            if isinstance(channel, discord.TextChannel):
                try:
                    await self.messages.budget.acquire(urgent=True)
                    thread = await channel.create_thread(name=(title or f"{table.title} #{table.id}")[:100],
                                                         type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=1440)
                except discord.HTTPException:
                    log.info("threads not allowed in %s; table %s stays in the channel", channel.id, table.id)
            table.thread_id = thread.id
            await self.lobby.start_seated(table)
            if intro:
                await self.messages.budget.acquire(urgent=True)
                await thread.send(fit_text(intro), allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(uid) for uid, _ in seats], everyone=False, roles=False))
            await self.messages.budget.acquire(urgent=True)
            message = await thread.send(view=self.messages.table_view(table),
                                        allowed_mentions=discord.AllowedMentions.none())
            table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
            await self.registry.storage.set_game_message(table.id, message.id)
        except BaseException:
            # Half open (its seats taken, maybe dealt, no message to play from: a refused message, a
            # shutdown while its thread was being made): the caller learns of no table, so none may
            # stay (a restart would bring it back); it is ended before the error goes on.
            log.warning("table %s could not be opened seated; it is ended", table.id, exc_info=True)
            with contextlib.suppress(Exception):
                if self.registry.tables.get(table.id) is table:
                    await asyncio.shield(self.lobby.close_table(table.id, "This table could not be opened."))
                else:  # stored, not dealt yet: only its row is there to end
                    await asyncio.shield(self.registry.cancel(table, "This table could not be opened."))
            raise
        log.info("table %s opened seated: %s in guild %s for %d players", table.id, kind, guild_id, len(seats))
        self.loops.start_tasks(table)
        return table

    async def open_practice(self, kind: str, interaction: discord.Interaction, options: GameOptions) -> Table:
        """|coro| ``/learn``: open a practice table of *kind* for the user of *interaction*: a private thread of the
        interaction's channel with only that member (and the bot) in it, the member seated against the
        game's easiest bot (:func:`~bot.tables.practice.practice_bot`) at ``bot_speed`` ``slow``, dealt
        at once. *options* are the engine's (``docs/tables.md``, "Learning a game").

        Raises
        ------
        TableError
            The channel cannot hold a private thread (:data:`NO_PRIVATE_THREAD_ANSWER`), the game has no bots,
            bad options, or the member already sits at a live table of this channel.
        """
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise TableError(NO_PRIVATE_THREAD_ANSWER)
        bots = self.registry.bots(kind)
        if not bots:
            raise TableError("This game has no bot to practise against.")
        actor = self.interactions.actor(interaction)
        settings = {PRACTICE: True, "bot_speed": PRACTICE_BOT_SPEED}
        table = await self.lobby.create(kind, actor, options, settings, guild_id=interaction.guild_id,
                                        channel_id=channel.id)
        try:
            await self.messages.budget.acquire(urgent=True)
            thread: Any = await channel.create_thread(name=f"Learning {table.title} #{table.id}"[:100],
                                                      type=discord.ChannelType.private_thread,
                                                      invitable=False, auto_archive_duration=60)
            await self.messages.budget.acquire(urgent=True)
            await thread.add_user(interaction.user)
        except discord.HTTPException:
            log.info("no private thread in %s; practice table %s not opened", channel.id, table.id)
            await self.registry.storage.set_game_status(table.id, TableStatus.CANCELLED)
            raise TableError(NO_PRIVATE_THREAD_ANSWER) from None
        table.thread_id = thread.id
        await self.lobby.add_bot(table, actor, practice_bot(bots, self.registry.strengths.get(kind, {})))
        try:
            await self.lobby.start_seated(table)
            await self.messages.budget.acquire(urgent=True)
            message = await thread.send(view=self.messages.table_view(table),
                                        allowed_mentions=discord.AllowedMentions.none())
            table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
            await self.registry.storage.set_game_message(table.id, message.id)
        except BaseException:  # dealt with no message to play from: ended, as a seated table is
            with contextlib.suppress(Exception):
                await asyncio.shield(self.lobby.close_table(table.id, "This table could not be opened."))
            raise
        log.info("practice table %s opened: %s in guild %s for user %s", table.id, kind, interaction.guild_id,
                 interaction.user.id)
        self.loops.start_tasks(table)
        return table


    async def kick(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro| ``/table kick``: remove user *user_id* from this thread's table (host or moderators).

        In the lobby the seat is freed; in a running game a bot takes it over. Returns what happened.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        return await self._moderate(interaction, lambda table: self.lobby.kick_seat(table, user_id))

    async def hand_host(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro| ``/table host``: make seated user *user_id* the host of this thread's table.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        return await self._moderate(interaction, lambda table: self.lobby.make_host(table, user_id))

    async def _moderate(self, interaction: discord.Interaction,
                        change: Callable[[Table], Awaitable[str]]) -> str:
        """Make *change* to this thread's table under its lock (host or moderators), then redraw its lobby."""
        table = self.registry.moderated_table(interaction.channel_id, self.interactions.actor(interaction))
        async with table.lock:
            answer = await change(table)
        self.registry.background(self.messages.edit_lobby(table))
        return answer

    async def end(self, interaction: discord.Interaction, table_id: int) -> Table:
        """|coro| ``/table end``: end live table *table_id* of the interaction's server at once.

        Allowed to that table's host and to moderators
        (:meth:`~bot.tables.interactions.Interactions.is_moderator`); the table is
        cancelled, race claims still waiting are answered, and its message says who ended it.

        Raises
        ------
        TableError
            No live table with that number in this server, or the user may not end it.
        """
        actor = self.interactions.actor(interaction)
        table = await self.lobby.endable_table(table_id, interaction.guild_id, actor)
        async with table.lock:
            was_running = table.engine is not None
            await self.registry.cancel(table, "The table was ended.")
            text = self.registry.public_text(table) if was_running else self.lobby_text(table)
        log.info("table %s ended by user %s", table.id, interaction.user.id)
        if table.message_id is not None:
            ended = fit_text(f"⛔ This table was ended by {actor.name}.\n{text}")
            self.registry.background(self.messages.mark_ended(table, ended))
        return table

