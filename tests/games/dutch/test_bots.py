"""The Dutch bots and figures (docs/rules/dutch.md §11)."""

from __future__ import annotations

import random

import pytest

from bot.engine.core import Event
from bot.engine.simulate import play_game, summarize
from bot.games.dutch import BOTS, ENGINE, ForgetfulBot, PerfectBot, figures
from tests.games.dutch.helpers import jump, prepared

FIGURES = {"rounds", "avg_final_hand", "dutch_calls", "undercuts", "outright_calls", "deck_endings",
           "jump_ins_right", "jump_ins_wrong", "powers", "power_actions", "winning_score"}


def bot_for(game, player, cls=PerfectBot):
    return cls(player, random.Random(1))


def feed(bot, events):
    bot.observe([e for e in events if e.visible_to(bot.player)])


def test_default_bot_is_perfect():
    """BOTS lists the memory-perfect bot first (the default) and the forgetful one."""
    assert list(BOTS) == ["perfect", "forgetful"]


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
@pytest.mark.parametrize("bot", ["perfect", "forgetful"])
def test_bots_finish_games(variant, bot):
    """Four bots finish games offline in both rule sets, with every figure reported."""
    records = [play_game(ENGINE, ["a", "b", "c", "d"], seed=s, bot_classes=[BOTS[bot]] * 4,
                         options={"variant": variant}, figures=figures) for s in range(1, 4)]
    assert all(r.engine.is_over for r in records)
    assert set(records[0].figures) == FIGURES
    assert summarize(records)["games"] == 3


def test_perfect_bot_never_jumps_in_wrong():
    """The memory-perfect bot jumps in only when sure: never wrongly."""
    for variant in ("passive", "aggressive"):
        records = [play_game(ENGINE, ["a", "b", "c"], seed=s, bot_classes=[PerfectBot] * 3,
                             options={"variant": variant}, figures=figures) for s in range(4)]
        assert sum(r.figures["jump_ins_wrong"] for r in records) == 0
        assert sum(r.figures["jump_ins_right"] for r in records) > 0


def test_bot_memory_follows_a_blind_swap():
    """A seen card is remembered at its new position after a Q swap it watched."""
    game = prepared({"ann": ["5H", "9D"], "bob": ["2S", "3S"]}, deck=["QC"])
    bot = bot_for(game, "ann")
    feed(bot, [Event("saw", {"player": "ann", "owner": "ann", "position": 1, "why": "opening",
                             "card": {"id": "9D", "rank": 9, "suit": "D", "label": "9"}}, ("ann",))])
    feed(bot, [Event("power_swap", {"player": "bob", "first": {"player": "ann", "position": 1},
                                    "second": {"player": "bob", "position": 0}})])
    assert bot.memory[("bob", 0)]["id"] == "9D" and ("ann", 1) not in bot.memory


def test_bot_swaps_out_its_highest_known_card():
    """Holding a low drawn card, the bot swaps it for its highest known card."""
    game = prepared({"ann": ["5H", "9D"], "bob": ["2S", "3S"]}, deck=["AC"])
    bot = bot_for(game, "ann")
    bot.memory = {("ann", 0): {"id": "5H", "rank": 5, "suit": "H"}, ("ann", 1): {"id": "9D", "rank": 9, "suit": "D"}}
    feed(bot, game.apply("ann", {"type": "draw"}))
    assert bot.choose(game.view("ann"), game.legal_actions("ann")) == {"type": "swap", "position": 1}


def test_bot_jumps_in_when_sure_and_not_otherwise():
    """The bot jumps in with a remembered card of the discard's rank, and stays put when unsure."""
    game = prepared({"ann": ["5H", "9D"], "bob": ["4D"], "cat": ["5S", "3S"]}, deck=["5C", "6C"])
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    sure, unsure = bot_for(game, "cat"), bot_for(game, "cat")
    sure.memory = {("cat", 0): {"id": "5S", "rank": 5, "suit": "S"}}
    assert sure.choose(game.view("cat"), game.legal_actions("cat")) == jump(game, "cat", 0)
    assert unsure.choose(game.view("cat"), game.legal_actions("cat")) is None


def test_bot_calls_dutch_when_its_known_total_is_low():
    """Passive: a bot that knows its whole hand and holds at most the threshold calls Dutch."""
    game = prepared({"ann": ["AH", "2D"], "bob": ["9S", "3S"]})
    low = bot_for(game, "ann")
    low.memory = {("ann", 0): {"id": "AH", "rank": 1, "suit": "H"}, ("ann", 1): {"id": "2D", "rank": 2, "suit": "D"}}
    assert low.choose(game.view("ann"), game.legal_actions("ann")) == {"type": "dutch"}
    assert bot_for(game, "ann").choose(game.view("ann"), game.legal_actions("ann")) == {"type": "draw"}


def test_bot_uses_a_jack_on_an_unknown_own_card():
    """With a J's look, the bot looks at one of its own unknown cards first."""
    game = prepared({"ann": ["AH", "2D"], "bob": ["9S", "3S"]}, deck=["JC"])
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    bot = bot_for(game, "ann")
    bot.memory = {("ann", 0): {"id": "AH", "rank": 1, "suit": "H"}}
    assert bot.choose(game.view("ann"), game.legal_actions("ann")) == {"type": "power_look", "player": "ann",
                                                                       "position": 1}


def test_forgetful_bot_forgets_some_seen_cards():
    """The forgetful bot loses some of the cards it is shown."""
    bot = ForgetfulBot("ann", random.Random(3))
    for i in range(40):
        bot.observe([Event("saw", {"player": "ann", "owner": "bob", "position": i, "why": "power",
                                   "card": {"id": "5H", "rank": 5, "suit": "H"}}, ("ann",))])
    assert 0 < len(bot.memory) < 40


def test_figures_count_from_events():
    """figures counts calls, undercuts and jump-ins from the events of a game."""
    game = prepared({"ann": ["3H"], "bob": ["2S"]}, deck=["4C"], variant="aggressive")
    events = game.apply("ann", {"type": "draw"}) + game.apply("ann", {"type": "discard"})
    events += game.apply("bob", {"type": "reveal"})
    got = figures(game, events)
    assert got["rounds"] == 1 and got["avg_final_hand"] == 2.5 and got["deck_endings"] == 1
    assert got["jump_ins_right"] == got["jump_ins_wrong"] == got["dutch_calls"] == 0 and got["winning_score"] == 2


def test_bot_does_not_call_dutch_when_an_adversary_looks_as_low():
    """Passive: the bot holds back its call when it has seen an adversary hand at least as low."""
    game = prepared({"ann": ["AH", "2D"], "bob": ["AS"]})
    bot = bot_for(game, "ann")
    bot.memory = {("ann", 0): {"id": "AH", "rank": 1, "suit": "H"}, ("ann", 1): {"id": "2D", "rank": 2, "suit": "D"},
                  ("bob", 0): {"id": "AS", "rank": 1, "suit": "S"}}
    assert bot.choose(game.view("ann"), game.legal_actions("ann")) == {"type": "draw"}


def test_bot_dumps_a_high_card_on_adversaries_at_random_not_by_seat():
    """With a Q and equal targets, the bot's swap target varies with its own RNG, never always seat order."""
    game = prepared({"ann": ["KS", "9D"], "bob": ["2S", "3S"], "cat": ["4C", "5C"]}, deck=["QC"])
    game.apply("ann", {"type": "draw"})
    game.apply("ann", {"type": "discard"})
    targets = set()
    for seed in range(12):
        bot = PerfectBot("ann", random.Random(seed))
        bot.memory = {("ann", 0): {"id": "KS", "rank": 13, "suit": "S"}}
        action = bot.choose(game.view("ann"), game.legal_actions("ann"))
        assert action["type"] == "power_swap" and action["first"] == {"player": "ann", "position": 0}
        targets.add(action["second"]["player"])
    assert targets == {"bob", "cat"}
