"""The Dutch Blitz engine's memo of derived data (legal actions, views) never changes an answer.

The engine keeps what its legal actions and views derive from the state in a memo, checked
against the state on every call. These tests compare every answer with a plain recomputation from
the state (the engine's own uncached ``_moves`` and a reference view written out here), through
random play, pickling, deep copies and positions staged from outside.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from bot.engine.cards import BlitzCard
from bot.engine.core import IllegalAction
from bot.engine.simulate import play_game
from bot.games.dutch_blitz import BOTS, figures
from bot.games.dutch_blitz.engine import BETWEEN, DutchBlitz
from tests.games.dutch_blitz.helpers import card, cards, centre, lay, new_game


def reference_legal(game: DutchBlitz, player: str) -> list[dict[str, Any]]:
    """``legal_actions(player)`` recomputed from the state without the memo (§13)."""
    if game.is_over:
        return []
    if game.phase == BETWEEN:
        return ([] if player in game.ready else [{"type": "ready"}]) + [{"type": "next_hand"}]
    actions = game._moves(game.seats[game.players.index(player)])
    if game.options.stuck_seconds > 0 or (not actions and game._dead_hand()):
        actions.append({"type": "end_hand"})
    return actions


def _card(c: BlitzCard | None) -> dict[str, Any] | None:
    return None if c is None else c.to_json()


def reference_view(game: DutchBlitz, player: str | None) -> dict[str, Any]:
    """``view(player)`` recomputed from the state without the memo (§12)."""
    seats = []
    for i, p in enumerate(game.players):
        seat = game.seats[i]
        seats.append({
            "player": p, "seat": i, "blitz_top": _card(seat.blitz[-1] if seat.blitz else None),
            "blitz_count": len(seat.blitz), "posts": [[c.to_json() for c in pile] for pile in seat.posts],
            "wood_top": _card(seat.wood[-1] if seat.wood else None), "wood_count": len(seat.wood),
            "hand_count": len(seat.hand), "total": game.totals[p], "ready": p in game.ready,
        })
    o = game.options
    return {
        "phase": game.phase, "hand": game.hand_number, "target": o.target, "move_post_stacks": o.move_post_stacks,
        "stuck_seconds": o.stuck_seconds,
        "dutch_piles": [{"pile": i, "colour": pile[-1].colour, "top": pile[-1].to_json(), "size": len(pile),
                         "complete": pile[-1].value == 10} for i, pile in enumerate(game.dutch)],
        "seats": seats, "hand_scores": [dict(s) for s in game.hand_scores],
        "hand_endings": [dict(e) for e in game.hand_endings],
        "me": None if player is None else game.players.index(player),
    }


def assert_answers_match(game: DutchBlitz) -> None:
    for p in [*game.players, None]:
        view = game.view(p)
        assert view == reference_view(game, p)
        assert list(view) == list(reference_view(game, p)), "the view's keys keep their order"
        if p is not None:
            assert game.legal_actions(p) == reference_legal(game, p)


@pytest.mark.parametrize("players, options", [
    (2, None),
    (4, {"move_post_stacks": True}),
    (3, {"stuck_seconds": 0, "target": 10}),
])
def test_answers_equal_a_recomputation_through_random_play(players, options):
    """After every move of random play, every view and legal list equals one made from scratch."""
    game = DutchBlitz.new([f"p{i}" for i in range(players)], seed=players, options=options)
    chooser = random.Random(players)
    for _ in range(600):
        if game.is_over:
            break
        assert_answers_match(game)
        movers = game.to_act()
        player = chooser.choice(movers)
        game.apply(player, chooser.choice(game.legal_actions(player)))
    assert_answers_match(game)


def test_a_position_staged_from_outside_is_never_answered_stale():
    """Piles replaced or changed in place between two calls give new answers at once."""
    game = new_game()
    game.view(None)
    game.legal_actions("p0")
    lay(game, 0, blitz="0G9 0R2", posts=["0B7", "0Y3"])  # a new Seat
    assert_answers_match(game)
    centre(game, "0R1")  # new Dutch piles
    assert {"type": "dutch", "from": "blitz", "pile": 0} in game.legal_actions("p0")
    assert_answers_match(game)
    game.seats[0].blitz.append(card("0G1"))  # in place, on a list the memo has seen
    assert {"type": "dutch", "from": "blitz", "pile": None} in game.legal_actions("p0")
    assert_answers_match(game)
    game.dutch[0].append(card("0R2"))  # a Dutch pile grown in place
    game.seats[0].posts[1][0] = card("0Y9")  # a Post card replaced in place, same length
    game.totals["p1"] = 12
    game.ready.add("p0")
    assert_answers_match(game)
    assert game.view("p1")["seats"][0]["posts"][1] == [card("0Y9").to_json()]


def test_refused_moves_and_answers_leave_the_snapshot_alone():
    """The memo is not state: asking and being refused change no snapshot, and a clone has none."""
    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7"])
    before = game.snapshot()
    game.view("p0")
    game.legal_actions("p0")
    game.legal_actions("p1")
    with pytest.raises(IllegalAction, match="no Dutch pile 9"):
        game.apply("p0", {"type": "dutch", "from": "blitz", "pile": 9})
    with pytest.raises(IllegalAction, match="Wood pile is empty"):
        game.apply("p0", {"type": "shift"})
    assert game.snapshot() == before
    assert "_memo" not in before
    assert "_memo" not in copy.deepcopy(game).__dict__


def test_a_pickled_game_plays_on_identically():
    """pickle.loads(pickle.dumps(engine)) mid-game answers and plays exactly as the original."""
    rec = play_game(DutchBlitz, ["a", "b", "c"], seed=4, bot_classes=[BOTS["greedy"]] * 3, figures=figures)
    log = rec.engine.log()
    game = DutchBlitz.new(log["players"], seed=log["seed"], options=log["options"])
    for n, (player, action) in enumerate(log["actions"]):
        if n % 50 == 7:
            game.view(player)
            game.legal_actions(player)
            data = pickle.dumps(game)
            assert b"_memo" not in data
            again = pickle.loads(data)
            assert again.snapshot() == game.snapshot()
            for p in [*game.players, None]:
                assert again.view(p) == game.view(p)
                if p is not None:
                    assert again.legal_actions(p) == game.legal_actions(p)
            game = again
        game.apply(player, action)
    assert game.result() == rec.engine.result()


def test_each_call_hands_out_a_new_list_and_view():
    """Callers may add to the list of legal actions or set keys of a view without touching the next one."""
    game = new_game()
    legal = game.legal_actions("p0")
    legal.append({"type": "dance"})
    assert {"type": "dance"} not in game.legal_actions("p0")
    view = game.view("p0")
    view["phase"] = "over"
    assert game.view("p0")["phase"] == "play" and game.view(None)["me"] is None


def test_every_deal_still_holds_each_seats_own_forty_cards():
    """Decks made once per process deal the same cards (§1), hand after hand."""
    game = new_game(2, seed=9)
    first = [sorted(s.cards()) for s in game.seats]
    game.apply("p0", {"type": "end_hand"})
    game.apply("p0", {"type": "next_hand"})
    assert [sorted(s.cards()) for s in game.seats] == first == [sorted(cards(
        " ".join(f"{i}{c}{v}" for c in "RBYG" for v in range(1, 11)))) for i in range(2)]


@pytest.mark.parametrize("action", [
    {"type": "flip"},
    {"type": "dutch", "from": "wood", "pile": 3},
    {"pile": None, "from": "blitz", "type": "dutch"},  # keys in another order: the copy keeps it
    {"type": "post", "from": "post:0", "to": "post:1"},
    {"type": "flip", "extra": True},
    {"type": "dutch", "from": "wood", "pile": 1.0},  # not a plain int: through canonical
    {"type": "post", "from": "wood", "to": ("post:1",)},  # a tuple: canonical makes it a list
    {"type": "flip", 1: "x"},  # a key that is not a string: canonical makes it "1"
])
def test_the_engine_copies_an_action_as_canonical_does(action):
    """The engine's own copy of an action (its quick path for plain actions included) equals a JSON round
    trip's, keys in the same order, values of the same types, and shares nothing with the caller's dict.
    """
    from bot.engine.core import canonical

    game = new_game()
    copied = game._copied(action)
    expected = canonical(action)
    assert copied == expected
    assert list(copied) == list(expected)
    assert [type(v) for v in copied.values()] == [type(v) for v in expected.values()]
    assert copied is not action


def test_cards_not_of_the_decks_are_read_by_their_value():
    """Equal cards (a deck's, one built by a test, one unpickled) give the same view and legal actions, and
    cards that are not the decks' own are not kept by the engine's card tables one entry each.
    """
    from bot.games.dutch_blitz import engine as module

    game = new_game()
    lay(game, 0, blitz="0G9 0R2", posts=["0B7", "0Y3"], wood="0R1", hand="0G5")
    sizes, copies = [], []
    for _ in range(4):
        again = pickle.loads(pickle.dumps(game))  # new card objects every time
        copies.append(again)  # kept alive: no copy's card takes the id of an earlier one's
        assert again.view("p0") == game.view("p0") == reference_view(game, "p0")
        assert again.legal_actions("p0") == game.legal_actions("p0") == reference_legal(game, "p0")
        sizes.append(len(module._INFO_BY_KEY))
    # The first copy may add an entry per card it reads (unless earlier tests of this process read an
    # equal card): compare the later copies with it, never a count from an unknown start.
    assert sizes[1:] == [sizes[0]] * 3, f"equal cards share one entry, yet copies grew the table: {sizes}"
    assert all(0 <= owner < 8 for owner, _colour, _value in module._INFO_BY_KEY), "keyed by a card's value only"
    assert len(module._INFO_BY_KEY) <= 40 * 8, "at most one entry per card of eight decks"
