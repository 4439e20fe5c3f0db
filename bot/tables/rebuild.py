"""A table's game and bots rebuilt from what the database holds: the deal, snapshots, the action log.

The action log is the truth (``docs/design.md`` §2): a restart, a move that could not be stored and a
bot that takes over a seat all read the game back from it, from the latest snapshot this code can
read (``docs/tables.md``, "Restarts") or from the deal. No Discord here.
"""

from __future__ import annotations

import logging
import random

from bot.engine import Action, Engine, Event
from bot.engine.bots import Bot
from bot.tables import snapshots
from bot.tables.registry import TableRegistry
from bot.tables.table import Table

__all__ = ["Rebuilder"]

log = logging.getLogger("parlor.tables")


class Rebuilder:
    """Engines and bots of tables, rebuilt from storage (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process (each game's engine class and bots), and its storage.
    """

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry
        self.storage = registry.storage

    def make_bot(self, table: Table, player: str, name: str, seen: list[Event], salt: str = "") -> Bot:
        """A bot of kind *name* for seat *player* that has observed *seen* (what the seat was shown)."""
        bot: Bot = self.registry.bots(table.kind)[name](player, random.Random(f"{table.seed}:{player}{salt}"))
        if seen:
            bot.observe(seen)
        return bot

    async def new_bot(self, table: Table, player: str, name: str, salt: str = "") -> Bot:
        """|coro| A bot of kind *name* for seat *player* that has observed everything the seat was shown.

        Rebuilt from the stored log's private and public events (:meth:`Engine.seen_by`) up to the
        last action the table's bots have observed (:attr:`Table.delivered`), so a bot that takes over
        a seat knows exactly what that seat knew (``docs/tables.md``, "Bots"); the moves after that
        reach it as they reach every bot. The caller adds it to ``table.bots`` without awaiting
        anything in between.
        """
        engine_cls = self.registry.engine_cls(table.kind)
        actions = await self.storage.action_log(table.id)
        while len(actions) < table.delivered:  # a move was stored and observed meanwhile
            actions = await self.storage.action_log(table.id)
        log_ = {"kind": engine_cls.kind, "seed": table.seed, "options": table.options,
                "players": [s.player_id for s in table.seats],
                "actions": [[player, action] for player, action in actions[:table.delivered]]}
        return self.make_bot(table, player, name, engine_cls.seen_by(log_, player), salt)

    def rebuild(self, table: Table, actions: list[tuple[str, Action]],
                checkpoint: bytes | None = None) -> tuple[Engine, dict[str, Bot]]:
        """The engine and bots of *table* after *actions*, applied from *checkpoint* (a snapshot,
        :func:`bot.tables.snapshots.take`, with the bots it holds) or else from the deal (with a bot
        for every bot seat). Bots observe what their seats see on the way. A bot seat the checkpoint
        does not hold (a bot took it over later) has no bot: rebuild from the deal for that.

        Raises
        ------
        IllegalAction, ValueError
            An action is refused, or the checkpoint cannot be read.
        """
        engine_cls = self.registry.engine_cls(table.kind)
        if checkpoint is not None:
            engine, bots = snapshots.load(checkpoint)
        else:
            engine = engine_cls.new([s.player_id for s in table.seats], seed=table.seed, options=table.options,
                                    keep_log=False)
            known = self.registry.bots(table.kind)
            bots = {s.player_id: self.make_bot(table, s.player_id, str(s.bot_name),
                                               [e for e in engine.setup_events if e.visible_to(s.player_id)])
                    for s in table.seats if s.bot_name in known}
        for player, action in actions:
            events = engine.apply(player, action)
            for who, bot in bots.items():
                visible = [e for e in events if e.visible_to(who)]
                if visible:
                    bot.observe(visible)
        return engine, bots

    async def stored_engine(self, table: Table) -> Engine:
        """|coro| *table*'s engine as the database has it: its latest snapshot this code can read and
        the actions stored after it, else the whole log from the deal (``docs/tables.md``, "Restarts").

        Raises
        ------
        Exception
            The database cannot be read (whatever its driver raises), or the stored game does not
            replay (:class:`~bot.engine.IllegalAction`, :class:`ValueError`).
        """
        snap = await self.storage.snapshot(table.id)
        if snap is not None and snap.code == snapshots.code_version(self.registry.engine_cls(table.kind)):
            return self.rebuild(table, await self.storage.action_log(table.id, after=snap.seq), snap.state)[0]
        return self.rebuild(table, await self.storage.action_log(table.id))[0]

    def snapshot(self, table: Table) -> tuple[int, int, str, bytes] | None:
        """Take *table*'s snapshot now as its checkpoint; the row to store (``Storage.save_snapshots``),
        or ``None`` when it cannot be pickled (a snapshot is an optimisation: the log still restores).
        """
        engine = table.engine
        assert engine is not None
        try:
            state = snapshots.take(engine, table.bots)
        except Exception:
            log.exception("could not snapshot table %s", table.id)
            return None
        table.checkpoint_seq = engine.action_count
        return table.id, engine.action_count, snapshots.code_version(type(engine)), state
