"""The simulator's records (bot/engine/simulate.py): events kept packed, read back exactly; figures
counted as the game goes (a figures hook's tally) equal to the figures of the whole game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import REGISTRY, get_game
from bot.engine.core import Event
from bot.engine.simulate import GameRecord, bot_classes_for, figures_of, play_game
from bot.games import dutch
from tests.quick import quick_options

GAMES = ["dutch-blitz", "dutch", "blitz", "blitzkrieg"]


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (a tuple is not a list, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("kind", GAMES)
def test_a_records_events_are_the_games_events_exactly(kind: str) -> None:
    """``record.events`` gives back every event of the game, in order, types and data exactly as the
    engine made them (a replay of the log makes them again), as a fresh list on each read."""
    game = get_game(kind)
    players = ["ann", "bob"] if kind == "blitzkrieg" else ["ann", "bob", "cy"]
    record = play_game(REGISTRY[kind], players, seed=5, bot_classes=bot_classes_for(game, None, len(players)),
                       options=quick_options(kind), figures=figures_of(game))
    log = record.engine.log()
    game = REGISTRY[kind].new(log["players"], seed=log["seed"], options=log["options"])
    made: list[Event] = []
    for player, action in log["actions"]:
        made += game.apply(player, action)
    events = record.events
    assert len(events) == len(made) > 0
    for got, want in zip(events, made, strict=True):
        assert type(got) is Event and got == want
        assert got.type == want.type and _same(got.data, want.data) and _same(got.audience, want.audience)
    again = record.events
    assert again == events and again is not events
    events.clear()
    assert record.events == again  # changing a list read from the record leaves the record as it was


def test_events_marshal_cannot_carry_are_kept_as_they_are() -> None:
    """Event data that is not plain data (here an object) is kept as the same objects, in order,
    among packed ones."""
    thing = object()
    plain = [Event("a", {"n": 1}), Event("b", {"list": [1, 2]}, ("ann",))]
    odd = [Event("c", {"thing": thing})]
    record = GameRecord(dutch.ENGINE.new(["ann", "bob"], seed=1), plain)
    record._add(odd)
    record._add(plain)
    events = record.events
    assert events == plain + odd + plain
    assert events[2] is odd[0] and events[2].data["thing"] is thing
    assert GameRecord(dutch.ENGINE.new(["ann", "bob"], seed=1)).events == []


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
def test_dutch_figures_counted_as_the_game_goes_equal_the_whole_games(variant: str) -> None:
    """Dutch's tally, fed in batches by the simulator, gives the figures of all the game's events."""
    players = ["ann", "bob", "cy", "dee"]
    for seed in range(1, 4):
        record = play_game(dutch.ENGINE, players, seed=seed, bot_classes=[dutch.BOTS["forgetful"]] * 4,
                           options={"variant": variant}, figures=dutch.figures)
        assert record.figures == dutch.figures(record.engine, record.events)
        tally = dutch.figures.tally()
        events = record.events
        for start in range(0, len(events), 7):
            tally.add(events[start:start + 7])
        assert tally.figures(record.engine) == record.figures
        assert record.figures["rounds"] >= 1
