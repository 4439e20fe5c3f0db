"""Cards as emojis at render time (``bot/tables/faces.py``, ``docs/art.md`` §8): which emoji, which text."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.art.emojis import EMOJI_KEYS, emoji_name
from bot.config import TablesConfig
from bot.engine.cards import BlitzCard, Card
from bot.tables.board import BoardButton
from bot.tables.cards import blitz_card, playing_card
from bot.tables.faces import PLAIN, CardFaces
from bot.tables.registry import TableRegistry
from bot.tables.table import Table
from bot.tables.ui import GameUI
from tests.engine.sample_game import HighCard


def synced(usable: Any = None) -> CardFaces:
    """Faces with every card emoji of this art version loaded, with snowflake-long ids (19 digits)."""
    faces = CardFaces(usable)
    loaded = faces.load((1_300_000_000_000_000_000 + i, emoji_name(k)) for i, k in enumerate(EMOJI_KEYS))
    assert loaded == len(EMOJI_KEYS)
    return faces


def test_only_this_art_versions_card_emojis_are_loaded() -> None:
    """Another version's names and the owner's own emojis are left out; the first of two equal names is kept."""
    faces = CardFaces()
    assert faces.load([(1, "p0_std_qh"), (2, "party_parrot"), (3, "p1_std_qh"), (4, "p1_std_qh")]) == 1
    assert faces.style(9).card("QH") == "<:p1_std_qh:3> Q♥"
    assert faces.style(9).card("KS") == "K♠", "a card whose emoji is missing is text"


def test_without_emojis_every_card_is_todays_text() -> None:
    """Nothing loaded, or the channel may not use them, or no channel: the text of ``bot.tables.cards``."""
    for style in (CardFaces().style(1), synced(lambda channel: False).style(1), synced().style(None), PLAIN):
        assert not style.uses_emojis
        assert style.card("QH") == playing_card("QH") and style.card("X1") == "🃏 Joker"
        assert style.card(BlitzCard(1, "yellow", 8)) == blitz_card("1Y8") == "🟨 Y8"
        assert style.back("standard") == "🂠" and style.card(None) == "—"
        assert style.button("2R7") == ("🟥 R7", None) and style.emoji("QH") is None
        assert style.label("Q♥") == "Q♥"


def test_a_card_is_its_emoji_with_its_name_beside() -> None:
    """Standard cards keep their rank and suit beside the emoji; a Dutch Blitz card its colour's letter."""
    style = synced().style(1)
    qh = style.emoji("QH")
    assert qh is not None and qh.name == "p1_std_qh"
    assert style.card(Card(12, "H")) == f"{qh.markup} Q♥"
    r7 = style.emoji({"colour": "red", "value": 7})
    assert r7 is not None and style.card({"colour": "red", "value": 7}) == f"{r7.markup} R7"
    assert style.card("X2").endswith(" Joker") and "joker_black" in style.card("X2")
    assert style.label("10♠") == f"{style.emoji('10S').markup} 10♠"  # type: ignore[union-attr]
    assert style.label("Joker") == "Joker", "a Joker's label does not say which Joker"


def test_a_button_names_its_card_in_words() -> None:
    """With its emoji, a button's text names the card for a screen reader: colour and number, or rank and suit."""
    style = synced().style(1)
    for colour in ("red", "blue", "yellow", "green"):
        words, markup = style.button(BlitzCard(0, colour, 8))
        assert words == f"{colour} 8" and markup is not None and f"_db_{colour[0]}8:" in markup
    assert style.button("QH")[0] == "Q♥" and style.button("X1")[0] == "Joker"


def test_a_face_down_card_is_always_its_backs_emoji() -> None:
    """A back names no card: the standard back, or the Dutch Blitz seat's deck back."""
    style = synced().style(1)
    assert style.back("standard").startswith("<:p1_std_back:")
    assert style.back("dutch-blitz", 2).startswith("<:p1_db_back_pail:")
    assert style.back_emoji("dutch-blitz", 0).name == "p1_db_back_pump"  # type: ignore[union-attr]


def test_plain_draws_every_card_as_text_within_it() -> None:
    """``CardFaces.plain()`` (a message too long with emojis) draws text, and emojis again after it."""
    faces = synced()
    with faces.plain():
        assert faces.style(1).card("QH") == "Q♥"
    assert faces.style(1).card("QH").startswith("<:p1_std_qh:")


def test_a_board_button_takes_only_a_custom_emojis_markup() -> None:
    """``BoardButton.emoji`` is ``<:name:id>`` or nothing; anything else is refused, naming the button."""
    assert BoardButton("Blitz red 8", "t", emoji="<:p1_db_r8:123>").emoji == "<:p1_db_r8:123>"
    with pytest.raises(ValueError, match="Blitz red 8"):
        BoardButton("Blitz red 8", "t", emoji="p1_db_r8")


class ManyCards(GameUI):
    """A table text of 60 cards: 180 characters as text, over 2,000 as emojis."""

    kind = "high-card"

    def public_text(self, table: Table) -> str:
        return " ".join(self.cards(table).card("QH") for _ in range(60))


class OneCard(GameUI):
    """A table text of one card."""

    kind = "high-card"

    def public_text(self, table: Table) -> str:
        return self.cards(table).card("QH")


def test_a_table_text_too_long_with_emojis_is_drawn_with_text() -> None:
    """The registry draws the table message again with cards as text when emojis would pass 2,000 characters,
    rather than leaving lines out; a short one keeps its emojis."""
    registry = TableRegistry(cast(Any, None), TablesConfig(), synced())
    ui = ManyCards()
    registry.register_ui(ui, engine=HighCard, bots={})
    assert ui.faces is registry.faces
    table = Table(id=1, kind="high-card", title="High card", guild_id=1, channel_id=2, thread_id=3, host_id=4,
                  options={}, seed=1, min_players=2, max_players=4)
    assert len(ui.public_text(table)) > 2000
    assert registry.public_text(table) == " ".join(["Q♥"] * 60)
    registry.register_ui(OneCard(), engine=HighCard, bots={})
    assert registry.public_text(table).startswith("<:p1_std_qh:")
