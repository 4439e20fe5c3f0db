"""Computer players and per-game figures for Blitzkrieg (``docs/rules/blitzkrieg.md`` §10).

Three strengths, which differ only in the few choices the game has (§8): ``random`` (easy) decides
them by chance, ``house`` (normal) by a fixed bar, ``counting`` (hard) by the cards it has seen.
Blitzkrieg is War: luck decides nearly everything, so the strengths barely change who wins (§10).
Each reads only its own view and legal actions, like every :class:`~bot.engine.bots.Bot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.bots import Bot, Pacing
from bot.engine.bots import RandomBot as BaseRandomBot
from bot.engine.core import Action, Event

__all__ = ["BOTS", "CountingBot", "HouseBot", "RandomBot", "figures", "COLD_WAR_CHALLENGE_AT"]

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


class CountingBot(HouseBot):
    """Hard: the house bot, except in Cold War (§6.9), where it counts cards. It expects the
    adversary's five hidden cards to be worth five times the mean rank of the cards it has not
    seen (the 52 ranked cards but its own hand and every card face up: on the table, turned, put
    aside) and challenges only on a hand worth more than that (a tie is a disarm anyway).
    """

    name = "counting"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Challenge or disarm by the count above; otherwise as the house bot."""
        if not any(a["type"] == "challenge" for a in legal):
            return super().choose(view, legal)
        hand = [e["card"] for e in view["table"] if e["face"] == "hand" and e["card"] is not None]
        seen = {c["id"]: c["rank"] for c in hand}
        seen.update((e["card"]["id"], e["card"]["rank"]) for e in view["table"] if e["face"] == "up")
        seen.update((c["id"], c["rank"]) for c in [*view["aside"], *view["turned"].values()] if c)
        unseen_count = 52 - sum(1 for rank in seen.values() if rank)
        unseen_total = 4 * 91 - sum(seen.values())  # ranks 1-13 four times; a Diplomat counts 0
        expected = 5 * unseen_total / max(1, unseen_count)
        return {"type": "challenge" if sum(c["rank"] for c in hand) > expected else "disarm"}


class RandomBot(BaseRandomBot):
    """Easy: picks uniformly among its legal actions (a Cold War challenge by a coin flip)."""


BOTS: dict[str, type[Bot]] = {"counting": CountingBot, "house": HouseBot, "random": RandomBot}
"""Bot kind to class, strongest first; ``blitzkrieg.GAME.strengths`` names the easy, normal and hard ones."""


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
