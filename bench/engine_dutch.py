"""Speed and figures of the Dutch engine and its bots (prints figures, asserts nothing).

Run: ``python bench/engine_dutch.py [games] [seed] [players] [repeats]`` from the repository root
(defaults 100, 1, 4, 1). For each rule set (passive, aggressive) and each bot (perfect, forgetful)
it plays *games* bot games through the simulator (``bot.engine.simulate.play_game``, simulated
time; game i uses seed + i) and prints games/s, moves/s, wins per seat and the mean per-game
figures; then it times uniformly random legal play (target 30).

Each timing is the median of *repeats* runs of the same games (the slowest and fastest run's rate
in brackets), in one process, so on one core, each run after a full garbage collection (a run's
bot games are kept to its end, as a caller of the simulator keeps its records). Other work
on the machine moves single runs: compare medians of several runs taken back to back. The
figures (moves, wins, means) do not depend on the speed, so two versions that play the same
games print the same figures.

The repository root goes first on the import path, unless ``PYTHONPATH`` is set: then that
decides, so ``PYTHONPATH=/path/to/other/checkout python bench/engine_dutch.py`` measures another
version of the code (an older one, say) with this same script; it uses only the simulator and
the package's ``BOTS``, ``ENGINE`` and ``figures``.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def timed(run: Any, repeats: int, digest: Any) -> tuple[Any, float, list[float]]:
    """Run *run* *repeats* times: ``digest`` of its first result, the median seconds and every run's seconds.

    Each run starts after a full garbage collection with no earlier run's result left.
    """
    result, times = None, []
    for k in range(repeats):
        gc.collect()
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
        if k == 0:
            result = digest(out)
        del out
    return result, statistics.median(times), times


def spread(count: int, times: list[float], digits: int = 1) -> str:
    """The slowest and fastest rate of *count* things over *times*, for the brackets."""
    return f"[{count / max(times):.{digits}f}-{count / min(times):.{digits}f}]" if len(times) > 1 else ""


def main(games: int = 100, seed: int = 1, seats: int = 4, repeats: int = 1) -> None:
    """Bot games for both rule sets and both bots, then random games, with timings and figures."""
    import bot

    print(f"Dutch engine bench: {games} games per line, {seats} players, seeds {seed}-{seed + games - 1}, "
          f"median of {repeats} run(s); Python {sys.version.split()[0]}; code from {Path(bot.__file__).parent.parent}")
    players = [f"seat{i}" for i in range(seats)]
    for variant in ("passive", "aggressive"):
        for name in BOTS:
            def bot_games(name: str = name, variant: str = variant) -> list[Any]:
                return [play_game(ENGINE, players, seed=seed + i, bot_classes=[BOTS[name]] * seats,
                                  options={"variant": variant}, figures=figures) for i in range(games)]

            summary, elapsed, times = timed(bot_games, repeats, summarize)
            moves = summary["actions"]
            print(f"{variant} / {name}: {games} games ({seats} players), {moves} moves in {elapsed:.2f} s: "
                  f"{games / elapsed:.1f} games/s {spread(games, times)}, {moves / elapsed:.0f} moves/s, "
                  f"refused {summary['refused']}, wins per seat {summary['wins_per_seat']}")
            print("   " + ", ".join(f"{key} {value['mean']}" for key, value in summary["figures"].items()))

        def random_games(variant: str = variant) -> int:
            return sum(random_game(players, seed + i, variant) for i in range(games))

        moves, elapsed, times = timed(random_games, repeats, int)
        print(f"{variant}: {games} random games, {moves} moves in {elapsed:.2f} s: {moves / elapsed:.0f} moves/s "
              f"{spread(moves, times, 0)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
