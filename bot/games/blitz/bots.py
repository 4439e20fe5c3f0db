"""Computer players for Blitz (31) (rules: ``docs/rules/blitz.md``).

Both bots read only their own view (their three or four cards, the discard pile, lives, who
knocked) and their legal actions.

* :class:`HeuristicBot` (``heuristic``, hard): keeps its best suit, takes the top of the
  discard pile when that improves its hand, and knocks once its hand is strong enough for the
  number of players still in (a lower bar with more players, and a slowly falling one as the round
  drags on).
* :class:`SteadyBot` (``steady``, normal): makes :class:`HeuristicBot`'s move a little under half the
  time and :class:`EasyBot`'s otherwise, drawn from its own RNG.
* :class:`EasyBot` (``easy``): a casual player — mostly draws from the stock, sometimes throws
  away a card without much thought, and knocks only on a very strong hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, ClassVar

from bot.engine.bots import Bot, Pacing
from bot.engine.cards import Card
from bot.engine.core import Action
from bot.games.blitz.engine import CARDS, card_points, hand_value

__all__ = ["BOTS", "EasyBot", "HeuristicBot", "SteadyBot", "knock_threshold"]


def _cards(cards: Sequence[dict[str, Any]]) -> list[Card]:
    return [CARDS[c["id"]] for c in cards]


def _trips_half(view: dict[str, Any]) -> int:
    return int(round(float(view["options"]["three_of_a_kind"]) * 2))


def _best_keep(hand: list[Card], must_keep: str | None, trips_half: int) -> tuple[int, float, Card]:
    """The best three-card hand out of four: (value in half points, tie-break score, card to discard)."""
    best: tuple[int, float, Card] | None = None
    for card in hand:
        if card.id == must_keep:
            continue
        rest = [c for c in hand if c is not card]
        value = hand_value(rest, three_of_a_kind_half=trips_half)
        key = (value, _potential(rest) - card_points(card) / 100.0, card)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best


def _potential(cards: list[Card]) -> float:
    """A small tie-break: cards of the hand's second-best suit still have some promise."""
    by_suit: dict[str, int] = {}
    for card in cards:
        by_suit[card.suit or ""] = by_suit.get(card.suit or "", 0) + card_points(card)
    sums = sorted(by_suit.values(), reverse=True)
    return (sums[1] / 10.0) if len(sums) > 1 else 0.0


def knock_threshold(players_in: int, turns_this_round: int) -> int:
    """The hand value (in points) at which :class:`HeuristicBot` knocks.

    With more players still in, a middling hand is less likely to be the lowest, so the bar is
    lower; after every full circle of turns without a knock it drops by one more point (so a
    round always ends).

    >>> knock_threshold(2, 0), knock_threshold(4, 0), knock_threshold(8, 0), knock_threshold(4, 12)
    (26, 25, 23, 22)
    """
    base = {2: 26, 3: 26, 4: 25, 5: 24, 6: 24}.get(players_in, 23)
    circles = turns_this_round // max(1, players_in)
    return base - circles


class HeuristicBot(Bot):
    """Keeps its best suit, takes the discard when it helps, knocks on a strong enough hand."""

    name: ClassVar[str] = "heuristic"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Pick a knock, a draw or a discard (see the module docstring)."""
        trips = _trips_half(view)
        hand = _cards(view["hand"])
        types = {a["type"] for a in legal}
        if "discard" in types:
            allowed = {a["card"] for a in legal}
            locked = next((c.id for c in hand if c.id not in allowed), None)
            _, _, card = _best_keep(hand, locked, trips)
            return {"type": "discard", "card": card.id}
        current = hand_value(hand, three_of_a_kind_half=trips)
        if "knock" in types:
            bar = knock_threshold(len(view["in"]), int(view["turns_this_round"]))
            if current >= 2 * bar:
                return {"type": "knock"}
        top = view.get("discard_top")
        if top is not None:
            top_card = CARDS[top["id"]]
            with_top, _, _ = _best_keep([*hand, top_card], top_card.id, trips)
            # Take the discard when keeping it makes the hand better by at least a point.
            if with_top >= current + 2:
                return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}


class EasyBot(Bot):
    """Draws from the stock, sometimes discards carelessly, knocks only on 29 or better."""

    name: ClassVar[str] = "easy"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Pick a knock, a draw or a discard (see the module docstring)."""
        trips = _trips_half(view)
        hand = _cards(view["hand"])
        types = {a["type"] for a in legal}
        if "discard" in types:
            discards = [a for a in legal if a["type"] == "discard"]
            if self.rng.random() < 0.3:
                return self.rng.choice(discards)
            allowed = {a["card"] for a in discards}
            locked = next((c.id for c in hand if c.id not in allowed), None)
            _, _, card = _best_keep(hand, locked, trips)
            return {"type": "discard", "card": card.id}
        current = hand_value(hand, three_of_a_kind_half=trips)
        circles = int(view["turns_this_round"]) // max(1, len(view["in"]))
        if "knock" in types and current >= 2 * max(20, 29 - circles):
            return {"type": "knock"}
        top = view.get("discard_top")
        if top is not None and self.rng.random() < 0.5:
            top_card = CARDS[top["id"]]
            with_top, _, _ = _best_keep([*hand, top_card], top_card.id, trips)
            if with_top > current:
                return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}


class SteadyBot(Bot):
    """Normal strength: each choice is :class:`HeuristicBot`'s with chance :attr:`hard_share`, else
    :class:`EasyBot`'s, both asked with this bot's own RNG (so its games replay exactly).

    Parameters
    ----------
    player, rng, pacing:
        See :class:`~bot.engine.bots.Bot`.
    """

    name: ClassVar[str] = "steady"
    hard_share: ClassVar[float] = 0.45
    """The chance that a choice is the hard bot's (tuned with ``bench/bot_strengths.py`` so that
    ``heuristic`` beats it about as clearly as it beats ``easy``)."""

    def __init__(self, player: str, rng: Random, pacing: Pacing | None = None) -> None:
        super().__init__(player, rng, pacing)
        self.hard = HeuristicBot(player, rng, self.pacing)
        self.easy = EasyBot(player, rng, self.pacing)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """The hard bot's choice or the easy bot's (see the class)."""
        return (self.hard if self.rng.random() < self.hard_share else self.easy).choose(view, legal)


BOTS: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "steady": SteadyBot, "easy": EasyBot}
"""Bot kind to class, strongest first; the strengths that play them are ``blitz.GAME.strengths``."""
