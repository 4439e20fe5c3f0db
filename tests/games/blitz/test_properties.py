"""Property tests of Blitz (31) under random legal play (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import standard_deck
from bot.games.blitz.engine import BlitzEngine
from tests.games.blitz.helpers import card_count, players

ALL = sorted(c.id for c in standard_deck())

games = st.fixed_dictionaries({
    "n": st.integers(2, 8),
    "seed": st.integers(0, 2**32),
    "lives": st.integers(1, 4),
    "three_of_a_kind": st.sampled_from([30.0, 30.5]),
    "keep_discard_pickup": st.booleans(),
    "choices": st.integers(0, 2**32),
})


def random_game(spec: dict, check: object) -> BlitzEngine:
    """Play a whole game with random legal moves, calling check(game, before, after) around each move."""
    options = {k: spec[k] for k in ("lives", "three_of_a_kind", "keep_discard_pickup")}
    game = BlitzEngine.new(players(spec["n"]), seed=spec["seed"], options=options)
    chooser = random.Random(spec["choices"])
    steps = 0
    while not game.is_over:
        assert steps <= BlitzEngine.max_actions
        (player,) = game.to_act()
        before = dict(game.lives)
        game.apply(player, chooser.choice(game.legal_actions(player)))
        check(game, before)
        steps += 1
    return game


@settings(max_examples=60, deadline=None)
@given(games)
def test_all_52_cards_always_accounted_for(spec: dict) -> None:
    """Hands, stock and discard pile always hold the 52 cards, each exactly once."""

    def check(game: BlitzEngine, before: dict) -> None:
        assert sorted(card_count(game)) == ALL

    check(random_game(spec, check), {})


@settings(max_examples=60, deadline=None)
@given(games)
def test_lives_never_increase(spec: dict) -> None:
    """No move ever gives a player a life back, and lives never go below zero."""

    def check(game: BlitzEngine, before: dict) -> None:
        assert all(0 <= game.lives[p] <= before[p] for p in game.players)

    check(random_game(spec, check), dict.fromkeys(players(spec["n"]), 99))


@settings(max_examples=60, deadline=None)
@given(games)
def test_players_in_hold_three_cards_between_turns(spec: dict) -> None:
    """Whenever a turn starts, every player still in holds three cards and those out hold none."""

    def check(game: BlitzEngine, before: dict) -> None:
        if game.phase == "draw":
            assert all(len(game.hands[p]) == (3 if game.lives[p] > 0 else 0) for p in game.players)

    check(random_game(spec, check), {})


@settings(max_examples=40, deadline=None)
@given(games)
def test_game_ends_with_one_winner_ranked_first(spec: dict) -> None:
    """Every game ends with exactly one player left with lives, and that player alone ranks first."""
    game = random_game(spec, lambda g, b: None)
    result = game.result()
    assert len(game.in_players()) == 1 and result.winners == tuple(game.in_players())
