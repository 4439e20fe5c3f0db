"""Dutch, the memory card game (kind ``dutch``): engine, bots and figures (``docs/rules/dutch.md``)."""

from bot.engine.game import BotChoice, Game, Measure
from bot.games.dutch.bots import BOTS, AttentiveBot, ForgetfulBot, PerfectBot
from bot.games.dutch.engine import DutchEngine, DutchOptions, card_value
from bot.games.dutch.figures import figures
from bot.games.dutch.narrate import narrate

ENGINE = DutchEngine

__all__ = ["GAME", "SUMMARY", "narrate", "ENGINE", "BOTS", "figures", "DutchEngine", "DutchOptions", "card_value",
           "PerfectBot", "AttentiveBot",
           "ForgetfulBot"]

SUMMARY = (
    "A memory game. Everyone holds face-down cards and looks at two of them once at the start; after "
    "that you must remember. On your turn draw a card, then discard it or swap it blind into your hand. "
    "Discarded powers: **J** look at any card, **Q** swap any two cards unseen, **K** two looks or swaps "
    "(passive rules: any discarded J, Q or K; aggressive rules: only one drawn and discarded at once). "
    "After any discard anyone may **jump in** with a card of the same rank (right: it is gone; wrong: "
    "it is shown and you draw two). Aggressive rules: only the fastest jump-in counts, and you may jump "
    "in with an adversary's card; play ends with the deck. Passive rules: call **Dutch** when you think "
    "you are lowest; everyone else gets one more turn. Lowest hand wins (Ace 1, faces 10, Joker −1); "
    "rounds add up to 100. On Discord: `/dutch new`, then **Open my hand** (a look hides itself again)."
)
"""What ``/rules`` and the table's "How to play" say first (``docs/rules/dutch.md`` has every rule)."""

GAME = Game(
    engine=ENGINE,
    bots=BOTS,
    summary=SUMMARY,
    ui="cogs._dutch_ui:DutchUI",
    pictures="cogs._pictures:dutch_moments",
    command="Play Dutch, the memory card game",
    tagline="a memory game: hidden hands, peeks and swaps, jump-ins, the \"Dutch\" call",
    # One round; no wait before a jump-in; a look lasts a second.
    quick_options={"target": 1, "jump_in_grace_seconds": 0, "peek_seconds": 1},
    table_settings=("race_window_ms", "bot_speed"),
    variants={"aggressive": {"variant": "aggressive"}},
    figures=figures,
    narrate=narrate,
    coach="bot.games.dutch.coach:coach",
    measures=(Measure({"variant": "passive", "target": 50}, "passive", games=200, bar=0.55, baseline_games=30),
              Measure({"variant": "aggressive"}, "aggressive", games=400, bar=0.55, baseline_games=30)),
    strengths={
        "easy": BotChoice("forgetful", "Forgets many cards it has seen, so it may jump in wrongly"),
        "normal": BotChoice("attentive", "Remembers most cards it has seen; its memory slips now and then"),
        "hard": BotChoice("perfect", "Remembers every card it has seen and every swap; jumps in only when sure"),
    },
    accent=0x27AE60,  # green: Dutch (docs/tables.md, "Message layouts")
)
"""The game's one declaration (``bot.engine.game``), registered through the ``parlor.games`` entry point."""
