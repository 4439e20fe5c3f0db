"""Blitzkrieg: War with twenty special battles, for two players (``docs/rules/blitzkrieg.md``).

Exports ``ENGINE`` (:class:`~bot.games.blitzkrieg.engine.Blitzkrieg`), ``BOTS`` (``counting``,
``house``, ``random``: hard, normal and easy, ``GAME.strengths``) and ``figures``.
"""

from __future__ import annotations

from bot.engine.game import BotChoice, Game
from bot.games.blitzkrieg.bots import BOTS, CountingBot, HouseBot, RandomBot, figures
from bot.games.blitzkrieg.engine import Blitzkrieg, BlitzkriegOptions
from bot.games.blitzkrieg.narrate import narrate

__all__ = ["GAME", "SUMMARY", "narrate", "ENGINE", "BOTS", "figures", "Blitzkrieg", "BlitzkriegOptions", "CountingBot",
           "HouseBot", "RandomBot"]

ENGINE = Blitzkrieg

SUMMARY = (
    "War for two, with twenty named special battles. Both players press **Battle!** to turn their top "
    "card; the higher card wins both (the Ace beats everything in a plain battle) unless a special "
    "battle applies: Classic War, Halfsies, Battalion, Crossing the Delaware, Napoleon, the King's "
    "assassination, Helen of Troy, the Queen of Hearts, Cold War, the Diplomat's peace treaty, the "
    "clock, the A-Bomb and more. A few of them let you choose (challenge or disarm, which face-down card "
    "to turn). A player who runs out of cards, or cannot finish a battle, loses; an A-Bomb wins at once; "
    "after `max_battles` the larger deck wins. On Discord: `/blitzkrieg new` (against a friend, or **Add bot** "
    "for the house); each battle is told step by step on the table message; your choices and your Cold War "
    "hand are on your own board. `pace:auto` turns the cards for you at a readable pace."
)
"""What ``/rules`` and the table's "How to play" say first (``docs/rules/blitzkrieg.md`` has every rule)."""

GAME = Game(
    engine=ENGINE,
    bots=BOTS,
    summary=SUMMARY,
    ui="cogs._blitzkrieg_ui:BlitzkriegUI",
    pictures="cogs._pictures:blitzkrieg_moments",
    command="Play Blitzkrieg (War with special battles)",
    tagline="War with twenty named special battles, against a friend or the house bot",
    quick_options={"max_battles": 40},  # forty battles, then the larger deck wins
    table_settings=("pace", "bot_speed"),
    opened=("a friend presses **Join** there, or press **Add bot** to play the house (playing it by "
            "yourself is fun as well)."),
    figures=figures,
    narrate=narrate,
    coach="bot.games.blitzkrieg.coach:coach",
    # Its few choices do not change the odds measurably (docs/rules/blitzkrieg.md §10): no order to guard.
    measures=(),
    strengths={
        "easy": BotChoice("random", "Luck decides Blitzkrieg; this bot also makes its Cold War choice by a coin flip"),
        "normal": BotChoice("house", "Luck decides Blitzkrieg; in Cold War it challenges on a hand of 36 or more"),
        "hard": BotChoice("counting", "Luck decides Blitzkrieg; in Cold War it counts the cards it has seen"),
    },
    accent=0xE67E22,  # orange: Blitzkrieg (docs/tables.md, "Message layouts")
)
"""The game's one declaration (``bot.engine.game``), registered through the ``parlor.games`` entry point."""
