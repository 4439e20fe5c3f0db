"""The Blitz (31) bots and simulator figures (bot/games/blitz/bots.py, figures.py)."""

from __future__ import annotations

import random

import pytest

from bot.engine import REGISTRY, get_game
from bot.engine.simulate import play_game, summarize
from bot.games.blitz import BOTS, ENGINE, EasyBot, HeuristicBot, figures
from tests.games.blitz.helpers import players, position

FOUR = {"p0": "KH 8H 5H", "p1": "10S JS 9S", "p2": "QS 9D 8D", "p3": "AC 6S 4S"}


def heuristic(player: str = "p0") -> HeuristicBot:
    return HeuristicBot(player, random.Random(0))


def test_package_is_registered_with_heuristic_hard_and_steady_normal() -> None:
    """The registry finds kind 'blitz'; its bots strongest first: 'heuristic' (hard), 'steady' (normal,
    the default), 'easy' (§14)."""
    game = get_game("blitz")
    assert REGISTRY["blitz"] is ENGINE and game.figures is figures
    assert list(BOTS) == ["heuristic", "steady", "easy"]
    assert [game.bot_for(s) for s in ("hard", "normal", "easy", None)] == ["heuristic", "steady", "easy", "steady"]


def test_heuristic_takes_the_discard_when_it_improves_the_hand() -> None:
    """With K♥ 8♥ 5♥ and 9♥ on the discard pile the bot takes the 9♥."""
    game = position(hands=FOUR, discard="9H")
    assert heuristic().choose(game.view("p0"), game.legal_actions("p0")) == {"type": "draw", "source": "discard"}


def test_heuristic_draws_from_the_stock_when_the_discard_does_not_help() -> None:
    """With K♥ 8♥ 5♥ and 2♣ on the discard pile the bot draws from the stock."""
    game = position(hands=FOUR, discard="2C")
    assert heuristic().choose(game.view("p0"), game.legal_actions("p0")) == {"type": "draw", "source": "stock"}


def test_heuristic_keeps_its_best_suit() -> None:
    """After drawing a 2♣ to K♥ 8♥ 5♥ the bot throws the 2♣ away."""
    game = position(hands=FOUR, discard="7D", stock_top="2C")
    game.apply("p0", {"type": "draw", "source": "stock"})
    assert heuristic().choose(game.view("p0"), game.legal_actions("p0")) == {"type": "discard", "card": "2C"}


def test_heuristic_respects_the_discard_pickup_rule() -> None:
    """Having taken 9♥ for K♥ 8♥ 5♥, the bot never tries to throw the 9♥ back."""
    game = position(hands=FOUR, discard="9H")
    game.apply("p0", {"type": "draw", "source": "discard"})
    assert heuristic().choose(game.view("p0"), game.legal_actions("p0")) == {"type": "discard", "card": "5H"}


def test_heuristic_knocks_on_a_strong_hand() -> None:
    """With 29 in spades and four players, the bot knocks."""
    game = position(hands=FOUR, turn="p1", discard="2C")
    assert heuristic("p1").choose(game.view("p1"), game.legal_actions("p1")) == {"type": "knock"}


def test_heuristic_does_not_knock_on_a_weak_hand() -> None:
    """With 11 the bot does not knock at the start of a round."""
    game = position(hands=FOUR, turn="p3", discard="2C")
    assert heuristic("p3").choose(game.view("p3"), game.legal_actions("p3"))["type"] == "draw"


def test_easy_bot_only_picks_legal_actions() -> None:
    """The easy bot's choices are always among the legal actions over a whole game."""
    game = ENGINE.new(players(3), seed=4)
    bots = {p: EasyBot(p, random.Random(i)) for i, p in enumerate(game.players)}
    while not game.is_over:
        (player,) = game.to_act()
        legal = game.legal_actions(player)
        action = bots[player].choose(game.view(player), legal)
        assert action in legal
        game.apply(player, action)


@pytest.mark.parametrize("bot", ["heuristic", "easy"])
def test_bot_games_end_without_refusals(bot: str) -> None:
    """Ten simulated 4-player games of each bot end, with no refused move."""
    records = [play_game(ENGINE, players(4), seed=s, bot_classes=[BOTS[bot]] * 4, figures=figures)
               for s in range(1, 11)]
    summary = summarize(records)
    assert summary["games"] == 10 and summary["refused"] == 0
    assert sum(summary["wins_per_seat"].values()) == 10


def test_figures_count_rounds_knocks_and_lives() -> None:
    """The figures of a game add up: every round ends in a blitz or showdown, lives lost match the start."""
    record = play_game(ENGINE, players(4), seed=1, bot_classes=[HeuristicBot] * 4, figures=figures)
    fig = record.figures
    assert fig["rounds"] == fig["blitzes"] + fig["showdowns"] + fig["replays"]
    assert fig["lives_lost"] == 4 * 4 - sum(record.engine.lives.values())
    assert fig["knocks"] >= fig["showdowns"] and fig["knocker_lives_lost"] <= fig["lives_lost"]
