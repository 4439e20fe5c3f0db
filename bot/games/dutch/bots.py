"""Computer players for Dutch (``docs/rules/dutch.md`` §11).

Both bots read only their own view, their legal actions and the events they may see (delivered
through :meth:`~bot.engine.bots.Bot.observe`). What they know of the face-down cards is what they
have been shown: their memory maps a position ``(player, position)`` to the card seen there, and
follows every public move (swaps, jump-ins) that shifts cards around.

* :class:`PerfectBot` (``"perfect"``) remembers every card it has seen, swaps high cards out, uses
  its powers, jumps in only when sure and calls Dutch (passive) when its known total is low enough.
* :class:`ForgetfulBot` (``"forgetful"``) plays the same way but forgets each seen card with a chance
  and sometimes misses a blind swap, so its memory can be wrong: it jumps in wrongly now and then.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, ClassVar

from bot.engine.bots import Bot
from bot.engine.core import Action, Event

__all__ = ["PerfectBot", "ForgetfulBot", "BOTS"]

_TYPE = itemgetter("type")
"""An action's type."""
_GAIN = itemgetter(0)
"""The gain of a ``(gain, action)`` option."""

_IDLE = frozenset({"jump_in", "dutch"})
"""Action types a bot may be offered out of its turn; of them it only ever chooses a jump-in."""

_OBSERVED = frozenset({"round_started", "saw", "drew_card", "swapped", "kept", "discarded", "power_swap",
                       "jump_in", "jump_in_window"})
"""The event types that change what a bot remembers (:meth:`PerfectBot.observe`); it skips the others."""

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
    if card["rank"] == 0:
        return -1
    if card["rank"] == 13 and card["suit"] in ("H", "D"):
        return red_kings
    return min(int(card["rank"]), 10)


class PerfectBot(Bot):
    """The memory-perfect Dutch bot (see the module docstring).

    Class attributes ``forget_chance`` (chance to forget a card the moment it is seen) and
    ``miss_swap_chance`` (chance to miss a blind swap, leaving its memory stale) are 0 here.
    ``dutch_threshold`` is the known hand total at or under which it calls Dutch (if no adversary
    looks as low, see :data:`OPPONENT_GUESS`).
    """

    name: ClassVar[str] = "perfect"
    forget_chance: ClassVar[float] = 0.0
    miss_swap_chance: ClassVar[float] = 0.0
    dutch_threshold: ClassVar[int] = 6

    window: tuple[int, str] | None = None
    """The last jump-in window it saw open: ``(discard number, rank name)`` (a class default, so that a
    bot pickled before it had one unpickles with ``None``)."""

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
        """Update the memory from the events this seat may see."""
        for event in events:
            if event.type not in _OBSERVED:
                continue
            d = event.data
            if event.type == "round_started":
                self.memory.clear()
                self.drawn = None
            elif event.type == "saw":
                self._remember(d["owner"], d["position"], d["card"])
            elif event.type == "drew_card":
                self.drawn = dict(d["card"])
            elif event.type == "swapped":
                if d["player"] == self.player and self.drawn is not None:
                    self._remember(self.player, d["position"], self.drawn)
                else:
                    self.memory.pop((d["player"], d["position"]), None)
                if d["player"] == self.player:
                    self.drawn = None
            elif event.type == "kept":
                if d["player"] == self.player and self.drawn is not None:
                    self._remember(self.player, d["position"], self.drawn)
                    self.drawn = None
            elif event.type == "discarded":
                if d["player"] == self.player:
                    self.drawn = None
            elif event.type == "power_swap":
                if self.miss_swap_chance and self.rng.random() < self.miss_swap_chance:
                    continue
                a = (d["first"]["player"], d["first"]["position"])
                b = (d["second"]["player"], d["second"]["position"])
                ca, cb = self.memory.pop(a, None), self.memory.pop(b, None)
                if ca is not None:
                    self.memory[b] = ca
                if cb is not None:
                    self.memory[a] = cb
            elif event.type == "jump_in_window":
                self.window = (d["discard"], d["rank"])
            elif event.type == "jump_in":
                spot = (d["owner"], d["position"])
                if d["returned"]:
                    self._remember(*spot, d["card"])
                else:
                    self.memory.pop(spot, None)

    # ---------------------------------------------------------------- helpers

    def _value(self, view: dict[str, Any], card: dict[str, Any]) -> int:
        return value_of(card, view["options"]["red_kings"])

    def _slots(self, view: dict[str, Any], player: str) -> list[int]:
        for hand in view["hands"]:
            if hand["player"] == player:
                return [i for i, s in enumerate(hand["slots"]) if s is not None]
        return []

    def _own(self, view: dict[str, Any]) -> tuple[dict[int, int], list[int]]:
        """My known positions -> value, and my unknown positions."""
        known: dict[int, int] = {}
        unknown: list[int] = []
        memory, me, red_kings = self.memory, self.player, view["options"]["red_kings"]
        for hand in view["hands"]:  # self._slots(view, me), inlined
            if hand["player"] == me:
                for i, slot in enumerate(hand["slots"]):
                    if slot is not None:
                        card = memory.get((me, i))
                        if card is None:
                            unknown.append(i)
                        else:
                            known[i] = value_of(card, red_kings)
                break
        return known, unknown

    def _estimate(self, view: dict[str, Any]) -> tuple[int, int]:
        known, unknown = self._own(view)
        return sum(known.values()) + UNKNOWN_VALUE * len(unknown), len(unknown)

    @staticmethod
    def _spot(player: str, position: int) -> dict[str, Any]:
        return {"player": player, "position": position}

    # ---------------------------------------------------------------- choices

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
        """Pick a move: opening look, turn, power, a sure jump-in, a Dutch call or nothing."""
        if len(legal) == 1 and legal[0]["type"] == "dutch":
            return None  # the commonest ask out of turn: only the Dutch call, never chosen out of turn
        types = set(map(_TYPE, legal))
        if types <= _IDLE:  # the usual ask out of turn: at most a jump-in (nothing else is chosen here)
            return self._sure_jump_in(view, legal) if "jump_in" in types else None
        if "look" in types:
            return _first(legal, "look")
        if "next_round" in types:
            return _first(legal, "next_round") if view["players"][0] == self.player else None
        if "skip_power" in types:
            return self._use_power(view, legal, types)
        if "jump_in" in types:
            jump = self._sure_jump_in(view, legal)
            if jump is not None:
                return jump
        if "reveal" in types:
            return _first(legal, "reveal")
        if "draw" in types:
            if "dutch" in types and self._should_call(view):
                return {"type": "dutch"}
            return _first(legal, "draw")
        if "discard" in types:
            return self._decide(view, legal, types)
        return None

    def _should_call(self, view: dict[str, Any]) -> bool:
        """Call when the whole hand is known, totals at most the threshold and beats every guess
        of an adversary's hand (known cards at their value, unknown ones at ``OPPONENT_GUESS``).
        """
        estimate, unknown = self._estimate(view)
        if unknown or estimate > self.dutch_threshold:
            return False
        memory, red_kings = self.memory, view["options"]["red_kings"]
        for hand in view["hands"]:
            owner = hand["player"]
            if owner == self.player:
                continue
            guess = 0
            for i, slot in enumerate(hand["slots"]):
                if slot is not None:
                    card = memory.get((owner, i))
                    guess += OPPONENT_GUESS if card is None else value_of(card, red_kings)
            if guess <= estimate:
                return False
        return True

    def _sure_jump_in(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """The best of the jump-ins in *legal* that the memory is sure of, or ``None``."""
        window = view.get("jump_in")
        if not window or window.get("taken"):
            return None  # a late jump-in only shows the card to everyone (docs/rules/dutch.md §7.6)
        best: tuple[tuple[int, float], Action] | None = None
        memory = self.memory
        rank = window["rank"]
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
            value = self._value(view, card)
            if own and value <= 0:
                continue  # a Joker or a low red King is better kept
            score = (value + 10 if own else 1, self.rng.random())  # ties at random, not by seat
            if best is None or score > best[0]:
                best = (score, action)
        return None if best is None else best[1]

    def _decide(self, view: dict[str, Any], legal: Sequence[Action], types: set[str]) -> Action:
        drawn = (view.get("drawn") or {}).get("card") or self.drawn
        assert drawn is not None, "deciding without a drawn card"
        v = self._value(view, drawn)
        known, unknown = self._own(view)
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

    def _use_power(self, view: dict[str, Any], legal: Sequence[Action], kinds: set[str]) -> Action:
        order = {p: k for k, p in enumerate(view["players"])}
        if "power_swap" in kinds:
            swap = self._best_swap(view, order)
            if swap is not None:
                return swap
        if "power_look" in kinds:
            _, unknown = self._own(view)
            if unknown:
                return {"type": "power_look", "player": self.player, "position": unknown[0]}
            others = [(p, i) for p in view["players"] if p != self.player for i in self._slots(view, p)
                      if (p, i) not in self.memory]
            if others:
                p, i = others[self.rng.randrange(len(others))]
                return {"type": "power_look", "player": p, "position": i}
        return {"type": "skip_power"}

    def _best_swap(self, view: dict[str, Any], order: dict[str, int]) -> Action | None:
        known, unknown = self._own(view)
        mine = [(i, known[i]) for i in known] + [(i, UNKNOWN_VALUE) for i in unknown]
        players = view["players"]
        found: dict[str, list[int]] = {}  # self._slots(view, p) for every p, in one pass over the hands
        for hand in view["hands"]:
            if hand["player"] not in found:
                found[hand["player"]] = [i for i, s in enumerate(hand["slots"]) if s is not None]
        slots = {p: found.get(p, []) for p in players}
        red_kings = view["options"]["red_kings"]
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


class ForgetfulBot(PerfectBot):
    """A Dutch bot with a fallible memory: it forgets each seen card with chance 0.3 and misses a
    blind swap with chance 0.2 (its memory then goes stale and it may jump in wrongly).
    """

    name: ClassVar[str] = "forgetful"
    forget_chance: ClassVar[float] = 0.3
    miss_swap_chance: ClassVar[float] = 0.2
    dutch_threshold: ClassVar[int] = 7


BOTS: dict[str, type[Bot]] = {"perfect": PerfectBot, "forgetful": ForgetfulBot}
"""The Dutch bots by name; the first is the default."""
