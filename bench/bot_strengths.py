"""Bot strength table: each strength against the one below it and against random play.

Run: ``PYTHONPATH=. .venv/bin/python bench/bot_strengths.py [--games N]``. Prints, per game and
pairing, the stronger side's wins out of the decided games (seats alternate; a shared win counts
half). Dutch Blitz is real time, so it is measured twice: at each bot's own default speed and at
one equal speed (median 800 ms), which isolates strategy, and with a quarter of ``--games``
(at least 20: its games are the slowest to simulate). The figures are quoted in the rules
pages' "Bots" sections; ``tests/engine/test_bot_strengths.py`` guards the order with a modest bar.
"""

from __future__ import annotations

import argparse
import time

from bot.engine.bots import Pacing, RandomBot
from bot.engine.simulate import head_to_head
from bot.games import blitz, blitzkrieg, dutch, dutch_blitz
from bot.games.dutch_blitz.bots import RandomBot as DutchBlitzRandom

EQUAL = Pacing(median_ms=800.0, spread=0.35, minimum_ms=250.0, maximum_ms=4000.0)

PAIRINGS = [
    # (label, engine, stronger, weaker, options, seats, pacing)
    ("dutch-blitz 2p, own speeds", dutch_blitz.ENGINE, dutch_blitz.BOTS["greedy"], dutch_blitz.BOTS["easy"],
     None, 2, None),
    ("dutch-blitz 2p, own speeds", dutch_blitz.ENGINE, dutch_blitz.BOTS["easy"], DutchBlitzRandom, None, 2, None),
    ("dutch-blitz 2p, equal speed", dutch_blitz.ENGINE, dutch_blitz.BOTS["greedy"], dutch_blitz.BOTS["easy"],
     None, 2, EQUAL),
    ("dutch-blitz 2p, equal speed", dutch_blitz.ENGINE, dutch_blitz.BOTS["easy"], DutchBlitzRandom, None, 2, EQUAL),
    ("dutch-blitz 4p, own speeds", dutch_blitz.ENGINE, dutch_blitz.BOTS["easy"], DutchBlitzRandom, None, 4, None),
    ("dutch passive", dutch.ENGINE, dutch.BOTS["perfect"], dutch.BOTS["forgetful"], {"variant": "passive"}, 2, None),
    ("dutch passive", dutch.ENGINE, dutch.BOTS["forgetful"], RandomBot, {"variant": "passive"}, 2, None),
    ("dutch aggressive", dutch.ENGINE, dutch.BOTS["perfect"], dutch.BOTS["forgetful"], {"variant": "aggressive"},
     2, None),
    ("dutch aggressive", dutch.ENGINE, dutch.BOTS["forgetful"], RandomBot, {"variant": "aggressive"}, 2, None),
    ("blitz (31)", blitz.ENGINE, blitz.BOTS["heuristic"], blitz.BOTS["easy"], None, 2, None),
    ("blitz (31)", blitz.ENGINE, blitz.BOTS["easy"], RandomBot, None, 2, None),
    ("blitzkrieg", blitzkrieg.ENGINE, blitzkrieg.BOTS["house"], blitzkrieg.BOTS["random"], None, 2, None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<30} {'stronger':>10} {'weaker':>10} {'wins':>11} {'rate':>6} {'stopped':>8} {'s':>6}")
    for label, engine, strong, weak, options, seats, pacing in PAIRINGS:
        start = time.perf_counter()
        games = args.games if engine is not dutch_blitz.ENGINE else max(20, args.games // 4)
        match = head_to_head(engine, strong, weak, games=games, seed=args.seed, options=options,
                             pacing=pacing, seats=seats)
        decided = match.games - match.stopped
        print(f"{label:<30} {match.a:>10} {match.b:>10} {match.a_wins + match.shared / 2:>5g}/{decided:<5} "
              f"{match.a_rate:>6.0%} {match.stopped:>8} {time.perf_counter() - start:>6.1f}")


if __name__ == "__main__":
    main()
