"""Speed of the Blitzkrieg engine: house-bot games in simulated time (prints figures, asserts nothing).

Run: ``python bench/engine_blitzkrieg.py [games] [seed]`` from the repository root.
"""

from __future__ import annotations

import sys
import time

from bot.engine.simulate import play_game, summarize
from bot.games.blitzkrieg import ENGINE, HouseBot, figures


def main(games: int = 200, seed: int = 1) -> None:
    """Play *games* house-bot games from *seed* on and print games/s, battles/s and the figures."""
    start = time.perf_counter()
    records = [play_game(ENGINE, ["house-a", "house-b"], seed=seed + i, bot_classes=[HouseBot, HouseBot],
                         figures=figures) for i in range(games)]
    elapsed = time.perf_counter() - start
    summary = summarize(records)
    battles = summary["figures"]["battles"]["total"]
    print(f"{games} games, {battles:.0f} battles in {elapsed:.2f} s: "
          f"{games / elapsed:.0f} games/s, {battles / elapsed:.0f} battles/s")
    print(f"wins per seat {summary['wins_per_seat']}")
    for name, value in summary["figures"].items():
        print(f"  {name:36s} total {value['total']:>7.0f}   mean {value['mean']}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
