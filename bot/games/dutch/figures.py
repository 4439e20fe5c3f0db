"""Per-game figures of Dutch for the simulator (``bot.engine.simulate``; ``docs/rules/dutch.md`` §11)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core import Event

__all__ = ["figures"]


def figures(engine: Any, events: Sequence[Event]) -> dict[str, int | float]:
    """Numbers worth printing for one finished game, from its events.

    Returns
    -------
    dict
        ``rounds``; ``avg_final_hand`` (mean hand value over every player and round, points);
        ``dutch_calls``; ``undercuts`` (calls that were tied or beaten); ``outright_calls``;
        ``deck_endings`` (rounds ended by the deck running out); ``jump_ins_right`` /
        ``jump_ins_wrong``; ``powers`` (J/Q/K powers granted) and ``power_actions`` (looks and
        swaps made with them); ``winning_score`` (the winner's total, or hand in the aggressive set).
    """
    rounds = [e for e in events if e.type == "round_over"]
    hands = [v for e in rounds for v in e.data["values"].values()]
    result = engine.result()
    return {
        "rounds": len(rounds),
        "avg_final_hand": round(sum(hands) / len(hands), 3) if hands else 0.0,
        "dutch_calls": sum(e.type == "dutch" for e in events),
        "undercuts": sum(e.data["outcome"] in ("tied", "undercut") for e in rounds),
        "outright_calls": sum(e.data["outcome"] == "outright" for e in rounds),
        "deck_endings": sum(e.data["why"] == "deck" for e in rounds),
        "jump_ins_right": sum(e.type == "jump_in" and e.data["right"] for e in events),
        "jump_ins_wrong": sum(e.type == "jump_in" and not e.data["right"] for e in events),
        "powers": sum(e.type == "power" for e in events),
        "power_actions": sum(e.type in ("power_look", "power_swap") for e in events),
        "winning_score": min(result.scores.values()) if result is not None else 0,
    }
