"""The Dutch Blitz coach of a practice table (``/learn``): each move the learner may make, in the rules' words.

Pure: it reads the learner's view, legal actions and the others' public events only
(:mod:`bot.engine.coach`); the sections cited are ``docs/rules/dutch-blitz.md``'s. It names the
learner's own visible cards (Blitz, Post and Wood tops) and the public Dutch piles only.
"""

from __future__ import annotations

from typing import Any

from bot.engine.coach import Lesson, Moment, moves_by_kind, said_by_others
from bot.engine.core import Event
from bot.games.dutch_blitz.narrate import narrate

__all__ = ["coach"]

WHY = {
    "dutch": "a Dutch pile grows one colour in order, 1 to 10; the next card of that colour may go on it (§3).",
    "post": "Post piles build down, a boy (red, blue) on a girl (yellow, green) or a girl on a boy (§4).",
    "refill": "an emptied Post pile is refilled from the Blitz pile at once (§6).",
    "flip": "only the top card of the Wood pile can be played (§7).",
    "blitz": "an empty Blitz pile ends the hand at once (§8).",
    "hand_end": "every card on the Dutch piles scores 1, every card left in a Blitz pile costs 2 (§9).",
}


def _me(view: dict[str, Any], me: str) -> dict[str, Any]:
    return next((s for s in view.get("seats") or [] if s.get("player") == me), {})


def _source(source: Any, seat: dict[str, Any]) -> str:
    source = str(source)
    if source == "blitz":
        card = (seat.get("blitz_top") or {}).get("label")
        return f"your Blitz pile's {card}" if card else "your Blitz pile"
    if source == "wood":
        card = (seat.get("wood_top") or {}).get("label")
        return f"your Wood pile's {card}" if card else "your Wood pile"
    if source.startswith("post:"):
        i = int(source.partition(":")[2])
        posts = seat.get("posts") or []
        pile = posts[i] if i < len(posts) else []
        card = pile[-1].get("label") if pile and isinstance(pile[-1], dict) else None
        return f"Post pile {i + 1}'s {card}" if card else f"Post pile {i + 1}"
    return str(source)


def _option(kind: str, actions: list[dict[str, Any]], seat: dict[str, Any]) -> str:
    sources = list(dict.fromkeys(_source(a.get("from"), seat) for a in actions if a.get("from")))
    named = f" ({'; '.join(sources[:4])})" if sources else ""
    if kind == "dutch":
        return (f"**Play to the centre**{named}: a 1 starts a new Dutch pile, any other card goes on the pile of "
                "its colour one below it; every card there scores you a point (§3, §9).")
    if kind == "post":
        return (f"**Build a Post pile**{named}: a card goes on a Post pile of yours whose top is one higher and of the "
                "other sex: a boy (red, blue) on a girl (yellow, green) or a girl on a boy (§4); "
                "emptying one refills it from your Blitz pile (§6).")
    if kind == "stack":
        return f"**Move a whole Post pile**{named} onto another where its bottom card fits (§5)."
    if kind == "flip":
        return ("**Flip** three cards of your hand onto your Wood pile: its top card becomes playable; flipping "
                "is allowed at any time (§7).")
    if kind == "shift":
        return ("**Shift** the Wood pile's top card to the bottom of your hand: allowed only when none of your "
                "visible cards can go to a Dutch pile (§7).")
    if kind == "end_hand":
        return "**End hand**: no card went to the centre for a while, so the host may end a stuck hand (§8)."
    if kind == "ready":
        return "**Ready**: the next hand is dealt when everyone is ready (§11)."
    if kind == "next_hand":
        return "**Next hand**: the host deals the next hand now (§11)."
    return f"**{kind.replace('_', ' ').capitalize()}** (docs/rules/dutch-blitz.md §13)."


def coach(moment: Moment) -> Lesson:
    """What the learner may do now and why, and what the others just did (``docs/rules/dutch-blitz.md``
    §2–§11). Returns a :class:`~bot.engine.coach.Lesson`.
    """
    seat = _me(dict(moment.view), moment.me)
    by_kind = moves_by_kind(moment)
    options = tuple((kind, _option(kind, actions, seat)) for kind, actions in by_kind.items())

    def words(player: str, event: Event) -> str | None:
        if event.type in ("hand_started", "ready", "tie_at_top"):
            return None
        line = narrate(event, moment.name)
        if not line:
            return None
        why = WHY.get(event.type, "")
        return f"{line} — {why}" if why else line

    return Lesson(options, said_by_others(moment.moves, moment.me, words, most=3))
