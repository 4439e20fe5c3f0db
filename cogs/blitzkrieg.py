"""Blitzkrieg on Discord: ``/blitzkrieg new`` and its table (rendering in ``_blitzkrieg_ui``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.options import describe_options
from bot.games.blitzkrieg import BlitzkriegOptions
from bot.tables.commands import apply_option_declarations
from bot.tables.core import BOT_SPEEDS
from cogs._blitzkrieg_ui import PACES, BlitzkriegUI

_OPT = {spec.name: spec for spec in describe_options(BlitzkriegOptions)}
"""The one declaration of each table option (docs/rules/blitzkrieg.md §4): ranges, defaults, help."""

if TYPE_CHECKING:
    from bot.client import ParlorBot


class BlitzkriegCog(commands.Cog):
    """Slash commands for Blitzkrieg tables."""

    group = app_commands.Group(name="blitzkrieg", description="Play Blitzkrieg (War with special battles)",
                               guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Make Blitzkrieg playable at the table service."""
        self.bot.tables.register_ui(BlitzkriegUI())

    @group.command(name="new")
    @app_commands.describe(pace="click: each battle on a click of Battle! (default); auto: battles follow at a "
                                "readable pace",
                           bot_speed="How fast the house bot plays: relaxed (default), normal or fast")
    @app_commands.choices(pace=[app_commands.Choice(name=p, value=p) for p in PACES],
                          bot_speed=[app_commands.Choice(name=k, value=k) for k in BOT_SPEEDS])
    async def new(self, interaction: discord.Interaction, max_battles: int = _OPT["max_battles"].default,
                  pace: app_commands.Choice[str] | None = None,
                  bot_speed: app_commands.Choice[str] | None = None) -> None:
        """Open a Blitzkrieg table (two players: a friend, or the house bot) in a new thread."""
        settings: dict[str, object] = {"pace": pace.value if pace else "click",
                                       "bot_speed": bot_speed.value if bot_speed else "relaxed"}
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open("blitzkrieg", interaction, {"max_battles": max_battles}, settings)
        await interaction.followup.send(
            f"Blitzkrieg table #{table.id} is open in <#{table.thread_id}> — a friend presses **Join** there, or "
            "press **Add bot** to play the house (playing it by yourself is fun as well).", ephemeral=True)


apply_option_declarations(BlitzkriegCog.new, BlitzkriegOptions)


async def setup(bot: ParlorBot) -> None:
    """Load the Blitzkrieg cog."""
    await bot.add_cog(BlitzkriegCog(bot))
