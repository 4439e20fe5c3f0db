"""Dutch on Discord: ``/dutch new`` and the turn-based table (rendering in ``_dutch_ui``).

Rules: ``docs/rules/dutch.md`` (both rule sets, chosen by ``variant``); the table (lobby, turn
timers, the jump-in grace, races of aggressive jump-ins, bots, restore, rematch) is the table
kit's (``docs/tables.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.options import describe_options
from bot.games.dutch.engine import DutchOptions
from bot.tables.commands import apply_option_declarations
from bot.tables.core import BOT_SPEEDS
from cogs._dutch_ui import DutchUI

_OPT = {spec.name: spec for spec in describe_options(DutchOptions)}
"""The one declaration of each table option (docs/rules/dutch.md §10): ranges, choices, defaults, help."""

if TYPE_CHECKING:
    from bot.client import ParlorBot


class DutchCog(commands.Cog):
    """Slash commands for Dutch tables."""

    group = app_commands.Group(name="dutch", description="Play Dutch, the memory card game", guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Make Dutch playable at the table service."""
        self.bot.tables.register_ui(DutchUI())

    @group.command(name="new")
    @app_commands.describe(race_window_ms="Aggressive: how long a race of jump-ins on one discard stays open, in ms "
                                          "(default: the server's)",
                           bot_speed="How fast bots play: relaxed (default), normal or fast")
    @app_commands.choices(bot_speed=[app_commands.Choice(name=k, value=k) for k in BOT_SPEEDS])
    async def new(self, interaction: discord.Interaction, variant: str = _OPT["variant"].default,
                  jokers: bool = _OPT["jokers"].default, hand_size: int = _OPT["hand_size"].default,
                  red_kings: int = _OPT["red_kings"].default, peek_seconds: int = _OPT["peek_seconds"].default,
                  jump_in_grace_seconds: int = _OPT["jump_in_grace_seconds"].default,
                  target: int = _OPT["target"].default, undercut_penalty: int = _OPT["undercut_penalty"].default,
                  forgiving_scores: bool = _OPT["forgiving_scores"].default,
                  race_window_ms: app_commands.Range[int, 0, 1000] | None = None,
                  bot_speed: app_commands.Choice[str] | None = None) -> None:
        """Open a Dutch table (2–8 players) in a new thread."""
        options = {"variant": variant, "jokers": jokers, "hand_size": hand_size, "red_kings": red_kings,
                   "peek_seconds": peek_seconds, "jump_in_grace_seconds": jump_in_grace_seconds, "target": target,
                   "undercut_penalty": undercut_penalty, "forgiving_scores": forgiving_scores}
        settings: dict[str, object] = {"bot_speed": bot_speed.value if bot_speed else "relaxed"}
        if race_window_ms is not None:
            settings["race_window_ms"] = race_window_ms
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open("dutch", interaction, options, settings)
        await interaction.followup.send(
            f"Dutch table #{table.id} ({variant}) is open in <#{table.thread_id}> — press **Join** there.",
            ephemeral=True)


apply_option_declarations(DutchCog.new, DutchOptions)


async def setup(bot: ParlorBot) -> None:
    """Load the Dutch cog."""
    await bot.add_cog(DutchCog(bot))
