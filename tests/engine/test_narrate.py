"""Games told in words (bot/engine/narrate.py): every event worded, nothing hidden told to a spectator."""

from __future__ import annotations

import pytest

from bot.engine import REGISTRY, get_game
from bot.engine.narrate import narrate, play_by_play, visible_events
from bot.engine.simulate import bot_classes_for, play_game
from tests.quick import quick_options

GAMES = ["dutch-blitz", "dutch", "blitz", "blitzkrieg"]


def _game(kind: str, seed: int = 3):
    game = get_game(kind)
    players = ["ann", "bob"] if kind == "blitzkrieg" else ["ann", "bob", "cy"]
    return play_game(REGISTRY[kind], players, seed=seed, bot_classes=bot_classes_for(game, None, len(players)),
                     options=quick_options(kind))


@pytest.mark.parametrize("kind", GAMES)
def test_every_event_of_a_whole_game_is_worded(kind: str) -> None:
    """Each event of a bot game gets its game's own words, not the plain type-and-data fallback."""
    record = _game(kind)
    for event in record.engine.setup_events + record.events:
        line = narrate(kind, event, str.upper)
        assert not line.startswith(event.type + " —") and not line == event.type, (event.type, line)


@pytest.mark.parametrize("kind", GAMES)
def test_public_play_by_play_replays_the_game_and_tells_no_private_event(kind: str) -> None:
    """A spectator's play-by-play covers every move and words no event addressed to one player."""
    record = _game(kind)
    lines = list(play_by_play(REGISTRY[kind], record.engine.log(), name=str.upper))
    private = [e for e in record.events if e.audience is not None]
    told_privately = {narrate(kind, e, str.upper) for e in private}
    assert lines and not told_privately & {line.split(". ", 1)[-1] for line in lines}
    assert any(line.strip().startswith(f"{record.actions}.") for line in lines), "the last move is told"


def test_a_players_view_includes_their_own_private_events() -> None:
    """Told as one Dutch player saw it, their own looks appear; another player's do not."""
    record = _game("dutch")
    ann = "\n".join(play_by_play(REGISTRY["dutch"], record.engine.log(), viewer="ann", name=str.upper))
    public = "\n".join(play_by_play(REGISTRY["dutch"], record.engine.log(), name=str.upper))
    assert "ANN sees" in ann and "BOB sees" not in ann and " sees " not in public


def test_visible_events_filters_by_audience() -> None:
    """visible_events(None) keeps public events; a player also gets those addressed to them."""
    from bot.engine.core import Event

    events = [Event("a", {}), Event("b", {}, ("ann",)), Event("c", {}, ("bob",))]
    assert [e.type for e in visible_events(events, None)] == ["a"]
    assert [e.type for e in visible_events(events, "ann")] == ["a", "b"]
