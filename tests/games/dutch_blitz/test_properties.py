"""Property tests: invariants of Dutch Blitz hold after every action of random legal play."""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import blitz_deck
from bot.games.dutch_blitz.engine import PLAY, DutchBlitz


def _check_cards_accounted(game: DutchBlitz) -> None:
    for i, seat in enumerate(game.seats):
        mine = seat.cards() + [c for pile in game.dutch for c in pile if c.owner == i]
        assert Counter(mine) == Counter(blitz_deck(i)), f"seat {i} cards not all accounted for exactly once"
        assert all(c.owner == i for c in seat.cards()), f"seat {i} holds another seat's card"


def _check_dutch_runs(game: DutchBlitz) -> None:
    for pile in game.dutch:
        assert [c.value for c in pile] == list(range(1, len(pile) + 1))
        assert len({c.colour for c in pile}) == 1


def _check_post_runs(game: DutchBlitz) -> None:
    for seat in game.seats:
        for pile in seat.posts:
            if game.phase == PLAY:
                assert pile, "a Post pile is empty during play"
            for lower, upper in zip(pile[1:], pile, strict=False):
                assert lower.value == upper.value - 1
                assert lower.is_boy != upper.is_boy


_games = st.fixed_dictionaries({
    "players": st.sampled_from([2, 3, 4, 6]),
    "seed": st.integers(0, 10_000),
    "stacks": st.booleans(),
})


def _play(data: st.DataObject, params: dict, check) -> None:
    game = DutchBlitz.new([f"p{i}" for i in range(params["players"])], seed=params["seed"],
                          options={"move_post_stacks": params["stacks"], "stuck_seconds": 0, "target": 30})
    check(game)
    for _ in range(120):
        if game.is_over:
            break
        movers = game.to_act()
        player = movers[data.draw(st.integers(0, len(movers) - 1), label="mover")]
        legal = game.legal_actions(player)
        game.apply(player, legal[data.draw(st.integers(0, len(legal) - 1), label="action")])
        check(game)


_settings = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_settings
@given(data=st.data(), params=_games)
def test_every_players_forty_cards_are_accounted_for_after_every_action(data, params):
    """Blitz, Post, Wood piles, hand and own Dutch-pile cards are the seat's 40 cards, each once."""
    _play(data, params, _check_cards_accounted)


@_settings
@given(data=st.data(), params=_games)
def test_dutch_piles_are_always_same_colour_runs_from_one(data, params):
    """Every Dutch pile reads 1, 2, 3, … in one colour."""
    _play(data, params, _check_dutch_runs)


@_settings
@given(data=st.data(), params=_games)
def test_post_piles_are_always_descending_alternating_runs(data, params):
    """Every Post pile descends by one, boy and girl alternating, and is never empty in play."""
    _play(data, params, _check_post_runs)


@_settings
@given(data=st.data(), params=_games, stuck=st.sampled_from([0, 60]))
def test_every_listed_action_is_accepted_under_any_options(data, params, stuck):
    """Whatever the options, each action legal_actions lists is accepted (tried on a copy)."""
    game = DutchBlitz.new([f"p{i}" for i in range(params["players"])], seed=params["seed"],
                          options={"move_post_stacks": params["stacks"], "stuck_seconds": stuck})
    for _ in range(40):
        if game.is_over:
            break
        movers = game.to_act()
        player = movers[data.draw(st.integers(0, len(movers) - 1), label="mover")]
        legal = game.legal_actions(player)
        for action in legal:
            copy.deepcopy(game).apply(player, action)
        game.apply(player, legal[data.draw(st.integers(0, len(legal) - 1), label="action")])
