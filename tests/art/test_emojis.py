"""The cards as emojis (bot/art/emojis.py): names, files, hidden cards, hashes and the sync plan."""

from __future__ import annotations

import io
import re

import PIL
import pytest
from PIL import Image

from bot.art import (
    ART_DIGEST,
    ART_VERSION,
    EMOJI_KEYS,
    EMOJI_MAX_BYTES,
    art_digest,
    back_key,
    card_key,
    content_hash,
    emoji_name,
    emoji_png,
    is_our_emoji,
    plan_sync,
    shown_key,
)
from bot.art import deck as art_deck
from bot.art import emojis as art_emojis
from bot.art import standard as art_standard
from bot.engine.cards import Card, blitz_deck, standard_deck

DISCORD_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")


def test_emoji_names_follow_discords_rules_and_are_unique() -> None:
    """Every name is 2-32 characters of [A-Za-z0-9_], and no two cards share one."""
    names = [emoji_name(k) for k in EMOJI_KEYS]
    assert all(DISCORD_NAME.fullmatch(n) for n in names), names
    assert len(set(names)) == len(names)


def test_emoji_names_carry_the_art_version() -> None:
    """Every name starts with p<ART_VERSION>_ and is recognised as ours."""
    assert emoji_name("dutch-blitz:R8") == f"p{ART_VERSION}_db_r8"
    assert emoji_name("standard:QH") == f"p{ART_VERSION}_std_qh"
    assert all(emoji_name(k).startswith(f"p{ART_VERSION}_") and is_our_emoji(emoji_name(k)) for k in EMOJI_KEYS)


def test_unknown_key_has_no_emoji() -> None:
    """A key that is no card has no emoji name and no emoji."""
    for bad in ("standard:ZZ", "dutch-blitz:R0", "QH", ""):
        with pytest.raises(ValueError):
            emoji_name(bad)
        with pytest.raises(ValueError):
            emoji_png(bad)


def test_emoji_files_are_128_px_square_pngs_within_discords_limit() -> None:
    """Each emoji is a 128 x 128 RGBA PNG of at most 256 KB."""
    for key in EMOJI_KEYS:
        data = emoji_png(key)
        assert len(data) <= EMOJI_MAX_BYTES, key
        image = Image.open(io.BytesIO(data))
        assert (image.format, image.size, image.mode) == ("PNG", (128, 128), "RGBA"), key


def test_every_engine_card_has_the_key_of_its_face() -> None:
    """Each standard card (Jokers by copy) and each Dutch Blitz card of any seat maps to its picture's key."""
    standard = {card_key(c) for c in standard_deck(jokers=2)}
    assert standard == {k for k in EMOJI_KEYS if k.startswith("standard:") and k != "standard:back"}
    assert card_key(Card(0, None, 1)) == "standard:X1" and card_key(Card(0, None, 2)) == "standard:X2"
    assert card_key(Card(12, "H", 1)) == card_key("QH") == card_key({"id": "QH", "label": "Q♥"}) == "standard:QH"
    blitz = {card_key(c) for seat in (0, 5) for c in blitz_deck(seat)}
    assert blitz == {k for k in EMOJI_KEYS if k.startswith("dutch-blitz:") and "back" not in k}
    assert card_key("3G10") == card_key({"colour": "green", "value": 10}) == "dutch-blitz:G10"
    with pytest.raises(ValueError):
        card_key("stock")


def test_a_face_down_card_is_always_its_backs_emoji() -> None:
    """Face down, every card shows its deck's back (a Dutch Blitz card its owner's), never a face."""
    for card in standard_deck(jokers=2):
        assert shown_key(card, face_up=False) == back_key("standard") == "standard:back"
        assert shown_key(card, face_up=True) == card_key(card)
    for seat in range(8):
        backs = {shown_key(card, face_up=False) for card in blitz_deck(seat)}
        assert backs == {back_key("dutch-blitz", seat)}
    assert [back_key("dutch-blitz", s) for s in range(5)] == [
        "dutch-blitz:back-pump", "dutch-blitz:back-carriage", "dutch-blitz:back-pail", "dutch-blitz:back-plow",
        "dutch-blitz:back-pump"]


def test_content_hash_tells_a_changed_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hash is stable for one picture and changes when the picture does."""
    before = content_hash("standard:QH")
    assert content_hash("standard:QH") == before and content_hash("standard:QS") != before
    monkeypatch.setattr(art_standard, "GOLD", (240, 200, 120))  # the court cards' panel
    art_deck._drawn.cache_clear()
    try:
        assert content_hash("standard:QH") != before
    finally:
        monkeypatch.undo()
        art_deck._drawn.cache_clear()


def test_the_art_is_the_one_recorded_for_its_version() -> None:
    """art_digest() is ART_DIGEST: new art needs a new ART_VERSION (and ART_DIGEST) so a sync uploads it."""
    if PIL.__version__ != art_emojis.ART_DIGEST_PILLOW and art_digest() != ART_DIGEST:
        pytest.skip(f"ART_DIGEST was recorded with Pillow {art_emojis.ART_DIGEST_PILLOW}, this is "
                    f"{PIL.__version__}, whose glyphs may differ: record it anew with this Pillow")
    assert art_digest() == ART_DIGEST, (
        f"the card pictures changed (digest {art_digest()}): raise ART_VERSION in bot/art/emojis.py and "
        f"record ART_DIGEST = {art_digest()!r}")


def test_sync_plan_creates_the_missing_and_keeps_the_present() -> None:
    """With none there, every emoji is created; with all there, every one is kept and none created."""
    empty = plan_sync([])
    assert empty.create == EMOJI_KEYS and empty.keep == () and empty.delete == ()
    everything = [(i, emoji_name(k)) for i, k in enumerate(EMOJI_KEYS)]
    full = plan_sync(everything)
    assert full.create == () and full.keep == tuple(everything) and full.delete == ()


def test_sync_plan_deletes_other_versions_and_duplicates_but_not_the_owners() -> None:
    """Ours of another version, a stale name and a second copy go; names not of our scheme stay."""
    current = emoji_name("standard:QH")
    existing = [(1, current), (2, current), (3, "p0_std_qh"), (4, f"p{ART_VERSION + 1}_db_r8"),
                (5, f"p{ART_VERSION}_std_no_such_card"), (6, "party_parrot"), (7, "pump_2")]
    plan = plan_sync(existing)
    assert plan.keep == ((1, current),)
    assert {i for i, _ in plan.delete} == {2, 3, 4, 5}
    assert "standard:QH" not in plan.create and len(plan.create) == len(EMOJI_KEYS) - 1
