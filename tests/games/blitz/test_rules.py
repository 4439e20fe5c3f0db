"""Rules and rulings of Blitz (31), one behaviour per test (docs/rules/blitz.md)."""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalAction
from bot.games.blitz import engine as blitz_engine
from bot.games.blitz.engine import BlitzEngine
from tests.games.blitz.helpers import card_count, dealing_order, event_types, first, players, position, rigged


def draw_and_throw(game: BlitzEngine, player: str) -> list:
    """*player* draws the top of the stock and discards that same card."""
    card = game.stock[-1]
    events = game.apply(player, {"type": "draw", "source": "stock"})
    return events + game.apply(player, {"type": "discard", "card": card})


def finish_last_turns(game: BlitzEngine) -> tuple[list[str], list]:
    """Play every remaining last turn after a knock with draw-and-throw; returns who played and the events."""
    played: list[str] = []
    events: list = []
    while game.knocker is not None and game.last_turns:
        player = game.turn
        assert game.to_act() == [player]
        played.append(player)
        events += draw_and_throw(game, player)
    return played, events


FOUR = {"p0": "KH 8H 5H", "p1": "10S JS 9S", "p2": "QS 9D 8D", "p3": "AC 6S 4S"}
"""Four hands worth 23, 29, 17 and 11."""


# ---------------------------------------------------------------- §2 the deal


def test_deal_gives_three_cards_each_one_at_a_time() -> None:
    """The deal goes round three times, one card to each player in turn, starting after the dealer."""
    deck = dealing_order(["2S 3S 4S", "2H 3H 4H", "2D 3D 4D"], "5C")
    game = rigged(deck).new(players(3), seed=0)
    assert game.hands == {"p1": ["2S", "3S", "4S"], "p2": ["2H", "3H", "4H"], "p0": ["2D", "3D", "4D"]}


def test_next_card_starts_the_discard_pile_and_the_rest_is_the_stock() -> None:
    """After the deal one card is face up on the discard pile and 52 - 3n - 1 cards form the stock."""
    deck = dealing_order(["2S 3S 4S", "2H 3H 4H", "2D 3D 4D"], "5C", ["6C"])
    game = rigged(deck).new(players(3), seed=0)
    assert game.discard_pile == ["5C"]
    assert len(game.stock) == 52 - 9 - 1 and game.stock[-1] == "6C"


def test_player_after_the_dealer_starts() -> None:
    """The first dealer is the first seat; the player after them has the first turn."""
    game = BlitzEngine.new(players(4), seed=3)
    assert game.dealer == "p0" and game.to_act() == ["p1"]


def test_deal_rotates_after_a_round() -> None:
    """When a round ends, the next player still in deals and the player after them starts."""
    game = position(hands=FOUR, turn="p1", dealer="p0")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.round == 2 and game.dealer == "p1" and game.turn == "p2"


def test_deal_passes_over_players_who_are_out() -> None:
    """The deal skips a player who is out: after p0 deals, p1 is out, so p2 deals next."""
    hands = {"p0": "KH 8H 5H", "p2": "QS 9D 8D", "p3": "10S JS 9S"}
    game = position(hands=hands, turn="p2", dealer="p0", lives={"p1": 0})
    game.apply("p2", {"type": "knock"})
    finish_last_turns(game)
    assert game.dealer == "p2" and game.turn == "p3"


def test_first_turn_skips_players_who_are_out() -> None:
    """The player after the dealer who is still in starts: dealer p0, p1 out, so p2 starts."""
    hands = {"p0": "KH 8H 5H", "p2": "QS 9D 8D", "p3": "10S JS 9S"}
    game = position(hands=hands, turn="p0", dealer="p3", lives={"p1": 0})
    game.apply("p0", {"type": "knock"})
    finish_last_turns(game)
    assert game.dealer == "p0" and game.turn == "p2" and game.hands["p1"] == []


# ---------------------------------------------------------------- §3 a turn


def test_turn_starts_with_knock_or_draw() -> None:
    """At the start of a turn the choices are knock, draw from the stock, draw from the discard pile."""
    game = position(hands=FOUR, discard="7D")
    assert game.legal_actions("p0") == [{"type": "knock"}, {"type": "draw", "source": "stock"},
                                        {"type": "draw", "source": "discard"}]


def test_drawing_from_the_stock_is_private() -> None:
    """The stock card drawn is told only to its drawer; everyone else learns only the source."""
    game = position(hands=FOUR, discard="7D", stock_top="2C")
    events = game.apply("p0", {"type": "draw", "source": "stock"})
    public = first(events, "drew")
    private = first(events, "drew_card")
    assert public.audience is None and public.data["card"] is None
    assert private.audience == ("p0",) and private.data["card"]["id"] == "2C"


def test_after_drawing_the_player_discards_one_of_four_cards() -> None:
    """After a draw from the stock every one of the four cards may be discarded."""
    game = position(hands=FOUR, discard="7D", stock_top="2C")
    game.apply("p0", {"type": "draw", "source": "stock"})
    assert sorted(a["card"] for a in game.legal_actions("p0")) == sorted(["KH", "8H", "5H", "2C"])


def test_discard_ends_the_turn() -> None:
    """The discard goes on top of the pile and the next player is to act."""
    game = position(hands=FOUR, discard="7D", stock_top="2C")
    draw_and_throw(game, "p0")
    assert game.discard_pile[-1] == "2C" and game.to_act() == ["p1"]


def test_not_your_turn_is_refused() -> None:
    """A player acting out of turn is refused with the name of the player to act, state untouched."""
    game = position(hands=FOUR, discard="7D")
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="p0's turn"):
        game.apply("p2", {"type": "draw", "source": "stock"})
    assert game.snapshot() == before


def test_discarding_before_drawing_is_refused() -> None:
    """A discard at the start of a turn is refused."""
    game = position(hands=FOUR, discard="7D")
    with pytest.raises(IllegalAction, match="draw a card first"):
        game.apply("p0", {"type": "discard", "card": "KH"})


def test_card_taken_from_discard_pile_may_not_go_back_by_default() -> None:
    """With the default option the card just taken from the discard pile cannot be discarded that turn."""
    game = position(hands=FOUR, discard="7D")
    game.apply("p0", {"type": "draw", "source": "discard"})
    assert {"type": "discard", "card": "7D"} not in game.legal_actions("p0")
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="keep it this turn"):
        game.apply("p0", {"type": "discard", "card": "7D"})
    assert game.snapshot() == before


def test_card_taken_from_discard_pile_may_go_back_with_the_option_off() -> None:
    """With keep_discard_pickup off the card just taken from the discard pile may be discarded again."""
    game = position(hands=FOUR, discard="7D", options={"keep_discard_pickup": False})
    game.apply("p0", {"type": "draw", "source": "discard"})
    game.apply("p0", {"type": "discard", "card": "7D"})
    assert game.discard_pile[-1] == "7D" and game.turn == "p1"


def test_discard_pickup_rule_lasts_only_one_turn() -> None:
    """The taken card may be discarded on a later turn."""
    game = position(2, hands={"p0": "KH 8H 5H", "p1": "QS 9D 8D"}, discard="7D", stock_top="2C 3C")
    game.apply("p0", {"type": "draw", "source": "discard"})
    game.apply("p0", {"type": "discard", "card": "5H"})
    draw_and_throw(game, "p1")
    game.apply("p0", {"type": "draw", "source": "stock"})
    assert {"type": "discard", "card": "7D"} in game.legal_actions("p0")


# ---------------------------------------------------------------- §4 knocking


def test_knock_instead_of_drawing_ends_the_turn() -> None:
    """A knock is the whole turn: the knocker's hand is unchanged and the next player is to act."""
    game = position(hands=FOUR, discard="7D")
    events = game.apply("p0", {"type": "knock"})
    assert event_types(events) == ["knock"] and game.hands["p0"] == ["KH", "8H", "5H"] and game.turn == "p1"


def test_knock_only_at_the_start_of_a_turn() -> None:
    """After drawing, a knock is refused."""
    game = position(hands=FOUR, discard="7D")
    game.apply("p0", {"type": "draw", "source": "stock"})
    with pytest.raises(IllegalAction, match="start of your turn"):
        game.apply("p0", {"type": "knock"})


def test_second_knock_in_a_round_is_refused() -> None:
    """Once someone has knocked, nobody else may knock that round; the refusal changes nothing."""
    game = position(hands=FOUR, discard="7D")
    game.apply("p0", {"type": "knock"})
    assert {"type": "knock"} not in game.legal_actions("p1")
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="already knocked"):
        game.apply("p1", {"type": "knock"})
    assert game.snapshot() == before


def test_after_a_knock_every_other_player_has_exactly_one_more_turn() -> None:
    """After p1 knocks, p2, p3 and p0 each play once, in order, and then the hands are shown."""
    game = position(hands=FOUR, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    played, events = finish_last_turns(game)
    assert played == ["p2", "p3", "p0"]
    assert "showdown" in event_types(events)


def test_the_knocker_has_no_further_turn() -> None:
    """Between the knock and the showdown the knocker never has a legal action."""
    game = position(hands=FOUR, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    seen: list[bool] = []
    while game.round == 1:
        seen.append(bool(game.legal_actions("p1")))
        draw_and_throw(game, game.turn)
    assert seen == [False, False, False]


# ---------------------------------------------------------------- §6 blitz (31)


def test_dealt_31_ends_the_round_before_any_turn() -> None:
    """A 31 in the deal is shown at once: the round ends with no turn played and the next is dealt."""
    deck = dealing_order(["10S JS AS", "2H 3H 4H", "2D 3D 4D"], "5C")
    game = rigged(deck).new(players(3), seed=0)
    events = game.setup_events
    blitz = first(events, "blitz")
    assert blitz.data["at_deal"] is True and blitz.data["players"] == ["p1"]
    assert game.action_count == 0 and game.round >= 2
    assert first(events, "lives").data["lives"] == {"p0": 3, "p1": 4, "p2": 3}


def test_31_after_a_discard_costs_everyone_else_a_life() -> None:
    """The first seat reaches 31 by a discard: every other player loses a life and the round ends."""
    game = position(hands={"p0": "10S JS 5H", "p1": "10H 9H 8H", "p2": "QS 9D 8D", "p3": "AC 6S 4S"},
                    discard="AS")
    game.apply("p0", {"type": "draw", "source": "discard"})
    events = game.apply("p0", {"type": "discard", "card": "5H"})
    assert first(events, "blitz").data["players"] == ["p0"]
    assert game.lives == {"p0": 4, "p1": 3, "p2": 3, "p3": 3}
    assert game.round == 2


def test_several_31s_dealt_are_all_safe() -> None:
    """Every player dealt 31 keeps their lives; only those without 31 lose one."""
    deck = dealing_order(["10S JS AS", "10H QH AH", "2D 3D 4D"], "5C")
    game = rigged(deck).new(players(3), seed=0)
    assert first(game.setup_events, "lives").data["lives"] == {"p0": 3, "p1": 4, "p2": 4}


def test_31_during_the_last_turns_costs_the_knocker_a_life_too() -> None:
    """A blitz after a knock ends the round at once; the knocker, without 31, loses a life like the rest."""
    game = position(hands={"p0": "KH 8H 6H", "p1": "10S JS 5H", "p2": "QS 9D 8D", "p3": "AC 6S 4S"},
                    discard="AS")
    game.apply("p0", {"type": "knock"})
    game.apply("p1", {"type": "draw", "source": "discard"})
    events = game.apply("p1", {"type": "discard", "card": "5H"})
    assert "showdown" not in event_types(events)
    assert game.lives == {"p0": 3, "p1": 4, "p2": 3, "p3": 3}


def test_blitz_shows_every_hand_publicly() -> None:
    """The blitz event is public and carries every hand and its value."""
    game = position(hands={"p0": "10S JS 5H", "p1": "10H 9H 8H", "p2": "QS 9D 8D", "p3": "AC 6S 4S"},
                    discard="AS")
    game.apply("p0", {"type": "draw", "source": "discard"})
    blitz = first(game.apply("p0", {"type": "discard", "card": "5H"}), "blitz")
    assert blitz.audience is None
    assert [c["id"] for c in blitz.data["hands"]["p3"]] == ["AC", "6S", "4S"]
    assert blitz.data["values"]["p0"] == {"half_points": 62, "points": 31}


# ---------------------------------------------------------------- §7 showdown


def test_showdown_lowest_hand_loses_a_life() -> None:
    """The single lowest hand (not the knocker's) loses one life."""
    game = position(hands=FOUR, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 4, "p1": 4, "p2": 4, "p3": 3}


def test_showdown_shows_every_hand_publicly() -> None:
    """The showdown event is public and carries every hand, its value and the knocker."""
    game = position(hands=FOUR, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    _, events = finish_last_turns(game)
    showdown = first(events, "showdown")
    assert showdown.audience is None and showdown.data["knocker"] == "p1"
    assert {p: v["points"] for p, v in showdown.data["values"].items()} == {"p0": 23, "p1": 29, "p2": 17, "p3": 11}
    assert [c["id"] for c in showdown.data["hands"]["p2"]] == ["QS", "9D", "8D"]


def test_knocker_alone_lowest_loses_two_lives() -> None:
    """A knocker whose hand is the only lowest loses two lives."""
    hands = {"p0": "KH 8H 5H", "p1": "AC 6S 4S", "p2": "QS 9D 8D", "p3": "10S JS 9S"}
    game = position(hands=hands, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 4, "p1": 2, "p2": 4, "p3": 4}


def test_knocker_tied_for_lowest_is_safe_and_the_tied_others_lose_one() -> None:
    """Knocker at 17 tied with p3 at 17: the knocker keeps their lives, p3 loses one."""
    hands = {"p0": "KH 8H 5H", "p1": "QS 9D 8D", "p2": "10S JS 9S", "p3": "7C 10C 2H"}
    game = position(hands=hands, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 4, "p1": 4, "p2": 4, "p3": 3}


def test_non_knockers_tied_for_lowest_each_lose_one() -> None:
    """Two non-knockers tied for the lowest hand both lose a life."""
    hands = {"p0": "KH 8H 5H", "p1": "10S JS 9S", "p2": "QS 9D 8D", "p3": "7C 10C 2H"}
    game = position(hands=hands, turn="p1", dealer="p0", discard="7D", stock_top="2C 3H 4D")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 4, "p1": 4, "p2": 3, "p3": 3}


def test_three_of_a_kind_at_30_and_a_half_beats_30() -> None:
    """With the 30.5 option three of a kind beats a 30 in one suit at the showdown."""
    hands = {"p0": "2S 2H 2D", "p1": "JH QH KH"}
    game = position(2, hands=hands, turn="p1", dealer="p0", discard="7D", stock_top="3C",
                    options={"three_of_a_kind": 30.5})
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 4, "p1": 2}


def test_three_of_a_kind_at_30_ties_a_30_in_one_suit() -> None:
    """By default 2-2-2 and J♥ Q♥ K♥ tie at 30, so the knocker is safe and the other loses one."""
    hands = {"p0": "2S 2H 2D", "p1": "JH QH KH"}
    game = position(2, hands=hands, turn="p1", dealer="p0", discard="7D", stock_top="3C")
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives == {"p0": 3, "p1": 4}


# ---------------------------------------------------------------- §8 going out and winning


def test_losing_the_last_life_puts_a_player_out() -> None:
    """A player who loses their last life is out: no cards, no turns, an ``out`` event."""
    game = position(3, hands={"p0": "KH 8H 5H", "p1": "10S JS 9S", "p2": "AC 6S 4S"}, turn="p1", dealer="p0",
                    discard="7D", stock_top="2C 3H", lives={"p2": 1})
    game.apply("p1", {"type": "knock"})
    _, events = finish_last_turns(game)
    assert first(events, "out").data["players"] == ["p2"]
    assert game.in_players() == ["p0", "p1"] and game.hands["p2"] == []
    assert not game.is_over


def test_last_player_with_a_life_wins() -> None:
    """When only one player has a life left the game is over and they win."""
    game = position(2, hands={"p0": "KH 8H 5H", "p1": "AC 6S 4S"}, turn="p0", dealer="p1",
                    discard="7D", stock_top="2C", lives={"p1": 1})
    game.apply("p0", {"type": "knock"})
    _, events = finish_last_turns(game)
    result = game.result()
    assert game.is_over and first(events, "game_over").data["winner"] == "p0"
    assert result.winners == ("p0",) and result.ranks == {"p0": 1, "p1": 2}
    assert game.to_act() == []


def test_knocker_with_one_life_alone_lowest_goes_out_at_zero() -> None:
    """A knocker on one life who loses two is out with zero lives, never below."""
    game = position(3, hands={"p0": "KH 8H 5H", "p1": "AC 6S 4S", "p2": "10S JS 9S"}, turn="p1", dealer="p0",
                    discard="7D", stock_top="2C 3H", lives={"p1": 1})
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)
    assert game.lives["p1"] == 0 and "p1" not in game.in_players()


def test_ranks_follow_the_order_of_going_out() -> None:
    """Players who went out later rank better; the winner ranks first."""
    game = position(3, hands={"p0": "KH 8H 5H", "p1": "10S JS 9S", "p2": "AC 6S 4S"}, turn="p1", dealer="p0",
                    discard="7D", stock_top="2C 3H", lives={"p0": 1, "p1": 4, "p2": 1})
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)  # p2 goes out
    game.hands = {"p0": ["2C", "3C", "4H"], "p1": ["10S", "JS", "9S"], "p2": []}
    game.stock = [c for c in game.stock if c not in ("2C", "3C", "4H", "10S", "JS", "9S")]
    game.discard_pile = [c for c in game.discard_pile if c not in ("2C", "3C", "4H", "10S", "JS", "9S")]
    game.turn, game.phase, game.knocker, game.last_turns = "p1", "draw", None, []
    game.apply("p1", {"type": "knock"})
    finish_last_turns(game)  # p0 goes out
    assert game.result().ranks == {"p1": 1, "p0": 2, "p2": 3}


def test_round_where_everyone_left_would_go_out_is_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    """If every player still in would lose their last life, nobody loses and the same dealer deals again."""
    monkeypatch.setattr(blitz_engine, "showdown_losses", lambda lowest, knocker: {"p0": 1, "p1": 2})
    game = position(2, hands={"p0": "KH 8H 5H", "p1": "AC 6S 4S"}, turn="p0", dealer="p1",
                    discard="7D", stock_top="2C", lives={"p0": 1, "p1": 2})
    game.apply("p0", {"type": "knock"})
    _, events = finish_last_turns(game)
    assert "round_replayed" in event_types(events) and "lives" not in event_types(events)
    assert game.lives == {"p0": 1, "p1": 2} and game.dealer == "p1" and game.round == 2
    assert not game.is_over


def test_settling_losses_that_leave_nobody_replays_the_round() -> None:
    """The settlement itself refuses to put every remaining player out at once."""
    game = position(3, hands={"p0": "KH 8H 5H", "p1": "AC 6S 4S"}, lives={"p0": 1, "p1": 1, "p2": 0})
    events: list = []
    assert game._settle({"p0": 1, "p1": 1}, events) is True
    assert event_types(events) == ["round_replayed"] and game.lives == {"p0": 1, "p1": 1, "p2": 0}


# ---------------------------------------------------------------- §9 the stock


def test_empty_stock_is_refilled_from_the_discard_pile_but_its_top_card() -> None:
    """Drawing from an empty stock first shuffles the discard pile, all but its top card, into a new stock."""
    game = position(hands=FOUR, discard="7D")
    game.discard_pile = game.stock + ["7D"]
    game.stock = []
    events = game.apply("p0", {"type": "draw", "source": "stock"})
    assert event_types(events)[0] == "reshuffled"
    assert game.discard_pile == ["7D"] and len(game.stock) == 52 - 12 - 1 - 1
    assert sorted(card_count(game)) == sorted(set(card_count(game))) and len(card_count(game)) == 52


def test_reshuffle_uses_the_game_rng() -> None:
    """Two copies of the same position reshuffle the same way (the order comes from the seeded RNG)."""
    stocks = []
    for _ in range(2):
        game = position(hands=FOUR, discard="7D", seed=5)
        game.discard_pile = game.stock + ["7D"]
        game.stock = []
        game.apply("p0", {"type": "draw", "source": "stock"})
        stocks.append(list(game.stock))
    assert stocks[0] == stocks[1] and stocks[0] != sorted(stocks[0])


# ---------------------------------------------------------------- §1 what each player sees


def test_player_view_shows_own_cards_only() -> None:
    """A player's view has their own three cards and no card of another hand."""
    game = position(hands=FOUR, discard="7D")
    view = game.view("p1")
    assert [c["id"] for c in view["hand"]] == ["10S", "JS", "9S"]
    assert "KH" not in str(view) and "QS" not in str(view)


def test_mid_turn_hand_value_is_the_best_three_card_value_not_four() -> None:
    """§1, §5: with A♠ K♠ 5♠ and a drawn Q♠ the view shows 31 (discard the 5♠), never 36."""
    game = position(n=2, hands={"p0": "AS KS 5S", "p1": "2H 3H 4H"}, stock_top="QS")
    game.apply("p0", {"type": "draw", "source": "stock"})
    view = game.view("p0")
    assert view["hand_value"] == {"half_points": 62, "points": 31}
    assert view["best_discard"]["id"] == "5S"
    assert {c: v["points"] for c, v in view["after_discard"].items()} == {"AS": 25, "KS": 26, "5S": 31, "QS": 26}


def test_mid_turn_hand_value_leaves_out_the_card_that_must_be_kept() -> None:
    """§3, §5: the card just taken from the discard pile cannot be discarded, so it is never the best discard."""
    game = position(n=2, hands={"p0": "2S 3S 9D", "p1": "2H 3H 4H"}, discard="4D")
    game.apply("p0", {"type": "draw", "source": "discard"})
    view = game.view("p0")
    assert "4D" not in view["after_discard"]
    assert view["hand_value"]["points"] == 13 and view["best_discard"]["id"] in {"2S", "3S"}


def test_public_view_shows_table_state_and_no_hand() -> None:
    """The public view shows the discard pile, stock count, lives, the knocker and whose turn, but no hand."""
    game = position(hands=FOUR, discard="3C 7D")
    game.apply("p0", {"type": "knock"})
    view = game.view(None)
    assert [c["id"] for c in view["discard_pile"]] == ["3C", "7D"] and view["stock_count"] == 52 - 14
    assert view["lives"] == {"p0": 4, "p1": 4, "p2": 4, "p3": 4}
    assert view["knocker"] == "p0" and view["turn"] == "p1" and "hand" not in view


def test_timeout_draws_from_the_stock_then_discards_the_drawn_card() -> None:
    """On timeout the table draws from the stock, then discards the drawn card (§11), even where
    another discard would leave a better hand; the discard goes on with the timed-out turn."""
    game = position(hands={"p0": "KH 8H 2C", "p1": "10S JS 9S", "p2": "QS 9D 8D", "p3": "AC 6S 4S"},
                    discard="7D", stock_top="5H")
    assert game.timeout_action("p0") == {"type": "draw", "source": "stock"}
    game.apply("p0", game.timeout_action("p0"))
    assert game.timeout_action("p0") == {"type": "discard", "card": "5H"}
    assert "discard" in game.timeout_continues and "draw" not in game.timeout_continues
    assert game.timeout_action("p1") is None


def test_timeout_after_taking_the_discard_discards_the_worst_card() -> None:
    """A player who took the discard pile's top (which must be kept) and then ran out of time: the
    table discards the card whose loss leaves the best hand (§11)."""
    game = position(hands={"p0": "KH 8H 2C", "p1": "10S JS 9S", "p2": "QS 9D 8D", "p3": "AC 6S 4S"},
                    discard="7D", stock_top="5H")
    game.apply("p0", {"type": "draw", "source": "discard"})
    assert game.timeout_action("p0") == {"type": "discard", "card": "2C"}


def test_dealt_hands_are_told_only_to_their_players() -> None:
    """Each dealt hand is a private event for its player alone; the deal event itself names no hand card."""
    deck = dealing_order(["2S 3S 4S", "2H 3H 4H", "2D 3D 4D"], "5C")
    game = rigged(deck).new(players(3), seed=0)
    hands = {e.data["player"]: (e.audience, [c["id"] for c in e.data["cards"]])
             for e in game.setup_events if e.type == "hand"}
    assert hands == {"p1": (("p1",), ["2S", "3S", "4S"]), "p2": (("p2",), ["2H", "3H", "4H"]),
                     "p0": (("p0",), ["2D", "3D", "4D"])}
    assert "2S" not in str(first(game.setup_events, "deal").data)
