"""Each game's moments worth a picture, read from what every player may see (``docs/art.md`` §7).

A game declares its function here as ``pictures="cogs._pictures:<function>"`` (``bot.engine.game.Game``),
so the table core names no game. Each function is a :data:`MomentsOf`: it is given the **public**
events of one committed move, the public view (``engine.view(None)``, asked only when a moment
happened) and the display name of a player id, and returns the moments to draw
(``bot.art.pictures``), usually none. It reads only public data, so a picture can never show a
card that some player may not see (``docs/design.md`` §6); the table draws the moments off the
click path (``bot/tables/pictures.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.art import card_key
from bot.art.pictures import (
    Battle,
    HandEnd,
    HandEndScore,
    Moment,
    Reveal,
    RevealedHand,
    Showdown,
    ShownHand,
    draws,
)
from bot.engine import Event

__all__ = ["MomentsOf", "blitz_moments", "blitzkrieg_moments", "dutch_blitz_moments", "dutch_moments", "label_key"]

MomentsOf = Callable[[Sequence[Event], Callable[[], Mapping[str, Any]], Callable[[str], str]], list[Moment]]
"""``moments(public_events, public_view, name) -> [moment, ...]``: a game's moments in one move."""

_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def label_key(label: str) -> str:
    """The card key of a standard card's label as views show it (``"Q♠"`` → ``standard:QS``,
    ``"Joker"`` → ``standard:X1``: a label does not tell the two Jokers apart).

    Raises
    ------
    ValueError
        *label* is no card's label.
    """
    if label.strip().lower() == "joker":
        return "standard:X1"
    suit = _SUITS.get(label[-1:])
    if suit is None or not label[:-1]:
        raise ValueError(f"{label!r} is no card label (expected e.g. 'Q♠' or 'Joker')")
    return card_key(label[:-1] + suit)


def _labelled(events: Sequence[Event]) -> dict[str, str]:
    """Label to card key of every card the *events* carry as a dict (``{"id", "label", ...}``)."""
    out: dict[str, str] = {}
    stack: list[Any] = [e.data for e in events]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("id"), str) and isinstance(node.get("label"), str) and "rank" in node:
                out.setdefault(node["label"], card_key(node))
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
    return out


@draws(Reveal)
def dutch_moments(events: Sequence[Event], view: Callable[[], Mapping[str, Any]],
                  name: Callable[[str], str]) -> list[Moment]:
    """Dutch's reveal: at ``round_over`` every hand is turned face up for all (``docs/rules/dutch.md``
    §9), so the picture shows each hand, the caller marked, the round's hand values and the game totals.
    """
    moments: list[Moment] = []
    for event in events:
        if event.type != "round_over":
            continue
        d = event.data
        hands = tuple(RevealedHand(name(p), tuple(card_key(c) if c else None for c in cards), int(d["values"][p]),
                                   p == d.get("caller"))
                      for p, cards in d["hands"].items())
        totals = tuple((name(p), int(t)) for p, t in (d.get("totals") or {}).items())
        moments.append(Reveal(int(d["round"]), hands, totals))
    return moments


@draws(Showdown)
def blitz_moments(events: Sequence[Event], view: Callable[[], Mapping[str, Any]],
                  name: Callable[[str], str]) -> list[Moment]:
    """Blitz (31)'s showdown (``docs/rules/blitz.md`` §7) and a 31 (§6): every hand is shown to all,
    with its worth and who lost lives.
    """
    from bot.games.blitz.narrate import blitz_reason, showdown_reason

    moments: list[Moment] = []
    for event in events:
        if event.type not in ("showdown", "blitz"):
            continue
        d = event.data
        knocker = d.get("knocker")
        losses = d.get("losses") or {}
        hands = tuple(ShownHand(name(p), tuple(card_key(c) for c in cards), str(d["values"][p]["points"]),
                                int(losses.get(p, 0)), p == knocker)
                      for p, cards in d["hands"].items())
        if event.type == "showdown":
            title, reason = "showdown", showdown_reason(d, name)
        else:
            title, reason = "31!", blitz_reason(d, name)
        moments.append(Showdown(int(view().get("round") or 0), title, hands, reason))
    return moments


@draws(Battle)
def blitzkrieg_moments(events: Sequence[Event], view: Callable[[], Mapping[str, Any]],
                       name: Callable[[str], str]) -> list[Moment]:
    """A Blitzkrieg battle fought as a scenario, once won (``docs/rules/blitzkrieg.md``): the two turned
    cards (played face up), the scenario and its meaning, who won. A plain battle (the higher card
    wins) draws no picture: the table's text says it, and a war has dozens of them.
    """
    moments: list[Moment] = []
    for event in events:
        if event.type != "battle-won" or int(event.data.get("depth") or 0) != 0:
            continue
        battle = view().get("battle") or {}
        scenario = next((line for line in battle.get("lines") or ()
                         if line.get("type") == "scenario" and int(line.get("depth") or 0) == 0), None)
        if scenario is None:
            continue
        shown = _labelled(events)  # the cards as this move's events give them (a Joker's copy, too)
        cards = tuple((name(p), shown.get(label) or label_key(label))
                      for p, label in (battle.get("cards") or {}).items() if label)
        winner = event.data.get("winner")
        moments.append(Battle(int(battle.get("number") or 0), str(scenario.get("name") or "a battle"),
                              str(scenario.get("meaning") or ""), cards,
                              name(winner) if isinstance(winner, str) else None))
    return moments


@draws(HandEnd)
def dutch_blitz_moments(events: Sequence[Event], view: Callable[[], Mapping[str, Any]],
                        name: Callable[[str], str]) -> list[Moment]:
    """The end of a Dutch Blitz hand (``docs/rules/dutch-blitz.md`` §8): the Dutch piles' top cards
    (in the middle, seen by all) and each player's score: cards on the Dutch piles, cards left in the
    Blitz pile, the hand's points and the running total.
    """
    moments: list[Moment] = []
    for event in events:
        if event.type != "hand_end":
            continue
        d = event.data
        piles = tuple(card_key(pile["top"]) for pile in view().get("dutch_piles") or () if pile.get("top"))
        totals = d.get("totals") or {}
        scores = tuple(HandEndScore(name(p), int(s["dutch"]), int(s["blitz_left"]), int(s["points"]),
                                    int(totals.get(p, s["points"])), p == d.get("blitzer"))
                       for p, s in d["scores"].items())
        moments.append(HandEnd(int(d["hand"]), piles, scores))
    return moments
