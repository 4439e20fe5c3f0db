"""Benchmark of the Dutch Blitz engine with greedy bots (not part of the test suite).

Prints, for 2 and 4 greedy bots, hands per second and actions per second (wall clock, one core),
and hands per second of process CPU time (``time.process_time``: steadier than the wall clock on
a machine shared with other work):

* ``with bots`` — whole games played through ``bot.engine.simulate.play_game`` (engine plus bots
  plus simulator), the figure issue #18 tracks;
* ``engine only`` — the same games replayed from their action logs without bots or simulator:
  before each logged move, every seat's legal actions and the mover's view are asked (what the
  simulator asks of the engine), then the move is applied.

and the memory of one live game measured with ``tracemalloc``: what one engine holds right after
the deal and in the middle of a hand, and the peak while a whole bot game is played.

Each speed row is the median of ``--repeat`` runs. ``--code DIR`` benchmarks the ``bot`` package of
another checkout (e.g. a worktree of an older commit) with this same script, so that figures from
before and after a change are measured the same way.

Run: ``python bench/engine_dutch_blitz.py [--games N] [--seed S] [--repeat R] [--code DIR]``.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any


def speed(players: int, games: int, seed: int) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Play *games* bot games; return hands/s, actions/s and totals, and the games' logs."""
    from bot.engine.simulate import play_game
    from bot.games.dutch_blitz import BOTS, ENGINE, figures

    ids = [f"p{i}" for i in range(players)]
    bots = [BOTS["greedy"]] * players
    hands = actions = 0
    engines = []
    start, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        rec = play_game(ENGINE, ids, seed=seed + g, bot_classes=bots, figures=figures)
        hands += int(rec.figures["hands"])
        actions += rec.actions
        engines.append(rec.engine)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return _rates(games, hands, actions, elapsed, cpu), [e.log() for e in engines]  # the logs outside the timing


def engine_only(logs: list[dict[str, Any]]) -> dict[str, float]:
    """Replay *logs*: before each move every seat's legal actions and the mover's view, then the move."""
    from bot.games.dutch_blitz import ENGINE

    hands = actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for log in logs:
        game = ENGINE.new(log["players"], seed=log["seed"], options=log["options"])
        players = game.players
        for player, action in log["actions"]:
            for p in players:
                game.legal_actions(p)
            game.view(player)
            game.apply(player, action)
        hands += len(game.hand_scores)
        actions += len(log["actions"])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return _rates(len(logs), hands, actions, elapsed, cpu)


def _rates(games: int, hands: int, actions: int, elapsed: float, cpu: float) -> dict[str, float]:
    return {"games": games, "hands": hands, "actions": actions, "seconds": elapsed,
            "hands_per_s": hands / elapsed, "actions_per_s": actions / elapsed,
            "cpu_seconds": cpu, "hands_per_cpu_s": hands / cpu}


def live_memory(players: int, seed: int) -> dict[str, int]:
    """Bytes held by one live engine after the deal and mid-hand, and the peak over a bot game."""
    from bot.engine.simulate import play_game
    from bot.games.dutch_blitz import BOTS, ENGINE, figures

    ids = [f"p{i}" for i in range(players)]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.take_snapshot()
    engine = ENGINE.new(ids, seed=seed)
    dealt = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(base, "filename"))
    chooser = random.Random(seed)
    bots = {p: BOTS["greedy"](p, random.Random(i)) for i, p in enumerate(ids)}
    for _ in range(100):  # about half a hand of greedy play
        p = chooser.choice(ids)
        legal = engine.legal_actions(p)
        action = bots[p].choose(engine.view(p), legal) if legal else None
        if action is not None and engine.phase == "play":
            engine.apply(p, action)
    mid = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(base, "filename"))
    tracemalloc.stop()
    del engine
    gc.collect()
    tracemalloc.start()
    play_game(ENGINE, ids, seed=seed, bot_classes=[BOTS["greedy"]] * players, figures=figures)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"after_deal": dealt, "mid_hand": mid, "peak_whole_game": peak}


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run with the median time (its hands and actions are the same in every run)."""
    ordered = sorted(runs, key=lambda r: r["seconds"])
    middle = ordered[len(ordered) // 2]
    return {**middle, "seconds": statistics.median(r["seconds"] for r in runs),
            "hands_per_s": statistics.median(r["hands_per_s"] for r in runs),
            "actions_per_s": statistics.median(r["actions_per_s"] for r in runs),
            "cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs),
            "hands_per_cpu_s": statistics.median(r["hands_per_cpu_s"] for r in runs)}


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per speed row (the median is printed)")
    parser.add_argument("--code", type=Path, default=None,
                        help="the checkout whose bot package to benchmark (default: this script's own)")
    args = parser.parse_args()
    root = (args.code or Path(__file__).resolve().parents[1]).resolve()
    sys.path.insert(0, str(root))  # run from anywhere: that checkout first
    import bot

    print(f"Dutch Blitz engine benchmark: greedy bots, {args.games} games per row, seed {args.seed}, "
          f"median of {args.repeat} runs; code: {Path(bot.__file__).resolve().parents[1]}")
    print(f"{'players':>7} {'mode':>11} {'games':>5} {'hands':>6} {'actions':>8} {'seconds':>8} {'hands/s':>8} "
          f"{'actions/s':>10} {'cpu s':>6} {'hands/cpu s':>11}")
    for players in (2, 4):
        with_bots: list[dict[str, float]] = []
        alone: list[dict[str, float]] = []
        for _ in range(max(1, args.repeat)):
            r, logs = speed(players, args.games, args.seed)
            with_bots.append(r)
            alone.append(engine_only(logs))
        for mode, runs in (("with bots", with_bots), ("engine only", alone)):
            m = _median(runs)
            print(f"{players:>7} {mode:>11} {m['games']:>5} {m['hands']:>6} {m['actions']:>8} {m['seconds']:>8.2f} "
                  f"{m['hands_per_s']:>8.1f} {m['actions_per_s']:>10.0f} {m['cpu_seconds']:>6.2f} "
                  f"{m['hands_per_cpu_s']:>11.1f}")
    print()
    print("memory per live game (tracemalloc, KiB)")
    print(f"{'players':>7} {'after deal':>11} {'mid-hand':>9} {'peak, whole bot game':>21}")
    for players in (2, 4):
        mem = live_memory(players, args.seed)
        print(f"{players:>7} {mem['after_deal'] / 1024:>11.1f} {mem['mid_hand'] / 1024:>9.1f} "
              f"{mem['peak_whole_game'] / 1024:>21.1f}")


if __name__ == "__main__":
    main()
