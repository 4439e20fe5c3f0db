"""Blitz (31) on Discord: ``/blitz new`` and the turn-based table (rendering in ``_blitz_ui``).

Not Dutch Blitz (``/dutch-blitz new``). Rules: ``docs/rules/blitz.md``; the table (lobby, turn
timers, bots, restore, rematch) is the table kit's (``docs/tables.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.options import describe_options
from bot.games.blitz.engine import BlitzOptions
from bot.tables.commands import apply_option_declarations
from bot.tables.core import BOT_SPEEDS
from cogs._blitz_ui import BlitzUI

_OPT = {spec.name: spec for spec in describe_options(BlitzOptions)}
"""The one declaration of each table option (docs/rules/blitz.md §10): ranges, choices, defaults, help."""

if TYPE_CHECKING:
    from bot.client import ParlorBot


class BlitzCog(commands.Cog):
    """Slash commands for Blitz (31) tables."""

    group = app_commands.Group(name="blitz", description="Play Blitz (31): draw, discard, knock, keep your lives",
                               guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Make Blitz (31) playable at the table service."""
        self.bot.tables.register_ui(BlitzUI())

    @group.command(name="new")
    @app_commands.describe(bot_speed="How fast bots play: relaxed (default), normal or fast")
    @app_commands.choices(bot_speed=[app_commands.Choice(name=k, value=k) for k in BOT_SPEEDS])
    async def new(self, interaction: discord.Interaction, lives: int = _OPT["lives"].default,
                  three_of_a_kind: float = _OPT["three_of_a_kind"].default,
                  keep_discard_pickup: bool = _OPT["keep_discard_pickup"].default,
                  bot_speed: app_commands.Choice[str] | None = None) -> None:
        """Open a Blitz (31) table (2–8 players) in a new thread."""
        options = {"lives": lives, "three_of_a_kind": float(three_of_a_kind),
                   "keep_discard_pickup": keep_discard_pickup}
        settings: dict[str, object] = {"bot_speed": bot_speed.value if bot_speed else "relaxed"}
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open("blitz", interaction, options, settings)
        await interaction.followup.send(
            f"Blitz (31) table #{table.id} is open in <#{table.thread_id}> — press **Join** there.", ephemeral=True)


apply_option_declarations(BlitzCog.new, BlitzOptions)


async def setup(bot: ParlorBot) -> None:
    """Load the Blitz (31) cog."""
    await bot.add_cog(BlitzCog(bot))
