"""Every engine and bot survives a pickle round trip: the table snapshots them (docs/tables.md, "Restarts").

An engine made with ``keep_log=False`` (as a table makes it) is pickled mid-game with its bots; the
copy and the original then take the same moves and must give the same events and views at every
step, and the bots the same choices.
"""

from __future__ import annotations

import pickle
import random

import pytest

from bot.engine import REGISTRY, get_game


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_a_pickled_engine_and_its_bots_play_on_exactly_as_the_original(kind: str) -> None:
    engine_cls = REGISTRY[kind]
    bots = get_game(kind).bots
    players = [f"p{i}" for i in range(min(4, engine_cls.max_players))]
    engine = engine_cls.new(players, seed=11, options=engine_cls.conformance_options, keep_log=False)
    rng = random.Random(3)
    names = list(bots)
    seats = {p: bots[names[i % len(names)]](p, random.Random(i)) for i, p in enumerate(players)}
    for p, bot in seats.items():
        bot.observe([e for e in engine.setup_events if e.visible_to(p)])
    for _ in range(15):  # into the game
        movers = [p for p in players if engine.legal_actions(p)]
        if engine.is_over or not movers:
            break
        player = rng.choice(movers)
        events = engine.apply(player, rng.choice(engine.legal_actions(player)))
        for p, bot in seats.items():
            bot.observe([e for e in events if e.visible_to(p)])
    copy_engine, copy_seats = pickle.loads(pickle.dumps((engine, seats)))
    assert copy_engine.action_count == engine.action_count and not copy_engine.keeps_log
    steps = 0
    while steps < 300:  # and on, side by side
        steps += 1
        movers = [p for p in players if engine.legal_actions(p)]
        assert movers == [p for p in players if copy_engine.legal_actions(p)]
        if engine.is_over or not movers:
            break
        player = rng.choice(movers)
        legal = engine.legal_actions(player)
        assert copy_engine.legal_actions(player) == legal
        bot = seats[player]
        choice = bot.choose(engine.view(player), legal)
        assert copy_seats[player].choose(copy_engine.view(player), legal) == choice
        action = choice if choice is not None else rng.choice(legal)
        events = engine.apply(player, action)
        assert [e.to_json() for e in copy_engine.apply(player, action)] == [e.to_json() for e in events]
        for p in players:
            visible = [e for e in events if e.visible_to(p)]
            seats[p].observe(visible)
            copy_seats[p].observe(visible)
        assert {p: copy_engine.view(p) for p in [*players, None]} == {p: engine.view(p) for p in [*players, None]}
    assert copy_engine.is_over == engine.is_over and (steps >= 30 or engine.is_over)


def test_an_unpickled_card_is_the_one_shared_instance_of_that_card() -> None:
    from bot.engine.cards import BlitzCard, Card, blitz_deck, standard_deck

    for card in [*standard_deck(jokers=2), *blitz_deck(3)]:
        copy = pickle.loads(pickle.dumps(card))
        assert copy == card and type(copy) is type(card)
        assert pickle.loads(pickle.dumps(card)) is copy, "one instance per card, not one per snapshot"
    assert pickle.loads(pickle.dumps(Card(1, "S"))) != pickle.loads(pickle.dumps(BlitzCard(0, "red", 1)))
