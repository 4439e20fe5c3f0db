"""Per-game figures of Dutch Blitz for the simulator (``parlor simulate dutch-blitz``).

The simulator prints these for each game and adds them up (total and mean) over all games, except the
values per game it declares (:data:`MEANS`), which it averages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from bot.engine.core import Engine, Event
from bot.engine.game import mean_figures

__all__ = ["figures", "MEANS", "PLAY_MOVES"]

MEANS = ("actions_per_hand", "moves_per_hand", "dutch_cards_per_hand", "points_per_hand", "hand_score_min",
         "hand_score_max", "winner_total")
"""The figures that are values per game (means per hand, the game's least and most, its best total)."""

PLAY_MOVES = ("dutch", "post", "stack", "flip", "shift")
"""Event types that each stand for one card move, flip or shift (one per such action)."""

_TYPE = attrgetter("type")


@mean_figures(*MEANS)
def figures(engine: Engine, events: Sequence[Event]) -> dict[str, int | float]:
    """Numbers worth printing about one finished (or running) Dutch Blitz game.

    Parameters
    ----------
    engine:
        The :class:`~bot.games.dutch_blitz.engine.DutchBlitz` game.
    events:
        Every event of the game, in order (the simulator's record).

    Returns
    -------
    dict
        ``hands`` (finished hands), ``actions`` (accepted actions, Ready steps included),
        ``actions_per_hand`` (accepted actions per finished hand, mean), ``moves_per_hand``
        (card moves, flips and shifts per hand, mean), ``dutch_cards_per_hand``
        (cards in the Dutch piles at the end of a hand, mean), ``points_per_hand`` (one player's
        hand score, mean over players and hands), ``hand_score_min`` / ``hand_score_max`` (over
        the game), ``blitzes`` (hands ended by a Blitz), ``stuck_ends`` (hands ended by the stuck
        rule or as dead hands), ``blitzes_seat<n>`` (who blitzed; seats from 1), ``flips``, ``shifts``,
        ``refills``, ``completed_piles`` (Dutch piles that reached 10), ``winner_total`` (the
        best final total; 0 while the game runs).
    """
    counts = Counter(map(_TYPE, events))  # (at C speed: a game has a few thousand events)
    hand_ends: list[dict[str, Any]] = []
    completed = 0
    for event in events:
        kind = event.type
        if kind == "dutch":
            if event.data.get("complete"):
                completed += 1
        elif kind == "hand_end":
            hand_ends.append(dict(event.data))
    hands = len(hand_ends)
    per_hand = max(1, hands)
    player_scores = [s["points"] for end in hand_ends for s in end["scores"].values()]
    dutch_cards = sum(s["dutch"] for end in hand_ends for s in end["scores"].values())
    out: dict[str, int | float] = {
        "hands": hands,
        "actions": engine.action_count,
        "actions_per_hand": round(engine.action_count / per_hand, 2),
        "moves_per_hand": round(sum(counts.get(t, 0) for t in PLAY_MOVES) / per_hand, 2),
        "dutch_cards_per_hand": round(dutch_cards / per_hand, 2),
        "points_per_hand": round(sum(player_scores) / max(1, len(player_scores)), 2),
        "hand_score_min": min(player_scores, default=0),
        "hand_score_max": max(player_scores, default=0),
        "blitzes": sum(1 for end in hand_ends if end["reason"] == "blitz"),
        "stuck_ends": sum(1 for end in hand_ends if end["reason"] in ("stuck", "dead")),
        "flips": counts.get("flip", 0),
        "shifts": counts.get("shift", 0),
        "refills": counts.get("refill", 0),
        "completed_piles": completed,
    }
    for seat, player in enumerate(engine.players):
        out[f"blitzes_seat{seat + 1}"] = sum(1 for end in hand_ends if end["blitzer"] == player)
    result = engine.result()
    out["winner_total"] = max(result.scores.values()) if result is not None else 0
    return out
