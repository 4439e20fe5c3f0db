"""A sheet of every card of a deck, for the gallery (``docs/gallery/``) and for looking at the art."""

from __future__ import annotations

import io

from PIL import Image

from bot.art.deck import CARD_HEIGHT, card_image, deck_keys

__all__ = ["FELT", "art_sheet", "picture_png"]

FELT = (38, 94, 66, 255)
"""The sheet's background: a card table's green felt."""

_COLUMNS = {"standard": 13, "dutch-blitz": 10}


def art_sheet(deck: str, *, card_height: int = CARD_HEIGHT, gap: int = 10) -> Image.Image:
    """Every card of *deck* on green felt, one suit or colour a row, the Jokers and backs on the last row.

    Parameters
    ----------
    deck:
        ``"standard"`` (13 columns, 5 rows: 52 cards, the red and the black Joker, the back) or
        ``"dutch-blitz"`` (10 columns, 5 rows: 40 cards and the four backs).
    card_height:
        Each card's height in pixels (8–2048; width ``round(card_height * 3 / 4)``).
    gap:
        Pixels between the cards and around them (0 or more).

    Returns
    -------
    PIL.Image.Image
        An opaque RGB picture (the felt behind the cards' rounded corners).

    Raises
    ------
    ValueError
        An unknown deck, a bad height, or a negative gap.

    Examples
    --------
    >>> art_sheet("dutch-blitz", card_height=40, gap=4).size
    (344, 224)
    """
    keys = deck_keys(deck)
    if gap < 0:
        raise ValueError(f"the gap is 0 px or more, got {gap}")
    columns = _COLUMNS[deck]
    first = card_image(keys[0], height=card_height)
    w, h = first.size
    faces, rest = keys[: 4 * columns], keys[4 * columns:]
    rows = [faces[i:i + columns] for i in range(0, len(faces), columns)] + [rest]
    sheet = Image.new("RGBA", (gap + columns * (w + gap), gap + len(rows) * (h + gap)), FELT)
    for r, row in enumerate(rows):
        for col, key in enumerate(row):
            sheet.alpha_composite(card_image(key, height=card_height), (gap + col * (w + gap), gap + r * (h + gap)))
    return sheet.convert("RGB")


def picture_png(image: Image.Image) -> bytes:
    """*image* as a small PNG for sending or storing: reduced to a 256-colour palette, then compressed.

    The art is flat colour with thin anti-aliased edges, which 256 colours keep: a sheet's PNG is a
    quarter of its true-colour size and twice as fast to write (``bench/render.py``). The same
    picture always gives the same bytes with the same Pillow.

    Parameters
    ----------
    image:
        An RGB or RGBA picture.

    Returns
    -------
    bytes
        The PNG file.
    """
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()
