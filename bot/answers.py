"""Answering interactions when something goes wrong: one ephemeral line, never "This interaction failed"."""

from __future__ import annotations

import asyncio
import logging

import discord

__all__ = ["answer_error", "deferred", "ANSWERING", "DEFERRING"]

log = logging.getLogger("parlor")

ANSWERING = "parlor_answering"
"""Key of ``Interaction.extras`` set once a handler starts answering the interaction itself: the
click watchdog (:func:`bot.tables.components._guarded`) then defers nothing, so the two never race
to Discord's one initial response (a second one is refused with 40060)."""

DEFERRING = "parlor_deferring"
"""Key of ``Interaction.extras`` holding a deferral under way (the click watchdog's, or one made at
once for a table that must be replayed first): whoever answers next waits for it, so the answer
goes through the interaction token instead of racing the deferral to the initial response."""

UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction it no longer knows (its 3 s passed unanswered)."""


async def deferred(interaction: discord.Interaction) -> bool:
    """|coro| Whether the interaction was already answered (or deferred by the click watchdog of
    :func:`bot.tables.components._guarded`); when not, marks it as being answered now (:data:`ANSWERING`).

    Waits for a deferral under way (:data:`DEFERRING`), so an answer that follows uses the
    interaction token (``edit_original_response`` or a follow-up) instead of racing the deferral.
    """
    pending = interaction.extras.get(DEFERRING)
    if pending is not None:
        await asyncio.gather(pending, return_exceptions=True)
    if interaction.response.is_done():
        return True
    interaction.extras[ANSWERING] = True  # the caller answers now: the watchdog must not defer
    return False


async def answer_error(interaction: discord.Interaction, message: str) -> None:
    """|coro|

    Tell the user what went wrong in an ephemeral message, whether or not the interaction was
    already answered (or is being deferred: :data:`DEFERRING`). Never raises for Discord errors
    (they are logged).
    """
    try:
        if await deferred(interaction):
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_INTERACTION:
            log.warning("could not deliver an error message for interaction %s", interaction.id, exc_info=True)
        else:  # Discord already told the user the click failed; nothing more to say or log
            log.warning("could not deliver an error message: Discord no longer knows interaction %s",
                        interaction.id)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id, exc_info=True)
