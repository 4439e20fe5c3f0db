"""The Dutch Blitz deck: red, blue, green and yellow 1–10, and the four player-deck backs.

A face (``docs/rules/dutch-blitz.md`` §1) shows its number large, in white edged in black on the
card's colour, and under it the colour's letter in the colour's own shape: **R** in a circle,
**B** in a square, **G** in a triangle, **Y** in a diamond, so that the colour never has to be
seen to be known. Beside the letter stands a boy (red and blue cards: a brimmed hat, trousers) or
a girl (green and yellow cards: a bonnet, a dress).

The backs of the four player decks carry a pump, a carriage, a pail or a plow, drawn from simple
shapes, with the word under it (``docs/art.md`` §1, §2).
"""

from __future__ import annotations

from PIL import Image

from bot.art.draw import ASPECT, Canvas, Colour, Shape

__all__ = ["COLOURS", "COLOUR_LETTERS", "COLOUR_SHAPES", "BACK_SYMBOLS", "draw_face", "draw_back"]

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
"""The colours in the engine's order (``bot.engine.cards.BLITZ_COLOURS``)."""

COLOUR_LETTERS: dict[str, str] = {"red": "R", "blue": "B", "yellow": "Y", "green": "G"}
"""A colour to the letter every card of it shows (the engine's initial, as in ``2R5``)."""

COLOUR_SHAPES: dict[str, str] = {"red": "circle", "blue": "square", "yellow": "diamond", "green": "triangle"}
"""A colour to the shape its letter stands in."""

BACK_SYMBOLS: tuple[str, ...] = ("pump", "carriage", "pail", "plow")
"""The symbols of the four player decks' backs, in seat order (seat *i* has ``BACK_SYMBOLS[i % 4]``)."""

FILL: dict[str, Colour] = {
    "red": (204, 40, 40),
    "blue": (30, 92, 192),
    "yellow": (242, 192, 16),
    "green": (36, 146, 66),
}
PAPER: Colour = (252, 251, 246)
EDGE: Colour = (88, 88, 96)
INK: Colour = (24, 24, 30)
WHITE: Colour = (255, 255, 255)
CREAM: Colour = (244, 234, 208)
BROWN: Colour = (112, 66, 30)

_H = ASPECT


def _badge(c: Canvas, colour: str, cx: float, cy: float) -> None:
    """The colour's letter in the colour's shape, white edged in ink, centred on (*cx*, *cy*)."""
    shape = COLOUR_SHAPES[colour]
    letter = COLOUR_LETTERS[colour]
    w = 0.024
    if shape == "circle":
        c.ellipse(cx, cy, 0.235, fill=WHITE, outline=INK, width=w)
        box = (cx - 0.14, cy - 0.14, cx + 0.14, cy + 0.14)
    elif shape == "square":
        c.rounded(cx - 0.215, cy - 0.215, cx + 0.215, cy + 0.215, 0.025, fill=WHITE, outline=INK, width=w)
        box = (cx - 0.15, cy - 0.15, cx + 0.15, cy + 0.15)
    elif shape == "triangle":
        pts = [(cx, cy - 0.29), (cx + 0.25, cy + 0.18), (cx - 0.25, cy + 0.18)]
        c.outlined([("poly", *[v for p in pts for v in p])], fill=WHITE, outline=INK, width=w / 2)
        box = (cx - 0.11, cy - 0.06, cx + 0.11, cy + 0.14)
    else:
        pts = [(cx, cy - 0.28), (cx + 0.25, cy), (cx, cy + 0.28), (cx - 0.25, cy)]
        c.outlined([("poly", *[v for p in pts for v in p])], fill=WHITE, outline=INK, width=w / 2)
        box = (cx - 0.11, cy - 0.11, cx + 0.11, cy + 0.11)
    c.text(letter, *box, fill=INK, stroke=0.012)


def _figure(boy: bool, cx: float, top: float) -> list[list[Shape]]:
    """A boy (brimmed hat, shirt, trousers) or a girl (bonnet, dress), 0.46 card units tall from *top*.

    Returns the figure as groups of shapes, each outlined on its own, in drawing order (the girl's
    face is a group of its own so that it shows inside her bonnet).
    """
    if boy:
        return [[
            ("rect", cx - 0.07, top, cx + 0.07, top + 0.07),  # the hat's crown
            ("rect", cx - 0.13, top + 0.06, cx + 0.13, top + 0.085),  # its brim
            ("circle", cx, top + 0.15, 0.062),
            ("poly", cx - 0.1, top + 0.22, cx + 0.1, top + 0.22, cx + 0.11, top + 0.34, cx - 0.11, top + 0.34),
            ("rect", cx - 0.1, top + 0.33, cx - 0.015, top + 0.46),
            ("rect", cx + 0.015, top + 0.33, cx + 0.1, top + 0.46),
        ]]
    return [
        [
            ("circle", cx, top + 0.115, 0.095),  # the bonnet
            ("poly", cx - 0.05, top + 0.19, cx + 0.05, top + 0.19, cx + 0.16, top + 0.42, cx - 0.16, top + 0.42),
            ("rect", cx - 0.075, top + 0.41, cx - 0.025, top + 0.46),
            ("rect", cx + 0.025, top + 0.41, cx + 0.075, top + 0.46),
        ],
        [("circle", cx, top + 0.135, 0.05)],  # the face
    ]


def draw_face(colour: str, number: int, height: int) -> Image.Image:
    """A Dutch Blitz face: *number* large on the card's colour, the colour's letter in its shape, a boy or a girl.

    Parameters
    ----------
    colour:
        One of :data:`COLOURS`.
    number:
        1 to 10.
    height:
        The picture's height in pixels; its width is ``round(height * 3 / 4)``.
    """
    c = Canvas(height)
    c.rounded(0.01, 0.01, 0.99, _H - 0.01, 0.09, fill=PAPER, outline=EDGE, width=0.022)
    c.rounded(0.06, 0.06, 0.94, _H - 0.06, 0.06, fill=FILL[colour])
    c.text(str(number), 0.1, 0.09, 0.9, 0.64, fill=WHITE, stroke=0.018, halo=0.05, halo_fill=INK)
    _badge(c, colour, 0.34, 0.97)
    for group in _figure(colour in ("red", "blue"), 0.77, 0.75):
        c.outlined(group, fill=WHITE, outline=INK, width=0.02)
    return c.finish()


def _symbol(symbol: str, cx: float, cy: float) -> list[Shape]:
    """The shapes of a back's *symbol*, about 0.7 card units wide, centred on (*cx*, *cy*)."""
    if symbol == "pump":
        return [
            ("rect", cx - 0.2, cy + 0.27, cx + 0.16, cy + 0.34),  # the base
            ("rect", cx - 0.09, cy - 0.2, cx + 0.07, cy + 0.28),  # the column
            ("rect", cx - 0.12, cy - 0.26, cx + 0.1, cy - 0.19),  # its cap
            ("poly", cx + 0.06, cy - 0.09, cx + 0.27, cy - 0.05, cx + 0.27, cy + 0.02, cx + 0.06, cy + 0.0),
            ("line", 0.045, cx - 0.06, cy - 0.22, cx - 0.3, cy - 0.36),  # the handle
            ("circle", cx - 0.3, cy - 0.36, 0.04),
            ("poly", cx + 0.24, cy + 0.07, cx + 0.27, cy + 0.13, cx + 0.24, cy + 0.16, cx + 0.21, cy + 0.13),  # a drop
        ]
    if symbol == "carriage":
        shapes: list[Shape] = [
            ("poly", cx - 0.3, cy - 0.02, cx + 0.14, cy - 0.02, cx + 0.1, cy + 0.14, cx - 0.26, cy + 0.14),  # body
            ("poly", cx - 0.3, cy - 0.02, cx - 0.3, cy - 0.24, cx - 0.22, cy - 0.3, cx - 0.02, cy - 0.3,
             cx + 0.04, cy - 0.02),  # the hood
            ("line", 0.03, cx + 0.12, cy + 0.04, cx + 0.36, cy - 0.04),  # the shaft
        ]
        for wx, wy, r in ((cx - 0.17, cy + 0.2, 0.15), (cx + 0.14, cy + 0.23, 0.12)):
            shapes += [("line", 0.035, wx - r, wy, wx + r, wy), ("line", 0.035, wx, wy - r, wx, wy + r)]
            ring = [(wx + r * x, wy + r * y) for x, y in _CIRCLE]
            shapes.append(("line", 0.04, *[v for p in [*ring, ring[0]] for v in p]))
        return shapes
    if symbol == "pail":
        handle = [(cx + 0.24 * x, cy - 0.18 + 0.24 * y) for x, y in _CIRCLE if y <= 0.01]
        return [
            ("line", 0.035, *[v for p in handle for v in p]),
            ("poly", cx - 0.26, cy - 0.18, cx + 0.26, cy - 0.18, cx + 0.19, cy + 0.32, cx - 0.19, cy + 0.32),
            ("band", cx - 0.245, cy - 0.07, cx + 0.245, cy - 0.045),  # hoops, in the back's cream
            ("band", cx - 0.215, cy + 0.17, cx + 0.215, cy + 0.195),
        ]
    if symbol == "plow":
        return [
            ("line", 0.045, cx - 0.06, cy + 0.06, cx - 0.32, cy - 0.3),  # the handles
            ("line", 0.045, cx + 0.04, cy + 0.04, cx - 0.2, cy - 0.32),
            ("line", 0.05, cx - 0.12, cy + 0.04, cx + 0.3, cy + 0.04),  # the beam
            ("poly", cx - 0.14, cy + 0.02, cx + 0.06, cy + 0.02, cx + 0.2, cy + 0.3, cx - 0.22, cy + 0.3),  # the share
            ("circle", cx + 0.3, cy + 0.18, 0.1),  # the wheel
        ]
    raise ValueError(f"a Dutch Blitz back's symbol must be one of {BACK_SYMBOLS}, got {symbol!r}")


_CIRCLE: list[tuple[float, float]] = []
"""The unit circle as 48 points, clockwise from east (for rings and arcs drawn as polylines)."""


def _unit_circle() -> None:
    import math

    for i in range(48):
        t = 2 * math.pi * i / 48
        _CIRCLE.append((math.cos(t), math.sin(t)))


_unit_circle()


def draw_back(symbol: str, height: int) -> Image.Image:
    """The back of one player's deck: its *symbol* in brown on cream, and the symbol's name.

    Parameters
    ----------
    symbol:
        One of :data:`BACK_SYMBOLS`.
    height:
        The picture's height in pixels.
    """
    c = Canvas(height)
    c.rounded(0.01, 0.01, 0.99, _H - 0.01, 0.09, fill=PAPER, outline=EDGE, width=0.022)
    c.rounded(0.06, 0.06, 0.94, _H - 0.06, 0.06, fill=CREAM, outline=BROWN, width=0.03)
    c.rounded(0.1, 0.1, 0.9, _H - 0.1, 0.04, outline=BROWN, width=0.012)
    shapes = _symbol(symbol, 0.5, 0.58)
    for kind, *v in shapes:  # one colour: each part as it is; a band is a cream stripe across the parts
        if kind == "band":
            c.rect(*v, fill=CREAM)
        else:
            c.outlined([(kind, *v)], fill=BROWN, outline=BROWN, width=0.0)
    c.text(symbol.upper(), 0.16, 1.02, 0.84, 1.16, fill=BROWN, stroke=0.006)
    return c.finish()
