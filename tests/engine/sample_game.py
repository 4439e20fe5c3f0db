"""A tiny test-only game, "High card", that exercises the engine protocol before any real game lands.

It is registered nowhere in production: the conformance suite adds it to its parameters, and the
broken variants below prove that each conformance check can fail.

Rules: each player is dealt three cards, seen only by their owner. In seat order each player
plays one card face up; when everyone has played, the highest rank (Ace low) wins the trick and a
point; ties share it. After three tricks the most points wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.engine.bots import Bot
from bot.engine.cards import Card, shuffled, standard_deck
from bot.engine.core import Action, Engine, Event, IllegalAction, Result
from bot.engine.game import Game
from bot.engine.options import check_options, option


@dataclass(frozen=True)
class HighCardOptions:
    """Options of the sample game."""

    tricks: int = option(3, help="Tricks to play", min=1, max=10)

    def __post_init__(self) -> None:
        check_options(self)


class HighCard(Engine):
    """The sample game (see the module docstring)."""

    kind = "high-card"
    title = "High card"
    min_players = 2
    max_players = 4
    Options = HighCardOptions
    max_actions = 40

    def _setup(self) -> list[Event]:
        deck = shuffled(standard_deck(), self.rng)
        n = self.options.tricks
        self.hands: dict[str, list[Card]] = {p: deck[i * n:(i + 1) * n] for i, p in enumerate(self.players)}
        self.trick: list[tuple[str, Card]] = []
        self.points: dict[str, int] = {p: 0 for p in self.players}
        self.turn = 0
        self.tricks_done = 0
        return [Event("dealt", {"cards": [c.to_json() for c in hand]}, audience=(p,)) for p, hand in self.hands.items()]

    def _current(self) -> str:
        return self.players[self.turn]

    def _legal_actions(self, player: str) -> list[Action]:
        if player != self._current():
            return []
        return [{"type": "play", "card": c.id} for c in self.hands[player]]

    def _apply(self, player: str, action: Action) -> list[Event]:
        if action["type"] != "play":
            raise IllegalAction(f"unknown move {action['type']!r}")
        if player != self._current():
            raise IllegalAction("it is not your turn")
        ids = [c.id for c in self.hands[player]]
        if action.get("card") not in ids:
            raise IllegalAction(f"you do not hold {action.get('card')!r}")
        card = self.hands[player].pop(ids.index(action["card"]))
        self.trick.append((player, card))
        events = [Event("played", {"player": player, "card": card.to_json()})]
        self.turn = (self.turn + 1) % len(self.players)
        if len(self.trick) == len(self.players):
            best = max(c.rank for _, c in self.trick)
            winners = [p for p, c in self.trick if c.rank == best]
            for p in winners:
                self.points[p] += 1
            events.append(Event("trick", {"winners": winners}))
            self.trick = []
            self.tricks_done += 1
        return events

    def _view(self, player: str | None) -> dict[str, Any]:
        return {
            "hand": [c.to_json() for c in self.hands[player]] if player else None,
            "hand_counts": {p: len(h) for p, h in self.hands.items()},
            "trick": [[p, c.to_json()] for p, c in self.trick],
            "points": dict(self.points),
            "turn": self._current(),
        }

    def _is_over(self) -> bool:
        return self.tricks_done >= self.options.tricks

    def _result(self) -> Result:
        return Result.from_scores(self.points)

    def hidden_cards(self, player: str | None) -> set[str]:
        return {c.id for p, hand in self.hands.items() if p != player for c in hand}


class LowestBot(Bot):
    """Plays its lowest card."""

    name = "lowest"

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action | None:
        return min(legal, key=lambda a: Card.from_id(a["card"]).rank)


BOTS = {"lowest": LowestBot}

GAME = Game(engine=HighCard, bots=BOTS, summary="Everyone plays a card; the highest takes the trick.",
            ui="tests.e2e._sample_cog:HighCardUI", command="Play High card", tagline="a test-only trick game",
            quick_options={"tricks": 1},
            figures=lambda engine, events: {"tricks": engine.tricks_done})
"""The sample game's one declaration, as a game of its own distribution would make it (``bot.engine.game``)."""


# ---------------------------------------------------------------- broken variants (must fail)


class LeakyHighCard(HighCard):
    """Shows every hand in every view."""

    def _view(self, player: str | None) -> dict[str, Any]:
        view = super()._view(player)
        view["all_hands"] = {p: [c.id for c in h] for p, h in self.hands.items()}
        return view


class MutatingHighCard(HighCard):
    """Removes the card before checking whose turn it is."""

    def _apply(self, player: str, action: Action) -> list[Event]:
        if action.get("type") == "play":
            for p, hand in self.hands.items():
                for c in hand:
                    if c.id == action.get("card") and p == player:
                        hand.remove(c)
                        hand.append(c)  # reorders the hand even when refused below
                        break
        return super()._apply(player, action)


class GlobalRandomHighCard(HighCard):
    """Deals with the global random module."""

    def _setup(self) -> None:
        super()._setup()
        deck = standard_deck()
        random.shuffle(deck)
        n = self.options.tricks
        self.hands = {p: deck[i * n:(i + 1) * n] for i, p in enumerate(self.players)}


class NeverEndingHighCard(HighCard):
    """Never finishes."""

    def _legal_actions(self, player: str) -> list[Action]:
        return [{"type": "pass"}] if player == self._current() else []

    def _apply(self, player: str, action: Action) -> list[Event]:
        if action["type"] == "pass" and player == self._current():
            self.turn = (self.turn + 1) % len(self.players)
            return []
        raise IllegalAction("only passing here")


class RefusingHighCard(HighCard):
    """Lists an action it then refuses."""

    def _legal_actions(self, player: str) -> list[Action]:
        return super()._legal_actions(player) + ([{"type": "dance"}] if player == self._current() else [])
