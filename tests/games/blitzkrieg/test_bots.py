"""The house bot and the simulator figures (docs/rules/blitzkrieg.md §10)."""

from __future__ import annotations

import random

from bot.engine.simulate import play_game, summarize
from bot.games.blitzkrieg import BOTS, ENGINE, figures
from bot.games.blitzkrieg.bots import HouseBot, RandomBot
from bot.games.blitzkrieg.scenarios import SCENARIO_KEYS
from tests.games.blitzkrieg.helpers import ANN, BOB, battle, stacked

STRONG = ("QD KH KD KC 9S 2C 8D", "QS 2S 3S 4S 5S 6S 8C")
WEAK = ("QD 2S 3S 4S 5S 6S 8C", "QS KH KD KC 9S 2C 8D")


def house(player: str) -> HouseBot:
    """A house bot for *player* with a fixed RNG."""
    return HouseBot(player, random.Random(0))


def test_house_bot_challenges_on_a_strong_hand() -> None:
    """§10: with 50 in hand the house challenges."""
    game = stacked(*STRONG)
    battle(game)
    assert house(ANN).choose(game.view(ANN), game.legal_actions(ANN)) == {"type": "challenge"}


def test_house_bot_disarms_on_a_weak_hand() -> None:
    """§10: with 20 in hand the house disarms."""
    game = stacked(*WEAK)
    battle(game)
    assert house(ANN).choose(game.view(ANN), game.legal_actions(ANN)) == {"type": "disarm"}


def test_house_bot_turns_its_card_after_a_person() -> None:
    """§10: after the person clicks Battle!, the house turns its own card."""
    game = stacked("KC 2D", "5H 3S")
    game.apply(ANN, {"type": "battle"})
    assert house(BOB).choose(game.view(BOB), game.legal_actions(BOB)) == {"type": "battle"}


def test_house_bot_picks_a_listed_face_down_card() -> None:
    """§10: in Napoleon the house turns one of the offered positions."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    legal = game.legal_actions(BOB)
    assert house(BOB).choose(game.view(BOB), legal) in legal


def test_figures_have_one_count_per_scenario() -> None:
    """§10: the figures list battles, A-Bomb wins, max_battles games and each scenario."""
    record = play_game(ENGINE, [ANN, BOB], seed=4, bot_classes=[HouseBot, HouseBot], figures=figures)
    names = set(record.figures)
    assert {"battles", "a_bomb_wins", "max_battles_reached"} <= names
    assert {f"scenario_{k.replace('-', '_')}" for k in SCENARIO_KEYS} <= names
    assert record.figures["battles"] == record.engine.battles


def test_house_bots_finish_offline_games() -> None:
    """§10: house against house finishes every game and conserves the cards."""
    records = [play_game(ENGINE, [ANN, BOB], seed=s, bot_classes=[HouseBot, HouseBot], figures=figures)
               for s in range(1, 21)]
    assert all(r.engine.is_over and r.engine.card_count() == 54 for r in records)
    assert summarize(records)["games"] == 20


def test_random_bot_is_offered_too() -> None:
    """§10: a random bot is available as a yardstick."""
    assert BOTS["random"] is RandomBot
