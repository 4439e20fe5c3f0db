"""The card pictures (bot/art): every card drawn, readable without colour, the same every time."""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from bot.art import (
    CARD_HEIGHT,
    DECKS,
    EMOJI_KEYS,
    KEYS,
    card_back,
    card_image,
    deck_keys,
    dutch_blitz_card,
    emoji_image,
    emoji_png,
    joker,
    standard_card,
)
from bot.art import deck as art_deck
from bot.art import dutch_blitz as art_dutch_blitz

ROOT = Path(__file__).resolve().parents[2]

MIN_DISTINCT_PIXELS = 100
"""Two emojis (128 × 128) must differ in grey level by more than GREY_STEP on at least this many pixels."""

GREY_STEP = 32


def distinct_pixels(a: Image.Image, b: Image.Image) -> int:
    """How many pixels of *a* and *b*, both turned grey ('L'), differ by more than GREY_STEP levels."""
    diff = ImageChops.difference(a.convert("L"), b.convert("L"))
    return sum(diff.point(lambda v: 255 if v > GREY_STEP else 0).histogram()[255:])


def test_the_bundled_font_is_scalable() -> None:
    """Pillow's own font scales (Pillow >= 10.1): the art needs no system or downloaded font."""
    small, large = ImageFont.load_default(size=12), ImageFont.load_default(size=96)
    assert isinstance(large, ImageFont.FreeTypeFont)
    assert large.getbbox("10")[3] > 4 * small.getbbox("10")[3]


def test_both_decks_have_every_card() -> None:
    """55 standard pictures (52, two Jokers, the back) and 44 Dutch Blitz ones (40, four backs), all distinct keys."""
    assert len(deck_keys("standard")) == 55 and len(deck_keys("dutch-blitz")) == 44
    assert len(set(KEYS)) == len(KEYS) == 99 and set(EMOJI_KEYS) == set(KEYS)
    assert set(DECKS) == {"standard", "dutch-blitz"}


def test_every_card_is_drawn_at_the_asked_size() -> None:
    """Each key draws an RGBA picture 3:4, with (nearly) transparent corners and an opaque middle."""
    for key in KEYS:
        image = card_image(key, height=64)
        assert image.mode == "RGBA" and image.size == (48, 64), key
        assert image.getpixel((0, 0))[3] <= 8 and image.getpixel((24, 32))[3] == 255, key


def test_the_named_functions_draw_the_keyed_cards() -> None:
    """standard_card, joker, dutch_blitz_card and card_back give the pictures of their keys."""
    pairs = [
        (standard_card("Q", "♥"), "standard:QH"), (standard_card("10", "s"), "standard:10S"),
        (joker("red"), "standard:X1"), (joker("black"), "standard:X2"), (card_back("standard"), "standard:back"),
        (dutch_blitz_card("red", 8), "dutch-blitz:R8"), (dutch_blitz_card("yellow", 10), "dutch-blitz:Y10"),
        (card_back("dutch-blitz", "plow"), "dutch-blitz:back-plow"),
    ]
    for image, key in pairs:
        assert image.tobytes() == card_image(key).tobytes(), key
        assert image.size == (126, CARD_HEIGHT)


@pytest.mark.parametrize("call", [
    lambda: standard_card("11", "S"), lambda: standard_card("Q", "X"), lambda: joker("blue"),
    lambda: dutch_blitz_card("purple", 3), lambda: dutch_blitz_card("red", 11), lambda: dutch_blitz_card("red", 0),
    lambda: card_back("dutch-blitz", "tractor"), lambda: card_back("standard", "pump"), lambda: card_back("uno"),
    lambda: card_image("standard:QH", height=4), lambda: card_image("dutch-blitz:R11"), lambda: deck_keys("uno"),
])
def test_bad_card_is_refused(call) -> None:
    """A card, deck, symbol or size that does not exist is refused with ValueError."""
    with pytest.raises(ValueError):
        call()


def test_a_returned_picture_is_the_callers_own() -> None:
    """Drawing on a returned picture does not change the next one (the cache hands out copies)."""
    first = card_image("standard:AS")
    first.paste((255, 0, 0, 255), (0, 0, 126, 168))
    assert card_image("standard:AS").tobytes() != first.tobytes()


def test_no_two_emojis_differ_by_colour_alone() -> None:
    """In grey, every pair of the 99 emojis still differs on at least MIN_DISTINCT_PIXELS pixels."""
    greys = {key: emoji_image(key).convert("L") for key in EMOJI_KEYS}
    closest = min((distinct_pixels(greys[a], greys[b]), a, b) for a, b in itertools.combinations(EMOJI_KEYS, 2))
    assert closest[0] >= MIN_DISTINCT_PIXELS, f"{closest[1]} and {closest[2]} differ on {closest[0]} grey pixels"


def test_the_grey_check_catches_a_colour_only_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A red card drawn blue, or green, is too close in grey to pass (the check above can fail)."""
    red = art_dutch_blitz.draw_face("red", 5, 128)
    for other in ("blue", "green"):
        monkeypatch.setitem(art_dutch_blitz.FILL, "red", art_dutch_blitz.FILL[other])
        assert distinct_pixels(red, art_dutch_blitz.draw_face("red", 5, 128)) < MIN_DISTINCT_PIXELS


def test_each_dutch_blitz_colour_has_its_own_letter_and_shape() -> None:
    """R, B, Y, G and circle, square, diamond, triangle: four letters and four shapes."""
    assert art_dutch_blitz.COLOUR_LETTERS == {"red": "R", "blue": "B", "yellow": "Y", "green": "G"}
    assert len(set(art_dutch_blitz.COLOUR_SHAPES.values())) == 4


def test_the_same_card_gives_the_same_png_bytes() -> None:
    """Drawn again from scratch (caches emptied), every emoji's PNG is byte for byte the same."""
    before = {key: emoji_png(key) for key in EMOJI_KEYS}
    emoji_png.cache_clear()
    art_deck._drawn.cache_clear()
    assert {key: emoji_png(key) for key in EMOJI_KEYS} == before


def test_another_process_draws_the_same_bytes() -> None:
    """A fresh interpreter (another hash seed) writes the same PNG bytes for every emoji."""
    code = ("import hashlib; from bot.art import EMOJI_KEYS, emoji_png; "
            "print(hashlib.sha256(b''.join(emoji_png(k) for k in EMOJI_KEYS)).hexdigest())")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"})
    assert proc.returncode == 0, proc.stderr
    here = hashlib.sha256(b"".join(emoji_png(k) for k in EMOJI_KEYS)).hexdigest()
    assert proc.stdout.strip() == here
