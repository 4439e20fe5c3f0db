"""Helpers that build Dutch positions directly (prepared hands and deck)."""

from __future__ import annotations

from typing import Any

from bot.games.dutch import DutchEngine

PLAYERS = ["ann", "bob", "cat"]


def prepared(hands: dict[str, list[str | None]], deck: list[str] | None = None, *, turn: int = 0,
             players: list[str] | None = None, **options: Any) -> DutchEngine:
    """A game in play with the given hands (card ids by position) and deck (listed top first).

    Everyone has taken their opening look already; nobody has seen anything.
    """
    players = players or list(hands)
    game = DutchEngine.new(players, seed=7, options=options or None)
    game.hands = {p: list(h) for p, h in hands.items()}
    game.deck = list(reversed(deck if deck is not None else ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]))
    game.looked = {p: True for p in players}
    game.phase = "play"
    game.turn = turn
    game.seen = {}
    return game


def types(events: list) -> list[str]:
    """The event types, in order."""
    return [e.type for e in events]


def find(events: list, kind: str) -> Any:
    """The first event of type *kind*."""
    return next(e for e in events if e.type == kind)


def jump(game: DutchEngine, owner: str, position: int) -> dict[str, Any]:
    """A jump-in action on the open window."""
    return {"type": "jump_in", "player": owner, "position": position, "discard": game.window["number"]}
