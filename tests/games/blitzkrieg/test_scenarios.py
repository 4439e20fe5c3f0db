"""One named test per scenario of docs/rules/blitzkrieg.md §6, each on a stacked deck."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalAction
from tests.games.blitzkrieg.helpers import ANN, BOB, battle, conserved, deck, fired, stacked, taker

# ------------------------------------------------------------------ §6.1 Classic War


def test_classic_war_three_wins_need_no_fourth_battle() -> None:
    """§6.1: three inner battles won by one player win the Classic War at once."""
    game = stacked("7H 2S 3S 4S KC", "7C 5D 8D 9D QC")
    events = battle(game)
    assert fired(events) == ["classic-war"]
    assert taker(events) == BOB
    assert deck(game, BOB) == {"QC", "7H", "7C", "2S", "5D", "3S", "8D", "4S", "9D"}


def test_classic_war_two_cards_against_one_can_lose() -> None:
    """§6.1: after 2-1 the advantaged player's two cards (2+3) lose to the other's one (10)."""
    game = stacked("7H 2S 3S 9S 10C 6S", "7C 5D 8D 4D 2H 3H 6D")
    events = battle(game)
    assert taker(events) == ANN
    assert len(deck(game, ANN)) == 12 and deck(game, BOB) == {"6D"}


def test_classic_war_two_cards_against_one_can_win() -> None:
    """§6.1: after 2-1 the advantaged player's two cards (K+Q) beat the other's one (2)."""
    game = stacked("7H 2S 3S 9S 2C 6S", "7C 5D 8D 4D KH QH 6D")
    events = battle(game)
    assert taker(events) == BOB
    assert deck(game, ANN) == {"6S"}


def test_classic_war_nests_a_scenario_and_the_outer_winner_takes_all() -> None:
    """§5.1: a Halfsies inside Classic War resolves first; its bonus card goes to the outer winner's pot."""
    game = stacked("7H 2S KS QS 5C", "7C 4D JD 8D 9D 6C")
    events = battle(game)
    assert fired(events) == ["classic-war", "halfsies"]
    assert deck(game, ANN) == {"5C", "7H", "7C", "2S", "4D", "JD", "KS", "8D", "QS", "9D"}
    assert deck(game, BOB) == {"6C"}


# ------------------------------------------------------------------ §6.2 Halfsies


def test_halfsies_lower_card_wins_with_a_bonus_card() -> None:
    """§6.2: 4 against 8, the 4 wins and takes the opponent's top card as a bonus."""
    game = stacked("4H KS", "8C 5D 6S")
    events = battle(game)
    assert fired(events) == ["halfsies"]
    assert deck(game, ANN) == {"KS", "4H", "8C", "5D"} and deck(game, BOB) == {"6S"}


def test_halfsies_loser_is_the_higher_card() -> None:
    """§6.2: 10 against 5, the 10's player loses the battle and a bonus card."""
    game = stacked("10C 2S 3S", "5D 6D")
    events = battle(game)
    assert taker(events) == BOB and deck(game, BOB) == {"6D", "10C", "5D", "2S"}


# ------------------------------------------------------------------ §6.3 Battalion


def test_battalion_back_and_forth_until_the_wrong_colour() -> None:
    """§6.3: 5♥ calls 3♥ (8), K♦ (nothing), 2♥ (10); 8♥ answers 4♥ (12); 5's next is black: 8 wins."""
    game = stacked("5H 3H KD 2H 9S 6C", "8H 4H 7C")
    events = battle(game)
    assert fired(events) == ["battalion"]
    assert taker(events) == BOB and deck(game, ANN) == {"6C"}


def test_battalion_lower_number_wins_on_the_opponents_wrong_colour() -> None:
    """§6.3: 5♥ musters 9 against 8; 8♥ then draws a black card and loses."""
    game = stacked("5H 4H 6C", "8H 2S 7C")
    events = battle(game)
    assert taker(events) == ANN and deck(game, ANN) == {"6C", "5H", "8H", "4H", "2S"}


def test_battalion_ace_counts_one_troop() -> None:
    """§6.3: A♥ adds one troop, so 5+1+2 = 8 exceeds 7 and the 7 must answer (and fails)."""
    game = stacked("5H AH 2H 6C 6D", "7H 3C 8S")
    events = battle(game)
    assert taker(events) == ANN


# ------------------------------------------------------------------ §6.4 Crossing the Delaware


def test_delaware_advantage_draws_nothing_playable_and_loses() -> None:
    """§6.4: 8 draws 2 and K (neither plays with 7-8): the 7 wins."""
    game = stacked("7S 5C", "8D 2C KC 4H")
    events = battle(game)
    assert fired(events) == ["crossing-the-delaware"]
    assert taker(events) == ANN and deck(game, ANN) == {"5C", "7S", "8D", "2C", "KC"}


def test_delaware_crossed_stops_after_two_misses_in_a_row() -> None:
    """§6.4: the loser keeps giving cards (6, 2 miss, 10, K miss, 3 miss) and stops at two misses."""
    game = stacked("7S 6H 2D 10H KC 3D 5C", "8D 9C 2C 4H")
    events = battle(game)
    assert taker(events) == BOB
    assert deck(game, ANN) == {"5C"}
    assert deck(game, BOB) == {"4H", "7S", "8D", "9C", "2C", "6H", "2D", "10H", "KC", "3D"}


def test_delaware_complete_straight_stops_the_crossing() -> None:
    """§6.4: the straight completes Ace to King (cyclically) and the crossing ends there."""
    game = stacked("7S 5H 10H 4H JH 3H QH 2H KH AH 5C", "8D 9C 6C 4D")
    battle(game)
    assert deck(game, ANN) == {"5C"}


def test_delaware_is_cyclic_king_against_ace() -> None:
    """§6.4: K and A are in sequence; the Ace is the higher card and draws two."""
    game = stacked("KS 2C 5C", "AD 3D 9D 4H")
    events = battle(game)
    assert fired(events) == ["crossing-the-delaware"]
    assert taker(events) == ANN  # the Ace's 3 and 9 do not play with K-A, nor with each other


def test_delaware_ace_against_two_the_two_is_higher() -> None:
    """§6.4 ruling: A–2 is a sequence only because the Ace counts 1, so the 2's player draws two."""
    game = stacked("AS 5C 9D", "2H 7D 10C")
    events = battle(game)
    assert fired(events) == ["crossing-the-delaware"]
    assert taker(events) == ANN  # the 2's 7 and 10 do not play with A-2: the lower card (the Ace) wins


def test_delaware_ace_against_two_the_two_crosses() -> None:
    """§6.4 ruling: the 2's player draws a 3, which extends A-2: the 2's player crosses and wins."""
    game = stacked("AS 6D 9S 4C", "2H 3C 8C")
    events = battle(game)
    assert fired(events) == ["crossing-the-delaware"]
    assert taker(events) == BOB


# ------------------------------------------------------------------ §6.5 Napoleon


def test_napoleon_defender_turns_the_jacks_suit_and_wins() -> None:
    """§6.5: J♥ against 3♥; the 3's player turns card 2 (9♥, the Jack's suit) and wins."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    events = battle(game)
    assert fired(events) == ["napoleon"]
    assert game.legal_actions(BOB) == [{"type": "turn", "position": n} for n in (1, 2, 3)]
    assert game.legal_actions(ANN) == []
    events = game.apply(BOB, {"type": "turn", "position": 2})
    assert taker(events) == BOB and deck(game, ANN) == {"4C"}


def test_napoleon_other_suit_loses_to_the_jack() -> None:
    """§6.5: turning 5♣ (not hearts) gives the battle to the Jack."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    events = game.apply(BOB, {"type": "turn", "position": 1})
    assert taker(events) == ANN and deck(game, BOB) == {"6D"}


def test_napoleon_face_down_cards_are_hidden_from_both() -> None:
    """§6.5: the face-down cards appear in nobody's view until turned."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    for who in (ANN, BOB, None):
        assert {"5C", "9H", "2S"} <= game.hidden_cards(who)
        assert '"9H"' not in str(game.view(who)).replace("'", '"')


# ------------------------------------------------------------------ §6.6 The King's assassination


def test_kings_assassination_ace_kills_the_king() -> None:
    """§6.6: 4♠ against K♠: the second of four draws is an Ace, the assassin wins."""
    game = stacked("KS 9D", "4S 5C AD 6C")
    events = battle(game)
    assert fired(events) == ["kings-assassination"]
    assert taker(events) == BOB and deck(game, BOB) == {"6C", "KS", "4S", "5C", "AD"}


def test_kings_assassination_no_ace_the_king_survives() -> None:
    """§6.6: four draws without an Ace (the Ace comes fifth): the King wins."""
    game = stacked("KS 9D", "4S 5C 6C 7C 8C AD")
    events = battle(game)
    assert taker(events) == ANN and deck(game, BOB) == {"AD"}


# ------------------------------------------------------------------ §6.7 Helen of Troy


def test_helen_of_troy_higher_final_card_defends() -> None:
    """§6.7: 3♣ lays 2♦ 9♥ 5♠; the best, 9♥, meets 10♦: higher, the defender wins."""
    game = stacked("QC 4D", "3C 2D 9H 5S 10D 6S")
    events = battle(game)
    assert fired(events) == ["helen-of-troy"]
    assert taker(events) == BOB


def test_helen_of_troy_tie_is_a_loss_for_the_defender() -> None:
    """§6.7, §5.4: 9♥ against the defender's own 9♠ is a tie, and a tie is a loss: the Queen wins."""
    game = stacked("QC 4D", "3C 2D 9H 5S 9S 6S")
    events = battle(game)
    assert taker(events) == ANN


# ------------------------------------------------------------------ §6.8 The Queen of Hearts


def test_queen_of_hearts_keeps_red_and_hands_back_black() -> None:
    """§6.8: Q♥ against 4♠ takes four cards, keeps 2♥ and 9♦, gives 5♣ and 7♠ back."""
    game = stacked("QH 3D", "4S 2H 5C 9D 7S 6C")
    events = battle(game)
    assert fired(events) == ["queen-of-hearts"]
    assert deck(game, ANN) == {"3D", "QH", "4S", "2H", "9D"}
    assert deck(game, BOB) == {"6C", "5C", "7S"}


# ------------------------------------------------------------------ §6.9 Cold War

COLD = ("QD KH KD KC 9S 2C 8D", "QS 2S 3S 4S 5S 6S 8C")


def test_cold_war_hand_is_hidden_from_the_opponent() -> None:
    """§6.9: each player sees their own five cards, never the other's."""
    game = stacked(*COLD)
    battle(game)
    ann_view = str(game.view(ANN))
    assert "'KH'" in ann_view and "'2S'" not in ann_view
    assert {"2S", "3S", "4S", "5S", "6S"} <= game.hidden_cards(ANN)
    assert {"KH", "KD", "KC", "9S", "2C"} <= game.hidden_cards(BOB)
    assert game.legal_actions(ANN) == [{"type": "challenge"}, {"type": "disarm"}]


def test_cold_war_challenge_with_the_higher_hand_wins() -> None:
    """§6.9: the red Queen challenges with 50 against 20 and wins all twelve cards."""
    game = stacked(*COLD)
    battle(game)
    events = game.apply(ANN, {"type": "challenge"})
    assert taker(events) == ANN and deck(game, BOB) == {"8C"}


def test_cold_war_challenge_with_the_lower_hand_loses() -> None:
    """§6.9: a challenge on the weaker hand gives everything to the black Queen."""
    game = stacked(COLD[1].replace("QS", "QH").replace("S", "H"), COLD[0].replace("QD", "QS"))
    battle(game)
    events = game.apply(ANN, {"type": "challenge"})
    assert taker(events) == BOB


def test_cold_war_disarm_returns_each_side_its_cards() -> None:
    """§6.9: after a disarm each player takes back their Queen and hand; nobody wins."""
    game = stacked(*COLD)
    battle(game)
    events = game.apply(ANN, {"type": "disarm"})
    assert taker(events) is None
    assert deck(game, ANN) == set(COLD[0].split()) and deck(game, BOB) == set(COLD[1].split())


def test_cold_war_only_the_red_queen_chooses() -> None:
    """§6.9: the black Queen's player may not answer for the red Queen."""
    game = stacked(*COLD)
    battle(game)
    with pytest.raises(IllegalAction):
        game.apply(BOB, {"type": "challenge"})


# ------------------------------------------------------------------ §6.10 The royal quarrel


def test_royal_quarrel_three_of_a_colour_win() -> None:
    """§6.10: K♥ against Q♠; 2♥ 3♦ | 4♠ 5♥ are three red: the red King wins."""
    game = stacked("KH 2H 3D 9C", "QS 4S 5H 9D")
    events = battle(game)
    assert fired(events) == ["royal-quarrel"]
    assert taker(events) == ANN


def test_royal_quarrel_two_and_two_draw_four_more() -> None:
    """§6.10: two red, two black, then four more with three black: the black Queen wins."""
    game = stacked("KH 2H 3C 6S 7C 9C", "QS 4S 5D 8H 9S 9D")
    events = battle(game)
    assert taker(events) == BOB
    assert deck(game, ANN) == {"9C"}


# ------------------------------------------------------------------ §6.11 The repeated battle


def test_repeated_battle_four_separate_battles() -> None:
    """§6.11: 3 v 7 twice in a row: one 3 and one 7 each, then four battles won one by one."""
    game = stacked("3S 3H KD 5D 2S", "7D 7C 8C 5S 10S")
    assert taker(battle(game)) == BOB
    events = battle(game)
    assert fired(events) == ["repeated-battle"]
    assert taker(events) is None
    assert deck(game, ANN) == {"2S", "KD", "7C", "5D", "3S", "7D", "5S"}
    assert deck(game, BOB) == {"10S", "3H", "8C"}
    assert conserved(game) and game.table == []


def test_repeated_battle_needs_the_same_ranks() -> None:
    """§6.11: 3 v 7 then 3 v 8 is just another battle."""
    game = stacked("3S 3H 2S", "7D 8C 10S")
    battle(game)
    assert fired(battle(game)) == []


# ------------------------------------------------------------------ §6.12 The Diplomat's peace treaty


def test_peace_treaty_exchanges_the_cards_then_the_battle_resumes() -> None:
    """§6.12: the Diplomat goes aside, the three-card groups are exchanged, K♣ then beats the waiting 5♠."""
    game = stacked("X1 2C 3C 4C KC 6D", "5S 7H 8H 9H 10D")
    events = battle(game)
    assert fired(events) == ["peace-treaty"]
    assert [c.id for c in game.aside] == ["X1"] and conserved(game)
    assert taker(events) == ANN
    assert deck(game, ANN) == {"6D", "7H", "8H", "9H", "KC", "5S"}
    assert deck(game, BOB) == {"10D", "2C", "3C", "4C"}


def test_peace_treaty_a_match_takes_all_six() -> None:
    """§6.12: bob's second card (2♥) matches ann's first (2♣): bob takes all six."""
    game = stacked("X1 2C 3C 4C KC 6D", "5S 7H 2H 8H 10D")
    battle(game)
    assert {"2C", "3C", "4C", "7H", "2H", "8H"} <= deck(game, BOB)


def test_diplomat_interrupts_a_running_scenario_then_it_resumes() -> None:
    """§6.12: a Diplomat among the assassin's draws stops everything for a treaty; then the hunt goes on."""
    game = stacked("KS 2C 3C 4C 9D", "4S 5C X1 7H 8H 10H AD 6D")
    events = battle(game)
    assert fired(events) == ["kings-assassination", "peace-treaty"]
    assert taker(events) == BOB
    assert deck(game, ANN) == {"9D", "7H", "8H", "10H"}
    assert deck(game, BOB) == {"6D", "2C", "3C", "4C", "KS", "4S", "5C", "AD"}
    assert conserved(game)


# ------------------------------------------------------------------ §6.13 East Germany


def test_east_germany_a_nine_grants_three_more_chances() -> None:
    """§6.13: 5, 9 (three more), 6, 7, then a 3 on the fifth draw: over the wall."""
    game = stacked("3S 5C 9D 6C 7C 3H 2D", "9H 4D")
    events = battle(game)
    assert fired(events) == ["east-germany"]
    assert taker(events) == ANN


def test_east_germany_no_three_the_nine_wins() -> None:
    """§6.13: three draws without a 3: the 9 wins."""
    game = stacked("3S 5C 6C 7C 3H", "9H 4D")
    events = battle(game)
    assert taker(events) == BOB and deck(game, ANN) == {"3H"}


# ------------------------------------------------------------------ §6.14, §6.15 Foxhole, Royal Foxhole

TEN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"
TWENTY = TEN + " 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"


def test_foxhole_filled_wins_ten_bonus_cards() -> None:
    """§6.14: J♠ against K♥; the King's player turns a Queen and wins ten more cards."""
    game = stacked(f"JS {TEN} AH", "KH QC 2H")
    events = battle(game)
    assert fired(events) == ["foxhole"]
    assert deck(game, ANN) == {"AH"} and len(deck(game, BOB)) == 14


def test_foxhole_unfilled_wins_without_bonus() -> None:
    """§6.14: the King's player turns 5♦: the battle is won, no bonus."""
    game = stacked(f"JS {TEN} AH", "KH 5D 2H")
    events = battle(game)
    assert taker(events) == BOB and len(deck(game, ANN)) == 11


def test_foxhole_queen_against_ace_filled_by_a_king() -> None:
    """§6.14: Q♠ against A♥, the Ace wins; a King fills the hole for ten more."""
    game = stacked(f"QS {TEN} AD", "AH KD 2H")
    battle(game)
    assert deck(game, ANN) == {"AD"}


def test_royal_foxhole_same_suit_royal_wins_twenty() -> None:
    """§6.15: J♠ against K♠; Q♠ fills the hole: twenty bonus cards."""
    game = stacked(f"JS {TWENTY} AH", "KS QS 2H")
    events = battle(game)
    assert fired(events) == ["royal-foxhole"]
    assert deck(game, ANN) == {"AH"}


def test_royal_foxhole_other_suit_royal_wins_ten() -> None:
    """§6.15 ruling: Q♦ fills a J♠-K♠ hole as in Foxhole: ten bonus cards."""
    game = stacked(f"JS {TWENTY} AH", "KS QD 2H")
    battle(game)
    assert len(deck(game, ANN)) == 11


# ------------------------------------------------------------------ §6.16 Switching sides


def test_switching_sides_swaps_decks_winnings_included() -> None:
    """§6.16: the 9 wins the 6, then the players switch decks with the winnings in them."""
    game = stacked("6S 2C 3C", "9H 4D")
    events = battle(game)
    assert fired(events) == ["switching-sides"]
    assert taker(events) == BOB
    assert deck(game, ANN) == {"4D", "6S", "9H"} and deck(game, BOB) == {"2C", "3C"}


# ------------------------------------------------------------------ §6.17 The clock

CLOCK = ("10S 4D", "2H 3C 4C 5C 6C 7C 8C 9C JC QC KC 9D 6D")


def test_clock_turned_hour_beaten_by_the_final_card_defends() -> None:
    """§6.17: hour 1 holds 3♣, the final 9♦ beats it: the 2's player wins."""
    game = stacked(*CLOCK)
    events = battle(game)
    assert fired(events) == ["the-clock"]
    assert game.legal_actions(BOB)[0] == {"type": "turn", "position": 1}
    assert len(game.legal_actions(BOB)) == 10
    assert taker(game.apply(BOB, {"type": "turn", "position": 1})) == BOB


def test_clock_higher_hour_card_wins_for_the_ten() -> None:
    """§6.17: hour 12 holds K♣, the final 9♦ loses: the 10's player wins."""
    game = stacked(*CLOCK)
    battle(game)
    assert taker(game.apply(BOB, {"type": "turn", "position": 12})) == ANN


def test_clock_tie_is_a_loss() -> None:
    """§6.17, §5.4: hour 8 holds 9♣ against the final 9♦: a tie, the 2's player loses."""
    game = stacked(*CLOCK)
    battle(game)
    assert taker(game.apply(BOB, {"type": "turn", "position": 8})) == ANN


def test_clock_refuses_the_hours_of_the_ten_and_the_two() -> None:
    """§6.17: hours 2 and 10 hold the battle cards; they cannot be turned."""
    game = stacked(*CLOCK)
    battle(game)
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.apply(BOB, {"type": "turn", "position": 10})
    assert game.snapshot() == before


# ------------------------------------------------------------------ §6.18 Forty


def test_forty_exactly_forty_wins() -> None:
    """§6.18: K K 10 3 A = 40: the 5's player wins."""
    game = stacked("9S 4D", "5H KC KD 10C 3C AC 6D")
    events = battle(game)
    assert fired(events) == ["forty"]
    assert taker(events) == BOB


def test_forty_over_forty_costs_the_surplus() -> None:
    """§6.18: K K K A 2 = 42: the 9 wins and two more cards from the 5's deck."""
    game = stacked("9S 4D", "5H KC KD KH AC 2C 6D 7D 8D")
    events = battle(game)
    assert taker(events) == ANN and deck(game, BOB) == {"8D"}


def test_forty_under_forty_loses_without_surplus() -> None:
    """§6.18: 2 3 4 6 7 = 22: the 9 wins, nothing extra."""
    game = stacked("9S 4D", "5H 2C 3C 4C 6C 7C 6D 7D")
    battle(game)
    assert deck(game, BOB) == {"6D", "7D"}


# ------------------------------------------------------------------ §6.19 Eight reinforcements

EIGHT = "2C 3C 4C 5C 6C 8C 9C 10C"


def test_reinforcements_jack_or_higher_beats_the_ten() -> None:
    """§6.19: the 7's player adds eight cards, then J♦ beats the 10."""
    game = stacked(f"7S {EIGHT} JD 2D", "10H 4D")
    events = battle(game)
    assert fired(events) == ["reinforcements"]
    assert taker(events) == ANN and deck(game, BOB) == {"4D"}


def test_reinforcements_ace_beats_the_ten() -> None:
    """§6.19: no scenario applies to the final card, so an Ace beats the 10."""
    game = stacked(f"7S {EIGHT} AD 2D", "10H 4D")
    assert taker(battle(game)) == ANN


def test_reinforcements_a_ten_does_not_beat_the_ten() -> None:
    """§6.19: 10♦ only ties the 10: the 10's player takes all eleven cards."""
    game = stacked("7S 2C 3C 4C 5C 6C 8C 9C JC 10D 2D", "10H 4D")
    events = battle(game)
    assert taker(events) == BOB and deck(game, ANN) == {"2D"}


# ------------------------------------------------------------------ §6.20 Spelling the suit


def test_spelling_the_suit_counts_the_letters() -> None:
    """§6.20: 10♠ draws six (spades), 4♣ draws five (clubs); the larger total wins."""
    game = stacked("10S KC KD KH KS QC QD 2S", "4C 2H 3H 4H 5H 6H 7S")
    events = battle(game)
    assert fired(events) == ["spelling-the-suit"]
    assert taker(events) == ANN
    assert deck(game, BOB) == {"7S"}


def test_spelling_the_suit_diamonds_draw_eight() -> None:
    """§6.20: 4♦ draws eight cards (diamonds) and outnumbers 10♣'s five."""
    game = stacked("10C 2S 3S 4S 5S 6S 7S", "4D 2H 3H 4H 5H 6H 7H 8H 9H 10S")
    events = battle(game)
    assert taker(events) == BOB and deck(game, ANN) == {"7S"}


# ------------------------------------------------------------------ §6.21 A-Bomb


def test_a_bomb_ace_turned_wins_the_whole_game() -> None:
    """§6.21: A♠ against 5♠; the opponent's top card is an Ace: game over."""
    game = stacked("AS 2C 3C", "5S AH 3D 4D")
    events = battle(game)
    assert fired(events) == ["a-bomb"]
    assert game.is_over and game.result().winners == (ANN,)
    assert game.result().detail["reason"] == "a-bomb"
    assert conserved(game)


def test_a_bomb_dud_the_ace_still_wins_the_battle() -> None:
    """§6.21 ruling: the turned card is no Ace; the Ace wins the battle and the turned card."""
    game = stacked("AS 2C 3C", "5S 7D 3D 4D")
    events = battle(game)
    assert not game.is_over and taker(events) == ANN
    assert deck(game, ANN) == {"2C", "3C", "AS", "5S", "7D"}


def test_a_bomb_not_with_one_card_left() -> None:
    """§6.21: with one card left in a deck the A-Bomb is not applied; the Ace wins plainly."""
    game = stacked("AS 2C 3C", "5S AH")
    events = battle(game)
    assert fired(events) == []
    assert not game.is_over and deck(game, BOB) == {"AH"}


def test_no_repeated_battle_after_a_peace_treaty() -> None:
    """§6.11, §6.12: 3 v 7, then a treaty brings 3 v 7 again: not regular, so no repeated battle."""
    game = stacked("3S X1 2C 4C 6C 3H 9D", "7D 7C 8H 10H QH 5S 10S")
    battle(game)
    events = battle(game)
    assert fired(events) == ["peace-treaty"] and taker(events) == BOB


def test_disarmed_cold_war_inside_classic_war_is_fought_again() -> None:
    """§5.3 ruling: a disarm inside Classic War returns the hands and the inner battle is fought again."""
    game = stacked("7H QD 2S 3S 4S 5S 6S KD KS QC 9S", "7C QS 2H 3H 4H 5H 6H 2C 3C 4D 9D")
    events = battle(game)
    assert fired(events) == ["classic-war", "cold-war"]
    assert game.view(None)["pending"] == {"kind": "cold-war", "player": ANN, "options": ["challenge", "disarm"]}
    events = game.apply(ANN, {"type": "disarm"})
    assert taker(events) == ANN
    assert deck(game, BOB) == {"9D", "QS", "2H", "3H", "4H", "5H", "6H"}
    assert conserved(game)
