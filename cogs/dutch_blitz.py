"""Dutch Blitz on Discord: ``/dutch-blitz new`` and the real-time table (rendering in ``_dutch_blitz_ui``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.options import describe_options
from bot.games.dutch_blitz.options import DutchBlitzOptions
from bot.tables.commands import apply_option_declarations
from bot.tables.core import BOT_SPEEDS
from cogs._dutch_blitz_ui import DutchBlitzUI

_OPT = {spec.name: spec for spec in describe_options(DutchBlitzOptions)}
"""The one declaration of each table option (docs/rules/dutch-blitz.md §10): ranges, defaults, help."""

if TYPE_CHECKING:
    from bot.client import ParlorBot


class DutchBlitzCog(commands.Cog):
    """Slash commands for Dutch Blitz tables."""

    group = app_commands.Group(name="dutch-blitz", description="Play Dutch Blitz", guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Make Dutch Blitz playable at the table service."""
        self.bot.tables.register_ui(DutchBlitzUI())

    @group.command(name="new")
    @app_commands.describe(race_window_ms="How long a race on one Dutch pile stays open, in ms (default: the server's)",
                           bot_speed="How fast bots play: relaxed (default), normal or fast")
    @app_commands.choices(bot_speed=[app_commands.Choice(name=k, value=k) for k in BOT_SPEEDS])
    async def new(self, interaction: discord.Interaction, target: int = _OPT["target"].default,
                  move_post_stacks: bool = _OPT["move_post_stacks"].default,
                  stuck_seconds: int = _OPT["stuck_seconds"].default, max_hands: int = _OPT["max_hands"].default,
                  race_window_ms: app_commands.Range[int, 0, 1000] | None = None,
                  bot_speed: app_commands.Choice[str] | None = None) -> None:
        """Open a Dutch Blitz table (2–8 players) in a new thread."""
        options = {"target": target, "move_post_stacks": move_post_stacks, "stuck_seconds": stuck_seconds,
                   "max_hands": max_hands}
        settings: dict[str, object] = {"bot_speed": bot_speed.value if bot_speed else "relaxed"}
        if race_window_ms is not None:
            settings["race_window_ms"] = race_window_ms
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open("dutch-blitz", interaction, options, settings)
        await interaction.followup.send(
            f"Dutch Blitz table #{table.id} is open in <#{table.thread_id}> — press **Join** there.", ephemeral=True)


apply_option_declarations(DutchBlitzCog.new, DutchBlitzOptions)


async def setup(bot: ParlorBot) -> None:
    """Load the Dutch Blitz cog."""
    await bot.add_cog(DutchBlitzCog(bot))
