"""Pictures at the moments that matter: a Dutch reveal, a Blitz (31) showdown, a Blitzkrieg battle, the
end of a Dutch Blitz hand, a table's final standings, a tournament's standings and bracket
(``docs/art.md`` §7).

Pure: Pillow and the card art only, no Discord, no asyncio, no clock. A *moment* is a frozen
dataclass of plain data (names, card keys, numbers), built by the game's adapter from what every
player may see at that moment (the public events and the public view: ``docs/design.md`` §6), and
:func:`render` draws it into a :class:`Picture`. A moment is its own cache key: :func:`render` keeps
the last :data:`CACHE_SIZE` pictures (an LRU keyed by the moment's data), so the same moment is
drawn once. Cards are pasted from the card art's cache (``bot.art.deck``) at the sizes used here,
never drawn afresh per picture.

>>> picture = render(Standings(title="Final standings", rows=(StandingRow(1, "Ann", "31"),)))
>>> picture.filename, picture.face_up, picture.png.startswith(PNG_SIGNATURE)
('standings.png', (), True)
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from bot.art.deck import card_image, deck_keys
from bot.art.draw import font
from bot.art.sheet import FELT, picture_png

__all__ = [
    "CACHE_SIZE",
    "CARD_SIZES",
    "MAX_ALT",
    "MAX_BYTES",
    "PNG_SIGNATURE",
    "Battle",
    "Bracket",
    "BracketMatch",
    "HandEnd",
    "HandEndScore",
    "Moment",
    "Picture",
    "Reveal",
    "RevealedHand",
    "Showdown",
    "ShownHand",
    "StandingRow",
    "Standings",
    "draws",
    "render",
    "warm",
]

PNG_SIGNATURE = bytes([137, 80, 78, 71, 13, 10, 26, 10])
"""The first eight bytes of every PNG file."""

MAX_BYTES = 150 * 1024
"""The most a picture's PNG may weigh (bytes): 150 KB (issue #29; ``bench/render.py`` prints each)."""

MAX_ALT = 1024
"""Discord's limit on a media gallery item's description (alt text), in characters."""

_F = TypeVar("_F", bound=Callable[..., Any])

CACHE_SIZE = 64
"""How many rendered pictures :func:`render` keeps (least recently used dropped first)."""

_CARD_H = 96  # a card in a row of cards (px)
_BIG_H = 168  # a battle's two cards (px)
_PILE_H = 72  # a Dutch pile's top card (px)
_GAP = 10
_NAME_W = 190
_INK = (245, 242, 230)
_DIM = (200, 214, 200)
_GOLD = (240, 196, 64)
_RED = (236, 96, 84)
_PANEL = (28, 72, 50)
_WIDTH = 760


@dataclass(frozen=True)
class Picture:
    """A rendered moment, ready to send.

    Attributes
    ----------
    png:
        The PNG file (at most :data:`MAX_BYTES` bytes for the moments drawn here).
    filename:
        The file's name (``dutch-reveal.png``): the ``attachment://`` name a message refers to.
    alt:
        What the picture shows, in words (alt text, at most :data:`MAX_ALT` characters); names only
        cards in :attr:`face_up`.
    face_up:
        The card keys (``standard:QH``, ``dutch-blitz:R8``: ``docs/art.md`` §4) drawn face up, in
        drawing order: every one must be a card all players may see at that moment (the leak tests
        check it).
    caption:
        A short line to show beside the picture (its title).
    """

    png: bytes
    filename: str
    alt: str
    face_up: tuple[str, ...]
    caption: str


@dataclass(frozen=True)
class RevealedHand:
    """One player's hand at a reveal: *cards* are card keys in position order, ``None`` for an empty
    position (a card jumped in); *total* the hand's points; *caller* whether they called Dutch.
    """

    name: str
    cards: tuple[str | None, ...]
    total: int
    caller: bool = False


@dataclass(frozen=True)
class Reveal:
    """Dutch's reveal at the end of a round (``docs/rules/dutch.md`` §9): every hand face up, the
    caller marked, each player's total for the round and the game (*game_totals*: name to total, may
    be empty).
    """

    round: int
    hands: tuple[RevealedHand, ...]
    game_totals: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ShownHand:
    """One hand at a Blitz (31) showdown: card keys, its worth (points), lives lost, whether its
    player knocked, and whether it holds 31.
    """

    name: str
    cards: tuple[str, ...]
    worth: str
    lost: int = 0
    knocked: bool = False


@dataclass(frozen=True)
class Showdown:
    """Blitz (31)'s showdown or a 31 (``docs/rules/blitz.md`` §6, §7): each hand, its worth, who lost
    a life; *title* says which (``"Showdown"``, ``"31!"``), *reason* why who lost.
    """

    round: int
    title: str
    hands: tuple[ShownHand, ...]
    reason: str = ""


@dataclass(frozen=True)
class Battle:
    """A Blitzkrieg battle (``docs/rules/blitzkrieg.md``): the two turned cards (name, card key),
    the battle's scenario and what it means, and who won.
    """

    number: int
    scenario: str
    meaning: str
    cards: tuple[tuple[str, str], ...]
    winner: str | None


@dataclass(frozen=True)
class HandEndScore:
    """One player's score at the end of a Dutch Blitz hand (``docs/rules/dutch-blitz.md`` §8): cards
    on the Dutch piles, cards left in the Blitz pile, the hand's points and the running total.
    """

    name: str
    dutch: int
    blitz_left: int
    points: int
    total: int
    blitzed: bool = False


@dataclass(frozen=True)
class HandEnd:
    """The end of a Dutch Blitz hand: the Dutch piles' top cards (card keys, pile order) and the score
    breakdown per player.
    """

    hand: int
    piles: tuple[str, ...]
    scores: tuple[HandEndScore, ...]


@dataclass(frozen=True)
class StandingRow:
    """A row of a standings table: rank (1 = best), name, and the further columns as text."""

    rank: int
    name: str
    score: str
    extra: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standings:
    """A table's final standings or a tournament's standings: *title*, *columns* naming the score
    and extra columns (e.g. ``("points", "wins", "games")``), and the rows best first. *filename*
    is the file's name.
    """

    title: str
    rows: tuple[StandingRow, ...]
    columns: tuple[str, ...] = ("score",)
    filename: str = "standings.png"


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket: its players (``""`` for a bye or one not known yet) and the winner."""

    players: tuple[str, ...]
    winner: str | None = None


@dataclass(frozen=True)
class Bracket:
    """An elimination bracket: the rounds in order, each its matches (``docs/tournaments.md``)."""

    title: str
    rounds: tuple[tuple[BracketMatch, ...], ...]
    filename: str = "tournament-bracket.png"


Moment = Reveal | Showdown | Battle | HandEnd | Standings | Bracket
"""What :func:`render` draws."""

CARD_SIZES: dict[type, tuple[tuple[str, int], ...]] = {
    Reveal: (("standard", _CARD_H),), Showdown: (("standard", _CARD_H),), Battle: (("standard", _BIG_H),),
    HandEnd: (("dutch-blitz", _PILE_H),),
}
"""The cards each moment's picture pastes: ``(deck, height in px)`` pairs (a moment type not listed
pastes no card). :func:`warm` draws these ahead of the first picture."""


def draws(*moments: type) -> Callable[[_F], _F]:
    """Declare on a game's moments function (``cogs._pictures``) which moment types it returns, so
    the table can :func:`warm` their cards when the game's first table starts.

    ``@draws(Reveal)`` sets the function's ``draws`` attribute to ``(Reveal,)`` and returns it unchanged.
    """
    def mark(function: _F) -> _F:
        setattr(function, "draws", moments)  # noqa: B010 - an attribute on a function, read with getattr
        return function
    return mark


def warm(moments: Iterable[type]) -> int:
    """Draw every card the pictures of *moments* (moment types) paste, at the sizes they paste them
    (:data:`CARD_SIZES`), into the picture cache, so that the first such picture is drawn as fast as
    a later one (≤ 50 ms, ``docs/art.md`` §7) instead of drawing its cards on the way.

    Meant for a worker thread (about 0.5–1.5 s of CPU per deck and size on a slow machine, once per
    process): it takes the drawing lock one card at a time, so a picture asked for meanwhile is not
    held up behind the whole deck. Returns how many cards were drawn now (0 when all were cached).
    """
    sizes = {size for kind in moments for size in CARD_SIZES.get(kind, ())}
    before = _card_rgba.cache_info().misses
    for deck_name, height in sorted(sizes):
        for key in deck_keys(deck_name):
            with _DRAWING:
                _card_rgba(key, height)
    return _card_rgba.cache_info().misses - before


# ---------------------------------------------------------------------------------- drawing kit

_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class _Sheet:
    """A picture being drawn: a felt canvas and a pen."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width, height), FELT[:3])
        self.pen = ImageDraw.Draw(self.image)
        self.face_up: list[str] = []

    def text(self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int] = _INK, *,
             max_width: float | None = None, anchor: str = "la") -> None:
        face = font(size)
        if max_width is not None:
            text = _clip(text, face, max_width)
        self.pen.text(xy, text, font=face, fill=fill, anchor=anchor)

    def card(self, key: str | None, xy: tuple[int, int], height: int, *,
             frame: tuple[int, int, int] | None = None) -> None:
        width = round(height * 3 / 4)
        x, y = xy
        if frame is not None:
            self.pen.rounded_rectangle((x - 4, y - 4, x + width + 3, y + height + 3), radius=8, outline=frame, width=4)
        if key is None:  # an empty position: its outline only
            self.pen.rounded_rectangle((x, y, x + width - 1, y + height - 1), radius=6, outline=_DIM, width=2)
            return
        rgb, alpha = _card_rgba(key, height)
        self.image.paste(rgb, (x, y), alpha)
        if not key.endswith("back") and "back-" not in key:
            self.face_up.append(key)

    def panel(self, box: tuple[int, int, int, int]) -> None:
        self.pen.rounded_rectangle(box, radius=10, fill=_PANEL)

    def finish(self, filename: str, alt: str, caption: str) -> Picture:
        return Picture(picture_png(self.image), filename, _fit(alt, MAX_ALT), tuple(self.face_up), caption)


@functools.lru_cache(maxsize=256)
def _card_rgba(key: str, height: int) -> tuple[Image.Image, Image.Image]:
    """A card at *height* as (RGB picture, alpha mask) for ``paste``: drawn once per key and size."""
    card = card_image(key, height=height)
    return card.convert("RGB"), card.getchannel("A")


def _clip(text: str, face: _Font, width: float) -> str:
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _wrap(text: str, size: int, width: float) -> list[str]:
    face, lines, line = font(size), [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and face.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def _label(key: str | None) -> str:
    """A card key in words for alt text (``standard:QH`` → ``Q♥``, ``dutch-blitz:R8`` → ``red 8``)."""
    if key is None:
        return "(empty)"
    deck, _, card = key.partition(":")
    if deck == "dutch-blitz":
        colour = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}.get(card[:1], card[:1])
        return f"{colour} {card[1:]}"
    if card in ("X1", "X2"):
        return "red Joker" if card == "X1" else "black Joker"
    return card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(card[-1], card[-1])


def _card_w(height: int) -> int:
    return round(height * 3 / 4)


# ---------------------------------------------------------------------------------- the moments

def _rows_of_cards(title: str, rows: Sequence[tuple[str, str, Sequence[str | None], str, tuple[int, int, int],
                                                  bool]]) -> _Sheet:
    """Rows of (name, note under it, cards, text on the right, its colour, marked) under *title*."""
    most = max((len(cards) for _, _, cards, _, _, _ in rows), default=1)
    cards_w = max(1, most) * (_card_w(_CARD_H) + 8)
    width = max(_WIDTH, _GAP * 4 + _NAME_W + cards_w + 150)
    row_h = _CARD_H + 2 * _GAP + 8
    sheet = _Sheet(width, 60 + len(rows) * (row_h + _GAP) + _GAP)
    sheet.text((_GAP * 2, 16), title, 28, max_width=width - 4 * _GAP)
    for i, (name, note, cards, right, colour, marked) in enumerate(rows):
        top = 60 + i * (row_h + _GAP)
        sheet.panel((_GAP, top, width - _GAP, top + row_h))
        sheet.text((_GAP * 2, top + 18), name, 22, _GOLD if marked else _INK, max_width=_NAME_W - 10)
        sheet.text((_GAP * 2, top + 50), note, 16, _GOLD if marked else _DIM, max_width=_NAME_W - 10)
        x = _GAP * 2 + _NAME_W
        for key in cards:
            sheet.card(key, (x, top + _GAP + 4), _CARD_H)
            x += _card_w(_CARD_H) + 8
        sheet.text((width - _GAP * 2, top + row_h // 2), right, 24, colour, anchor="rm")
    return sheet


def _reveal(m: Reveal) -> Picture:
    totals = dict(m.game_totals)
    rows = []
    for hand in m.hands:
        note = "called Dutch" if hand.caller else ""
        if hand.name in totals:
            note = f"{note} · game {totals[hand.name]}".lstrip(" ·")
        rows.append((hand.name, note, hand.cards, str(hand.total), _INK, hand.caller))
    sheet = _rows_of_cards(f"Dutch · round {m.round}: the reveal", rows)
    alt = f"Dutch, round {m.round}, every hand face up: " + "; ".join(
        f"{h.name}{' (called Dutch)' if h.caller else ''}: {', '.join(_label(c) for c in h.cards if c) or 'no cards'}"
        f", total {h.total}" for h in m.hands) + "."
    return sheet.finish("dutch-reveal.png", alt, f"Round {m.round}: the reveal")


def _showdown(m: Showdown) -> Picture:
    rows = []
    for hand in m.hands:
        lost = f"-{hand.lost} {'life' if hand.lost == 1 else 'lives'}" if hand.lost else ""
        rows.append((hand.name, "knocked" if hand.knocked else "", hand.cards,
                     f"{hand.worth}  {lost}".strip(), _RED if hand.lost else _INK, hand.knocked))
    sheet = _rows_of_cards(f"Blitz (31) · round {m.round}: {m.title}", rows)
    alt = f"Blitz (31), round {m.round}, {m.title}: " + "; ".join(
        f"{h.name}{' (knocked)' if h.knocked else ''}: {', '.join(_label(c) for c in h.cards)}, worth {h.worth}"
        + (f", loses {h.lost} {'life' if h.lost == 1 else 'lives'}" if h.lost else "") for h in m.hands) + "."
    if m.reason:
        alt += f" {m.reason}"
    return sheet.finish("blitz-showdown.png", alt, f"Round {m.round}: {m.title}")


def _battle(m: Battle) -> Picture:
    card_w = _card_w(_BIG_H)
    lines = _wrap(m.meaning, 18, _WIDTH - 4 * _GAP)
    height = 70 + _BIG_H + 60 + 26 * len(lines) + 2 * _GAP
    sheet = _Sheet(_WIDTH, height)
    sheet.text((_WIDTH // 2, 18), f"Battle {m.number}: {m.scenario}", 28, anchor="ma", max_width=_WIDTH - 4 * _GAP)
    count = max(1, len(m.cards))
    slot = _WIDTH // count
    for i, (name, key) in enumerate(m.cards):
        cx = slot * i + slot // 2
        won = name == m.winner
        sheet.card(key, (cx - card_w // 2, 70), _BIG_H, frame=_GOLD if won else None)
        sheet.text((cx, 70 + _BIG_H + 14), f"{name}{' wins' if won else ''}", 22, _GOLD if won else _INK,
                   anchor="ma", max_width=slot - 2 * _GAP)
    if len(m.cards) == 2:
        sheet.text((_WIDTH // 2, 70 + _BIG_H // 2), "vs", 30, _DIM, anchor="mm")
    for i, line in enumerate(lines):
        sheet.text((_GAP * 2, 70 + _BIG_H + 60 + 26 * i), line, 18, _DIM)
    cards = " against ".join(f"{name}'s {_label(key)}" for name, key in m.cards)
    alt = f"Blitzkrieg, battle {m.number}, {m.scenario}: {cards}; " + (
        f"{m.winner} wins." if m.winner else "nobody wins yet.")
    return sheet.finish("blitzkrieg-battle.png", alt, f"Battle {m.number}: {m.scenario}")


def _hand_end(m: HandEnd) -> Picture:
    per_row = 10
    pile_w = _card_w(_PILE_H)
    pile_rows = max(1, -(-len(m.piles) // per_row))
    piles_h = pile_rows * (_PILE_H + 8)
    row_h = 40
    height = 60 + 26 + piles_h + 30 + 34 + len(m.scores) * row_h + _GAP
    sheet = _Sheet(_WIDTH, height)
    sheet.text((_GAP * 2, 16), f"Dutch Blitz · hand {m.hand} ends", 28)
    sheet.text((_GAP * 2, 60), "The Dutch piles", 18, _DIM)
    for i, key in enumerate(m.piles):
        sheet.card(key, (_GAP * 2 + (i % per_row) * (pile_w + 8), 86 + (i // per_row) * (_PILE_H + 8)), _PILE_H)
    top = 86 + piles_h + 20
    columns = (("Dutch piles", 330), ("Blitz pile", 460), ("hand", 580), ("total", _WIDTH - 2 * _GAP))
    for title, x in columns:
        sheet.text((x, top), title, 16, _DIM, anchor="ra")
    for i, score in enumerate(m.scores):
        y = top + 30 + i * row_h
        sheet.panel((_GAP, y, _WIDTH - _GAP, y + row_h - 6))
        sheet.text((_GAP * 2, y + 6), score.name + ("  · Blitz!" if score.blitzed else ""), 20,
                   _GOLD if score.blitzed else _INK, max_width=230)
        values = (f"+{score.dutch}", f"-{2 * score.blitz_left}" if score.blitz_left else "0",
                  f"{score.points:+d}", str(score.total))
        for (_, x), value in zip(columns, values, strict=True):
            sheet.text((x, y + 6), value, 20, _RED if value.startswith("-") else _INK, anchor="ra")
    alt = (f"Dutch Blitz, hand {m.hand} ends. Dutch piles' top cards: "
           f"{', '.join(_label(k) for k in m.piles) or 'none'}. Scores: "
           + "; ".join(f"{s.name} {s.dutch} on the Dutch piles, {s.blitz_left} left in the Blitz pile, "
                       f"{s.points:+d} this hand, {s.total} in all" for s in m.scores) + ".")
    return sheet.finish("dutch-blitz-hand-end.png", alt, f"Hand {m.hand} ends")


def _standings(m: Standings) -> Picture:
    row_h = 40
    sheet = _Sheet(_WIDTH, 60 + 34 + len(m.rows) * row_h + _GAP)
    sheet.text((_GAP * 2, 16), m.title, 28, max_width=_WIDTH - 4 * _GAP)
    xs = [_WIDTH - 2 * _GAP - 110 * i for i in range(len(m.columns))][::-1]
    for title, x in zip(m.columns, xs, strict=True):
        sheet.text((x, 64), title, 16, _DIM, anchor="ra")
    for i, row in enumerate(m.rows):
        y = 94 + i * row_h
        sheet.panel((_GAP, y, _WIDTH - _GAP, y + row_h - 6))
        colour = _GOLD if row.rank == 1 else _INK
        sheet.text((_GAP * 2, y + 6), f"{row.rank}.", 20, colour)
        sheet.text((_GAP * 2 + 44, y + 6), row.name, 20, colour, max_width=xs[0] - 150)
        for value, x in zip((row.score, *row.extra), xs, strict=False):
            sheet.text((x, y + 6), value, 20, colour, anchor="ra")
    alt = f"{m.title}: " + "; ".join(
        f"{r.rank}. {r.name}, " + ", ".join(f"{c} {v}" for c, v in zip(m.columns, (r.score, *r.extra), strict=False))
        for r in m.rows) + "."
    return sheet.finish(m.filename, alt, m.title)


def _bracket(m: Bracket) -> Picture:
    rounds = max(1, len(m.rounds))
    most = max((len(r) for r in m.rounds), default=1)
    box_h, box_w = 58, 180
    col_w = max(box_w + 30, (_WIDTH - 2 * _GAP) // rounds)
    width = max(_WIDTH, 2 * _GAP + rounds * col_w)
    height = 70 + most * (box_h + 16) + _GAP
    sheet = _Sheet(width, height)
    sheet.text((_GAP * 2, 16), m.title, 28, max_width=width - 4 * _GAP)
    centres: list[list[int]] = []
    for r, matches in enumerate(m.rounds):
        x = _GAP + r * col_w + 10
        span = (height - 70 - _GAP) / max(1, len(matches))
        ys = [int(70 + span * (i + 0.5)) for i in range(len(matches))]
        centres.append(ys)
        sheet.text((x, 54), f"round {r + 1}", 14, _DIM)
        for match, cy in zip(matches, ys, strict=True):
            sheet.panel((x, cy - box_h // 2, x + box_w, cy + box_h // 2))
            for j, player in enumerate(match.players[:2]):
                won = match.winner is not None and player == match.winner
                sheet.text((x + 10, cy - box_h // 2 + 6 + 24 * j), player or "-", 18,
                           _GOLD if won else (_DIM if match.winner else _INK), max_width=box_w - 20)
            if r > 0 and centres[r - 1]:
                for prev in centres[r - 1][2 * ys.index(cy): 2 * ys.index(cy) + 2]:
                    px = x - col_w + box_w
                    sheet.pen.line((px, prev, x - 10, prev, x - 10, cy, x, cy), fill=_DIM, width=2)
    alt = f"{m.title}: " + "; ".join(
        f"round {r + 1}: " + ", ".join(
            " v ".join(p or "bye" for p in match.players) + (f" ({match.winner} won)" if match.winner else "")
            for match in matches) for r, matches in enumerate(m.rounds)) + "."
    return sheet.finish(m.filename, alt, m.title)


_DRAWING = threading.Lock()
"""Held while a picture is drawn: the cached fonts and card pictures are shared between threads."""

_DRAWERS: dict[type, Callable[[Any], Picture]] = {
    Reveal: _reveal, Showdown: _showdown, Battle: _battle, HandEnd: _hand_end, Standings: _standings,
    Bracket: _bracket,
}


@functools.lru_cache(maxsize=CACHE_SIZE)
def render(moment: Moment) -> Picture:
    """Draw *moment* (a frozen dataclass of this module) as a PNG :class:`Picture`.

    Kept in an LRU of :data:`CACHE_SIZE` keyed by the moment's data: the same moment is drawn once.
    Safe to call from worker threads: one picture is drawn at a time (Pillow's fonts are shared).
    Takes about 5–30 ms once the cards used are in the card art's cache (``bench/render.py``).

    Raises
    ------
    TypeError
        *moment* is none of the moments drawn here.
    """
    drawer = _DRAWERS.get(type(moment))
    if drawer is None:
        expected = sorted(t.__name__ for t in _DRAWERS)
        raise TypeError(f"no picture for {type(moment).__name__}; expected one of {expected}")
    with _DRAWING:
        return drawer(moment)
