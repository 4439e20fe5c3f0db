"""Dutch Blitz in words: one line per event (``bot.engine.narrate``; ``docs/rules/dutch-blitz.md``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.core import Event


def _source(source: str) -> str:
    if source.startswith("post:"):
        return f"Post pile {int(source[5:]) + 1}"
    return {"blitz": "Blitz pile", "wood": "Wood pile"}.get(source, source)


def _totals(totals: dict[str, Any], name: Callable[[str], str]) -> str:
    return ", ".join(f"{name(p)} {t}" for p, t in sorted(totals.items(), key=lambda kv: -kv[1]))


def narrate(event: Event, name: Callable[[str], str]) -> str | None:
    """The line for one Dutch Blitz *event*, or ``None`` for one not worded here."""
    d = event.data
    who = name(d["player"]) if isinstance(d.get("player"), str) else ""
    match event.type:
        case "hand_started":
            return f"Hand {d['hand']} is dealt." + (f" ({name(d['forced_by'])} started it.)" if d.get("forced_by")
                                                   else "")
        case "dutch":
            where = "starts a new Dutch pile" if d["started"] else f"plays onto Dutch pile {d['pile'] + 1}"
            done = " — the pile is complete" if d["complete"] else ""
            return f"{who} {where} with {d['card']['label']} from their {_source(d['from'])}{done}."
        case "post":
            return f"{who} builds {d['card']['label']} from their {_source(d['from'])} onto {_source(d['to'])}."
        case "stack":
            return f"{who} moves {_source(d['from'])} onto {_source(d['to'])}."
        case "refill":
            return f"{who} refills Post pile {d['post'] + 1} from their Blitz pile ({d['card']['label']})."
        case "flip":
            again = " (the Wood pile turned over as the hand)" if d.get("turned_over") else ""
            return f"{who} flips {d['count']}{again}."
        case "shift":
            return f"{who} shifts the top of their Wood pile under their hand."
        case "blitz":
            return f"Blitz! {who} has emptied their Blitz pile."
        case "hand_end":
            scores = ", ".join(f"{name(p)} {s['points']:+d}" for p, s in d["scores"].items())
            how = "a Blitz" if d["reason"] == "blitz" else "the host (stuck hand)"
            return f"Hand {d['hand']} ends by {how}: {scores}. Totals: {_totals(d['totals'], name)}."
        case "tie_at_top":
            return f"{' and '.join(name(p) for p in d['players'])} are tied at the top on {d['total']}: one more hand."
        case "ready":
            return f"{who} is ready."
        case "game_over":
            return f"Game over: {' and '.join(name(p) for p in d['winners'])} won. {_totals(d['totals'], name)}."
    return None
