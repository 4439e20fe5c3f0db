"""Speed and figures of the Dutch engine and its bots (prints figures, asserts nothing).

Run: ``python bench/engine_dutch.py [games] [seed] [players]`` from the repository root. For each
rule set (passive, aggressive) and each bot (perfect, forgetful) it plays *games* bot games in
simulated time (game i uses seed + i) and prints games/s, moves/s, wins per seat and the mean
per-game figures; then it times uniformly random legal play.
"""

from __future__ import annotations

import random
import sys
import time

from bot.engine.simulate import play_game, summarize
from bot.games.dutch import BOTS, ENGINE, figures


def random_game(players: list[str], seed: int, variant: str) -> int:
    """One game of uniformly random legal moves (target 30); returns the number of moves."""
    game = ENGINE.new(players, seed=seed, options={"variant": variant, "target": 30})
    chooser = random.Random(seed)
    moves = 0
    while not game.is_over:
        player = chooser.choice(game.to_act())
        game.apply(player, chooser.choice(game.legal_actions(player)))
        moves += 1
    return moves


def main(games: int = 100, seed: int = 1, seats: int = 4) -> None:
    """Bot games for both rule sets and both bots, then random games, with timings and figures."""
    players = [f"seat{i}" for i in range(seats)]
    for variant in ("passive", "aggressive"):
        for bot in BOTS:
            start = time.perf_counter()
            records = [play_game(ENGINE, players, seed=seed + i, bot_classes=[BOTS[bot]] * seats,
                                 options={"variant": variant}, figures=figures) for i in range(games)]
            elapsed = time.perf_counter() - start
            summary = summarize(records)
            print(f"{variant} / {bot}: {games} games ({seats} players), {summary['actions']} moves in "
                  f"{elapsed:.2f} s: {games / elapsed:.0f} games/s, {summary['actions'] / elapsed:.0f} moves/s, "
                  f"refused {summary['refused']}, wins per seat {summary['wins_per_seat']}")
            print("   " + ", ".join(f"{name} {value['mean']}" for name, value in summary["figures"].items()))
        start = time.perf_counter()
        moves = sum(random_game(players, seed + i, variant) for i in range(games))
        elapsed = time.perf_counter() - start
        print(f"{variant}: {games} random games, {moves} moves in {elapsed:.2f} s: {moves / elapsed:.0f} moves/s")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    main(*args)
