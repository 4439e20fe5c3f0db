"""Every game declares the same three bot strengths once (issue #30, item 6; ``docs/tables.md``,
"Bots"): easy, normal (the default) and hard, each a bot of its own with a line of how it plays;
the bots that stored tables name keep their names."""

from __future__ import annotations

import pickle
from random import Random

import pytest

from bot.engine import GAMES
from bot.engine.game import DEFAULT_STRENGTH, STRENGTHS, BotChoice, Game, pick_bot
from bot.engine.simulate import bot_classes_for
from tests.engine.sample_game import GAME as HIGH_CARD

STORED_BEFORE = {"dutch-blitz": ("greedy", "easy"), "dutch": ("perfect", "forgetful"),
                 "blitzkrieg": ("house", "random"), "blitz": ("heuristic", "easy")}
"""The bot kinds seats stored before the strengths (the lobby's menu offered these names)."""


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_game_offers_easy_normal_and_hard_each_its_own_bot(kind: str) -> None:
    """Three strengths, three different bots, a description of 1-100 characters each."""
    game = GAMES[kind]
    assert tuple(game.strengths) == STRENGTHS == ("easy", "normal", "hard")
    bots = [game.bot_for(s) for s in STRENGTHS]
    assert len(set(bots)) == 3 and set(bots) <= set(game.bots)
    assert all(0 < len(c.description) <= 100 for c in game.strengths.values())
    assert list(game.bots) == bots[::-1], "bots strongest first (ratings read the order)"
    assert game.bot_for() == game.bot_for(DEFAULT_STRENGTH) == game.bot_for("normal")
    assert [game.strength_of(b) for b in bots] == list(STRENGTHS)


@pytest.mark.parametrize("kind", sorted(STORED_BEFORE))
def test_a_bot_kind_stored_by_an_older_table_still_names_its_bot(kind: str) -> None:
    """Restore and replay find a seat's stored bot kind among the game's bots, as itself."""
    game = GAMES[kind]
    for name in STORED_BEFORE[kind]:
        assert name in game.bots and game.bot_for(name) == name
        assert bot_classes_for(game, name, 1) == [game.bots[name]]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_bot_pickles_with_its_memory_for_snapshots_and_the_simulator(kind: str) -> None:
    """A bot of each strength, built and pickled, comes back as the same class with the same RNG state."""
    for name, cls in GAMES[kind].bots.items():
        bot = cls("p0", Random(3))
        again = pickle.loads(pickle.dumps(bot))
        assert type(again) is cls and again.rng.random() == bot.rng.random(), name


def test_a_strength_a_bot_kind_or_nothing_picks_a_bot_and_anything_else_is_refused() -> None:
    """``pick_bot``: strength, kind, ``None`` (normal); a game with no strengths plays its first bot."""
    strengths = {"easy": BotChoice("dull", "d"), "normal": BotChoice("mid", "m"), "hard": BotChoice("sharp", "s")}
    bots = {"sharp": 1, "mid": 2, "dull": 3}
    assert [pick_bot(bots, strengths, c) for c in ("hard", "easy", None, "mid")] == ["sharp", "dull", "mid", "mid"]
    assert pick_bot({"only": 1}, {}, "easy") == "only"
    with pytest.raises(KeyError, match="no bot 'wizard'"):
        pick_bot(bots, strengths, "wizard")
    with pytest.raises(KeyError, match="no bots"):
        pick_bot({}, {}, "hard")
    assert HIGH_CARD.bot_for("hard") == next(iter(HIGH_CARD.bots))


def test_a_declaration_with_a_missing_strength_or_an_unknown_bot_is_refused() -> None:
    """``Game`` checks its strengths: all three, each naming one of its bots, described in ≤ 100 characters."""
    base = {"engine": HIGH_CARD.engine, "bots": dict(HIGH_CARD.bots), "summary": "s", "ui": "m:C", "command": "c"}
    only = next(iter(HIGH_CARD.bots))
    with pytest.raises(ValueError, match="strengths must be exactly"):
        Game(**base, strengths={"hard": BotChoice(only, "x")})
    with pytest.raises(ValueError, match="names no bot 'ghost'"):
        Game(**base, strengths={s: BotChoice("ghost" if s == "easy" else only, "x") for s in STRENGTHS})
    with pytest.raises(ValueError, match="1-100 characters"):
        Game(**base, strengths={s: BotChoice(only, "x" * 101) for s in STRENGTHS})
    game = Game(**base, strengths={s: BotChoice(only, f"{s} play") for s in reversed(STRENGTHS)})
    assert tuple(game.strengths) == STRENGTHS and game.bot_for("easy") == only
