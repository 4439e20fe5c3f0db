"""A test-only game cog: "High card" (tests/engine/sample_game.py) on the real table service."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.cards import Card
from bot.tables import GameUI
from tests.engine.sample_game import BOTS, HighCard


class HighCardUI(GameUI):
    """Rendering of the sample game."""

    kind = "high-card"
    board_label = "Open my hand"

    def public_text(self, table: Any) -> str:
        view = table.engine.view(None)
        trick = " ".join(f"{table.display_name(p)}: {c['label']}" for p, c in view["trick"]) or "—"
        points = ", ".join(f"{table.display_name(p)} {n}" for p, n in view["points"].items())
        return f"**High card** #{table.id} · turn: {table.display_name(view['turn'])}\nTrick: {trick}\nPoints: {points}"

    def private_text(self, table: Any, player: str) -> str:
        view = table.engine.view(player)
        return "Your hand: " + " ".join(c["label"] for c in view["hand"])

    def private_note(self, table: Any, player: str, event: Any) -> str | None:
        if event.type == "dealt":
            return "You were dealt " + " ".join(c["label"] for c in event.data["cards"])
        return None

    def action_label(self, table: Any, player: str, action: dict[str, Any]) -> str:
        return f"Play {Card.from_id(action['card']).label}"


class HighCardCog(commands.Cog):
    """Slash commands for the sample game."""

    group = app_commands.Group(name="high-card", description="Play High card", guild_only=True)

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tables.register_ui(HighCardUI(), engine=HighCard, bots=BOTS)

    @group.command(name="new")
    @app_commands.describe(tricks="How many tricks")
    async def new(self, interaction: discord.Interaction, tricks: app_commands.Range[int, 1, 10] = 3) -> None:
        """Open a High card table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.bot.tables.open("high-card", interaction, {"tricks": tricks})
        await interaction.followup.send(f"Table #{table.id} is open in <#{table.thread_id}>.", ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(HighCardCog(bot))
