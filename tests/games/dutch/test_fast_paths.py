"""The Dutch engine's quick paths give exactly what the base class's general ones give.

``bot/games/dutch/engine.py`` overrides :meth:`~bot.engine.core.Engine._copied` (for apply), ``view``,
``legal_actions`` and ``is_over`` (fewer calls per ask), copies plain actions without
:func:`~bot.engine.core.canonical` and makes its events without the frozen dataclass's
``__init__``. These tests hold the results equal to the general ones.
"""

from __future__ import annotations

import pickle

import pytest

from bot.engine.core import Engine, Event, IllegalAction, canonical
from bot.engine.simulate import play_game
from bot.games.dutch import BOTS, ENGINE
from bot.games.dutch.engine import _event, _plain_copy
from tests.games.dutch.helpers import prepared


def test_events_made_quickly_equal_events_made_by_the_dataclass():
    """Same fields, equality, hash of the type, repr and pickle round trip."""
    for args in [("drew", {"player": "a", "deck": 3}), ("drew_card", {"card": {"id": "5H"}}, ("a",))]:
        quick, slow = _event(*args), Event(*args)
        assert quick == slow and repr(quick) == repr(slow) and type(quick) is Event
        assert pickle.loads(pickle.dumps(quick)) == slow and quick.to_json() == slow.to_json()
        with pytest.raises(AttributeError):
            quick.type = "other"  # type: ignore[misc]  # still frozen


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
def test_every_logged_action_copies_as_canonical_does(variant):
    """The quick copy of each action of a bot game equals canonical's (a fresh, equal dict)."""
    record = play_game(ENGINE, ["a", "b", "c"], seed=11, bot_classes=[BOTS["perfect"]] * 3,
                       options={"variant": variant})
    for _, action in record.engine.log()["actions"]:
        copied = _plain_copy(action)
        assert copied == canonical(action) and copied is not action


def test_unusual_actions_still_go_through_canonical():
    """Tuples become lists, non-string keys and floats fall back, non-JSON data is refused."""
    assert _plain_copy({"type": "look", "positions": (0, 1)}) is None
    assert _plain_copy({"type": "x", 1: 2}) is None and _plain_copy({"type": "x", "n": 1.5}) is None
    game = ENGINE.new(["ann", "bob"], seed=1)
    events = game.apply("ann", {"type": "look", "positions": (0, 1)})
    assert events[0].data["positions"] == [0, 1] and game.log()["actions"][-1] == ["ann", {"type": "look",
                                                                                          "positions": [0, 1]}]
    with pytest.raises(IllegalAction, match="not valid data"):
        game.apply("bob", {"type": "look", "positions": {0, 1}})
    with pytest.raises(IllegalAction, match="is not playing"):
        game.apply("zed", {"type": "draw"})


def test_overridden_protocol_methods_answer_as_the_base_class():
    """view, legal_actions and is_over agree with Engine's own (through the hooks), errors included."""
    game = prepared({"ann": ["KH", "9D"], "bob": ["2S", "3S"]}, deck=["QC", "5C"])
    game.apply("ann", {"type": "draw"})
    for player in ["ann", "bob", None]:
        assert game.view(player) == Engine.view(game, player)
    for player in ["ann", "bob"]:
        assert game.legal_actions(player) == Engine.legal_actions(game, player)
    assert game.is_over is Engine.is_over.fget(game) is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not seated"):
        game.view("zed")
    with pytest.raises(ValueError, match="not seated"):
        game.legal_actions("zed")
    game.phase = "over"
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("ann", {"type": "discard"})
    assert game.legal_actions("ann") == [] and game.is_over
