"""Precedence between scenarios matching the same draw (docs/rules/blitzkrieg.md §7)."""

from __future__ import annotations

import pytest

from bot.engine.cards import Card, standard_deck
from bot.games.blitzkrieg.scenarios import SCENARIOS, Context
from tests.games.blitzkrieg.helpers import ANN, BOB, battle, deck, fired, stacked, taker

DOCUMENTED_OVERLAPS = {
    ("peace-treaty", "classic-war"),
    ("a-bomb", "crossing-the-delaware"),
    ("queen-of-hearts", "helen-of-troy"),
    ("cold-war", "classic-war"),
    ("napoleon", "crossing-the-delaware"),
    ("royal-quarrel", "crossing-the-delaware"),
    ("crossing-the-delaware", "battalion"),
    ("halfsies", "battalion"),
    ("east-germany", "battalion"),
    ("the-clock", "battalion"),
    ("forty", "battalion"),
    ("reinforcements", "battalion"),
    ("switching-sides", "battalion"),
    ("spelling-the-suit", "battalion"),
}
"""Every pair of scenarios that can match the same two cards, in the order §7 plays them."""


def matching(first: str, second: str) -> list[str]:
    """The keys of the scenarios matching the pair of card ids, in precedence order."""
    pair = (Card.from_id(first), Card.from_id(second))
    return [s.key for s in SCENARIOS if s.applies(pair, Context())]


def test_every_overlap_of_scenarios_is_documented() -> None:
    """§7: over all 54 x 53 draws, the overlapping scenarios are exactly the documented pairs."""
    cards = standard_deck(jokers=2)
    seen = set()
    for a in cards:
        for b in cards:
            if a != b:
                keys = tuple(s.key for s in SCENARIOS if s.applies((a, b), Context()))
                assert len(keys) <= 2, f"{a.id} v {b.id} matches {keys}"
                if len(keys) == 2:
                    seen.add(keys)
    assert seen == DOCUMENTED_OVERLAPS


def test_battalion_is_always_last_in_the_order() -> None:
    """§7: Battalion is the last rule object of the precedence list."""
    assert SCENARIOS[-1].key == "battalion"


def test_diplomat_before_classic_war_for_two_diplomats() -> None:
    """§7: two Diplomats are no Classic War: each brings a peace treaty."""
    assert matching("X1", "X2")[0] == "peace-treaty"
    game = stacked("X1 2C 3C 4C 5C 6C 7C KC 9D", "X2 2D 3D 4D 5D 6D 7D 8S 10D")
    events = battle(game)
    assert fired(events) == ["peace-treaty"]
    assert [e.type for e in events].count("treaty") == 2 and len(game.aside) == 2


def test_a_bomb_before_crossing_the_delaware() -> None:
    """§7: A♠ against 2♠ is an A-Bomb, not a crossing."""
    assert matching("AS", "2S") == ["a-bomb", "crossing-the-delaware"]
    assert fired(battle(stacked("AS 3C 4C", "2S 7D 8D"))) == ["a-bomb"]


def test_a_bomb_with_one_card_left_falls_to_crossing_the_delaware() -> None:
    """§7, §6.21: when the A-Bomb may not apply, the next matching scenario is played."""
    assert fired(battle(stacked("AS 3C 4C", "2S 7D"))) == ["crossing-the-delaware"]


def test_queen_of_hearts_trumps_helen_of_troy() -> None:
    """§7: Q♥ against 5♥ is the Queen of Hearts, as the text says."""
    assert matching("QH", "5H") == ["queen-of-hearts", "helen-of-troy"]
    events = battle(stacked("QH 3D", "5H 2C 3C 4C 5C 6C 7C"))
    assert fired(events) == ["queen-of-hearts"]


def test_cold_war_overrides_classic_war() -> None:
    """§7: a red and a black Queen play Cold War, not Classic War."""
    assert matching("QD", "QS") == ["cold-war", "classic-war"]
    assert matching("QD", "QH") == ["classic-war"]


def test_napoleon_before_crossing_the_delaware() -> None:
    """§7: J♦ against 10♦ is Napoleon (10 cards face down), not a crossing."""
    assert matching("JD", "10D") == ["napoleon", "crossing-the-delaware"]


def test_royal_quarrel_before_crossing_the_delaware() -> None:
    """§7: K♥ against Q♠ is the royal quarrel; K♥ against Q♦ (same colour) is only a crossing."""
    assert matching("KH", "QS") == ["royal-quarrel", "crossing-the-delaware"]
    assert matching("KH", "QD") == ["crossing-the-delaware"]


def test_crossing_the_delaware_then_battalion_for_the_loser() -> None:
    """§7: 7♥-8♥: the 8 crosses; then the 7 defends by Battalion and wins everything."""
    game = stacked("7H 3C 4C 5H 6D", "8H 9H 2C KC 10S")
    events = battle(game)
    assert fired(events) == ["crossing-the-delaware", "battalion"]
    assert taker(events) == ANN
    assert deck(game, ANN) == {"6D", "7H", "8H", "9H", "2C", "3C", "4C", "5H", "KC"}


def test_failed_crossing_needs_no_battalion() -> None:
    """§7: the 8 draws nothing playable, the 7 wins the crossing; Battalion is not needed."""
    events = battle(stacked("7H 5C", "8H 2C KC 4D"))
    assert fired(events) == ["crossing-the-delaware"] and taker(events) == ANN


@pytest.mark.parametrize(("first", "second", "key"), [
    ("4H", "8H", "halfsies"),
    ("3H", "9H", "east-germany"),
    ("2H", "10H", "the-clock"),
    ("5H", "9H", "forty"),
    ("7H", "10H", "reinforcements"),
    ("6H", "9H", "switching-sides"),
    ("4H", "10H", "spelling-the-suit"),
])
def test_number_scenarios_before_battalion(first: str, second: str, key: str) -> None:
    """§7: a same-suit number pair plays its own scenario first, Battalion after."""
    assert matching(first, second) == [key, "battalion"]


def test_battalion_follows_when_the_lower_card_lost() -> None:
    """§7: 6♥ against 9♥: the 9 wins Switching sides, then the 6 defends by Battalion and wins."""
    game = stacked("6H 2H 3H 4C", "9H 5S 7C")
    events = battle(game)
    assert fired(events) == ["switching-sides", "battalion"]
    assert taker(events) == ANN


def test_battalion_not_played_when_the_lower_card_won() -> None:
    """§7: 4♥ against 8♥ is Halfsies, won by the 4: no Battalion."""
    events = battle(stacked("4H 2C", "8H 3C 5C"))
    assert fired(events) == ["halfsies"] and taker(events) == ANN


def test_repeated_battle_only_when_nothing_else_applies() -> None:
    """§7: a second 4 v 8 in a row is Halfsies again, never a repeated battle."""
    game = stacked("4S 4H 2C 3C", "8D 5D 8C 6D 7D")
    battle(game)
    assert fired(battle(game)) == ["halfsies"]


def test_only_regular_battles_are_remembered_for_the_repeat() -> None:
    """§6.11: a plain 3 v 7 is remembered for a repeat; a Halfsies 4 v 8 is not."""
    plain = stacked("3S 3H KD 5D 2S", "7D 7C 8C 5S 10S")
    battle(plain)
    assert plain.previous == ((3, 7), ("3S", "7D"))
    special = stacked("4S 3H 2S", "8D 7C 10S")
    battle(special)
    assert special.previous is None


def test_battle_outcome_for_both_orientations() -> None:
    """§7: the order does not depend on which seat holds which card."""
    assert matching("2S", "AS") == matching("AS", "2S")
    assert matching("5H", "QH") == matching("QH", "5H")
    assert taker(battle(stacked("8H 2C KC 4D", "7H 5C"))) == BOB
