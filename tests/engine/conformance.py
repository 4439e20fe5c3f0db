"""Checks every engine must pass (``docs/design.md`` §2).

Each check takes an engine class and raises ``AssertionError`` with a message when the engine
breaks the protocol. ``test_conformance.py`` runs them over the registry (and the sample game);
``test_conformance_fails.py`` runs them on deliberately broken engines to prove they can fail.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from bot.engine.core import Action, Engine, IllegalAction, canonical

GARBAGE_ACTIONS: list[Any] = [
    {"type": "no-such-move"},
    {"type": 7},
    {},
    {"type": "play", "card": "ZZ9"},
]


def player_ids(n: int) -> list[str]:
    """Player ids for *n* seats."""
    return [f"p{i}" for i in range(n)]


def player_counts(engine_cls: type[Engine]) -> list[int]:
    """Player counts worth testing: min, max and one in between (at most three)."""
    lo, hi = engine_cls.min_players, engine_cls.max_players
    return sorted({lo, (lo + hi) // 2, hi})


def random_playthrough(engine_cls: type[Engine], players: list[str], seed: int, *,
                       check_each_step: Any = None) -> Engine:
    """Play *engine_cls* with uniformly random legal actions picked by a local RNG.

    Asserts the game ends within ``engine_cls.max_actions``; calls ``check_each_step(engine,
    pool)`` before every move, where *pool* holds every action seen legal so far.
    """
    engine = engine_cls.new(players, seed=seed, options=dict(engine_cls.conformance_options) or None)
    chooser = random.Random(seed * 31 + 7)
    pool: list[tuple[str, Action]] = []
    seen: set[str] = set()
    steps = 0
    while not engine.is_over:
        assert steps <= engine_cls.max_actions, (
            f"{engine_cls.kind} seed {seed}: random play did not end within max_actions={engine_cls.max_actions}"
        )
        movers = engine.to_act()
        assert movers, f"{engine_cls.kind} seed {seed}: game not over but nobody has a legal action"
        for p in movers:
            for a in engine.legal_actions(p):
                key = json.dumps(a, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    pool.append((p, a))
        if check_each_step is not None:
            check_each_step(engine, pool)
        player = chooser.choice(movers)
        action = chooser.choice(engine.legal_actions(player))
        engine.apply(player, action)
        steps += 1
    assert engine.result() is not None, f"{engine_cls.kind}: result() is None after the game ended"
    return engine


def check_terminates(engine_cls: type[Engine], seeds: range) -> None:
    """Random legal play ends within the bound, and every finished game has a result."""
    for n in player_counts(engine_cls):
        for seed in seeds:
            engine = random_playthrough(engine_cls, player_ids(n), seed)
            result = engine.result()
            assert set(result.ranks) == set(engine.players), "result must rank every player"
            assert engine.to_act() == [], "no one may act after the end"
            json.dumps(result.to_json())


def check_legal_and_illegal(engine_cls: type[Engine], seeds: range) -> None:
    """Legal actions are accepted; others are refused with IllegalAction and change nothing."""

    def step(engine: Engine, pool: list[tuple[str, Action]]) -> None:
        # Every step of a short game; in long games (thousands of moves) every 7th after the 150th.
        if engine.action_count > 150 and engine.action_count % 7:
            return
        rng = random.Random(engine.action_count)
        for p in engine.players:
            legal = engine.legal_actions(p)
            for action in rng.sample(legal, min(2, len(legal))):
                clone = copy.deepcopy(engine)
                try:
                    clone.apply(p, action)
                except IllegalAction as exc:  # pragma: no cover - failure path
                    raise AssertionError(f"{engine_cls.kind}: listed action {action} for {p} refused: {exc}") from exc
            candidates = [a for _, a in rng.sample(pool, min(6, len(pool)))] + GARBAGE_ACTIONS
            before = engine.snapshot()
            for action in candidates:
                if canonical(action) in legal:
                    continue
                try:
                    engine.apply(p, action)
                except IllegalAction as exc:
                    assert str(exc), "an IllegalAction must carry a reason"
                else:
                    raise AssertionError(f"{engine_cls.kind}: {p} could apply unlisted action {action}")
                assert engine.snapshot() == before, (
                    f"{engine_cls.kind}: refused action {action} by {p} changed the state"
                )

    for n in player_counts(engine_cls):
        for seed in seeds:
            engine = random_playthrough(engine_cls, player_ids(n), seed, check_each_step=step)
            for p in engine.players:
                try:
                    engine.apply(p, {"type": "anything"})
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{engine_cls.kind}: an action was accepted after the end")


def _all_views(engine: Engine) -> dict[str | None, Any]:
    return {p: engine.view(p) for p in [*engine.players, None]}


def check_replay(engine_cls: type[Engine], seeds: range) -> None:
    """``replay(log())`` reproduces every view, mid-game and at the end; the log is JSON."""

    def step(engine: Engine, pool: list[tuple[str, Action]]) -> None:
        if engine.action_count % 17 == 5:
            log = json.loads(json.dumps(engine.log()))
            again = engine_cls.replay(log)
            assert _all_views(again) == _all_views(engine), f"{engine_cls.kind}: replay differs mid-game"

    for n in player_counts(engine_cls):
        for seed in seeds:
            engine = random_playthrough(engine_cls, player_ids(n), seed, check_each_step=step)
            again = engine_cls.replay(json.loads(json.dumps(engine.log())))
            assert _all_views(again) == _all_views(engine), f"{engine_cls.kind}: replay differs at the end"
            assert again.result() == engine.result()


def check_global_random_ignored(engine_cls: type[Engine], seeds: range) -> None:
    """Results and logs do not change when the global ``random`` is disturbed."""
    for n in player_counts(engine_cls):
        for seed in seeds:
            state = random.getstate()
            try:
                random.seed(1)
                first = random_playthrough(engine_cls, player_ids(n), seed)
                random.seed(987654321)
                random.random()
                second = random_playthrough(engine_cls, player_ids(n), seed)
            finally:
                random.setstate(state)
            assert first.log() == second.log(), f"{engine_cls.kind}: the global random changed the game"
            assert first.result() == second.result()


def check_views_hide_cards(engine_cls: type[Engine], seeds: range) -> None:
    """No view contains the id of a card its viewer may not see; views are JSON-ready."""

    def step(engine: Engine, pool: list[tuple[str, Action]]) -> None:
        for p in [*engine.players, None]:
            view = engine.view(p)
            text = json.dumps(view)
            assert canonical(view) == view, f"{engine_cls.kind}: view({p!r}) does not round-trip through JSON"
            for card_id in engine.hidden_cards(p):
                assert json.dumps(card_id) not in text, (
                    f"{engine_cls.kind}: view({p!r}) shows hidden card {card_id!r}"
                )

    for n in player_counts(engine_cls):
        for seed in seeds:
            random_playthrough(engine_cls, player_ids(n), seed, check_each_step=step)


ALL_CHECKS = [
    check_terminates,
    check_legal_and_illegal,
    check_replay,
    check_global_random_ignored,
    check_views_hide_cards,
]
