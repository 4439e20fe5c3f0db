"""Playing cards shared by the engines.

Two families of card live here:

* :class:`Card` — the standard French-suited card (52 cards plus Jokers), used by Blitzkrieg,
  Dutch and Blitz (31).
* :class:`BlitzCard` — the 40-card Dutch Blitz deck: values 1–10 in red and blue (boys) and
  yellow and green (girls), each card tagged with the seat that owns it
  (``docs/rules/dutch-blitz.md``).

Every card has a stable :attr:`id`, a short string unique within one game. Views and events
name cards by that id (plus readable fields), which is what lets the conformance suite search
a view for a card its player may not see.

>>> Card(12, "H").id
'QH'
>>> Card.from_id('10S')
Card(rank=10, suit='S', copy=0)
>>> BlitzCard(owner=2, colour='red', value=5).id
'2R5'
>>> BlitzCard.from_id('2R5').is_boy
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Literal

__all__ = [
    "SUITS",
    "RANK_NAMES",
    "Card",
    "standard_deck",
    "BlitzCard",
    "BLITZ_COLOURS",
    "blitz_deck",
    "shuffled",
]

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit letters: spades, hearts, diamonds, clubs."""

SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

RANK_NAMES: dict[int, str] = {
    1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7",
    8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K",
}
"""Rank number (Ace = 1 … King = 13) to its short name."""

_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()}

JOKER = 0
"""The rank number of a Joker (Blitzkrieg calls it the Diplomat)."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A standard playing card, or a Joker.

    Attributes
    ----------
    rank:
        1 (Ace) to 13 (King), or :data:`JOKER` (0).
    suit:
        One of :data:`SUITS`, or ``None`` for a Joker.
    copy:
        Tells apart cards that occur more than once in a game (the Jokers: 1 and 2). 0 for the
        single copy of an ordinary card.
    """

    rank: int
    suit: str | None = None
    copy: int = 0

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None:
                raise ValueError(f"a Joker has no suit, got suit {self.suit!r}")
        elif not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise ValueError(f"card rank {self.rank!r} must be 1-13 and suit {self.suit!r} one of {SUITS}")

    @property
    def is_joker(self) -> bool:
        """Whether this card is a Joker."""
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        """Whether the card is a heart or a diamond (a Joker is neither red nor black)."""
        return self.suit in ("H", "D")

    @property
    def is_black(self) -> bool:
        """Whether the card is a spade or a club."""
        return self.suit in ("S", "C")

    @property
    def id(self) -> str:
        """The stable id: rank name plus suit letter (``'QH'``, ``'10S'``), ``'X1'``/``'X2'`` for Jokers."""
        if self.is_joker:
            return f"X{self.copy or 1}"
        base = f"{RANK_NAMES[self.rank]}{self.suit}"
        return base if self.copy == 0 else f"{base}{self.copy}"

    @property
    def label(self) -> str:
        """A short readable label with the suit symbol, e.g. ``'Q♥'`` or ``'Joker'``."""
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES[self.rank]}{SUIT_SYMBOLS[self.suit]}"  # type: ignore[index]

    @classmethod
    def from_id(cls, card_id: str) -> Card:
        """Parse an id made by :attr:`id`.

        Raises
        ------
        ValueError
            *card_id* is not a card id.
        """
        if card_id.startswith("X") and card_id[1:].isdigit():
            return cls(JOKER, None, int(card_id[1:]))
        for name in sorted(_RANK_BY_NAME, key=len, reverse=True):
            if card_id.startswith(name) and len(card_id) > len(name):
                suit, rest = card_id[len(name)], card_id[len(name) + 1:]
                if suit in SUITS and (rest == "" or rest.isdigit()):
                    return cls(_RANK_BY_NAME[name], suit, int(rest or 0))
        raise ValueError(f"card id {card_id!r} must look like 'QH', '10S' or 'X1'")

    def to_json(self) -> dict[str, Any]:
        """The card as a JSON-ready dict: ``{"id", "rank", "suit", "label"}``."""
        return {"id": self.id, "rank": self.rank, "suit": self.suit, "label": self.label}

    def __str__(self) -> str:
        return self.label

    def __reduce__(self) -> tuple[Any, tuple[int, str | None, int]]:
        # Pickled as its fields and unpickled as the one shared instance of that card: a snapshot
        # holds every card of a game, and a dataclass's own __setstate__ costs ~10 µs a card.
        return _card, (self.rank, self.suit, self.copy)


@functools.cache
def _card(rank: int, suit: str | None, copy: int) -> Card:
    """The shared instance of a card (cards are immutable; unpickling goes through here)."""
    return Card(rank, suit, copy)


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards in a fixed order (suit by suit, Ace to King), then *jokers* Jokers.

    Parameters
    ----------
    jokers:
        How many Jokers to add (0, 1 or 2), ids ``X1``, ``X2``.
    """
    deck = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
    deck.extend(Card(JOKER, None, n) for n in range(1, jokers + 1))
    return deck


BLITZ_COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
"""Dutch Blitz colours; red and blue are boys, yellow and green girls."""

BlitzColour = Literal["red", "blue", "yellow", "green"]


@dataclass(frozen=True, order=True, slots=True)
class BlitzCard:
    """A Dutch Blitz card (``docs/rules/dutch-blitz.md``).

    Attributes
    ----------
    owner:
        The seat index (0-based) whose deck the card belongs to; it scores for that seat.
    colour:
        One of :data:`BLITZ_COLOURS`.
    value:
        1 to 10.
    """

    owner: int
    colour: str
    value: int

    SYMBOLS: ClassVar[dict[str, str]] = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "green": "🟩"}

    def __post_init__(self) -> None:
        if self.colour not in BLITZ_COLOURS or not 1 <= self.value <= 10 or self.owner < 0:
            raise ValueError(
                f"Dutch Blitz card ({self.owner!r}, {self.colour!r}, {self.value!r}) must have "
                f"owner >= 0, colour in {BLITZ_COLOURS} and value 1-10"
            )

    @property
    def is_boy(self) -> bool:
        """Red and blue cards are boys."""
        return self.colour in ("red", "blue")

    @property
    def is_girl(self) -> bool:
        """Yellow and green cards are girls."""
        return not self.is_boy

    @property
    def id(self) -> str:
        """Stable id: owner seat, colour initial, value (``'2R5'``)."""
        return f"{self.owner}{self.colour[0].upper()}{self.value}"

    @property
    def label(self) -> str:
        """Readable label with a coloured symbol, e.g. ``'🟥5'``."""
        return f"{self.SYMBOLS[self.colour]}{self.value}"

    @classmethod
    def from_id(cls, card_id: str) -> BlitzCard:
        """Parse an id made by :attr:`id`.

        Raises
        ------
        ValueError
            *card_id* is not a Dutch Blitz card id.
        """
        i = 0
        while i < len(card_id) and card_id[i].isdigit():
            i += 1
        colours = {c[0].upper(): c for c in BLITZ_COLOURS}
        if i == 0 or i >= len(card_id) or card_id[i] not in colours or not card_id[i + 1:].isdigit():
            raise ValueError(f"Dutch Blitz card id {card_id!r} must look like '2R5'")
        return cls(int(card_id[:i]), colours[card_id[i]], int(card_id[i + 1:]))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: ``{"id", "owner", "colour", "value", "label"}``."""
        return {"id": self.id, "owner": self.owner, "colour": self.colour, "value": self.value,
                "label": self.label}

    def __str__(self) -> str:
        return self.label

    def __reduce__(self) -> tuple[Any, tuple[int, str, int]]:
        # As Card.__reduce__: unpickled as the one shared instance of that card.
        return _blitz_card, (self.owner, self.colour, self.value)


@functools.cache
def _blitz_card(owner: int, colour: str, value: int) -> BlitzCard:
    """The shared instance of a Dutch Blitz card (unpickling goes through here)."""
    return BlitzCard(owner, colour, value)


def blitz_deck(owner: int) -> list[BlitzCard]:
    """The 40-card Dutch Blitz deck of seat *owner*, in a fixed order (colour by colour, 1 to 10)."""
    return [BlitzCard(owner, colour, value) for colour in BLITZ_COLOURS for value in range(1, 11)]


def shuffled(cards: list[Any], rng: Random) -> list[Any]:
    """A new list with *cards* shuffled by the game's own *rng* (never the global ``random``)."""
    out = list(cards)
    rng.shuffle(out)
    return out
