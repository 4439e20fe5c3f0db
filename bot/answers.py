"""Answering interactions when something goes wrong: one ephemeral line, never "This interaction failed"."""

from __future__ import annotations

import logging

import discord

__all__ = ["answer_error"]

log = logging.getLogger("parlor")


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
