"""The public table message on Discord, and the :class:`~bot.tables.messenger.Messenger` the parts post through.

:class:`DiscordMessenger` posts a table's notices, marks its message ended, redraws the lobby and
keeps the running table's public message current: one task per table coalesces changes (at most
one edit per ``redraw_interval_ms``, latest state wins), edits through the latest interaction
token of a click on that message when it has one (outside Discord's global limit), and posts the
message anew before it is an hour old (``docs/tables.md``, "Discord's limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Coroutine, Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.art.pictures import Picture
from bot.storage.outbox import TABLE_NOTICE, Notice
from bot.tables.boards import FOLLOW_S, LiveBoards
from bot.tables.budget import RestBudget
from bot.tables.components import finished_view, invite_view, lobby_view, table_view, text_view
from bot.tables.core import now_ms, posted_ms, wall_ms
from bot.tables.layout import Media, accent_of
from bot.tables.registry import TableRegistry
from bot.tables.seats import SeatPanel
from bot.tables.table import Seat, Table, TableStatus
from bot.tables.text import fit_text

__all__ = ["DiscordMessenger", "PublicToken", "FINISHED_TTL_S", "PICTURE_ACCENT", "picture_message", "avatar_url",
           "default_avatar_url", "with_avatars"]

log = logging.getLogger("parlor.tables")

PICTURE_ACCENT = 0x265E42
"""The accent colour of a picture's container: the felt green the pictures are drawn on."""

FINISHED_TTL_S = 1800
"""Seconds a finished table stays in memory (for Rematch) after its final redraw."""


class PublicToken:
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

    async def edit(self, *, view: discord.ui.LayoutView) -> None:
        """|coro| Edit the public message through the token to the layout *view* (no mentions, as
        every redraw; discord.py sends the IS_COMPONENTS_V2 flag with it).

        Raises
        ------
        discord.HTTPException
            The token ran out or the message is gone (any refusal: the caller falls back).
        """
        await self.interaction.edit_original_response(content=None, view=view,
                                                      allowed_mentions=discord.AllowedMentions.none())


UPDATES_ITS_MESSAGE = (discord.InteractionResponseType.deferred_message_update,
                        discord.InteractionResponseType.message_update)
"""The answers to a click after which the interaction's original response is the clicked message."""



class DiscordMessenger:
    """The Discord side of every table's public message (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process.
    client:
        The discord.py client whose channels the tables live in (channels are taken from its
        cache, never fetched to edit or post).
    boards:
        The live private boards, whose refresh loop runs with each table's redraw loop.

    Attributes
    ----------
    budget:
        Paces the requests that count against Discord's global limit (``tables.rest_per_second``).
    token_budget:
        Paces the public redraws that go through an interaction token (:class:`PublicToken`):
        Discord does not count them, but each costs the bot CPU that clicks need.
    """

    def __init__(self, registry: TableRegistry, client: discord.Client, boards: LiveBoards) -> None:
        self.registry = registry
        self.client = client
        self.boards = boards
        config = registry.config
        self.budget = RestBudget(config.rest_per_second)
        self.token_budget = RestBudget(config.token_redraws_per_second, redraw_share=1.0)
        self._busy: tuple[float, int, int] = (0.0, 0, 0)  # when counted (monotonic s), busy via budget, via token
        self.tokens: dict[int, PublicToken] = {}
        """Table id to what edits its public message through an interaction token (outside Discord's
        global limit): kept from the latest click on that message answered by updating it or
        deferring that update, good for 15 minutes (``docs/tables.md``, "Discord's limits")."""
        self.invites: dict[int, int] = {}
        """Table id to its invite card in the channel the table's thread belongs to (message id),
        while the card is to follow the lobby (:meth:`post_invite`)."""
        self._invite_edits: dict[int, asyncio.Lock] = {}  # table id: its invite card's edits, in order

    def lobby_view(self, table: Table) -> discord.ui.LayoutView:
        """The lobby message's layout: its text, the lobby buttons, and the Add-bot menu of the game's strengths
        (``TableRegistry.bot_menu``); once the lobby closed (started or cancelled), its text alone.
        """
        if table.status != TableStatus.LOBBY:
            return text_view(self.registry.lobby_text(table), accent=accent_of(table.kind))
        parts = self.registry.lobby_parts(table)  # a Section per seat, with its avatar
        return lobby_view(table.id, self.registry.bot_menu(table.kind), text=f"{parts.header}\n{parts.body}",
                          accent=accent_of(table.kind), seats=with_avatars(self.client, table, parts.seats))

    @staticmethod
    def header(table: Table) -> str:
        """The header line of a message of *table* that has none of its own: game and table number."""
        return f"**{table.title}** — table #{table.id}"

    def ended_view(self, table: Table, text: str) -> discord.ui.LayoutView:
        """*table*'s message once it ended or moved on: *text* under the table's header, no buttons."""
        return text_view(text, accent=accent_of(table.kind), header=self.header(table))

    def invite_text(self, table: Table) -> str:
        """The invite card: who opened which game and how many are seated (a lobby), or where it is
        played (a running game), or that it closed.
        """
        thread = f"<#{table.thread_id}>"
        host = table.seat_of_user(table.host_id)
        who = f"**{host.name}** opened" if host is not None else "A new"
        if table.status == TableStatus.LOBBY:
            return (f"🃏 {who} a **{table.title}** table — {len(table.seats)}/{table.max_players} seated "
                    f"(at least {table.min_players}) · {thread}\nPress **Join** to take a seat; the game is "
                    "played in the thread.")
        if table.status in (TableStatus.RUNNING, TableStatus.FINISHED):
            names = ", ".join(s.name for s in table.seats)
            return f"▶ **{table.title}** table #{table.id} is played in {thread} by {names}."
        return f"⛔ The **{table.title}** table #{table.id} closed before its game began."

    async def post_invite(self, table: Table, channel: Any) -> None:
        """|coro| Post the invite card of lobby *table* in *channel* (where ``/<kind> new`` was used),
        with Join; it follows the lobby until the game starts (:meth:`edit_invite`). Never raises.
        """
        try:
            await self.budget.acquire(urgent=True)
            message = await channel.send(view=self.invite_view(table),
                                         allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not post the invite card of table %s: %s", table.id, exc)
            return
        self.invites[table.id] = message.id

    def invite_view(self, table: Table, *, join: bool = True) -> discord.ui.LayoutView:
        """The invite card's layout (:meth:`invite_text` under the table's header), with Join while *join*."""
        return invite_view(table.id, text=self.invite_text(table), accent=accent_of(table.kind), join=join)

    async def edit_invite(self, table: Table) -> None:
        """|coro| Bring *table*'s invite card up to date: the seats while a lobby, then a link to the
        thread (no buttons) once the game started or the lobby closed. Never raises.
        """
        message_id = self.invites.get(table.id)
        if message_id is None:
            return
        channel: Any = self.client.get_channel(table.channel_id) or self.client.get_partial_messageable(
            table.channel_id, guild_id=table.guild_id)
        async with self._invite_edits.setdefault(table.id, asyncio.Lock()):  # one at a time: the last is the latest
            try:
                await self.budget.acquire()
                lobby = table.status == TableStatus.LOBBY  # the state as it is now, after the wait
                if not lobby and self.invites.pop(table.id, None) is None:
                    return  # another edit already made the card's last one
                await channel.get_partial_message(message_id).edit(
                    content=None, view=self.invite_view(table, join=lobby),
                    allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.info("could not edit the invite card of table %s: %s", table.id, exc)
            finally:
                if table.id not in self.invites:
                    self._invite_edits.pop(table.id, None)

    async def edit_lobby(self, table: Table) -> None:
        """|coro| Redraw lobby *table*'s message (nothing once it started) and its invite card. Never raises."""
        await self.edit_invite(table)
        if table.message_id is None or table.status != TableStatus.LOBBY:
            return
        try:
            channel = self.channel(table)
            await self.budget.acquire(urgent=True)
            await channel.get_partial_message(table.message_id).edit(content=None, view=self.lobby_view(table))
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of table %s: %s", table.id, exc)

    async def mark_ended(self, table: Table, text: str) -> None:
        """|coro| Show on *table*'s message that it ended (*text*), without buttons, and close its
        invite card. Never raises.
        """
        await self.edit_invite(table)
        self.tokens.pop(table.id, None)  # (a lobby that ended never ran the loop that lets these go)
        try:
            channel = self.channel(table)
            await self.budget.acquire(urgent=True)
            await channel.get_partial_message(table.message_id).edit(
                content=None, view=self.ended_view(table, text), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not mark table %s as ended: %s", table.id, exc)

    def channel(self, table: Table) -> Any:
        """The table's thread (or channel) to post and edit in: from the gateway cache, else a partial
        messageable by its id. Never a request: sending and editing need no more, so a restart of
        many tables fetches no channel (``docs/tables.md``, "Restarts").
        """
        channel: Any = self.client.get_channel(table.thread_id)
        return channel or self.client.get_partial_messageable(table.thread_id, guild_id=table.guild_id)

    # ------------------------------------------------------------------ playing

    def table_view(self, table: Table, media: Sequence[Media] = ()) -> discord.ui.LayoutView:
        """The table message's layout for the current state: the public text (its header the UI's
        first line, the notice below it) and the public buttons, or, once the game is over, the
        final text with Rematch (none for a tournament match, ``docs/tournaments.md``).

        *media* are pictures uploaded with the same message, shown in the container's
        MediaGallery (the hook for moment pictures, ``docs/tables.md``, "Message layouts").
        """
        parts, accent = self.registry.public_parts(table), accent_of(table.kind)
        seats = with_avatars(self.client, table, parts.seats)
        if table.engine is not None and table.engine.is_over:
            return finished_view(table.id, text=parts.body, accent=accent, rematch=not table.settings.get("tournament"),
                                 media=media, header=parts.header, seats=seats)
        ui = self.registry.uis[table.kind]
        return table_view(table.id, ui.board_label, list(ui.public_buttons(table)), text=parts.body, accent=accent,
                          header=parts.header, media=media, seats=seats)

    def keep_public_token(self, table: Table, interaction: discord.Interaction) -> None:
        """Keep *interaction* as *table*'s :class:`PublicToken` when it was a click on the public
        message answered by updating it or deferring the update (its original response is then
        that message); any other answer leaves the table's token as it was.
        """
        message = interaction.message
        if (message is None or table.message_id is None or message.id != table.message_id
                or interaction.response.type not in UPDATES_ITS_MESSAGE):
            return
        self.tokens[table.id] = PublicToken(interaction, message.id)

    def public_token(self, table: Table) -> PublicToken | None:
        """*table*'s public token while it still edits the current public message (a margin before
        its 15 minutes run out, like a live board's), else ``None`` (and it is let go).
        """
        token = self.tokens.get(table.id)
        if not isinstance(token, PublicToken):
            return None
        if token.message_id != table.message_id or now_ms() - token.received_ms >= self.boards.token_s * 930:
            self.tokens.pop(table.id, None)
            return None
        return token

    def _busy_counts(self) -> tuple[int, int]:
        """Running tables that redraw through the REST budget and through a public token, counted
        at most twice a second (every redraw asks, and a thousand tables would make it quadratic).
        """
        stamp, rest, token = self._busy
        now = time.monotonic()
        if now - stamp >= 0.5:
            running = [t for t in self.registry.tables.values() if t.status == TableStatus.RUNNING]
            token = sum(1 for t in running if self.public_token(t) is not None)
            rest = len(running) - token
            self._busy = (now, rest, token)
        return rest, token

    def watch(self, table: Table) -> list[Coroutine[Any, Any, None]]:
        """The public message's redraw loop and the open boards' refresh loop of *table*."""
        return [self._redraw_loop(table), self.boards.loop(table)]

    async def _redraw_loop(self, table: Table) -> None:
        """Edit the public message at most once per interval, latest state wins.

        The interval is ``redraw_interval_ms``, stretched by the REST budget when many tables are
        busy (:meth:`RestBudget.redraw_interval`); each edit waits for its turn in the budget, and
        the text is drawn after that wait, so the latest state goes out and nothing is sent twice.
        """
        try:
            base = self.registry.config.redraw_interval_ms / 1000
            interval = base
            last = 0.0
            while True:
                await table.dirty.wait()
                via_budget, via_token = self._busy_counts()
                if self.public_token(table) is not None:
                    interval = self.token_budget.redraw_interval(base, via_token)
                else:
                    interval = self.budget.redraw_interval(base, via_budget)
                # A click's own answer goes out before the table message it changed (FOLLOW_S).
                await asyncio.sleep(max(last + interval - time.monotonic(), FOLLOW_S))
                table.dirty.clear()
                last = time.monotonic()
                if self.registry.closing:
                    return
                try:
                    final = await self._redraw(table)
                except (discord.HTTPException, RuntimeError):
                    log.warning("redraw of table %s failed", table.id, exc_info=True)
                    if table.status != TableStatus.RUNNING:  # the final standings must show: try again
                        table.dirty.set()
                        await asyncio.sleep(min(30.0, 2 * interval + 1))
                        continue
                    final = False
                # A game that ended while this edit was on its way is drawn once more (its change set
                # dirty again): the last edit must be the one with the final standings.
                if final or (table.status != TableStatus.RUNNING and not table.dirty.is_set()):
                    break
            await asyncio.sleep(FINISHED_TTL_S)
            if self.registry.tables.get(table.id) is table:
                self.registry.tables.pop(table.id, None)
            if table.message_id is not None and not table.settings.get("tournament"):
                with contextlib.suppress(discord.HTTPException):  # its Rematch no longer answers: say so
                    await self.budget.acquire()
                    parts = self.registry.public_parts(table)
                    await self.channel(table).get_partial_message(table.message_id).edit(
                        content=None, view=finished_view(table.id, text=parts.body, header=parts.header, expired=True,
                                                         accent=accent_of(table.kind),
                                                         seats=with_avatars(self.client, table, parts.seats)))
        finally:  # nothing edits this table's message any more
            self.tokens.pop(table.id, None)


    @staticmethod
    def _people_moved(table: Table, within_ms: float = 15_000) -> bool:
        """Whether a person (not a bot) moved at *table* in the last *within_ms* ms: its redraws go first."""
        now = now_ms()
        return any(not s.is_bot and now - table.last_move_ms.get(s.player_id, -within_ms) < within_ms
                   for s in table.seats)

    async def _redraw(self, table: Table) -> bool:
        """Edit (or post anew) the public message; returns whether what it drew was the table's end.

        The edit goes through the table's :class:`PublicToken` while it has one (paced by
        :attr:`token_budget`), else through the bot's REST budget; a token that is refused falls
        back to the budget at once (``docs/tables.md``, "Discord's limits").
        """
        channel = self.channel(table)
        urgent = self._people_moved(table) or table.status != TableStatus.RUNNING
        too_old = wall_ms() - table.message_posted_ms > self.registry.config.repost_after_minutes * 60_000
        token = None if too_old else self.public_token(table)
        await (self.token_budget if token is not None else self.budget).acquire(urgent=urgent)
        table.dirty.clear()  # what changed while waiting for the budget goes out with this edit
        final = table.status != TableStatus.RUNNING
        view = self.table_view(table)
        if token is not None:
            try:
                await token.edit(view=view)
                return final
            except discord.HTTPException as exc:  # the token ran out (50027), the message is gone (10008)
                log.info("table %s: its public token no longer edits the message (%s)", table.id, exc.code)
                if self.tokens.get(table.id) is token:
                    self.tokens.pop(table.id, None)
                await self.budget.acquire(urgent=urgent)
        if table.message_id is not None and not too_old:
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=None, view=view, allowed_mentions=discord.AllowedMentions.none())
                return final
            except discord.HTTPException as exc:
                # 30046: too many edits to a message older than an hour; 10008: the message was deleted.
                if exc.code not in (30046, 10008):
                    raise
                log.info("table %s: its message is %s; posting it anew", table.id,
                         "gone" if exc.code == 10008 else "too old to edit")
        await self.budget.acquire(urgent=True)
        message = await channel.send(view=view, allowed_mentions=discord.AllowedMentions.none())
        if table.message_id is not None:  # the old message keeps no buttons
            with contextlib.suppress(discord.HTTPException):
                await self.budget.acquire()
                await channel.get_partial_message(table.message_id).edit(
                    content=None, view=self.ended_view(table, "↓ The table goes on in the message below."))
        table.message_id, table.message_posted_ms = message.id, posted_ms(message.id)
        self.tokens.pop(table.id, None)  # it edits the old message
        await self.registry.storage.set_game_message(table.id, message.id)
        return final

    def notice(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> Notice | None:
        """The outbox row that posts *text* in the table's thread, pinging exactly the users *pings*
        (a name with a mention in *text* pings nobody); ``None`` for a table without a thread yet.
        """
        if table.thread_id is None:
            return None
        return Notice(TABLE_NOTICE, table.thread_id, fit_text(text), tuple(int(u) for u in pings),
                      guild_id=table.guild_id)

    async def say(self, table: Table, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Post a new message in the table's thread through the outbox (stored on its own, then
        posted in order and retried until Discord takes it: ``docs/design.md`` §3, "The outbox"); it
        pings exactly the users *pings*. Never raises (a notice that cannot be stored is logged).
        """
        notice = self.notice(table, text, pings=pings)
        if notice is None:
            return
        try:
            await self.registry.storage.outbox.enqueue(notice)
        except Exception:
            log.exception("could not store a notice of table %s", table.id)


    async def show_picture(self, table: Table, picture: Picture) -> None:
        """|coro| Post *picture* in the table's thread as :func:`picture_message` lays it out
        (``docs/art.md`` §7). Never raises (a refusal is logged).
        """
        try:
            channel = self.channel(table)
            layout, file = picture_message(picture)
            await self.budget.acquire(urgent=True)
            await channel.send(view=layout, file=file, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post a picture to table %s", table.id, exc_info=True)


def default_avatar_url(user_id: int) -> str:
    """The URL of Discord's default avatar for user snowflake *user_id* (as ``discord.User.default_avatar``
    gives it for a user without a discriminator): no request, for a user not in the cache.
    """
    return f"{discord.Asset.BASE}/embed/avatars/{(user_id >> 22) % len(discord.DefaultAvatar)}.png"


def avatar_url(client: discord.Client, seat: Seat | None, guild_id: int | None = None) -> str:
    """The avatar URL shown beside *seat*: its member's ``display_avatar`` (the server avatar, else the
    user's, else Discord's default), the bot user's own for a bot seat, the default avatar of the
    snowflake for a user not in the cache. From the cache only: never a request (it runs every redraw).
    """
    if seat is None or seat.user_id is None:  # a bot plays this seat: the bot's own face
        return client.user.display_avatar.url if client.user is not None else default_avatar_url(0)
    guild = client.get_guild(guild_id) if guild_id is not None else None
    user = (guild.get_member(seat.user_id) if guild is not None else None) or client.get_user(seat.user_id)
    return user.display_avatar.url if user is not None else default_avatar_url(seat.user_id)


def with_avatars(client: discord.Client, table: Table, seats: Sequence[SeatPanel]) -> tuple[SeatPanel, ...]:
    """*seats* of *table* with each seat's display name and avatar URL filled in (:func:`avatar_url`),
    for the layout's Sections (``docs/tables.md``, "Message layouts").
    """
    out = []
    for panel in seats:
        seat = table.seat_of_player(panel.player)
        out.append(replace(panel, name=panel.name or table.display_name(panel.player),
                           avatar=panel.avatar or avatar_url(client, seat, table.guild_id)))
    return tuple(out)


def picture_message(picture: Picture) -> tuple[discord.ui.LayoutView, discord.File]:
    """A picture as a Components V2 message: a Container (accent :data:`PICTURE_ACCENT`) holding a
    MediaGallery of ``attachment://<file>`` described by the picture's alt text and its caption as a
    TextDisplay, and the PNG to attach under that file name (``docs/art.md`` §7).
    """
    file = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(
        discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{picture.filename}", description=picture.alt)),
        discord.ui.TextDisplay(fit_text(f"**{picture.caption}**", 4000)),
        accent_colour=PICTURE_ACCENT))
    return layout, file
