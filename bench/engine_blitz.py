"""Speed of the Blitz (31) engine and its bots (prints figures, asserts nothing).

Run: ``python bench/engine_blitz.py [games] [seed] [players]`` from the repository root. Plays
*games* heuristic-bot games in simulated time (game i uses seed + i), then the same number of
uniformly random games, and prints games/s, moves/s and the per-game figures.
"""

from __future__ import annotations

import random
import sys
import time

from bot.engine.simulate import play_game, summarize
from bot.games.blitz import BOTS, ENGINE, figures


def random_game(players: list[str], seed: int) -> int:
    """One game of uniformly random legal moves; returns the number of moves."""
    game = ENGINE.new(players, seed=seed)
    chooser = random.Random(seed)
    moves = 0
    while not game.is_over:
        (player,) = game.to_act()
        game.apply(player, chooser.choice(game.legal_actions(player)))
        moves += 1
    return moves


def main(games: int = 200, seed: int = 1, seats: int = 4) -> None:
    """Bot games, then random games, with timings and the summed figures."""
    players = [f"seat{i}" for i in range(seats)]
    start = time.perf_counter()
    records = [play_game(ENGINE, players, seed=seed + i, bot_classes=[BOTS["heuristic"]] * seats,
                         figures=figures) for i in range(games)]
    elapsed = time.perf_counter() - start
    summary = summarize(records, figures)
    print(f"{games} heuristic-bot games ({seats} players), {summary['actions']} moves in {elapsed:.2f} s: "
          f"{games / elapsed:.0f} games/s, {summary['actions'] / elapsed:.0f} moves/s, "
          f"refused {summary['refused']}")
    print(f"wins per seat {summary['wins_per_seat']}")
    for name, value in summary["figures"].items():
        total = f"total {value['total']:>9.1f}" if "total" in value else " " * 15  # a value per game: its mean only
        print(f"  {name:22s} {total}   mean {value['mean']}")
    start = time.perf_counter()
    moves = sum(random_game(players, seed + i) for i in range(games))
    elapsed = time.perf_counter() - start
    print(f"{games} random games, {moves} moves in {elapsed:.2f} s: {moves / elapsed:.0f} moves/s")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
