"""Stacked-deck helpers for the Blitzkrieg tests (ann is seat 0, bob seat 1)."""

from __future__ import annotations

from typing import Any

from bot.engine.core import Event
from bot.games.blitzkrieg.engine import DECK_SIZE, Blitzkrieg

ANN, BOB = "ann", "bob"


def stacked(first: str, second: str, **options: Any) -> Blitzkrieg:
    """A game whose decks are exactly *first* and *second* (space-separated ids, top first)."""
    return Blitzkrieg.stacked([ANN, BOB], first.split(), second.split(), options=options or None)


def battle(game: Blitzkrieg) -> list[Event]:
    """Both players turn their card; the events of the battle (up to a choice or its end)."""
    return game.apply(ANN, {"type": "battle"}) + game.apply(BOB, {"type": "battle"})


def fired(events: list[Event]) -> list[str]:
    """The keys of the scenarios announced in *events*, in order."""
    return [e.data["scenario"] for e in events if e.type == "scenario"]


def taker(events: list[Event]) -> str | None:
    """Who took the cards of the battle (``None``: nobody, e.g. a disarmed Cold War)."""
    won = [e for e in events if e.type == "battle-won"]
    return won[-1].data["winner"] if won else None


def deck(game: Blitzkrieg, player: str) -> set[str]:
    """The card ids in *player*'s deck."""
    return {c.id for c in game.decks[game.seat_of(player)]}


def conserved(game: Blitzkrieg) -> bool:
    """Whether all 54 cards are accounted for."""
    return game.card_count() == DECK_SIZE
