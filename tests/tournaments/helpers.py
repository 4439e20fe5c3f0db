"""Shared helpers of the tournament tests: players, random results, whole events."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from random import Random

from bot.tournaments.model import Match, Result, Round


def players(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def random_result(match: Match, rng: Random, *, draws: bool = True, forfeits: bool = False) -> Result:
    """A random result for *match*: two-player win/draw/forfeit, multiplayer places with ties."""
    ps = list(match.players)
    if match.is_bye:
        return Result.bye(ps[0])
    if forfeits and rng.random() < 0.1:
        gone = rng.sample(ps, rng.randint(1, len(ps) - 1))
        return Result.forfeit(gone, ps)
    if len(ps) == 2:
        a, b = ps
        roll = rng.random()
        scores = {a: rng.randint(0, 30), b: rng.randint(0, 30)}
        if draws and roll < 0.15:
            return Result.draw(a, b, scores=scores)
        return Result.win(a, b, scores=scores) if roll < 0.6 else Result.win(b, a, scores=scores)
    return Result.ranked({p: rng.randint(1, len(ps)) for p in ps}, scores={p: rng.randint(0, 30) for p in ps})


def play(rnd: Round, rng: Random, **kwargs: bool) -> Round:
    """*rnd* with every match finished at random."""
    for i, m in enumerate(rnd.matches):
        if rnd.results[i] is None:
            rnd = rnd.with_result(i, random_result(m, rng, **kwargs))
    return rnd


def run(pairer: Callable[[Sequence[str], Sequence[Round], Random], list[Match]], entrants: Sequence[str],
        rounds: int, seed: int, **kwargs: bool) -> list[Round]:
    """*rounds* rounds paired by *pairer* (the pairing's own generator seeded with *seed*), played at random."""
    pair_rng, play_rng = Random(seed), Random(seed + 1)
    history: list[Round] = []
    for _ in range(rounds):
        history.append(play(Round.of(pairer(entrants, history, pair_rng)), play_rng, **kwargs))
    return history


def pairings_of(nodes: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every perfect matching of *nodes* (an even count), for brute-force checks on small counts."""
    if not nodes:
        return [[]]
    first, rest = nodes[0], nodes[1:]
    out = []
    for i, partner in enumerate(rest):
        for more in pairings_of(rest[:i] + rest[i + 1:]):
            out.append([(first, partner), *more])
    return out


def pair_count(tables: Sequence[Sequence[str]], met: dict[frozenset[str], int]) -> int:
    """How many pairs sitting together in *tables* have met before (counting multiplicity)."""
    return sum(met.get(frozenset(pair), 0) for t in tables for pair in itertools.combinations(t, 2))
