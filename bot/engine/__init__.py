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
from types import ModuleType

from bot.engine.core import Action, Engine, Event, IllegalAction, Result, canonical

__all__ = [
    "Action",
    "Engine",
    "Event",
    "IllegalAction",
    "Result",
    "canonical",
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


_MODULES: dict[str, ModuleType] = _discover()

REGISTRY: dict[str, type[Engine]] = {kind: module.ENGINE for kind, module in _MODULES.items()}
"""Kind name (``dutch-blitz``, ``blitzkrieg``, ``dutch``, ``blitz``) to engine class."""


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
    return game_module(kind).ENGINE
