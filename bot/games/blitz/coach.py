"""The Blitz (31) coach of a practice table (``/learn``): each move the learner may make, in the rules' words.

Pure: it reads the learner's view, legal actions and the others' public events only
(:mod:`bot.engine.coach`); the sections cited are ``docs/rules/blitz.md``'s.
"""

from __future__ import annotations

from typing import Any

from bot.engine.coach import Lesson, Moment, moves_by_kind, said_by_others
from bot.engine.core import Event
from bot.games.blitz.narrate import narrate

__all__ = ["coach"]

WHY = {
    "knock": "everyone else gets one more turn, then the hands are compared and the lowest loses a life (§4).",
    "drew": "",
    "discarded": "the card on top of the discard pile is the one you may take next (§3).",
    "blitz": "31 ends the round at once: everyone else loses a life (§6).",
    "showdown": "the lowest hand loses a life; a knocker alone lowest loses two (§7).",
    "out": "a player with no life left is out (§8).",
}


def _points(view: dict[str, Any]) -> int | None:
    value = view.get("hand_value")
    return int(value["points"]) if isinstance(value, dict) and "points" in value else None


def _option(kind: str, actions: list[dict[str, Any]], view: dict[str, Any]) -> str:
    points = _points(view)
    top = (view.get("discard_top") or {}).get("label", "the top card")
    if kind == "knock":
        return (f"**Knock** instead of drawing: your hand stays at {points} and everyone else gets one more turn "
                "before the showdown; only one player may knock in a round (§4).")
    if kind == "draw":
        sources = {a.get("source") for a in actions}
        ways = []
        if "stock" in sources:
            ways.append("the top card of the **stock** (face down, a surprise)")
        if "discard" in sources:
            ways.append(f"the **{top}** from the discard pile (you may not throw it back this turn)")
        return f"**Draw** {' or '.join(ways)}, then discard one of your four cards (§3)."
    if kind == "discard":
        best = (view.get("best_discard") or {}).get("label")
        after = view.get("after_discard") or {}
        keep = max(after.values(), key=lambda v: v.get("points", 0)) if after else None
        best_words = (f" Throwing the **{best}** keeps the most: {keep['points']} points, your best one-suit total "
                      "(§5).") if best and keep else ""
        return f"**Discard** one of your four cards face up: that ends your turn (§3).{best_words}"
    return f"**{kind.replace('_', ' ').capitalize()}** (docs/rules/blitz.md §12)."


def coach(moment: Moment) -> Lesson:
    """What the learner may do now and why, and what the others just did (``docs/rules/blitz.md`` §3–§8).

    Returns a :class:`~bot.engine.coach.Lesson` naming only the learner's own cards and public cards.
    """
    view = dict(moment.view)
    by_kind = moves_by_kind(moment)
    options = tuple((kind, _option(kind, actions, view)) for kind, actions in by_kind.items())

    def words(player: str, event: Event) -> str | None:
        line = narrate(event, moment.name)
        if not line or event.type in ("hand", "drew_card", "deal", "lives"):
            return None
        why = WHY.get(event.type, "")
        if event.type == "knock" and moment.me in event.data.get("last_turns", []):
            why = "you get one more turn: beat the lowest hand or lose a life (§4)."
        return f"{line} {'— ' + why if why else ''}".strip()

    return Lesson(options, said_by_others(moment.moves, moment.me, words))
