"""Moves a timed rule holds back: a person who clicks early is never refused, the move waits its turn.

A game's timed rule (Dutch's jump-in grace before the next draw, Dutch Blitz's wait before the host
may end a stuck hand) makes an action wait some seconds (``docs/tables.md``, "The table kit"). A
person who clicks what the board offers before that time is not told "not yet": the move is held
and made through :meth:`Moves.submit <bot.tables.moves.Moves.submit>` the moment the rule allows
it, the person's answer saying so. A newer click of the same person replaces their held move; one
that the table refuses when its time comes leaves a note on that person's board saying why. Bots
and timers are not held (they ask again by themselves). No Discord here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.engine import Action
from bot.tables.core import Actor, wall_ms
from bot.tables.race import Outcome
from bot.tables.registry import TableRegistry
from bot.tables.table import PrivateNote, Table
from bot.tables.timers import Wait

__all__ = ["HeldMoves"]

log = logging.getLogger("parlor.tables")

Submit = Callable[..., Awaitable[Outcome]]


class HeldMoves:
    """The moves people made early, each waiting for its timed rule (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables of this process (a held move is one of its table's tasks).
    submit:
        What makes a move (:meth:`Moves.submit <bot.tables.moves.Moves.submit>`), called as
        ``submit(table, person, action, discord_ts_ms)`` when the wait is over.
    """

    def __init__(self, registry: TableRegistry, submit: Submit) -> None:
        self.registry = registry
        self.submit = submit
        self._held: dict[tuple[int, str], asyncio.Task[None]] = {}

    def hold(self, table: Table, person: Actor, player: str, action: Action, wait: Wait) -> Outcome:
        """Hold *person*'s *action* until *wait* is over, replacing a move they held before; returns
        the answer to their click (not accepted yet, saying when it is made). *player* keys it: the
        person's seat, or ``"host:<user id>"`` for a host or moderator acting for the table.
        """
        self.drop(table, player)
        left_s = wait.left_ms / 1000
        task = asyncio.get_running_loop().create_task(self._make(table, person, player, action, left_s),
                                                      name=f"table-{table.id}-held-{player}")
        table.tasks.append(task)
        self._held[(table.id, player)] = task
        task.add_done_callback(lambda done: self._forget(table.id, player, done))
        what = str(action.get("type", "move")).replace("_", " ").capitalize()
        since = wait.rule.since or "the last change"
        return Outcome(False, plain=True, note=f"⏳ {what}: made as soon as it is allowed, "
                                               f"{wait.rule.delay_ms // 1000} s after {since} "
                                               f"(in {max(1, round(left_s))} s).")

    def drop(self, table: Table, player: str) -> bool:
        """Forget *player*'s held move at *table*, if any (a newer click replaces it); whether one was held."""
        task = self._held.pop((table.id, player), None)
        if task is None:
            return False
        task.cancel()
        return True

    def held(self, table: Table, player: str) -> bool:
        """Whether *player* has a move held at *table*."""
        return (table.id, player) in self._held

    def _forget(self, table_id: int, player: str, task: asyncio.Task[None]) -> None:
        if self._held.get((table_id, player)) is task:
            del self._held[(table_id, player)]

    async def _make(self, table: Table, person: Actor, player: str, action: Action, delay_s: float) -> None:
        """Wait *delay_s* seconds, then make the held move; a refusal becomes a note on the person's board."""
        await asyncio.sleep(max(0.0, delay_s))
        self._held.pop((table.id, player), None)  # from here on a new click is a move of its own
        try:
            outcome = await self.submit(table, person, action, wall_ms())
        except Exception:  # a held move must never take the table down
            log.exception("held move of %s at table %s failed", player, table.id)
            return
        if not outcome.accepted and not self.held(table, player) and table.seat_of_player(player) is not None:
            what = str(action.get("type", "move")).replace("_", " ")
            notes = table.private_notes.setdefault(player, [])
            notes.append(PrivateNote(f"Your {what} was not made: {outcome.reason}"[:300]))
            del notes[:-5]
            table.boards_dirty.set()
