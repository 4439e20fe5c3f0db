"""Seats and host controls: open, join, leave, add a bot, start, cancel, kick, hand over, end.

Every request names its :class:`~bot.tables.core.Actor` (who asks, seen without Discord) and is
refused with a :class:`~bot.tables.table.TableError` whose message the user reads
(``docs/tables.md``, "Lobby" and "Who may do what"). The caller holds the table lock where a
method says so; nothing here talks to Discord.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.tables.core import Actor
from bot.tables.loops import Loops
from bot.tables.messenger import Messenger
from bot.tables.moves import Moves
from bot.tables.registry import LIVE, TableRegistry
from bot.tables.settings import check_table
from bot.tables.table import GameOptions, Seat, Table, TableError, TableSettings, TableStatus
from bot.tables.text import fit_text

__all__ = ["Lobby"]

log = logging.getLogger("parlor.tables")


class Lobby:
    """Lobbies and host controls (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process.
    moves, loops:
        What deals a game and runs its tasks, and what hands a seat to a bot.
    messenger:
        Where an ended table's message is marked.
    live:
        |coro| The live table of an id, replayed first when a restart left it for later
        (:meth:`Restorer.live <bot.tables.restore.Restorer.live>`).

    Attributes
    ----------
    seen_hooks:
        Called with a table's id and a user id the first time that seated user shows up at the
        table (opens their board, moves, presses a table button); tournaments register here to
        tell a no-show (``docs/tournaments.md`` §10).
    """

    def __init__(self, registry: TableRegistry, moves: Moves, loops: Loops, messenger: Messenger,
                 live: Callable[[int], Awaitable[Table | None]]) -> None:
        self.registry = registry
        self.storage = registry.storage
        self.moves = moves
        self.loops = loops
        self.messenger = messenger
        self.live = live
        self.seen_hooks: list[Callable[[int, int], Awaitable[Any]]] = []

    def note_seen(self, table: Table, user_id: int) -> None:
        """Seated user *user_id* showed up at *table*: the :attr:`seen_hooks` hear it once per table."""
        if user_id in table.shown_up or table.seat_of_user(user_id) is None:
            return
        table.shown_up.add(user_id)
        for hook in self.seen_hooks:
            self.registry.background(hook(table.id, user_id))

    async def create_seated(self, kind: str, options: GameOptions, settings: TableSettings | None, *,
                            guild_id: int | None, channel_id: int, seats: Sequence[tuple[int, str]],
                            host_id: int) -> Table:
        """|coro| Store a table of *kind* with exactly *seats* seated (``(user id, name)`` in seat order),
        run by *host_id*, who need not play (a tournament's organizer). No lobby: the caller gives it
        a thread and then deals with :meth:`start_seated`.

        Raises
        ------
        TableError
            Bad options, a seat count outside the game's range, or a user seated twice.
        """
        engine_cls = self.registry.engine_cls(kind)
        self._check_options(kind, options, settings)
        if not engine_cls.min_players <= len(seats) <= engine_cls.max_players:
            raise TableError(f"{engine_cls.title or kind} seats {engine_cls.min_players}-{engine_cls.max_players} "
                             f"players, not {len(seats)}.")
        if len({uid for uid, _ in seats}) != len(seats):
            raise TableError("A player cannot take two seats.")
        table = await self._store_table(kind, options, settings, guild_id=guild_id, channel_id=channel_id,
                                        host_id=host_id)
        table.seats.extend(Seat(f"u{uid}", uid, None, name) for uid, name in seats)
        return table

    async def start_seated(self, table: Table) -> None:
        """|coro| Deal at a table from :meth:`create_seated` (its thread set): it is live and its game runs.

        The caller posts its message and then starts its tasks (``_start_tasks``).
        """
        self.registry.tables[table.id] = table
        await self.storage.set_game_thread(table.id, table.thread_id)
        await self.registry.save_seats(table)
        await self.storage.set_game_status(table.id, TableStatus.RUNNING)
        self.moves.start_engine(table)

    async def seat_to_bot(self, table: Table, user_id: int, why: str) -> bool:
        """|coro| A bot takes user *user_id*'s seat at running *table* (e.g. a tournament's no-show);
        returns whether it did (not seated, already a bot, or a game without bots: ``False``).
        """
        await self.live(table.id)  # a table a restart left to replay later is replayed first
        async with table.lock:
            away = table.away_of(user_id)
            if away is not None:  # a bot already plays it: now for good, no way back
                away.away = None
                return True
            seat = table.seat_of_user(user_id)
            if seat is None or table.status != TableStatus.RUNNING:
                return False
            return await self.loops.replace_with_bot(table, seat, why)

    async def close_table(self, table_id: int, text: str) -> bool:
        """|coro| End live table *table_id* at once, its message saying *text* above the table (e.g. a
        tournament match decided by forfeit); returns whether it was live.
        """
        table = await self.live(table_id)
        if table is None or table.status not in LIVE:
            return False
        async with table.lock:
            was_running = table.engine is not None
            await self.registry.cancel(table, "The table was ended.")
            shown = self.registry.public_text(table) if was_running else self.registry.lobby_text(table)
        if table.message_id is not None:
            self.registry.background(self.messenger.mark_ended(table, fit_text(f"{text}\n{shown}")))
        return True

    async def create(self, kind: str, actor: Actor, options: GameOptions, settings: TableSettings | None, *,
                     guild_id: int | None, channel_id: int) -> Table:
        """|coro| Store a new table of *kind* hosted by *actor* in channel *channel_id*, the host seated.

        The caller gives it a thread (:attr:`Table.thread_id`) and posts the lobby.

        Raises
        ------
        TableError
            Bad options, or *actor* already sits at a live table in this channel.

        What *options* and *settings* leave out comes from the server's defaults, else the declared
        ones (:meth:`ServerSettings.table_defaults <bot.tables.server.ServerSettings.table_defaults>`).
        """
        options, settings = self.registry.server.table_defaults(kind, guild_id, options, settings)
        self._check_options(kind, options, settings)
        for t in self.registry.tables.values():
            if t.channel_id == channel_id and t.status in LIVE and t.seat_of_user(actor.user_id):
                raise TableError(f"You already sit at table #{t.id} in this channel; leave it first.")
        table = await self._store_table(kind, options, settings, guild_id=guild_id, channel_id=channel_id,
                                        host_id=actor.user_id)
        table.seats.append(Seat(f"u{actor.user_id}", actor.user_id, None, actor.name))
        return table

    def _check_options(self, kind: str, options: GameOptions, settings: TableSettings | None = None) -> None:
        """Raise :class:`TableError` naming what is wrong when *options* do not make a game of *kind*,
        or a table setting is outside its declaration (:func:`bot.tables.settings.check_settings`).
        """
        try:
            check_table(self.registry.engine_cls(kind).Options, options, settings)
        except (TypeError, ValueError) as exc:
            raise TableError(f"Those options don't work: {exc}") from None

    async def _store_table(self, kind: str, options: GameOptions, settings: TableSettings | None, *,
                           guild_id: int | None, channel_id: int, host_id: int) -> Table:
        """|coro| Store a new table of *kind* (no seats yet) with a fresh seed and board-token secret."""
        engine_cls = self.registry.engine_cls(kind)
        seed = random.SystemRandom().randrange(2**31)
        settings = {**(settings or {}), "secret": secrets.token_hex(16)}  # keys the board tokens (codec)
        game_id = await self.storage.create_game(kind, seed=seed, options=options, guild_id=guild_id,
                                                 channel_id=channel_id, host_id=host_id, settings=settings)
        return Table(id=game_id, kind=kind, title=engine_cls.title or kind, guild_id=guild_id, channel_id=channel_id,
                     thread_id=channel_id, host_id=host_id, options=options, seed=seed,
                     min_players=engine_cls.min_players, max_players=engine_cls.max_players, settings=settings)

    async def join(self, table: Table, actor: Actor) -> None:
        """|coro| Seat *actor* at lobby *table* (lock held).

        Raises
        ------
        TableError
            Already seated here or at another live table of the channel, or the table is full.
        """
        if table.seat_of_user(actor.user_id):
            raise TableError("You are already seated at this table.")
        if len(table.seats) >= table.max_players:
            raise TableError(f"The table is full ({table.max_players} seats).")
        for t in self.registry.tables.values():
            if (t is not table and t.channel_id == table.channel_id and t.status in LIVE
                    and t.seat_of_user(actor.user_id)):
                raise TableError(f"You already sit at table #{t.id} in this channel.")
        table.seats.append(Seat(f"u{actor.user_id}", actor.user_id, None, actor.name))
        await self._lobby_changed(table)

    async def leave(self, table: Table, actor: Actor) -> None:
        """|coro| Give *actor*'s lobby seat back (lock held); a leaving host hands the role on, or cancels.

        Raises
        ------
        TableError
            *actor* is not seated.
        """
        seat = table.seat_of_user(actor.user_id)
        if seat is None:
            raise TableError("You are not seated at this table.")
        table.seats.remove(seat)
        if actor.user_id == table.host_id:
            humans = [s for s in table.seats if not s.is_bot and s.user_id is not None]
            if not humans:
                await self.registry.cancel(table)
                return
            table.host_id = humans[0].user_id  # type: ignore[assignment]  # filtered above
            await self.storage.set_game_host(table.id, table.host_id)
        await self._lobby_changed(table)

    async def leave_running(self, table: Table, actor: Actor) -> None:
        """|coro| *actor* leaves a running game: a bot takes the seat (lock held).

        Raises
        ------
        TableError
            *actor* is not playing, or the game has no bots.
        """
        seat = table.seat_of_user(actor.user_id)
        if seat is None:
            raise TableError("You are not playing at this table.")
        if not await self.loops.replace_with_bot(table, seat, "they left"):
            raise TableError("This game has no bot to take your seat; ask the host to end the table instead.")

    async def add_bot(self, table: Table, actor: Actor, name: str | None = None) -> None:
        """|coro| The host seats the bot of strength *name* (``easy``, ``normal``, ``hard``; a bot kind
        works too; default: the server's ``bot_strength`` (``/settings``), else ``normal``) at lobby
        *table* (lock held; ``docs/tables.md``, "Bots").

        Raises
        ------
        TableError
            Not the host, the table is full, the game has no bots or none that *name* names.
        """
        if not self.registry.is_host(table, actor):
            raise TableError("Only the host can add bots.")
        if len(table.seats) >= table.max_players:
            raise TableError(f"The table is full ({table.max_players} seats).")
        bots = self.registry.bots(table.kind)
        if not bots:
            raise TableError("This game has no bots.")
        try:
            kind = self.registry.bot_for(table.kind, name or self.registry.server.bot_strength(table.guild_id))
        except KeyError:
            raise TableError(f"This game has no bot {name!r}; pick one from the menu.") from None
        n = 1 + sum(1 for s in table.seats if s.is_bot)
        while table.seat_of_player(f"bot{n}"):
            n += 1
        table.seats.append(Seat(f"bot{n}", None, kind, f"Bot {n} ({self.registry.strength(table.kind, kind)})"))
        await self._lobby_changed(table)

    async def start(self, table: Table, actor: Actor) -> None:
        """|coro| The host deals (lock held): the engine starts and the table's tasks run.

        Raises
        ------
        TableError
            Not the host, or fewer seats than the game's minimum.
        """
        if not self.registry.is_host(table, actor):
            raise TableError("Only the host can start the game.")
        if len(table.seats) < table.min_players:
            raise TableError(f"{table.title} needs at least {table.min_players} players; "
                             f"{len(table.seats)} seated. Add a bot or wait for players.")
        await self.registry.save_seats(table)
        await self.storage.set_game_status(table.id, TableStatus.RUNNING)
        self.moves.start_engine(table)
        self.loops.start_tasks(table)

    async def cancel(self, table: Table, actor: Actor) -> None:
        """|coro| The host closes lobby *table* (lock held).

        Raises
        ------
        TableError
            Not the host.
        """
        if not self.registry.is_host(table, actor):
            raise TableError("Only the host can cancel the table.")
        await self.registry.cancel(table)

    async def _lobby_changed(self, table: Table) -> None:
        await self.registry.save_seats(table)
        table.version += 1

    async def kick_seat(self, table: Table, user_id: int) -> str:
        """|coro| Remove user *user_id* from *table* (lock held): in a lobby the seat is freed, in a game a bot
        takes it. Returns what happened, in words.

        Raises
        ------
        TableError
            That user is not seated, is the host, or the game has no bots.
        """
        away = table.away_of(user_id)
        if away is not None and away.away is not None:  # a bot plays it while they are away: now for good
            name, away.away = away.away[1], None
            return f"{name} was removed from table #{table.id}; the bot keeps their seat."
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise TableError("That user is not seated at this table.")
        if user_id == table.host_id:
            raise TableError("The host cannot be kicked; hand the host role to someone else first.")
        if table.status == TableStatus.LOBBY:
            table.seats.remove(seat)
            await self._lobby_changed(table)
            return f"{seat.name} was removed from table #{table.id}."
        name = seat.name  # the bot that takes the seat renames it "<name> (bot)"
        if await self.loops.replace_with_bot(table, seat, "removed by the host"):
            return f"{name} was removed from table #{table.id}; a bot plays their seat."
        raise TableError("This game has no bot to take that seat; end the table instead.")

    async def take_back(self, table: Table, actor: Actor) -> bool:
        """|coro| Give *actor* back the seat a bot took when they missed turns or idled (lock held):
        the bot leaves, the person plays on from where the seat stands; their missed turns and idle
        clock start afresh (``docs/tables.md``, "Playing"). Returns whether a seat was given back.
        """
        seat = table.away_of(actor.user_id)
        if seat is None or seat.away is None or table.status != TableStatus.RUNNING:
            return False
        seat.user_id, seat.name = seat.away
        seat.bot_name, seat.away = None, None
        table.bots.pop(seat.player_id, None)  # its loop ends at its next turn
        table.timeouts.pop(seat.player_id, None)
        table.last_move_ms[seat.player_id] = self.moves.clock()
        await self.registry.save_seats(table)
        self.loops.start_person(table, seat.player_id)
        table.notice = f"👋 {seat.name} is back in their seat."
        table.bump()
        self.registry.track(table, self.messenger.say(table, table.notice), "notice")
        return True

    async def make_host(self, table: Table, user_id: int) -> str:
        """|coro| Make seated user *user_id* the host of *table* (lock held); returns what happened.

        Raises
        ------
        TableError
            That user is not seated.
        """
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise TableError("Only a seated player can become the host.")
        table.host_id = user_id
        await self.storage.set_game_host(table.id, user_id)
        return f"{seat.name} is now the host of table #{table.id}."

    async def endable_table(self, table_id: int, guild_id: int | None, actor: Actor) -> Table:
        """|coro| Live table *table_id* of server *guild_id*, if *actor* may end it (``/table end``).

        Raises
        ------
        TableError
            No live table with that number in this server, or *actor* may not end it.
        """
        table = self.registry.tables.get(table_id)  # checked before a replay (live), which only a host may cause
        if table is None or table.guild_id != guild_id or table.status not in LIVE:
            raise TableError(f"There is no live table #{table_id} in this server.")
        if not self.registry.is_host(table, actor):
            raise TableError(f"Only the host of table #{table_id} or a moderator (Manage Threads, or a moderator "
                             "role) can end it.")
        if await self.live(table_id) is not table or table.status not in LIVE:
            raise TableError(f"There is no live table #{table_id} in this server.")  # its replay ended it
        return table
