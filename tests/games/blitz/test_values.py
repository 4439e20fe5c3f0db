"""Hand values (docs/rules/blitz.md §5; ruling "Blitz (31)", values) and the table options (§10)."""

from __future__ import annotations

import pytest

from bot.engine.cards import Card
from bot.games.blitz.engine import BlitzOptions, card_points, half_to_points, hand_value


def value(text: str, **kwargs: int) -> int:
    """The value of a hand written as card ids, in half points."""
    return hand_value([Card.from_id(c) for c in text.split()], **kwargs)


def test_ace_is_eleven_face_cards_ten_numbers_face_value() -> None:
    """Ace 11, J Q K 10, 2-10 their face value."""
    assert [card_points(Card(r, "S")) for r in range(1, 14)] == [11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_jack_of_clubs_ace_of_diamonds_is_11() -> None:
    """J♣ A♦: two suits, the better one counts: 11."""
    assert value("JC AD") == 22


def test_ace_and_jack_of_spades_is_21() -> None:
    """A♠ J♠: one suit adds up: 21."""
    assert value("AS JS") == 42


def test_ten_jack_ace_of_spades_is_31() -> None:
    """10♠ J♠ A♠ is 31, a blitz."""
    assert value("10S JS AS") == 62


def test_jack_queen_king_of_hearts_is_30() -> None:
    """J♥ Q♥ K♥ is 30."""
    assert value("JH QH KH") == 60


def test_three_twos_are_30_by_default() -> None:
    """Three of a kind (2-2-2) is worth 30 under the default option."""
    assert value("2S 2H 2D") == 60


def test_three_twos_are_30_and_a_half_with_the_option() -> None:
    """With three_of_a_kind = 30.5, 2-2-2 is 61 half points."""
    options = BlitzOptions(three_of_a_kind=30.5)
    assert value("2S 2H 2D", three_of_a_kind_half=options.three_of_a_kind_half) == 61
    assert half_to_points(61) == 30.5


def test_three_aces_are_30_not_more() -> None:
    """A♠ A♥ A♦: three of a kind is 30; the cards do not share a suit."""
    assert value("AS AH AD") == 60


def test_queen_of_spades_nine_eight_of_diamonds_is_17() -> None:
    """Q♠ 9♦ 8♦: the two diamonds (17) beat the lone queen (10)."""
    assert value("QS 9D 8D") == 34


def test_ace_of_clubs_six_four_of_spades_is_11() -> None:
    """A♣ 6♠ 4♠: the lone Ace (11) beats 6 + 4 = 10."""
    assert value("AC 6S 4S") == 22


def test_king_eight_five_of_hearts_is_23() -> None:
    """K♥ 8♥ 5♥ is 23."""
    assert value("KH 8H 5H") == 46


def test_two_of_a_kind_counts_nothing_extra() -> None:
    """A pair is no combination: 7♠ 7♥ 2♣ is worth 7."""
    assert value("7S 7H 2C") == 14


def test_default_options_follow_the_rule_text() -> None:
    """Defaults: 4 lives, three of a kind 30, the discard-pickup rule on."""
    options = BlitzOptions()
    assert (options.lives, options.three_of_a_kind, options.keep_discard_pickup) == (4, 30.0, True)


@pytest.mark.parametrize("field, bad", [("lives", 0), ("lives", 11), ("lives", "4"), ("three_of_a_kind", 31),
                                        ("keep_discard_pickup", "yes")])
def test_bad_options_are_refused_naming_the_option(field: str, bad: object) -> None:
    """A bad option value raises ValueError naming the option and the value."""
    with pytest.raises(ValueError, match=field):
        BlitzOptions(**{field: bad})
