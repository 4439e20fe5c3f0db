"""``parlor sync``'s second half: the card pictures as the application's emojis (``docs/art.md`` §6).

Idempotent: the emojis that are there under this art version's names are kept, the missing ones
uploaded, and ours of another art version (or of a name no card has now) deleted, the stale ones
first so that the application stays under Discord's 2,000. Emojis whose names are not of our
scheme (``p<n>_std_…``, ``p<n>_db_…``) are the owner's and are never touched. The plan itself is
pure (:func:`bot.art.emojis.plan_sync`); this module only talks to Discord, through discord.py's
own API (``Client.fetch_application_emojis``, ``Client.create_application_emoji``,
``Emoji.delete``, discord.py 2.5 and later).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

from bot.art.emojis import ART_VERSION, emoji_name, emoji_png, plan_sync
from bot.tables.faces import CardFaces

__all__ = ["EmojiSyncReport", "EmojiSyncRefused", "sync_card_emojis", "load_card_emojis", "emojis_usable"]

log = logging.getLogger("parlor.emojis")


@dataclass(frozen=True)
class EmojiSyncReport:
    """What a sync did: how many card emojis it created, kept and deleted."""

    created: int
    kept: int
    deleted: int

    def __str__(self) -> str:
        return (f"card emojis (art version {ART_VERSION}): {self.created} created, {self.kept} kept, "
                f"{self.deleted} deleted")


class EmojiSyncRefused(Exception):
    """Discord refused a request of the emoji sync; the message is one line saying which and why.

    Attributes
    ----------
    done:
        What the sync had done before the refusal.
    """

    def __init__(self, message: str, done: EmojiSyncReport) -> None:
        super().__init__(message)
        self.done = done


async def sync_card_emojis(client: discord.Client) -> EmojiSyncReport:
    """Brings the application's card emojis to this art version; *client* must be logged in.

    Parameters
    ----------
    client:
        A logged-in discord.py client (its ``application_id`` known, as after ``login``).

    Returns
    -------
    EmojiSyncReport
        The counts: created (uploaded now), kept (there already), deleted (stale ones of ours).

    Raises
    ------
    EmojiSyncRefused
        Discord refused a request (a missing permission, a 400, the application's limit): the
        message names the step, Discord's status, code and text, and what was done before it.
    """
    created = deleted = kept = 0
    step = "listing the application's emojis"
    try:
        existing = await client.fetch_application_emojis()
        plan = plan_sync((emoji.id, emoji.name) for emoji in existing)
        kept = len(plan.keep)
        by_id = {emoji.id: emoji for emoji in existing}
        for emoji_id, name in plan.delete:
            step = f"deleting the old emoji {name}"
            await by_id[emoji_id].delete()
            deleted += 1
        for key in plan.create:
            name = emoji_name(key)
            step = f"uploading the emoji {name}"
            await client.create_application_emoji(name=name, image=emoji_png(key))
            created += 1
    except (discord.HTTPException, discord.ClientException) as exc:
        done = EmojiSyncReport(created, kept, deleted)
        reason = " ".join(str(exc).split())  # discord.py's text may span lines ("In name: ...")
        raise EmojiSyncRefused(f"Discord refused {step}: {reason} (before that: {done.created} created, "
                               f"{done.deleted} deleted)", done) from None
    return EmojiSyncReport(created, kept, deleted)


async def load_card_emojis(client: discord.Client, faces: CardFaces) -> int:
    """|coro| Fill *faces* with the application's card emojis of this art version; returns how many.

    Called at start-up (``ParlorBot.setup_hook``) and after ``parlor sync`` (``docs/art.md`` §8).
    When Discord cannot be asked, it logs a warning and keeps what *faces* had (cards stay text
    where no emoji is known); it never raises for Discord's refusal.

    Parameters
    ----------
    client:
        A logged-in discord.py client (its ``application_id`` known).
    faces:
        The client's :class:`~bot.tables.faces.CardFaces` (the table registry's).
    """
    try:
        emojis = await client.fetch_application_emojis()
    except (discord.HTTPException, discord.ClientException) as exc:
        log.warning("could not fetch the card emojis (cards are shown as text): %s", " ".join(str(exc).split()))
        return faces.loaded
    count = faces.load((emoji.id, emoji.name) for emoji in emojis)
    if count:
        log.info("card emojis: %d of art version %d", count, ART_VERSION)
    else:
        log.info("no card emojis of art version %d yet: cards are shown as text until they are synced", ART_VERSION)
    return count


def emojis_usable(client: discord.Client, channel_id: int) -> bool:
    """Whether a message in channel *channel_id* may show the application's emojis.

    Discord shows an application emoji the way it shows any emoji from outside the server: in a
    message the bot sends only when the bot may **Use External Emojis** in the channel; in an
    interaction's answer (an ephemeral board, an edit through the interaction's token), historically
    only when **@everyone** may (Discord now checks the application's permissions there too). So
    both must have it. A channel not in discord.py's cache (or without the bot's member) is
    ``False``: cards are then shown as text, which is always right. A DM has no permissions: ``True``.
    """
    channel = client.get_channel(channel_id)
    if channel is None:
        return False
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return True
    guild = channel.guild
    me = guild.me
    if me is None:
        return False
    return bool(channel.permissions_for(me).use_external_emojis
                and channel.permissions_for(guild.default_role).use_external_emojis)
