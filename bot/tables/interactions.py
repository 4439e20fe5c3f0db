"""Interactions in, answers out: the Discord edge of the table service.

Clicks and board/table commands arrive as :class:`discord.Interaction` objects; each becomes an
:class:`~bot.tables.core.Actor` and a call to the Discord-free parts (a move always through
:meth:`Moves.submit <bot.tables.moves.Moves.submit>`, which decides), and every outcome answers
the interaction (``docs/tables.md``). Decisions are taken under the table lock; answers are sent
after it is released, so a slow Discord never holds up other players.
"""

from __future__ import annotations

import logging

import discord

from bot.answers import answer_error, deferred
from bot.tables.boards import LiveBoards, Reply
from bot.tables.codec import codec_for, is_action_token, is_intent_token
from bot.tables.core import Actor, now_ms, posted_ms
from bot.tables.lobby import Lobby
from bot.tables.loops import Loops
from bot.tables.messages import DiscordMessenger, PublicToken
from bot.tables.moves import Decode, Moves, outcome_note
from bot.tables.race import Outcome
from bot.tables.registry import TableRegistry
from bot.tables.restore import Restorer
from bot.tables.table import Table, TableError, TableStatus
from bot.tables.text import fit_text
from bot.tables.ui import Click, GameUI

__all__ = ["Interactions", "discord_ms", "shown_name"]

log = logging.getLogger("parlor.tables")


def shown_name(name: str) -> str:
    r"""*name* as a table shows it: written as typed, its markdown and mentions escaped, so a display
    name never formats a message nor pings anyone (``docs/tables.md``, "Lobby").

    >>> shown_name("**bo** @everyone") == "\\*\\*bo\\*\\* @\u200beveryone"
    True
    """
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def discord_ms(interaction: discord.Interaction) -> int:
    """The Discord timestamp of *interaction* (Unix ms, from its snowflake): what orders a race."""
    return int(interaction.created_at.timestamp() * 1000)


def _owner_of(table: Table, ui: GameUI, token: str, clicker: str) -> str | None:
    """The name of the other seated person whose board *token* (an action or intent token, keyed per
    player) was drawn for, or ``None``: asked only when *clicker* could not use the token.
    """
    engine = table.engine
    if engine is None or not (is_action_token(token) or is_intent_token(token)):
        return None
    for seat in table.seats:
        if seat.is_bot or seat.player_id == clicker:
            continue
        codec = codec_for(table, seat.player_id)
        try:
            if is_action_token(token):
                codec.decode(token, engine.legal_actions(seat.player_id))
            else:
                codec.decode_intent(token, ui.intents(table, seat.player_id))
        except TableError:
            continue
        return seat.name
    return None


class Interactions:
    """The table service's answers to clicks and board commands (see the module's documentation).

    Parameters
    ----------
    registry, moves, loops, lobby, restorer:
        The Discord-free parts of the table service.
    messages, boards:
        The public messages and the live private boards.
    """

    def __init__(self, registry: TableRegistry, moves: Moves, loops: Loops, lobby: Lobby, restorer: Restorer,
                 messages: DiscordMessenger, boards: LiveBoards) -> None:
        self.registry = registry
        self.moves = moves
        self.loops = loops
        self.lobby = lobby
        self.restorer = restorer
        self.messages = messages
        self.boards = boards

    def actor(self, interaction: discord.Interaction) -> Actor:
        """The :class:`~bot.tables.core.Actor` behind *interaction*: its user, its name as a table shows
        it (:func:`shown_name`) and its moderator rights.
        """
        user = interaction.user
        return Actor(user.id, shown_name(getattr(user, "display_name", None) or str(user)),
                     self.is_moderator(interaction))

    def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Whether the user of *interaction* moderates every table of the server (``docs/tables.md``).

        Members with Manage Threads, administrators, and members of a role listed in
        the server's moderator roles (``/settings role``, else ``tables.moderator_role_ids``).
        """
        perms = getattr(interaction, "permissions", None)
        if perms is not None and (perms.manage_threads or perms.administrator):
            return True
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        return bool(roles & set(self.registry.server.moderator_role_ids(interaction.guild_id)))

    # ------------------------------------------------------------------ lobby
    async def on_table_button(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """|coro| Handle a lobby/board/leave/rematch/how-to-play button; every outcome answers the interaction.

        The decision is taken under the table lock; the answer is sent after releasing it, so a
        slow Discord call never holds up other players' clicks.
        """
        table = await self.restorer.live(table_id)
        if table is None:
            await self.refuse(interaction, "This table no longer exists.")
            return
        actor = self.actor(interaction)
        if verb == "board":
            self.lobby.note_seen(table, actor.user_id)
        try:
            async with table.lock:
                if verb == "board":
                    if await self.lobby.take_back(table, actor):  # a seat a bot took while they were away
                        self.lobby.note_seen(table, actor.user_id)
                    reply = self.board_reply(interaction, table)
                elif verb == "howto":
                    reply = Reply("send", fit_text(self.registry.uis[table.kind].how_to_play(table)), ephemeral=True)
                elif verb == "rematch":
                    new, joined = await self.restorer.rematch(table, actor)
                    if not joined:  # a new lobby: the answer is its message, for everyone
                        reply = Reply("send", "", self.messages.lobby_view(new),
                                      ephemeral=False, table_message_of=new)
                    else:  # joined the lobby someone else opened
                        reply = Reply("send", f"You are in the rematch (table #{new.id}); the host deals with "
                                              "**Start** on its message.")
                        self.registry.background(self.messages.edit_lobby(new))
                elif verb == "leave" and table.status == TableStatus.RUNNING:
                    await self.lobby.leave_running(table, actor)
                    reply = Reply("send", "You left the game; a bot plays your seat.")
                elif table.status != TableStatus.LOBBY:
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                elif verb == "invite":  # Join on the channel's invite card: the seat, and where to play
                    await self.lobby.join(table, actor)
                    reply = Reply("send", f"You took a seat at table #{table.id}: the game is played in "
                                          f"<#{table.thread_id}>.")
                    self.registry.background(self.messages.edit_lobby(table))
                else:
                    reply = await self._lobby_click(table, actor, verb)
        except TableError as exc:
            reply = Reply("refuse", str(exc))
        await self.send_reply(interaction, reply)
        self.messages.keep_public_token(table, interaction)
        self.boards.remember(table, reply, interaction)
        if table.id in self.messages.invites:  # the card in the channel follows the lobby
            self.registry.background(self.messages.edit_invite(table))
        if reply.table_message_of is not None:
            await self._adopt_message(interaction, reply.table_message_of, reply.sent)

    async def _lobby_click(self, table: Table, actor: Actor, verb: str) -> Reply:
        """A lobby button's effect (lock held) and the lobby message it leaves."""
        if verb == "start":
            await self.lobby.start(table, actor)
            return Reply("edit", "", self.messages.table_view(table))
        if verb == "join":
            await self.lobby.join(table, actor)
        elif verb == "leave":
            await self.lobby.leave(table, actor)
        elif verb == "addbot":
            await self.lobby.add_bot(table, actor)
        elif verb == "cancel":
            await self.lobby.cancel(table, actor)
        else:
            raise TableError("That button is not in use.")
        return Reply("edit", "", self.messages.lobby_view(table))  # no buttons once closed

    async def send_reply(self, interaction: discord.Interaction, reply: Reply) -> None:
        """|coro| Send *reply*, decided under the table lock, as the answer to *interaction* (through its
        token when the answer was deferred).
        """
        # A layout (Components V2) carries its text: the message has no content (discord.py sends the flag).
        content = None if isinstance(reply.view, discord.ui.LayoutView) else reply.content
        if reply.kind == "refuse":
            await self.refuse(interaction, reply.content)
        elif await deferred(interaction):  # a slow decision: the answer goes through the token
            if reply.kind == "edit":
                await interaction.edit_original_response(content=content, view=reply.view)
                return
            if isinstance(reply.view, discord.ui.LayoutView):
                reply.sent = await interaction.followup.send(view=reply.view, ephemeral=reply.ephemeral, wait=True)
            else:
                reply.sent = await interaction.followup.send(reply.content, view=reply.view or discord.utils.MISSING,
                                                             ephemeral=reply.ephemeral, wait=True)
            # A follow-up is not the interaction's own message: it cannot stay live.
            reply.followup_of, reply.board_of = reply.board_of, None
        elif reply.kind == "edit":
            await interaction.response.edit_message(content=content, view=reply.view)
        else:
            if isinstance(reply.view, discord.ui.LayoutView):
                sent = await interaction.response.send_message(view=reply.view, ephemeral=reply.ephemeral)
            else:
                sent = await interaction.response.send_message(reply.content, view=reply.view or discord.utils.MISSING,
                                                               ephemeral=reply.ephemeral)
            reply.message_id = getattr(sent, "message_id", None)

    async def on_bot_pick(self, interaction: discord.Interaction, table_id: int, name: str) -> None:
        """|coro| The host picked a bot in the lobby's menu: it takes a seat (answered like any lobby click)."""
        table = await self.restorer.live(table_id)
        if table is None:
            await self.refuse(interaction, "This table no longer exists.")
            return
        try:
            async with table.lock:
                if table.status != TableStatus.LOBBY:
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                await self.lobby.add_bot(table, self.actor(interaction), name)
                reply = Reply("edit", "", self.messages.lobby_view(table))
            self.registry.background(self.messages.edit_invite(table))
        except TableError as exc:
            reply = Reply("refuse", str(exc))
        await self.send_reply(interaction, reply)
        self.messages.keep_public_token(table, interaction)

    async def open_board(self, interaction: discord.Interaction) -> None:
        """|coro| ``/table board``: the caller's private board at this thread's table, ephemeral.

        The way in when the table message (and its "Open my board" button) is gone.

        Raises
        ------
        TableError
            Not in a table's thread, the game has not started, or the caller is not playing.
        """
        table = self.registry.table_in(interaction.channel_id)
        if table is None:
            raise TableError("Use this inside the thread of a running table.")
        self.lobby.note_seen(table, interaction.user.id)
        async with table.lock:
            if await self.lobby.take_back(table, self.actor(interaction)):
                self.lobby.note_seen(table, interaction.user.id)
            reply = self.board_reply(interaction, table)
        await self.send_reply(interaction, reply)
        self.boards.remember(table, reply, interaction)

    def board_reply(self, interaction: discord.Interaction, table: Table) -> Reply:
        """A fresh private board for the user of *interaction* at *table*, as a new ephemeral message.

        Raises
        ------
        TableError
            The game has not started, or the user is not playing.
        """
        seat = table.seat_of_user(interaction.user.id)
        if table.engine is None:
            raise TableError("The game has not started yet.")
        if seat is None or seat.is_bot:
            raise TableError("You are not playing at this table; you can watch the table message.")
        drawn, face = now_ms(), self.boards.face(table, seat.player_id)
        return Reply("send", face.text, self.boards.view(table, face), ephemeral=True, board_of=seat.player_id,
                      version=table.version, drawn_ms=drawn, face=face)

    async def on_move(self, interaction: discord.Interaction, table_id: int, version: int, token: str) -> None:
        """|coro| A button (or menu option) *token* on a private board drawn at table *version*.

        Decoded and decided by :meth:`Moves.submit <bot.tables.moves.Moves.submit>`; the answer is
        the player's redrawn board with the outcome on top, which then stays live (:class:`LiveBoards`).
        """
        table = await self.restorer.live(table_id)
        seat = table.seat_of_user(interaction.user.id) if table is not None else None
        if table is None or table.engine is None or seat is None:
            await self.refuse(interaction, "You are not playing at this table." if table and table.engine
                              else "This table is not running any more.")
            return
        self.lobby.note_seen(table, interaction.user.id)
        outcome = await self.moves.submit(table, self.actor(interaction), self._board_click(version, token),
                                          discord_ms(interaction), on_contest=lambda: self.defer(interaction))
        await self._answer_board(interaction, table, seat.player_id, outcome)

    def _board_click(self, version: int, token: str) -> Decode:
        """What a board's *token*, drawn at table *version*, means now (:data:`~bot.tables.moves.Decode`):
        a token whose meaning depends on the state (an index) is stale once the table moved on.
        """
        def decode(table: Table, player: str) -> Click:
            ui = self.registry.uis[table.kind]
            if version != table.version and not ui.token_is_stable(token):
                raise TableError("The table moved on — here is your fresh board.")
            try:
                return ui.on_board_click(table, player, token)
            except (TableError, ValueError, KeyError, IndexError):
                owner = _owner_of(table, ui, token, player)
                if owner is not None:  # another player's board: Discord hides it, the bot does not rely on that
                    raise TableError(f"That is {owner}'s board, not yours — here is your own.") from None
                raise
        return decode

    async def _answer_board(self, interaction: discord.Interaction, table: Table, player: str,
                            outcome: Outcome) -> None:
        """|coro| Answer a board click with *player*'s redrawn board, *outcome* on top, and keep it live."""
        note = outcome_note(table, outcome)
        drawn, face = now_ms(), self.boards.face(table, player, note, outcome.selection)
        shown = table.version
        try:
            if await deferred(interaction):
                await interaction.edit_original_response(content=None, view=self.boards.view(table, face))
            else:
                await interaction.response.edit_message(content=None, view=self.boards.view(table, face))
        except discord.HTTPException as exc:
            if not outcome.accepted:
                raise
            # Stored is done: never invite a second card with "try again" (docs/tables.md, Robustness).
            log.warning("table %s: a stored move's answer failed (%s); telling the player it was played",
                        table.id, exc)
            await answer_error(interaction, "✅ Your move was played. Discord was slow to show it: press "
                                            "**Open my board** (or `/table board`) for a fresh board.")
            return
        self.boards.remember(table, Reply("edit", board_of=player, version=shown, drawn_ms=drawn, face=face),
                             interaction, outcome.selection, note)

    async def on_public(self, interaction: discord.Interaction, table_id: int, token: str) -> None:
        """|coro| A game's own button *token* on the public table message (Ready, End hand, …).

        Decided by :meth:`Moves.submit <bot.tables.moves.Moves.submit>` like every move; an accepted
        one is answered by the table message itself (the update is deferred), a refusal privately.
        """
        table = await self.restorer.live(table_id)
        if table is None:
            await self.refuse(interaction, "This table is not running any more.")
            return
        actor = self.actor(interaction)
        self.lobby.note_seen(table, actor.user_id)
        is_host = self.registry.is_host(table, actor)
        ui = self.registry.uis[table.kind]

        def decode(table: Table, player: str) -> Click:
            return Click(ui.on_public_click(table, player, token, is_host=is_host))

        outcome = await self.moves.submit(table, actor, decode, discord_ms(interaction))
        if outcome.accepted:
            await self.defer(interaction)  # the table message itself shows the change
            self.messages.keep_public_token(table, interaction)
        else:
            await self.refuse(interaction, outcome_note(table, outcome))

    # ------------------------------------------------------------------ keeping messages current

    async def _adopt_message(self, interaction: discord.Interaction, new: Table,
                             sent: discord.WebhookMessage | None = None) -> None:
        """The answer just sent is *new*'s public message: remember it and start the table's tasks."""
        message = sent or await interaction.original_response()
        new.message_id, new.message_posted_ms = message.id, posted_ms(message.id)
        if sent is None:  # the answer itself is the new table's message: its token edits it
            self.messages.tokens[new.id] = PublicToken(interaction, message.id)
        await self.registry.storage.set_game_message(new.id, message.id)
        if new.status == TableStatus.LOBBY:  # a rematch gathering its players
            self.registry.track(new, self.loops.expire_lobby(new), "expiry")
        else:
            self.loops.start_tasks(new)

    @staticmethod
    async def defer(interaction: discord.Interaction) -> None:
        """Defer *interaction* unless it is already answered or deferred (the watchdog may have)."""
        if not await deferred(interaction):
            await interaction.response.defer()

    async def refuse(self, interaction: discord.Interaction, message: str) -> None:
        """|coro| Answer *interaction* with *message*, ephemerally (a refusal changes nothing)."""
        await answer_error(interaction, message)

