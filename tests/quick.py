"""Short games of every declared game, for the tests: built from each game's declaration, never listed here.

A game declares the engine options of a whole short game (``Game.quick_options``: one hand, one
round, one life) and its further rule sets (``Game.variants``); the tests that play whole games take
them from here, so a new game needs no entry in any test.
"""

from __future__ import annotations

from bot.engine import GAMES

FAST_TABLE = {"bot_speed": "fast"}
"""Table settings that keep a driven game quick: fast bots."""

RACE_WINDOW_MS = 30
"""A short race window, for the games whose table offers one (ms)."""


def quick_options(kind: str) -> dict[str, object]:
    """The engine options of a short game of *kind* (its declaration's ``quick_options``)."""
    return dict(GAMES[kind].quick_options)


def table_options(kind: str, variant: str | None = None) -> dict[str, object]:
    """The ``/<kind> new`` options of a short, quick game of *kind* (or of its rule set *variant*):
    its quick engine options, fast bots and, where the table offers one, a short race window.
    """
    game = GAMES[kind]
    options: dict[str, object] = {**game.quick_options, **(game.variants[variant] if variant else {}), **FAST_TABLE}
    if "race_window_ms" in game.table_settings:
        options["race_window_ms"] = RACE_WINDOW_MS
    return options


def variant_cases() -> dict[str, tuple[str, str]]:
    """Every declared rule set that changes a board, as a case of its own: ``"<kind>-<variant>"`` to
    ``(kind, variant)``, e.g. ``"dutch-aggressive"``.
    """
    return {f"{kind}-{name}": (kind, name) for kind, game in sorted(GAMES.items()) for name in game.variants}
