"""Property tests: knowledge never leaks (docs/rules/dutch.md §2), over random games of both rule sets."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.dutch import DutchEngine


def card_ids(obj) -> set[str]:
    """Every card id named in a JSON value (cards are dicts carrying an "id" and a "rank")."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "id" in x and "rank" in x:
                found.add(x["id"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def face_down(game: DutchEngine) -> dict[str, str]:
    """Card id -> owner of every card lying face down in a hand."""
    if game.phase in ("round_over", "over"):
        return {}
    return {c: p for p, hand in game.hands.items() for c in hand if c is not None}


def check_views(game: DutchEngine) -> None:
    down = face_down(game)
    public = card_ids(game.view(None))
    assert not public & set(down), "the public view shows a face-down card"
    for a in game.players:
        shown = card_ids(game.view(a))
        for cid in shown & set(down):
            raise AssertionError(f"view of {a} shows face-down card {cid} of {down[cid]}")
        for cid in shown:
            assert game.has_seen(a, cid) or cid in game.discard, f"{a} sees {cid} without being shown it"
        text = json.dumps(game.view(a))
        assert all(json.dumps(cid) not in text for cid in game.hidden_cards(a))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(["passive", "aggressive"]),
       players=st.integers(2, 5))
def test_no_view_or_event_leaks_a_card(seed, variant, players):
    """Random games: no view shows an unshown or face-down card; private events reach only their audience."""
    ids = [f"p{i}" for i in range(players)]
    game = DutchEngine.new(ids, seed=seed, options={"variant": variant, "target": 40})
    chooser = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 400:
        check_views(game)
        movers = game.to_act()
        player = chooser.choice(movers)
        action = chooser.choice(game.legal_actions(player))
        before = dict(game.seen)
        events = game.apply(player, action)
        steps += 1
        for event in events:
            if event.is_public:
                continue
            assert event.audience == (player,), "a private event goes to the acting player alone"
            for cid in card_ids(event.data):
                bit = 1 << game.seen_index(player)
                assert game.seen[cid] == before.get(cid, 0) | bit, "a private look reached someone else"
    check_views(game)
