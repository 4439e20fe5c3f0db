"""Blitz (31), kind ``blitz``: draw and discard towards 31 in one suit; the lowest hand loses a life.

Not Dutch Blitz. Rules and rulings: ``docs/rules/blitz.md``.

Exports ``ENGINE`` (:class:`~bot.games.blitz.engine.BlitzEngine`), ``BOTS`` (name to bot class,
``heuristic`` first; ``GAME.strengths`` names the easy, normal and hard ones) and ``figures``
(per-game numbers for the simulator).
"""

from __future__ import annotations

from bot.engine.game import BotChoice, Game, Measure
from bot.games.blitz.bots import BOTS, EasyBot, HeuristicBot, SteadyBot
from bot.games.blitz.engine import BlitzEngine, BlitzOptions, hand_value
from bot.games.blitz.figures import figures
from bot.games.blitz.narrate import narrate

ENGINE = BlitzEngine
"""The engine class the registry picks up."""

__all__ = ["GAME", "SUMMARY", "narrate", "BOTS", "ENGINE", "BlitzEngine", "BlitzOptions", "EasyBot", "HeuristicBot",
           "SteadyBot", "figures", "hand_value"]

SUMMARY = (
    "Thirty-one. Each player holds three cards; a hand is worth its best one-suit total (Ace 11, faces "
    "10), three of a kind 30. On your turn draw from the stock or the discard pile and discard one, or "
    "**knock** instead of drawing: everyone else gets one more turn, then the lowest hand loses a life "
    "(a knocker alone lowest loses two). Hitting 31 (**blitz**) ends the round at once and everyone "
    "else loses a life. Four lives each; the last player with a life wins. On Discord: `/blitz new`, "
    "then **Open my hand** for your cards, their value and your moves (Knock, Draw from the stock, Take "
    "the discard, then Discard)."
)
"""What ``/rules`` and the table's "How to play" say first (``docs/rules/blitz.md`` has every rule)."""

GAME = Game(
    engine=ENGINE,
    bots=BOTS,
    summary=SUMMARY,
    ui="cogs._blitz_ui:BlitzUI",
    pictures="cogs._pictures:blitz_moments",
    command="Play Blitz (31): draw, discard, knock, keep your lives",
    tagline="draw and discard toward 31, knock, lose lives",
    quick_options={"lives": 1},  # one life: the first round decides
    table_settings=("bot_speed",),
    figures=figures,
    narrate=narrate,
    coach="bot.games.blitz.coach:coach",
    strengths={
        "easy": BotChoice("easy", "Mostly draws from the stock, sometimes throws away a good card, knocks late"),
        "normal": BotChoice("steady", "Plays the hard bot's move a bit under half the time, the easy bot's otherwise"),
        "hard": BotChoice("heuristic", "Keeps its best suit, takes a discard that helps, knocks as soon as it is safe"),
    },
    measures=(Measure(games=300, bar=0.55, baseline_games=30),),
    accent=0x2E86DE,  # blue: Blitz (31) (docs/tables.md, "Message layouts")
)
"""The game's one declaration (``bot.engine.game``), registered through the ``parlor.games`` entry point."""
