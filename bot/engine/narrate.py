"""Games told in words: one line per event, for replays, ``parlor simulate --verbose`` and logs of tables.

Each game package may export ``narrate(event, name) -> str | None`` (``name`` turns a player id
into a display name); :func:`narrate` falls back to the event's type and data for a game without
one, or for an event its narrator does not word (``None``). A narration shows exactly what the
event shows: pass only the events an audience may see (:func:`visible_events`), so a public
replay names no hidden card (``docs/design.md`` §6). :func:`play_by_play` names the players in
every line it tells, also where a line carries a player id itself (Blitzkrieg's battles write
their own lines; a line told from an event's data may list ids): a reader sees names, never ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bot.engine.core import Engine, Event

__all__ = ["narrate", "visible_events", "play_by_play", "naming_ids"]

Namer = Callable[[str], str]


def narrate(kind: str, event: Event, name: Namer = str) -> str:
    """One line in words for *event* of game *kind*: ``""`` for an event its game leaves untold, and a
    plain line (type and data) for one its game does not word (or a game without a narrator).
    """
    from bot.engine import GAMES

    game = GAMES.get(kind)  # None: a game outside the registry (a test-only game)
    words = game.narrate if game is not None else None
    line = words(event, name) if words is not None else None  # "" means: nothing worth a line
    if line is not None:
        return str(line)
    details = ", ".join(f"{k}: {name(v) if k == 'player' and isinstance(v, str) else v}"
                        for k, v in event.data.items())
    return f"{event.type}" + (f" — {details}" if details else "")


def visible_events(events: Sequence[Event], viewer: str | None) -> list[Event]:
    """The events *viewer* may see: public ones for ``None`` (a spectator), else also their private ones."""
    if viewer is None:
        return [e for e in events if e.audience is None]
    return [e for e in events if e.visible_to(viewer)]


def naming_ids(players: Sequence[str], name: Namer) -> Callable[[str], str]:
    """A function that puts ``name(p)`` for each player id *p* of *players* that stands as a word of a line.

    The ids are replaced in one pass, longest first, so a name is never read again as an id and a
    player id that starts another one (``bot1``, ``bot12``) names only itself. An id inside a longer
    word is left alone.

    >>> naming_ids(["u1", "u12"], {"u1": "Ann", "u12": "Bo"}.get)("u12 beats u1's 5; u123 stays")
    "Bo beats Ann's 5; u123 stays"
    """
    ids = sorted({p for p in players if p}, key=len, reverse=True)
    if name is str or not ids:
        return lambda line: line
    names = {p: name(p) for p in ids}
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ids)) + r")(?!\w)")
    return lambda line: pattern.sub(lambda found: names[found.group()], line)


def play_by_play(engine_cls: type[Engine], log: dict[str, Any], *, viewer: str | None = None,
                 name: Namer = str) -> Iterator[str]:
    """Replay *log* (``Engine.log()`` shape) and tell it move by move, as *viewer* saw it.

    Yields one line per visible event (the deal first), each move's lines prefixed by its number.
    *viewer* ``None`` tells it as a spectator saw it: no hidden card appears. *name* turns a player id
    into the name the lines show: the game's narrator is given it, and a player id left in a line
    (written by the engine, or told from the event's data) is replaced by its name
    (:func:`naming_ids`).

    Raises
    ------
    bot.engine.IllegalAction
        The log does not replay (a stored move the engine refuses).
    """
    start = dict(log, actions=[])
    engine = engine_cls.replay(start)
    named = naming_ids(engine.players, name)
    for event in visible_events(engine.setup_events, viewer):
        if line := narrate(engine_cls.kind, event, name):
            yield named(line)
    for number, (player, action) in enumerate(log.get("actions", []), start=1):
        for event in visible_events(engine.apply(player, action), viewer):
            if line := narrate(engine_cls.kind, event, name):
                yield f"{number:>4}. {named(line)}"
