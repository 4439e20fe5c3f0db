"""Benchmark of the Dutch Blitz engine with greedy bots (not part of the test suite).

Prints, for 2 and 4 greedy bots playing whole games through ``bot.engine.simulate.play_game``:
hands per second and actions per second (wall clock, engine plus bots plus simulator), and the
memory of one live game measured with ``tracemalloc``: what one engine holds right after the deal
and in the middle of a hand, and the peak while a whole bot game is played.

Run: ``python bench/engine_dutch_blitz.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere: the repo root first

from bot.engine.simulate import play_game
from bot.games.dutch_blitz import BOTS, ENGINE, figures


def speed(players: int, games: int, seed: int) -> dict[str, float]:
    """Play *games* games and return hands/s, actions/s and totals."""
    ids = [f"p{i}" for i in range(players)]
    bots = [BOTS["greedy"]] * players
    hands = actions = 0
    start = time.perf_counter()
    for g in range(games):
        rec = play_game(ENGINE, ids, seed=seed + g, bot_classes=bots, figures=figures)
        hands += int(rec.figures["hands"])
        actions += rec.actions
    elapsed = time.perf_counter() - start
    return {"games": games, "hands": hands, "actions": actions, "seconds": elapsed,
            "hands_per_s": hands / elapsed, "actions_per_s": actions / elapsed}


def live_memory(players: int, seed: int) -> dict[str, int]:
    """Bytes held by one live engine after the deal and mid-hand, and the peak over a bot game."""
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


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Dutch Blitz engine benchmark: greedy bots, {args.games} games per row, seed {args.seed}")
    print(f"{'players':>7} {'games':>5} {'hands':>6} {'actions':>8} {'seconds':>8} {'hands/s':>8} {'actions/s':>10}")
    for players in (2, 4):
        r = speed(players, args.games, args.seed)
        print(f"{players:>7} {r['games']:>5} {r['hands']:>6} {r['actions']:>8} {r['seconds']:>8.2f} "
              f"{r['hands_per_s']:>8.1f} {r['actions_per_s']:>10.0f}")
    print()
    print("memory per live game (tracemalloc, KiB)")
    print(f"{'players':>7} {'after deal':>11} {'mid-hand':>9} {'peak, whole bot game':>21}")
    for players in (2, 4):
        m = live_memory(players, args.seed)
        print(f"{players:>7} {m['after_deal'] / 1024:>11.1f} {m['mid_hand'] / 1024:>9.1f} "
              f"{m['peak_whole_game'] / 1024:>21.1f}")


if __name__ == "__main__":
    main()
