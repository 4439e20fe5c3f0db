"""Parlor's card art, drawn from code with Pillow (``docs/art.md``).

Pure: Pillow only, no Discord, no asyncio, no file or font outside Pillow. The same card always
gives the same picture.

* :func:`standard_card`, :func:`joker`, :func:`dutch_blitz_card`, :func:`card_back`, or
  :func:`card_image` by key: one card as an RGBA picture.
* :func:`art_sheet`: every card of a deck on one picture (the gallery); :func:`picture_png` writes a
  picture as a small PNG.
* :data:`EMOJI_KEYS`, :func:`emoji_name`, :func:`emoji_png`, :func:`content_hash`: the cards as
  Discord application emojis (uploaded by ``parlor sync``, ``bot/emoji_sync.py``).
* :func:`card_key`, :func:`back_key`, :func:`shown_key`: an engine card to its key; a face-down
  card is always its back.
"""

from bot.art.deck import (
    CARD_HEIGHT,
    DECKS,
    KEYS,
    card_back,
    card_image,
    deck_keys,
    dutch_blitz_card,
    joker,
    standard_card,
)
from bot.art.emojis import (
    ART_DIGEST,
    ART_VERSION,
    EMOJI_KEYS,
    EMOJI_MAX_BYTES,
    EMOJI_SIZE,
    SyncPlan,
    art_digest,
    back_key,
    card_key,
    content_hash,
    emoji_image,
    emoji_name,
    emoji_png,
    is_our_emoji,
    plan_sync,
    shown_key,
)
from bot.art.sheet import art_sheet, picture_png

__all__ = [
    "ART_DIGEST",
    "ART_VERSION",
    "CARD_HEIGHT",
    "DECKS",
    "EMOJI_KEYS",
    "EMOJI_MAX_BYTES",
    "EMOJI_SIZE",
    "KEYS",
    "SyncPlan",
    "art_digest",
    "art_sheet",
    "back_key",
    "card_back",
    "card_image",
    "card_key",
    "content_hash",
    "deck_keys",
    "dutch_blitz_card",
    "emoji_image",
    "emoji_name",
    "emoji_png",
    "is_our_emoji",
    "joker",
    "picture_png",
    "plan_sync",
    "shown_key",
    "standard_card",
]
