"""Dutch, the memory card game (kind ``dutch``): engine, bots and figures (``docs/rules/dutch.md``)."""

from bot.games.dutch.bots import BOTS, ForgetfulBot, PerfectBot
from bot.games.dutch.engine import DutchEngine, DutchOptions, card_value
from bot.games.dutch.figures import figures
from bot.games.dutch.narrate import narrate

ENGINE = DutchEngine

__all__ = ["narrate", "ENGINE", "BOTS", "figures", "DutchEngine", "DutchOptions", "card_value", "PerfectBot",
           "ForgetfulBot"]
