"""Computer players and per-game figures for Blitzkrieg (``docs/rules/blitzkrieg.md`` §10).

The house bot is the opponent a person alone plays against. It reads only its own view and
legal actions, like every :class:`~bot.engine.bots.Bot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.bots import Bot, Pacing
from bot.engine.bots import RandomBot as BaseRandomBot
from bot.engine.core import Action, Event

__all__ = ["HouseBot", "RandomBot", "figures", "COLD_WAR_CHALLENGE_AT"]

COLD_WAR_CHALLENGE_AT = 36
"""The house bot challenges in Cold War when its hand totals at least this (the mean of five
cards is 35; §6.9)."""


class HouseBot(Bot):
    """The house: turns its card whenever it may, and makes the few choices sensibly.

    * Cold War (§6.9): challenges on a hand totalling at least :data:`COLD_WAR_CHALLENGE_AT`,
      disarms otherwise.
    * Napoleon and the clock (§6.5, §6.17): the face-down cards are unknown, so any pick is as
      good as another; it picks with its own RNG.
    """

    name = "house"
    default_pacing = Pacing(median_ms=700.0, spread=0.3)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Battle when allowed; otherwise the choice described above."""
        types = {a["type"] for a in legal}
        if "battle" in types:
            return {"type": "battle"}
        if "challenge" in types:
            hand = [e["card"] for e in view["table"] if e["face"] == "hand" and e["card"] is not None]
            strong = sum(c["rank"] for c in hand) >= COLD_WAR_CHALLENGE_AT
            return {"type": "challenge" if strong else "disarm"}
        return dict(self.rng.choice(list(legal)))


class RandomBot(BaseRandomBot):
    """Picks uniformly among its legal actions (a yardstick for the house bot)."""


def figures(engine: Any, events: Sequence[Event]) -> dict[str, int | float]:
    """Per-game numbers for the simulator (§10).

    Returns ``battles``, ``a_bomb_wins``, ``max_battles_reached``, ``draws`` and one
    ``scenario_<key>`` count per scenario (a scenario fired as a follow-up or an interrupt counts
    too).
    """
    from bot.games.blitzkrieg.scenarios import SCENARIO_KEYS

    counts = {key: 0 for key in SCENARIO_KEYS}
    for event in events:
        if event.type == "scenario":
            counts[event.data["scenario"]] += 1
    reason = engine.end_reason
    out: dict[str, int | float] = {
        "battles": engine.battles,
        "a_bomb_wins": int(reason == "a-bomb"),
        "max_battles_reached": int(reason == "max-battles"),
        "draws": int(engine.draw_game),
    }
    out.update({f"scenario_{key.replace('-', '_')}": n for key, n in counts.items()})
    return out
