"""Blitz (31) in words: one line per event (``bot.engine.narrate``; ``docs/rules/blitz.md``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine.core import Event


def _hands(d: Mapping[str, Any], name: Callable[[str], str]) -> str:
    return "; ".join(f"{name(p)} {' '.join(c['label'] for c in cards)} ({d['values'][p]['points']})"
                     for p, cards in d["hands"].items())


def _losses(losses: dict[str, int], name: Callable[[str], str]) -> str:
    return ", ".join(f"{name(p)} loses {n} {'life' if n == 1 else 'lives'}" for p, n in losses.items()) or "nobody"


def narrate(event: Event, name: Callable[[str], str]) -> str | None:
    """The line for one Blitz (31) *event*, or ``None`` for one not worded here."""
    d = event.data
    who = name(d["player"]) if isinstance(d.get("player"), str) else ""
    match event.type:
        case "deal":
            return (f"Round {d['round']}: {name(d['dealer'])} deals; {d['discard_top']['label']} starts the discard "
                    f"pile; {name(d['first'])} plays first.")
        case "hand":
            return f"{who} holds {' '.join(c['label'] for c in d['cards'])}."
        case "knock":
            return f"{who} knocks: everyone else has one more turn."
        case "drew":
            return f"{who} takes the {d['card']['label']} from the discard pile." if d["source"] == "discard" \
                else f"{who} draws from the stock."
        case "drew_card":
            return f"{who} draws the {d['card']['label']}."
        case "discarded":
            return f"{who} discards the {d['card']['label']}."
        case "reshuffled":
            return "The stock is empty: the discard pile, but its top card, is shuffled into a new stock."
        case "blitz":
            blitzers = " and ".join(name(p) for p in d["players"])
            return f"31! {blitzers}. {_hands(d, name)}. {_losses(d['losses'], name)}."
        case "showdown":
            return f"Showdown: {_hands(d, name)}. {_losses(d['losses'], name)}."
        case "lives":
            return "Lives: " + ", ".join(f"{name(p)} {n}" for p, n in d["lives"].items()) + "."
        case "out":
            return f"{' and '.join(name(p) for p in d['players'])} {'is' if len(d['players']) == 1 else 'are'} out."
        case "round_replayed":
            return f"Round {d['round']} is played again: {d['reason']}."
        case "game_over":
            return f"Game over: {name(d['winner'])} wins."
    return None
