"""Dutch Blitz on Discord: ``/dutch-blitz new`` and the real-time table (rendering in ``_dutch_blitz_ui``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._dutch_blitz_ui import DutchBlitzUI

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
    @app_commands.describe(
        target="Points that end the game (default 75)",
        move_post_stacks="Allow moving a whole Post pile onto another (default off)",
        stuck_seconds="Seconds without a Dutch-pile play before the host may end the hand; 0 = never (default 60)",
        race_window_ms="How long a race on one Dutch pile stays open, in ms (default from the server config)",
    )
    async def new(self, interaction: discord.Interaction, target: app_commands.Range[int, 5, 500] = 75,
                  move_post_stacks: bool = False, stuck_seconds: app_commands.Range[int, 0, 600] = 60,
                  race_window_ms: app_commands.Range[int, 0, 1000] | None = None) -> None:
        """Open a Dutch Blitz table (2–8 players) in a new thread."""
        options = {"target": target, "move_post_stacks": move_post_stacks, "stuck_seconds": stuck_seconds}
        settings = {} if race_window_ms is None else {"race_window_ms": race_window_ms}
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open("dutch-blitz", interaction, options, settings)
        await interaction.followup.send(
            f"Dutch Blitz table #{table.id} is open in <#{table.thread_id}> — press **Join** there.", ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    """Load the Dutch Blitz cog."""
    await bot.add_cog(DutchBlitzCog(bot))
