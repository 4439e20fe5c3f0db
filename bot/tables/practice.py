"""Practice tables (``/learn``): one member against one slow easy bot, coached at every step.

A practice table is an ordinary table with the setting ``practice`` (``docs/tables.md``,
"Learning a game"): the table service runs it like any other, its result is stored, and the
storage leaves practice games out of ratings, statistics and ``/history``. What this module adds:

* :func:`practice_bot` — which of a game's bots the learner plays (the one place to change it);
* :func:`practice_options` — the game's short options with the game's own times;
* :func:`coach_lines` — the coach block on the learner's board, from the game's coach
  (:mod:`bot.engine.coach`), naming players by their display names.

No Discord here: the service opens the private thread (:meth:`bot.tables.service.TableService.open_practice`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import Event
from bot.engine.coach import Coach, Moment
from bot.engine.game import BotChoice
from bot.engine.narrate import naming_ids
from bot.tables.core import now_ms
from bot.tables.table import Table, TableStatus

__all__ = ["PRACTICE", "PRACTICE_BOT_SPEED", "practice_bot", "practice_options", "is_practice", "coach_lines"]

PRACTICE = "practice"
"""The table setting that makes a table a practice table (``True``)."""

PRACTICE_BOT_SPEED = "slow"
"""The ``bot_speed`` of a practice table (:data:`bot.tables.core.BOT_SPEEDS`: × 4, several seconds a
move), so that a learner can read what the bot did before it moves again."""


def practice_bot(bots: Mapping[str, Any], strengths: Mapping[str, BotChoice]) -> str:
    """The bot a learner plays against: the game's ``easy`` strength (``Game.strengths``), or, for a
    game that declares no strengths, its last declared bot (bots are declared strongest first).

    Raises
    ------
    ValueError
        The game has no bots.

    >>> practice_bot({"heuristic": object, "easy": object}, {})
    'easy'
    >>> practice_bot({"heuristic": object, "steady": object}, {"easy": BotChoice("steady", "slow")})
    'steady'
    """
    if not bots:
        raise ValueError("this game has no bots to practise against")
    if "easy" in strengths:
        return strengths["easy"].bot
    return list(bots)[-1]


def practice_options(quick_options: Mapping[str, Any]) -> dict[str, Any]:
    """A practice game's engine options: the game's short game (``Game.quick_options``) with the
    game's own times (an option in seconds keeps its default, so nothing hurries the learner).

    >>> practice_options({"target": 1, "peek_seconds": 1, "stuck_seconds": 1})
    {'target': 1}
    """
    return {k: v for k, v in quick_options.items() if not k.endswith("_seconds")}


def is_practice(table: Table) -> bool:
    """Whether *table* is a practice table (``/learn``)."""
    return bool(table.settings.get(PRACTICE))


def _since_mine(table: Table, player: str) -> list[tuple[str, tuple[Event, ...]]]:
    """The moves of the others since *player*'s last one (:attr:`Table.told`), oldest first."""
    moves: list[tuple[str, tuple[Event, ...]]] = []
    for who, events in reversed(table.told):
        if who == player:
            break
        moves.append((who, events))
    moves.reverse()
    return moves


def coach_lines(coach: Coach, table: Table, player: str) -> list[str]:
    """The coach block of *player*'s board at practice *table*: a head, what the others just did,
    and what *player* may do now and why (the game's *coach*). Moves a timed rule holds back now
    (``Engine.timed_rules``: Dutch Blitz's End hand before the hand counts as stuck) are not offered.
    Player ids in the lines are replaced by display names. Empty when the game is not running.
    """
    engine = table.engine
    if engine is None or engine.is_over or table.status != TableStatus.RUNNING:
        return []
    now = now_ms()
    legal = [a for a in engine.legal_actions(player) if table.timers.wait_for(str(a.get("type")), now) is None]
    lesson = coach(Moment(player, engine.view(player), legal, _since_mine(table, player), table.display_name))
    named = naming_ids(engine.players, table.display_name)
    waiting = "Nothing for you to do now: watch the bot's move, it shows here."
    return ["🎓 **Coach**", *(named(line) for line in lesson.lines(waiting=waiting))]
