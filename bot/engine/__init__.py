"""Parlor's shared engine core: cards, the engine protocol, the registry and the bot interface.

``REGISTRY`` maps each landed game's kind name to its engine class. It is filled by discovering
the packages under :mod:`bot.games`: every package that exports ``ENGINE`` (an
:class:`~bot.engine.core.Engine` subclass) is registered under ``ENGINE.kind``. Generic code
(tables, conformance tests, the simulator, benchmarks) looks games up here and never names one.

>>> import bot.engine
>>> all(cls.kind == kind for kind, cls in bot.engine.REGISTRY.items())
True
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, MutableMapping
from types import ModuleType
from typing import Any

from bot.engine.core import SIMULTANEOUS, TURNS, Action, Engine, Event, IllegalAction, Result, TimedRule, canonical

__all__ = [
    "Action",
    "Engine",
    "Event",
    "IllegalAction",
    "Result",
    "canonical",
    "TimedRule",
    "TURNS",
    "SIMULTANEOUS",
    "REGISTRY",
    "game_module",
    "get_engine",
]


def _discover() -> dict[str, ModuleType]:
    import bot.games

    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(bot.games.__path__), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bot.games.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if engine is None:
            continue
        if engine.kind in found:
            raise RuntimeError(f"two game packages register kind {engine.kind!r}")
        found[engine.kind] = module
    return found


class _Lazy(MutableMapping[str, Any]):
    """A mapping filled on first use, so that importing a game package first (which imports
    ``bot.engine`` half-way through its own import) still registers that game.
    """

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._data: dict[str, Any] | None = None

    def _d(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._d()[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._d()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._d()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._d())

    def __len__(self) -> int:
        return len(self._d())

    def __repr__(self) -> str:
        return repr(self._d())


_MODULES: MutableMapping[str, ModuleType] = _Lazy(_discover)

REGISTRY: MutableMapping[str, type[Engine]] = _Lazy(lambda: {kind: m.ENGINE for kind, m in _MODULES.items()})
"""Kind name (``dutch-blitz``, ``blitzkrieg``, ``dutch``, ``blitz``) to engine class (filled on first use)."""


def game_module(kind: str) -> ModuleType:
    """The package of game *kind* (it exports ``ENGINE``, ``BOTS`` and optionally ``figures``).

    Raises
    ------
    KeyError
        No game of that kind has landed; the message lists the known kinds.
    """
    try:
        return _MODULES[kind]
    except KeyError:
        raise KeyError(f"unknown game {kind!r}; known games: {sorted(_MODULES)}") from None


def get_engine(kind: str) -> type[Engine]:
    """The engine class of game *kind*.

    Raises
    ------
    KeyError
        No game of that kind has landed.
    """
    engine: type[Engine] = game_module(kind).ENGINE
    return engine
