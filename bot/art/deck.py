"""Every card of both decks by its key, drawn once per size and kept (``docs/art.md`` §3, §4).

A *key* names one picture: the deck, a colon, and the card as the engine names it without what the
picture does not show (a copy number, a Dutch Blitz card's owner):

* ``standard:QH``, ``standard:10S``, ``standard:AS`` — a card of the 52 (``Card.id``, ``RANK`` + suit letter);
* ``standard:X1`` (the red Joker) and ``standard:X2`` (the black Joker), as the engine's two Jokers;
* ``standard:back`` — the back of the standard deck;
* ``dutch-blitz:R8``, ``dutch-blitz:G10`` — colour initial and number (``BlitzCard.id`` without its owner);
* ``dutch-blitz:back-pump``, ``back-carriage``, ``back-pail``, ``back-plow`` — the player decks' backs.

>>> KEYS[:2], KEYS[52:55]
(('standard:AS', 'standard:2S'), ('standard:X1', 'standard:X2', 'standard:back'))
>>> KEYS[55], KEYS[-1]
('dutch-blitz:R1', 'dutch-blitz:back-plow')
>>> len(KEYS), card_image("dutch-blitz:B7").size
(99, (126, 168))
"""

from __future__ import annotations

import functools

from PIL import Image

from bot.art import dutch_blitz, standard

__all__ = [
    "CARD_HEIGHT",
    "DECKS",
    "KEYS",
    "deck_keys",
    "card_image",
    "standard_card",
    "joker",
    "dutch_blitz_card",
    "card_back",
]

CARD_HEIGHT = 168
"""The default height of a card picture in pixels (its width is 126: cards are 3:4)."""

DECKS: tuple[str, ...] = ("standard", "dutch-blitz")
"""The decks drawn: the standard 52 with two Jokers, and the Dutch Blitz deck."""

JOKER_COLOURS: dict[str, str] = {"X1": "red", "X2": "black"}
"""The engine's Joker ids to their colour: a game's first Joker is the red one, its second the black."""


def _standard_keys() -> tuple[str, ...]:
    faces = [f"standard:{rank}{suit}" for suit in standard.SUITS for rank in standard.RANKS]
    return (*faces, "standard:X1", "standard:X2", "standard:back")


def _dutch_blitz_keys() -> tuple[str, ...]:
    faces = [f"dutch-blitz:{dutch_blitz.COLOUR_LETTERS[colour]}{n}" for colour in dutch_blitz.COLOURS
             for n in range(1, 11)]
    return (*faces, *(f"dutch-blitz:back-{symbol}" for symbol in dutch_blitz.BACK_SYMBOLS))


_KEYS_BY_DECK: dict[str, tuple[str, ...]] = {"standard": _standard_keys(), "dutch-blitz": _dutch_blitz_keys()}

KEYS: tuple[str, ...] = _KEYS_BY_DECK["standard"] + _KEYS_BY_DECK["dutch-blitz"]
"""Every key, deck by deck in the engine's order (suit by suit Ace to King, then the Jokers and
the back; colour by colour 1 to 10, then the four backs): 55 + 44 = 99 pictures."""


def deck_keys(deck: str) -> tuple[str, ...]:
    """The keys of one deck (:data:`DECKS`), in :data:`KEYS` order.

    Raises
    ------
    ValueError
        *deck* is not one of :data:`DECKS`.
    """
    try:
        return _KEYS_BY_DECK[deck]
    except KeyError:
        raise ValueError(f"deck {deck!r} must be one of {DECKS}") from None


def _check_height(height: int) -> None:
    if not isinstance(height, int) or not 8 <= height <= 2048:
        raise ValueError(f"a card picture's height must be 8-2048 px, got {height!r}")


@functools.lru_cache(maxsize=512)
def _drawn(key: str, height: int) -> Image.Image:
    """The picture of *key* at *height* px, drawn once (the cache's copy: never hand it out)."""
    deck, _, card = key.partition(":")
    if deck == "standard" and key in _KEYS_BY_DECK["standard"]:
        if card == "back":
            return standard.draw_back(height)
        if card in JOKER_COLOURS:
            return standard.draw_joker(JOKER_COLOURS[card], height)
        return standard.draw_face(card[:-1], card[-1], height)
    if deck == "dutch-blitz" and key in _KEYS_BY_DECK["dutch-blitz"]:
        if card.startswith("back-"):
            return dutch_blitz.draw_back(card[5:], height)
        colour = {letter: c for c, letter in dutch_blitz.COLOUR_LETTERS.items()}[card[0]]
        return dutch_blitz.draw_face(colour, int(card[1:]), height)
    raise ValueError(f"unknown card key {key!r}; keys look like 'standard:QH', 'standard:X1', 'standard:back', "
                     f"'dutch-blitz:R8' or 'dutch-blitz:back-pump'")


def card_image(key: str, *, height: int = CARD_HEIGHT) -> Image.Image:
    """The picture of the card named by *key* (see the module's docstring), RGBA.

    Parameters
    ----------
    key:
        One of :data:`KEYS`.
    height:
        The picture's height in pixels (8–2048); its width is ``round(height * 3 / 4)``. The
        corners outside the card's rounded edge are transparent.

    Returns
    -------
    PIL.Image.Image
        A new RGBA picture (the caller may change it); the same key and height always give the
        same pixels.

    Raises
    ------
    ValueError
        *key* names no card, or *height* is out of range.
    """
    _check_height(height)
    return _drawn(key, height).copy()


def _standard_key(rank: str, suit: str) -> str:
    suit = standard.SUIT_OF_SYMBOL.get(suit, suit).upper()
    rank = rank.upper()
    if rank not in standard.RANKS or suit not in standard.SUITS:
        raise ValueError(f"a standard card needs a rank in {standard.RANKS} and a suit in {standard.SUITS} "
                         f"(or ♠ ♥ ♦ ♣), got rank {rank!r} and suit {suit!r}")
    return f"standard:{rank}{suit}"


def standard_card(rank: str, suit: str, *, height: int = CARD_HEIGHT) -> Image.Image:
    """A card of the 52: *rank* large over the shape of *suit* large.

    Parameters
    ----------
    rank:
        ``"A"``, ``"2"`` … ``"10"``, ``"J"``, ``"Q"`` or ``"K"``.
    suit:
        ``"S"``, ``"H"``, ``"D"``, ``"C"`` or the symbol ``♠ ♥ ♦ ♣``.
    height:
        The picture's height in pixels (8–2048).

    Raises
    ------
    ValueError
        Not a rank and a suit of the standard deck.

    Examples
    --------
    >>> standard_card("Q", "♥").size
    (126, 168)
    """
    return card_image(_standard_key(rank, suit), height=height)


def joker(colour: str, *, height: int = CARD_HEIGHT) -> Image.Image:
    """The red or the black Joker (``standard:X1``, ``standard:X2``).

    Parameters
    ----------
    colour:
        ``"red"`` or ``"black"``.
    height:
        The picture's height in pixels (8–2048).

    Raises
    ------
    ValueError
        *colour* is neither.
    """
    ids = {c: x for x, c in JOKER_COLOURS.items()}
    if colour not in ids:
        raise ValueError(f"a Joker is 'red' or 'black', got {colour!r}")
    return card_image(f"standard:{ids[colour]}", height=height)


def dutch_blitz_card(colour: str, number: int, *, height: int = CARD_HEIGHT) -> Image.Image:
    """A Dutch Blitz card (``docs/rules/dutch-blitz.md`` §1): *number* large, the colour's letter in its shape.

    Parameters
    ----------
    colour:
        ``"red"``, ``"blue"``, ``"yellow"`` or ``"green"``.
    number:
        1 to 10.
    height:
        The picture's height in pixels (8–2048).

    Raises
    ------
    ValueError
        Not a colour and a number of the Dutch Blitz deck.
    """
    if colour not in dutch_blitz.COLOUR_LETTERS or not isinstance(number, int) or not 1 <= number <= 10:
        raise ValueError(f"a Dutch Blitz card needs a colour in {dutch_blitz.COLOURS} and a number 1-10, "
                         f"got {colour!r} and {number!r}")
    return card_image(f"dutch-blitz:{dutch_blitz.COLOUR_LETTERS[colour]}{number}", height=height)


def card_back(deck: str, symbol: str | None = None, *, height: int = CARD_HEIGHT) -> Image.Image:
    """The back of a deck: the standard back, or one Dutch Blitz player deck's back.

    Parameters
    ----------
    deck:
        ``"standard"`` or ``"dutch-blitz"``.
    symbol:
        For ``"dutch-blitz"``: ``"pump"``, ``"carriage"``, ``"pail"`` or ``"plow"`` (default
        ``"pump"``, the first seat's). None for ``"standard"``.
    height:
        The picture's height in pixels (8–2048).

    Raises
    ------
    ValueError
        An unknown deck or symbol, or a symbol for the standard deck.
    """
    if deck == "standard":
        if symbol is not None:
            raise ValueError(f"the standard deck has one back, without a symbol; got {symbol!r}")
        return card_image("standard:back", height=height)
    if deck == "dutch-blitz":
        symbol = symbol or dutch_blitz.BACK_SYMBOLS[0]
        if symbol not in dutch_blitz.BACK_SYMBOLS:
            raise ValueError(f"a Dutch Blitz back's symbol must be one of {dutch_blitz.BACK_SYMBOLS}, got {symbol!r}")
        return card_image(f"dutch-blitz:back-{symbol}", height=height)
    raise ValueError(f"deck {deck!r} must be one of {DECKS}")
