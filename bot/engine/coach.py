"""Coaching a learner at a practice table (``/learn``): what they may do now and why, what the others just did.

Each game declares a coach (``Game.coach``, ``"module:function"``), a pure function
``coach(moment) -> Lesson`` (:data:`Coach`): it reads only what the learner may see (their own
view, their legal actions, the public events of the other players' moves since the learner's last
one) and words it with the rule texts' terms, citing the section of ``docs/rules/<game>.md`` that
allows each move. It speaks to one member and may name that member's own cards only: it is never
given another player's hidden card (``docs/tables.md``, "Learning a game").

>>> lesson = Lesson(options=(("draw", "Draw a card (§3)."),), others=("Bot 1 knocked.",))
>>> lesson.lines()
['🤖 Bot 1 knocked.', '**You may now:**', '• Draw a card (§3).']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.core import Action, Event

__all__ = ["Moment", "Lesson", "Coach", "load_coach", "plain_coach", "said_by_others", "moves_by_kind"]

Namer = Callable[[str], str]


@dataclass(frozen=True)
class Moment:
    """What a coach is given: the table as the learner may see it.

    Attributes
    ----------
    me:
        The learner's player id.
    view:
        ``engine.view(me)``: the learner's own view (never another player's hidden card).
    legal:
        ``engine.legal_actions(me)``, the moves the learner may make now (may be empty).
    moves:
        The other players' moves since the learner's last one, oldest first, as
        ``(player id, that move's public events)``.
    name:
        A player id to its display name.
    """

    me: str
    view: Mapping[str, Any]
    legal: Sequence[Action]
    moves: Sequence[tuple[str, Sequence[Event]]] = ()
    name: Namer = field(default=str)


@dataclass(frozen=True)
class Lesson:
    """A coach's answer.

    Attributes
    ----------
    options:
        One explanation per kind of move the learner may make now, as ``(action type, words)``,
        the words saying what it does and the rule that allows it (``§n`` of the game's rules page).
    others:
        What the other players just did and why it matters, one line per move worth telling.
    """

    options: tuple[tuple[str, str], ...] = ()
    others: tuple[str, ...] = ()

    def lines(self, *, waiting: str = "") -> list[str]:
        """The lesson as lines of a board: the others' moves (🤖), then "**You may now:**" and one
        bullet per move, or *waiting* (a line saying what the table waits for) when there is none.
        """
        lines = [f"🤖 {line}" for line in self.others]
        if self.options:
            lines.append("**You may now:**")
            lines += [f"• {words}" for _, words in self.options]
        elif waiting:
            lines.append(waiting)
        return lines


Coach = Callable[[Moment], Lesson]
"""A game's coach: ``coach(moment) -> Lesson``, pure (no clock, no Discord, no random)."""


def said_by_others(moves: Sequence[tuple[str, Sequence[Event]]], me: str,
                   words: Callable[[str, Event], str | None], *, most: int = 3) -> tuple[str, ...]:
    """The lines *words* ``(player, event)`` gives for the events of the others' *moves* (``None``:
    untold), the newest *most* of them: the others' part of a :class:`Lesson`.
    """
    lines = [line for player, events in moves if player != me for event in events
             if (line := words(player, event))]
    return tuple(lines[-most:])


def load_coach(spec: str) -> Coach:
    """The coach function a declaration names as ``"module:function"``.

    Raises
    ------
    TypeError
        *spec* is not ``"module:function"`` or does not name a callable.
    ImportError
        The module does not import.
    """
    module, _, name = spec.partition(":")
    if not module or not name:
        raise TypeError(f"a coach is declared as 'module:function', got {spec!r}")
    function = getattr(importlib.import_module(module), name, None)
    if not callable(function):
        raise TypeError(f"{spec!r} names no coach function")
    return function  # type: ignore[no-any-return]


def moves_by_kind(moment: Moment) -> dict[str, list[dict[str, Any]]]:
    """The learner's legal actions grouped by their ``type``, in the order they first appear: what a
    coach explains one kind at a time.

    >>> moves_by_kind(Moment("u1", {}, [{"type": "draw"}, {"type": "discard", "card": "AS"}, {"type": "draw"}]))
    {'draw': [{'type': 'draw'}, {'type': 'draw'}], 'discard': [{'type': 'discard', 'card': 'AS'}]}
    """
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for action in moment.legal:
        by_kind.setdefault(str(action["type"]), []).append(dict(action))
    return by_kind


def plain_coach(moment: Moment) -> Lesson:
    """The coach of a game that declares none: each kind of move the learner may make, by its name,
    and the others' moves untold.

    >>> plain_coach(Moment("u1", {}, [{"type": "play_card", "card": "AS"}])).options
    (('play_card', '**Play card**: a move the rules allow you now.'),)
    """
    kinds = dict.fromkeys(str(a.get("type", "move")) for a in moment.legal)
    return Lesson(tuple((k, f"**{k.replace('_', ' ').capitalize()}**: a move the rules allow you now.")
                        for k in kinds))
