"""The Dutch engine's memos (views, power actions) are derived data: never stale, never state.

The engine builds the seat-independent part of a view once per state and keeps a K's or Q's
swaps per set of occupied positions (``bot/games/dutch/engine.py``). These tests hold that
whatever a memo serves equals what a memo-less engine builds, even when a test stages a position
by changing the state directly, and that the memos stay out of snapshots and pickles.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from bot.engine.simulate import play_game
from bot.games.dutch import BOTS, ENGINE, DutchEngine
from tests.games.dutch.helpers import prepared

MEMOS = DutchEngine._MEMOS


def fresh(game: DutchEngine) -> DutchEngine:
    """A copy of *game* without memos (deep copies and pickles leave them out)."""
    clone = copy.deepcopy(game)
    assert all(name not in vars(clone) for name in MEMOS)
    return clone


def everything(game: DutchEngine) -> dict:
    """Every view and every player's legal actions."""
    return {"views": {p: game.view(p) for p in [*game.players, None]},
            "legal": {p: game.legal_actions(p) for p in game.players}}


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
def test_memos_serve_what_a_memo_less_engine_builds_over_a_whole_bot_game(variant):
    """At every step of a bot game, views and legal actions equal those of a copy built from scratch."""
    record = play_game(ENGINE, ["a", "b", "c", "d"], seed=5, bot_classes=[BOTS["perfect"]] * 4,
                       options={"variant": variant})
    log = record.engine.log()
    game = ENGINE.new(log["players"], seed=log["seed"], options=log["options"])
    for player, action in log["actions"]:
        assert everything(game) == everything(fresh(game))
        game.apply(player, action)
    assert everything(game) == everything(fresh(game))


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
def test_a_position_staged_from_outside_is_never_shown_stale(variant):
    """Changing the state directly (as tests and e2e stagings do), in place or not, shows in the next view."""
    game = prepared({"ann": ["5H", "9D", "KS"], "bob": ["2S", "3S"], "cat": ["4C", "QC"]}, deck=["6C", "7C", "8C"],
                    variant=variant)
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    stagings = [
        lambda g: g.hands["bob"].__setitem__(0, None),  # in place: a slot empties
        lambda g: g.hands["cat"].append("JD"),  # in place: a card joins
        lambda g: g.hands["cat"].__setitem__(0, "4D"),  # in place: a card changes
        lambda g: g.window.__setitem__("number", 7),
        lambda g: g.window.__setitem__("taken", True),
        lambda g: g.discard.append("10H"),
        lambda g: g.totals.__setitem__("ann", 42),
        lambda g: g.round_scores.append({"ann": 1, "bob": 2, "cat": 3}),
        lambda g: g.looked.__setitem__("bob", False),
        lambda g: setattr(g, "deck", []),
        lambda g: setattr(g, "dutch", "cat"),
        lambda g: setattr(g, "final_turns", ["ann"]),
        lambda g: setattr(g, "turn", 2),
        lambda g: setattr(g, "power", {"player": "cat", "rank": 13, "left": 2, "after": "resume"}),
        lambda g: g.power.__setitem__("left", 1),
        lambda g: g.hands["ann"].__setitem__(1, None),  # the K's swaps lose a position
        lambda g: setattr(g, "phase", "round_over"),
        lambda g: setattr(g, "last_round", {"round": 1}),
    ]
    for stage in stagings:
        everything(game)  # the memos are made for the state before
        stage(game)
        assert everything(game) == everything(fresh(game)), stage


def test_views_and_action_lists_are_fresh_at_the_top():
    """Each call gives its own top-level dict or list: changing one does not reach the next call."""
    game = prepared({"ann": ["KH", "9D"], "bob": ["2S", "3S"]}, deck=["KC", "5C"])
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})  # a K: a look and a swap over every pair
    view = game.view("bob")
    view["me"], view["deck"] = "someone", -1
    assert game.view("bob")["me"] == "bob" and game.view("bob")["deck"] == 1
    assert game.view("ann")["me"] == "ann" and game.view(None)["me"] is None
    legal = game.legal_actions("ann")
    expected = list(legal)
    legal.clear()
    assert game.legal_actions("ann") == expected and {"type": "skip_power"} in expected


def test_memos_stay_out_of_snapshots_and_pickles():
    """Snapshots compare state only, and a pickled engine carries no memo yet plays on identically."""
    game = prepared({"ann": ["KH", "9D"], "bob": ["2S", "3S"]}, deck=["QC", "5C"])
    before = game.snapshot()
    everything(game)
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    everything(game)
    assert all(name in vars(game) for name in ("_view_memo", "_power_memo"))
    assert all(name not in game.snapshot() for name in MEMOS) and before != game.snapshot()
    again = pickle.loads(pickle.dumps(game))
    assert all(name not in vars(again) for name in MEMOS)
    assert again.snapshot() == game.snapshot() and everything(again) == everything(game)


def test_a_pickled_bot_game_plays_on_identically():
    """Engine and bots pickled mid-game (memos built) go on to the same moves, events and views."""
    players = ["a", "b", "c"]
    game = ENGINE.new(players, seed=3)
    bots = {p: BOTS["perfect"](p, random.Random(i)) for i, p in enumerate(players)}
    for p, bot in bots.items():
        bot.observe([e for e in game.setup_events if e.visible_to(p)])

    def step(game, bots):
        for p in players:
            legal = game.legal_actions(p)
            choice = bots[p].choose(game.view(p), legal) if legal else None
            if choice is not None:
                events = game.apply(p, choice)
                for q, bot in bots.items():
                    bot.observe([e for e in events if e.visible_to(q)])
                return [e.to_json() for e in events]
        waiting = game.waiting_for()
        action = game.timeout_action(waiting[0])
        return [e.to_json() for e in game.apply(waiting[0], action)]

    for _ in range(60):
        step(game, bots)
    assert not game.is_over
    game2, bots2 = pickle.loads(pickle.dumps((game, bots)))
    for _ in range(200):
        if game.is_over:
            break
        assert step(game, bots) == step(game2, bots2)
        assert everything(game) == everything(game2)


def test_the_power_memo_keeps_a_bounded_number_of_actions():
    """A K over huge hands (random play grows them) lists every swap but is not kept in memory."""
    game = prepared({"ann": ["KH", "9D"], "bob": ["2S", "3S"]}, deck=["KC", "5C"])
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    small = game.legal_actions("ann")
    assert len(game._power_memo) == 1 and len(small) == 4 + 6 + 1 + 1  # looks, swaps, skip, dutch
    game.hands["bob"] += ["4S"] * 98  # 102 cards in all: 5151 swaps
    big = game.legal_actions("ann")
    assert len(big) == 102 + 102 * 101 // 2 + 2 and big == fresh(game).legal_actions("ann")
    assert sum(len(looks) + len(swaps) for looks, swaps in game._power_memo.values()) <= 4096
