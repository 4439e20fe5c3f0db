"""Bot strengths are ordered: hard beats normal, normal beats easy, and easy beats random play.

A modest bar over a fixed seeded sample, counted in games (``Measure.games``, ``Measure.bar``; the
full table with many more games is ``bench/bot_strengths.py``; the figures are in each rules page's
bots section). Blitzkrieg's strengths differ only in its few choices, which do not change the odds
measurably, so there is no order to guard there (docs/rules/blitzkrieg.md §10).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import GAMES, REGISTRY
from bot.engine.game import strength_pairs
from bot.engine.simulate import head_to_head
from bot.games import dutch_blitz
from bot.games.dutch_blitz.bots import RandomBot as DutchBlitzRandom

BAR = 0.6

CASES = [pytest.param(game.engine, stronger, weaker, dict(measure.options) or None, measure.games, measure.bar, id=name)
         for game in GAMES.values() for name, stronger, weaker, measure in strength_pairs(game)]
"""Every pairing the games declare (``Game.measures``, ``bot.engine.game.strength_pairs``): each bot
strength against the next weaker, the easy one against random play."""


@pytest.mark.parametrize(("engine", "stronger", "weaker", "options", "games", "bar"), CASES)
def test_stronger_bot_beats_the_one_below_it(engine, stronger, weaker, options, games, bar) -> None:
    """At each bot's own default speed, the stronger side wins clearly more than half the games."""
    match = head_to_head(engine, stronger, weaker, games=games, seed=11, options=options)
    assert match.stopped == 0
    assert match.a_rate >= bar, match


def test_every_game_that_guards_an_order_guards_all_three_strengths() -> None:
    """Each game with measures declares easy, normal and hard, and its guard plays hard over normal and
    normal over easy under each measure (the Add-bot menu's three strengths mean what they say)."""
    for game in GAMES.values():
        if game.measures:
            ids = {case.id for case in CASES if case.values[0] is game.engine}
            assert set(game.strengths) == {"easy", "normal", "hard"}, game.kind
            for m in game.measures:
                prefix = "-".join(x for x in (game.kind, m.label) if x)
                assert {f"{prefix}-hard-over-normal", f"{prefix}-normal-over-easy"} <= ids, game.kind


def test_dutch_blitz_easy_bots_beat_random_ones_at_a_four_player_table() -> None:
    """Two easy bots against two random ones (docs/rules/dutch-blitz.md, the bots' table: 98 % over 50)."""
    match = head_to_head(dutch_blitz.ENGINE, dutch_blitz.BOTS["easy"], DutchBlitzRandom, games=16, seed=11,
                         options={"target": 30}, seats=4)
    assert match.stopped == 0
    assert match.a_rate >= BAR, match


GUARD_CLAIM = "`tests/engine/test_bot_strengths.py` guards the order"
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_rules_page_claims_the_guard_only_for_a_guarded_game(kind: str) -> None:
    """A rules page says this test guards its bots' order exactly when a case here plays that game."""
    page = " ".join((RULES / f"{kind}.md").read_text(encoding="utf-8").split())
    guarded = any(case.values[0] is REGISTRY[kind] for case in CASES)
    assert (GUARD_CLAIM in page) == guarded, f"docs/rules/{kind}.md: guarded here = {guarded}"
