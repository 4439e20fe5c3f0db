"""Blitz (31), kind ``blitz``: draw and discard towards 31 in one suit; the lowest hand loses a life.

Not Dutch Blitz. Rules and rulings: ``docs/rules/blitz.md``.

Exports ``ENGINE`` (:class:`~bot.games.blitz.engine.BlitzEngine`), ``BOTS`` (name to bot class,
``heuristic`` first) and ``figures`` (per-game numbers for the simulator).
"""

from __future__ import annotations

from bot.games.blitz.bots import BOTS, EasyBot, HeuristicBot
from bot.games.blitz.engine import BlitzEngine, BlitzOptions, hand_value
from bot.games.blitz.figures import figures
from bot.games.blitz.narrate import narrate

ENGINE = BlitzEngine
"""The engine class the registry picks up."""

__all__ = ["narrate", "BOTS", "ENGINE", "BlitzEngine", "BlitzOptions", "EasyBot", "HeuristicBot", "figures",
           "hand_value"]
