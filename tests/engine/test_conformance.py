"""The engine conformance suite, run over every registered game and the sample game."""

from __future__ import annotations

import pytest

from bot.engine import REGISTRY
from tests.engine import conformance
from tests.engine.sample_game import HighCard

ENGINES = {**REGISTRY, HighCard.kind: HighCard}
SEEDS = range(6)


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_random_play_terminates(kind: str) -> None:
    """Random legal play ends within the engine's max_actions and yields a full result."""
    conformance.check_terminates(ENGINES[kind], SEEDS)


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_legal_accepted_illegal_refused_untouched(kind: str) -> None:
    """Listed actions are accepted; unlisted ones raise IllegalAction and leave the state as it was."""
    conformance.check_legal_and_illegal(ENGINES[kind], range(3))


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_replay_reproduces_every_view(kind: str) -> None:
    """replay(log()) rebuilds the same views for every player and spectators."""
    conformance.check_replay(ENGINES[kind], range(3))


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_global_random_does_not_matter(kind: str) -> None:
    """Disturbing the global random module changes nothing in a seeded game."""
    conformance.check_global_random_ignored(ENGINES[kind], range(2))


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_views_never_show_hidden_cards(kind: str) -> None:
    """No player's view, nor the public view, contains a card hidden from it."""
    conformance.check_views_hide_cards(ENGINES[kind], range(3))


def test_simulator_reports_a_game_stopped_at_its_safety_limit_and_goes_on():
    """A game past max_actions is reported as stopped (not won), and the run goes on with the next."""
    from bot.engine.simulate import bot_classes_for, play_game, summarize
    from bot.games import dutch_blitz

    class Short(dutch_blitz.ENGINE):  # type: ignore[misc,valid-type]
        max_actions = 50

    bots = bot_classes_for(dutch_blitz.GAME, None, 2)
    records = [play_game(Short, ["a", "b"], seed=s, bot_classes=bots) for s in (1, 2)]
    assert all(r.stopped and "no end after" in r.stopped for r in records)
    summary = summarize(records)
    assert summary["stopped"] == 2 and sum(summary["wins_per_seat"].values()) == 0
