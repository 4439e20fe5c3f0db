"""The Dutch engine: the memory game where the lowest hand wins (``docs/rules/dutch.md``).

Two rule sets share one engine, chosen by the ``variant`` option: ``"passive"`` (the default:
rounds, a "Dutch" call, totals to 100) and ``"aggressive"`` (one round to the end of the deck,
fastest jump-in wins, jumping in with an adversary's card). Rulings: ``docs/rules/dutch.md``.

Knowledge is part of the state. Every card in a hand lies face down, and no view ever shows the
face of a face-down card, not even to its owner: a look reaches only the looker, as a private
:class:`~bot.engine.core.Event`. Face-down cards are named by *position*, ``(player, position)``,
never by card id, in views, actions and public events. The engine records who has seen which card
(:attr:`DutchEngine.seen`).

Positions are stable: a hand is a list of slots, a card that leaves its hand leaves an empty slot
(``None``) behind, and cards that join a hand (penalty draws, a kept card) take new slots at the end
(``docs/rules/dutch.md`` §2).

Actions (JSON objects):

* ``{"type": "look", "positions": [i, j]}`` — the opening look at two of one's own cards, ``i < j``.
* ``{"type": "draw"}`` — draw the top card of the deck (the player whose turn it is).
* ``{"type": "discard"}`` — discard the drawn card face up.
* ``{"type": "swap", "position": i}`` — put the drawn card face down at one's own position ``i``;
  the card that lay there is discarded face up.
* ``{"type": "keep"}`` — aggressive, empty hand only: keep the drawn card face down.
* ``{"type": "power_look", "player": q, "position": i}`` — a J's (or K's) look.
* ``{"type": "power_swap", "first": {"player": q, "position": i}, "second": {...}}`` — a Q's (or K's)
  blind swap; ``first`` comes before ``second`` in seat-then-position order.
* ``{"type": "skip_power"}`` — forgo the rest of a power.
* ``{"type": "jump_in", "player": q, "position": i, "discard": n}`` — jump in with the card at
  ``(q, i)`` on discard number ``n`` (a stale jump-in, meant for an earlier discard, is refused).
* ``{"type": "dutch"}`` — passive: call "Dutch".
* ``{"type": "reveal"}`` — the round is due to end (deck exhausted, or every last turn taken):
  the player in turn turns the hands over.
* ``{"type": "next_round"}`` — passive, between rounds: deal the next round.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine.cards import Card, shuffled, standard_deck
from bot.engine.core import Action, Engine, Event, IllegalAction, Result, TimedRule
from bot.engine.options import check_options, option

__all__ = ["DutchOptions", "DutchEngine", "card_value", "POWERS"]

VARIANTS = ("passive", "aggressive")
RED_KING_VALUES = (10, -2, -3)
POWERS: dict[int, int] = {11: 1, 12: 1, 13: 2}
"""Rank (J 11, Q 12, K 13) to the number of power actions it gives (``docs/rules/dutch.md`` §6)."""

_CARDS: dict[str, Card] = {c.id: c for c in standard_deck(jokers=2)}


_JSON: dict[str, dict[str, Any]] = {card_id: c.to_json() for card_id, c in _CARDS.items()}
"""Card id to ``Card.to_json()``, made once; views and events hand out copies (``dict(_JSON[id])``)."""

_RANKS: dict[str, int] = {card_id: c.rank for card_id, c in _CARDS.items()}
"""Card id to rank (Joker 0)."""

_RANK_NAMES: dict[int, str] = {0: "Joker", 1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}
"""Rank to the name views and events use (``_rank_name``)."""

_NAMES: dict[str, str] = {card_id: _RANK_NAMES[c.rank] for card_id, c in _CARDS.items()}
"""Card id to its rank name."""

_DECKS: dict[int, list[str]] = {n: [c.id for c in standard_deck(jokers=n)] for n in (0, 2)}
"""Jokers (0 or 2) to the card ids of :func:`~bot.engine.cards.standard_deck` in its order."""

_POWER_MEMO_SIZE = 8
"""How many sets of occupied positions :meth:`DutchEngine._power_actions` keeps actions for, at most."""

_POWER_MEMO_ACTIONS = 4096
"""How many actions :meth:`DutchEngine._power_actions` keeps in all, at most (a table's engine
lives long; four hands of five cards give 210 looks and swaps)."""

_VALUE_TABLES: dict[int, dict[str, int]] = {}
"""Red King value to (card id to points), filled on first use (:func:`_values`)."""


def _card(card_id: str) -> Card:
    return _CARDS[card_id]


def _values(red_kings: int) -> dict[str, int]:
    """Card id to :func:`card_value` with red Kings worth *red_kings*, computed once per value."""
    table = _VALUE_TABLES.get(red_kings)
    if table is None:
        table = _VALUE_TABLES[red_kings] = {card_id: card_value(c, red_kings) for card_id, c in _CARDS.items()}
    return table


def card_value(card: Card, red_kings: int = 10) -> int:
    """The points a card scores (``docs/rules/dutch.md`` §3).

    Ace 1, 2–10 face value, J Q K 10, a Joker −1, a red King (hearts, diamonds) *red_kings*.

    >>> card_value(Card(13, "H"), red_kings=-2), card_value(Card(13, "S"), red_kings=-2)
    (-2, 10)
    >>> card_value(Card(0, None, 1)), card_value(Card(1, "C")), card_value(Card(12, "D"))
    (-1, 1, 10)
    """
    if card.is_joker:
        return -1
    if card.rank == 13 and card.is_red:
        return red_kings
    return min(card.rank, 10)


def _rank_name(card: Card) -> str:
    return "Joker" if card.is_joker else {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))


@dataclass(frozen=True)
class DutchOptions:
    """The table options of Dutch (``docs/rules/dutch.md`` §10; rulings marked there).

    Attributes
    ----------
    variant:
        ``"passive"`` (default) or ``"aggressive"``, the two rule sets of the text.
    jokers:
        Whether the two Jokers are in the deck (default on); the aggressive set always uses them.
    hand_size:
        Cards dealt to each player, 4 (default) to 6.
    red_kings:
        The value of a red King: 10 (default), -2 or -3.
    peek_seconds:
        How long the table shows a looked-at card, in seconds (default 5; the engine only carries it).
    jump_in_grace_seconds:
        The table's grace time between a discard and the next draw, in seconds (default 3; the
        engine only carries it).
    target:
        Passive: the game ends after the round in which any total reaches this (default 100).
    undercut_penalty:
        Passive: points added to a Dutch caller who is not strictly lowest (default 15).
    forgiving_scores:
        Passive: the caller's modifiers become outright win -15, tie +5, undercut +10 (default off).
    """

    variant: str = option("passive", help="The rule set: passive (rounds, the Dutch call) or aggressive "
                                       "(one round, fastest jump-in)", choices=VARIANTS)
    jokers: bool = option(True, help="Play with the two Jokers (the aggressive set always does)")
    hand_size: int = option(4, help="Cards dealt to each player", min=4, max=6)
    red_kings: int = option(10, help="The value of a red King", choices=RED_KING_VALUES)
    peek_seconds: int = option(5, help="Seconds a looked-at card stays shown", min=1, max=60)
    jump_in_grace_seconds: int = option(3, help="Seconds between a discard and the next draw, for jump-ins",
                                        min=0, max=30)
    target: int = option(100, help="Passive: the game ends after the round in which a total reaches this",
                         min=1, max=10_000)
    undercut_penalty: int = option(15, help="Passive: points added to a Dutch caller who is not strictly lowest",
                                   min=0, max=1000)
    forgiving_scores: bool = option(False, help="Passive: caller's win -15, tie +5, undercut +10")

    def __post_init__(self) -> None:
        check_options(self)
        if self.variant == "aggressive" and not self.jokers:
            raise ValueError("option jokers must be true with variant='aggressive' (the aggressive set always "
                             "plays with the two Jokers), got False")


_NEW_EVENT = Event.__new__
_SET_TYPE = vars(Event)["type"].__set__  # the slots' member descriptors
_SET_DATA = vars(Event)["data"].__set__
_SET_AUDIENCE = vars(Event)["audience"].__set__


def _event(kind: str, data: dict[str, Any], audience: tuple[str, ...] | None = None) -> Event:
    """``Event(kind, data, audience)``, the same object, made without the frozen dataclass's ``__init__``.

    ``Event`` is a frozen dataclass with slots: its generated ``__init__`` sets each field through
    ``object.__setattr__``, twice the cost of setting the slots directly, and the engine makes a few
    events every move.
    """
    event: Event = _NEW_EVENT(Event)
    _SET_TYPE(event, kind)
    _SET_DATA(event, data)
    _SET_AUDIENCE(event, audience)
    return event


def _plain_copy(action: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of *action* equal to ``canonical(action)`` when it holds only strings, ints, bools, ``None``,
    lists of those and dicts of all these under string keys (every Dutch action); ``None`` for anything
    else (the caller then uses :func:`~bot.engine.core.canonical`, which decides).
    """
    out: dict[str, Any] = {}
    for key, value in action.items():
        if type(key) is not str:
            return None
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            out[key] = value
        elif kind is dict:
            inner = _plain_copy(value)
            if inner is None:
                return None
            out[key] = inner
        elif kind is list:
            for item in value:
                kind = type(item)
                if not (kind is str or kind is int or kind is bool or item is None):
                    return None
            out[key] = list(value)
        else:
            return None
    return out


def _pos(obj: Any) -> tuple[str, int] | None:
    """``{"player": q, "position": i}`` as ``(q, i)``, or ``None`` when malformed."""
    if not isinstance(obj, dict) or set(obj) != {"player", "position"}:
        return None
    q, i = obj["player"], obj["position"]
    if not isinstance(q, str) or type(i) is not int:
        return None
    return q, i


class DutchEngine(Engine):
    """Dutch, both rule sets (``docs/rules/dutch.md``).

    State (all plain data, so that :meth:`snapshot` and deep copies are cheap):

    * ``hands``: player -> list of card ids or ``None`` (empty slot), all face down;
    * ``deck`` (top = last), ``discard`` (top = last, face up);
    * ``phase``: ``"look"`` (opening look), ``"play"``, ``"round_over"`` (passive, between rounds)
      or ``"over"``; in play, ``step`` is ``"draw"`` or ``"decide"`` (holding the drawn card);
    * ``power``: the pending power ``{"player", "rank", "left", "after"}`` or ``None`` (§6);
    * ``window``: the jump-in window ``{"number", "rank", "name", "taken"}`` or ``None`` (§7);
    * ``dutch``, ``final_turns``, ``ending``: the Dutch call and the last turns still owed (§9);
    * ``seen``: card id -> a bit mask (bit = seat index) of the players who have seen that card's
      face this round (knowledge is state; :meth:`has_seen` reads it).

    Every seat is asked for its legal actions and view after every move, so the engine keeps
    memos of derived data (``_MEMOS``): the seat-independent part of the view, built once per
    state, a power's looks and swaps per set of occupied positions and the aggressive jump-ins. A memo is always checked
    against the state itself, never a move counter, so a state changed from outside (a test
    staging a position) is never shown stale; memos are left out of :meth:`snapshot`, pickles and
    deep copies. Each :meth:`view` is a fresh dict and each :meth:`legal_actions` a fresh list,
    but the lists and dicts nested in them may be shared with other calls (the views of one state
    share theirs, as every view already shared ``last_round`` with the state): read them, never
    change them. :meth:`~bot.engine.core.Engine.apply` works on its own copy of an action.
    """

    kind = "dutch"
    title = "Dutch"
    min_players = 2
    max_players = 8
    Options = DutchOptions
    max_actions = 30_000
    conformance_options = {"target": 30}
    timeout_continues: ClassVar[frozenset[str]] = frozenset({"discard", "skip_power"})
    """Timeout moves that go on with the turn a timeout began: one timeout is a whole turn (§5.4)."""

    # Memos of derived data (not state): left out of snapshots and pickles, rebuilt on demand and
    # always checked against the state they were made from.
    _MEMOS: ClassVar[tuple[str, ...]] = ("_view_memo", "_discard_memo", "_power_memo", "_jump_memo")
    _view_memo: tuple[tuple[Any, ...], dict[str, Any]] | None = None
    _discard_memo: tuple[list[str], list[dict[str, Any]]] | None = None
    _power_memo: dict[tuple[int, ...], tuple[list[Action], list[Action]]] | None = None
    _jump_memo: tuple[int, dict[str, list[str | None]], list[Action]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for name in self._MEMOS:
            state.pop(name, None)
        return state

    def snapshot(self) -> Any:
        """The state as :meth:`Engine.snapshot` gives it, without the memos (derived data, not state)."""
        memos = {name: self.__dict__.pop(name) for name in self._MEMOS if name in self.__dict__}
        try:
            state = super().snapshot()  # deep-copies the state only, not the memos
        finally:
            self.__dict__.update(memos)
        return state

    # ------------------------------------------------------------------ setup and rounds

    def _setup(self) -> list[Event]:
        """Start the game: no totals yet, deal the first round (§4); returns the deal's event."""
        self.round = 0
        self.totals: dict[str, int] = {p: 0 for p in self.players}
        self.round_scores: list[dict[str, int]] = []
        self.discards = 0
        self.last_round: dict[str, Any] | None = None
        self.final_hands: dict[str, int] | None = None
        self._deal()
        return [self._round_started()]

    def _round_started(self) -> Event:
        return _event("round_started", {"round": self.round, "starter": self.current,
                                       "hand_size": self.options.hand_size})

    def _deal(self) -> None:
        """Deal a round: shuffle, deal ``hand_size`` face down each; the opening look follows (§4)."""
        self.round += 1
        jokers = 2 if (self.options.jokers or self.options.variant == "aggressive") else 0
        deck = shuffled(_DECKS[jokers], self.rng)  # the same order as shuffling the Cards themselves
        n = self.options.hand_size
        self.hands: dict[str, list[str | None]] = {}
        for p in self.players:
            self.hands[p] = [deck.pop() for _ in range(n)]
        self.deck: list[str] = deck
        self.discard: list[str] = []
        self.seen: dict[str, int] = {}
        self.looked: dict[str, bool] = {p: False for p in self.players}
        self.phase = "look"
        self.step = "draw"
        self.starter = (self.round - 1) % len(self.players)
        self.turn = self.starter
        self.drawn: str | None = None
        self.power: dict[str, Any] | None = None
        self.window: dict[str, Any] | None = None
        self.dutch: str | None = None
        self.final_turns: list[str] | None = None
        self.ending = False
        self.last_round = None

    def _card_at(self, player: str, pos: int) -> str:
        """The card id at *player*'s occupied position *pos* (callers validated the position)."""
        card = self.hands[player][pos]
        assert card is not None, f"{player}'s position {pos} is empty"
        return card

    def _held(self) -> str:
        """The drawn card held by the player in turn (step ``decide``)."""
        assert self.drawn is not None, "no card is held"
        return self.drawn

    def _pending_power(self) -> dict[str, Any]:
        """The power being used (only called while one is)."""
        assert self.power is not None, "no power is pending"
        return self.power

    def _see(self, card_id: str, players: Any) -> None:
        mask = self.seen.get(card_id, 0)
        if players is self.players:
            mask |= (1 << len(players)) - 1  # everyone
        else:
            for p in players:
                mask |= 1 << self.players.index(p)
        self.seen[card_id] = mask

    def has_seen(self, player: str, card_id: str) -> bool:
        """Whether *player* has seen the face of card *card_id* this round (knowledge is state, §2)."""
        return bool(self.seen.get(card_id, 0) >> self.seen_index(player) & 1)

    def seen_index(self, player: str) -> int:
        """The bit of *player* in :attr:`seen` masks (their seat index)."""
        return self.players.index(player)

    # ------------------------------------------------------------------ helpers

    @property
    def current(self) -> str:
        """The player whose turn it is (or who is next to draw)."""
        return self.players[self.turn]

    def _cards_of(self, player: str) -> list[int]:
        return [i for i, c in enumerate(self.hands[player]) if c is not None]

    def _all_positions(self) -> list[tuple[str, int]]:
        hands = self.hands
        return [(p, i) for p in self.players for i, c in enumerate(hands[p]) if c is not None]

    def _due_to_end(self) -> bool:
        return self.phase == "play" and self.step == "draw" and self.power is None and (
            self.ending or not self.deck)

    def _value(self, card_id: str) -> int:
        return _values(self.options.red_kings)[card_id]

    def hand_value(self, player: str) -> int:
        """The points of *player*'s hand now (``docs/rules/dutch.md`` §3); engine-side, not a view."""
        values = _values(self.options.red_kings)
        return sum(values[c] for c in self.hands[player] if c is not None)

    def waiting_for(self) -> list[str]:
        """The players the game is waiting on (the ones a table's turn timer should watch).

        Jump-ins and a Dutch call are always optional, so only the opening lookers, the player in
        turn, the power holder or (between rounds) everyone count.
        """
        if self.is_over:
            return []
        if self.phase == "look":
            return [p for p in self.players if not self.looked[p]]
        if self.phase == "round_over":
            return list(self.players)
        if self.power is not None:
            return [self.power["player"]]
        return [self.current]

    # ------------------------------------------------------------------ legal actions

    @property
    def is_over(self) -> bool:
        """Whether the game has finished (phase ``"over"``; :attr:`Engine.is_over`, without the hook call)."""
        return self.phase == "over"

    def legal_actions(self, player: str) -> list[Action]:
        """Every action *player* may take now, as JSON objects (:meth:`Engine.legal_actions`).

        The hook's work done here directly (the simulator and the table ask every seat after every
        move): the same list, the same :class:`ValueError` for a player who is not seated.
        """
        if player not in self.players:
            self._check_player(player)
        return self._legal_actions(player)

    def _legal_actions(self, player: str) -> list[Action]:
        # Hot (the simulator and the table ask every seat after every move), so the conditions are
        # written out: a round due to end (_due_to_end), the jump-in window open (_window_open), the
        # jump-ins (own cards; aggressive: anyone's) and the Dutch call (passive, none made yet).
        # A game over has no legal action (phase "over" falls through to the empty list).
        phase = self.phase
        if phase != "play":
            if phase == "look":
                if self.looked[player]:
                    return []
                own = self._cards_of(player)
                return [{"type": "look", "positions": [i, j]} for i, j in itertools.combinations(own, 2)]
            if phase == "round_over":
                return [{"type": "next_round"}]
            return []
        variant = self.options.variant
        power = self.power
        if power is not None:
            # No jump-in while a power is used, and a round is never due to end then.
            out = self._power_actions() if player == power["player"] else []
            if variant == "passive" and self.dutch is None:
                out.append({"type": "dutch"})
            return out
        step = self.step
        due = step == "draw" and (self.ending or not self.deck)
        out = []
        if player == self.players[self.turn]:
            if step == "draw":
                out.append({"type": "reveal"} if due else {"type": "draw"})
            elif step == "decide":
                out.append({"type": "discard"})
                out += [{"type": "swap", "position": i} for i, c in enumerate(self.hands[player]) if c is not None]
                if variant == "aggressive" and len(out) == 1:
                    out.append({"type": "keep"})
        window = self.window
        if step == "draw" and window is not None:
            n = window["number"]
            if variant == "aggressive":
                out += self._jump_ins(n)  # with anyone's cards: the same for every player
            else:
                out += [{"type": "jump_in", "player": player, "position": i, "discard": n}
                        for i, c in enumerate(self.hands[player]) if c is not None]
        if variant == "passive" and self.dutch is None and not due:
            out.append({"type": "dutch"})
        return out

    def can_act(self, player: str) -> bool:
        """Whether *player* has any legal action now (:meth:`Engine.can_act
        <bot.engine.core.Engine.can_act>`), in play without listing them: the player in turn always may
        (draw, reveal or discard, §5), anyone may call Dutch while the passive call is open (§9), and
        otherwise only a jump-in is left (§7). The opening look, a power and the end of a round ask
        :meth:`legal_actions`.

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        if player not in self.players:
            self._check_player(player)
        if self.phase != "play" or self.power is not None:
            return bool(self._legal_actions(player))
        if player == self.players[self.turn]:
            return True
        step = self.step
        passive = self.options.variant == "passive"
        if passive and self.dutch is None and not (step == "draw" and (self.ending or not self.deck)):
            return True
        if step != "draw" or self.window is None:
            return False
        hands = self.hands
        if passive:
            return any(c is not None for c in hands[player])
        return any(c is not None for p in self.players for c in hands[p])

    def _power_actions(self) -> list[Action]:
        """A power's looks, swaps and skip, in a fresh list.

        A K's swaps over every pair of cards run to hundreds of actions, and the same positions
        come back power after power: the looks and swaps are kept per set of occupied positions
        (:attr:`_power_memo`: a few sets, a few thousand actions in all) and shared by the lists made
        for it (actions, like views, are read-only: :meth:`Engine.apply` works on its own copy).
        """
        rank = self._pending_power()["rank"]
        # The occupied positions, told apart by each hand's length (in seat order) followed by its
        # empty positions i as -1 - i: cheaper to make and hash than the (player, position) pairs.
        hands = self.hands
        key: list[int] = []
        for p in self.players:
            hand = hands[p]
            key.append(len(hand))
            if None in hand:
                key += [-1 - i for i, c in enumerate(hand) if c is None]
        spots = tuple(key)
        memo = self._power_memo
        if memo is None:
            memo = self._power_memo = {}
        made = memo.get(spots)
        if made is None:
            positions = self._all_positions()
            named = [{"player": q, "position": i} for q, i in positions]  # shared by the swaps naming them
            made = ([{"type": "power_look", "player": q, "position": i} for q, i in positions],
                    [{"type": "power_swap", "first": a, "second": b} for a, b in itertools.combinations(named, 2)])
            size = len(made[0]) + len(made[1])
            if size <= _POWER_MEMO_ACTIONS:  # huge hands (random play) are not worth the memory
                while memo and (len(memo) >= _POWER_MEMO_SIZE or size + sum(
                        len(looks) + len(swaps) for looks, swaps in memo.values()) > _POWER_MEMO_ACTIONS):
                    del memo[next(iter(memo))]  # the oldest
                memo[spots] = made
        looks, swaps = made
        out: list[Action] = (looks + swaps if rank == 13 else list(looks) if rank == 11
                             else list(swaps) if rank == 12 else [])
        out.append({"type": "skip_power"})
        return out

    def _jump_ins(self, number: int) -> list[Action]:
        """Every jump-in on discard *number* with anyone's card (aggressive), in seat then position order.

        Kept for the state's hands (:attr:`_jump_memo`) and shared by every player's list.
        """
        memo = self._jump_memo
        hands = self.hands
        if memo is not None and memo[0] == number and memo[1] == hands:
            return memo[2]
        made: list[Action] = [{"type": "jump_in", "player": q, "position": i, "discard": number}
                              for q in self.players for i, c in enumerate(hands[q]) if c is not None]
        self._jump_memo = (number, {p: list(h) for p, h in hands.items()}, made)
        return made

    def _window_open(self) -> bool:
        return self.phase == "play" and self.step == "draw" and self.power is None and self.window is not None

    def timeout_action(self, player: str) -> Action | None:
        """What the table does for *player* when their timer runs out (``docs/rules/dutch.md`` §4, §5).

        Opening look: the first two positions. Turn: draw, then discard the drawn card; a power is
        skipped; a due end is revealed; between rounds the next round is dealt. ``None`` for a
        player the game is not waiting on (jump-ins and Dutch calls are never forced).
        """
        if player not in self.waiting_for():
            return None
        legal = self.legal_actions(player)
        for kind in ("look", "next_round", "skip_power", "reveal", "draw", "discard"):
            for action in legal:
                if action["type"] == kind:
                    return action
        return None

    def timed_rules(self) -> list[TimedRule]:
        """The jump-in grace (§7.1): after a discard, the next ``draw`` (or, when the round is due to
        end, the ``reveal`` that ends it) waits ``jump_in_grace_seconds`` so that players can jump
        in; none outside a jump-in window or with no grace.
        """
        if not self._window_open() or self.options.jump_in_grace_seconds <= 0:
            return []
        assert self.window is not None
        due = self.ending or not self.deck
        return [TimedRule("jump_in_grace", self.options.jump_in_grace_seconds * 1000,
                          f"discard {self.window['number']}", "reveal" if due else "draw", "the last discard")]

    def shown_for_ms(self, event: Event) -> int | None:
        """A look (``saw``: the opening look, a Jack's, each of a King's) is seen for ``peek_seconds``
        and then hidden again (``docs/rules/dutch.md`` §2); other events need no time.
        """
        return self.options.peek_seconds * 1000 if event.type == "saw" else None

    def contested_resource(self, player: str, action: Action) -> str | None:
        """Aggressive jump-ins race for ``"jump-in:<discard number>"`` (``docs/rules/dutch.md`` §7).

        Passive jump-ins contest nothing (everyone may jump in); other actions contest nothing.
        """
        if (self.options.variant == "aggressive" and isinstance(action, dict) and action.get("type") == "jump_in"
                and type(action.get("discard")) is int):
            return f"jump-in:{action['discard']}"
        return None

    # ------------------------------------------------------------------ apply

    _HANDLERS: ClassVar[dict[str, str]] = {
        "look": "_do_look", "draw": "_do_draw", "discard": "_do_discard", "swap": "_do_swap",
        "keep": "_do_keep", "power_look": "_do_power_look", "power_swap": "_do_power_swap",
        "skip_power": "_do_skip_power", "jump_in": "_do_jump_in", "dutch": "_do_dutch",
        "reveal": "_do_reveal", "next_round": "_do_next_round",
    }
    """Action type to the name of the method that applies it."""

    def _copied(self, action: Action) -> Action:
        """The engine's copy of *action* (:meth:`Engine._copied`): the plain actions Dutch takes are
        copied directly (:func:`_plain_copy`), anything else goes through
        :func:`~bot.engine.core.canonical` as in every game.

        Raises
        ------
        IllegalAction
            *action* holds something JSON cannot carry.
        """
        copied = _plain_copy(action) if type(action) is dict else None
        return super()._copied(action) if copied is None else copied

    def _apply(self, player: str, action: Action) -> list[Event]:
        kind = action["type"]
        name = self._HANDLERS.get(kind)
        if name is None:
            raise IllegalAction(f"there is no move called {kind!r} in Dutch")
        handler: Any = getattr(self, name)
        events: list[Event] = handler(player, action)
        return events

    @staticmethod
    def _shape(action: Action, *keys: str) -> None:
        if len(action) == len(keys) + 1:  # the common case; "type" is always there (Engine.apply checked it)
            for k in keys:
                if k not in action:
                    break
            else:
                return
        extra = sorted(set(action) - {"type", *keys})
        missing = sorted({*keys} - set(action))
        if extra or missing:
            raise IllegalAction(f"a {action['type']!r} move takes exactly {['type', *keys]}, got {sorted(action)}")

    def _need_play(self, what: str) -> None:
        if self.phase == "look":
            raise IllegalAction(f"you cannot {what} yet: everyone is still taking their opening look")
        if self.phase != "play":
            raise IllegalAction(f"you cannot {what} now: the round is over")

    def _need_turn(self, player: str, step: str, what: str) -> None:
        if (self.phase == "play" and self.power is None and self.step == step
                and player == self.players[self.turn]):
            return  # the usual case, checked at once; otherwise the checks below say what is wrong
        self._need_play(what)
        if self.power is not None:
            raise IllegalAction(f"you cannot {what} now: {self.power['player']} is using a power first")
        if player != self.current:
            raise IllegalAction(f"you cannot {what}: it is {self.current}'s turn")
        if self.step != step:
            msg = "you have already drawn this turn" if step == "draw" else "draw a card first"
            raise IllegalAction(f"you cannot {what}: {msg}")

    def _own_slot(self, player: str, pos: Any, what: str) -> int:
        if type(pos) is not int or not 0 <= pos < len(self.hands[player]):
            raise IllegalAction(f"you cannot {what}: position {pos!r} is not in your hand "
                                f"(positions 0-{len(self.hands[player]) - 1})")
        if self.hands[player][pos] is None:
            raise IllegalAction(f"you cannot {what}: your position {pos} is empty")
        return pos

    def _any_slot(self, spot: tuple[str, int] | None, what: str) -> tuple[str, int]:
        if spot is None:
            raise IllegalAction(f"you cannot {what}: name a card as {{'player': id, 'position': n}}")
        q, i = spot
        if q not in self.players:
            raise IllegalAction(f"you cannot {what}: {q!r} is not playing")
        if not 0 <= i < len(self.hands[q]) or self.hands[q][i] is None:
            raise IllegalAction(f"you cannot {what}: {q} has no card at position {i}")
        return q, i

    # -- opening look (§4)

    def _do_look(self, player: str, action: Action) -> list[Event]:
        self._shape(action, "positions")
        if self.phase != "look":
            raise IllegalAction("the opening look is over: cards are seen only through a J or a K now")
        if self.looked[player]:
            raise IllegalAction("you have already taken your opening look")
        positions = action["positions"]
        if not isinstance(positions, list) or len(positions) != 2:
            raise IllegalAction(f"the opening look takes exactly two positions, got {positions!r}")
        i, j = (self._own_slot(player, p, "look there") for p in positions)
        if not i < j:
            raise IllegalAction(f"name two different positions in increasing order, got {positions!r}")
        self.looked[player] = True
        events = [_event("opening_look", {"player": player, "positions": [i, j]})]
        for pos in (i, j):
            card = self._card_at(player, pos)
            self._see(card, [player])
            events.append(_event("saw", {"player": player, "owner": player, "position": pos, "why": "opening",
                                        "card": dict(_JSON[card])}, (player,)))
        if all(self.looked.values()):
            self.phase = "play"
            events.append(_event("turn", {"player": self.current, "round": self.round}))
        return events

    # -- the turn (§5)

    def _do_draw(self, player: str, action: Action) -> list[Event]:
        if len(action) != 1:
            self._shape(action)
        players = self.players
        if not (self.phase == "play" and self.power is None and self.step == "draw" and player == players[self.turn]):
            self._need_turn(player, "draw", "draw")
        deck = self.deck
        if self.ending or not deck:  # self._due_to_end(), in play at the draw step with no power
            raise IllegalAction("there is nothing left to draw: the round is over, reveal the hands")
        card = deck.pop()
        self.drawn = card
        self.step = "decide"
        self.window = None
        seen = self.seen
        seen[card] = seen.get(card, 0) | 1 << players.index(player)  # _see(card, [player])
        return [_event("drew", {"player": player, "deck": len(self.deck)}),
                _event("drew_card", {"player": player, "card": dict(_JSON[card])}, (player,))]

    def _do_discard(self, player: str, action: Action) -> list[Event]:
        if len(action) != 1:
            self._shape(action)
        if not (self.phase == "play" and self.power is None and self.step == "decide"
                and player == self.players[self.turn]):
            self._need_turn(player, "decide", "discard")
        card = self._held()
        self.drawn = None
        events = [_event("discarded", {"player": player, "card": dict(_JSON[card]), "from": "drawn"})]
        return events + self._after_discard(player, card, drawn=True)

    def _do_swap(self, player: str, action: Action) -> list[Event]:
        if len(action) != 2 or "position" not in action:
            self._shape(action, "position")
        if not (self.phase == "play" and self.power is None and self.step == "decide"
                and player == self.players[self.turn]):
            self._need_turn(player, "decide", "swap")
        pos = self._own_slot(player, action["position"], "swap")
        old = self._card_at(player, pos)
        self.hands[player][pos] = self.drawn
        self.drawn = None
        events = [_event("swapped", {"player": player, "position": pos, "card": dict(_JSON[old])})]
        return events + self._after_discard(player, old, drawn=False)

    def _do_keep(self, player: str, action: Action) -> list[Event]:
        self._shape(action)
        self._need_turn(player, "decide", "keep the card")
        if self.options.variant != "aggressive":
            raise IllegalAction("only the aggressive rules let you keep the drawn card")
        if self._cards_of(player):
            raise IllegalAction("you may keep the drawn card only when your hand is empty")
        self.hands[player].append(self.drawn)
        pos = len(self.hands[player]) - 1
        self.drawn = None
        events = [_event("kept", {"player": player, "position": pos})]
        return events + self._end_turn()

    def _after_discard(self, player: str, card_id: str, *, drawn: bool) -> list[Event]:
        """A normal discard: it goes face up, opens a jump-in window and may give a power (§5–§7)."""
        self.discard.append(card_id)
        self.seen[card_id] = (1 << len(self.players)) - 1  # self._see(card_id, self.players): everyone
        number = self.discards = self.discards + 1
        rank, name = _RANKS[card_id], _NAMES[card_id]
        self.window = {"number": number, "rank": rank, "name": name, "taken": False}
        events = [_event("jump_in_window", {"discard": number, "rank": name})]
        # Aggressive: a J/Q/K drawn and discarded at once gives its power. Passive: any discarded J/Q/K (§6).
        if rank in POWERS and (drawn or self.options.variant != "aggressive"):
            self.power = {"player": player, "rank": rank, "left": POWERS[rank], "after": "advance"}
            events.append(_event("power", {"player": player, "rank": name, "actions": POWERS[rank]}))
            return events
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        """Pass the turn on (§5), counting down the last turns after a Dutch call (§9)."""
        self.step = "draw"
        players = self.players
        if self.final_turns is None:
            turn = self.turn = (self.turn + 1) % len(players)
        elif self.final_turns:
            turn = self.turn = players.index(self.final_turns.pop(0))
        else:
            self.ending = True
            turn = self.turn = (self.turn + 1) % len(players)
        current = players[turn]
        if self.phase == "play" and self.power is None and (self.ending or not self.deck):  # _due_to_end()
            return [_event("round_due", {"player": current, "why": "dutch" if self.ending else "deck"})]
        return [_event("turn", {"player": current, "round": self.round})]

    # -- powers (§6)

    def _need_power(self, player: str, rank_ok: tuple[int, ...], what: str) -> None:
        self._need_play(what)
        if self.power is None or self.power["player"] != player:
            raise IllegalAction(f"you cannot {what}: you have no power to use")
        if self.power["rank"] not in rank_ok:
            raise IllegalAction(f"you cannot {what} with a {_rank_name(Card(self.power['rank'], 'S'))}")

    def _power_used(self) -> list[Event]:
        power = self._pending_power()
        power["left"] -= 1
        if power["left"] > 0:
            return []
        return self._power_done()

    def _power_done(self) -> list[Event]:
        after = self._pending_power()["after"]
        self.power = None
        if after == "advance":
            return self._end_turn()
        return []

    def _do_power_look(self, player: str, action: Action) -> list[Event]:
        self._shape(action, "player", "position")
        self._need_power(player, (11, 13), "look at a card")
        q, i = action["player"], action["position"]
        hand = self.hands.get(q) if type(q) is str else None
        card = hand[i] if hand is not None and type(i) is int and 0 <= i < len(hand) else None
        if card is None:  # the checks of _any_slot(_pos(...)), for their messages
            q, i = self._any_slot(_pos({"player": q, "position": i}), "look there")
            card = self._card_at(q, i)
        seen = self.seen
        seen[card] = seen.get(card, 0) | 1 << self.players.index(player)  # self._see(card, [player])
        events = [_event("power_look", {"player": player, "owner": q, "position": i}),
                  _event("saw", {"player": player, "owner": q, "position": i, "why": "power",
                                "card": dict(_JSON[card])}, (player,))]
        return events + self._power_used()

    def _do_power_swap(self, player: str, action: Action) -> list[Event]:
        self._shape(action, "first", "second")
        self._need_power(player, (12, 13), "swap cards")
        a = self._any_slot(_pos(action["first"]), "swap that")
        b = self._any_slot(_pos(action["second"]), "swap that")
        index = self.players.index
        if not (index(a[0]), a[1]) < (index(b[0]), b[1]):
            raise IllegalAction("name two different cards, the first before the second in seat and position order")
        self.hands[a[0]][a[1]], self.hands[b[0]][b[1]] = self.hands[b[0]][b[1]], self.hands[a[0]][a[1]]
        events = [_event("power_swap", {"player": player, "first": {"player": a[0], "position": a[1]},
                                       "second": {"player": b[0], "position": b[1]}})]
        return events + self._power_used()

    def _do_skip_power(self, player: str, action: Action) -> list[Event]:
        self._shape(action)
        self._need_play("skip a power")
        if self.power is None or self.power["player"] != player:
            raise IllegalAction("you have no power to skip")
        return [_event("power_skipped", {"player": player})] + self._power_done()

    # -- jump-ins (§7)

    def _do_jump_in(self, player: str, action: Action) -> list[Event]:
        self._shape(action, "player", "position", "discard")
        self._need_play("jump in")
        if self.power is not None:
            raise IllegalAction(f"you cannot jump in now: {self.power['player']} is using a power first")
        if self.window is None or self.step != "draw":
            raise IllegalAction("you cannot jump in now: there is no discard to jump in on "
                                "(the window closes when the next player draws)")
        aggressive = self.options.variant == "aggressive"
        if type(action["discard"]) is not int or action["discard"] != self.window["number"]:
            raise IllegalAction(f"too late: discard {action['discard']!r} is no longer the one to jump in on "
                                f"(it is discard {self.window['number']} now)")
        late = aggressive and self.window["taken"]
        q, i = self._any_slot(_pos({"player": action["player"], "position": action["position"]}), "jump in")
        if q != player and not aggressive:
            raise IllegalAction("in the passive rules you may jump in only with your own cards")
        card_id = self._card_at(q, i)
        card = _card(card_id)
        right = card.rank == self.window["rank"]
        self.window["taken"] = True
        self._see(card_id, self.players)
        data = {"player": player, "owner": q, "position": i, "card": card.to_json(), "right": right,
                "discard": self.window["number"], "returned": False, "late": late}
        events: list[Event] = []
        if late and right:
            # §7.6: right, but someone was first: the card stays where it was, shown to all.
            data["returned"] = True
            events.append(_event("jump_in", data))
        elif right:
            self.hands[q][i] = None
            self.discard.append(card_id)
            events.append(_event("jump_in", data))
            if q != player:
                events += self._penalty(q, 2)
        elif q == player:
            self.hands[q][i] = None
            self.discard.append(card_id)
            events.append(_event("jump_in", data))
            events += self._penalty(player, 2)
        else:
            data["returned"] = True
            events.append(_event("jump_in", data))
            events += self._penalty(player, 1)
        if not aggressive and card.rank in POWERS and not data["returned"]:
            self.power = {"player": player, "rank": card.rank, "left": POWERS[card.rank], "after": "resume"}
            events.append(_event("power", {"player": player, "rank": _rank_name(card), "actions": POWERS[card.rank]}))
        return events

    def _penalty(self, player: str, count: int) -> list[Event]:
        """Draw *count* cards face down, unseen, into new slots (``docs/rules/dutch.md`` §7.3).

        When the deck holds fewer than *count* cards, the discard pile below its top card is first
        shuffled with the game's RNG into a new deck (a public ``reshuffled`` event), so a wrong
        jump-in always costs one more card in total. Only when even that cannot supply the cards
        (a discard pile of one card) does the player draw fewer.
        """
        events: list[Event] = []
        if len(self.deck) < count and len(self.discard) > 1:
            events.append(self._reshuffle())
        positions = []
        for _ in range(min(count, len(self.deck))):
            self.hands[player].append(self.deck.pop())
            positions.append(len(self.hands[player]) - 1)
        events.append(_event("penalty", {"player": player, "positions": positions, "owed": count,
                                        "deck": len(self.deck)}))
        return events

    def _reshuffle(self) -> Event:
        """Shuffle the discard pile, but its top card, under the deck (``docs/rules/dutch.md`` §7.3).

        The reshuffled cards are face down again: nobody's knowledge of them is kept.
        """
        top = self.discard[-1]
        cards = shuffled(self.discard[:-1], self.rng)
        for card_id in cards:
            self.seen.pop(card_id, None)
        self.deck = cards + self.deck
        self.discard = [top]
        return _event("reshuffled", {"deck": len(self.deck), "discard": 1})

    # -- the end of a round (§8, §9)

    def _do_dutch(self, player: str, action: Action) -> list[Event]:
        self._shape(action)
        if self.options.variant != "passive":
            raise IllegalAction("there is no Dutch call in the aggressive rules: play goes on to the end of the deck")
        self._need_play("call Dutch")
        if self.dutch is not None:
            raise IllegalAction(f"{self.dutch} has already called Dutch this round")
        if self._due_to_end():
            raise IllegalAction("the round is already over: reveal the hands")
        n = len(self.players)
        begun = self.step == "decide" or (self.power is not None and self.power["after"] == "advance")
        start = self.turn + 1 if begun else self.turn
        order = [self.players[(start + k) % n] for k in range(n)]
        order = [p for p in order if p != player]
        self.dutch = player
        events = [_event("dutch", {"player": player, "last_turns": list(order)})]
        if begun:
            self.final_turns = order
        elif self.current == player:
            # The caller's own turn, not begun: calling ends it; the others take their last turns.
            self.final_turns = order
            events += self._end_turn()
        else:
            # The player in turn has not begun: this turn is their last one.
            self.final_turns = order[1:]
        return events

    def _do_reveal(self, player: str, action: Action) -> list[Event]:
        self._shape(action)
        self._need_play("reveal the hands")
        if self.power is not None or player != self.current or not self._due_to_end():
            raise IllegalAction("the round is not over yet" if not self._due_to_end()
                                else f"it is {self.current} who turns the hands over")
        return self._score_round()

    def _score_round(self) -> list[Event]:
        """Turn the hands over and score (§8 aggressive, §9 passive)."""
        values = {p: self.hand_value(p) for p in self.players}
        low = min(values.values())
        caller = self.dutch
        modifiers = {p: 0 for p in self.players}
        outcome = None
        if caller is not None:
            others = [values[p] for p in self.players if p != caller]
            if values[caller] < min(others):
                outcome = "outright"
                modifiers[caller] = -15 if self.options.forgiving_scores else 0
            elif values[caller] == min(others):
                outcome = "tied"
                modifiers[caller] = 5 if self.options.forgiving_scores else self.options.undercut_penalty
            else:
                outcome = "undercut"
                modifiers[caller] = 10 if self.options.forgiving_scores else self.options.undercut_penalty
        scores = {p: values[p] + modifiers[p] for p in self.players}
        for p in self.players:
            self.seen_all(p)
        hands = {p: [None if c is None else dict(_JSON[c]) for c in self.hands[p]] for p in self.players}
        detail = {"round": self.round, "hands": hands, "values": values, "caller": caller, "outcome": outcome,
                  "modifiers": modifiers, "scores": scores, "why": "dutch" if self.ending else "deck",
                  "lowest": [p for p in self.players if values[p] == low]}
        self.window = None
        if self.options.variant == "aggressive":
            self.final_hands = values
            self._game_over()
            self.last_round = detail
            return [_event("round_over", detail), _event("game_over", {"winners": detail["lowest"], "scores": values})]
        for p in self.players:
            self.totals[p] += scores[p]
        self.round_scores.append(scores)
        detail["totals"] = dict(self.totals)
        self.last_round = detail
        events = [_event("round_over", detail)]
        if max(self.totals.values()) >= self.options.target:
            self._game_over()
            best = min(self.totals.values())
            events.append(_event("game_over", {"winners": [p for p in self.players if self.totals[p] == best],
                                              "scores": dict(self.totals)}))
        else:
            self.phase = "round_over"
        return events

    def _game_over(self) -> None:
        """End the game (phase ``"over"``) and drop the memos that only play needs, a power's actions and
        the jump-ins: finished games are often kept (the simulator's records keep them), and a power's
        memo holds up to a few thousand actions. A view of the finished game still uses its own memo.
        """
        self.phase = "over"
        self._power_memo = None
        self._jump_memo = None

    def seen_all(self, player: str) -> None:
        """Record that *player* has seen every card in the hands (the hands are turned over, §8)."""
        bit = 1 << self.players.index(player)
        seen = self.seen
        for hand in self.hands.values():
            for c in hand:
                if c is not None:
                    seen[c] = seen.get(c, 0) | bit

    def _do_next_round(self, player: str, action: Action) -> list[Event]:
        self._shape(action)
        if self.phase != "round_over":
            raise IllegalAction("the round is still being played" if self.phase in ("look", "play")
                                else "the game is over")
        self._deal()
        return [self._round_started()]

    # ------------------------------------------------------------------ view, end, result

    def view(self, player: str | None) -> dict[str, Any]:
        """What *player* may see (:meth:`Engine.view`; ``None``: a spectator), as a fresh dict.

        Every seat is asked after every move: the seat-independent part is built once per state
        (:meth:`_public_view`) and each view is a fresh top-level copy of it with its own ``"me"``
        and, for the player in turn, the face of the drawn card.

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        if player is not None and player not in self.players:
            self._check_player(player)
        public = self._public_view()
        view = public.copy()
        view["me"] = player
        drawn = public["drawn"]
        if drawn is not None and player == drawn["player"]:
            view["drawn"] = {"player": player, "card": dict(_JSON[self._held()])}
        return view

    def _view(self, player: str | None) -> dict[str, Any]:
        return self.view(player)

    def _public_view(self) -> dict[str, Any]:
        """The view as a spectator sees it, made once per state and shared by the views of that state.

        :attr:`_view_memo` holds the last one with a copy of everything it was made from; it is
        checked against the state itself (not a move counter), so a state changed from outside (a
        test staging a position) is never shown stale. A new one reuses the parts of the last one
        whose state did not change (the nested lists and dicts of views are read-only), a hand's
        part of the view included.
        """
        key = (self.step, self.turn, self.phase, self.window, self.drawn is None, self.power, len(self.deck),
               self.dutch, self.final_turns, self.ending, self.round, self.hands, self.looked, self.totals,
               self.round_scores, self.discard, self.players, self.options, self.last_round)
        memo = self._view_memo
        old: tuple[Any, ...] | None = None
        last: dict[str, Any] = {}
        if memo is not None:
            old, last = memo
            if old == key and old[18] is key[18]:
                return last
        (step, turn, phase, window, _, power, deck, dutch, final_turns, ending, round_, hands, looked, totals,
         round_scores, _, players, options, last_round) = key
        playing = phase == "play"
        revealed = phase == "round_over" or phase == "over"
        if (old is not None and old[16] == players
                and (old[2] == "round_over" or old[2] == "over") == revealed):
            old_hands: dict[str, list[str | None]] = old[11]
            if old_hands == hands:
                hands_json, hands = last["hands"], old_hands
            else:
                # Only the hands that changed get a new part (and a new copy in the memo).
                hands_json = list(last["hands"])
                copies = dict(old_hands)
                for k, p in enumerate(players):
                    h = hands[p]
                    if copies.get(p) != h:
                        hands_json[k] = self._hand_json(p, h, revealed)
                        copies[p] = list(h)
                hands = copies
        else:
            hands_json = [self._hand_json(p, hands[p], revealed) for p in players]
            hands = {p: list(h) for p, h in hands.items()}
        if old is not None and old[12] == looked:
            looked_json, looked = last["looked"], old[12]
        else:
            looked_json, looked = dict(looked), dict(looked)
        if old is not None and old[13] == totals and old[14] == round_scores:
            totals_json, round_scores_json, totals, round_scores = (last["totals"], last["round_scores"],
                                                                    old[13], old[14])
        else:
            totals_json, round_scores_json = dict(totals), [dict(r) for r in round_scores]
            totals, round_scores = dict(totals), [dict(r) for r in round_scores]
        if old is not None and old[16] == players and old[17] is options:
            players_json, options_json = last["players"], last["options"]
        else:
            o = options
            players_json = list(players)
            options_json = {"jokers": o.jokers or o.variant == "aggressive", "hand_size": o.hand_size,
                            "red_kings": o.red_kings, "peek_seconds": o.peek_seconds,
                            "jump_in_grace_seconds": o.jump_in_grace_seconds, "target": o.target,
                            "undercut_penalty": o.undercut_penalty, "forgiving_scores": o.forgiving_scores}
        current = players[turn]
        window_json: Any = None
        if window is not None:
            window_json = {"discard": window["number"], "rank": window["name"], "taken": window["taken"],
                           "open": playing and step == "draw" and power is None}
        public: dict[str, Any] = {
            "kind": self.kind,
            "me": None,
            "players": players_json,
            "variant": options.variant,
            "options": options_json,
            "round": round_,
            "phase": phase,
            "step": step if playing else None,
            "turn": current if playing else None,
            "looked": looked_json,
            "hands": hands_json,
            "deck": deck,
            "discard": self._discard_json(),
            "drawn": None if self.drawn is None else {"player": current},
            "power": None if power is None else {
                "player": power["player"], "rank": _RANK_NAMES[power["rank"]], "actions_left": power["left"]},
            "jump_in": window_json,
            "dutch": dutch,
            "last_turns": None if final_turns is None else list(final_turns),
            "due_to_end": playing and step == "draw" and power is None and (ending or not deck),
            "totals": totals_json,
            "round_scores": round_scores_json,
            "last_round": last_round if revealed else None,
        }
        self._view_memo = ((step, turn, phase, None if window is None else dict(window), key[4],
                            None if power is None else dict(power), deck, dutch,
                            None if final_turns is None else list(final_turns), ending, round_, hands, looked,
                            totals, round_scores, self._discard_memo[0] if self._discard_memo else list(self.discard),
                            players, options, last_round), public)
        return public

    @staticmethod
    def _hand_json(player: str, hand: list[str | None], revealed: bool) -> dict[str, Any]:
        """One hand as views show it: ``{"player", "slots", "cards"}``, faces only once *revealed*."""
        empty = hand.count(None)
        if revealed:
            slots: list[Any] = [None if c is None else dict(_JSON[c]) for c in hand]
        elif empty:
            slots = [None if c is None else "back" for c in hand]
        else:
            slots = ["back"] * len(hand)
        return {"player": player, "slots": slots, "cards": len(hand) - empty}

    def _discard_json(self) -> list[dict[str, Any]]:
        """The discard pile as card JSON, for views; grown from the last one when cards were added on top."""
        discard = self.discard
        memo = self._discard_memo
        if memo is not None:
            ids, cards = memo
            n = len(ids)
            m = len(discard)
            if m == n:
                if discard == ids:
                    return cards
            elif m > n and discard[:n] == ids:
                cards = cards + [dict(_JSON[c]) for c in discard[n:]]
                self._discard_memo = (list(discard), cards)
                return cards
        cards = [dict(_JSON[c]) for c in discard]
        self._discard_memo = (list(discard), cards)
        return cards

    def _is_over(self) -> bool:
        return self.phase == "over"

    def _result(self) -> Result:
        if self.options.variant == "aggressive":
            assert self.final_hands is not None  # set when the aggressive round is scored
            return Result.from_scores(self.final_hands, higher_is_better=False,
                                      detail={"variant": "aggressive", "rounds": 1})
        return Result.from_scores(self.totals, higher_is_better=False,
                                  detail={"variant": "passive", "rounds": self.round,
                                          "round_scores": self.round_scores})

    lowest_score_wins = True  # penalty points: the lowest total wins (§8.2, §9.6)

    def _standing(self) -> Result:
        """An unfinished game placed by the totals of the rounds scored so far, the lowest ahead
        (``docs/rules/dutch.md`` §9.7). The round being played does not count (its hands are face down).
        """
        return self._provisional({p: float(self.totals[p]) for p in self.players})

    def hidden_cards(self, player: str | None) -> set[str]:
        """Every face-down card's id, the owner's own included, plus the deck and another's drawn card (§2).

        Once the hands are turned over (between rounds, at the end) only the deck stays hidden.
        """
        hidden = set(self.deck)
        if self.phase not in ("round_over", "over"):
            hidden.update(c for hand in self.hands.values() for c in hand if c is not None)
        if self.drawn is not None and player != self.current:
            hidden.add(self.drawn)
        return hidden
