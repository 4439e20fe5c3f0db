"""The simulator's summary (bot/engine/simulate.py ``summarize``): counts add up over games; a figure a game
declares as a value per game (a mean, a rate, a least, a most, a final score) is summarized by its mean
over the games only; seats are numbered from 1."""

from __future__ import annotations

import re

import pytest

from bot.engine import GAMES, REGISTRY, get_game
from bot.engine.simulate import bot_classes_for, figures_of, play_game, summarize
from tests.quick import quick_options

LOOKS_LIKE_A_MEAN = re.compile(r"^(avg|mean)_|_per_|_(min|max)$|^winning_|^winner_")
"""Figure names that say a value per game; each must be declared in its hook's ``means``."""


def _records(kind: str, games: int = 3) -> list:
    game = get_game(kind)
    players = [f"seat{i}" for i in range(1, REGISTRY[kind].min_players + 1)]
    return [play_game(REGISTRY[kind], players, seed=seed, bot_classes=bot_classes_for(game, None, len(players)),
                      options=quick_options(kind), figures=figures_of(game)) for seed in range(1, games + 1)]


@pytest.mark.parametrize("kind", sorted(k for k, g in GAMES.items() if g.figures is not None))
def test_declared_means_are_figures_of_the_game_and_every_mean_is_declared(kind: str) -> None:
    """Each name a game's ``figures`` declares in ``means`` is one of its figures, and every figure whose
    name says it is a value per game (``avg_…``, ``…_per_…``, ``…_min``, ``…_max``, ``winning_…``) is
    declared."""
    hook = figures_of(get_game(kind))
    record = _records(kind, 1)[0]
    means = set(getattr(hook, "means", ()))
    assert means <= set(record.figures), means - set(record.figures)
    undeclared = {name for name in record.figures if LOOKS_LIKE_A_MEAN.search(name)} - means
    assert not undeclared, f"{kind}: figures that read as values per game but are summed: {undeclared}"


@pytest.mark.parametrize("kind", sorted(k for k, g in GAMES.items() if g.figures is not None))
def test_summary_adds_counts_and_means_the_values_per_game(kind: str) -> None:
    """A count has its total and mean per game; a declared value per game its mean over the games only."""
    records = _records(kind)
    hook = figures_of(get_game(kind))
    means = set(getattr(hook, "means", ()))
    summary = summarize(records, hook)
    for name, fig in summary["figures"].items():
        values = [r.figures[name] for r in records]
        if name in means:
            assert fig == {"mean": round(sum(values) / len(values), 3)}, name
        else:
            assert fig == {"total": sum(values), "mean": round(sum(values) / len(values), 3)}, name


def test_wins_per_seat_are_numbered_from_1() -> None:
    """``wins_per_seat`` counts the seats 1 to N."""
    records = _records("blitz")
    summary = summarize(records)
    assert list(summary["wins_per_seat"]) == [str(s) for s in range(1, len(records[0].engine.players) + 1)]
    assert sum(summary["wins_per_seat"].values()) >= len(records)
