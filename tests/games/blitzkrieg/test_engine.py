"""The Blitzkrieg engine around the scenarios: deal, actions, end, views, options, properties."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import IllegalAction
from bot.games.blitzkrieg import BOTS, ENGINE, Blitzkrieg, BlitzkriegOptions
from tests.games.blitzkrieg.helpers import ANN, BOB, battle, conserved, deck, stacked, taker


def test_deal_is_27_and_27_from_54_cards() -> None:
    """§2: 52 cards and two Diplomats, dealt 27 to each player."""
    game = Blitzkrieg.new([ANN, BOB], seed=5)
    assert [len(d) for d in game.decks] == [27, 27]
    ids = {c.id for d in game.decks for c in d}
    assert len(ids) == 54 and {"X1", "X2"} <= ids


def test_exactly_two_players() -> None:
    """§1: Blitzkrieg seats exactly two players."""
    with pytest.raises(ValueError, match="2-2 players"):
        Blitzkrieg.new(["a", "b", "c"], seed=1)


def test_plain_battle_higher_card_wins() -> None:
    """§3: with no scenario the higher card wins both cards."""
    events = battle(stacked("KC 2D", "5H 3S"))
    assert taker(events) == ANN


def test_plain_battle_ace_beats_a_king() -> None:
    """§2: the Ace counts 1 but beats everything in a plain battle (here a 9)."""
    assert taker(battle(stacked("AC 2D", "9H 3S"))) == ANN


def test_won_cards_go_to_the_bottom_of_the_deck() -> None:
    """§3: the winner's won cards go under the cards they still hold."""
    game = stacked("KC 2D 9S", "5H 3S")
    battle(game)
    assert [c.id for c in game.decks[0][:2]] == ["2D", "9S"]
    assert {c.id for c in game.decks[0][2:]} == {"KC", "5H"}


def test_won_cards_order_is_mixed_by_the_games_rng() -> None:
    """§3 ruling: the order of won cards comes from the seeded RNG (two seeds, two orders somewhere)."""
    orders = set()
    for seed in range(12):
        game = Blitzkrieg.stacked([ANN, BOB], "7H 2S 3S 4S KC".split(), "7C 5D 8D 9D QC".split(), seed=seed)
        battle(game)
        orders.add(tuple(c.id for c in game.decks[1]))
    assert len(orders) > 1


def test_battle_needs_both_cards_turned() -> None:
    """§3: one turned card waits for the other; the battle resolves when both are up."""
    game = stacked("KC 2D", "5H 3S")
    game.apply(ANN, {"type": "battle"})
    assert game.legal_actions(ANN) == [] and game.legal_actions(BOB) == [{"type": "battle"}]
    assert game.view(BOB)["turned"][ANN]["id"] == "KC"
    with pytest.raises(IllegalAction, match="already turned"):
        game.apply(ANN, {"type": "battle"})


def test_choice_of_another_player_is_refused_and_changes_nothing() -> None:
    """§8: only the player asked may make a choice; a refusal leaves the state untouched."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    before = game.snapshot()
    for who, action in [(ANN, {"type": "turn", "position": 1}), (BOB, {"type": "turn", "position": 4}),
                        (BOB, {"type": "battle"}), (BOB, {"type": "challenge"}),
                        (BOB, {"type": "turn", "position": True}), (BOB, {"type": "turn", "position": 2.0}),
                        (BOB, {"type": "turn", "position": "2"}), (BOB, {"type": "turn"})]:
        with pytest.raises(IllegalAction):
            game.apply(who, action)
        assert game.snapshot() == before


def test_unknown_move_is_refused() -> None:
    """§8: unknown move types are refused with a reason."""
    game = stacked("KC 2D", "5H 3S")
    with pytest.raises(IllegalAction, match="unknown move"):
        game.apply(ANN, {"type": "surrender"})


def test_running_out_of_cards_mid_battle_loses_the_game() -> None:
    """§5.2: the assassin runs out of cards after two of four draws and loses the game."""
    game = stacked("KS 2D", "4S 5C 6C")
    battle(game)
    result = game.result()
    assert result.winners == (ANN,) and result.detail["reason"] == "out-of-cards"
    assert conserved(game) and deck(game, BOB) == set()


def test_no_cards_left_after_a_battle_loses() -> None:
    """§4: a player whose deck is empty after a battle has lost."""
    game = stacked("5C", "KH 3S")
    battle(game)
    assert game.result().winners == (BOB,)


def test_max_battles_more_cards_wins() -> None:
    """§4 option max_battles: after that many battles the player holding more cards wins."""
    game = stacked("KC 2D 3D", "5H 7S 8S", max_battles=1)
    battle(game)
    assert game.is_over and game.result().winners == (ANN,)
    assert game.result().detail == {"reason": "max-battles", "battles": 1}


def test_max_battles_equal_cards_is_a_draw() -> None:
    """§4 ruling: equal card counts at max_battles share the win."""
    game = stacked("KC 2D 3D 4H", "5H 7S 8S QS", max_battles=2)
    battle(game)
    battle(game)
    assert game.result().winners == (ANN, BOB)


@pytest.mark.parametrize("bad", [0, -3, 100_001, "many", 2.5, True])
def test_max_battles_validated(bad: object) -> None:
    """§4: max_battles must be an integer from 1 to 100000; the error names it."""
    with pytest.raises(ValueError, match="max_battles"):
        BlitzkriegOptions(max_battles=bad)  # type: ignore[arg-type]


def test_default_max_battles_is_1000() -> None:
    """§4: the default of max_battles is 1000."""
    assert BlitzkriegOptions().max_battles == 1000


def test_decks_are_hidden_from_everyone() -> None:
    """§3: the order of both decks is hidden; the view shows only counts."""
    game = Blitzkrieg.new([ANN, BOB], seed=3)
    for who in (ANN, BOB, None):
        hidden = game.hidden_cards(who)
        assert len(hidden) == 54
        text = json.dumps(game.view(who))
        assert not any(json.dumps(i) in text for i in hidden)
        assert game.view(who)["decks"] == {ANN: 27, BOB: 27}


def test_timeout_turns_the_card() -> None:
    """§8: a timed-out player turns their card."""
    game = Blitzkrieg.new([ANN, BOB], seed=3)
    assert game.timeout_action(ANN) == {"type": "battle"}


def test_timeout_choice_is_legal_and_leaves_the_game_untouched() -> None:
    """§8: a timed-out choice is picked by the game's RNG without changing the game."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    before = game.snapshot()
    action = game.timeout_action(BOB)
    assert action in game.legal_actions(BOB)
    assert game.snapshot() == before and game.timeout_action(BOB) == action


def test_choice_replays_the_battle_identically() -> None:
    """§8: a choice resumes the same battle: the face-down cards do not change."""
    game = stacked("JH 4C", "3H 5C 9H 2S 6D")
    battle(game)
    down_before = [c.id for c, face in game.table if face == "down"]
    game.apply(BOB, {"type": "turn", "position": 3})
    assert set(down_before) <= deck(game, ANN) | deck(game, BOB)
    assert conserved(game)


def test_story_narrates_the_battle_in_the_view() -> None:
    """§9: the view tells the last battle's story in words."""
    game = stacked("4H KS", "8C 5D 6S")
    battle(game)
    story = game.view(None)["story"]
    assert story[0] == "ann turns 4♥." and any(line.startswith("Halfsies!") for line in story)


def test_events_narrate_each_battle() -> None:
    """§9: every event of a battle carries a line of narration."""
    events = battle(stacked("7H 2S 3S 4S KC", "7C 5D 8D 9D QC"))
    assert all(isinstance(e.data.get("text"), str) and e.data["text"] for e in events)


def play_out(game: Blitzkrieg, chooser: random.Random, check: object = None) -> int:
    """Play *game* to its end with random legal actions; return the number of actions."""
    steps = 0
    while not game.is_over:
        movers = game.to_act()
        player = chooser.choice(movers)
        game.apply(player, chooser.choice(game.legal_actions(player)))
        steps += 1
        if check is not None:
            check(game)  # type: ignore[operator]
    return steps


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), limit=st.integers(1, 400))
def test_random_games_conserve_54_cards(seed: int, limit: int) -> None:
    """§5.5: after every action all 54 cards are in a deck, on the table or aside."""
    game = Blitzkrieg.new([ANN, BOB], seed=seed, options={"max_battles": limit})

    def check(g: Blitzkrieg) -> None:
        assert conserved(g)
        if g.pending is None and not g.is_over and None in g.turned:
            assert len(g.table) == 2 - g.turned.count(None)
        assert len({c.id for d in g.decks for c in d} | {c.id for c, _ in g.table}
                   | {c.id for c in g.aside}) == 54

    play_out(game, random.Random(seed), check)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), limit=st.integers(1, 1000))
def test_random_games_end_within_max_battles(seed: int, limit: int) -> None:
    """§4: every game ends, after at most max_battles battles, with a full result."""
    game = Blitzkrieg.new([ANN, BOB], seed=seed, options={"max_battles": limit})
    play_out(game, random.Random(~seed))
    assert game.battles <= limit
    assert set(game.result().ranks) == {ANN, BOB}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_replay_of_a_random_game_is_exact(seed: int) -> None:
    """Replaying the log rebuilds the same views, choices included."""
    game = Blitzkrieg.new([ANN, BOB], seed=seed, options={"max_battles": 150})
    play_out(game, random.Random(seed))
    again = ENGINE.replay(json.loads(json.dumps(game.log())))
    assert again.view(ANN) == game.view(ANN) and again.result() == game.result()


def test_deepcopy_of_a_game_waiting_for_a_choice_plays_on() -> None:
    """A game paused at a choice can be copied and both copies finish the same way."""
    game = stacked(*("QD KH KD KC 9S 2C 8D", "QS 2S 3S 4S 5S 6S 8C"))
    battle(game)
    twin = copy.deepcopy(game)
    assert game.apply(ANN, {"type": "challenge"}) == twin.apply(ANN, {"type": "challenge"})


def test_house_bot_plays_normal_the_default_strength() -> None:
    """§10: counting (hard), house (normal, the default) and random (easy), strongest first."""
    from bot.games.blitzkrieg import GAME

    assert list(BOTS) == ["counting", "house", "random"]
    assert [GAME.bot_for(s) for s in ("hard", None, "easy")] == ["counting", "house", "random"]
