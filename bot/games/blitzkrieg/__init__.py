"""Blitzkrieg: War with twenty special battles, for two players (``docs/rules/blitzkrieg.md``).

Exports ``ENGINE`` (:class:`~bot.games.blitzkrieg.engine.Blitzkrieg`), ``BOTS`` (``house``
first, the default; ``random``) and ``figures``.
"""

from __future__ import annotations

from bot.games.blitzkrieg.bots import HouseBot, RandomBot, figures
from bot.games.blitzkrieg.engine import Blitzkrieg, BlitzkriegOptions
from bot.games.blitzkrieg.narrate import narrate

__all__ = ["narrate", "ENGINE", "BOTS", "figures", "Blitzkrieg", "BlitzkriegOptions", "HouseBot", "RandomBot"]

ENGINE = Blitzkrieg
BOTS = {"house": HouseBot, "random": RandomBot}
