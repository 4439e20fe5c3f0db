"""Tests of the Dutch Blitz bots, the simulator figures and bot-only games."""

from __future__ import annotations

import random

import pytest

from bot.engine.bots import Pacing
from bot.engine.core import Event
from bot.engine.simulate import play_game, summarize
from bot.games.dutch_blitz import BOTS, ENGINE, figures
from bot.games.dutch_blitz.bots import EasyBot, GreedyBot
from tests.games.dutch_blitz.helpers import centre, lay, new_game


def _choose(bot_cls, game, player="p0"):
    bot = bot_cls(player, random.Random(1))
    return bot, bot.choose(game.view(player), game.legal_actions(player))


def test_bots_are_greedy_steady_and_easy_with_steady_the_default():
    """BOTS lists greedy (hard), steady (normal, the default), easy, strongest first (§14)."""
    from bot.games.dutch_blitz import GAME

    assert list(BOTS) == ["greedy", "steady", "easy"]
    assert [GAME.bot_for(s) for s in ("hard", None, "easy")] == ["greedy", "steady", "easy"]


def test_greedy_plays_from_the_blitz_pile_first():
    """Given a Dutch play from the Wood pile and one from the Blitz pile, greedy takes the Blitz one."""
    game = new_game()
    centre(game, "1R1", "1B1")
    lay(game, 0, blitz="0G9 0R2", posts=["0Y7"], wood="0B2")
    _, action = _choose(GreedyBot, game)
    assert action == {"type": "dutch", "from": "blitz", "pile": 0}


def test_greedy_plays_a_one_at_once():
    """A 1 on a Post pile goes to the centre before any building or flipping."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B6", posts=["0Y7", "0G1"], hand="0R5 0R6 0R7")
    _, action = _choose(GreedyBot, game)
    assert action == {"type": "dutch", "from": "post:1", "pile": None}


def test_greedy_builds_a_blitz_card_onto_a_post_pile():
    """With no Dutch play, greedy frees its Blitz top onto a Post pile."""
    game = new_game()
    lay(game, 0, blitz="0G9 0B6", posts=["0Y7"], hand="0R5 0R6 0R7")
    _, action = _choose(GreedyBot, game)
    assert action == {"type": "post", "from": "blitz", "to": "post:0"}


def test_greedy_empties_a_one_card_post_pile_to_draw_from_the_blitz_pile():
    """A one-card Post pile that fits on another is moved, so the Blitz pile refills it."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0Y7", "0B6"], hand="0R5 0R6 0R7")
    _, action = _choose(GreedyBot, game)
    assert action == {"type": "post", "from": "post:1", "to": "post:0"}


def test_greedy_flips_when_it_has_nothing_to_play():
    """No Dutch play and nothing to build: greedy flips."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0Y7"], hand="0R5 0R6 0R7")
    _, action = _choose(GreedyBot, game)
    assert action == {"type": "flip"}


def test_greedy_ends_the_hand_after_turning_its_wood_pile_over_three_times_without_a_dutch_play():
    """The bots apply the stuck rule once their Wood pile came round three times with no Dutch play."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0Y7"], hand="0R5 0R6 0R7")
    bot = GreedyBot("p0", random.Random(1))
    turned = Event("flip", {"player": "p0", "turned_over": True})
    bot.observe([turned, turned])
    bot.shifts_since_dutch = 2
    assert bot.choose(game.view("p0"), game.legal_actions("p0")) == {"type": "flip"}
    bot.observe([turned])
    assert bot.choose(game.view("p0"), game.legal_actions("p0")) == {"type": "end_hand"}


@pytest.mark.parametrize("bot_cls", [GreedyBot, EasyBot])
def test_a_stuck_bot_shifts_again_after_each_further_turnover(bot_cls):
    """Stuck, a bot shifts once after each turnover of its Wood pile with no Dutch-pile play, not once a
    stall: each shift makes the next round of flips show other cards (§7)."""
    game = new_game()
    lay(game, 0, blitz="0G9 0G8", posts=["0Y7"], wood="0R5", hand="0R6 0R7")
    bot = bot_cls("p0", random.Random(1))
    turned = Event("flip", {"player": "p0", "turned_over": True})
    shifts = []
    for _ in range(bot.stuck_turnovers - 1):
        bot.observe([turned])
        legal = [a for a in game.legal_actions("p0") if a["type"] != "end_hand"]
        shifts.append(bot.choose(game.view("p0"), legal))
        shifts.append(bot.choose(game.view("p0"), legal))  # the same turnover: no second shift
    assert shifts == [{"type": "shift"}, {"type": "flip"}] * (bot.stuck_turnovers - 1)


@pytest.mark.parametrize("bot_cls", [GreedyBot, EasyBot])
def test_a_lone_bot_at_a_table_reaches_a_one_whenever_one_is_within_reach(bot_cls):
    """At a table a bot cannot end a stuck hand (the host's move, §8), and the person beside it may not
    play at all: in every deal of these seeds where one of its 1s is not buried in its Blitz pile, the
    bot alone gets a card onto a Dutch pile. Shifting only once per stall, it flipped the same cards
    for ever in some of them."""
    reached = 0
    for seed in range(120):
        game = new_game(seed=seed)
        if sum(c.value == 1 for c in game.seats[1].blitz[:-1]) == 4:
            continue  # every 1 under the Blitz top: nothing can reach one
        bot = bot_cls("p1", random.Random(seed))
        for _ in range(600):
            legal = [a for a in game.legal_actions("p1") if a["type"] not in game.table_actions]
            events = game.apply("p1", bot.choose(game.view("p1"), legal))
            bot.observe(events)
            if any(e.type == "dutch" for e in events):
                reached += 1
                break
        else:
            raise AssertionError(f"seed {seed}: {bot_cls.name} found no Dutch-pile play in 600 moves")
    assert reached >= 100


def test_a_dutch_play_by_anyone_resets_the_bots_stuck_count():
    """A card going onto a Dutch pile means the hand is not stuck."""
    bot = GreedyBot("p0", random.Random(1))
    bot.observe([Event("flip", {"player": "p0", "turned_over": True})] * 3)
    bot.observe([Event("dutch", {"player": "p1"})])
    assert bot.turnovers_since_dutch == 0


@pytest.mark.parametrize("bot_cls", [GreedyBot, EasyBot])
def test_bots_send_ready_between_hands_and_never_force_the_next_hand(bot_cls):
    """Between hands a bot is ready at once; once ready it waits."""
    game = new_game()
    lay(game, 0, blitz="0R1", posts=["0B7"])
    game.apply("p0", {"type": "dutch", "from": "blitz", "pile": None})
    _, action = _choose(bot_cls, game, "p1")
    assert action == {"type": "ready"}
    game.apply("p1", action)
    _, action = _choose(bot_cls, game, "p1")
    assert action is None


@pytest.mark.parametrize("bot_cls", [GreedyBot, EasyBot])
def test_bots_take_their_pacing_in_milliseconds(bot_cls):
    """A bot's reaction time comes from the Pacing it is given."""
    bot = bot_cls("p0", random.Random(3), Pacing(median_ms=500, spread=0, minimum_ms=0))
    assert bot.delay_ms() == 500


def test_easy_is_slower_than_greedy_by_default():
    """The easy bot's median reaction time is longer."""
    assert EasyBot.default_pacing.median_ms > GreedyBot.default_pacing.median_ms


@pytest.mark.parametrize("bot_name", ["greedy", "easy"])
def test_bot_games_end_and_every_hand_ends_by_blitz_or_stuck_rule(bot_name):
    """Four-bot games finish; every hand ends by a Blitz or the stuck rule; hand scores are sane."""
    records = [play_game(ENGINE, ["a", "b", "c", "d"], seed=seed, bot_classes=[BOTS[bot_name]] * 4,
                         figures=figures) for seed in (1, 2)]
    for rec in records:
        assert rec.engine.is_over
        assert rec.figures["hands"] == rec.figures["blitzes"] + rec.figures["stuck_ends"]
        assert -20 <= rec.figures["hand_score_min"] and rec.figures["hand_score_max"] <= 40
        assert rec.figures["winner_total"] >= 75
    assert summarize(records)["games"] == 2


def test_two_greedy_bots_finish_a_game_with_post_stacks_allowed():
    """The greedy bot also plays the move_post_stacks variant to the end."""
    rec = play_game(ENGINE, ["a", "b"], seed=5, bot_classes=[GreedyBot] * 2,
                    options={"move_post_stacks": True}, figures=figures)
    assert rec.engine.is_over


def test_figures_count_hands_blitzes_and_who_blitzed():
    """figures() reports the hands, how they ended and each seat's Blitzes (seats numbered from 1)."""
    game = new_game()
    lay(game, 1, blitz="1R1", posts=["1B7"])
    events = game.apply("p1", {"type": "dutch", "from": "blitz", "pile": None})
    numbers = figures(game, events)
    assert (numbers["hands"], numbers["blitzes"], numbers["stuck_ends"]) == (1, 1, 0)
    assert (numbers["blitzes_seat1"], numbers["blitzes_seat2"]) == (0, 1) and "blitzes_seat0" not in numbers
    assert numbers["dutch_cards_per_hand"] == 1


def _greedy_reference(bot, view, legal):
    """Greedy's order of preference (GreedyBot's docstring) read straight from the whole view: the
    reference its choose_lazily, which asks for the view only when the legal actions leave the choice
    open, must agree with. Changes the bot's memory as the bot does (its shifts).
    """
    if view["phase"] != "play":
        return {"type": "ready"} if {"type": "ready"} in legal else None
    me = view["seats"][view["me"]]
    posts = me["posts"]
    rank = {"blitz": 0, "wood": 2}
    dutch = [a for a in legal if a["type"] == "dutch"]
    if dutch:
        return min(dutch, key=lambda a: (rank.get(a["from"], 1),
                                         a["from"].startswith("post:") and len(posts[int(a["from"][5:])]) > 1))
    builds = [a for a in legal if a["type"] == "post"]
    for action in builds:
        if action["from"] == "blitz":
            return action
    for action in legal:
        if action["type"] == "stack":
            return action
    for action in builds:
        if action["from"].startswith("post:") and len(posts[int(action["from"][5:])]) == 1:
            return action
    blitz_top, wood_top = me["blitz_top"], me["wood_top"]
    for action in builds:
        if (action["from"] == "wood" and blitz_top and wood_top and blitz_top["value"] == wood_top["value"] - 1
                and (blitz_top["colour"] in ("red", "blue")) != (wood_top["colour"] in ("red", "blue"))):
            return action
    ends = [a for a in legal if a == {"type": "end_hand"}]
    if ends and (bot.turnovers_since_dutch >= bot.stuck_turnovers or len(ends) == len(legal)):
        return {"type": "end_hand"}
    if {"type": "shift"} in legal and bot.shifts_since_dutch < bot.turnovers_since_dutch:
        bot.shifts_since_dutch += 1
        return {"type": "shift"}
    if {"type": "flip"} in legal:
        return {"type": "flip"}
    return {"type": "end_hand"} if ends else None


@pytest.mark.parametrize(("players", "options"), [(2, None), (4, None), (3, {"move_post_stacks": True}),
                                                  (2, {"stuck_seconds": 0, "target": 30})])
def test_greedy_chooses_by_its_order_of_preference_whatever_it_reads_of_the_view(players, options):
    """In seeded games, every choice the simulator asks of greedy (through choose_lazily, which reads the
    view only when the legal actions leave the choice open) is the reference's from the whole view, and
    leaves the bot's memory as the reference does; some of them are made without the view.
    """
    import copy

    engines = []

    class Handing(ENGINE):
        def _setup(self):
            engines.append(self)
            return super()._setup()

    blind = []

    class Checked(GreedyBot):
        def choose_lazily(self, legal, view):
            twin = copy.deepcopy(self)
            expected = _greedy_reference(twin, engines[-1].view(self.player), legal)
            asked = []
            choice = super().choose_lazily(legal, lambda: asked.append(1) or view())
            assert choice == expected
            assert (self.turnovers_since_dutch, self.shifts_since_dutch, self.rng.getstate()) == (
                twin.turnovers_since_dutch, twin.shifts_since_dutch, twin.rng.getstate())
            blind.append(not asked)
            return choice

    ids = [f"p{i}" for i in range(players)]
    for seed in range(1, 4):
        record = play_game(Handing, ids, seed=seed, bot_classes=[Checked] * players, options=options)
        plain = play_game(ENGINE, ids, seed=seed, bot_classes=[GreedyBot] * players, options=options)
        assert record.engine.log()["actions"] == plain.engine.log()["actions"]
    assert sum(blind) > len(blind) / 2
