"""Random states of every registered engine, and tables around them, for the table-kit tests.

Engines are driven as the conformance suite drives them (``tests/engine/conformance.py``): a
seeded :class:`random.Random` picks a mover and one of their legal actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from bot.engine import REGISTRY, Engine
from bot.tables.table import Seat, Table


def new_engine(kind: str, players: int, seed: int) -> Engine:
    """A new game of *kind* with *players* seats ``u0``… and the conformance suite's options."""
    cls = REGISTRY[kind]
    return cls.new([f"u{i}" for i in range(players)], seed=seed, options=dict(cls.conformance_options) or None)


def table_for(engine: Engine, seed: int, table_id: int = 1) -> Table:
    """A :class:`Table` running *engine* (seats named ``Player <i>``), with its own *seed*."""
    table = Table(id=table_id, kind=engine.kind, title=engine.title or engine.kind, guild_id=1, channel_id=1,
                  thread_id=1, host_id=1, options={}, seed=seed, min_players=engine.min_players,
                  max_players=engine.max_players, status="running",
                  seats=[Seat(p, i + 1, None, f"Player {i}") for i, p in enumerate(engine.players)])
    table.engine = engine
    return table


def random_states(engine: Engine, seed: int, *, every: int = 1, limit: int = 300) -> Iterator[Engine]:
    """Play *engine* with random legal actions, yielding it every *every* moves (from the start).

    Stops when the game ends or after *limit* moves.
    """
    rng = Random(seed * 7919 + 13)
    for step in range(limit):
        if engine.is_over:
            return
        if step % every == 0:
            yield engine
        player = rng.choice(engine.to_act())
        engine.apply(player, rng.choice(engine.legal_actions(player)))


def player_counts(kind: str) -> list[int]:
    """The smallest and the largest table of *kind*."""
    cls = REGISTRY[kind]
    return sorted({cls.min_players, cls.max_players})


KINDS = sorted(REGISTRY)
"""Every registered engine kind."""
