"""Every table message as one Components V2 layout: the one renderer (``docs/tables.md``, "Message layouts").

:func:`render` turns what the game UIs already give — a text (its first line, or an explicit
header, becomes the header) and the message's buttons and menus — into a
:class:`discord.ui.LayoutView`: one :class:`~discord.ui.Container` in the game's accent colour
(:attr:`bot.engine.game.Game.accent`) holding

1. the header :class:`~discord.ui.TextDisplay` (``### game — table #N · hand or round, target``);
2. a :class:`~discord.ui.Section` per seat (:class:`~bot.tables.seats.SeatPanel`: name, counts,
   lives or points, whose-turn mark) with the player's avatar as its
   :class:`~discord.ui.Thumbnail` (Discord wants an accessory on a Section; the message layer
   resolves the avatars). A seat without an avatar, or seats that would take the layout over 40
   components, are written as one TextDisplay of their lines instead — never an error;
3. a :class:`~discord.ui.Separator`, then the body text, one TextDisplay per paragraph (blank-line
   separated) with separators between them while the 40-component budget allows;
4. optionally a :class:`~discord.ui.MediaGallery` of uploaded pictures (:class:`Media`, the hook
   for moment pictures: the caller uploads ``discord.File(..., filename=media.filename)`` with the
   same message);
5. a separator and the buttons in :class:`~discord.ui.ActionRow` s grouped by what they do
   (:data:`GROUPS`: the player's cards, the table's piles, actions), in that order.

Discord's V2 limits (40 components counting nested ones, 4,000 characters of text) are checked
here; a layout over them raises :class:`~bot.tables.board.LimitError` (nothing is cut silently,
``docs/design.md`` §5). The view is stopped: every button is a registered
:class:`discord.ui.DynamicItem`, so discord.py need not keep it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import GAMES
from bot.tables.board import GROUPS, ROW_WIDTH, LimitError
from bot.tables.seats import SeatPanel

__all__ = ["render", "Media", "accent_of", "GROUPS", "DEFAULT_ACCENT", "V2_COMPONENTS_MAX", "V2_TEXT_MAX",
           "Grouped", "SeatPanel"]

V2_COMPONENTS_MAX = 40
"""Components of one V2 message, nested ones counted (Discord)."""
V2_TEXT_MAX = 4000
"""Characters of all TextDisplays of one V2 message together (Discord)."""
GALLERY_ITEMS_MAX = 10
"""Items of one MediaGallery (Discord)."""
DEFAULT_ACCENT = 0x5865F2
"""The accent colour of a game that declares none (Discord's blurple)."""


@dataclass(frozen=True)
class Media:
    """One picture shown in the layout's MediaGallery.

    Attributes
    ----------
    filename:
        The name of a file uploaded with the same message (``attachment://<filename>``).
    description:
        Its alt text (≤ 1,024 characters); it must never name a card the viewer may not see.
    """

    filename: str
    description: str = ""


@dataclass(frozen=True)
class Grouped:
    """A Discord component (button or select, usually a DynamicItem) with the group it belongs to
    (one of :data:`GROUPS`) and the row a game asked for (``None``: the group's next row with room).
    """

    item: discord.ui.Item[Any]
    group: str = "actions"
    row: int | None = None


def accent_of(kind: str) -> int:
    """The accent colour (``0xRRGGBB``) of game *kind*: its declared ``accent``, else :data:`DEFAULT_ACCENT`."""
    game = GAMES.get(kind)
    return getattr(game, "accent", DEFAULT_ACCENT) if game is not None else DEFAULT_ACCENT


def _width(item: discord.ui.Item[Any]) -> int:
    inner = getattr(item, "item", item)  # a DynamicItem's Discord component
    return ROW_WIDTH if isinstance(inner, discord.ui.Select) else 1


def _rows(items: Sequence[Grouped]) -> list[list[discord.ui.Item[Any]]]:
    """*items* as action rows: ordered by group (:data:`GROUPS`), then by the row each asked for;
    a new row when the group or the asked row changes, or the row is full (5 buttons or a menu).
    """
    order = {g: i for i, g in enumerate(GROUPS)}
    keyed = sorted(enumerate(items), key=lambda p: (order.get(p[1].group, len(GROUPS)),
                                                     p[1].row if p[1].row is not None else -1, p[0]))
    rows: list[list[discord.ui.Item[Any]]] = []
    last: tuple[str, int | None] | None = None
    used = 0
    for _, g in keyed:
        width = _width(g.item)
        if not rows or (g.group, g.row) != last or used + width > ROW_WIDTH:
            rows.append([])
            used = 0
        rows[-1].append(g.item)
        used += width
        last = (g.group, g.row)
    return rows


def _paragraphs(body: str) -> list[str]:
    return [p.strip("\n") for p in body.split("\n\n") if p.strip()]


def _seat_sections(seats: Sequence[SeatPanel]) -> list[discord.ui.Item[Any]]:
    """One Section per seat: its text beside its avatar (a Thumbnail described by the seat's name)."""
    return [discord.ui.Section(discord.ui.TextDisplay(seat.text),
                               accessory=discord.ui.Thumbnail(seat.avatar or "", description=seat.name or None))
            for seat in seats]


def render(text: str, items: Sequence[Grouped | discord.ui.Item[Any]] = (), *, accent: int = DEFAULT_ACCENT,
           header: str | None = None, media: Sequence[Media] = (),
           seats: Sequence[SeatPanel] = ()) -> discord.ui.LayoutView:
    """The Components V2 layout of one table message (see the module's documentation).

    Parameters
    ----------
    text:
        The message's text (Discord markdown). Without *header*, its first line is the header.
    items:
        The buttons and select menus, bare (group ``actions``) or :class:`Grouped`.
    accent:
        The container's accent colour, ``0xRRGGBB`` (:func:`accent_of`).
    header:
        The header line; ``None`` takes *text*'s first line.
    media:
        Pictures uploaded with the message, shown in a MediaGallery (≤ 10).
    seats:
        The seats, drawn under the header as one Section each (their text and avatar), or as one
        TextDisplay of their lines when a seat has no avatar or the Sections do not fit 40 components.
        *text* must not hold their lines too.

    Returns
    -------
    discord.ui.LayoutView
        Stopped (nothing to listen for: the buttons are registered DynamicItems).

    Raises
    ------
    LimitError
        Over 4,000 characters of text, more than 10 pictures, or more than 40 components even with
        the seats and the body each in one TextDisplay and no separators (``docs/design.md`` §5).
    """
    if header is None:
        header, _, body = text.strip("\n").partition("\n")
    else:
        body = text
    header = header.strip() or "\u200b"
    if not header.startswith("#"):
        header = f"### {header}"
    paragraphs = _paragraphs(body)
    seat_lines = "\n".join(seat.text for seat in seats)
    used = sum(map(len, paragraphs)) + len(header) + len(seat_lines)
    if used > V2_TEXT_MAX:
        raise LimitError(f"a layout's text is {used} characters, more than Discord's {V2_TEXT_MAX}")
    if len(media) > GALLERY_ITEMS_MAX:
        raise LimitError(f"{len(media)} pictures, more than a gallery's {GALLERY_ITEMS_MAX}")
    grouped = [i if isinstance(i, Grouped) else Grouped(i) for i in items]
    rows = _rows(grouped)
    fixed = 2 + len(rows) + sum(map(len, rows)) + (1 if media else 0)  # container, header, rows, gallery
    spaced = 2 * len(paragraphs) + (1 if rows else 0)  # a separator before each paragraph and the rows
    collapsed = 2 if paragraphs else 0  # the body in one text after one separator
    # The seats as Sections (3 components each) where they fit, else as one text; then the body spaced out.
    shapes = [(sections, separators) for sections in ((True, False) if all(s.avatar for s in seats) else (False,))
              for separators in (True, False)]
    for sections, separators in shapes:
        count = fixed + (3 * len(seats) if sections else min(len(seats), 1)) + (spaced if separators else collapsed)
        if count <= V2_COMPONENTS_MAX:
            break
    else:
        raise LimitError(f"a layout of {count} components, more than Discord's {V2_COMPONENTS_MAX}")
    if not separators:
        paragraphs = ["\n\n".join(paragraphs)] if paragraphs else []
    container: discord.ui.Container[Any] = discord.ui.Container(discord.ui.TextDisplay(header), accent_colour=accent)
    for item in _seat_sections(seats) if sections else [discord.ui.TextDisplay(seat_lines)] if seats else []:
        container.add_item(item)
    for i, paragraph in enumerate(paragraphs):
        if separators or i == 0:
            container.add_item(discord.ui.Separator(visible=i == 0, spacing=discord.SeparatorSpacing.small))
        container.add_item(discord.ui.TextDisplay(paragraph))
    if media:
        container.add_item(discord.ui.MediaGallery(*[discord.MediaGalleryItem(f"attachment://{m.filename}",
                                                                              description=m.description or None)
                                                     for m in media]))
    if rows and separators:
        container.add_item(discord.ui.Separator(spacing=discord.SeparatorSpacing.small))
    for row in rows:
        action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for item in row:
            action_row.add_item(item)
        container.add_item(action_row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()
    return view
