"""Drawing primitives of the card art: a supersampled canvas, Pillow's own font, shapes.

Every card is drawn on a :class:`Canvas` :data:`SUPERSAMPLE` times larger than the picture asked
for and then reduced by averaging each square of SUPERSAMPLE × SUPERSAMPLE pixels (``Image.reduce``),
which gives the polygons and ellipses (which Pillow draws without anti-aliasing) smooth edges; a
Lanczos filter looked no better and took twice as long (``bench/render.py``). Coordinates given
to a canvas are in *card units*: the card is 1.0 wide and :data:`ASPECT` high, so a drawing does
not depend on the size it is drawn at.

The only font is the one that ships with Pillow (``ImageFont.load_default(size=...)``, a scalable
font since Pillow 10.1): no system font and no downloaded font is ever read, so the same card
gives the same pixels on every machine with the same Pillow (``docs/art.md`` §3).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

__all__ = ["ASPECT", "SUPERSAMPLE", "Canvas", "Colour", "Shape", "font", "heart_points", "star_points"]

ASPECT = 4 / 3
"""A card's height over its width (3:4, a little wider than a poker card so that it reads as an emoji)."""

SUPERSAMPLE = 4
"""How many times larger than the asked picture a card is drawn before it is reduced."""

Colour = tuple[int, int, int] | tuple[int, int, int, int]
"""An RGB or RGBA colour, each channel 0–255."""

Point = tuple[float, float]

Shape = tuple[Any, ...]
"""A part of a figure for :meth:`Canvas.outlined`: a kind (``"circle"``, ``"rect"``, ``"poly"``,
``"line"``) followed by its numbers in card units."""


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at *size* pixels (cached: loading it costs ~1 ms).

    Parameters
    ----------
    size:
        The font size in pixels of the drawing canvas (em size), at least 1.
    """
    return ImageFont.load_default(size=max(1, size))


class Canvas:
    """A card-sized RGBA drawing surface in card units, supersampled.

    Parameters
    ----------
    height:
        The height in pixels of the finished picture (>= 8). Its width is ``round(height / ASPECT)``.
    """

    def __init__(self, height: int) -> None:
        if height < 8:
            raise ValueError(f"a card is at least 8 px high, got {height}")
        self.height = height
        self.width = round(height / ASPECT)
        self.scale = self.width * SUPERSAMPLE
        """Canvas pixels per card unit (the card is 1.0 unit wide)."""
        self.image = Image.new("RGBA", (self.width * SUPERSAMPLE, self.height * SUPERSAMPLE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def px(self, value: float) -> int:
        """*value* card units in canvas pixels (at least 1)."""
        return max(1, round(value * self.scale))

    def xy(self, x: float, y: float) -> tuple[float, float]:
        """A point in card units as canvas pixels."""
        return (x * self.scale, y * self.scale)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A box in card units as canvas pixels."""
        return (x0 * self.scale, y0 * self.scale, x1 * self.scale, y1 * self.scale)

    def rounded(self, x0: float, y0: float, x1: float, y1: float, radius: float, *, fill: Colour | None = None,
                outline: Colour | None = None, width: float = 0.0) -> None:
        """A rounded rectangle; *radius* and the outline's *width* in card units."""
        self.draw.rounded_rectangle(self.box(x0, y0, x1, y1), radius=self.px(radius), fill=fill, outline=outline,
                                    width=self.px(width) if outline is not None and width > 0 else 0)

    def rect(self, x0: float, y0: float, x1: float, y1: float, *, fill: Colour | None = None,
             outline: Colour | None = None, width: float = 0.0) -> None:
        """A rectangle in card units."""
        self.draw.rectangle(self.box(x0, y0, x1, y1), fill=fill, outline=outline,
                            width=self.px(width) if outline is not None and width > 0 else 0)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float | None = None, *, fill: Colour | None = None,
                outline: Colour | None = None, width: float = 0.0) -> None:
        """An ellipse centred on (*cx*, *cy*) with radii *rx*, *ry* (default *rx*), in card units."""
        ry = rx if ry is None else ry
        self.draw.ellipse(self.box(cx - rx, cy - ry, cx + rx, cy + ry), fill=fill, outline=outline,
                          width=self.px(width) if outline is not None and width > 0 else 0)

    def polygon(self, points: Sequence[Point], *, fill: Colour | None = None, outline: Colour | None = None,
                width: float = 0.0) -> None:
        """A polygon through *points* (card units)."""
        pts = [self.xy(x, y) for x, y in points]
        self.draw.polygon(pts, fill=fill, outline=outline,
                          width=self.px(width) if outline is not None and width > 0 else 0)

    def line(self, points: Sequence[Point], *, fill: Colour, width: float, round_ends: bool = True) -> None:
        """A polyline through *points*, *width* card units thick, with round joints and ends."""
        pts = [self.xy(x, y) for x, y in points]
        w = self.px(width)
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if round_ends:
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=fill)

    def arc(self, cx: float, cy: float, r: float, start: float, end: float, *, fill: Colour, width: float) -> None:
        """A circular arc centred on (*cx*, *cy*), radius *r*, from *start* to *end* degrees (clockwise from east)."""
        self.draw.arc(self.box(cx - r, cy - r, cx + r, cy + r), start, end, fill=fill, width=self.px(width))

    def text(self, text: str, x0: float, y0: float, x1: float, y1: float, *, fill: Colour,
             stroke: float = 0.0, stroke_fill: Colour | None = None, halo: float = 0.0,
             halo_fill: Colour | None = None) -> None:
        """*text* as large as fits the box, centred in it by its ink (not by the font's line box).

        Parameters
        ----------
        text:
            What to write (one line).
        x0, y0, x1, y1:
            The box, in card units.
        fill:
            The letters' colour.
        stroke:
            The width of an outline around the letters, in card units (0: none). With *stroke_fill*
            unset the outline has the letters' colour, which makes them bolder.
        stroke_fill:
            The outline's colour.
        halo:
            The width (card units) of a second, wider outline drawn under the first in *halo_fill*:
            bold white digits edged in black are ``stroke`` white and ``halo`` black.
        halo_fill:
            The halo's colour (default: the letters').
        """
        box_w, box_h = (x1 - x0) * self.scale, (y1 - y0) * self.scale
        sw = self.px(stroke) if stroke > 0 else 0
        hw = self.px(halo) if halo > 0 else 0
        f = font(_fitting_size(text, box_w, box_h, max(sw, hw)))
        left, top, right, bottom = f.getbbox(text)
        cx, cy = (x0 + x1) / 2 * self.scale, (y0 + y1) / 2 * self.scale
        origin = (cx - (left + right) / 2, cy - (top + bottom) / 2)
        if hw:
            colour = fill if halo_fill is None else halo_fill
            self.draw.text(origin, text, font=f, fill=colour, stroke_width=hw, stroke_fill=colour)
        self.draw.text(origin, text, font=f, fill=fill, stroke_width=sw,
                       stroke_fill=fill if stroke_fill is None else stroke_fill)

    def outlined(self, shapes: Sequence[Shape], *, fill: Colour, outline: Colour, width: float) -> None:
        """*shapes* filled with *fill* as one figure, with an *outline* *width* card units thick around it all.

        The outline is drawn first as every shape grown by *width*, then every shape in *fill* on top,
        so that the parts of a figure (a head on a body) have no outline between them.

        Parameters
        ----------
        shapes:
            ``("circle", cx, cy, r)``, ``("rect", x0, y0, x1, y1)`` or ``("poly", x0, y0, x1, y1, ...)``
            in card units; ``("line", width, x0, y0, x1, y1, ...)`` is a polyline that thick.
        fill, outline:
            The figure's colour and its outline's.
        width:
            The outline's width in card units.
        """
        for grow, colour in ((width, outline), (0.0, fill)):
            for kind, *v in shapes:
                if kind == "circle":
                    self.ellipse(v[0], v[1], v[2] + grow, fill=colour)
                elif kind == "rect":
                    self.rect(v[0] - grow, v[1] - grow, v[2] + grow, v[3] + grow, fill=colour)
                elif kind == "poly":
                    pts = list(zip(v[0::2], v[1::2], strict=True))
                    self.polygon(pts, fill=colour)
                    if grow:
                        self.line([*pts, pts[0]], fill=colour, width=2 * grow)
                elif kind == "line":
                    pts = list(zip(v[1::2], v[2::2], strict=True))
                    self.line(pts, fill=colour, width=v[0] + 2 * grow)
                else:
                    raise ValueError(f"unknown shape {kind!r}")

    def finish(self) -> Image.Image:
        """The finished picture, RGBA: the canvas reduced to ``(width, height)`` pixels, each the mean of its square."""
        return self.image.reduce(SUPERSAMPLE)


@functools.cache
def _fitting_size(text: str, box_w: float, box_h: float, stroke: int) -> int:
    """The largest font size (px) at which *text*'s ink, with a *stroke* px outline, fits *box_w* × *box_h* px."""
    lo, hi = 1, max(2, int(box_h * 2.5))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        left, top, right, bottom = font(mid).getbbox(text, stroke_width=stroke)
        if right - left <= box_w and bottom - top <= box_h:
            lo = mid
        else:
            hi = mid - 1
    return lo


def heart_points(cx: float, cy: float, height: float, *, flip: bool = False, steps: int = 96) -> list[Point]:
    """The outline of a heart (the classic parametric curve) centred on (*cx*, *cy*), *height* tall.

    With *flip* the heart points up (the body of a spade).
    """
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    ys = [y for _, y in raw]
    y_mid = (max(ys) + min(ys)) / 2
    k = height / (max(ys) - min(ys))
    return [(cx + x * k, cy + ((-(y - y_mid)) if flip else (y - y_mid)) * k) for x, y in raw]


def star_points(cx: float, cy: float, r: float, *, points: int = 5, inner: float = 0.45) -> list[Point]:
    """A star with *points* tips, outer radius *r* and inner radius ``inner * r``, one tip up."""
    out = []
    for i in range(points * 2):
        angle = -math.pi / 2 + i * math.pi / points
        radius = r if i % 2 == 0 else r * inner
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out
