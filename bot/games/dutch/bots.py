"""Computer players for Dutch (``docs/rules/dutch.md`` §11).

Both bots read only their own view, their legal actions and the events they may see (delivered
through :meth:`~bot.engine.bots.Bot.observe`). What they know of the face-down cards is what they
have been shown: their memory maps a position ``(player, position)`` to the card seen there, and
follows every public move (swaps, jump-ins) that shifts cards around.

* :class:`PerfectBot` (``"perfect"``) remembers every card it has seen, swaps high cards out, uses
  its powers, jumps in only when sure and calls Dutch (passive) when its known total is low enough.
* :class:`AttentiveBot` (``"attentive"``) plays the same way but forgets each seen card with a
  smaller chance than the forgetful bot (0.15) and misses a blind swap now and then (0.1).
* :class:`ForgetfulBot` (``"forgetful"``) plays the same way but forgets each seen card with a chance
  and sometimes misses a blind swap, so its memory can be wrong: it jumps in wrongly now and then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from bot.engine.bots import Bot
from bot.engine.core import Action, Event

__all__ = ["PerfectBot", "AttentiveBot", "ForgetfulBot", "BOTS"]

_TYPE = itemgetter("type")
"""An action's type."""
_GAIN = itemgetter(0)
"""The gain of a ``(gain, action)`` option."""

_IDLE = frozenset({"jump_in", "dutch"})
"""Action types a bot may be offered out of its turn; of them it only ever chooses a jump-in."""

_OBSERVED = frozenset({"round_started", "saw", "drew_card", "swapped", "kept", "discarded", "power_swap",
                       "jump_in", "jump_in_window", "drew", "turn", "round_due", "power", "power_look", "power_skipped",
                       "penalty", "round_over", "game_over"})
"""The event types that change what a bot remembers or its record of whose move it is
(:meth:`PerfectBot.observe`); it skips the others."""

_RANK_OF_NAME: dict[str, int] = {"Joker": 0, "A": 1, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 11)}}
"""A rank name as events give it to the rank of a card's JSON (the inverse of :func:`rank_name`)."""

UNKNOWN_VALUE = 6
"""What a bot expects an unseen card to be worth (the deck averages a little over 6)."""

OPPONENT_GUESS = 2
"""What a bot fears an adversary's unseen card may be worth when it weighs a Dutch call (players keep
their low cards, so it guesses low; tuned with bench runs: fewer undercuts than guessing 0 or 3)."""


_RANK_NAMES: dict[Any, str] = {0: "Joker", 1: "A", 11: "J", 12: "Q", 13: "K"}
"""The ranks whose name is not their number (:func:`rank_name`)."""


def rank_name(card: dict[str, Any]) -> str:
    """The rank name of a card as a view/event shows it (``"A"``, ``"7"``, ``"K"``, ``"Joker"``).

    >>> rank_name({"rank": 13}), rank_name({"rank": 0}), rank_name({"rank": 7})
    ('K', 'Joker', '7')
    """
    rank = card["rank"]
    name = _RANK_NAMES.get(rank)
    return str(rank) if name is None else name


def value_of(card: dict[str, Any], red_kings: int) -> int:
    """The points of a card given as JSON (``docs/rules/dutch.md`` §3).

    >>> value_of({"rank": 13, "suit": "D"}, -3), value_of({"rank": 0, "suit": None}, 10)
    (-3, -1)
    """
    rank = card["rank"]
    if rank == 0:
        return -1
    if rank == 13:
        return red_kings if card["suit"] in ("H", "D") else 10
    if type(rank) is not int:
        rank = int(rank)
    return rank if rank < 10 else 10


class _Table:
    """What a bot keeps of the table between its views, to choose without one (:meth:`PerfectBot.choose_lazily`).

    Copied from a view (:meth:`from_view`) and kept up to date by the public events
    (:meth:`PerfectBot.observe`), it always equals what the next view would show of it.

    Attributes
    ----------
    red_kings:
        The value of a red King (the ``red_kings`` option).
    players:
        The players in seat order.
    slots:
        Player to the occupied positions of their hand, in increasing order (the view's hands in seat order).
    window:
        The jump-in window, ``[discard number, rank name, taken]``, or ``None`` (the view's ``jump_in``).
    """

    __slots__ = ("red_kings", "players", "slots", "window")

    def __init__(self, red_kings: int, players: tuple[str, ...], slots: dict[str, list[int]],
                 window: list[Any] | None) -> None:
        self.red_kings = red_kings
        self.players = players
        self.slots = slots
        self.window = window

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> _Table:
        """The table as *view* shows it (its own lists: the view's are shared and read-only)."""
        slots: dict[str, list[int]] = {}
        for hand in view["hands"]:
            if hand["player"] not in slots:
                slots[hand["player"]] = [i for i, s in enumerate(hand["slots"]) if s is not None]
        window = view.get("jump_in")
        return cls(view["options"]["red_kings"], tuple(view["players"]), slots,
                   None if not window else [window["discard"], window["rank"], bool(window.get("taken"))])


class PerfectBot(Bot):
    """The memory-perfect Dutch bot (see the module docstring).

    Class attributes ``forget_chance`` (chance to forget a card the moment it is seen) and
    ``miss_swap_chance`` (chance to miss a blind swap, leaving its memory stale) are 0 here.
    ``dutch_threshold`` is the known hand total at or under which it calls Dutch (if no adversary
    looks as low, see :data:`OPPONENT_GUESS`).

    Besides its memory of cards, the bot keeps a record of the table from the events: whose turn
    it is and whether a jump-in window is open (:meth:`is_idle`), and, once a round's first choice
    has shown it a view, the occupied positions and the window as that view showed them
    (:attr:`table`), so that :meth:`choose_lazily` chooses without asking for the view again.
    """

    name: ClassVar[str] = "perfect"
    forget_chance: ClassVar[float] = 0.0
    miss_swap_chance: ClassVar[float] = 0.0
    dutch_threshold: ClassVar[int] = 6

    window: tuple[int, str] | None = None
    """The last jump-in window it saw open: ``(discard number, rank name)`` (a class default, so that a
    bot pickled before it had one unpickles with ``None``)."""

    playing: bool = False
    """Whether a round is being played past the opening look, as the events it saw tell (a ``turn`` or
    ``round_due`` event since the last ``round_started``, and no ``round_over`` since): only then may
    :meth:`is_idle` answer ``True`` (a class default, so that a bot pickled before it had one waits for
    the next round's events)."""

    in_turn: str | None = None
    """The player in turn, named by the last ``turn`` or ``round_due`` event (while :attr:`playing`)."""

    power_left: int = 0
    """The actions left of a power this seat holds: set by a ``power`` event naming it, one less for each
    ``power_look`` or ``power_swap`` it makes, none after its ``power_skipped`` or the end of the round
    (a power ends when none is left, §6)."""

    live_window: tuple[int, int] | None = None
    """The jump-in window open now, ``(discard number, rank)``, as the events tell: set by its
    ``jump_in_window`` event, closed by the next ``drew`` (the next draw), the first jump-in on it (a
    taken window is never jumped in on again by this bot) and the end of the round."""

    table: _Table | None = None
    """The table as the round's first choice with a view showed it, kept up to date by the events since
    (``None`` until then: each ``round_started`` drops it, the hands being dealt anew)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memory: dict[tuple[str, int], dict[str, Any]] = {}
        self.drawn: dict[str, Any] | None = None

    # ---------------------------------------------------------------- memory

    def _remember(self, owner: str, position: int, card: dict[str, Any]) -> None:
        if self.forget_chance and self.rng.random() < self.forget_chance:
            self.memory.pop((owner, position), None)
            return
        self.memory[(owner, position)] = dict(card)

    def observe(self, events: Sequence[Event]) -> None:
        """Update the memory, and the record of the table, from the events this seat may see."""
        for event in events:
            kind = event.type
            if kind not in _OBSERVED:
                continue
            d = event.data
            if kind == "turn" or kind == "round_due":
                self.playing = True
                self.in_turn = d["player"]
            elif kind == "drew":
                self.live_window = None
                if self.table is not None:
                    self.table.window = None
            elif kind == "saw":
                self._remember(d["owner"], d["position"], d["card"])
            elif kind == "drew_card":
                self.drawn = dict(d["card"])
            elif kind == "discarded":
                if d["player"] == self.player:
                    self.drawn = None
            elif kind == "jump_in_window":
                self.window = (d["discard"], d["rank"])
                self.live_window = (d["discard"], _RANK_OF_NAME[d["rank"]])
                if self.table is not None:
                    self.table.window = [d["discard"], d["rank"], False]
            elif kind == "swapped":
                if d["player"] == self.player and self.drawn is not None:
                    self._remember(self.player, d["position"], self.drawn)
                else:
                    self.memory.pop((d["player"], d["position"]), None)
                if d["player"] == self.player:
                    self.drawn = None
            elif kind == "power" or kind == "power_look" or kind == "power_skipped":
                if d["player"] == self.player:
                    self.power_left = d["actions"] if kind == "power" else (
                        self.power_left - 1 if kind == "power_look" else 0)
            elif kind == "power_swap":
                if d["player"] == self.player:
                    self.power_left -= 1
                if self.miss_swap_chance and self.rng.random() < self.miss_swap_chance:
                    continue
                a = (d["first"]["player"], d["first"]["position"])
                b = (d["second"]["player"], d["second"]["position"])
                ca, cb = self.memory.pop(a, None), self.memory.pop(b, None)
                if ca is not None:
                    self.memory[b] = ca
                if cb is not None:
                    self.memory[a] = cb
            elif kind == "jump_in":
                live = self.live_window
                if live is not None and live[0] == d["discard"]:
                    self.live_window = None  # taken: no sure jump-in on it any more (_sure_jump_in)
                spot = (d["owner"], d["position"])
                table = self.table
                if table is not None:
                    if table.window is not None and table.window[0] == d["discard"]:
                        table.window[2] = True
                    if not d["returned"]:
                        table.slots[d["owner"]].remove(d["position"])
                if d["returned"]:
                    self._remember(*spot, d["card"])
                else:
                    self.memory.pop(spot, None)
            elif kind == "penalty":
                if self.table is not None:
                    self.table.slots[d["player"]].extend(d["positions"])
            elif kind == "kept":
                if self.table is not None:
                    self.table.slots[d["player"]].append(d["position"])
                if d["player"] == self.player and self.drawn is not None:
                    self._remember(self.player, d["position"], self.drawn)
                    self.drawn = None
            elif kind == "round_over" or kind == "game_over":
                self.playing = False
                self.power_left = 0
                self.live_window = None
                if self.table is not None:
                    self.table.window = None
            elif kind == "round_started":
                self.memory.clear()
                self.drawn = None
                self.playing = False
                self.in_turn = None
                self.power_left = 0
                self.live_window = None
                self.table = None

    # ---------------------------------------------------------------- helpers

    def _own(self, table: _Table) -> tuple[dict[int, int], list[int]]:
        """My known positions -> value, and my unknown positions."""
        known: dict[int, int] = {}
        unknown: list[int] = []
        memory, me, red_kings = self.memory, self.player, table.red_kings
        for i in table.slots.get(me, ()):
            card = memory.get((me, i))
            if card is None:
                unknown.append(i)
            else:
                known[i] = value_of(card, red_kings)
        return known, unknown

    def _estimate(self, table: _Table) -> tuple[int, int]:
        known, unknown = self._own(table)
        return sum(known.values()) + UNKNOWN_VALUE * len(unknown), len(unknown)

    @staticmethod
    def _spot(player: str, position: int) -> dict[str, Any]:
        return {"player": player, "position": position}

    # ---------------------------------------------------------------- choices

    def is_idle(self) -> bool:
        """Whether the events say this seat has nothing to choose now (:meth:`Bot.is_idle
        <bot.engine.bots.Bot.is_idle>`): a round is in play, another player is in turn, this seat holds
        no power and no jump-in window is open (or it remembers no card of the window's rank anywhere).

        Out of turn a seat may only jump in or call Dutch (``docs/rules/dutch.md`` §7, §9); the bot never
        calls out of turn and jumps in only with a remembered card of the discard's rank while the window
        is untaken, so it would choose nothing whatever the view.
        """
        if not self.playing or self.power_left > 0 or self.in_turn == self.player:
            return False
        live = self.live_window
        if live is None:
            return True
        rank = live[1]
        for card in self.memory.values():
            if card["rank"] == rank:
                return False
        return True

    def chooses_nothing(self, legal: Sequence[Action]) -> bool:
        """Whether *legal* holds only a Dutch call and jump-ins none of which it is sure of: the bot then
        waits, as :meth:`choose` would (it never calls Dutch out of turn, and jumps in only with a card
        it remembers of the rank of the discard, which it knows from the window's event).
        """
        memory, window = self.memory, self.window
        for action in legal:
            kind = action["type"]
            if kind == "jump_in":
                card = memory.get((action["player"], action["position"]))
                if card is not None and (window is None or window[0] != action["discard"]
                                         or rank_name(card) == window[1]):
                    return False
            elif kind != "dutch":
                return False
        return True

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Pick a move: opening look, turn, power, a sure jump-in, a Dutch call or nothing.

        A choice in turn (anything but waiting out of turn) also records the table from *view* when the
        round has no record yet (:attr:`table`), for :meth:`choose_lazily`.
        """
        if len(legal) == 1 and legal[0]["type"] == "dutch":
            return None  # the commonest ask out of turn: only the Dutch call, never chosen out of turn
        types = set(map(_TYPE, legal))
        if types <= _IDLE:  # the usual ask out of turn: at most a jump-in (nothing else is chosen here)
            if "jump_in" not in types:
                return None
            window = view.get("jump_in")
            return self._sure_jump_in(None if not window else [window["discard"], window["rank"],
                                                               bool(window.get("taken"))],
                                      view["options"]["red_kings"], legal)
        table = _Table.from_view(view)
        if self.table is None:
            self.table = table  # its own lists, never changed by a choice
        drawn = (view.get("drawn") or {}).get("card") or self.drawn
        return self._choose(table, legal, types, drawn)

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """:meth:`choose`'s answer, asking for the view only when the round has no record of the table
        yet (:attr:`table`, which equals what the view would show of it).
        """
        if self.chooses_nothing(legal):
            return None
        table = self.table
        if table is None:
            return self.choose(view(), legal)
        types = set(map(_TYPE, legal))
        if types <= _IDLE:
            return self._sure_jump_in(table.window, table.red_kings, legal) if "jump_in" in types else None
        return self._choose(table, legal, types, self.drawn)

    def _choose(self, table: _Table, legal: Sequence[Action], types: set[str],
                drawn: dict[str, Any] | None) -> Action | None:
        """The choice in turn (not only waiting): *drawn* is the card held, if any."""
        if "look" in types:
            return _first(legal, "look")
        if "next_round" in types:
            return _first(legal, "next_round") if table.players[0] == self.player else None
        if "skip_power" in types:
            return self._use_power(table, types)
        if "jump_in" in types:
            jump = self._sure_jump_in(table.window, table.red_kings, legal)
            if jump is not None:
                return jump
        if "reveal" in types:
            return _first(legal, "reveal")
        if "draw" in types:
            if "dutch" in types and self._should_call(table):
                return {"type": "dutch"}
            return _first(legal, "draw")
        if "discard" in types:
            return self._decide(table, legal, types, drawn)
        return None

    def _should_call(self, table: _Table) -> bool:
        """Call when the whole hand is known, totals at most the threshold and beats every guess
        of an adversary's hand (known cards at their value, unknown ones at ``OPPONENT_GUESS``).
        """
        memory, red_kings, me = self.memory, table.red_kings, self.player
        estimate = 0
        for i in table.slots.get(me, ()):  # self._estimate(table), stopping at the first unknown card
            card = memory.get((me, i))
            if card is None:
                return False
            estimate += value_of(card, red_kings)
        if estimate > self.dutch_threshold:
            return False
        for owner, positions in table.slots.items():
            if owner == me:
                continue
            guess = 0
            for i in positions:
                card = memory.get((owner, i))
                guess += OPPONENT_GUESS if card is None else value_of(card, red_kings)
            if guess <= estimate:
                return False
        return True

    def _sure_jump_in(self, window: list[Any] | None, red_kings: int, legal: Sequence[Action]) -> Action | None:
        """The best of the jump-ins in *legal* that the memory is sure of, or ``None``; *window* is
        ``[discard number, rank name, taken]``, or ``None``.
        """
        if not window or window[2]:
            return None  # a late jump-in only shows the card to everyone (docs/rules/dutch.md §7.6)
        best: tuple[tuple[int, float], Action] | None = None
        memory = self.memory
        rank = window[1]
        for action in legal:
            if action["type"] != "jump_in":
                continue
            card = memory.get((action["player"], action["position"]))
            if card is None:
                continue
            name = _RANK_NAMES.get(card["rank"])  # rank_name(card), inlined
            if (str(card["rank"]) if name is None else name) != rank:
                continue
            own = action["player"] == self.player
            value = value_of(card, red_kings)
            if own and value <= 0:
                continue  # a Joker or a low red King is better kept
            score = (value + 10 if own else 1, self.rng.random())  # ties at random, not by seat
            if best is None or score > best[0]:
                best = (score, action)
        return None if best is None else best[1]

    def _decide(self, table: _Table, legal: Sequence[Action], types: set[str],
                drawn: dict[str, Any] | None) -> Action:
        assert drawn is not None, "deciding without a drawn card"
        v = value_of(drawn, table.red_kings)
        known, unknown = self._own(table)
        options: list[tuple[int, Action]] = []
        if known:
            i = max(known, key=known.__getitem__)
            options.append((known[i] - v, {"type": "swap", "position": i}))
        if unknown and v <= 4:
            options.append((UNKNOWN_VALUE - v, {"type": "swap", "position": unknown[0]}))
        if options:
            gain, action = max(options, key=_GAIN)
            if gain > 0:
                return action
        if "keep" in types and v <= 0:
            return _first(legal, "keep")
        return _first(legal, "discard")

    def _use_power(self, table: _Table, kinds: set[str]) -> Action:
        if "power_swap" in kinds:
            swap = self._best_swap(table)
            if swap is not None:
                return swap
        if "power_look" in kinds:
            _, unknown = self._own(table)
            if unknown:
                return {"type": "power_look", "player": self.player, "position": unknown[0]}
            others = [(p, i) for p in table.players if p != self.player for i in table.slots.get(p, ())
                      if (p, i) not in self.memory]
            if others:
                p, i = others[self.rng.randrange(len(others))]
                return {"type": "power_look", "player": p, "position": i}
        return {"type": "skip_power"}

    def _best_swap(self, table: _Table) -> Action | None:
        known, unknown = self._own(table)
        mine = [(i, known[i]) for i in known] + [(i, UNKNOWN_VALUE) for i in unknown]
        players = table.players
        order = {p: k for k, p in enumerate(players)}
        slots = {p: table.slots.get(p, []) for p in players}
        red_kings = table.red_kings
        memory, me = self.memory, self.player
        # An adversary's card as (player, position, its value plus 1 when unseen, seen).
        theirs: list[tuple[str, int, int, bool]] = []
        for p in players:
            if p == me:
                continue
            for i in slots[p]:
                card = memory.get((p, i))
                theirs.append((p, i, UNKNOWN_VALUE + 1, False) if card is None else
                              (p, i, value_of(card, red_kings), True))
        seen_theirs = [t for t in theirs if t[3]]
        counts = {p: len(s) for p, s in slots.items()}
        best: tuple[tuple[int, int, float], Action] | None = None
        random = self.rng.random
        for i, mv in mine:  # every (mine, theirs) pair in order, as itertools.product would
            seen = i in known
            # The gain of a swap: my card's value less theirs, less 1 for giving away an unseen card
            # (a gamble) and 1 for taking an unseen one; two unknowns gain nothing. Worth it from 2.
            mine_value = mv if seen else mv - 1
            most = mine_value - 2  # worth it from a gain of 2: their value at most this
            for p, j, tv, _ in [t for t in (theirs if seen else seen_theirs) if t[2] <= most]:
                gain = mine_value - tv
                # Among equal gains, burden the adversary with the fewest cards (the likeliest to go
                # low), then pick at random: never by seat order, which would pick on one seat.
                key = (gain, -counts[p], random())
                if best is None or key > best[0]:
                    a, b = (self.player, i), (p, j)
                    if (order[a[0]], a[1]) > (order[b[0]], b[1]):
                        a, b = b, a
                    best = (key, {"type": "power_swap", "first": self._spot(*a), "second": self._spot(*b)})
        return None if best is None else best[1]


def _first(legal: Sequence[Action], kind: str) -> Action:
    """The first action of type *kind* in *legal* (the caller knows there is one)."""
    for action in legal:
        if action["type"] == kind:
            return action
    raise LookupError(f"no {kind!r} action")  # pragma: no cover - callers checked


class AttentiveBot(PerfectBot):
    """Normal strength: a Dutch bot whose memory slips now and then. It forgets each seen card with
    chance 0.15 and misses a blind swap with chance 0.1; it calls Dutch at 7 or less (passive).
    """

    name: ClassVar[str] = "attentive"
    forget_chance: ClassVar[float] = 0.15
    miss_swap_chance: ClassVar[float] = 0.1
    dutch_threshold: ClassVar[int] = 7


class ForgetfulBot(PerfectBot):
    """A Dutch bot with a fallible memory: it forgets each seen card with chance 0.3 and misses a
    blind swap with chance 0.2 (its memory then goes stale and it may jump in wrongly).
    """

    name: ClassVar[str] = "forgetful"
    forget_chance: ClassVar[float] = 0.3
    miss_swap_chance: ClassVar[float] = 0.2
    dutch_threshold: ClassVar[int] = 7


BOTS: dict[str, type[Bot]] = {"perfect": PerfectBot, "attentive": AttentiveBot, "forgetful": ForgetfulBot}
"""The Dutch bots by kind, strongest first; ``dutch.GAME.strengths`` names the easy, normal and hard ones."""
