"""Every rule and ruling of Dutch, one named test each (docs/rules/dutch.md)."""

from __future__ import annotations

import json

import pytest

from bot.engine.cards import Card
from bot.engine.core import IllegalAction
from bot.games.dutch import DutchEngine, DutchOptions, card_value
from tests.games.dutch.helpers import find, jump, prepared, types

VARIANTS = ["passive", "aggressive"]
DRAW, DISCARD, SKIP = {"type": "draw"}, {"type": "discard"}, {"type": "skip_power"}


def table(**options):
    """Three players with known hands; deck top first."""
    return prepared({"ann": ["5H", "KS", "9D", "AC"], "bob": ["5S", "2D", "QH", "7C"],
                     "cat": ["3H", "JD", "10S", "X1"]}, **options)


def refused(game: DutchEngine, player: str, action: dict) -> str:
    """Apply an action that must be refused; assert the state is untouched; return the reason."""
    before = game.snapshot()
    with pytest.raises(IllegalAction) as info:
        game.apply(player, action)
    assert game.snapshot() == before
    assert str(info.value)
    return str(info.value)


def ids_in(obj) -> str:
    return json.dumps(obj)


# ---------------------------------------------------------------- §3 values, options


def test_card_values_follow_the_text():
    """Ace 1, number cards face value, J Q K 10, a Joker -1."""
    assert [card_value(Card(r, "S")) for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert card_value(Card(0, None, 2)) == -1


@pytest.mark.parametrize("red_kings", [10, -2, -3])
def test_red_kings_option_values_red_kings_only(red_kings):
    """Option red_kings sets the value of the King of hearts and diamonds; black Kings stay 10."""
    game = prepared({"ann": ["KH", "KD", "KS"], "bob": ["KC"]}, red_kings=red_kings)
    assert game.hand_value("ann") == 2 * red_kings + 10
    assert game.hand_value("bob") == 10


def test_red_kings_option_refuses_other_values():
    """red_kings must be 10, -2 or -3, and the error names the option."""
    with pytest.raises(ValueError, match="red_kings"):
        DutchOptions(red_kings=-1)


@pytest.mark.parametrize(("options", "size"), [({}, 54), ({"jokers": False}, 52), ({"variant": "aggressive"}, 54)])
def test_jokers_option_sets_the_deck(options, size):
    """Jokers are in by default and can be left out in the passive set: 54 or 52 cards in all."""
    game = DutchEngine.new(["a", "b"], seed=3, options=options)
    cards = game.deck + [c for h in game.hands.values() for c in h]
    assert len(cards) == len(set(cards)) == size


def test_aggressive_always_uses_jokers():
    """The aggressive set refuses jokers=False, naming the option."""
    with pytest.raises(ValueError, match="jokers"):
        DutchOptions(variant="aggressive", jokers=False)


@pytest.mark.parametrize(("field", "value"), [("variant", "fast"), ("hand_size", 3), ("hand_size", 7),
                                              ("peek_seconds", 0), ("target", 0), ("undercut_penalty", -1),
                                              ("forgiving_scores", "yes"), ("jump_in_grace_seconds", 31)])
def test_bad_options_are_refused_by_name(field, value):
    """A bad option value raises ValueError naming the option and the value."""
    with pytest.raises(ValueError, match=field):
        DutchOptions(**{field: value})


@pytest.mark.parametrize("hand_size", [4, 5, 6])
def test_hand_size_option_deals_that_many(hand_size):
    """Each player is dealt hand_size cards face down."""
    game = DutchEngine.new(["a", "b", "c"], seed=1, options={"hand_size": hand_size})
    assert all(len(h) == hand_size for h in game.hands.values())


def test_option_defaults_follow_the_rulings():
    """Defaults: passive, Jokers on, 4 cards, red Kings 10, peek 5 s, grace 3 s, target 100, penalty 15."""
    o = DutchOptions()
    assert (o.variant, o.jokers, o.hand_size, o.red_kings, o.peek_seconds, o.jump_in_grace_seconds, o.target,
            o.undercut_penalty, o.forgiving_scores) == ("passive", True, 4, 10, 5, 3, 100, 15, False)


# ---------------------------------------------------------------- §4 the opening look


def test_opening_look_shows_two_chosen_cards_to_the_looker_only():
    """The opening look reveals the two chosen cards in private events to the looker alone."""
    game = DutchEngine.new(["a", "b"], seed=5)
    events = game.apply("a", {"type": "look", "positions": [1, 3]})
    private = [e for e in events if e.type == "saw"]
    assert [e.data["position"] for e in private] == [1, 3]
    assert all(e.audience == ("a",) for e in private)
    assert [e.data["card"]["id"] for e in private] == [game.hands["a"][1], game.hands["a"][3]]
    assert all(game.hands["a"][i] not in ids_in(e.to_json()) for e in events if e.is_public for i in range(4))


def test_opening_look_records_knowledge():
    """After the look the engine records that the looker, and no one else, has seen those two cards."""
    game = DutchEngine.new(["a", "b"], seed=5)
    game.apply("a", {"type": "look", "positions": [0, 2]})
    assert [game.has_seen("a", c) for c in game.hands["a"]] == [True, False, True, False]
    assert not any(game.has_seen("b", c) for c in game.hands["a"])


def test_opening_look_timeout_takes_the_first_two():
    """When the look times out the table looks at positions 0 and 1."""
    game = DutchEngine.new(["a", "b"], seed=5)
    assert game.timeout_action("a") == {"type": "look", "positions": [0, 1]}


def test_opening_look_needs_two_different_positions_and_only_once():
    """A look at one position twice, out of range, or a second look is refused."""
    game = DutchEngine.new(["a", "b"], seed=5)
    refused(game, "a", {"type": "look", "positions": [2, 2]})
    refused(game, "a", {"type": "look", "positions": [0, 9]})
    game.apply("a", {"type": "look", "positions": [0, 1]})
    refused(game, "a", {"type": "look", "positions": [2, 3]})


def test_play_starts_only_after_everyone_looked():
    """Nobody draws before every player has taken the opening look."""
    game = DutchEngine.new(["a", "b"], seed=5)
    game.apply("a", {"type": "look", "positions": [0, 1]})
    assert "look" in refused(game, "a", DRAW)
    game.apply("b", {"type": "look", "positions": [2, 3]})
    assert game.legal_actions("a")[0] == DRAW


# ---------------------------------------------------------------- §5 the turn


@pytest.mark.parametrize("variant", VARIANTS)
def test_drawing_twice_is_refused(variant):
    """A player who has drawn cannot draw again before discarding or swapping."""
    game = table(variant=variant)
    game.apply("ann", DRAW)
    assert "already drawn" in refused(game, "ann", DRAW)


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_the_player_in_turn_draws(variant):
    """Another player's draw is refused."""
    game = table(variant=variant)
    assert "ann's turn" in refused(game, "bob", DRAW)


@pytest.mark.parametrize("variant", VARIANTS)
def test_swap_puts_drawn_card_face_down_and_discards_the_old_one_face_up(variant):
    """A swap puts the drawn card face down at the position and the old card face up on the discard pile."""
    game = table(variant=variant)
    game.apply("ann", DRAW)  # 2C
    events = game.apply("ann", {"type": "swap", "position": 2})
    assert game.hands["ann"][2] == "2C"
    assert game.discard[-1] == "9D"
    swapped = find(events, "swapped")
    assert swapped.is_public and swapped.data["card"]["id"] == "9D" and swapped.data["position"] == 2
    for p in [*game.players, None]:
        assert '"2C"' not in ids_in(game.view(p))
        assert game.view(p)["hands"][0]["slots"][2] == "back"


@pytest.mark.parametrize("variant", VARIANTS)
def test_discard_puts_the_drawn_card_face_up_and_passes_the_turn(variant):
    """Discarding the drawn card lays it face up; the next player is in turn."""
    game = table(variant=variant)
    game.apply("ann", DRAW)
    events = game.apply("ann", DISCARD)
    assert game.discard == ["2C"] and find(events, "discarded").data["card"]["id"] == "2C"
    assert game.current == "bob" and game.legal_actions("bob")[0] == DRAW


def test_drawn_card_is_private_to_the_drawer():
    """The drawn card reaches only the drawer: a private event and the drawer's view."""
    game = table()
    events = game.apply("ann", DRAW)
    assert find(events, "drew_card").audience == ("ann",)
    assert '"2C"' not in ids_in(find(events, "drew").to_json())
    assert game.view("ann")["drawn"]["card"]["id"] == "2C"
    assert '"2C"' not in ids_in(game.view("bob")) and '"2C"' not in ids_in(game.view(None))


@pytest.mark.parametrize("variant", VARIANTS)
def test_timeout_in_turn_draws_then_discards(variant):
    """A turn timeout draws, then discards the drawn card."""
    game = table(variant=variant)
    assert game.timeout_action("ann") == DRAW
    game.apply("ann", DRAW)
    assert game.timeout_action("ann") == DISCARD
    assert game.timeout_action("bob") is None


def test_timeout_skips_a_pending_power():
    """A power holder's timeout skips the power; then the next player is in turn."""
    game = table(deck=["KC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert game.waiting_for() == ["ann"] and game.timeout_action("ann") == SKIP
    game.apply("ann", SKIP)
    assert game.current == "bob"


def test_waiting_for_never_waits_on_optional_moves():
    """Jump-ins and Dutch calls are optional: only the player in turn is waited for, not every player."""
    game = table(deck=["5C", "6C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert game.to_act() == ["ann", "bob", "cat"] and game.waiting_for() == ["bob"]
    assert game.timeout_action("cat") is None


# ---------------------------------------------------------------- §6 powers


@pytest.mark.parametrize("variant", VARIANTS)
def test_drawn_and_discarded_face_card_gives_its_power(variant):
    """A J, Q or K drawn and discarded at once gives its power in both rule sets."""
    game = table(variant=variant, deck=["JC"])
    game.apply("ann", DRAW)
    events = game.apply("ann", DISCARD)
    assert find(events, "power").data == {"player": "ann", "rank": "J", "actions": 1}
    assert {a["type"] for a in game.legal_actions("ann")} - {"dutch"} == {"power_look", "skip_power"}


@pytest.mark.parametrize(("variant", "power"), [("passive", True), ("aggressive", False)])
def test_swapped_out_face_card_gives_power_only_in_passive(variant, power):
    """A K swapped out of the hand gives its power in the passive set only."""
    game = table(variant=variant)
    game.apply("ann", DRAW)
    events = game.apply("ann", {"type": "swap", "position": 1})  # KS goes out
    assert ("power" in types(events)) is power
    assert (game.current == "ann" and game.power is not None) is power


@pytest.mark.parametrize(("variant", "power"), [("passive", True), ("aggressive", False)])
def test_jumped_in_face_card_gives_power_only_in_passive(variant, power):
    """A Q discarded by a jump-in gives its power in the passive set only."""
    game = table(variant=variant, deck=["QC", "4C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("ann", SKIP)
    events = game.apply("bob", jump(game, "bob", 2))  # QH
    assert find(events, "jump_in").data["right"]
    assert ("power" in types(events)) is power


@pytest.mark.parametrize("variant", VARIANTS)
def test_number_card_gives_no_power(variant):
    """Discarding a number card gives no power; the turn passes at once."""
    game = table(variant=variant)
    game.apply("ann", DRAW)
    events = game.apply("ann", DISCARD)
    assert "power" not in types(events) and game.power is None


def test_jack_look_reaches_only_the_looker():
    """A J's look is a private event to the looker; the public event names only the position."""
    game = table(deck=["JC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("ann", {"type": "power_look", "player": "cat", "position": 3})
    saw = find(events, "saw")
    assert saw.audience == ("ann",) and saw.data["card"]["id"] == "X1"
    assert '"X1"' not in ids_in(find(events, "power_look").to_json())
    assert game.has_seen("ann", "X1") and not game.has_seen("cat", "X1")
    assert game.current == "bob"


def test_queen_swaps_two_cards_unseen():
    """A Q swaps any two cards between hands; no one sees them; the events name positions only."""
    game = table(deck=["QC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    swap = {"type": "power_swap", "first": {"player": "bob", "position": 1},
            "second": {"player": "cat", "position": 2}}
    events = game.apply("ann", swap)
    assert game.hands["bob"][1] == "10S" and game.hands["cat"][2] == "2D"
    assert not game.has_seen("ann", "10S")
    assert all('"10S"' not in ids_in(e.to_json()) and '"2D"' not in ids_in(e.to_json()) for e in events)


def test_queen_swap_refuses_a_card_with_itself_or_reversed_order():
    """A swap names two different cards, the first before the second in seat-then-position order."""
    game = table(deck=["QC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    spot = {"player": "bob", "position": 1}
    refused(game, "ann", {"type": "power_swap", "first": spot, "second": spot})
    refused(game, "ann", {"type": "power_swap", "first": {"player": "cat", "position": 0}, "second": spot})


def test_king_gives_two_actions_that_can_be_mixed():
    """A K gives a look and a swap (in any mix), then the turn passes."""
    game = table(deck=["KC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("ann", {"type": "power_look", "player": "ann", "position": 0})
    assert game.power is not None and game.current == "ann"
    game.apply("ann", {"type": "power_swap", "first": {"player": "ann", "position": 1},
                       "second": {"player": "bob", "position": 1}})
    assert game.power is None and game.current == "bob"
    assert game.hands["ann"][1] == "2D"


def test_jack_cannot_swap_and_queen_cannot_look():
    """A J only looks and a Q only swaps."""
    game = table(deck=["JC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    refused(game, "ann", {"type": "power_swap", "first": {"player": "ann", "position": 0},
                          "second": {"player": "bob", "position": 0}})


def test_power_is_used_before_play_goes_on():
    """While a power is pending, the next player cannot draw and nobody can jump in."""
    game = table(deck=["JC"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert "power" in refused(game, "bob", DRAW)
    refused(game, "cat", {"type": "jump_in", "player": "cat", "position": 1, "discard": 1})
    game.apply("ann", SKIP)
    game.apply("cat", jump(game, "cat", 1))  # JD, right


# ---------------------------------------------------------------- §7 jump-ins


@pytest.mark.parametrize("variant", VARIANTS)
def test_right_jump_in_removes_the_card(variant):
    """A right jump-in: the card leaves the hand (its slot empties) and lies on the discard pile."""
    game = table(variant=variant, deck=["5C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("bob", jump(game, "bob", 0))  # 5S
    assert find(events, "jump_in").data["right"] is True
    assert game.hands["bob"] == [None, "2D", "QH", "7C"] and game.discard[-1] == "5S"


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_jump_in_shows_the_card_discards_it_and_draws_two(variant):
    """A wrong jump-in: the card is shown and discarded and its player draws two (one more card in all)."""
    game = table(variant=variant, deck=["5C", "8H", "9H"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("bob", jump(game, "bob", 1))  # 2D, wrong
    shown = find(events, "jump_in")
    assert shown.is_public and shown.data["card"]["id"] == "2D" and shown.data["right"] is False
    assert game.discard[-1] == "2D"
    assert game.hands["bob"] == ["5S", None, "QH", "7C", "8H", "9H"]
    assert find(events, "penalty").data["positions"] == [4, 5]
    assert not game.has_seen("bob", "8H")


def test_player_may_jump_in_on_their_own_discard():
    """The discarder may jump in on their own discard."""
    game = table(deck=["5C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert find(game.apply("ann", jump(game, "ann", 0)), "jump_in").data["right"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_next_draw_closes_the_jump_in_window(variant):
    """After the next player draws, a jump-in on the earlier discard is refused."""
    game = table(variant=variant, deck=["5C", "6C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    late = jump(game, "cat", 0)
    game.apply("bob", DRAW)
    refused(game, "bob", {**late, "player": "bob", "position": 0})


def test_stale_jump_in_for_an_earlier_discard_is_refused():
    """A jump-in that names an earlier discard number is refused even if a window is open again."""
    game = table(deck=["5C", "6C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    stale = jump(game, "bob", 0)
    refused(game, "cat", {**jump(game, "cat", 0), "discard": True})  # true is not discard number 1
    game.apply("bob", DRAW)
    game.apply("bob", DISCARD)
    assert "too late" in refused(game, "bob", stale)


def test_aggressive_correct_jump_in_that_comes_second_is_revealed_to_all():
    """Aggressive: a right jump-in after the discard was taken stays in its position, its face shown to all."""
    game = prepared({"ann": ["5H", "4D"], "bob": ["5S", "2D"], "cat": ["5D", "3H"]}, deck=["5C", "9C"],
                    variant="aggressive")
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    first, second = jump(game, "bob", 0), jump(game, "cat", 0)
    assert game.contested_resource("bob", first) == game.contested_resource("cat", second) == "jump-in:1"
    game.apply("bob", first)
    assert second in game.legal_actions("cat")
    shown = find(game.apply("cat", second), "jump_in")
    assert shown.is_public and shown.data["late"] is True and shown.data["right"] is True
    assert shown.data["returned"] is True and shown.data["card"]["id"] == "5D"
    assert game.hands["cat"] == ["5D", "3H"] and game.discard[-1] == "5S"
    assert all(game.has_seen(p, "5D") for p in game.players)


def test_aggressive_wrong_jump_in_also_uses_up_the_discard():
    """Aggressive: one jump-in per discard, right or wrong: a right one after it is only revealed."""
    game = prepared({"ann": ["5H", "4D"], "bob": ["5S", "2D"]}, deck=["5C", "8C", "9C"], variant="aggressive")
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", jump(game, "bob", 1))
    shown = find(game.apply("ann", jump(game, "ann", 0)), "jump_in")
    assert shown.data["late"] and shown.data["returned"] and game.hands["ann"] == ["5H", "4D"]


def test_aggressive_late_wrong_jump_in_costs_as_any_wrong_jump_in():
    """Aggressive: a wrong jump-in after the discard was taken is punished as usual (no free probing)."""
    game = prepared({"ann": ["5H", "4D"], "bob": ["5S", "2D"], "cat": ["7D", "3H"]}, deck=["5C", "8C", "9C"],
                    variant="aggressive")
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", jump(game, "bob", 0))
    events = game.apply("cat", jump(game, "cat", 0))
    assert find(events, "jump_in").data["right"] is False
    assert game.hands["cat"] == [None, "3H", "8C", "9C"]


def test_passive_everyone_may_jump_in_with_many_cards():
    """Passive: several players, and several cards of one player, may jump in on one discard."""
    game = prepared({"ann": ["5H", "4D"], "bob": ["5S", "5D", "2D"]}, deck=["5C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    for owner, pos in [("bob", 0), ("bob", 1), ("ann", 0)]:
        assert find(game.apply(owner, jump(game, owner, pos)), "jump_in").data["right"]
    assert game.hands == {"ann": [None, "4D"], "bob": [None, None, "2D"]}
    assert game.contested_resource("bob", jump(game, "bob", 2)) is None


def test_passive_jump_in_only_with_own_cards():
    """Passive: jumping in with another player's card is refused."""
    game = table(deck=["5C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert "own cards" in refused(game, "ann", jump(game, "bob", 0))


def test_aggressive_jump_in_with_adversary_card_right_adversary_draws_two():
    """Aggressive: a right jump-in with an adversary's card removes it and the adversary draws two."""
    game = table(variant="aggressive", deck=["5C", "8H", "9H"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("cat", jump(game, "bob", 0))
    assert find(events, "jump_in").data["right"]
    assert game.hands["bob"] == [None, "2D", "QH", "7C", "8H", "9H"]
    assert len(game.hands["cat"]) == 4 and find(events, "penalty").data["player"] == "bob"


def test_aggressive_jump_in_with_adversary_card_wrong_goes_back_and_jumper_draws_one():
    """Aggressive: a wrong jump-in with an adversary's card is shown, goes back face down; the jumper draws one."""
    game = table(variant="aggressive", deck=["5C", "8H", "9H"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("cat", jump(game, "bob", 1))
    shown = find(events, "jump_in")
    assert shown.is_public and shown.data["card"]["id"] == "2D" and shown.data["returned"] is True
    assert game.hands["bob"] == ["5S", "2D", "QH", "7C"] and game.discard[-1] == "5C"
    assert game.hands["cat"] == ["3H", "JD", "10S", "X1", "8H"]
    assert game.view("cat")["hands"][1]["slots"][1] == "back"


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_jump_in_with_a_short_deck_reshuffles_the_discard_pile_first(variant):
    """A wrong jump-in always costs one more card: the discard pile below its top is shuffled into the deck."""
    game = table(deck=["5C", "8H"], variant=variant)
    game.discard = ["2S", "3S", "4S"]
    game.seen = {"2S": 0b111, "3S": 0b111, "4S": 0b111}
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    events = game.apply("bob", jump(game, "bob", 1))
    assert types(events) == ["jump_in", "reshuffled", "penalty"]
    assert len(find(events, "penalty").data["positions"]) == 2
    assert len(game.hands["bob"]) == 6 and game.discard == ["2D"]
    assert sorted(game.deck + game.hands["bob"][4:]) == sorted(["8H", "2S", "3S", "4S", "5C"])
    assert not any(game.has_seen("bob", c) for c in game.hands["bob"][4:])


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_jump_ins_with_an_empty_deck_never_empty_a_hand(variant):
    """Jumping in wrongly with every card at the end of the deck makes the hand grow, never score 0."""
    game = prepared({"ann": ["9H"], "bob": ["2S"]}, deck=["5C"], variant=variant)
    game.discard = ["3S", "4S", "6S", "7S", "8S"]
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert game.deck == []
    game.apply("bob", jump(game, "bob", 0))
    assert len([c for c in game.hands["bob"] if c is not None]) == 2
    assert game.legal_actions("bob") and {"type": "draw"} in game.legal_actions("bob")


@pytest.mark.parametrize("variant", VARIANTS)
def test_player_with_no_cards_still_takes_turns(variant):
    """A player whose hand is empty still draws on their turn."""
    game = prepared({"ann": [None, None], "bob": ["5S"]}, variant=variant)
    assert game.legal_actions("ann")[0] == DRAW
    game.apply("ann", DRAW)
    assert DISCARD in game.legal_actions("ann")


@pytest.mark.parametrize(("variant", "may_keep"), [("passive", False), ("aggressive", True)])
def test_only_aggressive_lets_an_empty_hand_keep_the_drawn_card(variant, may_keep):
    """Aggressive: a player with no cards may keep the drawn card face down; passive: they must discard."""
    game = prepared({"ann": [None], "bob": ["5S"]}, variant=variant)
    game.apply("ann", DRAW)
    assert ({"type": "keep"} in game.legal_actions("ann")) is may_keep
    if may_keep:
        game.apply("ann", {"type": "keep"})
        assert game.hands["ann"] == [None, "2C"] and game.current == "bob"
    else:
        refused(game, "ann", {"type": "keep"})


def test_aggressive_keep_refused_with_cards_in_hand():
    """Keeping the drawn card is only for an empty hand."""
    game = table(variant="aggressive")
    game.apply("ann", DRAW)
    assert "empty" in refused(game, "ann", {"type": "keep"})


# ---------------------------------------------------------------- §8 aggressive end


def test_aggressive_ends_when_the_deck_is_exhausted_and_ties_share():
    """Aggressive: when the deck is out the hands are turned; the lowest hand wins and ties share."""
    game = prepared({"ann": ["3H"], "bob": ["2S", "AD"], "cat": ["9C"]}, deck=["KC"], variant="aggressive")
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("ann", SKIP)
    assert game.legal_actions("bob")[0] == {"type": "reveal"} and {"type": "draw"} not in game.legal_actions("bob")
    events = game.apply("bob", {"type": "reveal"})
    assert game.is_over and "game_over" in types(events)
    result = game.result()
    assert set(result.winners) == {"ann", "bob"} and result.scores == {"ann": 3, "bob": 3, "cat": 9}


def test_aggressive_has_no_dutch_call():
    """The aggressive set has no Dutch call."""
    game = table(variant="aggressive")
    assert {"type": "dutch"} not in game.legal_actions("ann")
    refused(game, "ann", {"type": "dutch"})


def test_hands_are_shown_when_the_round_ends():
    """At the end every hand is turned over: the views show the cards."""
    game = prepared({"ann": ["3H"], "bob": ["2S"]}, deck=["4C"], variant="aggressive")
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", {"type": "reveal"})
    assert game.view(None)["hands"][0]["slots"][0]["id"] == "3H"


# ---------------------------------------------------------------- §9 passive: Dutch and scoring


def drawers_until_end(game: DutchEngine) -> list[str]:
    """Play draw-discard turns (skipping powers) until the round is due to end; who drew."""
    out = []
    while not game.view(None)["due_to_end"]:
        if game.power is not None:
            game.apply(game.power["player"], SKIP)
            continue
        p = game.current
        if game.step == "draw":
            out.append(p)
            game.apply(p, DRAW)
        else:
            game.apply(p, DISCARD)
    return out


def test_after_dutch_each_other_player_has_exactly_one_more_turn():
    """A call at the start of the caller's turn: each other player takes exactly one more turn."""
    game = table()
    game.apply("ann", {"type": "dutch"})
    assert drawers_until_end(game) == ["bob", "cat"]
    assert game.legal_actions("ann")[0] == {"type": "reveal"}


def test_dutch_called_during_someone_elses_turn_gives_them_a_last_turn_too():
    """A call during another's turn: they finish it and also get the last turn, after the others."""
    game = table()
    game.apply("ann", DRAW)
    game.apply("bob", {"type": "dutch"})
    game.apply("ann", DISCARD)
    assert drawers_until_end(game) == ["cat", "ann"]


def test_dutch_called_before_the_player_in_turn_draws_makes_it_their_last_turn():
    """A call by another before the player in turn has drawn: that turn is their last one."""
    game = table()
    game.apply("bob", {"type": "dutch"})
    assert drawers_until_end(game) == ["ann", "cat"]


def test_dutch_called_by_the_caller_mid_turn_lets_them_finish():
    """A caller who has drawn finishes the turn; then each other player has one more turn."""
    game = table()
    game.apply("ann", DRAW)
    game.apply("ann", {"type": "dutch"})
    game.apply("ann", DISCARD)
    assert drawers_until_end(game) == ["bob", "cat"]


def test_dutch_can_be_called_only_once_a_round():
    """A second Dutch call in the same round is refused."""
    game = table()
    game.apply("bob", {"type": "dutch"})
    assert "already called" in refused(game, "cat", {"type": "dutch"})


def finish_round_called_by_ann(hands: dict, **options) -> DutchEngine:
    """Ann calls Dutch at once; the others draw and discard; the hands are revealed."""
    game = prepared(hands, deck=["8C", "9C", "10C", "8D"], **options)
    game.apply("ann", {"type": "dutch"})
    drawers_until_end(game)
    game.apply(game.current, {"type": "reveal"})
    return game


def test_undercut_penalty_for_a_tie():
    """A caller tied for lowest adds the undercut penalty (15)."""
    game = finish_round_called_by_ann({"ann": ["2H", "3D"], "bob": ["5S"], "cat": ["9C"]})
    assert game.round_scores[-1] == {"ann": 20, "bob": 5, "cat": 9}
    assert game.last_round["outcome"] == "tied"


def test_undercut_penalty_when_beaten():
    """A caller beaten by someone lower adds the undercut penalty."""
    game = finish_round_called_by_ann({"ann": ["2H", "3D"], "bob": ["AS"], "cat": ["9C"]}, undercut_penalty=20)
    assert game.round_scores[-1]["ann"] == 25 and game.last_round["outcome"] == "undercut"


def test_strictly_lowest_caller_scores_their_hand():
    """A caller strictly lowest scores just their hand."""
    game = finish_round_called_by_ann({"ann": ["2H"], "bob": ["AS", "2S"], "cat": ["9C"]})
    assert game.round_scores[-1] == {"ann": 2, "bob": 3, "cat": 9}


@pytest.mark.parametrize(("bob", "ann_score"), [(["AS", "2S"], 2 - 15), (["2S"], 2 + 5), (["AS"], 2 + 10)])
def test_forgiving_scores(bob, ann_score):
    """forgiving_scores: outright win -15, tie +5, undercut +10 for the caller."""
    game = finish_round_called_by_ann({"ann": ["2H"], "bob": bob, "cat": ["9C"]}, forgiving_scores=True)
    assert game.round_scores[-1]["ann"] == ann_score


def test_passive_deck_exhausted_ends_the_round():
    """Passive: the round also ends when the deck runs out."""
    game = prepared({"ann": ["3H"], "bob": ["2S"]}, deck=["4C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    assert game.legal_actions("bob")[0] == {"type": "reveal"}
    events = game.apply("bob", {"type": "reveal"})
    assert find(events, "round_over").data["why"] == "deck" and game.phase == "round_over"
    assert game.totals == {"ann": 3, "bob": 2}


def test_rounds_add_up_and_the_next_round_is_dealt():
    """Below the target, totals carry over and the next round deals fresh hands, starter moving on."""
    game = prepared({"ann": ["3H"], "bob": ["2S"]}, deck=["4C"])
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", {"type": "reveal"})
    events = game.apply("ann", {"type": "next_round"})
    assert find(events, "round_started").data["starter"] == "bob"
    assert game.round == 2 and game.phase == "look" and game.totals == {"ann": 3, "bob": 2}
    assert all(len(h) == 4 for h in game.hands.values()) and game.discard == []


def test_totals_reaching_the_target_end_the_game_and_the_lowest_wins():
    """When any total reaches the target (100) the game ends and the lowest total wins."""
    game = prepared({"ann": ["3H"], "bob": ["9S"], "cat": ["AC"]}, deck=["4C"], players=["ann", "bob", "cat"])
    game.totals = {"ann": 80, "bob": 92, "cat": 85}
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", {"type": "reveal"})
    assert game.is_over
    result = game.result()
    assert result.scores == {"ann": 83, "bob": 101, "cat": 86} and result.winners == ("ann",)


def test_target_option_moves_the_end():
    """Option target: a lower target ends the game sooner."""
    game = prepared({"ann": ["3H"], "bob": ["9S"]}, deck=["4C"], target=9)
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("bob", {"type": "reveal"})
    assert game.is_over and game.result().winners == ("ann",)


# ---------------------------------------------------------------- §2 knowledge in views


def test_views_never_show_a_face_down_card_not_even_ones_own():
    """Views show backs and positions only; hidden_cards covers every face-down card, own included."""
    game = table()
    for p in [*game.players, None]:
        text = ids_in(game.view(p))
        assert all(f'"{c}"' not in text for h in game.hands.values() for c in h)
        assert set(game.hands["ann"]) <= game.hidden_cards("ann")


def test_hidden_cards_include_the_deck_and_anothers_drawn_card():
    """The deck is hidden from everyone; the drawn card from all but the drawer."""
    game = table()
    game.apply("ann", DRAW)
    assert "2C" not in game.hidden_cards("ann") and "2C" in game.hidden_cards("bob")
    assert set(game.deck) <= game.hidden_cards(None)


def test_the_first_deal_is_announced():
    """The first deal gives a public round_started event (setup_events) naming the starter."""
    game = DutchEngine.new(["a", "b"], seed=5)
    assert [e.to_json() for e in game.setup_events] == [
        {"type": "round_started", "data": {"round": 1, "starter": "a", "hand_size": 4}, "audience": None}]


def test_a_look_is_seen_for_peek_seconds_then_hidden_again() -> None:
    """§2: a looked-at card stays shown for ``peek_seconds`` (the engine states it; the table hides it)."""
    from bot.engine import Event
    from bot.games.dutch import ENGINE

    game = ENGINE.new(["a", "b"], seed=3, options={"peek_seconds": 7})
    looks = [e for e in game.setup_events if e.type == "saw"] or [Event("saw", {"player": "a"}, ("a",))]
    assert all(game.shown_for_ms(e) == 7000 for e in looks)
    assert game.shown_for_ms(Event("discarded", {"player": "a"})) is None


def test_the_jump_in_grace_comes_before_the_hands_are_turned_over_too():
    """§7.1: when the round is due to end, the grace on the last discard holds the reveal (not a draw),
    so the last discard can be jumped on before the table turns the hands over by itself."""
    game = prepared({"ann": ["3H"], "bob": ["2S", "AD"], "cat": ["9C"]}, deck=["KC"], variant="aggressive",
                    jump_in_grace_seconds=3)
    game.apply("ann", DRAW)
    game.apply("ann", DISCARD)
    game.apply("ann", SKIP)
    assert game.legal_actions("bob")[0] == {"type": "reveal"}
    (grace,) = game.timed_rules()
    assert (grace.name, grace.delay_ms, grace.action) == ("jump_in_grace", 3000, "reveal")
