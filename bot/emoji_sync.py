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

from dataclasses import dataclass

import discord

from bot.art.emojis import ART_VERSION, emoji_name, emoji_png, plan_sync

__all__ = ["EmojiSyncReport", "EmojiSyncRefused", "sync_card_emojis"]


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
