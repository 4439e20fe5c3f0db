"""Per-game figures of a Blitz (31) game, for the simulator (``bot.engine.simulate``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core import Engine, Event
from bot.engine.game import mean_figures

__all__ = ["figures"]


@mean_figures("showdown_low_points", "turns_per_round")
def figures(engine: Engine, events: Sequence[Event]) -> dict[str, int | float]:
    """Numbers about one finished (or running) game, summed and averaged by the simulator (the two
    means, ``showdown_low_points`` and ``turns_per_round``, averaged only).

    The first deal happens in :meth:`Engine.new`, whose events the simulator never sees; they are
    kept on the engine as ``setup_events`` and counted here too.

    Returns
    -------
    dict
        ``rounds`` (deals), ``turns`` (draw-and-discard turns), ``knocks``, ``showdowns``,
        ``blitzes`` (rounds ended by a 31), ``blitzes_at_deal``, ``knocker_lost`` (showdowns the
        knocker lost), ``knocker_safe_ties``, ``knocker_lives_lost``, ``lives_lost``,
        ``reshuffles``, ``replays``, ``discard_draws`` (draws from the discard pile),
        ``showdown_low_points`` (mean lowest hand at a showdown, in points) and
        ``turns_per_round``.
    """
    all_events = [*getattr(engine, "setup_events", []), *events]
    counts = {
        "rounds": 0, "turns": 0, "knocks": 0, "showdowns": 0, "blitzes": 0, "blitzes_at_deal": 0,
        "knocker_lost": 0, "knocker_safe_ties": 0, "knocker_lives_lost": 0, "lives_lost": 0,
        "reshuffles": 0, "replays": 0, "discard_draws": 0,
    }
    low_points: list[float] = []
    lives_before: dict[str, int] = {}
    knocker: str | None = None
    for event in all_events:
        data = event.data
        if event.type == "deal":
            counts["rounds"] += 1
            lives_before = dict(data["lives"])
            knocker = None
        elif event.type == "knock":
            counts["knocks"] += 1
            knocker = data["player"]
        elif event.type == "discarded":
            counts["turns"] += 1
        elif event.type == "drew" and data["source"] == "discard":
            counts["discard_draws"] += 1
        elif event.type == "reshuffled":
            counts["reshuffles"] += 1
        elif event.type == "round_replayed":
            counts["replays"] += 1
        elif event.type == "blitz":
            counts["blitzes"] += 1
            counts["blitzes_at_deal"] += int(bool(data["at_deal"]))
        elif event.type == "showdown":
            counts["showdowns"] += 1
            lowest = data["lowest"]
            low_points.append(float(data["values"][lowest[0]]["points"]))
            if data["knocker"] in data["losses"]:
                counts["knocker_lost"] += 1
            elif data["knocker"] in lowest:
                counts["knocker_safe_ties"] += 1
        elif event.type == "lives":
            for player, left in data["lives"].items():
                lost = lives_before.get(player, left) - left
                counts["lives_lost"] += lost
                if player == knocker:
                    counts["knocker_lives_lost"] += lost
            lives_before = dict(data["lives"])
    result: dict[str, int | float] = dict(counts)
    result["showdown_low_points"] = round(sum(low_points) / len(low_points), 3) if low_points else 0.0
    result["turns_per_round"] = round(counts["turns"] / counts["rounds"], 3) if counts["rounds"] else 0.0
    return result
