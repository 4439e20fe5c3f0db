"""Blitz (31): the draw-and-discard elimination game also known as 31 or Scat.

Not Dutch Blitz. The rules are stated in the project's own words in ``docs/rules/blitz.md``; the
section numbers (§n) cited below refer to that page, and the binding rulings are in
``docs/rules/blitz.md`` §13.

In short: every player holds three cards and tries to get as close to 31 in one suit as they
can. On a turn a player either knocks, or draws one card (from the stock or the top of the
discard pile) and discards one. After a knock everyone else has one more turn, then the lowest
hand loses a life. A hand of 31 (a "blitz") ends the round at once and costs everybody else a
life. The last player with a life wins.

Hand values are kept in integer *half points* so that the optional 30.5 for three of a kind is
exact:

>>> from bot.engine.cards import Card
>>> hand_value([Card(11, "C"), Card(1, "D")])
22
>>> hand_value([Card(10, "S"), Card(11, "S"), Card(1, "S")])
62
>>> hand_value([Card(2, "S"), Card(2, "H"), Card(2, "D")], three_of_a_kind_half=61)
61
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine.cards import Card, shuffled, standard_deck
from bot.engine.core import Action, Engine, Event, IllegalAction, Result
from bot.engine.options import check_options, option

__all__ = [
    "BLITZ_HALF",
    "CARDS",
    "BlitzEngine",
    "BlitzOptions",
    "card_points",
    "hand_value",
    "half_to_points",
    "showdown_losses",
    "worst_card",
]

CARDS: dict[str, Card] = {card.id: card for card in standard_deck()}
"""Card id to card, for the 52 cards of the game."""

BLITZ_HALF = 62
"""31 points ("blitz") in half points (``docs/rules/blitz.md`` §6)."""


_CARD_JSON: dict[str, dict[str, Any]] = {card_id: card.to_json() for card_id, card in CARDS.items()}


def _json(card_id: str) -> dict[str, Any]:
    """The JSON of a card (a fresh copy, so views and events never share a dict)."""
    return dict(_CARD_JSON[card_id])


def card_points(card: Card) -> int:
    """The points of one card: Ace 11, J Q K 10, 2-10 face value (``docs/rules/blitz.md`` §5).

    >>> card_points(Card(1, "S")), card_points(Card(12, "H")), card_points(Card(7, "D"))
    (11, 10, 7)
    """
    if card.rank == 1:
        return 11
    return min(card.rank, 10)


def hand_value(cards: Iterable[Card], *, three_of_a_kind_half: int = 60) -> int:
    """The value of a hand in half points (``docs/rules/blitz.md`` §5; ruling on values in
    ``docs/rules/blitz.md``).

    A hand is worth the largest sum of its cards of one suit; three cards of one rank are worth
    *three_of_a_kind_half* instead (60 = 30 points, or 61 = 30.5 with the option) when that is
    more. An empty hand is worth 0.

    Parameters
    ----------
    cards:
        The cards of the hand (normally three).
    three_of_a_kind_half:
        The value of three of a kind, in half points.

    Returns
    -------
    int
        Twice the hand's points (a 31 is 62).
    """
    cards = list(cards)
    by_suit: dict[str, int] = {}
    for card in cards:
        by_suit[card.suit or ""] = by_suit.get(card.suit or "", 0) + card_points(card)
    best = 2 * max(by_suit.values(), default=0)
    if len(cards) == 3 and len({c.rank for c in cards}) == 1:
        best = max(best, three_of_a_kind_half)
    return best


def half_to_points(half: int) -> int | float:
    """Half points as points: an ``int`` when whole, else a ``float`` (61 -> 30.5, 62 -> 31)."""
    return half // 2 if half % 2 == 0 else half / 2


@dataclass(frozen=True)
class BlitzOptions:
    """Table options of Blitz (31) (``docs/rules/blitz.md`` §10; the options marked *option* in
    ``docs/rules/blitz.md``).

    Attributes
    ----------
    lives:
        Lives each player starts with, 1-10 (default 4, as in the rule text).
    three_of_a_kind:
        Points of three cards of one rank: 30 (default) or 30.5.
    keep_discard_pickup:
        Whether a card taken from the discard pile must be kept for the rest of that turn
        (default on; the ruling's option).
    """

    lives: int = option(4, help="Lives each player starts with", min=1, max=10)
    three_of_a_kind: float = option(30.0, help="Points of three cards of one rank", choices=(30.0, 30.5))
    keep_discard_pickup: bool = option(True, help="A card taken from the discard pile must be kept that turn")

    def __post_init__(self) -> None:
        check_options(self)

    @property
    def three_of_a_kind_half(self) -> int:
        """:attr:`three_of_a_kind` in half points (60 or 61)."""
        return int(round(self.three_of_a_kind * 2))


DRAW = "draw"
DISCARD = "discard"
OVER = "over"


class BlitzEngine(Engine):
    """The Blitz (31) engine, kind ``blitz`` (rules: ``docs/rules/blitz.md``).

    Actions (JSON objects)
    ----------------------
    ``{"type": "knock"}``
        At the start of one's turn, instead of drawing; once per round (§3, §4).
    ``{"type": "draw", "source": "stock" | "discard"}``
        Start of a turn: take the top card of the stock or of the discard pile (§3).
    ``{"type": "discard", "card": "<card id>"}``
        After drawing: put one of the four cards on the discard pile, ending the turn (§3). With
        :attr:`BlitzOptions.keep_discard_pickup` the card just taken from the discard pile is
        refused.

    Rounds follow each other automatically: when a round ends (a blitz or a showdown) the lives
    are settled and the next round is dealt within the same :meth:`apply`, so the table only
    narrates the events (§8). Events, in the order they can occur:

    ``deal``
        ``{"round", "dealer", "first", "discard_top", "stock_count", "lives"}`` (public), and one
        private ``hand`` event per player ``{"player", "cards"}`` (audience: that player).
    ``knock``
        ``{"player"}``.
    ``drew``
        ``{"player", "source", "card"}``; ``card`` is only given for the discard pile. A draw from
        the stock adds a private ``drew_card`` ``{"player", "card"}`` for the drawer.
    ``reshuffled``
        ``{"stock_count", "discard_top"}``: the discard pile (but its top card) became the stock (§9).
    ``discarded``
        ``{"player", "card"}``.
    ``blitz``
        ``{"players", "hands", "values", "losses", "at_deal"}``: somebody holds 31 (§6); every hand
        is shown.
    ``showdown``
        ``{"knocker", "hands", "values", "lowest", "losses"}`` after the last turn of a knocked round (§7).
    ``lives``
        ``{"losses", "lives"}`` once losses are applied; ``out`` ``{"players"}`` for those with no
        life left; ``round_replayed`` ``{"round", "reason"}`` when everyone left would go out (§8);
        ``game_over`` ``{"winner"}``.

    Card values in events are ``{"half_points", "points"}``; the hands are lists of card JSON.
    """

    kind = "blitz"
    title = "Blitz (31)"
    min_players = 2
    max_players = 8
    Options = BlitzOptions
    max_actions = 20_000
    conformance_options: ClassVar[dict[str, Any]] = {"lives": 1}
    timeout_continues: ClassVar[frozenset[str]] = frozenset({"discard"})
    """Timeout moves that go on with the turn a timeout began: one timeout is a whole turn (§11)."""

    # ------------------------------------------------------------------ set-up and dealing

    def _setup(self) -> None:
        self.lives: dict[str, int] = {p: self.options.lives for p in self.players}
        # Cards are held as ids (CARDS maps them back): cheap to copy, snapshot and compare.
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.stock: list[str] = []  # top of the stock = last element
        self.discard_pile: list[str] = []  # top of the pile = last element
        self.round = 0
        self.dealer: str = self.players[0]
        self.turn: str | None = None
        self.phase = DRAW
        self.knocker: str | None = None
        self.last_turns: list[str] = []  # players still owed their last turn after the knock
        self.taken_from_discard: str | None = None
        self.drew_from_discard = False
        self.turns_this_round = 0
        self.out_order: list[list[str]] = []  # groups of players, in the order they went out
        self.winner: str | None = None
        self._setup_log: tuple[str, ...] = ()
        self._setup_log = tuple(json.dumps(e.to_json()) for e in self._start_round())

    @property  # the base class's plain attribute, rebuilt as fresh copies on every read
    def setup_events(self) -> list[Event]:  # type: ignore[override]
        """The events of the first deal, made inside :meth:`Engine.new` (which returns none)."""
        return [Event.from_json(json.loads(text)) for text in self._setup_log]

    def _fresh_deck(self) -> list[Card]:
        """The 52 cards in dealing order (index 0 is dealt first), shuffled with ``self.rng``.

        Tests override this to deal prepared decks.
        """
        return shuffled(standard_deck(), self.rng)

    def in_players(self) -> list[str]:
        """Players still in the game (at least one life), in seat order (§8)."""
        return [p for p in self.players if self.lives[p] > 0]

    def _next_in(self, player: str) -> str:
        """The next player after *player* in seat order who is still in (*player* may be out)."""
        n = len(self.players)
        start = self.players.index(player)
        for step in range(1, n + 1):
            candidate = self.players[(start + step) % n]
            if self.lives[candidate] > 0:
                return candidate
        raise RuntimeError("no player is still in")  # pragma: no cover - the game is over first

    def _order_from(self, player: str) -> list[str]:
        """Players still in, starting with the one after *player* (§2, §4)."""
        order: list[str] = []
        current = player
        for _ in range(len(self.players)):
            current = self._next_in(current)
            if current in order:
                break
            order.append(current)
        return order

    def _start_round(self) -> list[Event]:
        """Deal a round and settle any 31 dealt; loops while dealt rounds end at once.

        Sources: ``docs/rules/blitz.md`` §2, §6, §8; rulings on the deal and on 31 in
        ``docs/rules/blitz.md`` §13.
        """
        events: list[Event] = []
        while True:
            self.round += 1
            order = self._order_from(self.dealer)
            deck = [card.id for card in self._fresh_deck()]
            self.hands = {p: [] for p in self.players}
            pos = 0
            for _ in range(3):
                for p in order:
                    self.hands[p].append(deck[pos])
                    pos += 1
            self.discard_pile = [deck[pos]]
            self.stock = list(reversed(deck[pos + 1:]))
            self.turn = order[0]
            self.phase = DRAW
            self.knocker = None
            self.last_turns = []
            self.taken_from_discard = None
            self.turns_this_round = 0
            events.append(Event("deal", {
                "round": self.round,
                "dealer": self.dealer,
                "first": self.turn,
                "discard_top": _json(self.discard_pile[-1]),
                "stock_count": len(self.stock),
                "lives": dict(self.lives),
            }))
            for p in order:
                events.append(Event("hand", {"player": p, "cards": [_json(c) for c in self.hands[p]]},
                                    audience=(p,)))
            blitzers = [p for p in order if self._value(p) == BLITZ_HALF]
            if not blitzers:
                return events
            if not self._blitz(blitzers, events, at_deal=True):
                return events  # the game is over

    # ------------------------------------------------------------------ values

    def _value(self, player: str) -> int:
        return hand_value(self.cards_of(player), three_of_a_kind_half=self.options.three_of_a_kind_half)

    def cards_of(self, player: str) -> list[Card]:
        """*player*'s hand as :class:`Card` objects (empty for a player who is out)."""
        return [CARDS[c] for c in self.hands[player]]

    def value_of(self, player: str) -> int:
        """The value of *player*'s current hand in half points (§5)."""
        self._check_player(player)
        return self._value(player)

    def _values_json(self, players: Sequence[str]) -> dict[str, dict[str, int | float]]:
        return {p: {"half_points": self._value(p), "points": half_to_points(self._value(p))} for p in players}

    def _hands_json(self, players: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        return {p: [_json(c) for c in self.hands[p]] for p in players}

    # ------------------------------------------------------------------ ending a round

    def _blitz(self, blitzers: list[str], events: list[Event], *, at_deal: bool) -> bool:
        """Settle a 31: every player still in without 31 loses a life. Returns whether play goes on.

        Sources: ``docs/rules/blitz.md`` §6; the 31 ruling in §13.
        """
        players = self.in_players()
        losses = {p: 1 for p in players if p not in blitzers}
        events.append(Event("blitz", {
            "players": list(blitzers),
            "hands": self._hands_json(players),
            "values": self._values_json(players),
            "losses": dict(losses),
            "at_deal": at_deal,
        }))
        return self._settle(losses, events)

    def _showdown(self, events: list[Event]) -> bool:
        """Compare hands after a knocked round and settle the losses. Returns whether play goes on.

        Sources: ``docs/rules/blitz.md`` §7 and the showdown ruling in §13. Returns player id to lives lost:
        """
        players = self.in_players()
        values = {p: self._value(p) for p in players}
        low = min(values.values())
        lowest = [p for p in players if values[p] == low]
        losses = showdown_losses(lowest, self.knocker)
        events.append(Event("showdown", {
            "knocker": self.knocker,
            "hands": self._hands_json(players),
            "values": self._values_json(players),
            "lowest": lowest,
            "losses": dict(losses),
        }))
        return self._settle(losses, events)

    def _settle(self, losses: dict[str, int], events: list[Event]) -> bool:
        """Apply *losses* (lives per player), drop those out, pick the next dealer.

        Sources: ``docs/rules/blitz.md`` §8; the rulings on going out, winning, the all-out replay
        and the rotating deal (§13).

        When every player still in would go out, nobody loses anything and the same dealer deals
        the round again. Returns ``False`` when the game is over.
        """
        players = self.in_players()
        if players and all(self.lives[p] - losses.get(p, 0) <= 0 for p in players):
            events.append(Event("round_replayed", {"round": self.round, "reason": "everyone left would go out"}))
            return True
        for p, n in losses.items():
            self.lives[p] = max(0, self.lives[p] - n)
        events.append(Event("lives", {"losses": dict(losses), "lives": dict(self.lives)}))
        gone = [p for p in players if self.lives[p] == 0]
        if gone:
            self.out_order.append(gone)
            events.append(Event("out", {"players": gone}))
        remaining = self.in_players()
        if len(remaining) <= 1:
            self.winner = remaining[0] if remaining else None
            self.turn = None
            self.phase = OVER
            events.append(Event("game_over", {"winner": self.winner}))
            return False
        self.dealer = self._next_in(self.dealer)
        return True

    def _end_round(self, events: list[Event], ending: str, blitzers: list[str] | None = None) -> None:
        """End the round with a blitz or a showdown and deal the next one unless the game is over."""
        go_on = self._blitz(blitzers or [], events, at_deal=False) if ending == "blitz" else self._showdown(events)
        if go_on:
            events.extend(self._start_round())

    # ------------------------------------------------------------------ the protocol

    def _legal_actions(self, player: str) -> list[Action]:
        if self.phase == OVER or player != self.turn:
            return []
        if self.phase == DRAW:
            actions: list[Action] = []
            if self.knocker is None:
                actions.append({"type": "knock"})
            actions.append({"type": "draw", "source": "stock"})
            actions.append({"type": "draw", "source": "discard"})
            return actions
        return [{"type": "discard", "card": c} for c in self.hands[player] if c != self.taken_from_discard]

    def _apply(self, player: str, action: Action) -> list[Event]:
        kind = action["type"]
        if kind not in ("knock", "draw", "discard"):
            raise IllegalAction(f"there is no move {kind!r} in Blitz (31); you may knock, draw or discard")
        if self.phase == OVER:
            raise IllegalAction("the game is over")  # pragma: no cover - the base class refuses first
        if player != self.turn:
            if self.lives[player] == 0:
                raise IllegalAction("you are out of this game: you have no lives left")
            raise IllegalAction(f"it is not your turn: it is {self.turn}'s turn")
        if kind == "knock":
            return self._knock(player, action)
        if kind == "draw":
            return self._draw(player, action)
        return self._discard(player, action)

    def _knock(self, player: str, action: Action) -> list[Event]:
        """Knock instead of drawing: only at the start of a turn and only once per round.

        Sources: ``docs/rules/blitz.md`` §4; the turn and knock rulings in
        ``docs/rules/blitz.md`` §13.
        """
        if len(action) != 1:
            raise IllegalAction("a knock takes no details: send just {'type': 'knock'}")
        if self.phase != DRAW:
            raise IllegalAction("you can only knock at the start of your turn, before drawing")
        if self.knocker is not None:
            raise IllegalAction(f"{self.knocker} has already knocked this round; there is one knock per round")
        self.knocker = player
        self.last_turns = self._order_from(player)
        self.last_turns.remove(player)
        self.turns_this_round += 1
        self.turn = self.last_turns[0]
        return [Event("knock", {"player": player, "last_turns": list(self.last_turns)})]

    def _draw(self, player: str, action: Action) -> list[Event]:
        """Draw the top card of the stock or the discard pile.

        Sources: ``docs/rules/blitz.md`` §3, §9; the turn ruling in §13.
        """
        source = action.get("source")
        if set(action) != {"type", "source"} or source not in ("stock", "discard"):
            raise IllegalAction(f"draw from 'stock' or 'discard', got {source!r}")
        if self.phase != DRAW:
            raise IllegalAction("you have already drawn this turn: now discard one card")
        if source == "discard" and not self.discard_pile:
            raise IllegalAction("the discard pile is empty")  # pragma: no cover - never empty at a draw
        if source == "stock" and not self.stock and len(self.discard_pile) < 2:  # pragma: no cover - 52 cards
            raise IllegalAction("the stock is empty and there is no discard pile to shuffle into it")
        events: list[Event] = []
        if source == "discard":
            card = self.discard_pile.pop()
            self.taken_from_discard = card if self.options.keep_discard_pickup else None
            self.drew_from_discard = True
            events.append(Event("drew", {"player": player, "source": "discard", "card": _json(card)}))
        else:
            if not self.stock:
                events.append(self._reshuffle())
            card = self.stock.pop()
            self.taken_from_discard = None
            self.drew_from_discard = False
            events.append(Event("drew", {"player": player, "source": "stock", "card": None}))
            events.append(Event("drew_card", {"player": player, "card": _json(card)}, audience=(player,)))
        self.hands[player].append(card)
        self.phase = DISCARD
        return events

    def _reshuffle(self) -> Event:
        """Turn the discard pile, but its top card, into a new shuffled stock.

        Sources: ``docs/rules/blitz.md`` §9; the empty-stock ruling in §13.
        """
        top = self.discard_pile.pop()
        self.stock = shuffled(self.discard_pile, self.rng)
        self.discard_pile = [top]
        return Event("reshuffled", {"stock_count": len(self.stock), "discard_top": _json(top)})

    def _discard(self, player: str, action: Action) -> list[Event]:
        """Discard one card, ending the turn; check for 31 and for the end of a knocked round.

        Sources: ``docs/rules/blitz.md`` §3, §4, §6; the discard-pickup *option* and the 31 ruling in
        ``docs/rules/blitz.md`` §13.
        """
        card_id = action.get("card")
        if set(action) != {"type", "card"} or not isinstance(card_id, str):
            raise IllegalAction("say which card to discard, e.g. {'type': 'discard', 'card': 'QH'}")
        if self.phase != DISCARD:
            raise IllegalAction("draw a card first (or knock): you discard after drawing")
        ids = list(self.hands[player])
        if card_id not in ids:
            raise IllegalAction(f"you do not hold {card_id!r}; your cards are {', '.join(ids)}")
        if card_id == self.taken_from_discard:
            raise IllegalAction(f"you just took {card_id} from the discard pile: keep it this turn, discard another")
        card = self.hands[player].pop(ids.index(card_id))
        self.discard_pile.append(card)
        self.taken_from_discard = None
        self.phase = DRAW
        self.turns_this_round += 1
        events = [Event("discarded", {"player": player, "card": _json(card)})]
        if self._value(player) == BLITZ_HALF:
            self._end_round(events, "blitz", [player])
            return events
        if self.knocker is not None:
            self.last_turns.remove(player)
            if not self.last_turns:
                self._end_round(events, "showdown")
                return events
            self.turn = self.last_turns[0]
        else:
            self.turn = self._next_in(player)
        return events

    def timeout_action(self, player: str) -> Action | None:
        """The move taken for *player* when their turn timer runs out (``docs/rules/blitz.md`` §11).

        At the start of a turn: draw from the stock (never knock). After a draw from the stock:
        discard the drawn card, so the hand stays as it was. After taking the discard pile's top
        (which may have to be kept): discard the card whose loss leaves the best hand (ties: the
        lowest card, then the first held). The discard continues the turn
        (:attr:`timeout_continues`), so one timeout is a whole turn. ``None`` when *player* may not act.
        """
        legal = self.legal_actions(player)
        if not legal:
            return None
        if self.phase == DRAW:
            return {"type": "draw", "source": "stock"}
        choices = [a["card"] for a in legal]
        drawn = self.hands[player][-1]
        if not self.drew_from_discard and drawn in choices:
            return {"type": "discard", "card": drawn}
        return {"type": "discard", "card": worst_card(self.cards_of(player), choices,
                                                      self.options.three_of_a_kind_half)}

    def _view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "round": self.round,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
            "turns_this_round": self.turns_this_round,
            "players": list(self.players),
            "in": self.in_players(),
            "lives": dict(self.lives),
            "hand_sizes": {p: len(self.hands[p]) for p in self.in_players()},
            "knocker": self.knocker,
            "last_turns": list(self.last_turns),
            "stock_count": len(self.stock),
            "discard_pile": [_json(c) for c in self.discard_pile],
            "discard_top": _json(self.discard_pile[-1]) if self.discard_pile else None,
            "drew_from": self._drew_from(),
            "winner": self.winner,
            "options": {
                "lives": self.options.lives,
                "three_of_a_kind": self.options.three_of_a_kind,
                "keep_discard_pickup": self.options.keep_discard_pickup,
            },
        }
        if player is not None:
            view["hand"] = [_json(c) for c in self.hands[player]]
            view.update(self._hand_value_view(player))
            # The card just taken from the discard pile is named only to its holder: in anyone
            # else's view it would be the id of a card in a hidden hand.
            view["must_keep"] = self.taken_from_discard if player == self.turn else None
        return view

    def _hand_value_view(self, player: str) -> dict[str, Any]:
        """The value fields of *player*'s own view (``docs/rules/blitz.md`` §1, §5).

        A hand is valued as three cards. With three cards: ``hand_value``. In the middle of a
        turn, with a fourth card drawn: ``hand_value`` is the best value the player can keep
        after one legal discard, ``best_discard`` the card (JSON) whose discard keeps it, and
        ``after_discard`` maps each card id the player may discard to the hand's value after
        discarding it (values are ``{"half_points", "points"}``). Never the sum of four cards.
        """
        def value(cards: list[Card]) -> dict[str, int | float]:
            half = hand_value(cards, three_of_a_kind_half=self.options.three_of_a_kind_half)
            return {"half_points": half, "points": half_to_points(half)}

        cards = self.hands[player]
        if len(cards) <= 3:
            return {"hand_value": value([CARDS[c] for c in cards]), "best_discard": None, "after_discard": None}
        after = {c: value([CARDS[k] for k in cards if k != c]) for c in cards if c != self.taken_from_discard}
        best = max(after, key=lambda c: after[c]["half_points"])
        return {"hand_value": after[best], "best_discard": _json(best), "after_discard": after}

    def _drew_from(self) -> str | None:
        """Where the player to act drew from this turn (``None`` before drawing)."""
        if self.phase != DISCARD:
            return None
        return "discard" if self.drew_from_discard else "stock"

    def _is_over(self) -> bool:
        return self.phase == OVER

    def _result(self) -> Result:
        """Rank by staying power: the winner first, then by how late each player went out (§8).

        Scores are the lives left (only the winner has any). Players who went out in the same
        round share a rank.
        """
        ranks: dict[str, int] = {}
        rank = 1
        if self.winner is not None:
            ranks[self.winner] = 1
            rank = 2
        for group in reversed(self.out_order):
            for p in group:
                ranks[p] = rank
            rank += len(group)
        for p in self.players:  # pragma: no cover - every player is the winner or went out
            ranks.setdefault(p, rank)
        winners = tuple(p for p in self.players if ranks[p] == 1)
        return Result({p: self.lives[p] for p in self.players}, ranks, winners,
                      {"rounds": self.round, "out_order": [list(g) for g in self.out_order]})

    def _standing(self) -> Result:
        """An unfinished game placed by lives (``docs/rules/blitz.md`` §8, ruling 10 of §13).

        Scores are the lives left. The players still in come first, more lives ahead (equal lives
        share a place); those already out follow as in the result, the later out ahead. The round
        being played does not count: its hands are hidden.
        """
        alive = self.in_players()
        ranks: dict[str, int] = {}
        for p in alive:
            ranks[p] = 1 + sum(1 for q in alive if self.lives[q] > self.lives[p])
        rank = len(alive) + 1
        for group in reversed(self.out_order):
            for p in group:
                ranks[p] = rank
            rank += len(group)
        for p in self.players:  # pragma: no cover - every player is in or went out
            ranks.setdefault(p, rank)
        return self._provisional({p: float(self.lives[p]) for p in self.players}, ranks)

    def hidden_cards(self, player: str | None) -> set[str]:
        """The stock, and every hand but *player*'s own (§1)."""
        hidden = set(self.stock)
        for p, hand in self.hands.items():
            if p != player:
                hidden.update(hand)
        return hidden


def showdown_losses(lowest: Sequence[str], knocker: str | None) -> dict[str, int]:
    """Lives lost at a showdown, given the players tied for the lowest hand.

    Sources: ``docs/rules/blitz.md`` §7; the showdown ruling in §13.

    * the knocker alone lowest loses two;
    * a knocker tied for lowest is safe, and the others tied with them lose one each;
    * otherwise each player tied for lowest loses one.

    >>> showdown_losses(["a"], "a"), showdown_losses(["a", "b"], "a"), showdown_losses(["b", "c"], "a")
    ({'a': 2}, {'b': 1}, {'b': 1, 'c': 1})
    """
    if knocker is not None and knocker in lowest:
        if len(lowest) == 1:
            return {knocker: 2}
        return {p: 1 for p in lowest if p != knocker}
    return {p: 1 for p in lowest}


def worst_card(hand: Sequence[Card], allowed: Sequence[str], three_of_a_kind_half: int = 60) -> str:
    """The id of the card in *allowed* whose discard leaves the best hand of *hand* (§11).

    Ties go to the card worth fewest points, then to the first one held.

    >>> worst_card([Card(1, "S"), Card(11, "S"), Card(2, "H"), Card(5, "S")], ["AS", "JS", "2H", "5S"])
    '2H'
    """
    best_id = ""
    best_key: tuple[int, int] | None = None
    for card in hand:
        if card.id not in allowed:
            continue
        rest = [c for c in hand if c is not card]
        key = (hand_value(rest, three_of_a_kind_half=three_of_a_kind_half), -card_points(card))
        if best_key is None or key > best_key:
            best_key, best_id = key, card.id
    return best_id
