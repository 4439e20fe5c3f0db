"""Helpers that build Dutch Blitz positions directly for rule tests."""

from __future__ import annotations

from bot.engine.cards import BlitzCard
from bot.games.dutch_blitz.engine import DutchBlitz, Seat, _Cards


def card(card_id: str) -> BlitzCard:
    """The card with id *card_id*, e.g. '0R5'."""
    return BlitzCard.from_id(card_id)


def cards(ids: list[str] | str) -> list[BlitzCard]:
    """Cards from ids, given as a list or a space-separated string."""
    if isinstance(ids, str):
        ids = ids.split()
    return [card(i) for i in ids]


def new_game(players: int = 2, seed: int = 0, **options: object) -> DutchBlitz:
    """A fresh game with *players* seats p0, p1, … and the given options."""
    return DutchBlitz.new([f"p{i}" for i in range(players)], seed=seed, options=options or None)


def lay(game: DutchBlitz, seat: int, *, blitz: str = "", posts: list[str] | None = None, wood: str = "",
        hand: str = "") -> Seat:
    """Replace seat *seat*'s cards: piles bottom to top, hand top first (ids separated by spaces)."""
    count = len(game.seats[seat].posts)
    post_lists = [cards(p) for p in (posts or [])]
    post_lists += [[] for _ in range(count - len(post_lists))]
    game.seats[seat] = Seat(cards(blitz), post_lists, cards(wood), cards(hand))
    return game.seats[seat]


def centre(game: DutchBlitz, *piles: str) -> None:
    """Replace the Dutch piles (each a space-separated run of ids, bottom to top)."""
    game.dutch = _Cards(cards(p) for p in piles)
