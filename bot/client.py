"""The Discord client: :class:`ParlorBot`, its lifecycle and the error answer of last resort.

``main()`` (``parlor run``) owns the resources, as discord.py's ``advanced_startup`` example does:
it sets up logging, opens the database with ``async with`` and hands it to the bot, whose
``setup_hook`` loads every cog in ``cogs/``. Commands are never synced on start-up
(``parlor sync`` is the deliberate act).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import pkgutil
import re
import signal
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_error

if TYPE_CHECKING:
    from bot.config import Config
    from bot.storage import Storage

__all__ = ["ParlorBot", "ShardedParlorBot", "make_bot", "apply_api_overrides", "cog_extensions", "answer_error",
           "run_bot"]

log = logging.getLogger("parlor")

FULL_COLLECTION_AFTER = 10
"""Collections of the garbage collector's middle generation between two full ones once the bot is
ready: Python's default pace, never rarer. A full collection's pause grows with the garbage it
frees (each click leaves about 60 discord.py objects in reference cycles that live long enough to
reach the oldest generation): at 100 it froze the bot for 0.4-0.7 s of CPU every few minutes
(issue #32's stall; ``bench/stall.py``, ``docs/scale.md``, ``docs/tables.md``, "Robustness")."""


def apply_api_overrides(api_base: str | None, gateway: str | None) -> None:
    """Point discord.py at another Discord, e.g. the loopback Discord of :mod:`sandbox`.

    Parameters
    ----------
    api_base:
        REST base such as ``http://127.0.0.1:PORT/api/v10``; empty or ``None`` leaves Discord's.
    gateway:
        Gateway URL such as ``ws://127.0.0.1:PORT/gateway``; empty or ``None`` leaves Discord's.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def cog_extensions() -> list[str]:
    """The dotted names of every cog module in ``cogs/`` (names starting with ``_`` are helpers)."""
    import cogs

    return [f"cogs.{m.name}" for m in sorted(pkgutil.iter_modules(cogs.__path__), key=lambda m: m.name)
            if not m.name.startswith("_")]


class OptionRefused(app_commands.AppCommandError):
    """A slash command's option value outside its declared range, length or choices; the message says
    which option and what it takes (the answer, as a :class:`bot.tables.TableError`'s).
    """


def _quoted(value: object) -> str:
    text = str(value).replace("`", "'")
    return f"`{text[:40]}…`" if len(text) > 40 else f"`{text}`"


def refused_option(command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]) -> str | None:
    """Why an option value of *options* (an interaction's, for *command*) is outside what *command*
    declares (choices, a number's range, a text's length), or ``None`` when every one is within.

    Discord's client never sends such a value, but a forged or modified one may, and discord.py checks
    only the choices of a ``Choice`` parameter (failing the command with an error nobody answers).
    """
    params = {p.display_name: p for p in command.parameters}
    for option in options:
        param = params.get(str(option.get("name")))
        if param is None or "value" not in option:
            continue
        name, value = f"`{param.display_name}`", option["value"]
        if param.choices:
            allowed = [c.value for c in param.choices]
            if value not in allowed:
                return f"{name} takes one of {', '.join(_quoted(a) for a in allowed)}; {_quoted(value)} is not one."
            continue
        low, high = param.min_value, param.max_value
        if param.type is discord.AppCommandOptionType.string and isinstance(value, str):
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                span = f"{low or 0} to {high}" if high is not None else f"at least {low}"
                return f"{name} takes {span} characters; it was given {len(value)}."
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if (low is not None and value < low) or (high is not None and value > high):
                span = (f"from {low} to {high}" if low is not None and high is not None
                        else f"at least {low}" if low is not None else f"at most {high}")
                return f"{name} takes a number {span}; {_quoted(value)} is not."
    return None


def typed_command(data: dict[str, Any]) -> str:
    """The whole name of the slash command an interaction's *data* runs, its group and subcommand
    included (``"tournament start"``), as the member typed it.
    """
    words = [str(data.get("name") or "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group) holds the rest
        words.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return " ".join(words)


class ParlorTree(app_commands.CommandTree):
    """The command tree; answers every failed command with an ephemeral explanation.

    Commands let :class:`bot.tables.TableError` propagate: its message is the answer.
    """

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before a slash command runs: refuse an option value outside what the command declares
        (:func:`refused_option`), then, in a table's thread, replay that table if a restart left it for
        later (``docs/tables.md``, "Restarts"), so the command finds it ready.

        Raises
        ------
        OptionRefused
            An option value the command does not take: :meth:`on_error` answers with the reason.
        discord.app_commands.AppCommandError
            The table could not be read back (the database failed): :meth:`on_error` logs it and
            answers the user.
        """
        data: dict[str, Any] = dict(interaction.data or {})
        if interaction.type is discord.InteractionType.application_command and data.get("type", 1) == 1:
            try:
                command, options = self._get_app_command_options(data)  # type: ignore[arg-type]
            except app_commands.AppCommandError:
                command, options = None, []  # unknown or stale: the tree's own call answers it
            if isinstance(command, app_commands.Command):
                why = refused_option(command, list(options))  # type: ignore[arg-type]
                if why is not None:
                    raise OptionRefused(why)
        tables = getattr(interaction.client, "tables", None)
        if tables is not None:
            try:
                await tables.replayed_in(interaction.channel_id)
            except Exception as exc:  # only an AppCommandError reaches on_error (and an answer)
                raise app_commands.AppCommandError(f"the table here could not be read back: {exc!r}") from exc
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Log the failure and tell the user in an ephemeral message (never "This interaction failed")."""
        original = getattr(error, "original", error)
        from bot.tables import TableError

        if isinstance(original, TableError | OptionRefused):  # a refusal written for the user
            await answer_error(interaction, str(original))
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # Discord still shows a command this version no longer has, or has changed: not a bug.
            name = typed_command(dict(interaction.data or {}))
            log.warning("stale slash command /%s used (%s); run `parlor sync`", name, type(error).__name__)
            await answer_error(interaction, f"This command has changed since it was last registered — ask a server "
                                            f"admin to run `parlor sync`, then try `/{name}` again.")
            return
        if isinstance(error, app_commands.CheckFailure):
            await answer_error(interaction, f"You can't use this here: {error}")
            return
        if isinstance(original, ValueError):
            await answer_error(interaction, f"That didn't work: {original}")
            return
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("command %r failed", command, exc_info=original)
        await answer_error(interaction, "Something went wrong on our side; the error was logged. Please try again.")


class ParlorBot(commands.Bot):
    """Parlor's bot: a :class:`discord.ext.commands.Bot` that owns the table service.

    Parameters
    ----------
    config:
        The loaded configuration.
    storage:
        The open database (``main()`` owns and closes it).
    load_cogs:
        Extensions to load in ``setup_hook``; ``None`` loads every cog in ``cogs/``.
    restore_tables:
        Whether ``setup_hook`` rebuilds unfinished tables (``parlor sync`` passes ``False``: it
        must not run tables beside the real bot).
    check_commands:
        Whether ``on_ready`` checks that Discord has slash commands for the bot (the sandbox and
        tests sync them themselves right after connecting).

    Use :func:`make_bot` to get the sharded variant when ``discord.shard_count`` is set.
    """

    def __init__(self, config: Config, storage: Storage, *, load_cogs: list[str] | None = None,
                 restore_tables: bool = True, check_commands: bool = True, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Parlor uses no voice: discord.py's warnings about its voice libraries (PyNaCl, davey) are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # No message pings anyone unless it says so: a table message (and every re-post of it) names
        # players without pinging them; the few notices meant to ping (a turn or idle warning, a
        # tournament match) allow user mentions themselves. @everyone and roles are never pinged.
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # Parlor reads no message from discord.py's message cache (every click carries its message,
        # and a table edits its message by id), so it keeps none (docs/tables.md, "The table service inside").
        kwargs.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=ParlorTree,
                         help_command=None, **kwargs)
        self.config = config
        self.storage = storage
        self._templates: dict[type[Any], re.Pattern[str]] = {}
        self._commands_checked = not check_commands
        self._heartbeat: asyncio.Task[None] | None = None
        self._extensions_to_load = load_cogs
        self._restore_tables = restore_tables
        self._frozen = False
        self._thresholds = gc.get_threshold()
        from bot.tables import TableService

        self.tables = TableService(storage, config.tables, self,
                                   organizer_role_ids=config.tournaments.organizer_role_ids)
        if config.discord.shard_count:
            ids = set(config.discord.shard_ids) if config.discord.shard_ids else None
            self.tables.shards = (config.discord.shard_count, ids)
            if ids:  # one of several processes: its share of the bot's global request budget
                from bot.tables.budget import RestBudget, process_share

                share = process_share(config.tables.rest_per_second, config.discord.shard_count, ids)
                self.tables.messages.budget = RestBudget(share)

    async def setup_hook(self) -> None:
        """Load the cogs (each registers its game and components), fetch the card emojis, then restore live tables."""
        for name in self._extensions_to_load if self._extensions_to_load is not None else cog_extensions():
            await self.load_extension(name)
            log.info("loaded %s", name)
        await self.load_card_emojis()
        if self.config.health.heartbeat_file:
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat(), name="parlor-heartbeat")
        if self._restore_tables:
            restored = await self.tables.restore()
            if restored:
                log.info("restored %d table(s) after a restart", restored)
            self.tables.outbox.start()  # what an earlier run stored and did not post goes out first

    async def load_card_emojis(self) -> int:
        """|coro| Fetch the application's card emojis into the tables' :class:`~bot.tables.faces.CardFaces`
        (at start-up, and again after ``parlor sync``); returns how many (0: cards are shown as text;
        ``docs/art.md`` §8).
        """
        from bot.emoji_sync import load_card_emojis

        return await load_card_emojis(self, self.tables.registry.faces)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register persistent components, remembering their custom id templates (see :meth:`on_interaction`)."""
        super().add_dynamic_items(*items)
        for item in items:
            self._templates[item] = item.__discord_ui_compiled_template__

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Unregister persistent components."""
        super().remove_dynamic_items(*items)
        for item in items:
            self._templates.pop(item, None)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a click on a ``parlor:`` component that no registered component understands.

        A garbled custom id, or one of a future or retired format, would otherwise get no answer
        and Discord would show "This interaction failed" (``docs/tables.md``, "Custom ids").
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("parlor:"):
            return
        if any(t.fullmatch(custom_id) for t in self._templates.values()):
            return
        log.info("unknown component custom id %r", custom_id[:100])
        await answer_error(interaction, "This button is no longer valid. Use the buttons on the table's current "
                                        "message, or `/table board` in the table's thread.")

    async def on_ready(self) -> None:
        """Log who the bot is and where; once, warn when Discord has no slash commands for it."""
        assert self.user is not None
        log.info("ready as %s (id %s) in %d server(s) on %d shard(s)", self.user, self.user.id, len(self.guilds),
                 self.shard_count or 1)
        if not self._frozen:
            # What start-up built (cogs, restored tables, the gateway's cache) lives as long as the
            # process: out of the collector's sight, a full collection no longer walks it on a
            # click's path (pauses of 60 ms and more with many tables; docs/tables.md, "Robustness").
            self._frozen = True
            gc.collect()
            gc.freeze()
            # A full collection's pause is mostly the garbage it frees (the clicks' discord.py
            # objects in reference cycles), so spacing full collections out only makes each one
            # longer: they keep Python's pace (FULL_COLLECTION_AFTER), tens of ms each.
            self._thresholds = gc.get_threshold()
            gc.set_threshold(self._thresholds[0], self._thresholds[1], FULL_COLLECTION_AFTER)
        if not self._commands_checked:
            self._commands_checked = True
            await self.warn_if_unsynced()

    async def warn_if_unsynced(self) -> bool:
        """|coro|

        Log a WARNING naming ``parlor sync`` when Discord has no slash commands for this
        application, globally or in the first servers; returns whether it warned.
        """
        try:
            if await self.tree.fetch_commands():
                return False
            for guild in list(self.guilds)[:5]:
                if await self.tree.fetch_commands(guild=guild):
                    return False
        except discord.HTTPException as exc:
            log.info("could not check the registered slash commands: %s", exc)
            return False
        log.warning("Discord has no slash commands registered for this bot, so nobody can use it yet: run "
                    "`parlor sync --guild SERVER_ID` (one server, instant) or `parlor sync` (all servers)")
        return True

    async def _beat(self) -> None:
        """Touch ``health.heartbeat_file`` every ``health.heartbeat_seconds`` while connected (``parlor health``)."""
        from pathlib import Path

        path = Path(self.config.health.heartbeat_file)
        await self.wait_until_ready()
        while not self.is_closed():
            if self.is_ready() and not self.is_ws_ratelimited():
                try:
                    path.write_text(f"{self.latency:.3f}\n", encoding="utf-8")
                except OSError as exc:
                    log.warning("cannot write the heartbeat file %s: %s", path, exc)
            await asyncio.sleep(self.config.health.heartbeat_seconds)

    async def close(self) -> None:
        """Stop the tables' tasks, then disconnect (the database is closed by ``run_bot``)."""
        with contextlib.suppress(Exception):
            await self.tables.shutdown()
        with contextlib.suppress(Exception):
            await self.tables.outbox.stop()  # what is not posted yet stays stored for the next start
        await super().close()
        if self._frozen:  # what was frozen may be garbage now (many bots in one process: the tests)
            self._frozen = False
            gc.unfreeze()
            gc.set_threshold(*self._thresholds)



@contextlib.asynccontextmanager
async def open_storage(config: Config) -> AsyncIterator[Storage]:
    """Open (create, migrate) the configured database; closed on exit.

    Raises
    ------
    bot.config.ConfigError
        The database cannot be opened or migrated (bad path, not a database, a server that cannot
        be reached, a newer schema); the message names ``database.url`` or ``database.path`` (the
        one in use) and the reason, never a password.
    """
    import sqlite3

    from bot.config import ConfigError
    from bot.storage import Storage
    from bot.storage.postgres import is_postgres_url
    from bot.storage.repository import sqlite_path

    target, key = config.database.target, config.database.key
    postgres = is_postgres_url(target)
    if not postgres:
        check_database_path(sqlite_path(target), key)
    try:
        storage = await Storage.connect(target)
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        shown = _without_password(target)
        raise ConfigError(key, f"cannot open {shown!r} ({exc}); expected "
                               + ("a reachable PostgreSQL database" if postgres else "a writable SQLite file path")
                          ) from None
    try:
        yield storage
    finally:
        await storage.close()


def _without_password(url: str) -> str:
    """*url* with its password (if any) replaced by ``***``, for messages and logs."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def check_database_path(path: str, key: str = "PARLOR_DB / database.path") -> None:
    """Refuse a database path that cannot work, before anything opens it.

    Raises
    ------
    bot.config.ConfigError
        The path is a directory, its directory does not exist (Parlor creates no directories), or
        the file or its directory is not writable; the message names ``database.path``.
    """
    import os
    from pathlib import Path

    from bot.config import ConfigError

    if path == ":memory:":
        return
    file = Path(path)
    if file.is_dir():
        raise ConfigError(key, f"{path!r} is a directory; expected a SQLite file path such as "
                               f"{path.rstrip('/')}/parlor.db")
    folder = file.parent if str(file.parent) else Path(".")
    if not folder.is_dir():
        raise ConfigError(key, f"the directory {str(folder)!r} of {path!r} does not exist; create it first "
                               "(Parlor creates no directories)")
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        raise ConfigError(key, f"{path!r} is not readable and writable by this user")
    if not file.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(key, f"cannot create {path!r}: the directory {str(folder)!r} is not writable by this user")


class ShardedParlorBot(ParlorBot, commands.AutoShardedBot):
    """:class:`ParlorBot` running several of Discord's shards in one process.

    Each process takes disjoint ``discord.shard_ids`` of one ``discord.shard_count``; a guild's
    tables live in the process of its shard (``(guild_id >> 22) % shard_count``).
    """


def make_bot(config: Config, storage: Storage, **kwargs: Any) -> ParlorBot:
    """The bot for *config*: sharded when ``discord.shard_count`` is set, else a single connection."""
    if config.discord.shard_count:
        ids = list(config.discord.shard_ids) or None
        return ShardedParlorBot(config, storage, shard_count=config.discord.shard_count, shard_ids=ids, **kwargs)
    return ParlorBot(config, storage, **kwargs)


async def run_bot(config: Config, *, install_signal_handlers: bool = True) -> None:
    """|coro|

    Run the bot until it is closed or receives SIGINT/SIGTERM; the database is closed on the way out.

    Raises
    ------
    bot.config.ConfigError
        No token is configured, or Discord rejected it.
    """
    from bot.config import ConfigError

    token = config.require_token()
    apply_api_overrides(config.discord.api_base, config.discord.gateway)
    async with open_storage(config) as storage:
        bot = make_bot(config, storage)
        if install_signal_handlers:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, functools.partial(_request_close, bot, sig))
        async with bot:
            try:
                await bot.start(token)
            except discord.LoginFailure as exc:
                raise ConfigError("DISCORD_TOKEN / discord.token", f"Discord rejected the token ({exc}).") from None
            except (aiohttp.ClientConnectionError, OSError) as exc:
                where = config.discord.api_base or "Discord (discord.com)"
                raise ConfigError("DISCORD_API_BASE / discord.api_base",
                                  f"cannot reach {where}: {exc}. Check the address and the network.") from None


def _request_close(bot: ParlorBot, sig: signal.Signals) -> None:
    log.info("received %s, shutting down", sig.name)
    asyncio.get_running_loop().create_task(bot.close())
