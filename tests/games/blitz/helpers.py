"""Helpers that build Blitz (31) positions directly (prepared decks and hand-set states)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.cards import Card, standard_deck
from bot.games.blitz.engine import BlitzEngine

ALL_IDS = [c.id for c in standard_deck()]


def ids(text: str) -> list[str]:
    """'10S JS AS' -> ['10S', 'JS', 'AS']."""
    return text.split()


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def dealing_order(hands: Sequence[str], discard: str, stock_top: Sequence[str] = ()) -> list[Card]:
    """A whole deck that deals *hands* (in the order the players are dealt, first to act first),
    then *discard* as the first discard, then *stock_top* from the top of the stock down."""
    hand_ids = [ids(h) for h in hands]
    order: list[str] = []
    for i in range(3):
        order.extend(h[i] for h in hand_ids)
    order.append(discard)
    order.extend(stock_top)
    assert len(set(order)) == len(order), "a prepared deck repeats a card"
    order.extend(c for c in ALL_IDS if c not in order)
    return [Card.from_id(c) for c in order]


def rigged(*decks: list[Card]) -> type[BlitzEngine]:
    """An engine class that deals *decks* in order (then ordinary shuffled decks)."""
    queue = [list(d) for d in decks]

    class Rigged(BlitzEngine):
        def _fresh_deck(self) -> list[Card]:
            if queue:
                return queue.pop(0)
            return super()._fresh_deck()

    return Rigged


def position(n: int = 4, *, hands: dict[str, str], discard: str = "", stock_top: str = "",
             turn: str = "p0", dealer: str | None = None, lives: dict[str, int] | None = None,
             options: Any = None, seed: int = 0) -> BlitzEngine:
    """A game of *n* players set to a given position at the start of *turn*'s turn.

    *hands* maps players to their cards ('10S JS AS'); *discard* lists the discard pile bottom to
    top; *stock_top* the top cards of the stock, top first. The other cards go under the stock so
    that all 52 are in play. Players missing from *hands* hold no cards (they must be out).
    """
    game = BlitzEngine.new(players(n), seed=seed, options=options)
    if lives is not None:
        game.lives.update(lives)
    game.hands = {p: ids(hands.get(p, "")) for p in game.players}
    game.discard_pile = ids(discard)
    top = ids(stock_top)
    used = [c for h in game.hands.values() for c in h] + game.discard_pile + top
    assert len(set(used)) == len(used), "a position repeats a card"
    rest = [c for c in ALL_IDS if c not in used]
    game.stock = rest + list(reversed(top))
    game.turn = turn
    game.dealer = dealer if dealer is not None else game.players[game.players.index(turn) - 1]
    game.phase = "draw"
    game.knocker = None
    game.last_turns = []
    game.taken_from_discard = None
    game.turns_this_round = 0
    game.round = 1
    return game


def card_count(game: BlitzEngine) -> list[str]:
    """Every card id in play: hands, stock and discard pile."""
    return [c for h in game.hands.values() for c in h] + game.stock + game.discard_pile


def event_types(events: Sequence[Any]) -> list[str]:
    return [e.type for e in events]


def first(events: Sequence[Any], kind: str) -> Any:
    """The first event of type *kind*."""
    return next(e for e in events if e.type == kind)
