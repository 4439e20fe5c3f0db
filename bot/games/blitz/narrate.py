"""Blitz (31) in words: one line per event (``bot.engine.narrate``; ``docs/rules/blitz.md``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.core import Event


def _hands(d: Mapping[str, Any], name: Callable[[str], str]) -> str:
    return "; ".join(f"{name(p)} {' '.join(c['label'] for c in cards)} ({d['values'][p]['points']})"
                     for p, cards in d["hands"].items())


def _losses(losses: dict[str, int], name: Callable[[str], str]) -> str:
    return ", ".join(f"{name(p)} loses {n} {'life' if n == 1 else 'lives'}" for p, n in losses.items()) or "nobody"


def _points(d: Mapping[str, Any], player: str) -> Any:
    return d["values"][player]["points"]


def _names(players: Sequence[str], name: Callable[[str], str]) -> str:
    names = [name(p) for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def showdown_reason(d: Mapping[str, Any], name: Callable[[str], str]) -> str:
    """Who loses lives at a showdown and why, in words, from the ``showdown`` event's data *d*.

    Sources: ``docs/rules/blitz.md`` §7 (the lone lowest knocker loses two, a knocker tied for the
    lowest is safe, everyone else tied for the lowest loses one).
    """
    knocker, lowest = d.get("knocker"), list(d["lowest"])
    low = _points(d, lowest[0])
    if not isinstance(knocker, str) or knocker not in lowest:
        if len(lowest) == 1:
            return f"{name(lowest[0])} has the lowest hand ({low}) and loses 1 life."
        return f"{_names(lowest, name)} tie for the lowest hand ({low}): each loses 1 life."
    if len(lowest) == 1:
        return f"{name(knocker)} knocked and has the lowest hand alone ({low}): a knocker alone lowest loses 2 lives."
    others = [p for p in lowest if p != knocker]
    return (f"{name(knocker)} knocked and ties for the lowest hand ({low}) with {_names(others, name)}: the "
            f"knocker is safe, {_names(others, name)} {'loses' if len(others) == 1 else 'each lose'} 1 life.")


def blitz_reason(d: Mapping[str, Any], name: Callable[[str], str]) -> str:
    """Who holds 31 and who loses a life, in words, from the ``blitz`` event's data *d* (§6)."""
    holders = list(d["players"])
    losers = list(d["losses"])
    held = f"{_names(holders, name)} {'holds' if len(holders) == 1 else 'hold'} 31"
    if not losers:
        return f"{held}: nobody loses a life."
    return f"{held}{' at the deal' if d.get('at_deal') else ''}: {_names(losers, name)} " \
           f"{'loses' if len(losers) == 1 else 'each lose'} 1 life."


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
            return f"Showdown: {_hands(d, name)}. {showdown_reason(d, name)}"
        case "lives":
            return "Lives: " + ", ".join(f"{name(p)} {n}" for p, n in d["lives"].items()) + "."
        case "out":
            return f"{' and '.join(name(p) for p in d['players'])} {'is' if len(d['players']) == 1 else 'are'} out."
        case "round_replayed":
            return f"Round {d['round']} is played again: {d['reason']}."
        case "game_over":
            return f"Game over: {name(d['winner'])} wins."
    return None
