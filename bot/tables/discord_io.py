"""The table service's Discord layer: interactions in, messages out, redraws and live boards.

Clicks and commands arrive here as :class:`discord.Interaction` objects; each becomes an
:class:`~bot.tables.core.Actor` and a call to the Discord-free layers below, and every outcome
answers the interaction (``docs/tables.md``). The public table message is redrawn by one task per
table that coalesces changes; each open private board is refreshed through its owner's latest
interaction token. The decision is taken under the table lock; answers are sent after it is
released, so a slow Discord never holds up other players.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from bot.answers import answer_error, deferred
from bot.tables.budget import RestBudget
from bot.tables.components import board_view, finished_view, lobby_view, table_view
from bot.tables.core import Actor, now_ms, posted_ms, wait_event, wall_ms
from bot.tables.race import Outcome
from bot.tables.restore import TableRestore
from bot.tables.table import OpenBoard, Table, TableError
from bot.tables.text import fit_text
from bot.tables.ui import BoardItem, BoardSelect, Click

__all__ = ["DiscordTables", "BOARD_TOKEN_S"]

log = logging.getLogger("parlor.tables")


def _discord_ms(interaction: discord.Interaction) -> int:
    """The Discord timestamp of *interaction* (Unix ms, from its snowflake): what orders a race."""
    return int(interaction.created_at.timestamp() * 1000)


BOARD_TOKEN_S = 15 * 60
"""Seconds an interaction token lives (Discord's rule): an ephemeral board can be edited that long."""

FOLLOW_S = 0.02
"""Seconds a redraw of the table message or of the open boards waits after the change that woke
it, at least: the click that made the change is answered first, instead of its answer waiting
behind the redraws it caused (``docs/tables.md``, "Live boards")."""

BOARD_NOTE_S = 8
"""Seconds a click's note (a refusal, a race result) stays on a board that is refreshed meanwhile."""

FINISHED_TTL_S = 1800
"""Seconds a finished table stays in memory (for Rematch) after its final redraw."""


@dataclass
class _Reply:
    """An interaction answer decided under the table lock and sent after it is released."""

    kind: str  # "edit" (the clicked message), "send" (a new message) or "refuse" (ephemeral refusal)
    content: str = ""
    view: discord.ui.View | None = None
    ephemeral: bool = True
    table_message_of: Table | None = None  # the sent message becomes this table's public message
    board_of: str | None = None  # the sent message is this player's private board (kept live)
    sent: discord.WebhookMessage | None = None  # the follow-up it went out as, when the answer was deferred
    version: int = 0  # the table version a board shows
    message_id: int | None = None  # the message a "send" became, when Discord said
    drawn_ms: float = 0.0  # when (monotonic ms) the board it carries was drawn: the notes it shows are those then
    followup_of: str | None = None  # the player whose board went out as a follow-up (not kept live)
    face: _Face | None = None  # what the board it carries shows (a live board's refresh skips an equal face)


@dataclass
class _Board(OpenBoard):
    """An :class:`~bot.tables.table.OpenBoard` that knows its message, when Discord said which."""

    message_id: int | None = None


class _FollowUp:
    """A board sent as a follow-up, edited through its webhook message: the one edit that hides a
    timed note on it (a follow-up is not the interaction's own message, so it is not kept live).
    """

    def __init__(self, message: discord.WebhookMessage) -> None:
        self.message = message

    async def edit_original_response(self, *, content: str, view: discord.ui.View | None) -> None:
        await self.message.edit(content=content, view=view)


class _Token:
    """What a live board sent by an interaction keeps of it: the interaction's webhook (its
    application id and its 15-minute token) and the board's message id. Editing that message
    needs nothing more, so the interaction itself (its payload, the member, the last response
    discord.py caches on it) is let go: about 10 KB a board (``docs/tables.md``, "Live boards").
    """

    __slots__ = ("webhook", "message_id")

    def __init__(self, interaction: discord.Interaction, message_id: int) -> None:
        self.webhook = interaction.followup
        self.message_id = message_id

    @property
    def token(self) -> str | None:
        """The interaction token (the same for every board the interaction drew)."""
        return self.webhook.token

    async def edit_original_response(self, *, content: str, view: discord.ui.View | None) -> None:
        await self.webhook.edit_message(self.message_id, content=content, view=view)


class _PublicToken:
    """What a table keeps of the latest click on its public message that was answered by updating
    that message or by deferring the update: that interaction's original response *is* the public
    message, so its token edits it for 15 minutes through an interaction webhook, which Discord does
    not count against the global limit (``docs/tables.md``, "Discord's limits").
    """

    __slots__ = ("interaction", "message_id", "received_ms")

    def __init__(self, interaction: discord.Interaction, message_id: int) -> None:
        self.interaction = interaction
        self.message_id = message_id
        self.received_ms = now_ms()

    async def edit(self, *, content: str, view: discord.ui.View | None) -> None:
        """|coro| Edit the public message through the token (no mentions, as every redraw).

        Raises
        ------
        discord.HTTPException
            The token ran out or the message is gone (any refusal: the caller falls back).
        """
        await self.interaction.edit_original_response(content=content, view=view,
                                                      allowed_mentions=discord.AllowedMentions.none())


_UPDATES_ITS_MESSAGE = (discord.InteractionResponseType.deferred_message_update,
                        discord.InteractionResponseType.message_update)
"""The answers to a click after which the interaction's original response is the clicked message."""


@dataclass(frozen=True)
class _Face:
    """What a private board's message shows, apart from the table version in its custom ids.

    Two equal stable faces look and act the same: a refresh from one to the other is not sent
    (``docs/tables.md``, "Live boards").
    """

    text: str
    items: tuple[BoardItem, ...]
    stable: bool  # every token on it means the same move whatever the table's version

    @property
    def key(self) -> bytes | None:
        """What a live board keeps of its face: a 128-bit digest of the text and items (a board's
        text and buttons would cost a few KB a board), or ``None`` when the face is not stable.
        """
        if not self.stable:
            return None
        return hashlib.blake2b(repr((self.text, self.items)).encode(), digest_size=16).digest()


def _tokens(items: tuple[BoardItem, ...]) -> list[str]:
    """Every token of a board's buttons and of its menus' options."""
    return [token for item in items
            for token in ([o.token for o in item.options] if isinstance(item, BoardSelect) else [item.token])]


def _token_of(board: OpenBoard) -> str | None:
    """The interaction token that edits *board* (``None`` for a follow-up's)."""
    return getattr(board.interaction, "token", None)


def _board_message_id(interaction: discord.Interaction, reply: _Reply) -> int | None:
    """The message *reply* (answering *interaction*) is a board on, or ``None`` when unknown.

    A board sent anew is the message Discord created for the answer; a click on a board edits the
    board it was on (an ephemeral message; a click on the public table message sends a new board).
    """
    if reply.kind != "edit":
        return reply.message_id
    message = getattr(interaction, "message", None)
    flags = getattr(message, "flags", None)
    return message.id if message is not None and getattr(flags, "ephemeral", False) else None


class DiscordTables(TableRestore):
    """The Discord layer of the table service (see :mod:`bot.tables.core` for the layers below).

    Parameters
    ----------
    storage, config:
        As for :class:`~bot.tables.core.TableCore`.
    client:
        The discord.py client whose channels the tables live in (channels are taken from its
        cache, else fetched).

    Attributes
    ----------
    live_boards:
        Whether open private boards are refreshed as the table changes (``docs/tables.md``,
        "Live boards"); the stale-click benchmark turns it off to measure the difference.
    board_token_s:
        How long an interaction token lives, in seconds (Discord: 15 minutes; tests shorten it).
    """

    def __init__(self, storage: Any, config: Any, client: discord.Client) -> None:
        super().__init__(storage, config)
        self.client = client
        self.budget = RestBudget(config.rest_per_second)
        self.token_budget = RestBudget(config.token_redraws_per_second, redraw_share=1.0)
        """Paces the public redraws that go through an interaction token (:class:`_PublicToken`):
        Discord does not count them, but each costs the bot CPU that clicks need."""
        self._busy: tuple[float, int, int] = (0.0, 0, 0)  # when counted (monotonic s), busy via budget, via token
        self.live_boards = True
        self.board_token_s: float = BOARD_TOKEN_S
        self._fading: dict[int, list[tuple[str, OpenBoard]]] = {}
        """Table id to the replaced boards that still show a timed private note (a peek), each with
        its player: they are edited until the note is gone (:meth:`_remember_board`)."""

    # ------------------------------------------------------------------ who asks

    def actor(self, interaction: discord.Interaction) -> Actor:
        """The :class:`~bot.tables.core.Actor` behind *interaction*: its user, name and moderator rights."""
        user = interaction.user
        return Actor(user.id, getattr(user, "display_name", None) or str(user), self.is_moderator(interaction))

    def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Whether the user of *interaction* moderates every table of the server (``docs/tables.md``).

        Members with Manage Threads, administrators, and members of a role listed in
        ``tables.moderator_role_ids``.
        """
        perms = getattr(interaction, "permissions", None)
        if perms is not None and (perms.manage_threads or perms.administrator):
            return True
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        return bool(roles & set(self._cfg.moderator_role_ids))

    def _is_host(self, table: Table, interaction: discord.Interaction) -> bool:
        """Whether the user of *interaction* runs *table*: its host, or a moderator of the server."""
        return self.is_host(table, self.actor(interaction))

    # ------------------------------------------------------------------ lobby

    async def open(self, kind: str, interaction: discord.Interaction, options: dict[str, Any],
                   settings: dict[str, Any] | None = None) -> Table:
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
        table = await self.create(kind, self.actor(interaction), options, settings,
                                  guild_id=interaction.guild_id, channel_id=channel.id)
        thread: Any = channel
        if isinstance(channel, discord.TextChannel):
            try:
                await self.budget.acquire(urgent=True)
                thread = await channel.create_thread(name=f"{table.title} #{table.id}",
                                                     type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=1440)
            except discord.HTTPException:
                log.info("threads not allowed in %s; table %s stays in the channel", channel.id, table.id)
        if thread is channel and self.table_in(channel.id) is not None:
            await self.storage.update_game(table.id, status="cancelled")
            raise TableError("This channel allows no threads and already has a running table; "
                             "finish that one first, or open the table in a channel that allows threads.")
        table.thread_id = thread.id
        self.tables[table.id] = table
        await self.storage.update_game(table.id, thread_id=table.thread_id)
        await self._save_seats(table)
        await self.budget.acquire(urgent=True)
        message = await thread.send(self.lobby_text(table), view=self._lobby_view(table))
        table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
        await self.storage.update_game(table.id, message_id=message.id)
        log.info("table %s opened: %s in guild %s by user %s", table.id, kind, interaction.guild_id,
                 interaction.user.id)
        self._track(table, self._expire_lobby(table), "expiry")
        return table

    async def open_seated(self, kind: str, options: dict[str, Any], settings: dict[str, Any] | None, *,
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
                await self.budget.acquire(urgent=True)
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                raise TableError(f"The channel {channel_id} is gone.") from None
        table = await self.create_seated(kind, options, settings, guild_id=guild_id, channel_id=channel_id,
                                         seats=seats, host_id=host_id)
        try:
            thread: Any = channel
            if isinstance(channel, discord.TextChannel):
                try:
                    await self.budget.acquire(urgent=True)
                    thread = await channel.create_thread(name=(title or f"{table.title} #{table.id}")[:100],
                                                         type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=1440)
                except discord.HTTPException:
                    log.info("threads not allowed in %s; table %s stays in the channel", channel.id, table.id)
            table.thread_id = thread.id
            await self.start_seated(table)
            if intro:
                await self.budget.acquire(urgent=True)
                await thread.send(fit_text(intro), allowed_mentions=discord.AllowedMentions(
                    users=True, everyone=False, roles=False))
            await self.budget.acquire(urgent=True)
            message = await thread.send(self.public_text(table), view=self._table_view(table),
                                        allowed_mentions=discord.AllowedMentions.none())
            table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
            await self.storage.update_game(table.id, message_id=message.id)
        except BaseException:
            # Half open (its seats taken, maybe dealt, no message to play from: a refused message, a
            # shutdown while its thread was being made): the caller learns of no table, so none may
            # stay (a restart would bring it back); it is ended before the error goes on.
            log.warning("table %s could not be opened seated; it is ended", table.id, exc_info=True)
            with contextlib.suppress(Exception):
                if self.tables.get(table.id) is table:
                    await asyncio.shield(self.close_table(table.id, "This table could not be opened."))
                else:  # stored, not dealt yet: only its row is there to end
                    await asyncio.shield(self._cancel(table, "This table could not be opened."))
            raise
        log.info("table %s opened seated: %s in guild %s for %d players", table.id, kind, guild_id, len(seats))
        self._start_tasks(table)
        return table

    async def on_table_button(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """|coro| Handle a lobby/board/leave/rematch/how-to-play button; every outcome answers the interaction.

        The decision is taken under the table lock; the answer is sent after releasing it, so a
        slow Discord call never holds up other players' clicks.
        """
        table = await self.live(table_id)
        if table is None:
            await self._refuse(interaction, "This table no longer exists.")
            return
        actor = self.actor(interaction)
        if verb == "board":
            self.note_seen(table, actor.user_id)
        try:
            async with table.lock:
                if verb == "board":
                    reply = self._board_reply(interaction, table)
                elif verb == "howto":
                    reply = _Reply("send", fit_text(self.uis[table.kind].how_to_play(table)), ephemeral=True)
                elif verb == "rematch":
                    new = await self.rematch(table, actor)
                    reply = _Reply("send", self.public_text(new), self._table_view(new), ephemeral=False,
                                   table_message_of=new)
                elif verb == "leave" and table.status == "running":
                    await self.leave_running(table, actor)
                    reply = _Reply("send", "You left the game; a bot plays your seat.")
                elif table.status != "lobby":
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                else:
                    reply = await self._lobby_click(table, actor, verb)
        except TableError as exc:
            reply = _Reply("refuse", str(exc))
        await self._send_reply(interaction, reply)
        self._keep_public_token(table, interaction)
        self._remember_board(table, reply, interaction)
        if reply.table_message_of is not None:
            await self._adopt_message(interaction, reply.table_message_of, reply.sent)

    async def _lobby_click(self, table: Table, actor: Actor, verb: str) -> _Reply:
        """A lobby button's effect (lock held) and the lobby message it leaves."""
        if verb == "start":
            await self.start(table, actor)
            return _Reply("edit", self.public_text(table), self._table_view(table))
        if verb == "join":
            await self.join(table, actor)
        elif verb == "leave":
            await self.leave(table, actor)
        elif verb == "addbot":
            await self.add_bot(table, actor)
        elif verb == "cancel":
            await self.cancel(table, actor)
        else:
            raise TableError("That button is not in use.")
        return _Reply("edit", self.lobby_text(table), self._lobby_view(table) if table.status == "lobby" else None)

    async def _send_reply(self, interaction: discord.Interaction, reply: _Reply) -> None:
        if reply.kind == "refuse":
            await self._refuse(interaction, reply.content)
        elif await deferred(interaction):  # a slow decision: the answer goes through the token
            if reply.kind == "edit":
                await interaction.edit_original_response(content=reply.content, view=reply.view)
                return
            reply.sent = await interaction.followup.send(reply.content, view=reply.view or discord.utils.MISSING,
                                                         ephemeral=reply.ephemeral, wait=True)
            # A follow-up is not the interaction's own message: it cannot stay live.
            reply.followup_of, reply.board_of = reply.board_of, None
        elif reply.kind == "edit":
            await interaction.response.edit_message(content=reply.content, view=reply.view)
        else:
            sent = await interaction.response.send_message(reply.content, view=reply.view or discord.utils.MISSING,
                                                           ephemeral=reply.ephemeral)
            reply.message_id = getattr(sent, "message_id", None)

    def _lobby_view(self, table: Table) -> discord.ui.View:
        bots = [(name, f"Add a bot: {name}" + ("" if name == self.strength(table.kind, name)
                                                else f" ({self.strength(table.kind, name)})"))
                for name in self._bots(table.kind)]
        return lobby_view(table.id, bots)

    async def on_bot_pick(self, interaction: discord.Interaction, table_id: int, name: str) -> None:
        """|coro| The host picked a bot in the lobby's menu: it takes a seat (answered like any lobby click)."""
        table = await self.live(table_id)
        if table is None:
            await self._refuse(interaction, "This table no longer exists.")
            return
        try:
            async with table.lock:
                if table.status != "lobby":
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                await self.add_bot(table, self.actor(interaction), name)
                reply = _Reply("edit", self.lobby_text(table), self._lobby_view(table))
        except TableError as exc:
            reply = _Reply("refuse", str(exc))
        await self._send_reply(interaction, reply)
        self._keep_public_token(table, interaction)

    async def kick(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro| ``/table kick``: remove user *user_id* from this thread's table (host or moderators).

        In the lobby the seat is freed; in a running game a bot takes it over. Returns what happened.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        return await self._moderate(interaction, lambda table: self.kick_seat(table, user_id))

    async def hand_host(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro| ``/table host``: make seated user *user_id* the host of this thread's table.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        return await self._moderate(interaction, lambda table: self.make_host(table, user_id))

    async def _moderate(self, interaction: discord.Interaction,
                        change: Callable[[Table], Awaitable[str]]) -> str:
        """Make *change* to this thread's table under its lock (host or moderators), then redraw its lobby."""
        table = self.moderated_table(interaction.channel_id, self.actor(interaction))
        async with table.lock:
            answer = await change(table)
        self._background(self._edit_lobby(table))
        return answer

    async def end(self, interaction: discord.Interaction, table_id: int) -> Table:
        """|coro| ``/table end``: end live table *table_id* of the interaction's server at once.

        Allowed to that table's host and to moderators (:meth:`is_moderator`); the table is
        cancelled, race claims still waiting are answered, and its message says who ended it.

        Raises
        ------
        TableError
            No live table with that number in this server, or the user may not end it.
        """
        actor = self.actor(interaction)
        table = await self.endable_table(table_id, interaction.guild_id, actor)
        async with table.lock:
            was_running = table.engine is not None
            await self._cancel(table, "The table was ended.")
            text = self.public_text(table) if was_running else self.lobby_text(table)
        log.info("table %s ended by user %s", table.id, interaction.user.id)
        if table.message_id is not None:
            self._background(self._mark_ended(table, fit_text(f"⛔ This table was ended by {actor.name}.\n{text}")))
        return table

    async def _edit_lobby(self, table: Table) -> None:
        if table.message_id is None or table.status != "lobby":
            return
        try:
            channel = self._channel(table)
            await self.budget.acquire(urgent=True)
            await channel.get_partial_message(table.message_id).edit(
                content=self.lobby_text(table), view=self._lobby_view(table))
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of table %s: %s", table.id, exc)

    async def _mark_ended(self, table: Table, text: str) -> None:
        try:
            channel = self._channel(table)
            await self.budget.acquire(urgent=True)
            await channel.get_partial_message(table.message_id).edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not mark table %s as ended: %s", table.id, exc)

    def _channel(self, table: Table) -> Any:
        """The table's thread (or channel) to post and edit in: from the gateway cache, else a partial
        messageable by its id. Never a request: sending and editing need no more, so a restart of
        many tables fetches no channel (``docs/tables.md``, "Restarts").
        """
        channel: Any = self.client.get_channel(table.thread_id)
        return channel or self.client.get_partial_messageable(table.thread_id, guild_id=table.guild_id)

    # ------------------------------------------------------------------ playing

    def _table_view(self, table: Table) -> discord.ui.View:
        """The running table message's buttons: built once and shared by every redraw while they stay
        the same (the view is stopped, so Discord's answer never stores it; nothing changes it).
        """
        ui = self.uis[table.kind]
        key = (ui.board_label, tuple(ui.public_buttons(table)))
        if table.public_view is None or table.public_view[0] != key:
            table.public_view = (key, table_view(table.id, key[0], list(key[1])))
        view: discord.ui.View = table.public_view[1]
        return view

    def board(self, table: Table, player: str, note: str = "",
              selection: str | None = None) -> tuple[str, discord.ui.View | None]:
        """The private board of *player* (text and view), with an optional *note* on top."""
        face = self._board_face(table, player, note, selection)
        return face.text, self._board_view(table, face)

    def _board_face(self, table: Table, player: str, note: str = "", selection: str | None = None) -> _Face:
        """What *player*'s private board shows now (its text and items), before any Discord view is built."""
        ui = self.uis[table.kind]
        assert table.engine is not None
        if table.engine.is_over:
            return _Face(fit_text(f"{note}\nThe game is over.".strip()), (), True)
        notes = table.notes_for(player, now_ms())
        board = ui.board(table, player, selection)
        text = fit_text("\n".join(x for x in [note, *notes, board.text] if x))
        items = tuple(board.buttons)
        return _Face(text, items, all(ui.token_is_stable(token) for token in _tokens(items)))

    @staticmethod
    def _board_view(table: Table, face: _Face) -> discord.ui.View | None:
        """The Discord view of a board *face*, its custom ids carrying the table's current version."""
        return board_view(table.id, table.version, face.items) if face.items else None

    async def open_board(self, interaction: discord.Interaction) -> None:
        """|coro| ``/table board``: the caller's private board at this thread's table, ephemeral.

        The way in when the table message (and its "Open my board" button) is gone.

        Raises
        ------
        TableError
            Not in a table's thread, the game has not started, or the caller is not playing.
        """
        table = self.table_in(interaction.channel_id)
        if table is None:
            raise TableError("Use this inside the thread of a running table.")
        self.note_seen(table, interaction.user.id)
        async with table.lock:
            reply = self._board_reply(interaction, table)
        await self._send_reply(interaction, reply)
        self._remember_board(table, reply, interaction)

    def _board_reply(self, interaction: discord.Interaction, table: Table) -> _Reply:
        seat = table.seat_of_user(interaction.user.id)
        if table.engine is None:
            raise TableError("The game has not started yet.")
        if seat is None or seat.is_bot:
            raise TableError("You are not playing at this table; you can watch the table message.")
        drawn, face = now_ms(), self._board_face(table, seat.player_id)
        return _Reply("send", face.text, self._board_view(table, face), ephemeral=True, board_of=seat.player_id,
                      version=table.version, drawn_ms=drawn, face=face)

    def _remember_board(self, table: Table, reply: _Reply, interaction: discord.Interaction,
                        selection: str | None = None, note: str = "") -> None:
        """Keep *interaction* as the token that edits *reply*'s board, so it is refreshed as the table changes.

        Only a player's newest board follows the table. A board it replaces on another message that
        still shows a timed private note (a peek) is kept aside and edited once more when the note's
        time is up, so no message keeps showing the face (``docs/tables.md``, "Live boards").
        """
        if not self.live_boards or table.status != "running":
            return
        now = now_ms()
        # The notes the board shows are those of when it was drawn: a peek that ran out while the
        # answer was on its way is still on the message, so it must still be hidden.
        drawn = reply.drawn_ms or now
        if reply.followup_of is not None and reply.sent is not None:  # only to hide a peek on it
            shown = _Board(_FollowUp(reply.sent), now, reply.version,
                           notes=tuple(table.notes_for(reply.followup_of, drawn)))
            if self._shows_timed_note(table, reply.followup_of, shown):
                self._fading.setdefault(table.id, []).append((reply.followup_of, shown))
                table.boards_dirty.set()
            return
        if reply.board_of is None:
            return
        player = reply.board_of
        message_id = _board_message_id(interaction, reply)
        # A board this interaction sent is a message of its own webhook, edited by id through its
        # token like any follow-up. A board a click updated was sent through an older token, so
        # it is edited as this interaction's original response, which needs the interaction.
        handle: Any = interaction
        if reply.kind == "send" and message_id is not None:
            handle = _Token(interaction, message_id)
        board = _Board(handle, now, reply.version, selection, note, now,
                       notes=tuple(table.notes_for(player, drawn)), face=reply.face.key if reply.face else None,
                       message_id=message_id)
        old = table.boards.get(player)
        if (old is not None and _token_of(old) != interaction.token and self._shows_timed_note(table, player, old)
                and not (isinstance(old, _Board) and old.message_id is not None
                         and old.message_id == board.message_id)):
            self._fading.setdefault(table.id, []).append((player, old))
            table.boards_dirty.set()
        table.boards[player] = board
        if board.notes != tuple(table.notes_for(player, now)):  # a note ran out since: redraw it now
            table.boards_dirty.set()

    @staticmethod
    def _shows_timed_note(table: Table, player: str, board: OpenBoard) -> bool:
        """Whether *board* shows a private note that is to be hidden again (a peek), expired or not."""
        lasting = {n.text for n in table.private_notes.get(player, []) if n.until_ms is None}
        return any(text not in lasting for text in board.notes)

    async def on_move(self, interaction: discord.Interaction, table_id: int, version: int, token: str) -> None:
        """|coro| A button on a private board: the one path every human move takes.

        The answer is the player's redrawn board, which then stays live (:meth:`_board_loop`).
        """
        table = await self.live(table_id)
        if table is None or table.engine is None:
            await self._refuse(interaction, "This table is not running any more.")
            return
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            await self._refuse(interaction, "You are not playing at this table.")
            return
        self.note_seen(table, interaction.user.id)
        player = seat.player_id
        click: Click | None = None
        outcome: Outcome | None = None
        note, selection = "", None
        # The version check and the token's meaning are read under the table lock, so a move
        # applied meanwhile cannot change what an index-based token stands for.
        async with table.lock:
            ui = self.uis[table.kind]
            if version != table.version and not ui.token_is_stable(token):
                note = "The table moved on — here is your fresh board."
            else:
                try:
                    click = ui.on_board_click(table, player, token)
                except TableError as exc:
                    note = str(exc)
                except (ValueError, KeyError, IndexError):  # a garbled token: answer, never raise
                    log.warning("table %s: unreadable board token %r", table.id, token)
                    note = "That button is no longer valid — here is your fresh board."
                else:
                    if (click.action is not None and click.action.get("type") in table.engine.table_actions
                            and not self._is_host(table, interaction)):
                        # The host's or the table's own moves (docs/tables.md, "Who may do what"),
                        # whatever button a game's board offers them on.
                        note, click = "Only the host (or a moderator) can do that.", None
                    elif click.action is None:
                        note, selection = click.note, click.selection
                    elif table.engine.contested_resource(player, click.action) is None:
                        table.timeouts.pop(player, None)
                        outcome = await self._apply(table, player, click.action, _discord_ms(interaction))
                        note = self._outcome_note(table, outcome, click.note)
            if outcome is not None or click is None or click.action is None:
                drawn, face = now_ms(), self._board_face(table, player, note, selection)
                view = self._board_view(table, face)
        if click is not None and click.action is not None and outcome is None:  # contested: the race window
            table.timeouts.pop(player, None)
            outcome = await self.submit(table, player, click.action, _discord_ms(interaction),
                                        on_contest=lambda: self._defer(interaction))
            note = self._outcome_note(table, outcome, click.note)
            drawn, face = now_ms(), self._board_face(table, player, note, selection)
            view = self._board_view(table, face)
        shown, text = table.version, face.text
        try:
            if await deferred(interaction):
                await interaction.edit_original_response(content=text, view=view)
            else:
                await interaction.response.edit_message(content=text, view=view)
        except discord.HTTPException as exc:
            if outcome is None or not outcome.accepted:
                raise
            # Stored is done: never invite a second card with "try again" (docs/tables.md, Robustness).
            log.warning("table %s: a stored move's answer failed (%s); telling the player it was played",
                        table.id, exc)
            await answer_error(interaction, "✅ Your move was played. Discord was slow to show it: press "
                                            "**Open my board** (or `/table board`) for a fresh board.")
            return
        self._remember_board(table, _Reply("edit", board_of=player, version=shown, drawn_ms=drawn, face=face),
                             interaction, selection, note)

    async def on_public(self, interaction: discord.Interaction, table_id: int, token: str) -> None:
        """|coro| A game's own button on the public table message (Ready, End hand, …)."""
        table = await self.live(table_id)
        if table is None or table.engine is None or table.status != "running":
            await self._refuse(interaction, "This table is not running any more.")
            return
        seat = table.seat_of_user(interaction.user.id)
        self.note_seen(table, interaction.user.id)
        is_host = self._is_host(table, interaction)
        if (seat is None or seat.is_bot) and not is_host:
            await self._refuse(interaction, "You are not playing at this table; you can watch it here.")
            return
        # An unseated host or moderator acts for the table: a table action names any seat.
        player = seat.player_id if seat is not None and not seat.is_bot else table.seats[0].player_id
        try:
            action = self.uis[table.kind].on_public_click(table, player, token, is_host=is_host)
        except TableError as exc:
            await self._refuse(interaction, str(exc))
            return
        if (seat is None or seat.is_bot) and action.get("type") not in table.engine.table_actions:
            await self._refuse(interaction, "You are not playing at this table; only table actions are yours.")
            return
        outcome = await self.submit(table, player, action, _discord_ms(interaction))
        if outcome.accepted:
            await self._defer(interaction)  # the table message itself shows the change
            self._keep_public_token(table, interaction)
        else:
            await self._refuse(interaction, f"Refused: {outcome.reason}")

    # ------------------------------------------------------------------ keeping messages current

    def _keep_public_token(self, table: Table, interaction: discord.Interaction) -> None:
        """Keep *interaction* as *table*'s :class:`_PublicToken` when it was a click on the public
        message answered by updating it or deferring the update (its original response is then
        that message); any other answer leaves the table's token as it was.
        """
        message = interaction.message
        if (message is None or table.message_id is None or message.id != table.message_id
                or interaction.response.type not in _UPDATES_ITS_MESSAGE):
            return
        table.public_token = _PublicToken(interaction, message.id)

    def _public_token(self, table: Table) -> _PublicToken | None:
        """*table*'s public token while it still edits the current public message (a margin before
        its 15 minutes run out, like a live board's), else ``None`` (and it is let go).
        """
        token = table.public_token
        if not isinstance(token, _PublicToken):
            return None
        if token.message_id != table.message_id or now_ms() - token.received_ms >= self.board_token_s * 930:
            table.public_token = None
            return None
        return token

    def _busy_counts(self) -> tuple[int, int]:
        """Running tables that redraw through the REST budget and through a public token, counted
        at most twice a second (every redraw asks, and a thousand tables would make it quadratic).
        """
        stamp, rest, token = self._busy
        now = time.monotonic()
        if now - stamp >= 0.5:
            running = [t for t in self.tables.values() if t.status == "running"]
            token = sum(1 for t in running if self._public_token(t) is not None)
            rest = len(running) - token
            self._busy = (now, rest, token)
        return rest, token

    def _watch(self, table: Table) -> list[Coroutine[Any, Any, None]]:
        """The public message's redraw loop and the open boards' refresh loop of *table*."""
        return [self._redraw_loop(table), self._board_loop(table)]

    async def _board_loop(self, table: Table) -> None:
        """Refresh every open private board of *table* as it changes (``docs/tables.md``, "Live boards").

        Coalesced: one pass per ``board_refresh_ms`` at most, latest state wins; a board is edited
        only when the table moved on since it was drawn. Each board is edited through its owner's
        latest interaction token; near the token's end (15 minutes) the board says so, and after
        it the board is forgotten (any click on it, or **Open my board**, gives a fresh one).
        Interaction webhooks are outside Discord's global rate limit.
        """
        interval = self._cfg.board_refresh_ms / 1000
        last = 0.0
        while True:
            timeout = self.board_token_s / 30
            if (expiry := table.next_note_expiry(now_ms())) is not None:  # a peek to hide again
                timeout = min(timeout, (expiry - now_ms()) / 1000 + 0.01)
            if self._notes_changed_since_drawn(table):  # e.g. a peek ran out while the last pass was drawing
                table.boards_dirty.set()
            await wait_event(table.boards_dirty, max(0.02, timeout))
            if not table.boards and not self._fading.get(table.id):  # no board open: nothing to refresh
                table.boards_dirty.clear()
                if table.status != "running" or self._closing:
                    return
                continue
            # A click's own answer goes out before the boards it changed (FOLLOW_S).
            await asyncio.sleep(max(last + interval - time.monotonic(), FOLLOW_S))
            table.boards_dirty.clear()
            last = time.monotonic()
            if self._closing:
                return
            await asyncio.gather(*(self._refresh_board(table, player, board)
                                   for player, board in list(table.boards.items())),
                                 self._refresh_fading(table))
            if table.status != "running":
                table.boards.clear()
                self._fading.pop(table.id, None)
                return

    def _notes_changed_since_drawn(self, table: Table) -> bool:
        """Whether an open or replaced board of *table* shows other private notes than its player has
        now: a note that ran out after the board was drawn (its expiry is past, so no timer wakes
        the loop for it) still has to be hidden at once (``docs/tables.md``, "Live boards").
        """
        now = now_ms()
        boards = [*table.boards.items(), *self._fading.get(table.id, [])]
        return any(board.notes != tuple(table.notes_for(player, now)) for player, board in boards)

    async def _refresh_fading(self, table: Table) -> None:
        """Edit each replaced board that still shows a timed note; forget it once it shows none."""
        fading = list(self._fading.get(table.id, []))
        if not fading:
            return
        done = await asyncio.gather(*(self._refresh_board(table, player, board) for player, board in fading))
        kept = [(player, board) for (player, board), ok in zip(fading, done, strict=True)
                if ok and self._shows_timed_note(table, player, board)]
        current = self._fading.get(table.id, [])
        kept += current[len(fading):]  # replaced while these were being edited
        if kept:
            self._fading[table.id] = kept
        else:
            self._fading.pop(table.id, None)

    async def _refresh_board(self, table: Table, player: str, board: OpenBoard) -> bool:
        """Edit one open board to the table's current state (or tell its owner it stops updating).

        Returns whether the board can still be edited.
        """
        age_s = (now_ms() - board.opened_ms) / 1000
        expiring, last = age_s >= self.board_token_s * 0.8, age_s >= self.board_token_s * 0.93
        notes = tuple(table.notes_for(player, now_ms()))
        if (board.version == table.version and notes == board.notes and not last
                and (board.warned or not expiring)):
            return True
        seat = table.seat_of_player(player)
        if seat is None or seat.is_bot or table.engine is None:
            if table.boards.get(player) is board:
                table.boards.pop(player, None)
            return False
        note = board.note if now_ms() - board.note_ms < BOARD_NOTE_S * 1000 else ""
        if last:
            note = ("⌛ This board no longer updates by itself: press **Open my board** (or `/table board`) "
                    "for one that does.")
        elif expiring:
            note = "\n".join(x for x in [note, "⌛ This board stops updating in a few minutes: press **Open my "
                                             "board** for a fresh one."] if x)
        version = table.version
        face = self._board_face(table, player, note, board.selection)
        key = face.key
        if key is not None and key == board.face:  # the table moved on, but not on this board: nothing to send
            board.version, board.warned, board.notes = version, expiring, notes
            return True
        try:
            await board.interaction.edit_original_response(content=face.text, view=self._board_view(table, face))
        except discord.HTTPException as exc:  # dismissed (10008) or the token ran out (50027): forget it
            log.info("table %s: the board of %s can no longer be edited (%s)", table.id, player, exc.code)
            if table.boards.get(player) is board:
                table.boards.pop(player, None)
            return False
        board.version, board.warned, board.notes, board.face = version, expiring, notes, key
        if last and table.boards.get(player) is board:
            table.boards.pop(player, None)
        if board.version != table.version:
            table.boards_dirty.set()
        return True

    async def _redraw_loop(self, table: Table) -> None:
        """Edit the public message at most once per interval, latest state wins.

        The interval is ``redraw_interval_ms``, stretched by the REST budget when many tables are
        busy (:meth:`RestBudget.redraw_interval`); each edit waits for its turn in the budget, and
        the text is drawn after that wait, so the latest state goes out and nothing is sent twice.
        """
        base = self._cfg.redraw_interval_ms / 1000
        interval = base
        last = 0.0
        while True:
            await table.dirty.wait()
            via_budget, via_token = self._busy_counts()
            if self._public_token(table) is not None:
                interval = self.token_budget.redraw_interval(base, via_token)
            else:
                interval = self.budget.redraw_interval(base, via_budget)
            # A click's own answer goes out before the table message it changed (FOLLOW_S).
            await asyncio.sleep(max(last + interval - time.monotonic(), FOLLOW_S))
            table.dirty.clear()
            last = time.monotonic()
            if self._closing:
                return
            try:
                final = await self._redraw(table)
            except (discord.HTTPException, RuntimeError):
                log.warning("redraw of table %s failed", table.id, exc_info=True)
                if table.status != "running":  # the final standings must show: try again
                    table.dirty.set()
                    await asyncio.sleep(min(30.0, 2 * interval + 1))
                    continue
                final = False
            # A game that ended while this edit was on its way is drawn once more (its change set
            # dirty again): the last edit must be the one with the final standings.
            if final or (table.status != "running" and not table.dirty.is_set()):
                break
        await asyncio.sleep(FINISHED_TTL_S)
        if self.tables.get(table.id) is table:
            self.tables.pop(table.id, None)
        self._seen.pop(table.id, None)

    @staticmethod
    def _people_moved(table: Table, within_ms: float = 15_000) -> bool:
        """Whether a person (not a bot) moved at *table* in the last *within_ms* ms: its redraws go first."""
        now = now_ms()
        return any(not s.is_bot and now - table.last_move_ms.get(s.player_id, -within_ms) < within_ms
                   for s in table.seats)

    async def _redraw(self, table: Table) -> bool:
        """Edit (or post anew) the public message; returns whether what it drew was the table's end.

        The edit goes through the table's :class:`_PublicToken` while it has one (paced by
        :attr:`token_budget`), else through the bot's REST budget; a token that is refused falls
        back to the budget at once (``docs/tables.md``, "Discord's limits").
        """
        channel = self._channel(table)
        urgent = self._people_moved(table) or table.status != "running"
        too_old = wall_ms() - table.message_posted_ms > self._cfg.repost_after_minutes * 60_000
        token = None if too_old else self._public_token(table)
        await (self.token_budget if token is not None else self.budget).acquire(urgent=urgent)
        table.dirty.clear()  # what changed while waiting for the budget goes out with this edit
        final = table.status != "running"
        finished = table.engine is not None and table.engine.is_over
        view: discord.ui.View | None
        if finished:  # a tournament match is over for good: no Rematch (docs/tournaments.md)
            view = None if table.settings.get("tournament") else finished_view(table.id)
        else:
            view = self._table_view(table)
        text = self.public_text(table)
        if token is not None:
            try:
                await token.edit(content=text, view=view)
                return final
            except discord.HTTPException as exc:  # the token ran out (50027), the message is gone (10008)
                log.info("table %s: its public token no longer edits the message (%s)", table.id, exc.code)
                if table.public_token is token:
                    table.public_token = None
                await self.budget.acquire(urgent=urgent)
        if table.message_id is not None and not too_old:
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
                return final
            except discord.HTTPException as exc:
                # 30046: too many edits to a message older than an hour; 10008: the message was deleted.
                if exc.code not in (30046, 10008):
                    raise
                log.info("table %s: its message is %s; posting it anew", table.id,
                         "gone" if exc.code == 10008 else "too old to edit")
        await self.budget.acquire(urgent=True)
        message = await channel.send(text, view=view,
                                     allowed_mentions=discord.AllowedMentions.none())
        if table.message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.budget.acquire()
                await channel.get_partial_message(table.message_id).edit(view=None)
        table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
        table.public_token = None  # it edits the old message
        await self.storage.update_game(table.id, message_id=message.id)
        return final

    async def _say(self, table: Table, text: str, *, ping: bool = False) -> None:
        """Post a new message in the table's thread; it mentions (pings) users only with *ping*."""
        try:
            channel = self._channel(table)
            mentions = discord.AllowedMentions(users=True, everyone=False, roles=False) if ping \
                else discord.AllowedMentions.none()
            await self.budget.acquire(urgent=True)
            await channel.send(fit_text(text), allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("could not post to table %s", table.id, exc_info=True)

    async def _adopt_message(self, interaction: discord.Interaction, new: Table,
                             sent: discord.WebhookMessage | None = None) -> None:
        """The answer just sent is *new*'s public message: remember it and start the table's tasks."""
        message = sent or await interaction.original_response()
        new.message_id, new.message_posted_ms = message.id, posted_ms(message.id)
        if sent is None:  # the answer itself is the new table's message: its token edits it
            new.public_token = _PublicToken(interaction, message.id)
        await self.storage.update_game(new.id, message_id=message.id)
        self._start_tasks(new)

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        """Defer *interaction* unless it is already answered or deferred (the watchdog may have)."""
        if not await deferred(interaction):
            await interaction.response.defer()

    async def _refuse(self, interaction: discord.Interaction, message: str) -> None:
        await answer_error(interaction, message)
