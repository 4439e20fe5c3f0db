"""The table service: one path for lobbies, seats, bots, moves, races, redraws and restore.

Every game cog uses it (``docs/tables.md``). A move goes
through :meth:`TableService.on_move` and nowhere else: check who may act, send contested moves
through the race arbiter, apply to the engine, append to the action log (committed), answer the
player with a fresh board, and mark the public message for the coalescing redraw task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import REGISTRY, TURNS, Event, IllegalAction, game_module
from bot.tables.components import board_view, finished_view, lobby_view, table_view
from bot.tables.race import Claim, Outcome, RaceArbiter
from bot.tables.table import OpenBoard, Seat, Table, TableError
from bot.tables.ui import Click, GameUI

if TYPE_CHECKING:
    from bot.client import ParlorBot

__all__ = ["TableService"]

log = logging.getLogger("parlor.tables")


def _now_ms() -> float:
    return time.monotonic() * 1000


def _discord_ms(interaction: discord.Interaction) -> int:
    return int(interaction.created_at.timestamp() * 1000)


def _wall_ms() -> int:
    return int(time.time() * 1000)


def _posted_ms(message_id: int) -> int:
    """When Discord created message *message_id* (Unix ms), read from its snowflake."""
    return int(discord.utils.snowflake_time(message_id).timestamp() * 1000)


BOT_SPEEDS: dict[str, float] = {"relaxed": 2.0, "normal": 1.0, "fast": 0.6}
"""A table's ``bot_speed`` setting: how much longer (or shorter) than their own pace bots take to act."""


def bot_speed_factor(settings: dict[str, Any]) -> float:
    """The multiplier of bots' reaction times at a table with *settings* (``relaxed`` when unset).

    >>> bot_speed_factor({}), bot_speed_factor({"bot_speed": "fast"})
    (2.0, 0.6)
    """
    return BOT_SPEEDS.get(str(settings.get("bot_speed", "relaxed")), BOT_SPEEDS["relaxed"])


CONTENT_MAX = 2000
"""Discord's limit on a message's content, in characters."""


def fit_text(text: str, limit: int = CONTENT_MAX) -> str:
    r"""*text* within Discord's *limit* (characters), shortened by whole lines, never cut mid-word.

    Lines are dropped from the middle (the head says what the table is; the tail holds standings
    and what to do next) and replaced by one line saying how many were left out. A single line
    longer than the limit ends in an ellipsis at a word boundary.

    >>> fit_text("a\nb\nc", 100)
    'a\nb\nc'
    >>> fit_text("\n".join(f"line {i}" for i in range(10)), 40)
    'line 0\n… 8 lines left out …\nline 9'
    """
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    head, tail = lines[: len(lines) // 2], lines[len(lines) // 2:]
    while head or tail:
        if len(head) >= len(tail) and head:
            head.pop()
        elif tail:
            tail.pop(0)
        dropped = len(lines) - len(head) - len(tail)
        candidate = "\n".join([*head, f"… {dropped} lines left out …", *tail])
        if len(candidate) <= limit:
            return candidate
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


BOARD_TOKEN_S = 15 * 60
"""Seconds an interaction token lives (Discord's rule): an ephemeral board can be edited that long."""

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
    version: int = 0  # the table version a board shows


class TableService:
    """All tables of this process.

    Parameters
    ----------
    bot:
        The bot (its ``storage`` and ``config.tables`` are used).

    Attributes
    ----------
    bot_delay_scale:
        Multiplies bots' reaction times (tests use a small value to play fast).
    timer_scale:
        Multiplies turn-timer durations (tests use a small value).
    live_boards:
        Whether open private boards are refreshed as the table changes (``docs/tables.md``,
        "Live boards"); the stale-click benchmark turns it off to measure the difference.
    board_token_s:
        How long an interaction token lives, in seconds (Discord: 15 minutes; tests shorten it).
    """

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.tables: dict[int, Table] = {}
        self.uis: dict[str, GameUI] = {}
        self.engines: dict[str, tuple[Any, dict[str, Any]]] = {}
        self.bot_delay_scale = 1.0
        self.timer_scale = 1.0
        self.live_boards = True
        self.board_token_s: float = BOARD_TOKEN_S
        self.shards: tuple[int, set[int] | None] = (0, None)
        self.finish_hooks: list[Callable[[int], Awaitable[Any]]] = []
        """Called with a game's id once its result is stored (ratings register here)."""
        self._chores: set[asyncio.Task[Any]] = set()
        self._closing = False

    # ------------------------------------------------------------------ set-up

    def register_ui(self, ui: GameUI, *, engine: Any = None, bots: dict[str, Any] | None = None) -> None:
        """Make game *ui.kind* playable (called by its cog's ``cog_load``).

        Parameters
        ----------
        ui:
            The game's rendering.
        engine:
            The engine class; default ``bot.engine.REGISTRY[ui.kind]`` (tests pass a test-only game).
        bots:
            Bot name to class; default the game package's ``BOTS``.

        Raises
        ------
        KeyError
            No engine of that kind is registered.
        """
        if engine is None:
            engine = REGISTRY[ui.kind]
            bots = dict(getattr(game_module(ui.kind), "BOTS", {})) if bots is None else bots
        self.uis[ui.kind] = ui
        self.engines[ui.kind] = (engine, dict(bots or {}))

    def _engine_cls(self, kind: str) -> Any:
        return self.engines[kind][0]

    def _bots(self, kind: str) -> dict[str, Any]:
        return self.engines[kind][1]

    @property
    def _cfg(self) -> Any:
        return self.bot.config.tables

    # ------------------------------------------------------------------ lobby

    async def open(self, kind: str, interaction: discord.Interaction, options: dict[str, Any],
                   settings: dict[str, Any] | None = None) -> Table:
        """|coro|

        Open a table of *kind* for the user of *interaction* in a new thread of its channel (in
        the channel itself where threads are not allowed) and post the lobby. *options* are the
        engine's; *settings* the table's own (``race_window_ms``).

        Raises
        ------
        TableError
            Bad options, or the user already sits at a table in this channel.
        """
        engine_cls = self._engine_cls(kind)
        try:
            engine_cls.Options(**options)
        except (TypeError, ValueError) as exc:
            raise TableError(f"Those options don't work: {exc}") from None
        channel = interaction.channel
        if channel is None:
            raise TableError("Tables can only be opened in a server channel.")
        for t in self.tables.values():
            if t.channel_id == channel.id and t.status in ("lobby", "running") and t.seat_of_user(interaction.user.id):
                raise TableError(f"You already sit at table #{t.id} in this channel; leave it first.")
        seed = random.SystemRandom().randrange(2**31)
        settings = dict(settings or {})
        game_id = await self.bot.storage.create_game(kind, seed=seed, options=options, guild_id=interaction.guild_id,
                                                     channel_id=channel.id, host_id=interaction.user.id,
                                                     settings=settings)
        title = engine_cls.title or kind
        if not isinstance(channel, discord.abc.Messageable):
            raise TableError("Tables can only be opened in a text channel or thread.")
        thread: discord.abc.Messageable = channel
        if isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(name=f"{title} #{game_id}", type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=1440)
            except discord.HTTPException:
                log.info("threads not allowed in %s; table %s stays in the channel", channel.id, game_id)
        if thread is channel and self.table_in(channel.id) is not None:
            await self.bot.storage.update_game(game_id, status="cancelled")
            raise TableError("This channel allows no threads and already has a running table; "
                             "finish that one first, or open the table in a channel that allows threads.")
        table = Table(id=game_id, kind=kind, title=title, guild_id=interaction.guild_id, channel_id=channel.id,
                      thread_id=thread.id, host_id=interaction.user.id, options=options, seed=seed,  # type: ignore[attr-defined]
                      min_players=engine_cls.min_players, max_players=engine_cls.max_players, settings=settings)
        table.seats.append(Seat(f"u{interaction.user.id}", interaction.user.id, None, interaction.user.display_name))
        self.tables[game_id] = table
        await self.bot.storage.update_game(game_id, thread_id=table.thread_id)
        await self._save_seats(table)
        message = await thread.send(self.lobby_text(table), view=self._lobby_view(table))
        table.message_id, table.message_posted_ms = message.id, _posted_ms(message.id)
        await self.bot.storage.update_game(game_id, message_id=message.id)
        log.info("table %s opened: %s in guild %s by user %s", game_id, kind, interaction.guild_id,
                 interaction.user.id)
        self._track(table, self._expire_lobby(table), "expiry")
        return table

    def lobby_text(self, table: Table) -> str:
        """The lobby message: game, options, host and seats."""
        opts = ", ".join(f"{k}={v}" for k, v in table.options.items()) or "default options"
        seats = "\n".join(
            f"{i + 1}. {s.name}{' (bot)' if s.is_bot else ''}{' — host' if s.user_id == table.host_id else ''}"
            for i, s in enumerate(table.seats))
        status = {"lobby": "Waiting for players", "cancelled": "Cancelled"}.get(table.status, table.status)
        return (f"**{table.title}** — table #{table.id} · {status}\n{opts}\n"
                f"Seats ({len(table.seats)}/{table.max_players}, at least {table.min_players}):\n{seats}")

    def _is_host(self, table: Table, interaction: discord.Interaction) -> bool:
        """Whether the user of *interaction* runs *table*: its host, or a moderator of the server."""
        return interaction.user.id == table.host_id or self.is_moderator(interaction)

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

    async def on_table_button(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """|coro| Handle a lobby/board/leave/rematch button; every outcome answers the interaction.

        The decision is taken under the table lock; the answer is sent after releasing it, so a
        slow Discord call never holds up other players' clicks.
        """
        table = self.tables.get(table_id)
        if table is None:
            await self._refuse(interaction, "This table no longer exists.")
            return
        try:
            async with table.lock:
                if verb == "board":
                    reply = self._board_reply(interaction, table)
                elif verb == "howto":
                    reply = _Reply("send", fit_text(self.uis[table.kind].how_to_play(table)), ephemeral=True)
                elif verb == "rematch":
                    reply = await self._rematch(interaction, table)
                elif verb == "leave" and table.status == "running":
                    reply = await self._leave_running(interaction, table)
                elif table.status != "lobby":
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                else:
                    reply = await getattr(self, f"_lobby_{verb}")(interaction, table)
        except TableError as exc:
            reply = _Reply("refuse", str(exc))
        await self._send_reply(interaction, reply)
        self._remember_board(table, reply, interaction)
        if reply.table_message_of is not None:
            await self._adopt_message(interaction, reply.table_message_of)

    async def _send_reply(self, interaction: discord.Interaction, reply: _Reply) -> None:
        if reply.kind == "refuse":
            await self._refuse(interaction, reply.content)
        elif reply.kind == "edit":
            await interaction.response.edit_message(content=reply.content, view=reply.view)
        else:
            await interaction.response.send_message(reply.content, view=reply.view or discord.utils.MISSING,
                                                    ephemeral=reply.ephemeral)

    async def _leave_running(self, interaction: discord.Interaction, table: Table) -> _Reply:
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            raise TableError("You are not playing at this table.")
        if not await self._replace_with_bot(table, seat, "they left"):
            raise TableError("This game has no bot to take your seat; ask the host to end the table instead.")
        return _Reply("send", "You left the game; a bot plays your seat.")

    async def _pass_host(self, table: Table) -> str:
        """Hand the host role to the first seated person (no one left: moderators only); returns a notice."""
        humans = [s for s in table.seats if not s.is_bot]
        table.host_id = humans[0].user_id if humans and humans[0].user_id is not None else 0
        await self.bot.storage.update_game(table.id, host_id=table.host_id)
        return f" 👑 {humans[0].name} is now the host." if humans else " Only moderators run the table now."

    async def _lobby_join(self, interaction: discord.Interaction, table: Table) -> _Reply:
        if table.seat_of_user(interaction.user.id):
            raise TableError("You are already seated at this table.")
        if len(table.seats) >= table.max_players:
            raise TableError(f"The table is full ({table.max_players} seats).")
        for t in self.tables.values():
            if (t is not table and t.channel_id == table.channel_id and t.status in ("lobby", "running")
                    and t.seat_of_user(interaction.user.id)):
                raise TableError(f"You already sit at table #{t.id} in this channel.")
        table.seats.append(Seat(f"u{interaction.user.id}", interaction.user.id, None, interaction.user.display_name))
        return await self._lobby_changed(table)

    async def _lobby_leave(self, interaction: discord.Interaction, table: Table) -> _Reply:
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            raise TableError("You are not seated at this table.")
        table.seats.remove(seat)
        if interaction.user.id == table.host_id:
            humans = [s for s in table.seats if not s.is_bot]
            if not humans:
                await self._cancel(table)
                return _Reply("edit", self.lobby_text(table), None)
            table.host_id = humans[0].user_id  # type: ignore[assignment]
            await self.bot.storage.update_game(table.id, host_id=table.host_id)
        return await self._lobby_changed(table)

    async def _lobby_addbot(self, interaction: discord.Interaction, table: Table, name: str | None = None) -> _Reply:
        if not self._is_host(table, interaction):
            raise TableError("Only the host can add bots.")
        if len(table.seats) >= table.max_players:
            raise TableError(f"The table is full ({table.max_players} seats).")
        bots = self._bots(table.kind)
        if not bots:
            raise TableError("This game has no bots.")
        name = name or next(iter(bots))
        if name not in bots:
            raise TableError(f"This game has no bot {name!r}; pick one from the menu.")
        n = 1 + sum(1 for s in table.seats if s.is_bot)
        while table.seat_of_player(f"bot{n}"):
            n += 1
        level = self.strength(table.kind, name)
        table.seats.append(Seat(f"bot{n}", None, name, f"Bot {n} ({name if name == level else f'{name}, {level}'})"))
        return await self._lobby_changed(table)

    def strength(self, kind: str, name: str) -> str:
        """A bot's strength in words: the game's first bot is ``hard``, its last ``easy``, others ``normal``."""
        names = list(self._bots(kind))
        if len(names) < 2 or name == names[0]:
            return "hard" if len(names) > 1 else "normal"
        return "easy" if name == names[-1] else "normal"

    def _lobby_view(self, table: Table) -> discord.ui.View:
        bots = [(name, f"Add a bot: {name}" + ("" if name == self.strength(table.kind, name)
                                                else f" ({self.strength(table.kind, name)})"))
                for name in self._bots(table.kind)]
        return lobby_view(table.id, bots)

    async def on_bot_pick(self, interaction: discord.Interaction, table_id: int, name: str) -> None:
        """|coro| The host picked a bot in the lobby's menu: it takes a seat (answered like any lobby click)."""
        table = self.tables.get(table_id)
        if table is None:
            await self._refuse(interaction, "This table no longer exists.")
            return
        try:
            async with table.lock:
                if table.status != "lobby":
                    raise TableError("The lobby is closed: the game has started or was cancelled.")
                reply = await self._lobby_addbot(interaction, table, name)
        except TableError as exc:
            reply = _Reply("refuse", str(exc))
        await self._send_reply(interaction, reply)

    async def _lobby_cancel(self, interaction: discord.Interaction, table: Table) -> _Reply:
        if not self._is_host(table, interaction):
            raise TableError("Only the host can cancel the table.")
        await self._cancel(table)
        return _Reply("edit", self.lobby_text(table), None)

    async def _lobby_start(self, interaction: discord.Interaction, table: Table) -> _Reply:
        if not self._is_host(table, interaction):
            raise TableError("Only the host can start the game.")
        if len(table.seats) < table.min_players:
            raise TableError(f"{table.title} needs at least {table.min_players} players; "
                             f"{len(table.seats)} seated. Add a bot or wait for players.")
        await self._save_seats(table)
        await self.bot.storage.update_game(table.id, status="running")
        self._start_engine(table)
        self._start_tasks(table)
        return _Reply("edit", self.public_text(table), self._table_view(table))

    async def _lobby_changed(self, table: Table) -> _Reply:
        await self._save_seats(table)
        table.version += 1
        return _Reply("edit", self.lobby_text(table), self._lobby_view(table))

    async def _cancel(self, table: Table, why: str = "The table was cancelled.") -> None:
        table.status = "cancelled"
        await self.bot.storage.update_game(table.id, status="cancelled")
        self._stop_tasks(table)
        self._settle_claims(table, why)
        self.tables.pop(table.id, None)

    @staticmethod
    def _settle_claims(table: Table, why: str) -> None:
        """Answer every claim still waiting in a race window of *table* with a refusal (*why*)."""
        for claim in table.arbiter.drain() if table.arbiter else []:
            if not claim.payload.done():
                claim.payload.set_result(Outcome(False, why))

    async def _save_seats(self, table: Table) -> None:
        await self.bot.storage.set_seats(table.id, [(s.player_id, s.user_id, s.bot_name, s.name) for s in table.seats])

    def table_in(self, channel_id: int | None) -> Table | None:
        """The live table whose thread (or channel, when it has no thread) is *channel_id*."""
        return next((t for t in self.tables.values() if t.thread_id == channel_id and t.status in ("lobby", "running")),
                    None)

    async def kick(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro|

        Remove user *user_id* from the table of this thread (host or Manage Threads only). In the
        lobby the seat is freed; in a running game a bot takes it over. Returns what happened.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        table = self._moderated_table(interaction)
        async with table.lock:
            seat = table.seat_of_user(user_id)
            if seat is None:
                raise TableError("That user is not seated at this table.")
            if user_id == table.host_id:
                raise TableError("The host cannot be kicked; hand the host role to someone else first.")
            if table.status == "lobby":
                table.seats.remove(seat)
                await self._save_seats(table)
                table.version += 1
                answer = f"{seat.name} was removed from table #{table.id}."
            elif await self._replace_with_bot(table, seat, "removed by the host"):
                return f"{seat.name} was removed from table #{table.id}; a bot plays their seat."
            else:
                raise TableError("This game has no bot to take that seat; end the table instead.")
        self._background(self._edit_lobby(table))
        return answer

    async def hand_host(self, interaction: discord.Interaction, user_id: int) -> str:
        """|coro|

        Make seated user *user_id* the host of the table of this thread.

        Raises
        ------
        TableError
            Not in a table's thread, not allowed, or that user is not seated.
        """
        table = self._moderated_table(interaction)
        async with table.lock:
            seat = table.seat_of_user(user_id)
            if seat is None:
                raise TableError("Only a seated player can become the host.")
            table.host_id = user_id
            await self.bot.storage.update_game(table.id, host_id=user_id)
        if table.status == "lobby":
            self._background(self._edit_lobby(table))
        return f"{seat.name} is now the host of table #{table.id}."

    def _moderated_table(self, interaction: discord.Interaction) -> Table:
        table = self.table_in(interaction.channel_id)
        if table is None:
            raise TableError("Use this inside the thread of a live table.")
        if not self._is_host(table, interaction):
            raise TableError("Only the host or a member with Manage Threads can do that.")
        return table

    async def _edit_lobby(self, table: Table) -> None:
        if table.message_id is None or table.status != "lobby":
            return
        try:
            channel = await self._channel(table)
            await channel.get_partial_message(table.message_id).edit(
                content=self.lobby_text(table), view=self._lobby_view(table))
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of table %s: %s", table.id, exc)

    async def end(self, interaction: discord.Interaction, table_id: int) -> Table:
        """|coro| End live table *table_id* of the interaction's server at once (``/table end``).

        Allowed to that table's host and to moderators (:meth:`is_moderator`); the table is
        cancelled, race claims still waiting are answered, and its message says who ended it.

        Raises
        ------
        TableError
            No live table with that number in this server, or the user may not end it.
        """
        table = self.tables.get(table_id)
        if table is None or table.guild_id != interaction.guild_id or table.status not in ("lobby", "running"):
            raise TableError(f"There is no live table #{table_id} in this server.")
        if not self._is_host(table, interaction):
            raise TableError(f"Only the host of table #{table_id} or a moderator (Manage Threads, or a moderator "
                             "role) can end it.")
        async with table.lock:
            was_running = table.engine is not None
            await self._cancel(table, "The table was ended.")
            text = self.public_text(table) if was_running else self.lobby_text(table)
        log.info("table %s ended by user %s", table.id, interaction.user.id)
        if table.message_id is not None:
            who = getattr(interaction.user, "display_name", None) or str(interaction.user)
            self._background(self._mark_ended(table, fit_text(f"⛔ This table was ended by {who}.\n{text}")))
        return table

    async def _mark_ended(self, table: Table, text: str) -> None:
        try:
            channel = await self._channel(table)
            await channel.get_partial_message(table.message_id).edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not mark table %s as ended: %s", table.id, exc)

    async def _channel(self, table: Table) -> Any:
        """The table's thread (or channel): from the cache, else fetched."""
        return self.bot.get_channel(table.thread_id) or await self.bot.fetch_channel(table.thread_id)

    def _background(self, coro: Any) -> None:
        """Run a Discord call after the interaction is answered (kept referenced until done)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    # ------------------------------------------------------------------ the game

    def _start_engine(self, table: Table, actions: list[Any] | None = None) -> None:
        engine_cls = self._engine_cls(table.kind)
        players = [s.player_id for s in table.seats]
        log_ = {"kind": engine_cls.kind, "seed": table.seed, "options": table.options, "players": players,
                "actions": actions or []}
        table.engine = engine_cls.replay(log_)
        table.status = "running"
        table.arbiter = RaceArbiter(table.settings.get("race_window_ms", self._cfg.race_window_ms),
                                    self._cfg.race_tie_ms, random.Random(table.seed))
        table.last_event_ms["start"] = _now_ms()
        table.timers.observe(table.engine.timed_rules(), _now_ms())
        if not actions:
            self._deliver(table, table.engine.setup_events)
        bots = self._bots(table.kind)
        table.bots = {s.player_id: bots[s.bot_name](s.player_id, random.Random(f"{table.seed}:{s.player_id}"))
                      for s in table.seats if s.is_bot and s.bot_name in bots}
        table.bump()

    def _table_view(self, table: Table) -> discord.ui.View:
        ui = self.uis[table.kind]
        return table_view(table.id, ui.board_label, ui.public_buttons(table))

    def public_text(self, table: Table) -> str:
        """The public table message for the current state (≤ 2000 characters)."""
        ui = self.uis[table.kind]
        text = ui.public_text(table)
        if table.engine is not None and table.engine.is_over:
            text = f"{text}\n\n{ui.result_text(table)}"
        if table.notice:
            text = f"{table.notice}\n{text}"
        return fit_text(text)

    def board(self, table: Table, player: str, note: str = "",
              selection: str | None = None) -> tuple[str, discord.ui.View | None]:
        """The private board of *player* (text and view), with an optional *note* on top."""
        ui = self.uis[table.kind]
        assert table.engine is not None
        if table.engine.is_over:
            return (f"{note}\nThe game is over.".strip(), None)
        notes = table.private_notes.get(player, [])[-3:]
        board = ui.board(table, player, selection)
        text = fit_text("\n".join(x for x in [note, *notes, board.text] if x))
        return text, (board_view(table.id, table.version, board.buttons) if board.buttons else None)

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
        text, view = self.board(table, seat.player_id)
        return _Reply("send", text, view, ephemeral=True, board_of=seat.player_id, version=table.version)

    def _remember_board(self, table: Table, reply: _Reply, interaction: discord.Interaction,
                        selection: str | None = None, note: str = "") -> None:
        """Keep *interaction* as the token that edits *reply*'s board, so it is refreshed as the table changes."""
        if reply.board_of is None or not self.live_boards or table.status != "running":
            return
        now = _now_ms()
        table.boards[reply.board_of] = OpenBoard(interaction, now, reply.version, selection, note, now)

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
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.boards_dirty.wait(), timeout=max(0.05, self.board_token_s / 30))
            wait = last + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            table.boards_dirty.clear()
            last = time.monotonic()
            if self._closing:
                return
            await asyncio.gather(*(self._refresh_board(table, player, board)
                                   for player, board in list(table.boards.items())))
            if table.status != "running":
                table.boards.clear()
                return

    async def _refresh_board(self, table: Table, player: str, board: OpenBoard) -> None:
        """Edit one open board to the table's current state (or tell its owner it stops updating)."""
        age_s = (_now_ms() - board.opened_ms) / 1000
        expiring, last = age_s >= self.board_token_s * 0.8, age_s >= self.board_token_s * 0.93
        if board.version == table.version and not last and (board.warned or not expiring):
            return
        seat = table.seat_of_player(player)
        if seat is None or seat.is_bot or table.engine is None:
            table.boards.pop(player, None)
            return
        note = board.note if _now_ms() - board.note_ms < BOARD_NOTE_S * 1000 else ""
        if last:
            note = ("⌛ This board no longer updates by itself: press **Open my board** (or `/table board`) "
                    "for one that does.")
        elif expiring:
            note = "\n".join(x for x in [note, "⌛ This board stops updating in a few minutes: press **Open my "
                                             "board** for a fresh one."] if x)
        version = table.version
        text, view = self.board(table, player, note, board.selection)
        try:
            await board.interaction.edit_original_response(content=text, view=view)
        except discord.HTTPException as exc:  # dismissed (10008) or the token ran out (50027): forget it
            log.info("table %s: the board of %s can no longer be edited (%s)", table.id, player, exc.code)
            if table.boards.get(player) is board:
                table.boards.pop(player, None)
            return
        board.version, board.warned = version, expiring
        if last and table.boards.get(player) is board:
            table.boards.pop(player, None)
        if board.version != table.version:
            table.boards_dirty.set()

    async def on_move(self, interaction: discord.Interaction, table_id: int, version: int, token: str) -> None:
        """|coro| A button on a private board: the one path every human move takes.

        The answer is the player's redrawn board, which then stays live (:meth:`_board_loop`).
        """
        table = self.tables.get(table_id)
        if table is None or table.engine is None:
            await self._refuse(interaction, "This table is not running any more.")
            return
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            await self._refuse(interaction, "You are not playing at this table.")
            return
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
                    if click.action is None:
                        note, selection = click.note, click.selection
                    elif table.engine.contested_resource(player, click.action) is None:
                        table.timeouts.pop(player, None)
                        outcome = await self._apply(table, player, click.action, _discord_ms(interaction))
                        note = self._outcome_note(table, outcome, click.note)
            if outcome is not None or click is None or click.action is None:
                text, view = self.board(table, player, note, selection)
        if click is not None and click.action is not None and outcome is None:  # contested: the race window
            table.timeouts.pop(player, None)
            outcome = await self.submit(table, player, click.action, _discord_ms(interaction), interaction=interaction)
            note = self._outcome_note(table, outcome, click.note)
            text, view = self.board(table, player, note, selection)
        shown = table.version
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=view)
            else:
                await interaction.response.edit_message(content=text, view=view)
        except discord.HTTPException as exc:
            if outcome is None or not outcome.accepted:
                raise
            # Stored is done: never invite a second card with "try again" (docs/tables.md, Robustness).
            log.warning("table %s: a stored move's answer failed (%s); telling the player it was played",
                        table.id, exc)
            from bot.client import answer_error

            await answer_error(interaction, "✅ Your move was played. Discord was slow to show it: press "
                                            "**Open my board** (or `/table board`) for a fresh board.")
            return
        self._remember_board(table, _Reply("edit", board_of=player, version=shown), interaction, selection, note)

    def _outcome_note(self, table: Table, outcome: Outcome, note: str = "") -> str:
        if outcome.accepted:
            lines = [note] if note else []
            for loser, margin in outcome.beat:
                lines.append(f"⚡ You got there first — ahead of {table.display_name(loser)} by {margin} ms.")
            return "\n".join(lines)
        text = f"Refused: {outcome.reason}"
        if outcome.beaten_by:
            text += f" — {table.display_name(outcome.beaten_by)} got there first by {outcome.margin_ms} ms."
        return text

    async def on_public(self, interaction: discord.Interaction, table_id: int, token: str) -> None:
        """|coro| A game's own button on the public table message (Ready, End hand, …)."""
        table = self.tables.get(table_id)
        if table is None or table.engine is None or table.status != "running":
            await self._refuse(interaction, "This table is not running any more.")
            return
        seat = table.seat_of_user(interaction.user.id)
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
            await interaction.response.defer()  # the table message itself shows the change
        else:
            await self._refuse(interaction, f"Refused: {outcome.reason}")

    async def submit(self, table: Table, player: str, action: dict[str, Any], discord_ts_ms: int,
                     interaction: discord.Interaction | None = None) -> Outcome:
        """|coro|

        Submit one move for *player* (a human's click or a bot's), through the race arbiter when
        it is contested. Returns its :class:`~bot.tables.race.Outcome` once applied or refused.
        """
        assert table.engine is not None and table.arbiter is not None
        resource = table.engine.contested_resource(player, action)
        if resource is None:
            async with table.lock:
                return await self._apply(table, player, action, discord_ts_ms)
        if interaction is not None:
            await interaction.response.defer()
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        opened = table.arbiter.submit(Claim(resource, player, action, discord_ts_ms, future), _now_ms())
        if opened:
            self._track(table, self._close_race_after(table, resource, table.arbiter.window_ms / 1000), "race")
        return await future

    async def _close_race_after(self, table: Table, resource: str, delay_s: float) -> None:
        await asyncio.sleep(delay_s)
        await self._close_race(table, resource)

    async def _close_race(self, table: Table, resource: str) -> None:
        assert table.arbiter is not None
        claims = table.arbiter.close(resource)
        winner: Claim | None = None
        winner_outcome = Outcome(False)
        async with table.lock:
            for claim in claims:
                try:
                    outcome = await self._apply(table, claim.player, claim.action, claim.discord_ts_ms)
                except Exception as exc:  # never leave a claimant waiting
                    log.exception("race on %s at table %s failed", resource, table.id)
                    if not claim.payload.done():
                        claim.payload.set_exception(exc)
                    continue
                if outcome.accepted:
                    if winner is None:
                        winner, winner_outcome = claim, outcome
                elif winner is not None:
                    outcome.beaten_by = winner.player
                    outcome.margin_ms = claim.discord_ts_ms - winner.discord_ts_ms
                    winner_outcome.beat.append((claim.player, outcome.margin_ms))
                if not claim.payload.done():
                    claim.payload.set_result(outcome)

    async def _apply(self, table: Table, player: str, action: dict[str, Any], discord_ts_ms: int | None) -> Outcome:
        """Apply, log (committed) and announce one move; the table lock is held."""
        engine = table.engine
        assert engine is not None
        if table.status != "running":
            return Outcome(False, "The game is over." if engine.is_over else "The table is not running.")
        wait = table.timers.wait_for(str(action.get("type")), _now_ms())
        if wait is not None:  # a timed rule of the game holds this action back (docs/tables.md)
            return Outcome(False, wait.reason())
        try:
            events = engine.apply(player, action)
        except IllegalAction as exc:
            return Outcome(False, str(exc))
        try:
            await self.bot.storage.append_action(table.id, engine.action_count, player, action,
                                                 discord_ts_ms=discord_ts_ms)
        except Exception:
            # Not committed, so it did not happen: rebuild the game without it.
            log.exception("could not store a move at table %s; it is undone", table.id)
            undo = engine.log()
            undo["actions"].pop()
            table.engine = type(engine).replay(undo)
            return Outcome(False, "That move could not be saved, so it did not happen. Please try again.")
        self._deliver(table, events)
        table.last_move_ms[player] = _now_ms()
        ui = self.uis[table.kind]
        for event in events:
            if event.audience is None and event.type in ui.notice_events and (line := ui.notice(table, event)):
                self._track(table, self._say(table, line), "notice")
        table.timers.observe(engine.timed_rules(), _now_ms())
        table.bump()
        if engine.is_over:
            await self._finish(table)
        return Outcome(True, events=events)

    async def _finish(self, table: Table) -> None:
        table.status = "finished"
        result = table.engine.result() if table.engine else None
        await self.bot.storage.save_result(table.id, result.to_json() if result else {})
        log.info("table %s finished: %s in guild %s", table.id, table.kind, table.guild_id)
        for hook in self.finish_hooks:
            try:
                await hook(table.id)
            except Exception:  # a statistic must never take a finished game down
                log.exception("after-game hook %r failed for table %s", hook, table.id)

    def _deliver(self, table: Table, events: list[Event]) -> None:
        now = _now_ms()
        for event in events:
            table.last_event_ms[event.type] = now
            if event.audience is None:
                continue
            for player in event.audience:
                note = self.uis[table.kind].private_note(table, player, event)
                if note:
                    notes = table.private_notes.setdefault(player, [])
                    notes.append(note[:300])
                    del notes[:-5]
        for player, bot in table.bots.items():
            visible = [e for e in events if e.visible_to(player)]
            if visible:
                bot.observe(visible)

    # ------------------------------------------------------------------ tasks: bots and redraws

    def _start_tasks(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        table.tasks.append(loop.create_task(self._redraw_loop(table), name=f"table-{table.id}-redraw"))
        table.tasks.append(loop.create_task(self._board_loop(table), name=f"table-{table.id}-boards"))
        for player in table.bots:
            table.tasks.append(loop.create_task(self._bot_loop(table, player), name=f"table-{table.id}-{player}"))
        if self._engine_cls(table.kind).play_mode == TURNS:
            table.tasks.append(loop.create_task(self._timer_loop(table), name=f"table-{table.id}-timer"))
        else:
            table.tasks.append(loop.create_task(self._idle_loop(table), name=f"table-{table.id}-idle"))
        table.dirty.set()

    async def _idle_loop(self, table: Table) -> None:
        """Real-time games: warn an idle person, then seat a bot; make the not-ready ready between hands.

        Durations come from ``[tables]`` (``idle_seconds``, ``idle_warning_seconds``,
        ``ready_timeout_seconds``, seconds) times :attr:`timer_scale` (``docs/tables.md``).
        """
        cfg = self._cfg
        scale = self.timer_scale
        warned: set[str] = set()
        between_since: float | None = None
        while table.status == "running" and table.engine is not None:
            await asyncio.sleep(max(0.02, min(1.0, cfg.idle_warning_seconds * scale / 3 or 1.0)))
            engine, now = table.engine, _now_ms()
            humans = [s for s in table.seats if not s.is_bot]
            waiting_ready = [s for s in humans if engine.timeout_action(s.player_id) == {"type": "ready"}]
            if waiting_ready:
                for seat in humans:  # between hands nobody idles; the next hand starts everyone afresh
                    table.last_move_ms[seat.player_id] = now
                between_since = between_since or now
                if now - between_since >= cfg.ready_timeout_seconds * 1000 * scale:
                    for seat in waiting_ready:
                        await self.submit(table, seat.player_id, {"type": "ready"}, _wall_ms())
                    between_since = None
                continue
            between_since = None
            for seat in humans:
                if not [a for a in engine.legal_actions(seat.player_id) if a["type"] not in engine.table_actions]:
                    table.last_move_ms[seat.player_id] = now  # nothing to do is not idling
                    continue
                idle = now - table.last_move_ms.setdefault(seat.player_id, now)
                if idle >= cfg.idle_seconds * 1000 * scale:
                    warned.discard(seat.player_id)
                    async with table.lock:
                        if table.status == "running" and not seat.is_bot:
                            await self._replace_with_bot(table, seat, "idle")
                elif (idle >= (cfg.idle_seconds - cfg.idle_warning_seconds) * 1000 * scale
                      and seat.player_id not in warned and cfg.idle_warning_seconds > 0):
                    warned.add(seat.player_id)
                    self._track(table, self._say(table, f"<@{seat.user_id}> ⏰ no move for a while: a bot takes "
                                                        f"your seat in {cfg.idle_warning_seconds} s.", ping=True),
                                "idle-warning")

    async def _timer_loop(self, table: Table) -> None:
        """Turn timers: warn, then take the game's timeout action, then after N timeouts seat a bot.

        Guarded by the state version: any change restarts the timer, so a stale timer never fires
        on a new turn. Durations come from ``[tables]`` (seconds) times :attr:`timer_scale`.
        """
        cfg = self._cfg
        while table.status == "running" and table.engine is not None:
            changed, version = table.changed, table.version
            engine = table.engine
            waiting = [s for s in table.seats if not s.is_bot and engine.timeout_action(s.player_id) is not None]
            if not waiting:
                await changed.wait()
                continue
            phases = [(cfg.turn_timeout_seconds - cfg.turn_warning_seconds, True), (cfg.turn_warning_seconds, False)]
            moved = False
            for seconds, warn_after in phases:
                try:
                    await asyncio.wait_for(changed.wait(), timeout=max(0.0, seconds * self.timer_scale))
                    moved = True
                    break
                except TimeoutError:
                    if warn_after and cfg.turn_warning_seconds > 0:
                        await self._say(table, " ".join(f"<@{s.user_id}>" for s in waiting)
                                        + f" ⏰ {cfg.turn_warning_seconds} s left before the table moves for you.",
                                        ping=True)
            if moved:
                continue
            for seat in waiting:
                if table.version != version or table.status != "running":
                    break
                action = engine.timeout_action(seat.player_id)
                if action is None:
                    continue
                outcome = await self.submit(table, seat.player_id, action, int(time.time() * 1000))
                if outcome.accepted:
                    table.timeouts[seat.player_id] = table.timeouts.get(seat.player_id, 0) + 1
                    if table.timeouts[seat.player_id] >= cfg.timeouts_before_bot:
                        await self._replace_with_bot(table, seat, "timed out too often")

    async def _replace_with_bot(self, table: Table, seat: Seat, why: str) -> bool:
        """Hand *seat* to the game's default bot (the player id stays, so the game goes on).

        Returns ``False`` when the game has no bots (nothing changes). The notice is posted by a
        task of its own, so no caller holding the table lock waits on Discord.
        """
        bots = self._bots(table.kind)
        if not bots or seat.is_bot:
            return False
        name = next(iter(bots))
        who = seat.name
        was_host = seat.user_id == table.host_id
        seat.bot_name, seat.user_id, seat.name = name, None, f"{who} (bot)"
        host_note = await self._pass_host(table) if was_host else ""  # the host left or timed out
        await self._save_seats(table)
        bot = bots[name](seat.player_id, random.Random(f"{table.seed}:{seat.player_id}:replacement"))
        table.bots[seat.player_id] = bot
        self._track(table, self._bot_loop(table, seat.player_id), seat.player_id)
        table.notice = f"🤖 A bot took over {who}'s seat ({why}).{host_note}"
        table.dirty.set()
        self._track(table, self._say(table, table.notice), "notice")
        if table.status == "running" and not any(not s.is_bot for s in table.seats):
            self._background(self._abandon(table))
        return True

    async def _abandon(self, table: Table) -> None:
        """A running table with no person left ends itself (``docs/tables.md``)."""
        async with table.lock:
            if table.status != "running" or any(not s.is_bot for s in table.seats):
                return
            await self._cancel(table, "The table ended: no players were left.")
            text = self.public_text(table)
        log.info("table %s ended: no players left", table.id)
        if table.message_id is not None:
            await self._mark_ended(table, fit_text(f"⛔ This table ended itself: no players were left.\n{text}"))

    async def _expire_lobby(self, table: Table) -> None:
        """Close a lobby that never started after ``lobby_expiry_minutes`` (``docs/tables.md``)."""
        await asyncio.sleep(self._cfg.lobby_expiry_minutes * 60 * self.timer_scale)
        current = asyncio.current_task()
        if current in table.tasks:  # cancelling the table's tasks below must not cancel this one
            table.tasks.remove(current)
        async with table.lock:
            if table.status != "lobby" or self.tables.get(table.id) is not table:
                return
            await self._cancel(table, "The lobby expired.")
        log.info("table %s: lobby expired", table.id)
        if table.message_id is not None:
            await self._mark_ended(table, fit_text(f"⌛ This lobby expired: nobody started it within "
                                                   f"{self._cfg.lobby_expiry_minutes} minutes.\n"
                                                   f"{self.lobby_text(table)}"))

    def _track(self, table: Table, coro: Any, what: str) -> None:
        """Run *coro* as one of the table's tasks (cancelled with the table)."""
        table.tasks[:] = [t for t in table.tasks if not t.done()]
        table.tasks.append(asyncio.get_running_loop().create_task(coro, name=f"table-{table.id}-{what}"))

    async def _say(self, table: Table, text: str, *, ping: bool = False) -> None:
        """Post a new message in the table's thread; it mentions (pings) users only with *ping*."""
        try:
            channel = await self._channel(table)
            mentions = discord.AllowedMentions(users=True, everyone=False, roles=False) if ping \
                else discord.AllowedMentions.none()
            await channel.send(fit_text(text), allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("could not post to table %s", table.id, exc_info=True)

    def _stop_tasks(self, table: Table) -> None:
        for task in table.tasks:
            task.cancel()
        table.tasks.clear()

    async def _bot_loop(self, table: Table, player: str) -> None:
        bot = table.bots[player]
        while table.status == "running" and table.engine is not None:
            changed = table.changed
            try:
                legal = [a for a in table.engine.legal_actions(player) if a["type"] not in table.engine.table_actions]
                legal = self.uis[table.kind].bot_actions(table, player, legal)
                choice = bot.choose(table.engine.view(player), legal) if legal else None
                if choice is None:
                    await changed.wait()
                    continue
                await asyncio.sleep(bot.delay_ms() * bot_speed_factor(table.settings) * self.bot_delay_scale / 1000)
                if table.status != "running":
                    return
                await self.submit(table, player, choice, _wall_ms())
            except Exception:  # a bot must never take the table down, nor stop for good
                log.exception("bot %s at table %s failed", player, table.id)
                await asyncio.sleep(1)

    async def _redraw_loop(self, table: Table) -> None:
        """Edit the public message at most once per ``redraw_interval_ms``, latest state wins."""
        interval = self._cfg.redraw_interval_ms / 1000
        last = 0.0
        while True:
            await table.dirty.wait()
            wait = last + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            table.dirty.clear()
            last = time.monotonic()
            if self._closing:
                return
            try:
                await self._redraw(table)
            except (discord.HTTPException, RuntimeError):
                log.warning("redraw of table %s failed", table.id, exc_info=True)
                if table.status != "running":  # the final standings must show: try again
                    table.dirty.set()
                    await asyncio.sleep(min(30.0, 2 * interval + 1))
                    continue
            if table.status != "running":
                break
        await asyncio.sleep(FINISHED_TTL_S)
        if self.tables.get(table.id) is table:
            self.tables.pop(table.id, None)

    async def _redraw(self, table: Table) -> None:
        channel = await self._channel(table)
        finished = table.engine is not None and table.engine.is_over
        view = finished_view(table.id) if finished else self._table_view(table)
        text = self.public_text(table)
        too_old = _wall_ms() - table.message_posted_ms > self._cfg.repost_after_minutes * 60_000
        if table.message_id is not None and not too_old:
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
                return
            except discord.HTTPException as exc:
                # 30046: too many edits to a message older than an hour; 10008: the message was deleted.
                if exc.code not in (30046, 10008):
                    raise
                log.info("table %s: its message is %s; posting it anew", table.id,
                         "gone" if exc.code == 10008 else "too old to edit")
        message = await channel.send(text, view=view,
                                     allowed_mentions=discord.AllowedMentions.none())
        if table.message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(table.message_id).edit(view=None)
        table.message_id, table.message_posted_ms = message.id, _posted_ms(message.id)
        await self.bot.storage.update_game(table.id, message_id=message.id)

    # ------------------------------------------------------------------ rematch, restore, shutdown

    async def _rematch(self, interaction: discord.Interaction, table: Table) -> _Reply:
        if table.status != "finished":
            raise TableError("The game is still running.")
        if self.tables.get(table.id) is not table or table.rematched:
            raise TableError("A rematch of this table has already started.")
        if not table.seat_of_user(interaction.user.id) and not self._is_host(table, interaction):
            raise TableError("Only the players of this table can start a rematch.")
        seed = random.SystemRandom().randrange(2**31)
        game_id = await self.bot.storage.create_game(table.kind, seed=seed, options=table.options,
                                                     guild_id=table.guild_id, channel_id=table.channel_id,
                                                     thread_id=table.thread_id, host_id=interaction.user.id,
                                                     settings=table.settings)
        new = Table(id=game_id, kind=table.kind, title=table.title, guild_id=table.guild_id,
                    channel_id=table.channel_id, thread_id=table.thread_id, host_id=interaction.user.id,
                    options=table.options, seed=seed, min_players=table.min_players, max_players=table.max_players,
                    settings=dict(table.settings),
                    seats=[Seat(s.player_id, s.user_id, s.bot_name, s.name) for s in table.seats])
        table.rematched = True
        self.tables.pop(table.id, None)
        self.tables[game_id] = new
        await self._save_seats(new)
        await self.bot.storage.update_game(game_id, status="running")
        self._start_engine(new)
        return _Reply("send", self.public_text(new), self._table_view(new), ephemeral=False, table_message_of=new)

    async def _adopt_message(self, interaction: discord.Interaction, new: Table) -> None:
        """The answer just sent is *new*'s public message: remember it and start the table's tasks."""
        message = await interaction.original_response()
        new.message_id, new.message_posted_ms = message.id, _posted_ms(message.id)
        await self.bot.storage.update_game(new.id, message_id=message.id)
        self._start_tasks(new)

    async def restore(self) -> int:
        """|coro|

        Rebuild every unfinished table of a registered game from storage, replaying running games'
        action logs, re-arming their tasks and posting a "restored" notice. Returns how many.
        """
        restored = 0
        for row in await self.bot.storage.games_with_status("lobby", "running"):
            if row.kind not in self.uis or row.id in self.tables or row.thread_id is None:
                continue
            if not self._on_this_shard(row.guild_id):
                continue
            engine_cls = self._engine_cls(row.kind)
            seats = [Seat(s.player_id, s.user_id, s.bot_name,
                          s.name or (f"Bot ({s.bot_name})" if s.bot_name else f"<@{s.user_id}>"))
                     for s in await self.bot.storage.seats(row.id)]
            table = Table(id=row.id, kind=row.kind, title=engine_cls.title or row.kind, guild_id=row.guild_id,
                          channel_id=row.channel_id or row.thread_id, thread_id=row.thread_id,
                          host_id=row.host_id or 0, options=row.options, seed=row.seed,
                          min_players=engine_cls.min_players, max_players=engine_cls.max_players,
                          seats=seats, message_id=row.message_id, settings=row.settings,
                          message_posted_ms=_posted_ms(row.message_id) if row.message_id else 0)
            self.tables[row.id] = table
            if row.status == "running":
                actions = [[a.player_id, a.action] for a in await self.bot.storage.actions(row.id)]
                try:
                    self._start_engine(table, actions)
                except (IllegalAction, ValueError):
                    log.exception("table %s could not be replayed; it is cancelled", row.id)
                    await self._cancel(table)
                    continue
                table.notice = "♻️ Restored after a restart — every accepted move is in place."
                table.last_move_ms = {s.player_id: _now_ms() for s in table.seats}
                if table.engine is not None and table.engine.is_over:  # it ended just before the stop
                    await self._finish(table)
                self._start_tasks(table)
            else:
                self._track(table, self._expire_lobby(table), "expiry")
            restored += 1
        return restored

    async def shutdown(self) -> None:
        """|coro| Stop every table's tasks and wait for them (the state is already in storage).

        Claims still waiting in a race window are refused, so no click is left unanswered.
        """
        self._closing = True
        tasks = [task for table in self.tables.values() for task in table.tasks]
        for table in self.tables.values():
            self._stop_tasks(table)
            self._settle_claims(table, "The table is restarting; try again in a moment.")
        await asyncio.gather(*tasks, *self._chores, return_exceptions=True)

    def _on_this_shard(self, guild_id: int | None) -> bool:
        """Whether a guild's tables belong to this process (Discord's ``(guild_id >> 22) % shard_count``)."""
        count, mine = self.shards
        if not count or mine is None or guild_id is None:
            return True
        return (guild_id >> 22) % count in mine

    async def _refuse(self, interaction: discord.Interaction, message: str) -> None:
        from bot.client import answer_error

        await answer_error(interaction, message)
