"""The Blitzkrieg coach of a practice table (``/learn``): each choice the learner has, in the rules' words.

Pure: it reads the learner's view, legal actions and the others' public events only
(:mod:`bot.engine.coach`); the sections cited are ``docs/rules/blitzkrieg.md``'s. The battle's own
lines carry player ids: the table names them.
"""

from __future__ import annotations

from typing import Any

from bot.engine.coach import Lesson, Moment, moves_by_kind, said_by_others
from bot.engine.core import Event

__all__ = ["coach"]

OPTIONS = {
    "battle": ("**Battle!** turns the top card of your deck. When both cards are up the battle is fought at "
               "once: the higher card wins unless a scenario applies, and the winner takes every card of the "
               "battle to the bottom of their deck (§3, §6)."),
    "challenge": ("**Challenge** (Cold War): both five-card hands are shown and the higher total wins the "
                  "battle (§6.9)."),
    "disarm": ("**Disarm** (Cold War): each side takes back its Queen and its hand; the battle has no winner "
               "(§6.9, §5.3)."),
}

TOLD = {"turned", "scenario", "scenario-won", "battle-won", "battle", "a-bomb", "game-over", "choice",
        "out-of-cards", "cold-war", "treaty"}


def _option(kind: str, actions: list[dict[str, Any]], view: dict[str, Any]) -> str:
    if kind in OPTIONS:
        return OPTIONS[kind]
    if kind == "turn":
        hours = ", ".join(str(a.get("position")) for a in actions)
        return (f"**Turn an hour** of the clock ({hours}): if your final card beats the card you turn, you take "
                "everything; a tie or less and the 10's player does (§6.17, §5.4).")
    return f"**{kind.replace('_', ' ').capitalize()}** (docs/rules/blitzkrieg.md)."


def coach(moment: Moment) -> Lesson:
    """What the learner may do now and why, and what the last battle turned on (``docs/rules/blitzkrieg.md``
    §3–§6). Returns a :class:`~bot.engine.coach.Lesson`.
    """
    view = dict(moment.view)
    by_kind = moves_by_kind(moment)
    options = tuple((kind, _option(kind, actions, view)) for kind, actions in by_kind.items())

    def words(player: str, event: Event) -> str | None:
        text = event.data.get("text")
        if event.type not in TOLD or not isinstance(text, str):
            return None
        meaning = event.data.get("meaning")
        if event.type == "scenario" and isinstance(meaning, str):
            return f"{text} — {meaning} (§6)"
        if event.type == "turned":
            return f"{text} — your card and theirs decide the battle (§3)."
        return text

    return Lesson(options, said_by_others(moment.moves, moment.me, words, most=4))
