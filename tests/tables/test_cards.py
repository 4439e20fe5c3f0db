"""Shared card rendering (bot/tables/cards.py): both decks, colours named as well as shown."""

from __future__ import annotations

import re

import pytest

from bot.engine.cards import BlitzCard, Card, blitz_deck, standard_deck
from bot.tables.cards import BLITZ_INITIALS, blitz_card, card_text, playing_card
from bot.tables.ui import BoardButton
from cogs._dutch_blitz_ui import DutchBlitzUI
from tests.tables.states import new_engine, random_states, table_for


def test_every_card_of_the_52_card_deck_and_the_jokers() -> None:
    """Rank and suit symbol for each of the 52 cards, '🃏 Joker' for both Jokers; ids, objects and dicts alike."""
    texts = {playing_card(card) for card in standard_deck(2)}
    assert len(texts) == 53  # 52 faces and one Joker text
    assert {playing_card("KD"), playing_card("10S"), playing_card("AH"), playing_card("2C")} == {"K♦", "10♠", "A♥",
                                                                                                "2♣"}
    assert playing_card("X2") == playing_card(Card(0, None, 1)) == "🃏 Joker"
    assert playing_card({"id": "QH", "rank": 12, "suit": "H"}) == playing_card("QH1") == "Q♥"
    assert all(re.fullmatch(r"(?:[A2-9JQK]|10)[♠♥♦♣]|🃏 Joker", t) for t in texts)


def test_every_dutch_blitz_card_names_its_colour() -> None:
    """'🟥 R7': a coloured square and the colour's initial, for all 40 cards of a deck; ids and view dicts alike."""
    for card in blitz_deck(3):
        text = blitz_card(card)
        assert text == f"{BlitzCard.SYMBOLS[card.colour]} {BLITZ_INITIALS[card.colour]}{card.value}"
        assert blitz_card(card.id) == blitz_card(card.to_json()) == text
    assert [blitz_card(f"0{c}7") for c in "RBYG"] == ["🟥 R7", "🟦 B7", "🟨 Y7", "🟩 G7"]
    assert blitz_card(None) == "—"


def test_bad_cards_are_refused() -> None:
    """Something that is no card raises ValueError; card_text says None."""
    for bad in ("ZZ", "", "11S"):
        with pytest.raises(ValueError):
            playing_card(bad)
    with pytest.raises(ValueError):
        blitz_card({"colour": "purple", "value": 3})
    with pytest.raises(ValueError):
        blitz_card("0P3")
    assert card_text("stock") is None and card_text("7H") == "7♥" and card_text("1Y10") == "🟨 Y10"


def test_dutch_blitz_boards_and_table_name_every_colour() -> None:
    """Through a game: every card on a Dutch Blitz board or the table shows its colour's initial; labels ≤ 80."""
    ui = DutchBlitzUI()
    engine = new_engine("dutch-blitz", 4, 6)
    table = table_for(engine, seed=6)
    shown, pile_lines = 0, 0
    for state in random_states(engine, 6, every=5, limit=400):
        text = ui.public_text(table)
        piles = next((line for line in text.splitlines() if line.startswith("Dutch piles: ")), None)
        if piles is not None and "none yet" not in piles:
            assert re.fullmatch(r"Dutch piles: [🟥🟦🟨🟩] [RBYG]\d+✓?(?:(?: · | \| )[🟥🟦🟨🟩] [RBYG]\d+✓?)*", piles)
            pile_lines += 1
        for square, initial in (("🟥", "R"), ("🟦", "B"), ("🟨", "Y"), ("🟩", "G")):
            assert text.count(square) == text.count(f"{square} {initial}")
        assert len(text) <= 2000
        for player in state.players:
            board = ui.board(table, player)
            for button in board.buttons:
                assert isinstance(button, BoardButton) and len(button.label) <= 80
                if any(sq in button.label for sq in "🟥🟦🟨🟩"):
                    assert re.search(r"[🟥🟦🟨🟩] [RBYG]\d+", button.label), button.label
                    shown += 1
    assert shown > 20 and pile_lines > 5
