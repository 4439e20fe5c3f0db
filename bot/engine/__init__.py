"""Parlor's shared engine core: cards, the engine protocol, the registry and the bot interface.

``GAMES`` maps each installed game's kind name to its declaration (:class:`~bot.engine.game.Game`),
and ``REGISTRY`` to its engine class. Both are filled on first use from the ``parlor.games``
entry-point group (``importlib.metadata``): Parlor's own games are declared in its
``pyproject.toml``, and a game shipped in a distribution of its own declares itself the same way.
Generic code (tables, conformance tests, the simulator, benchmarks) looks games up here and never
names one.

>>> import bot.engine
>>> all(cls.kind == kind for kind, cls in bot.engine.REGISTRY.items())
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from importlib.metadata import entry_points
from typing import Any

from bot.engine.core import SIMULTANEOUS, TURNS, Action, Engine, Event, IllegalAction, Result, TimedRule, canonical
from bot.engine.game import Game

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
    "GAMES",
    "GAMES_GROUP",
    "Game",
    "get_game",
    "get_engine",
]


GAMES_GROUP = "parlor.games"
"""The entry-point group games declare themselves in: ``kind = "package.module:GAME"``."""


def _discover() -> dict[str, Game]:
    """Every game declared in the :data:`GAMES_GROUP` entry points, by kind.

    Raises
    ------
    RuntimeError
        An entry point does not name a :class:`~bot.engine.game.Game`, its name is not the game's
        kind, or two declare the same kind.
    """
    found: dict[str, Game] = {}
    for point in sorted(entry_points(group=GAMES_GROUP), key=lambda p: p.name):
        game = point.load()
        if not isinstance(game, Game):
            raise RuntimeError(f"entry point {point.name} = {point.value!r} of {GAMES_GROUP} is not a Game")
        if game.kind != point.name:
            raise RuntimeError(f"entry point {point.name!r} of {GAMES_GROUP} declares kind {game.kind!r}")
        if game.kind in found:
            raise RuntimeError(f"two entry points of {GAMES_GROUP} declare kind {game.kind!r}")
        found[game.kind] = game
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


GAMES: MutableMapping[str, Game] = _Lazy(_discover)
"""Kind name (``dutch-blitz``, ``blitzkrieg``, ``dutch``, ``blitz``) to the game's declaration (filled on first use)."""

REGISTRY: MutableMapping[str, type[Engine]] = _Lazy(lambda: {kind: g.engine for kind, g in GAMES.items()})
"""Kind name to engine class (filled on first use, from :data:`GAMES`)."""


def get_game(kind: str) -> Game:
    """The declaration of game *kind*.

    Raises
    ------
    KeyError
        No game of that kind is installed; the message lists the known kinds.
    """
    try:
        return GAMES[kind]
    except KeyError:
        raise KeyError(f"unknown game {kind!r}; known games: {sorted(GAMES)}") from None


def get_engine(kind: str) -> type[Engine]:
    """The engine class of game *kind*.

    Raises
    ------
    KeyError
        No game of that kind is installed.
    """
    return get_game(kind).engine
