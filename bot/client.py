"""The Discord client: :class:`ParlorBot`, its lifecycle and the error answer of last resort.

``main()`` (``parlor run``) owns the resources, as discord.py's ``advanced_startup`` example does:
it sets up logging, opens the database with ``async with`` and hands it to the bot, whose
``setup_hook`` loads every cog in ``cogs/``. Commands are never synced on start-up
(``parlor sync`` is the deliberate act).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
import signal
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.config import Config
    from bot.storage import Storage

__all__ = ["ParlorBot", "apply_api_overrides", "cog_extensions", "answer_error", "run_bot"]

log = logging.getLogger("parlor")


def apply_api_overrides(api_base: str | None, gateway: str | None) -> None:
    """Point discord.py at another Discord, e.g. the loopback Discord of :mod:`bot.sandbox`.

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


async def answer_error(interaction: discord.Interaction, message: str) -> None:
    """|coro|

    Tell the user what went wrong in an ephemeral message, whether or not the interaction was
    already answered. Never raises for Discord errors (they are logged).
    """
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id, exc_info=True)


class ParlorTree(app_commands.CommandTree):
    """The command tree; answers every failed command with an ephemeral explanation.

    Commands let :class:`bot.tables.TableError` propagate: its message is the answer.
    """

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Log the failure and tell the user in an ephemeral message (never "This interaction failed")."""
        original = getattr(error, "original", error)
        from bot.tables import TableError

        if isinstance(original, TableError):  # a refusal written for the user
            await answer_error(interaction, str(original))
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
    """

    def __init__(self, config: Config, storage: Storage, *, load_cogs: list[str] | None = None,
                 **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {}
        if config.discord.shard_count:
            shards["shard_count"] = config.discord.shard_count
            if len(config.discord.shard_ids) == 1:
                shards["shard_id"] = config.discord.shard_ids[0]
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=ParlorTree,
                         help_command=None, **shards, **kwargs)
        self.config = config
        self.storage = storage
        self._extensions_to_load = load_cogs
        from bot.tables import TableService

        self.tables = TableService(self)

    async def setup_hook(self) -> None:
        """Load the cogs (each registers its game and components), then restore live tables."""
        for name in self._extensions_to_load if self._extensions_to_load is not None else cog_extensions():
            await self.load_extension(name)
            log.info("loaded %s", name)
        restored = await self.tables.restore()
        if restored:
            log.info("restored %d table(s) after a restart", restored)

    async def close(self) -> None:
        """Stop the tables' tasks, then disconnect (the database is closed by ``run_bot``)."""
        with contextlib.suppress(Exception):
            await self.tables.shutdown()
        await super().close()



async def run_bot(config: Config, *, install_signal_handlers: bool = True) -> None:
    """|coro|

    Run the bot until it is closed or receives SIGINT/SIGTERM; the database is closed on the way out.

    Raises
    ------
    bot.config.ConfigError
        No token is configured, or Discord rejected it.
    """
    from bot.config import ConfigError
    from bot.storage import Storage

    token = config.require_token()
    apply_api_overrides(config.discord.api_base, config.discord.gateway)
    async with Storage.open(config.database.path) as storage:
        bot = ParlorBot(config, storage)
        if install_signal_handlers:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, lambda s=sig: _request_close(bot, s))
        async with bot:
            try:
                await bot.start(token)
            except discord.LoginFailure as exc:
                raise ConfigError("DISCORD_TOKEN / discord.token", f"Discord rejected the token ({exc}).") from None


def _request_close(bot: ParlorBot, sig: signal.Signals) -> None:
    log.info("received %s, shutting down", sig.name)
    asyncio.get_running_loop().create_task(bot.close())
