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
    rounds = hands = hand_total = dutch_calls = undercuts = outright = deck_endings = 0
    right = wrong = powers = power_actions = 0
    for e in events:  # one pass (a game has thousands of events)
        kind = e.type
        if kind == "round_over":
            d = e.data
            rounds += 1
            values = d["values"].values()
            hands += len(values)
            hand_total += sum(values)
            undercuts += d["outcome"] in ("tied", "undercut")
            outright += d["outcome"] == "outright"
            deck_endings += d["why"] == "deck"
        elif kind == "jump_in":
            if e.data["right"]:
                right += 1
            else:
                wrong += 1
        elif kind == "dutch":
            dutch_calls += 1
        elif kind == "power":
            powers += 1
        elif kind == "power_look" or kind == "power_swap":
            power_actions += 1
    result = engine.result()
    return {
        "rounds": rounds,
        "avg_final_hand": round(hand_total / hands, 3) if hands else 0.0,
        "dutch_calls": dutch_calls,
        "undercuts": undercuts,
        "outright_calls": outright,
        "deck_endings": deck_endings,
        "jump_ins_right": right,
        "jump_ins_wrong": wrong,
        "powers": powers,
        "power_actions": power_actions,
        "winning_score": min(result.scores.values()) if result is not None else 0,
    }
