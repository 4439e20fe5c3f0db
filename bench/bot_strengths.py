"""Bot strength table: each strength against the one below it and against random play.

Run: ``PYTHONPATH=. .venv/bin/python bench/bot_strengths.py [--games N]``. Prints, per game and
pairing, the stronger side's wins out of the decided games (seats alternate; a shared win counts
half). The pairings are the games' own (``Game.measures``: hard against normal, normal against easy,
easy against random play). A real-time game (Dutch Blitz) is measured at each bot's own default
speed, at one equal speed (median 800 ms), which isolates strategy, and at four seats, with a
quarter of ``--games`` (at least 20: its games are the slowest to simulate). The figures are quoted in the rules
pages' "Bots" sections; ``tests/engine/test_bot_strengths.py`` guards the order with a modest bar.
"""

from __future__ import annotations

import argparse
import time

from bot.engine import GAMES, SIMULTANEOUS
from bot.engine.bots import Pacing
from bot.engine.game import Measure, strength_pairs
from bot.engine.simulate import head_to_head

EQUAL = Pacing(median_ms=800.0, spread=0.35, minimum_ms=250.0, maximum_ms=4000.0)


def pairings():
    """Every pairing the games declare (``Game.measures``; a game with none, whose strengths cannot be
    told apart, is still shown at its defaults), a real-time game's also at one equal speed; then
    Dutch Blitz at four seats."""
    out = []
    for game in GAMES.values():
        for name, strong, weak, measure in strength_pairs(game, game.measures or (Measure(),)):
            options = dict(measure.options) or None
            out.append((f"{name}, own speeds", game.engine, strong, weak, options, 2, None))
            if game.engine.play_mode == SIMULTANEOUS:
                out.append((f"{name}, equal speed", game.engine, strong, weak, options, 2, EQUAL))
                if name.endswith("-over-random"):
                    out.append((f"{name}, 4 seats", game.engine, strong, weak, options, 4, None))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'pairing':<52} {'stronger':>10} {'weaker':>10} {'wins':>11} {'rate':>6} {'stopped':>8} {'s':>6}")
    for label, engine, strong, weak, options, seats, pacing in pairings():
        start = time.perf_counter()
        games = args.games if engine.play_mode != SIMULTANEOUS else max(20, args.games // 4)
        match = head_to_head(engine, strong, weak, games=games, seed=args.seed, options=options,
                             pacing=pacing, seats=seats)
        decided = match.games - match.stopped
        print(f"{label:<52} {match.a:>10} {match.b:>10} {match.a_wins + match.shared / 2:>5g}/{decided:<5} "
              f"{match.a_rate:>6.0%} {match.stopped:>8} {time.perf_counter() - start:>6.1f}")


if __name__ == "__main__":
    main()
