"""Cards as every table shows them: one rendering per deck, shared by the game UIs.

* The 52-card deck with Jokers (:class:`bot.engine.cards.Card`): rank and suit symbol,
  ``K♦``, ``10♠``, ``🃏 Joker``.
* The Dutch Blitz deck (:class:`bot.engine.cards.BlitzCard`): the colour is shown as a coloured
  square *and named* by its initial, ``🟥 R7``, ``🟦 B3``, ``🟨 Y10``, ``🟩 G1``, so that a
  colour-blind player reads the colour as well as anyone (``docs/tables.md``, "The table kit").

Both take a card object, its id, or the JSON dict a view or event gives (``{"id": …}``, or a
Dutch Blitz card's ``{"colour", "value"}``). These are labels for messages and buttons, never for
custom ids (``docs/design.md`` §6).

>>> playing_card("KD"), playing_card("10S"), playing_card("X1"), playing_card({"id": "QH", "label": "Q♥"})
('K♦', '10♠', '🃏 Joker', 'Q♥')
>>> blitz_card("2R7"), blitz_card({"colour": "yellow", "value": 10}), blitz_card(None)
('🟥 R7', '🟨 Y10', '—')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.cards import RANK_NAMES, SUIT_SYMBOLS, BlitzCard, Card

__all__ = ["playing_card", "blitz_card", "card_text", "BLITZ_SYMBOLS", "BLITZ_INITIALS", "NO_CARD"]

NO_CARD = "—"
"""What an empty place (no card) shows."""

BLITZ_SYMBOLS: dict[str, str] = dict(BlitzCard.SYMBOLS)
"""Dutch Blitz colour to its coloured square (🟥 🟦 🟨 🟩)."""

BLITZ_INITIALS: dict[str, str] = {"red": "R", "blue": "B", "yellow": "Y", "green": "G"}
"""Dutch Blitz colour to the initial that names it on every card."""


def playing_card(card: Card | str | Mapping[str, Any]) -> str:
    """A card of the 52-card deck (or a Joker) as text: ``"K♦"``, ``"10♠"``, ``"🃏 Joker"``.

    Parameters
    ----------
    card:
        A :class:`~bot.engine.cards.Card`, its id (``"KD"``, ``"10S"``, ``"X1"``; a copy number
        such as ``"QH1"`` is not shown) or a JSON dict with its ``"id"``.

    Raises
    ------
    ValueError
        *card* is not a card of that deck.
    """
    if isinstance(card, Mapping):
        card = str(card.get("id", ""))
    if isinstance(card, str):
        card = Card.from_id(card)
    if card.is_joker:
        return "🃏 Joker"
    assert card.suit is not None
    return f"{RANK_NAMES[card.rank]}{SUIT_SYMBOLS[card.suit]}"


def blitz_card(card: BlitzCard | str | Mapping[str, Any] | None) -> str:
    """A Dutch Blitz card as text, its colour shown and named: ``"🟥 R7"``; ``"—"`` for no card.

    Parameters
    ----------
    card:
        A :class:`~bot.engine.cards.BlitzCard`, its id (``"2R7"``), a JSON dict with
        ``"colour"`` and ``"value"`` (as views give it), or ``None``.

    Raises
    ------
    ValueError
        *card* is not a Dutch Blitz card.
    """
    if card is None:
        return NO_CARD
    if isinstance(card, str):
        card = BlitzCard.from_id(card)
    if isinstance(card, Mapping):
        colour, value = card.get("colour"), card.get("value")
        if colour not in BLITZ_INITIALS or not isinstance(value, int):
            raise ValueError(f"a Dutch Blitz card needs a colour in {tuple(BLITZ_INITIALS)} and a value, got {card!r}")
    else:
        colour, value = card.colour, card.value
    return f"{BLITZ_SYMBOLS[colour]} {BLITZ_INITIALS[colour]}{value}"


def card_text(card_id: str) -> str | None:
    """The text of *card_id* in whichever deck it belongs to, or ``None`` when it is no card id.

    For default labels that do not know the game's deck.

    >>> card_text("AS"), card_text("0G3"), card_text("stock")
    ('A♠', '🟩 G3', None)
    """
    for render in (playing_card, blitz_card):
        try:
            return render(card_id)
        except ValueError:
            continue
    return None
