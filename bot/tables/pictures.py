"""Pictures at a table's moments: read after a move is committed, drawn off the click path, sent once.

After each committed move :class:`TablePictures` asks the game's declared moments function
(``Game.pictures``, e.g. ``cogs._pictures:dutch_moments``) which moments its public events make
(a Dutch reveal, a Blitz (31) showdown, ...), and when the game is over adds its final standings.
Reading a moment is cheap data work under the table lock; drawing it (``bot.art.pictures.render``,
cached by the moment's data) runs in a worker thread in a background task, and the picture goes to
the table's thread through :meth:`Messenger.show_picture <bot.tables.messenger.Messenger.show_picture>`,
once, after the move's answer (``docs/art.md`` §7). The core names no game: a game without a
declaration only gets its standings.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable, Sequence

from bot.art.pictures import Moment, StandingRow, Standings, render, warm
from bot.engine import GAMES, Event
from bot.tables.messenger import Messenger
from bot.tables.registry import TableRegistry
from bot.tables.table import Table

__all__ = ["TablePictures", "final_standings"]

log = logging.getLogger("parlor.tables")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def final_standings(table: Table) -> Standings | None:
    """The standings of *table*'s finished game (``engine.result()``: ranks and scores, best first) as a
    moment, or ``None`` while the game runs.
    """
    engine = table.engine
    if engine is None or not engine.is_over:
        return None
    result = engine.result()
    if result is None:
        return None
    rows = tuple(StandingRow(rank, table.display_name(p), _number(result.scores.get(p, 0)))
                 for p, rank in sorted(result.ranks.items(), key=lambda kv: (kv[1], table.display_name(kv[0]))))
    return Standings(f"{engine.title or table.kind}: final standings", rows)


class TablePictures:
    """Turns a table's committed moves into pictures in its thread (see the module's docstring).

    Parameters
    ----------
    registry:
        The tables (its :meth:`~bot.tables.registry.TableRegistry.background` runs the drawing).
    messenger:
        Where pictures go (:meth:`~bot.tables.messenger.Messenger.show_picture`).
    """

    def __init__(self, registry: TableRegistry, messenger: Messenger) -> None:
        self.registry = registry
        self.messenger = messenger
        self._moments: dict[str, Callable[..., list[Moment]] | None] = {}
        self._warmed: set[str] = set()
        for kind in GAMES:  # imported now, at start-up, never on a move's path
            self.moments_of(kind)

    def moments_of(self, kind: str) -> Callable[..., list[Moment]] | None:
        """The declared moments function of game *kind* (imported once), or ``None`` for none (or one
        that cannot be imported: logged).
        """
        if kind not in self._moments:
            game = GAMES.get(kind)
            where = game.pictures if game is not None else ""
            found = None
            if where:
                module, _, name = where.partition(":")
                try:
                    found = getattr(importlib.import_module(module), name)
                except (ImportError, AttributeError):  # a game's pictures must never stop its tables
                    log.exception("game %s: its pictures (%s) could not be imported; it gets none", kind, where)
            self._moments[kind] = found
        return self._moments[kind]

    def prepare(self, kind: str) -> None:
        """Draw the cards of game *kind*'s pictures ahead of its first moment (``bot.art.pictures.warm``,
        the moment types its moments function declares with ``@draws``), in a worker thread in the
        background, once per process: called when a table of *kind* starts, so that its first
        picture meets 50 ms (``docs/art.md`` §7). Never raises, never waits.
        """
        if kind in self._warmed:
            return
        self._warmed.add(kind)
        drawn = tuple(getattr(self.moments_of(kind), "draws", ()))
        if drawn:
            self.registry.background(self._warm(kind, drawn))

    async def _warm(self, kind: str, drawn: tuple[type, ...]) -> None:
        try:
            count = await asyncio.to_thread(warm, drawn)
        except Exception:
            log.exception("game %s: could not draw its pictures' cards ahead", kind)
            return
        log.debug("game %s: %d cards drawn ahead for its pictures", kind, count)

    def observe(self, table: Table, events: Sequence[Event]) -> None:
        """Read the moments of one committed move's *events* at *table* (its lock held) and send
        their pictures in the background, in order. Never raises: a moment that cannot be read is
        logged and skipped (a picture must never take a move down).
        """
        engine = table.engine
        if engine is None:
            return
        moments: list[Moment] = []
        try:
            public = [e for e in events if e.audience is None]
            found = self.moments_of(table.kind)
            if found is not None and public:
                moments += found(public, lambda: engine.view(None), table.display_name)
            standings = final_standings(table)
            if standings is not None:
                moments.append(standings)
        except Exception:
            log.exception("table %s: could not read the moment's picture", table.id)
            return
        if moments:
            self.registry.background(self.show(table, moments))

    async def show(self, table: Table, moments: Sequence[Moment]) -> None:
        """|coro| Draw each of *moments* in a worker thread (cached by the moment) and send it to
        *table*'s thread, in order. Never raises.
        """
        for moment in moments:
            try:
                picture = await asyncio.to_thread(render, moment)
            except Exception:
                log.exception("table %s: could not draw %s", table.id, type(moment).__name__)
                continue
            await self.messenger.show_picture(table, picture)
