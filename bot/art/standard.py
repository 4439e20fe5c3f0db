"""The standard deck: 52 cards, a red and a black Joker, and the back (``docs/art.md`` §1, §2).

A face shows its rank large over its suit large, so that both read at emoji size (22–48 px).
The suits differ by shape; the red ones (hearts, diamonds) also have a thin red frame inside the
card's edge, so a red card is told from a black one without seeing red. Jacks, Queens and Kings
have their letter on a pale gold panel.
"""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageDraw

from bot.art.draw import ASPECT, Canvas, Colour, heart_points, star_points

__all__ = ["RANKS", "SUITS", "SUIT_OF_SYMBOL", "draw_face", "draw_joker", "draw_back", "suit_shape"]

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names as the engine names them (``bot.engine.cards.RANK_NAMES``)."""

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit letters as the engine names them: spades, hearts, diamonds, clubs."""

SUIT_OF_SYMBOL: dict[str, str] = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
"""A suit symbol to its letter (the functions take either)."""

PAPER: Colour = (252, 251, 246)
EDGE: Colour = (88, 88, 96)
RED: Colour = (198, 22, 40)
BLACK: Colour = (26, 26, 32)
GOLD: Colour = (246, 226, 158)
NAVY: Colour = (30, 52, 92)
NAVY_LIGHT: Colour = (74, 104, 156)

_H = ASPECT  # the card's height in card units (its width is 1)


def _card_body(c: Canvas, *, red: bool) -> None:
    """The card: paper, a grey edge, and for a red card the red frame inside it."""
    c.rounded(0.01, 0.01, 0.99, _H - 0.01, 0.09, fill=PAPER, outline=EDGE, width=0.022)
    if red:
        c.rounded(0.055, 0.055, 0.945, _H - 0.055, 0.06, outline=RED, width=0.026)


def suit_shape(c: Canvas, suit: str, cx: float, cy: float, size: float, colour: Colour) -> None:
    """Draws the shape of *suit* (``S``, ``H``, ``D``, ``C``), *size* card units tall, centred on (*cx*, *cy*)."""
    s = size
    if suit == "H":
        c.polygon(heart_points(cx, cy, s * 0.92), fill=colour)
    elif suit == "D":
        pts = []
        for i in range(64):  # a rhombus with slightly hollow sides
            t = 2 * math.pi * i / 64
            x, y = math.cos(t), math.sin(t)
            k = 2.15
            pts.append((cx + 0.4 * s * math.copysign(abs(x) ** k, x), cy + 0.5 * s * math.copysign(abs(y) ** k, y)))
        c.polygon(pts, fill=colour)
    elif suit == "S":
        body_h = s * 0.78
        c.polygon(heart_points(cx, cy - s * 0.5 + body_h / 2, body_h, flip=True), fill=colour)
        c.polygon([(cx - s * 0.04, cy + s * 0.1), (cx + s * 0.04, cy + s * 0.1),
                   (cx + s * 0.2, cy + s * 0.5), (cx - s * 0.2, cy + s * 0.5)], fill=colour)
    elif suit == "C":
        r = s * 0.215
        c.ellipse(cx, cy - s * 0.5 + r, r, fill=colour)
        c.ellipse(cx - s * 0.235, cy - s * 0.01, r, fill=colour)
        c.ellipse(cx + s * 0.235, cy - s * 0.01, r, fill=colour)
        c.ellipse(cx, cy - s * 0.1, r * 0.6, fill=colour)
        c.polygon([(cx - s * 0.035, cy - s * 0.05), (cx + s * 0.035, cy - s * 0.05),
                   (cx + s * 0.16, cy + s * 0.5), (cx - s * 0.16, cy + s * 0.5)], fill=colour)
    else:
        raise ValueError(f"suit {suit!r} must be one of {SUITS}")


def draw_face(rank: str, suit: str, height: int) -> Image.Image:
    """A face of the standard deck: *rank* large over the shape of *suit* large.

    Parameters
    ----------
    rank:
        One of :data:`RANKS`.
    suit:
        One of :data:`SUITS`.
    height:
        The picture's height in pixels; its width is ``round(height * 3 / 4)``.
    """
    red = suit in ("H", "D")
    ink = RED if red else BLACK
    c = Canvas(height)
    _card_body(c, red=red)
    if rank in ("J", "Q", "K"):
        c.rounded(0.13, 0.1, 0.87, 0.65, 0.06, fill=GOLD, outline=ink, width=0.02)
        c.text(rank, 0.18, 0.145, 0.82, 0.605, fill=ink, stroke=0.02)
    else:
        c.text(rank, 0.1, 0.09, 0.9, 0.62, fill=ink, stroke=0.022 if rank != "10" else 0.018)
    suit_shape(c, suit, 0.5, 0.975, 0.52, ink)
    return c.finish()


def draw_joker(colour: str, height: int) -> Image.Image:
    """A Joker: a star over the word JOKER; the red one in red with the red frame of red cards.

    Parameters
    ----------
    colour:
        ``"red"`` or ``"black"``.
    height:
        The picture's height in pixels.
    """
    red = colour == "red"
    ink = RED if red else BLACK
    c = Canvas(height)
    _card_body(c, red=red)
    c.polygon(star_points(0.5, 0.5, 0.36, inner=0.42), fill=ink)
    c.ellipse(0.5, 0.52, 0.07, fill=GOLD)
    c.text("JOKER", 0.12, 0.96, 0.88, 1.18, fill=ink, stroke=0.008)
    return c.finish()


def draw_back(height: int) -> Image.Image:
    """The back of the standard deck: a navy lattice around a gold medallion with a ``P`` (Parlor).

    Parameters
    ----------
    height:
        The picture's height in pixels.
    """
    c = Canvas(height)
    c.rounded(0.01, 0.01, 0.99, _H - 0.01, 0.09, fill=PAPER, outline=EDGE, width=0.022)
    c.rounded(0.07, 0.07, 0.93, _H - 0.07, 0.05, fill=NAVY)
    lattice = Image.new("RGBA", c.image.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(lattice)
    step = 0.14 * c.scale
    w, h = c.image.size
    for i in range(int((w + 2 * h) / step) + 1):  # diagonals both ways, across the whole canvas
        k = -h + i * step
        d.line([(k, 0), (k + h, h)], fill=NAVY_LIGHT, width=c.px(0.018))
        d.line([(k + h, 0), (k, h)], fill=NAVY_LIGHT, width=c.px(0.018))
    mask = Image.new("L", c.image.size, 0)  # the lattice only inside the navy panel's inner edge
    ImageDraw.Draw(mask).rounded_rectangle(c.box(0.1, 0.1, 0.9, _H - 0.1), radius=c.px(0.04), fill=255)
    lattice.putalpha(ImageChops.multiply(lattice.getchannel("A"), mask))
    c.image.alpha_composite(lattice)
    c.ellipse(0.5, _H / 2, 0.27, fill=GOLD, outline=NAVY, width=0.03)
    c.text("P", 0.34, _H / 2 - 0.16, 0.66, _H / 2 + 0.16, fill=NAVY, stroke=0.014)
    return c.finish()
