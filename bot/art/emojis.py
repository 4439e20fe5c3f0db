"""The cards as Discord application emojis: their names, their PNGs, and what a sync must do.

Pure (no Discord): ``bot/emoji_sync.py`` does the uploading (``docs/art.md`` §4, §5, §6).

* An emoji is 128 × 128 px PNG, the card drawn 128 px high in the middle (Discord shows application
  emojis at about 22–48 px and takes at most 256 KB).
* Its name is ``p{ART_VERSION}_`` + the deck's short name + the card: ``p1_std_qh``,
  ``p1_std_10s``, ``p1_std_joker_red``, ``p1_std_back``, ``p1_db_r8``, ``p1_db_back_pump``. Discord
  allows 2–32 characters of ``[A-Za-z0-9_]``.
* :data:`ART_VERSION` is raised whenever the art changes, so every picture gets a new name and a
  sync uploads it again and deletes the old version's. :data:`ART_DIGEST` records the
  :func:`art_digest` of this version's pictures; ``tests/art`` fail when the pictures change and the
  digest (and so the version) was not.
* A card nobody may see is always the back's emoji (:func:`shown_key`): an emoji's name is public,
  so a face-down card must never be the emoji of its face (``docs/design.md`` §6).

>>> emoji_name("standard:QH"), emoji_name("standard:X1"), emoji_name("dutch-blitz:back-pump")
('p1_std_qh', 'p1_std_joker_red', 'p1_db_back_pump')
>>> from bot.engine.cards import BlitzCard, Card
>>> card_key(Card.from_id("10S")), card_key(BlitzCard(2, "red", 8))
('standard:10S', 'dutch-blitz:R8')
>>> shown_key(BlitzCard(2, "red", 8), face_up=False)
'dutch-blitz:back-pail'
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.art import dutch_blitz
from bot.art.deck import JOKER_COLOURS, KEYS, card_image
from bot.engine.cards import RANK_NAMES, BlitzCard, Card

__all__ = [
    "ART_VERSION",
    "ART_DIGEST",
    "EMOJI_KEYS",
    "EMOJI_SIZE",
    "EMOJI_MAX_BYTES",
    "EMOJI_NAME_RE",
    "emoji_name",
    "key_of_name",
    "emoji_png",
    "emoji_image",
    "content_hash",
    "art_digest",
    "card_key",
    "back_key",
    "shown_key",
    "is_our_emoji",
    "SyncPlan",
    "plan_sync",
]

ART_VERSION = 1
"""The version of the card art; raise it whenever a picture changes (then record :data:`ART_DIGEST` anew)."""

ART_DIGEST = "034d1eee13376ba9"
""":func:`art_digest` of this :data:`ART_VERSION`'s pictures, as recorded when the art last changed."""

ART_DIGEST_PILLOW = "13.0.0"
"""The Pillow version :data:`ART_DIGEST` was recorded with (another Pillow may rasterize a glyph differently)."""

EMOJI_SIZE = 128
"""An emoji's width and height in pixels (what Discord recommends for an emoji)."""

EMOJI_MAX_BYTES = 256 * 1024
"""Discord's limit on an emoji's file (256 KB)."""

EMOJI_NAME_RE = re.compile(r"[A-Za-z0-9_]{2,32}")
"""What Discord accepts as an emoji's name."""

EMOJI_KEYS: tuple[str, ...] = KEYS
"""The key of every card emoji (every picture of both decks: 99)."""

_OURS = re.compile(r"p(\d+)_(std|db)_[a-z0-9_]+")
_DECK_SHORT = {"standard": "std", "dutch-blitz": "db"}
_PREFIX = f"p{ART_VERSION}_"


def emoji_name(key: str) -> str:
    """The emoji name of the card *key* (``docs/art.md`` §5): ``p1_std_qh``, ``p1_db_r8``, ``p1_db_back_pump``.

    Raises
    ------
    ValueError
        *key* is not one of :data:`EMOJI_KEYS`.
    """
    if key not in _KEY_SET:
        raise ValueError(f"unknown card key {key!r}; expected one of EMOJI_KEYS, e.g. 'standard:QH'")
    deck, _, card = key.partition(":")
    if card in JOKER_COLOURS:
        card = f"joker_{JOKER_COLOURS[card]}"
    return f"{_PREFIX}{_DECK_SHORT[deck]}_{card.lower().replace('-', '_')}"


_KEY_SET = frozenset(EMOJI_KEYS)
_KEY_OF_NAME: dict[str, str] = {emoji_name(k): k for k in EMOJI_KEYS}


def key_of_name(name: str) -> str | None:
    """The card key whose emoji is named *name* under this :data:`ART_VERSION`, or ``None``.

    Another version's name (``p0_std_qh``) or a name not of ours (``party_parrot``) is ``None``.

    >>> key_of_name("p1_db_r8"), key_of_name("p0_std_qh")
    ('dutch-blitz:R8', None)
    """
    return _KEY_OF_NAME.get(name)


def emoji_image(key: str) -> Image.Image:
    """The emoji of *key* as a picture: :data:`EMOJI_SIZE` px square, RGBA, the card centred, transparent around it.

    Raises
    ------
    ValueError
        *key* is not one of :data:`EMOJI_KEYS`.
    """
    card = card_image(key, height=EMOJI_SIZE)
    out = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    out.paste(card, ((EMOJI_SIZE - card.width) // 2, 0))
    return out


@functools.lru_cache(maxsize=len(EMOJI_KEYS))
def emoji_png(key: str) -> bytes:
    """The emoji of *key* as PNG bytes, to upload (at most :data:`EMOJI_MAX_BYTES`; the same bytes every time).

    Raises
    ------
    ValueError
        *key* is not one of :data:`EMOJI_KEYS`.
    """
    buffer = io.BytesIO()
    emoji_image(key).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def content_hash(key: str) -> str:
    """16 hex digits of the SHA-256 of the emoji's pixels (size and RGBA values, not the PNG's compression).

    Two pictures with the same hash are the same picture, whatever zlib compressed their PNGs.

    Raises
    ------
    ValueError
        *key* is not one of :data:`EMOJI_KEYS`.
    """
    image = emoji_image(key)
    digest = hashlib.sha256(f"{image.mode}{image.size}".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()[:16]


def art_digest() -> str:
    """16 hex digits that change whenever any emoji's picture changes (every key and its :func:`content_hash`).

    A test compares it with :data:`ART_DIGEST`, so that new art always comes with a new
    :data:`ART_VERSION` (and a sync uploads it under new names).
    """
    digest = hashlib.sha256()
    for key in EMOJI_KEYS:
        digest.update(f"{key}={content_hash(key)}\n".encode())
    return digest.hexdigest()[:16]


def card_key(card: Card | BlitzCard | str | Mapping[str, Any]) -> str:
    """The key of a card's face, from the engine's card, its id, or a view's JSON dict of it.

    A standard card's copy number and a Dutch Blitz card's owner are not shown on its face; a
    Joker's copy 1 (and every odd copy) is the red Joker, 2 (and every even one) the black.

    Parameters
    ----------
    card:
        A :class:`~bot.engine.cards.Card` or :class:`~bot.engine.cards.BlitzCard`, an id
        (``"QH"``, ``"X2"``, ``"2R5"``), or a dict with ``"id"`` (or a Dutch Blitz card's ``"colour"``
        and ``"value"``), as views and events give cards.

    Raises
    ------
    ValueError
        *card* is no card.
    """
    if isinstance(card, Mapping):
        if "colour" in card and "value" in card and "id" not in card:
            card = BlitzCard(0, str(card["colour"]), int(card["value"]))
        else:
            card = str(card.get("id", ""))
    if isinstance(card, str):
        parsed: Card | BlitzCard | None = None
        for parse in (Card.from_id, BlitzCard.from_id):
            try:
                parsed = parse(card)
                break
            except ValueError:
                continue
        if parsed is None:
            raise ValueError(f"{card!r} is no card id (expected e.g. 'QH', 'X1' or '2R5')")
        card = parsed
    if isinstance(card, BlitzCard):
        return f"dutch-blitz:{dutch_blitz.COLOUR_LETTERS[card.colour]}{card.value}"
    if card.is_joker:
        return "standard:X1" if (card.copy or 1) % 2 == 1 else "standard:X2"
    return f"standard:{RANK_NAMES[card.rank]}{card.suit}"


def back_key(deck: str, owner: int | None = None) -> str:
    """The key of a face-down card's back: the standard back, or Dutch Blitz seat *owner*'s deck back.

    Parameters
    ----------
    deck:
        ``"standard"`` or ``"dutch-blitz"``.
    owner:
        Dutch Blitz: the seat (0-based) whose deck the card is from; seat *i* has the back
        ``BACK_SYMBOLS[i % 4]`` (pump, carriage, pail, plow). Ignored for the standard deck.

    Raises
    ------
    ValueError
        An unknown deck, or a negative seat.
    """
    if deck == "standard":
        return "standard:back"
    if deck == "dutch-blitz":
        seat = owner or 0
        if seat < 0:
            raise ValueError(f"a seat is 0 or more, got {owner!r}")
        return f"dutch-blitz:back-{dutch_blitz.BACK_SYMBOLS[seat % len(dutch_blitz.BACK_SYMBOLS)]}"
    raise ValueError(f"deck {deck!r} must be 'standard' or 'dutch-blitz'")


def shown_key(card: Card | BlitzCard, *, face_up: bool) -> str:
    """The key of what a card shows: its face when *face_up*, else its deck's back (never its face).

    Parameters
    ----------
    card:
        The engine's card.
    face_up:
        Whether everyone who sees the emoji may see the card (``docs/design.md`` §6). A face-down
        Dutch Blitz card shows its owner's back, which the table shows anyway.
    """
    if face_up:
        return card_key(card)
    if isinstance(card, BlitzCard):
        return back_key("dutch-blitz", card.owner)
    return back_key("standard")


def is_our_emoji(name: str) -> bool:
    """Whether *name* follows Parlor's card emoji scheme (any art version): ``p<n>_std_…`` or ``p<n>_db_…``."""
    return _OURS.fullmatch(name) is not None


@dataclass(frozen=True)
class SyncPlan:
    """What a sync of the card emojis does (:func:`plan_sync`).

    Attributes
    ----------
    create:
        The keys whose emoji is missing, in :data:`EMOJI_KEYS` order.
    keep:
        ``(id, name)`` of our emojis of this version that stay.
    delete:
        ``(id, name)`` of our emojis to delete: another art version's, a name of ours no card has
        now, or a second emoji of one name.
    """

    create: tuple[str, ...]
    keep: tuple[tuple[int, str], ...]
    delete: tuple[tuple[int, str], ...]


def plan_sync(existing: Iterable[tuple[int, str]]) -> SyncPlan:
    """What to create, keep and delete given the application's emojis *existing* now.

    Emojis whose names are not of our scheme (:func:`is_our_emoji`) are the owner's and are left
    alone: neither kept nor deleted.

    Parameters
    ----------
    existing:
        ``(id, name)`` of every emoji the application has.

    Examples
    --------
    >>> plan = plan_sync([(1, "p1_std_qh"), (2, "p0_std_qh"), (3, "party_parrot")])
    >>> len(plan.create), plan.keep, plan.delete
    (98, ((1, 'p1_std_qh'),), ((2, 'p0_std_qh'),))
    """
    keep: dict[str, int] = {}
    delete: list[tuple[int, str]] = []
    for emoji_id, name in existing:
        if not is_our_emoji(name):
            continue
        if name in _KEY_OF_NAME and name not in keep:
            keep[name] = emoji_id
        else:
            delete.append((emoji_id, name))
    create = tuple(k for k in EMOJI_KEYS if emoji_name(k) not in keep)
    return SyncPlan(create, tuple((i, n) for n, i in keep.items()), tuple(delete))
