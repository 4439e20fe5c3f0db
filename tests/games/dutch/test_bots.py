"""The Dutch bots and figures (docs/rules/dutch.md §11)."""

from __future__ import annotations

import random

import pytest

from bot.engine.core import Event
from bot.engine.simulate import play_game, summarize
from bot.games.dutch import BOTS, ENGINE, ForgetfulBot, PerfectBot, figures
from bot.games.dutch.bots import _Table
from tests.games.dutch.helpers import jump, prepared

FIGURES = {"rounds", "avg_final_hand", "dutch_calls", "undercuts", "outright_calls", "deck_endings",
           "jump_ins_right", "jump_ins_wrong", "powers", "power_actions", "winning_score"}


def bot_for(game, player, cls=PerfectBot):
    return cls(player, random.Random(1))


def feed(bot, events):
    bot.observe([e for e in events if e.visible_to(bot.player)])


def test_bots_are_perfect_attentive_and_forgetful_with_attentive_the_default():
    """BOTS lists the memory-perfect bot (hard), the attentive one (normal, the default) and the
    forgetful one (easy), strongest first (§11)."""
    from bot.games.dutch import GAME

    assert list(BOTS) == ["perfect", "attentive", "forgetful"]
    assert [GAME.bot_for(s) for s in ("hard", None, "easy")] == ["perfect", "attentive", "forgetful"]


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


def _tracking_bot(cls):
    """*cls*, checking after each batch of events it observes that its record of the table and of whose move
    it is (``table``, ``playing``, ``in_turn``, ``power_left``, ``live_window``) equal the engine's state."""

    class Tracked(cls):
        engine = None
        checked = 0

        def observe(self, events):
            super().observe(events)
            game = type(self).engine
            assert self.playing == (game.phase == "play")
            if self.playing:
                assert self.in_turn == game.current
            power = game.power
            assert self.power_left == (power["left"] if power is not None and power["player"] == self.player else 0)
            window = game.window
            assert self.live_window == (None if window is None or window["taken"] else
                                        (window["number"], window["rank"]))
            if self.table is not None:
                seen = _Table.from_view(game.view(self.player))
                assert (self.table.red_kings, self.table.players, self.table.slots, self.table.window) == (
                    seen.red_kings, seen.players, seen.slots, seen.window)
                type(self).checked += 1

    return Tracked


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
@pytest.mark.parametrize("bot", ["perfect", "forgetful"])
def test_the_bots_record_of_the_table_follows_every_move(variant, bot):
    """What a bot keeps of the table from the events (to wait, and to choose without a view) equals the
    engine's state after every move of seeded games, and the games are those of the plain bots."""
    tracked = _tracking_bot(BOTS[bot])

    class Engine(ENGINE):
        def _setup(self):
            tracked.engine = self
            return super()._setup()

    for seed in range(1, 4):
        for players in (["a", "b"], ["a", "b", "c", "d"]):
            record = play_game(Engine, players, seed=seed, bot_classes=[tracked] * len(players),
                               options={"variant": variant, "red_kings": -2})
            plain = play_game(ENGINE, players, seed=seed, bot_classes=[BOTS[bot]] * len(players),
                              options={"variant": variant, "red_kings": -2})
            assert record.engine.log()["actions"] == plain.engine.log()["actions"]
    assert tracked.checked > 1000


def test_a_bot_waits_out_of_turn_and_not_in_turn():
    """is_idle: out of turn with no window, yes; in turn, or with a sure card for an untaken window, no."""
    game = prepared({"ann": ["5H", "9D"], "bob": ["4D"], "cat": ["5S", "3S"]}, deck=["5C", "6C", "7C"])
    cat, bob = bot_for(game, "cat"), bot_for(game, "bob")
    assert not cat.is_idle()  # nothing seen yet: it does not know the round is in play
    start = [Event("turn", {"player": "ann", "round": 1})]
    feed(cat, start)
    feed(bob, start)
    assert cat.is_idle() and bob.is_idle()
    for action in ({"type": "draw"}, {"type": "discard"}):  # ann discards a 5: cat remembers none yet
        events = game.apply("ann", action)
        feed(cat, events)
        feed(bob, events)
        assert cat.is_idle()
    assert not bob.is_idle()  # bob's turn now
    cat.memory[("cat", 0)] = {"id": "5S", "rank": 5, "suit": "S"}
    assert not cat.is_idle()
    assert cat.choose_lazily(game.legal_actions("cat"), lambda: game.view("cat")) == jump(game, "cat", 0)
    feed(cat, game.apply("bob", jump(game, "bob", 0)))  # bob is first (and wrong): the window is taken
    assert cat.is_idle() and cat.choose_lazily(game.legal_actions("cat"), lambda: game.view("cat")) is None
