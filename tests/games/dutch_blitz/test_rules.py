"""Named rule tests of the Dutch Blitz engine (docs/rules/dutch-blitz.md)."""

from __future__ import annotations

import pytest

from bot.engine.cards import blitz_deck
from bot.engine.core import IllegalAction
from bot.games.dutch_blitz.engine import BETWEEN, OVER, PLAY
from tests.games.dutch_blitz.helpers import card, cards, centre, lay, new_game

# ---------------------------------------------------------------- §1 layout


def test_two_players_get_five_post_piles():
    """With two players each has five Post piles of one card."""
    game = new_game(2)
    assert [len(seat.posts) for seat in game.seats] == [5, 5]
    assert all(len(p) == 1 for seat in game.seats for p in seat.posts)


@pytest.mark.parametrize("players", [3, 4, 8])
def test_three_or_more_players_get_three_post_piles(players):
    """With three to eight players each has three Post piles."""
    game = new_game(players)
    assert {len(seat.posts) for seat in game.seats} == {3}


@pytest.mark.parametrize("players, hand", [(2, 25), (4, 27)])
def test_deal_is_ten_blitz_cards_and_the_rest_in_hand(players, hand):
    """Each seat gets a 10-card Blitz pile, the rest face down in hand, the Wood pile empty."""
    game = new_game(players)
    assert [(len(s.blitz), len(s.hand), len(s.wood)) for s in game.seats] == [(10, hand, 0)] * players


def test_each_seat_plays_its_own_forty_card_deck():
    """Seat i holds exactly the 40 cards of blitz_deck(i)."""
    game = new_game(3)
    for i, seat in enumerate(game.seats):
        assert sorted(seat.cards()) == sorted(blitz_deck(i))


def test_one_player_is_refused():
    """Dutch Blitz needs at least two players."""
    with pytest.raises(ValueError, match="2-8 players"):
        new_game(1)


def test_nine_players_are_refused():
    """Eight players at most (expansion decks)."""
    with pytest.raises(ValueError, match="2-8 players"):
        new_game(9)


@pytest.mark.parametrize("options, name", [
    ({"target": 0}, "target"),
    ({"target": "75"}, "target"),
    ({"move_post_stacks": "yes"}, "move_post_stacks"),
    ({"stuck_seconds": -1}, "stuck_seconds"),
    ({"stuck_seconds": 1.5}, "stuck_seconds"),
    ({"max_hands": 0}, "max_hands"),
    ({"max_hands": True}, "max_hands"),
])
def test_bad_options_are_refused_naming_the_option(options, name):
    """Options are validated; the error names the option and the bad value."""
    with pytest.raises(ValueError, match=f"option {name} must be .*got"):
        new_game(**options)


def test_default_options_follow_the_rules():
    """target 75, whole Post piles may not move, stuck rule after 60 s, at most 30 hands."""
    options = new_game().options
    assert (options.target, options.move_post_stacks, options.stuck_seconds, options.max_hands) == (75, False, 60, 30)


# ---------------------------------------------------------------- §3 Dutch piles


def test_two_on_an_empty_centre_is_refused():
    """Only a 1 starts a Dutch pile: a 2 with no pile to go on is refused."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"])
    with pytest.raises(IllegalAction, match="only a 1 starts a Dutch pile"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})


def test_one_starts_a_new_dutch_pile():
    """A 1 sent with pile null starts pile 0."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.dutch == [[card("0R1")]]


def test_one_aimed_at_a_pile_is_refused():
    """A 1 cannot go on an existing pile; it starts its own."""
    game = new_game()
    centre(game, "1B1")
    lay(game, 0, blitz="0G9 0R1", posts=["0B7"])
    with pytest.raises(IllegalAction, match="starts a new Dutch pile"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 0})


def test_colour_mismatch_is_refused():
    """A blue 2 cannot go on a red 1."""
    game = new_game()
    centre(game, "1R1")
    lay(game, 0, blitz="0G9 0B2", posts=["0B7"])
    with pytest.raises(IllegalAction, match="is red"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 0})


def test_skipped_value_is_refused():
    """A red 3 cannot go on a red 1."""
    game = new_game()
    centre(game, "1R1")
    lay(game, 0, blitz="0G9 0R3", posts=["0B7"])
    with pytest.raises(IllegalAction, match="needs a 2, not a 3"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 0})


def test_any_player_may_play_on_another_players_pile():
    """A pile started by one player takes the next card from another player."""
    game = new_game()
    centre(game, "1R1")
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 0})
    assert game.dutch[0] == cards("1R1 0R2")


def test_a_ten_closes_a_pile():
    """A pile that reaches 10 is complete and refuses any further card."""
    game = new_game()
    centre(game, "1R1 1R2 1R3 1R4 1R5 1R6 1R7 1R8 1R9")
    lay(game, 0, blitz="0G9 0R10", posts=["0B7"])
    lay(game, 1, blitz="1G9 1R10", posts=["1B7"])
    events = game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 0})
    assert events[0].data["complete"] is True
    assert not [a for a in game.legal_actions("p1") if a["type"] == "dutch"]
    with pytest.raises(IllegalAction, match="complete at 10"):
        game.apply("p1", {"type": "dutch", "from": "blitz", "pile": 0})


def test_two_piles_of_one_colour_coexist():
    """Two red 1s start two red piles side by side."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R1", posts=["0B7"])
    lay(game, 1, blitz="1G9 1R1", posts=["1B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    game.apply("p1", {"type": "dutch", "from": "blitz", "pile": None})
    assert [p[-1].colour for p in game.dutch] == ["red", "red"]


def test_a_card_fitting_two_piles_is_offered_on_both():
    """A red 2 with two red 1s in the centre may go on either pile."""
    game = new_game()
    centre(game, "1R1", "0R1")
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"])
    offered = [a["pile"] for a in game.legal_actions("p0") if a["type"] == "dutch"]
    assert offered == [0, 1]


# ---------------------------------------------------------------- §2 only tops, one card per action


def test_only_the_top_of_the_blitz_pile_is_playable():
    """A 1 under the Blitz pile's top is not offered; "from blitz" plays the top card."""
    game = new_game()
    lay(game, 0, blitz="0G1 0R2 0Y5", posts=["0B8"])
    assert not [a for a in game.legal_actions("p0") if a["type"] == "dutch"]
    with pytest.raises(IllegalAction, match="only a 1 starts"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})


def test_only_the_top_of_a_post_pile_is_playable():
    """A red 3 covered by a Post pile's top is not offered for a red pile at 2."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0R3 0Y2"])
    centre(game, "1R1 1R2")
    assert not [a for a in game.legal_actions("p0") if a["type"] == "dutch"]


def test_only_the_top_of_the_wood_pile_is_playable():
    """A 1 under the Wood pile's top is not offered."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"], wood="0R1 0Y6")
    assert not [a for a in game.legal_actions("p0") if a["type"] == "dutch"]


# ---------------------------------------------------------------- §4 Post piles


def test_a_boy_on_a_boy_is_refused_on_a_post_pile():
    """A blue 5 cannot go on a red 6 (both boys)."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B5", posts=["0R6"])
    with pytest.raises(IllegalAction, match="boys and girls alternate"):
        game.apply("p0", {"type": "post", "from": "blitz", "to": "post:0"})


def test_a_four_on_a_six_is_refused_on_a_post_pile():
    """A Post pile takes exactly one lower: a 4 on a 6 is refused."""
    game = new_game()
    lay(game, 0, blitz="0G9 0Y4", posts=["0R6"])
    with pytest.raises(IllegalAction, match="only a 5 goes on it, not a 4"):
        game.apply("p0", {"type": "post", "from": "blitz", "to": "post:0"})


def test_a_seven_on_a_six_is_refused_on_a_post_pile():
    """Post piles descend: a 7 on a 6 is refused."""
    game = new_game()
    lay(game, 0, blitz="0G9 0Y7", posts=["0R6"])
    with pytest.raises(IllegalAction, match="only a 5 goes on it, not a 7"):
        game.apply("p0", {"type": "post", "from": "blitz", "to": "post:0"})


def test_a_girl_one_lower_builds_on_a_boy_from_the_blitz_pile():
    """A yellow 5 from the Blitz pile goes on a red 6."""
    game = new_game()
    lay(game, 0, blitz="0G9 0Y5", posts=["0R6"])
    game.apply("p0", {"type": "post", "from": "blitz", "to": "post:0"})
    assert game.seats[0].posts[0] == cards("0R6 0Y5")
    assert game.seats[0].blitz == cards("0G9")


def test_a_post_pile_builds_from_the_wood_pile():
    """The Wood pile's top may be built onto a Post pile."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0R6"], wood="0B2 0Y5")
    game.apply("p0", {"type": "post", "from": "wood", "to": "post:0"})
    assert game.seats[0].posts[0] == cards("0R6 0Y5")
    assert game.seats[0].wood == cards("0B2")


def test_a_post_pile_builds_from_another_post_pile():
    """The top of one Post pile may be built onto another."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0R7", "0B7 0Y6"])
    game.apply("p0", {"type": "post", "from": "post:1", "to": "post:0"})
    assert game.seats[0].posts[:2] == [cards("0R7 0Y6"), cards("0B7")]


def test_a_card_cannot_move_onto_its_own_post_pile():
    """Moving a Post pile's top onto the same pile is refused."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0R7 0Y6"])
    with pytest.raises(IllegalAction, match="its own Post pile"):
        game.apply("p0", {"type": "post", "from": "post:0", "to": "post:0"})


# ---------------------------------------------------------------- §6 refill


def test_an_emptied_post_pile_is_refilled_from_the_blitz_pile_in_the_same_action():
    """Playing a Post pile's only card to the centre refills it with the Blitz top at once."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B4", posts=["0R8", "0Y1"])
    events = game.apply("p0", {"type": "dutch", "from": "post:1", "pile": None})
    assert game.seats[0].posts[1] == cards("0B4")
    assert game.seats[0].blitz == cards("0G9")
    assert [e.type for e in events] == ["dutch", "refill"]


def test_a_post_pile_emptied_onto_another_post_pile_is_refilled():
    """Building a Post pile's only card onto another refills it from the Blitz pile."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B4", posts=["0R8", "0Y7"])
    game.apply("p0", {"type": "post", "from": "post:1", "to": "post:0"})
    assert game.seats[0].posts[:2] == [cards("0R8 0Y7"), cards("0B4")]


# ---------------------------------------------------------------- §5 move_post_stacks


def test_moving_a_whole_post_pile_is_refused_by_default():
    """Without move_post_stacks a whole Post pile cannot move, and no stack move is offered."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B4", posts=["0R8", "0Y7 0B6"])
    assert not [a for a in game.legal_actions("p0") if a["type"] == "stack"]
    with pytest.raises(IllegalAction, match="move_post_stacks"):
        game.apply("p0", {"type": "stack", "from": "post:1", "to": "post:0"})


def test_move_post_stacks_moves_a_whole_pile_whose_bottom_card_fits():
    """With move_post_stacks a run whose bottom fits moves whole, and its place is refilled."""
    game = new_game(move_post_stacks=True)
    lay(game, 0, blitz="0G9 0B4", posts=["0R8", "0Y7 0B6"])
    assert {"type": "stack", "from": "post:1", "to": "post:0"} in game.legal_actions("p0")
    game.apply("p0", {"type": "stack", "from": "post:1", "to": "post:0"})
    assert game.seats[0].posts[:2] == [cards("0R8 0Y7 0B6"), cards("0B4")]


def test_move_post_stacks_refuses_a_pile_whose_bottom_card_does_not_fit():
    """With move_post_stacks the bottom card must fit the target's top."""
    game = new_game(move_post_stacks=True)
    lay(game, 0, blitz="0G9 0B4", posts=["0R9", "0Y7 0B6"])
    with pytest.raises(IllegalAction, match="only a 8 goes on it, not a 7"):
        game.apply("p0", {"type": "stack", "from": "post:1", "to": "post:0"})


# ---------------------------------------------------------------- §7 Wood pile


def test_flip_turns_three_cards_and_the_third_ends_on_top():
    """A flip moves the hand's top three to the Wood pile, keeping order, the third on top."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"], hand="0R2 0R3 0R4 0R5")
    game.apply("p0", {"type": "flip"})
    assert game.seats[0].wood == cards("0R2 0R3 0R4")
    assert game.seats[0].wood[-1] == card("0R4")
    assert game.seats[0].hand == cards("0R5")


def test_flip_turns_fewer_cards_at_the_end_of_the_hand():
    """With two cards left in hand a flip turns both."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"], wood="0Y9", hand="0R2 0R3")
    game.apply("p0", {"type": "flip"})
    assert game.seats[0].wood == cards("0Y9 0R2 0R3")
    assert game.seats[0].hand == []


def test_turning_the_wood_pile_over_keeps_its_order():
    """With the hand empty a flip turns the Wood pile over unshuffled, then flips three."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"], wood="0R2 0R3 0R4 0R5 0R6")
    events = game.apply("p0", {"type": "flip"})
    assert game.seats[0].wood == cards("0R2 0R3 0R4")
    assert game.seats[0].hand == cards("0R5 0R6")
    assert events[0].data["turned_over"] is True


def test_flip_is_refused_with_no_cards_in_hand_or_wood_pile():
    """Nothing to flip: refused."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"])
    with pytest.raises(IllegalAction, match="no cards in your hand or Wood pile"):
        game.apply("p0", {"type": "flip"})


def test_flip_is_allowed_while_a_dutch_play_exists():
    """Flipping is allowed at any time (ruling: nobody can police "only when stuck")."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R1", posts=["0B7"], hand="0R2 0R3 0R4")
    assert {"type": "flip"} in game.legal_actions("p0")


def test_shift_is_refused_while_a_dutch_play_exists():
    """The shift is only for a stuck player: refused while any visible card fits a Dutch pile."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R1", posts=["0B7"], wood="0Y6", hand="0R2")
    assert {"type": "shift"} not in game.legal_actions("p0")
    with pytest.raises(IllegalAction, match="shifting is only for when you are stuck"):
        game.apply("p0", {"type": "shift"})


def test_shift_moves_the_wood_top_to_the_bottom_of_the_hand():
    """Stuck, the Wood pile's top card goes under the hand."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"], wood="0Y5 0Y6", hand="0R2 0R3")
    game.apply("p0", {"type": "shift"})
    assert game.seats[0].wood == cards("0Y5")
    assert game.seats[0].hand == cards("0R2 0R3 0Y6")


# ---------------------------------------------------------------- §8 end of the hand


def test_the_hand_ends_on_the_last_blitz_card_to_a_dutch_pile():
    """Playing the last Blitz card to the centre ends the hand at once (Blitz!)."""
    game = new_game()
    lay(game, 0, blitz="0R1", posts=["0B7"])
    events = game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == BETWEEN
    assert [e.type for e in events][:3] == ["dutch", "blitz", "hand_end"]
    assert game.hand_endings[-1]["blitzer"] == "p0"


def test_the_hand_ends_on_the_last_blitz_card_to_a_post_pile():
    """Building the last Blitz card onto a Post pile also ends the hand."""
    game = new_game()
    lay(game, 0, blitz="0Y5", posts=["0R6"])
    game.apply("p0", {"type": "post", "from": "blitz", "to": "post:0"})
    assert game.phase == BETWEEN
    assert game.hand_endings[-1]["reason"] == "blitz"


def test_the_hand_ends_when_a_refill_takes_the_last_blitz_card():
    """A refill that empties the Blitz pile is a Blitz."""
    game = new_game()
    lay(game, 0, blitz="0G9", posts=["0R1", "0B7"])
    game.apply("p0", {"type": "dutch", "from": "post:0", "pile": None})
    assert game.phase == BETWEEN
    assert game.hand_endings[-1]["blitzer"] == "p0"


def test_actions_after_the_blitz_are_refused_the_hand_is_over():
    """Once a Blitz pile is empty, another player's card move is refused."""
    game = new_game()
    lay(game, 0, blitz="0R1", posts=["0B7"])
    lay(game, 1, blitz="1G9 1B1", posts=["1B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    with pytest.raises(IllegalAction, match="the hand is over"):
        game.apply("p1", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.seats[1].blitz == cards("1G9 1B1")


def test_end_hand_ends_a_stuck_hand_and_scores_it():
    """The stuck rule's end_hand scores the hand as usual."""
    game = new_game()
    centre(game, "0R1 1R2", "1B1")
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"])
    lay(game, 1, blitz="1G9", posts=["1B7"])
    game.apply("p1", {"type": "end_hand"})
    assert game.hand_scores[-1] == {"p0": 1 - 4, "p1": 2 - 2}
    assert game.hand_endings[-1]["reason"] == "stuck"


def test_end_hand_is_offered_to_every_player_with_the_stuck_rule_on():
    """The engine lists end_hand for everyone; the table gates it by host and time."""
    game = new_game()
    assert all({"type": "end_hand"} in game.legal_actions(p) for p in game.players)


def test_end_hand_is_refused_with_the_stuck_rule_off():
    """stuck_seconds=0 turns the stuck rule off."""
    game = new_game(stuck_seconds=0)
    assert {"type": "end_hand"} not in game.legal_actions("p0")
    with pytest.raises(IllegalAction, match="without the stuck rule"):
        game.apply("p0", {"type": "end_hand"})


def test_a_dead_hand_may_end_even_with_the_stuck_rule_off():
    """When nobody can move at all, end_hand is offered so the game cannot stall."""
    game = new_game(stuck_seconds=0)
    lay(game, 0, blitz="0G9 0G8", posts=["0B7"])
    lay(game, 1, blitz="1G9 1G8", posts=["1B7"])
    assert game.legal_actions("p0") == [{"type": "end_hand"}]
    game.apply("p0", {"type": "end_hand"})
    assert game.hand_endings[-1]["reason"] == "dead"


# ---------------------------------------------------------------- §9 scoring and the end


def test_twelve_cards_in_dutch_piles_and_four_left_in_the_blitz_pile_score_four():
    """+1 per own card in the Dutch piles, -2 per card left in the Blitz pile: 12 - 8 = 4."""
    game = new_game()
    centre(game, "0R1 0R2 0R3 0R4 0R5 0R6", "0B1 0B2 0B3 0B4 0B5 0B6", "1Y1")
    lay(game, 0, blitz="0G9 0G8 0G7 0G6", posts=["0Y7"])
    lay(game, 1, blitz="1B1", posts=["1B7"])
    game.apply("p1", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.hand_scores[-1]["p0"] == 4
    assert game.hand_scores[-1]["p1"] == 2


def test_the_game_ends_when_a_total_reaches_the_target():
    """After the hand in which someone reaches 75 (alone at the top), the game is over."""
    game = new_game()
    game.totals = {"p0": 74, "p1": 10}
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == OVER
    assert game.result().winners == ("p0",)
    assert game.result().scores == {"p0": 75, "p1": 10 - 20}


def test_a_tie_at_the_top_plays_another_hand():
    """Two players tied on the highest total at or over the target play on."""
    game = new_game()
    game.totals = {"p0": 74, "p1": 77}
    lay(game, 0, blitz="0R1", posts=["0B7"])
    lay(game, 1, blitz="1B9", posts=["1B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.totals == {"p0": 75, "p1": 75}
    assert game.phase == BETWEEN
    assert not game.is_over


def test_below_the_target_the_game_goes_on():
    """No total at the target: the table waits for the next hand."""
    game = new_game()
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == BETWEEN


def test_the_target_option_sets_the_winning_total():
    """target=5: one point short of it the game goes on, at it the game ends."""
    game = new_game(target=5)
    game.totals = {"p0": 4, "p1": 0}
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == OVER


def test_max_hands_the_highest_total_wins_without_reaching_the_target():
    """Ruling max_hands: after that many hands the highest total wins even below the target."""
    game = new_game(max_hands=3)
    game.hand_number = 3
    game.totals = {"p0": -40, "p1": -60}
    lay(game, 0, blitz="0R1", posts=["0B7"])
    events = game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == OVER and game.result().winners == ("p0",)
    assert events[-1].type == "game_over" and events[-1].data["why"] == "max_hands"


def test_max_hands_before_the_limit_the_game_goes_on():
    """Ruling max_hands: one hand short of the limit, below the target, the game goes on."""
    game = new_game(max_hands=3)
    game.hand_number = 2
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.phase == BETWEEN


def test_max_hands_a_tie_at_the_top_plays_one_more_hand():
    """Ruling max_hands: a tie on the highest total after the last hand plays another hand."""
    game = new_game(max_hands=3)
    game.hand_number = 3
    game.totals = {"p0": 9, "p1": 12}
    lay(game, 0, blitz="0R1", posts=["0B7"])
    lay(game, 1, blitz="1B9", posts=["1B7"])
    events = game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    assert game.totals == {"p0": 10, "p1": 10} and game.phase == BETWEEN
    assert events[-1].type == "tie_at_top"


# ---------------------------------------------------------------- §11 between hands


def _finished_hand():
    game = new_game(3)
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    return game


def test_between_hands_every_player_may_send_ready():
    """After a hand each player is offered ready (and next_hand, for the host)."""
    game = _finished_hand()
    assert game.legal_actions("p1") == [{"type": "ready"}, {"type": "next_hand"}]


def test_the_last_ready_deals_the_next_hand():
    """When every player is ready, hand 2 is dealt with fresh 40-card decks."""
    game = _finished_hand()
    game.apply("p0", {"type": "ready"})
    game.apply("p1", {"type": "ready"})
    assert game.phase == BETWEEN
    events = game.apply("p2", {"type": "ready"})
    assert game.phase == PLAY and game.hand_number == 2
    assert events[-1].type == "hand_started"
    assert game.dutch == [] and all(len(s.cards()) == 40 for s in game.seats)


def test_ready_twice_is_refused():
    """A player who is ready cannot send ready again."""
    game = _finished_hand()
    game.apply("p0", {"type": "ready"})
    with pytest.raises(IllegalAction, match="already ready"):
        game.apply("p0", {"type": "ready"})


def test_next_hand_deals_without_waiting():
    """The host may force the next hand before everyone is ready."""
    game = _finished_hand()
    game.apply("p2", {"type": "next_hand"})
    assert game.phase == PLAY and game.hand_number == 2


def test_ready_is_refused_during_a_hand():
    """ready belongs between hands."""
    game = new_game()
    with pytest.raises(IllegalAction, match="still being played"):
        game.apply("p0", {"type": "ready"})


# ---------------------------------------------------------------- §2 races


def test_two_players_sending_a_red_five_onto_one_red_four_the_second_is_refused():
    """The first applied wins; the second is refused with a reason and keeps its card."""
    game = new_game()
    centre(game, "0R1 0R2 1R3 0R4")
    lay(game, 0, blitz="0G9 0R5", posts=["0B7"])
    lay(game, 1, blitz="1G9", posts=["1R5"])
    first = {"type": "dutch", "from": "blitz", "pile": 0}
    second = {"type": "dutch", "from": "post:0", "pile": 0}
    assert game.contested_resource("p0", first) == game.contested_resource("p1", second) == "dutch-pile:0"
    game.apply("p0", first)
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="the red pile you aimed at is already at 5"):
        game.apply("p1", second)
    assert game.snapshot() == before
    assert game.seats[1].posts[0] == cards("1R5")


def test_starting_a_pile_contests_nothing():
    """A 1 starting a new pile claims no resource."""
    game = new_game()
    assert game.contested_resource("p0", {"type": "dutch", "from": "blitz", "pile": None}) is None


@pytest.mark.parametrize("action", [
    {"type": "post", "from": "blitz", "to": "post:0"},
    {"type": "flip"},
    {"type": "shift"},
    {"type": "stack", "from": "post:0", "to": "post:1"},
])
def test_post_builds_and_flips_contest_nothing(action):
    """Moves on a player's own piles are applied at once."""
    assert new_game().contested_resource("p0", action) is None


# ---------------------------------------------------------------- refusals change nothing


@pytest.mark.parametrize("action, reason", [
    ({"type": "dutch", "from": "hand", "pile": None}, "must be"),
    ({"type": "dutch", "from": "post:7", "pile": None}, "Post piles 0 to 4"),
    ({"type": "dutch", "from": "blitz", "pile": 9}, "no Dutch pile 9"),
    ({"type": "post", "from": "blitz", "to": "wood"}, "must be"),
    ({"type": "flip", "extra": 1}, "takes no extra"),
    ({"type": "dance"}, "unknown move"),
    ({"type": "dutch", "from": "wood", "pile": None}, "Wood pile is empty"),
])
def test_malformed_or_impossible_moves_are_refused_and_change_nothing(action, reason):
    """A refused move names the problem and leaves the state as it was."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"])
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        game.apply("p0", action)
    assert game.snapshot() == before


# ---------------------------------------------------------------- §12 views


def test_the_public_view_shows_the_face_up_cards():
    """Spectators see Blitz tops and counts, all Post cards, Wood tops, hand counts and scores."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7 0Y6"], wood="0R9 0Y3", hand="0R4 0R5")
    centre(game, "1B1 1B2")
    seat = game.view(None)["seats"][0]
    assert seat["blitz_top"]["id"] == "0R2" and seat["blitz_count"] == 2
    assert [c["id"] for c in seat["posts"][0]] == ["0B7", "0Y6"]
    assert seat["wood_top"]["id"] == "0Y3" and seat["wood_count"] == 2
    assert seat["hand_count"] == 2 and seat["total"] == 0 and seat["ready"] is False
    assert game.view(None)["dutch_piles"] == [
        {"pile": 0, "colour": "blue", "top": card("1B2").to_json(), "size": 2, "complete": False}]


def test_covered_and_face_down_cards_are_hidden_from_everyone():
    """Hand cards and the cards under the Blitz, Wood and Dutch tops are hidden and never shown."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"], wood="0R9 0Y3", hand="0R4 0R5")
    lay(game, 1, blitz="1G9 1G8", posts=["1R7"], hand="1R4")
    centre(game, "1B1 1B2")
    hidden = game.hidden_cards("p0")
    assert {"0G9", "0R9", "0R4", "0R5", "1B1"} <= hidden
    assert not {"0R2", "0Y3", "0B7", "1B2"} & hidden
    assert hidden == game.hidden_cards(None)
    text = str(game.view("p0"))
    assert not any(f"'{cid}'" in text for cid in hidden)


def test_a_players_own_view_adds_only_their_seat_number():
    """Nothing is secret but the order of face-down cards: a player's view is the public one."""
    game = new_game()
    mine = game.view("p1")
    public = game.view(None)
    assert mine.pop("me") == 1 and public.pop("me") is None
    assert mine == public


# ---------------------------------------------------------------- table hooks


def test_timeout_action_flips_during_a_hand():
    """An idle seat's timer flips for it."""
    assert new_game().timeout_action("p0") == {"type": "flip"}


def test_timeout_action_is_ready_between_hands():
    """Between hands an idle seat's timer sends ready."""
    assert _finished_hand().timeout_action("p1") == {"type": "ready"}
