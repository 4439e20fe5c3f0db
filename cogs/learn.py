"""``/learn game:<game>``: a private practice table against a slow easy bot, coached at every step.

Thin: the table service opens and runs the table (``TableService.open_practice``,
:mod:`bot.tables.practice`); each game's coach explains the moves (``Game.coach``,
``docs/tables.md``, "Learning a game").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import GAMES
from bot.tables.practice import practice_options

if TYPE_CHECKING:
    from bot.client import ParlorBot


class LearnCog(commands.Cog):
    """``/learn``: practice tables, one per member and channel at a time."""

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(name="learn")
    @app_commands.describe(game="Which game to learn")
    @app_commands.choices(game=[app_commands.Choice(name=g.title, value=k) for k, g in sorted(GAMES.items())])
    @app_commands.guild_only()
    async def learn(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Learn a game by playing: a private practice table against a slow bot that explains each step."""
        declared = GAMES[game.value]
        if game.value not in self.bot.tables.uis:
            await interaction.response.send_message(f"{declared.title} has no Discord table yet.", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open_practice(game.value, interaction, practice_options(declared.quick_options))
        await interaction.followup.send(
            f"Your {declared.title} practice table #{table.id} is open in <#{table.thread_id}>, just you and a "
            f"slow bot. Press **{self.bot.tables.uis[game.value].board_label}** there: your board explains "
            "what you may do and what the bot did. Practice games are unrated and stay out of `/history`.",
            ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    """Load the ``/learn`` cog."""
    await bot.add_cog(LearnCog(bot))
