"""Table snapshots: a running game's engine and bots as bytes, so a restore replays only the tail.

A table keeps its action log in the database, not in memory (``docs/tables.md``, "Restarts").
Every :data:`SNAPSHOT_EVERY` accepted moves, and once more when the bot shuts down, the table
pickles its engine and its bots together (:func:`take`) and stores the bytes with the number of
the last action they include. A restore unpickles the latest snapshot (:func:`load`) and applies
only the actions after it; the bots, pickled with their memory and their own random generators,
go on exactly as if nothing had stopped.

A snapshot is only read by the code that wrote it: :func:`code_version` fingerprints the source
of the game's package and of the engine core, and a snapshot with another fingerprint (Parlor
was updated in between) is ignored in favour of replaying the whole log. The database is
Parlor's own; whoever can write it can already change any game, so unpickling its bytes gives
nobody a power they did not have.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
from pathlib import Path
from typing import Any

from bot.engine import Engine
from bot.engine.bots import Bot

__all__ = ["SNAPSHOT_EVERY", "code_version", "take", "load"]

SNAPSHOT_EVERY = 64
"""Accepted moves between two snapshots of a running table: a restore after a crash replays at
most this many (a clean shutdown snapshots every table, so its restore replays none)."""

_CORE = Path(__file__).resolve().parents[1] / "engine"


_VERSIONS: dict[type[Engine], str] = {}


def code_version(engine_cls: type[Engine]) -> str:
    """A 16-hex-digit fingerprint of the code a snapshot of *engine_cls* depends on.

    It covers every ``.py`` file of the game's package (engine, bots, their helpers), of the
    engine core (``bot/engine/``) and the Python version (the pickle of a :class:`random.Random`
    belongs to it). Read once per class.
    """
    known = _VERSIONS.get(engine_cls)
    if known is not None:
        return known
    package = Path(sys.modules[engine_cls.__module__].__file__ or "").resolve().parent
    digest = hashlib.blake2b(digest_size=8)
    digest.update(f"{engine_cls.kind}:{sys.version_info[0]}.{sys.version_info[1]}".encode())
    for folder in sorted({package, _CORE}):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    version = _VERSIONS[engine_cls] = digest.hexdigest()
    return version


def take(engine: Engine, bots: dict[str, Bot]) -> bytes:
    """The snapshot of a running game: *engine* (made with ``keep_log=False``) and the table's bots
    (player id to :class:`~bot.engine.bots.Bot`), pickled together.

    Raises
    ------
    pickle.PicklingError, TypeError
        The engine or a bot holds something that cannot be pickled (a bug in that game: the
        engine conformance suite checks every game).
    """
    return pickle.dumps((engine, bots), protocol=pickle.HIGHEST_PROTOCOL)


def load(state: bytes) -> tuple[Engine, dict[str, Bot]]:
    """The engine and bots of a snapshot made by :func:`take` (by the same :func:`code_version`).

    Raises
    ------
    ValueError
        The bytes are not such a snapshot.
    """
    try:
        engine, bots = pickle.loads(state)  # Parlor's own database (module docstring)
    except Exception as exc:  # a damaged or foreign blob: the caller replays the log instead
        raise ValueError(f"not a table snapshot: {exc}") from None
    if not isinstance(engine, Engine) or not isinstance(bots, dict):
        raise ValueError("not a table snapshot: it holds no engine and bots")
    checked: dict[str, Any] = bots
    return engine, checked
