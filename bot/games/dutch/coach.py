"""The Dutch coach of a practice table (``/learn``): each move the learner may make, in the rules' words.

Pure: it reads the learner's view, legal actions and the others' public events only
(:mod:`bot.engine.coach`); the sections cited are ``docs/rules/dutch.md``'s. Face-down cards are
named by their place, never by their face (§2.2): only the card the learner drew and the public
discard pile are named.
"""

from __future__ import annotations

from typing import Any

from bot.engine.coach import Lesson, Moment, moves_by_kind, said_by_others
from bot.engine.core import Event
from bot.games.dutch.narrate import narrate

__all__ = ["coach"]

WHY = {
    "dutch": "every other player gets exactly one more turn, then the hands are scored, lowest best (§9.1).",
    "swapped": "the card that was there is now face up on the discard pile; jump in if you hold its rank (§7).",
    "discarded": "a jump-in window is open on that rank: a card of yours of the same rank may follow it (§7).",
    "power_swap": "two cards changed places unseen: what you knew about them is at their new places (§6.4).",
    "power_look": "a Jack or King lets a player look at one card; only they saw it (§6.1).",
    "jump_in": "a right jump-in is a card gone from a hand; a wrong one costs two penalty cards (§7.2).",
    "penalty": "penalty cards go face down into new positions, unseen by anyone (§7.3).",
    "round_over": "the hands are turned over and scored: lowest total best (§9).",
}


def _option(kind: str, actions: list[dict[str, Any]], view: dict[str, Any], me: str) -> str:
    drawn = (view.get("drawn") or {}).get("label") if isinstance(view.get("drawn"), dict) else None
    discard = view.get("discard") or []
    top = discard[-1].get("label") if discard and isinstance(discard[-1], dict) else None
    mine = sorted({int(a["position"]) for a in actions if a.get("player") in (me, None) and "position" in a})
    if kind == "look":
        return ("**Look** at two of your own cards, once, before play starts: remember them, "
                "they stay face down (§4.2).")
    if kind == "draw":
        return "**Draw** the top card of the deck: you alone see it (§5.1)."
    if kind == "discard":
        return f"**Discard** the card you drew{f' ({drawn})' if drawn else ''} face up (§5.2)."
    if kind == "swap":
        return (f"**Swap** the card you drew{f' ({drawn})' if drawn else ''} into one of your positions, blind: "
                "the card that was there goes face up onto the discard pile (§5.2). Swap out a high card you "
                "remember.")
    if kind == "keep":
        return "**Keep** the drawn card face down in a new position: allowed only with an empty hand (§5.3)."
    if kind == "jump_in":
        cards = ", ".join(str(p + 1) for p in mine) or "any"
        return (f"**Jump in** on the {top or 'last discard'} with a card of the same rank, named by its place "
                f"({cards}): right, the card is gone; wrong, it is shown and you draw two (§7.2).")
    if kind == "power_look":
        return "**Look** (Jack or King power) at any one card on the table; only you see it (§6.1)."
    if kind == "power_swap":
        return "**Swap** (Queen or King power) any two cards on the table, unseen (§6.1, §6.4)."
    if kind == "skip_power":
        return "**Skip** the power: play goes on without it (§6.3)."
    if kind == "dutch":
        return ("**Call Dutch** when you think your hand is the lowest: everyone else gets one more turn, then "
                "the round is scored; a caller not strictly lowest pays a penalty (§9.1).")
    if kind == "reveal":
        return "**Turn the hands over**: the round ends and the hands are scored (§8.1, §9)."
    if kind == "next_round":
        return "**Next round**: deal the next round (§9)."
    return f"**{kind.replace('_', ' ').capitalize()}** (docs/rules/dutch.md §12)."


def coach(moment: Moment) -> Lesson:
    """What the learner may do now and why, and what the others just did (``docs/rules/dutch.md`` §4–§9).

    Returns a :class:`~bot.engine.coach.Lesson`; no face-down card is named by its face.
    """
    view = dict(moment.view)
    by_kind = moves_by_kind(moment)
    options = tuple((kind, _option(kind, actions, view, moment.me)) for kind, actions in by_kind.items())

    def words(player: str, event: Event) -> str | None:
        if event.type in ("saw", "drew_card", "turn", "round_started", "jump_in_window", "reshuffled", "power"):
            return None
        line = narrate(event, moment.name)
        if not line:
            return None
        why = WHY.get(event.type, "")
        if event.type == "dutch" and moment.me in (event.data.get("last_turns") or []):
            why = "you get one more turn before the hands are scored (§9.1)."
        return f"{line} — {why}" if why else line

    return Lesson(options, said_by_others(moment.moves, moment.me, words))
