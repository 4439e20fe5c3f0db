"""The Dutch Blitz engine (kind ``dutch-blitz``); the rules are ``docs/rules/dutch-blitz.md``.

Everyone plays at once. The engine has no turns: every seated player may act at any time during
a hand, and the table hands the engine the actions of different players one at a time, in the
order its race arbiter settles (``docs/design.md`` §4). A move
that no longer fits when its turn to be applied comes (another player got there first) is an
:class:`~bot.engine.core.IllegalAction` whose reason says what changed, and the card stays where
it was.

See the package docstring (:mod:`bot.games.dutch_blitz`) for the action shapes.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

from bot.engine.cards import BlitzCard, blitz_deck, shuffled
from bot.engine.core import SIMULTANEOUS, Action, Engine, Event, IllegalAction, Result, TimedRule
from bot.games.dutch_blitz.options import DutchBlitzOptions

__all__ = ["DutchBlitz", "Seat", "PLAY", "BETWEEN", "OVER", "BLITZ_SIZE", "post_pile_count"]

PLAY = "play"
"""Phase: a hand is being played."""
BETWEEN = "between"
"""Phase: a hand has been scored and the table waits for every player's ``ready``."""
OVER = "over"
"""Phase: the game has ended."""

BLITZ_SIZE = 10
"""Cards dealt to each Blitz pile (``docs/rules/dutch-blitz.md`` §1)."""


def post_pile_count(players: int) -> int:
    """Post piles per player: 5 with two players, 3 with three to eight (``docs/rules/dutch-blitz.md`` §1)."""
    return 5 if players == 2 else 3


class Seat:
    """One player's cards during a hand.

    Every list is ordered bottom to top: ``[-1]`` is the top (the playable card) of the Blitz
    pile, of each Post pile and of the Wood pile. The hand is face down and ``hand[0]`` is its
    top, the next card a flip turns over.

    Attributes
    ----------
    blitz:
        The Blitz pile.
    posts:
        The Post piles (5 or 3), each a descending, boy/girl alternating run.
    wood:
        The Wood pile.
    hand:
        The face-down cards in hand.
    turnovers:
        How often the Wood pile has been turned back over as the hand in this hand of play.
    """

    __slots__ = ("blitz", "posts", "wood", "hand", "turnovers")

    def __init__(self, blitz: list[BlitzCard], posts: list[list[BlitzCard]], wood: list[BlitzCard],
                 hand: list[BlitzCard]) -> None:
        self.blitz = blitz
        self.posts = posts
        self.wood = wood
        self.hand = hand
        self.turnovers = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seat):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in self.__slots__)

    def __deepcopy__(self, memo: dict[int, Any]) -> Seat:
        # Cards are immutable; copying the lists is a full deep copy.
        seat = Seat(list(self.blitz), [list(p) for p in self.posts], list(self.wood), list(self.hand))
        seat.turnovers = self.turnovers
        return seat

    def cards(self) -> list[BlitzCard]:
        """Every card of this seat outside the Dutch piles."""
        return [*self.blitz, *(c for p in self.posts for c in p), *self.wood, *self.hand]

    def visible(self) -> list[tuple[str, BlitzCard]]:
        """The playable tops as ``(source, card)``: ``"blitz"``, ``"post:<i>"``, ``"wood"``."""
        out: list[tuple[str, BlitzCard]] = []
        if self.blitz:
            out.append(("blitz", self.blitz[-1]))
        for i, pile in enumerate(self.posts):
            if pile:
                out.append((f"post:{i}", pile[-1]))
        if self.wood:
            out.append(("wood", self.wood[-1]))
        return out


class _Cards(list[list[BlitzCard]]):
    """A list of Dutch piles (lists of immutable cards) that deep-copies by copying the lists only.

    Cards are frozen, so this is a full deep copy, without ``copy.deepcopy`` rebuilding each
    card (that made :meth:`~bot.engine.core.Engine.snapshot` slow).
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cards:
        return _Cards(list(pile) for pile in self)


class _ActionLog(list[tuple[str, Action]]):
    """The engine core's accepted-action log, deep-copied as a new list of the same entries.

    Logged actions are canonical JSON data that nothing mutates (``Engine.log`` hands out deep
    copies), so sharing the entries is safe. Without this, every ``snapshot()`` and clone copied
    the whole log, which made the conformance suite quadratic in the length of a game.
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _ActionLog:
        return _ActionLog(self)


_DECKS: dict[int, tuple[BlitzCard, ...]] = {}
"""Seat index to its deck in :func:`~bot.engine.cards.blitz_deck` order, made once per process.

Cards are immutable, so every deal shuffles a copy of the same card objects: the same order as
shuffling a new deck, without building 40 cards per seat and hand."""

_JSON_BY_ID: dict[int, tuple[BlitzCard, dict[str, Any]]] = {}
"""``id(card)`` to ``(card, card.to_json())`` for the cards of :data:`_DECKS` (kept alive there, so
an id is never reused by another card)."""

_JSON_BY_KEY: dict[tuple[int, str, int], dict[str, Any]] = {}
"""``(owner, colour, value)`` to ``to_json()`` for any other card (built by a test, unpickled)."""

_BOYS = frozenset({"red", "blue"})
"""The boy colours (``BlitzCard.is_boy``; ``docs/rules/dutch-blitz.md`` §1)."""

_POST_NAMES = tuple(f"post:{i}" for i in range(16))
"""``"post:<i>"`` for the Post pile indexes a seat can have (5 at most; a few spare)."""

_POST_INDEX = {name: i for i, name in enumerate(_POST_NAMES)}
"""``"post:<i>"`` to ``i``: the fast path of :meth:`DutchBlitz._post_index`."""

_PARTS = attrgetter("blitz", "posts", "wood", "hand")
"""A seat's piles as one tuple, compared with the copy a memo was made from (at C speed)."""

_KEYS_TYPE = frozenset({"type"})
_KEYS_DUTCH = frozenset({"type", "from", "pile"})
_KEYS_MOVE = frozenset({"type", "from", "to"})


def _deck(owner: int) -> list[BlitzCard]:
    """A new list of seat *owner*'s 40 cards in :func:`~bot.engine.cards.blitz_deck` order (§1)."""
    deck = _DECKS.get(owner)
    if deck is None:
        deck = _DECKS[owner] = tuple(blitz_deck(owner))
        for card in deck:
            _JSON_BY_ID[id(card)] = (card, card.to_json())
    return list(deck)


def _card_json(card: BlitzCard) -> dict[str, Any]:
    """``card.to_json()``, memoised (cards are immutable); each call returns a fresh dict."""
    hit = _JSON_BY_ID.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1].copy()
    key = (card.owner, card.colour, card.value)
    cached = _JSON_BY_KEY.get(key)
    if cached is None:
        cached = _JSON_BY_KEY[key] = card.to_json()
    return cached.copy()


_Top = tuple[str, int, tuple[str, int], bool]
"""A playable top card as the memos keep it: ``(source, value, (colour, value), is_boy)``."""


def _top(source: str, card: BlitzCard) -> _Top:
    colour, value = card.colour, card.value
    return (source, value, (colour, value), colour in _BOYS)


def _post_name(index: int) -> str:
    return _POST_NAMES[index] if index < len(_POST_NAMES) else f"post:{index}"


class _SeatMemo:
    """What the legal actions and the view of one seat derive from its piles, made from a copy of
    them (:attr:`parts`); valid for as long as the seat's piles equal that copy.

    The seat's own moves are kept in two parts, so that a flip or a Wood-pile play (most moves)
    rebuilds only the Wood pile's: the *head* (from the Blitz pile and the Post piles, valid while
    the Blitz top and the Post piles are the same) and the Wood pile's.

    Attributes
    ----------
    parts:
        Copies of ``(blitz, posts, wood, hand)`` (each Post pile copied too).
    blitz_top, tops, stacks:
        The Blitz pile's top (or ``None``); ``(name, value, is_boy)`` of each Post pile's top; the
        ``stack`` actions (§5), which depend on the Post piles alone.
    head_visible, head_own:
        ``(source, value, (colour, value), is_boy)`` of the playable Blitz and Post tops, in
        ``Seat.visible()`` order, and their ``post`` actions (§4).
    wood_visible, wood_own:
        The same for the Wood pile's top (``None`` and ``[]`` when it is empty).
    own:
        The ``post``, ``stack`` and ``flip`` actions, in the order ``_moves`` lists them.
    tail_free, tail_busy:
        What follows the Dutch-pile plays in the legal actions when there are none (``shift``
        when the Wood pile has cards, §7) and when there are some; both end with ``end_hand``
        when the stuck rule is on (§8).
    head_gen, head_dutch, gen, dutch:
        The Dutch-pile plays (§3) from the head, and from every top, made for the centre of
        :attr:`_Memo.gen` ``head_gen`` and ``gen``.
    posts_json, view, total, ready:
        The seat's part of the view (``posts`` as card dicts; the whole seat dict, §12) and the
        total and Ready flag it was made with.
    """

    __slots__ = ("parts", "blitz_top", "tops", "stacks", "head_visible", "head_own", "wood_visible", "wood_own",
                 "own", "tail_free", "tail_busy", "head_gen", "head_dutch", "gen", "dutch", "posts_json", "view",
                 "total", "ready")

    parts: tuple[list[BlitzCard], list[list[BlitzCard]], list[BlitzCard], list[BlitzCard]]
    blitz_top: BlitzCard | None
    tops: list[tuple[str, int, bool]]
    stacks: list[Action]
    head_visible: list[_Top]
    head_own: list[Action]
    wood_visible: _Top | None
    wood_own: list[Action]
    own: list[Action]
    tail_free: list[Action]
    tail_busy: list[Action]
    head_gen: int
    head_dutch: list[Action]
    gen: int
    dutch: list[Action]
    posts_json: list[list[dict[str, Any]]] | None
    view: dict[str, Any] | None
    total: int | None
    ready: bool | None

    def __init__(self, seat: Seat, prev: _SeatMemo | None, move_post_stacks: bool, stuck: bool) -> None:
        blitz, posts, wood, hand = seat.blitz, seat.posts, seat.wood, seat.hand
        blitz_top = blitz[-1] if blitz else None
        names = _POST_NAMES if len(posts) <= len(_POST_NAMES) else [f"post:{i}" for i in range(len(posts))]
        if prev is not None and prev.parts[1] == posts:
            # A flip, a Wood-pile play or a Blitz card played out: the Post piles did not change.
            posts_copy = prev.parts[1]
            self.posts_json = prev.posts_json
            tops = prev.tops
            self.stacks = prev.stacks
            same_head = prev.blitz_top is blitz_top
        else:
            posts_copy = list(map(list, posts))
            self.posts_json = None
            tops = [(names[j], pile[-1].value, pile[-1].colour in _BOYS) for j, pile in enumerate(posts_copy) if pile]
            stacks: list[Action] = []
            if move_post_stacks:
                for i, pile in enumerate(posts_copy):
                    if len(pile) < 2:
                        continue  # a single card moves with "post"
                    for j, other in enumerate(posts_copy):
                        if i != j and other and _fits_post(pile[0], other[-1]):
                            stacks.append({"type": "stack", "from": names[i], "to": names[j]})
            self.stacks = stacks
            same_head = False
        self.parts = (list(blitz), posts_copy, list(wood), list(hand))
        self.blitz_top = blitz_top
        self.tops = tops
        if same_head:
            assert prev is not None
            self.head_visible, self.head_own = prev.head_visible, prev.head_own
            self.head_gen, self.head_dutch = prev.head_gen, prev.head_dutch
        else:
            head_visible: list[_Top] = []
            if blitz_top is not None:
                head_visible.append(_top("blitz", blitz_top))
            for j, pile in enumerate(posts_copy):
                if pile:
                    head_visible.append(_top(names[j], pile[-1]))
            self.head_visible = head_visible
            self.head_own = self._builds(head_visible, tops)
            self.head_gen = -1
            self.head_dutch = []
        if wood:
            wood_visible = _top("wood", wood[-1])
            self.wood_visible = wood_visible
            self.wood_own = self._builds([wood_visible], tops)
        else:
            self.wood_visible = None
            self.wood_own = []
        # Same order as DutchBlitz._moves: post builds by source then target, stacks, flip.
        own = [*self.head_own, *self.wood_own, *self.stacks]
        if hand or wood:
            own.append({"type": "flip"})
        self.own = own
        free = [*own, {"type": "shift"}] if wood else own
        if stuck:
            end = {"type": "end_hand"}
            self.tail_free, self.tail_busy = [*free, end], [*own, end]
        else:
            self.tail_free, self.tail_busy = free, own
        self.gen = -1
        self.dutch = []
        self.view = None
        self.total = None
        self.ready = None

    @staticmethod
    def _builds(visible: list[_Top], tops: list[tuple[str, int, bool]]) -> list[Action]:
        """The ``post`` actions of the *visible* cards onto the Post pile *tops* (§4), by source then target."""
        out: list[Action] = []
        for source, value, _, boy in visible:
            for to, top_value, top_boy in tops:
                if top_value == value + 1 and top_boy != boy and to != source:
                    out.append({"type": "post", "from": source, "to": to})
        return out


class _Memo:
    """Derived data of a :class:`DutchBlitz` state (not state: left out of pickles and snapshots).

    Every part is checked against the state it was made from before it is used (a copy of the
    piles, compared at C speed), never against a move counter, so a state changed from outside
    (a test staging a position) is never read stale. What the legal actions and views hand out
    from here (action dicts, the nested lists and dicts of a view) is shared between calls and
    read-only, as in the Dutch engine.

    Attributes
    ----------
    options, players:
        The engine's options and players it was made for (compared by identity).
    seats:
        One :class:`_SeatMemo` per seat (``None`` until first needed).
    dutch, gen:
        A copy of the Dutch piles and a number that changes whenever that copy is renewed.
    openings, piles_json, piles:
        ``_openings()`` of that copy and the ``dutch_piles`` of the view (``None`` until needed),
        and each pile dict of the view with the top card and size it was made for.
    scores, endings:
        The ``hand_scores`` and ``hand_endings`` of the view (copies, compared with the state's).
    """

    __slots__ = ("options", "players", "seats", "dutch", "gen", "openings", "piles", "piles_json", "scores",
                 "endings")

    def __init__(self, options: DutchBlitzOptions, players: tuple[str, ...], seats: int) -> None:
        self.options = options
        self.players = players
        self.seats: list[_SeatMemo | None] = [None] * seats
        self.dutch: list[list[BlitzCard]] | None = None
        self.gen = 0
        self.openings: dict[tuple[str, int], list[int]] | None = None
        self.piles: list[tuple[BlitzCard, int, dict[str, Any]]] = []
        self.piles_json: list[dict[str, Any]] | None = None
        self.scores: list[dict[str, int]] | None = None
        self.endings: list[dict[str, Any]] | None = None


def _fits_post(card: BlitzCard, top: BlitzCard) -> bool:
    """Whether *card* may go on a Post pile topped by *top*: one lower, boy on girl or girl on boy (§4)."""
    return card.value == top.value - 1 and card.is_boy != top.is_boy


def _name(card: BlitzCard) -> str:
    return f"{card.colour} {card.value}"


class DutchBlitz(Engine):
    """Dutch Blitz for 2 to 8 players (``docs/rules/dutch-blitz.md``).

    State (beyond :class:`~bot.engine.core.Engine`'s):

    * ``seats`` — one :class:`Seat` per player, in seat order;
    * ``dutch`` — the Dutch piles in the order they were started (a pile keeps its index for the
      whole hand; complete piles stay and score);
    * ``phase`` — :data:`PLAY`, :data:`BETWEEN` or :data:`OVER`;
    * ``hand_number`` — 1 for the first hand;
    * ``totals`` — each player's game score; ``hand_scores`` — one ``{player: points}`` per
      finished hand; ``hand_endings`` — how each hand ended; ``ready`` — players who sent
      ``ready`` since the last hand ended.

    Sources, by rule (``docs/rules/dutch-blitz.md`` section; its **Ruling** paragraphs):

    * layout, 5 or 3 Post piles, 40-card decks — §1; rulings "Layout";
    * simultaneous play, one card per action, tops only, races — §2; rulings "Playable cards",
      "Two players reaching for the same Dutch pile";
    * Dutch piles — §3; ruling "Dutch piles";
    * Post piles and ``move_post_stacks`` — §4, §5; ruling "Playable cards";
    * refilling a Post pile — §6; ruling "A Post pile that empties";
    * flip, turning over, shift — §7; rulings "Flip", "Shift";
    * Blitz, stuck rule (``end_hand``) — §8; ruling "The hand ends";
    * scoring, target, tie — §9; ruling "Scoring per hand";
    * the Ready step, views — §11, §12 (Parlor's own, no ruling needed).
    """

    kind = "dutch-blitz"
    title = "Dutch Blitz"
    min_players = 2
    max_players = 8
    Options = DutchBlitzOptions
    max_actions = 60_000
    # Uniformly random play calls a stuck hand at random times: every such hand costs each player
    # about twenty Blitz points, so the totals would drift away from any target. Random play
    # therefore plays with the stuck rule off and a target of 1; hands then end by a Blitz.
    conformance_options = {"target": 1, "stuck_seconds": 0}
    table_actions = frozenset({"end_hand", "next_hand"})
    """Ending a stuck hand (§8) and forcing the next hand (§11) are the host's, not a seat's."""
    play_mode = SIMULTANEOUS
    """Everyone plays at once (§2): no turn timer."""

    seats: list[Seat]
    dutch: _Cards
    phase: str
    hand_number: int
    totals: dict[str, int]
    hand_scores: list[dict[str, int]]
    hand_endings: list[dict[str, Any]]
    ready: set[str]

    _memo: _Memo | None = None
    """Derived data of the state (:class:`_Memo`), rebuilt on demand; not part of the state."""

    _HANDLERS: ClassVar[dict[str, str]] = {
        "dutch": "_do_dutch", "post": "_do_post", "stack": "_do_stack", "flip": "_do_flip",
        "shift": "_do_shift", "end_hand": "_do_end_hand",
    }
    """The moves of a hand: action type to the name of the method that applies it (§13)."""

    # ------------------------------------------------------------------ pickling and snapshots

    def __getstate__(self) -> dict[str, Any]:
        """The instance dict without the memo (derived data): what pickles and deep copies carry."""
        state = dict(self.__dict__)
        state.pop("_memo", None)
        return state

    def snapshot(self) -> Any:
        """:meth:`Engine.snapshot <bot.engine.core.Engine.snapshot>` of the state, without the memo."""
        memo = self.__dict__.pop("_memo", None)
        try:
            return super().snapshot()
        finally:
            if memo is not None:
                self._memo = memo

    # ------------------------------------------------------------------ setup

    def _setup(self) -> list[Event]:
        self._actions = _ActionLog(self._actions or ())
        self.totals = {p: 0 for p in self.players}
        self.hand_scores = []
        self.hand_endings = []
        self.hand_number = 0
        self.ready = set()
        self._deal()
        return [Event("hand_started", {"hand": self.hand_number, "forced_by": None})]

    def _deal(self) -> None:
        """Shuffle every deck and lay out a new hand (§1)."""
        posts = post_pile_count(len(self.players))
        self.seats = []
        for i in range(len(self.players)):
            deck = shuffled(_deck(i), self.rng)
            # The deck is dealt from its top (index 0): the Post piles, then 10 Blitz cards
            # (the 10th dealt ends on top), the rest is the hand.
            post_cards, rest = deck[:posts], deck[posts:]
            blitz, hand = rest[:BLITZ_SIZE], rest[BLITZ_SIZE:]
            self.seats.append(Seat(blitz, [[c] for c in post_cards], [], hand))
        self.dutch = _Cards()
        self.phase = PLAY
        self.hand_number += 1
        self.ready = set()

    # ------------------------------------------------------------------ reading the state

    def _seat(self, player: str) -> Seat:
        return self.seats[self.players.index(player)]

    def _source_card(self, seat: Seat, source: Any) -> tuple[BlitzCard, str]:
        """The top card named by *source* (``"blitz"``, ``"wood"``, ``"post:<i>"``), or raise."""
        if source == "blitz":
            if not seat.blitz:
                raise IllegalAction("your Blitz pile is empty")
            return seat.blitz[-1], "blitz"
        if source == "wood":
            if not seat.wood:
                raise IllegalAction("your Wood pile is empty: flip three cards from your hand first")
            return seat.wood[-1], "wood"
        index = self._post_index(seat, source, "from")
        if not seat.posts[index]:  # pragma: no cover - a Post pile is never left empty in play
            raise IllegalAction(f"your Post pile {index} is empty")
        return seat.posts[index][-1], source

    @staticmethod
    def _post_index(seat: Seat, name: Any, field: str) -> int:
        if type(name) is str:
            index = _POST_INDEX.get(name)
            if index is not None and index < len(seat.posts):
                return index
        if isinstance(name, str) and name.startswith("post:") and name[5:].isdigit():
            index = int(name[5:])
            if index < len(seat.posts):
                return index
            raise IllegalAction(f"you have Post piles 0 to {len(seat.posts) - 1}, not {index}")
        raise IllegalAction(f"'{field}' must be \"blitz\", \"wood\" or \"post:<n>\", got {name!r}")

    def _openings(self, dutch: list[list[BlitzCard]] | None = None) -> dict[tuple[str, int], list[int]]:
        """``(colour, value)`` to the Dutch piles that card would go on now (complete piles take none).

        *dutch* is the Dutch piles (default: the state's own), or a copy of them.
        """
        openings: dict[tuple[str, int], list[int]] = {}
        for i, pile in enumerate(self.dutch if dutch is None else dutch):
            top = pile[-1]
            if top.value < 10:
                openings.setdefault((top.colour, top.value + 1), []).append(i)
        return openings

    def _dutch_target(self, card: BlitzCard, openings: dict[tuple[str, int], list[int]] | None = None,
                      ) -> list[int | None]:
        """Where *card* may go in the centre: ``[None]`` for a 1 (a new pile), else fitting pile indexes."""
        if card.value == 1:
            return [None]
        if openings is None:
            openings = self._openings()
        return list(openings.get((card.colour, card.value), ()))

    def can_play_dutch(self, player: str) -> bool:
        """Whether any of *player*'s visible cards can go on a Dutch pile now (§3, §7 shift)."""
        openings = self._openings()
        return any(self._dutch_target(card, openings) for _, card in self._seat(player).visible())

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, player: str) -> list[Action]:
        if self.phase == BETWEEN:
            actions: list[Action] = [] if player in self.ready else [{"type": "ready"}]
            return [*actions, {"type": "next_hand"}]
        # Hot: the simulator and the table ask every seat after every move. The same actions as
        # _moves(seat) plus end_hand, from the memos of the seat and of the centre (checked here
        # against the state, as _memo_now and _seat_now do).
        memo = self._memo
        if (memo is None or memo.options is not self.options or memo.players is not self.players
                or self.dutch != memo.dutch):
            memo = self._memo_now()
        index = self.players.index(player)
        sm = memo.seats[index]
        if sm is None or _PARTS(self.seats[index]) != sm.parts:
            sm = self._seat_now(memo, index)
        dutch = sm.dutch if sm.gen == memo.gen else self._seat_dutch(memo, sm)
        if dutch:
            return dutch + sm.tail_busy
        actions = sm.tail_free.copy()
        if not actions and self._dead_hand():  # (with the stuck rule on, the tail ends with end_hand)
            actions.append({"type": "end_hand"})
        return actions

    def _memo_now(self) -> _Memo:
        """The memo, with its copy of the Dutch piles checked against the state (renewed if they changed)."""
        memo = self._memo
        if (memo is None or memo.options is not self.options or memo.players is not self.players
                or len(memo.seats) != len(self.seats)):
            memo = self._memo = _Memo(self.options, self.players, len(self.seats))
        if self.dutch != memo.dutch:
            memo.dutch = list(map(list, self.dutch))
            memo.gen += 1
            memo.openings = None
            memo.piles_json = None
        return memo

    def _seat_now(self, memo: _Memo, index: int) -> _SeatMemo:
        """The memo of seat *index*, checked against its piles (renewed if they changed)."""
        seat = self.seats[index]
        sm = memo.seats[index]
        if sm is None or _PARTS(seat) != sm.parts:
            sm = memo.seats[index] = _SeatMemo(seat, sm, self.options.move_post_stacks,
                                               self.options.stuck_seconds > 0)
        return sm

    def _seat_dutch(self, memo: _Memo, sm: _SeatMemo) -> list[Action]:
        """The Dutch-pile plays of a seat for the centre of *memo*, as ``_moves`` lists them (§3)."""
        openings = memo.openings
        if openings is None:
            openings = memo.openings = self._openings(memo.dutch)
        if sm.head_gen != memo.gen:
            sm.head_dutch = self._dutch_plays(sm.head_visible, openings)
            sm.head_gen = memo.gen
        out = sm.head_dutch
        if sm.wood_visible is not None:
            wood = self._dutch_plays([sm.wood_visible], openings)
            if wood:
                out = [*out, *wood]
        sm.dutch = out
        sm.gen = memo.gen
        return out

    @staticmethod
    def _dutch_plays(visible: list[_Top], openings: dict[tuple[str, int], list[int]]) -> list[Action]:
        """The ``dutch`` actions of the *visible* cards, by source then pile (§3): a 1 starts a pile."""
        out: list[Action] = []
        for source, value, key, _ in visible:
            if value == 1:
                out.append({"type": "dutch", "from": source, "pile": None})
                continue
            piles = openings.get(key)
            if piles:
                for pile in piles:
                    out.append({"type": "dutch", "from": source, "pile": pile})
        return out

    def _moves(self, seat: Seat) -> list[Action]:
        """Every card move, flip and shift of *seat* in a hand (everything but ``end_hand``)."""
        actions: list[Action] = []
        visible = seat.visible()
        openings = self._openings()
        any_dutch = False
        for source, card in visible:
            for pile in self._dutch_target(card, openings):
                actions.append({"type": "dutch", "from": source, "pile": pile})
                any_dutch = True
        for source, card in visible:
            for j, post in enumerate(seat.posts):
                to = f"post:{j}"
                if to != source and post and _fits_post(card, post[-1]):
                    actions.append({"type": "post", "from": source, "to": to})
        if self.options.move_post_stacks:
            for i, post in enumerate(seat.posts):
                if len(post) < 2:
                    continue  # a single card moves with "post"
                for j, other in enumerate(seat.posts):
                    if i != j and other and _fits_post(post[0], other[-1]):
                        actions.append({"type": "stack", "from": f"post:{i}", "to": f"post:{j}"})
        if seat.hand or seat.wood:
            actions.append({"type": "flip"})
        if seat.wood and not any_dutch:
            actions.append({"type": "shift"})
        return actions

    def _dead_hand(self) -> bool:
        """Whether no player has any card move, flip or shift (the hand cannot go on, §8)."""
        return all(not self._moves(seat) for seat in self.seats)

    # ------------------------------------------------------------------ applying actions

    def _apply(self, player: str, action: Action) -> list[Event]:
        """Validate *action* fully, then apply it; see the package docstring for the shapes (§13).

        Raises
        ------
        IllegalAction
            Unknown or malformed move, a card that does not fit (§3–§7), a card move after the
            hand ended ("the hand is over", §8), ``ready``/``next_hand`` during a hand (§11).
            Nothing has changed when it is raised.
        """
        kind = action["type"]
        name = self._HANDLERS.get(kind)
        if name is None:
            if kind == "ready":
                return self._do_ready(player, action)
            if kind == "next_hand":
                return self._do_next_hand(player, action)
            raise IllegalAction(
                f"unknown move {kind!r}; Dutch Blitz moves are dutch, post, stack, flip, shift, end_hand, "
                f"ready and next_hand"
            )
        if self.phase != PLAY:
            raise IllegalAction("the hand is over: wait for the next hand")
        handler: Any = getattr(self, name)
        events: list[Event] = handler(player, action)
        return events

    @staticmethod
    def _only(action: Action, *keys: str) -> None:
        extra = sorted(set(action) - {"type", *keys})
        if extra:
            raise IllegalAction(f"a {action['type']} move takes no {', '.join(extra)}")

    def _take(self, player: str, seat: Seat, source: str, events: list[Event]) -> BlitzCard:
        """Remove the top card of *source* (already validated) and refill an emptied Post pile (§6)."""
        if source == "blitz":
            return seat.blitz.pop()
        if source == "wood":
            return seat.wood.pop()
        index = int(source[5:])
        card = seat.posts[index].pop()
        if not seat.posts[index]:
            self._refill(player, seat, index, events)
        return card

    def _refill(self, player: str, seat: Seat, index: int, events: list[Event]) -> None:
        """Refill the emptied Post pile *index* with the Blitz pile's top, in the same action (§6)."""
        if seat.blitz:
            card = seat.blitz.pop()
            seat.posts[index].append(card)
            events.append(Event("refill", {"player": player, "post": index, "card": _card_json(card)}))

    def _do_dutch(self, player: str, action: Action) -> list[Event]:
        """``{"type": "dutch", "from": source, "pile": index | null}`` (§3)."""
        if not action.keys() <= _KEYS_DUTCH:
            self._only(action, "from", "pile")
        seat = self._seat(player)
        card, source = self._source_card(seat, action.get("from"))
        pile = action.get("pile")
        if card.value == 1:
            if pile is not None:
                raise IllegalAction(f"your {_name(card)} starts a new Dutch pile: send it with no pile")
        else:
            if pile is None:
                raise IllegalAction(f"only a 1 starts a Dutch pile; your {_name(card)} must go on a pile")
            if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile < len(self.dutch):
                raise IllegalAction(f"there is no Dutch pile {pile!r} in the centre")
            top = self.dutch[pile][-1]
            if top.colour != card.colour:
                raise IllegalAction(f"Dutch pile {pile} is {top.colour}: your {_name(card)} does not match")
            if top.value == 10:
                raise IllegalAction(f"the {top.colour} pile you aimed at is complete at 10")
            if top.value != card.value - 1:
                if top.value >= card.value:
                    raise IllegalAction(
                        f"the {top.colour} pile you aimed at is already at {top.value}: your {card.value} "
                        f"no longer fits"
                    )
                raise IllegalAction(
                    f"the {top.colour} pile you aimed at is at {top.value}: it needs a {top.value + 1}, "
                    f"not a {card.value}"
                )
        events: list[Event] = []
        taken = self._take(player, seat, source, events)
        if pile is None:
            self.dutch.append([taken])
            pile = len(self.dutch) - 1
        else:
            self.dutch[pile].append(taken)
        events.insert(0, Event("dutch", {
            "player": player, "card": _card_json(taken), "from": source, "pile": pile,
            "size": len(self.dutch[pile]), "started": taken.value == 1, "complete": taken.value == 10,
        }))
        return self._after_move(player, seat, events)

    def _do_post(self, player: str, action: Action) -> list[Event]:
        """``{"type": "post", "from": source, "to": "post:<j>"}`` (§4)."""
        if not action.keys() <= _KEYS_MOVE:
            self._only(action, "from", "to")
        seat = self._seat(player)
        card, source = self._source_card(seat, action.get("from"))
        to = self._post_index(seat, action.get("to"), "to")
        if source == f"post:{to}":
            raise IllegalAction("a card cannot move onto its own Post pile")
        top = seat.posts[to][-1]
        self._check_post_fit(card, top, to)
        events: list[Event] = [Event("post", {"player": player, "card": _card_json(card), "from": source,
                                              "to": f"post:{to}"})]
        taken = self._take(player, seat, source, events)
        seat.posts[to].append(taken)
        return self._after_move(player, seat, events)

    @staticmethod
    def _check_post_fit(card: BlitzCard, top: BlitzCard, to: int) -> None:
        if card.value != top.value - 1:
            raise IllegalAction(
                f"your Post pile {to} shows a {top.value}: only a {top.value - 1} goes on it, not a {card.value}"
                if top.value > 1 else f"your Post pile {to} shows a 1: nothing goes below it"
            )
        if card.is_boy == top.is_boy:
            kind = "boy" if card.is_boy else "girl"
            raise IllegalAction(
                f"your Post pile {to} shows a {kind} ({top.colour}): a {kind} ({card.colour}) cannot go on it, "
                f"boys and girls alternate"
            )

    def _do_stack(self, player: str, action: Action) -> list[Event]:
        """``{"type": "stack", "from": "post:<i>", "to": "post:<j>"}``: a whole Post pile moves (§5)."""
        self._only(action, "from", "to")
        if not self.options.move_post_stacks:
            raise IllegalAction("this table does not allow moving whole Post piles (option move_post_stacks)")
        seat = self._seat(player)
        src = action.get("from")
        i = self._post_index(seat, src, "from")
        j = self._post_index(seat, action.get("to"), "to")
        if i == j:
            raise IllegalAction("a Post pile cannot move onto itself")
        if len(seat.posts[i]) < 2:
            raise IllegalAction(f"your Post pile {i} has one card: move it with a post move")
        self._check_post_fit(seat.posts[i][0], seat.posts[j][-1], j)
        moved = seat.posts[i]
        events: list[Event] = [Event("stack", {"player": player, "from": f"post:{i}", "to": f"post:{j}",
                                               "cards": [_card_json(c) for c in moved]})]
        seat.posts[j].extend(moved)
        seat.posts[i] = []
        self._refill(player, seat, i, events)
        return self._after_move(player, seat, events)

    def _do_flip(self, player: str, action: Action) -> list[Event]:
        """``{"type": "flip"}``: three cards (or fewer) from the hand onto the Wood pile (§7)."""
        if not action.keys() <= _KEYS_TYPE:
            self._only(action)
        seat = self._seat(player)
        if not seat.hand and not seat.wood:
            raise IllegalAction("you have no cards in your hand or Wood pile to flip")
        turned = not seat.hand
        if turned:
            # Turn the Wood pile over as the new hand, without shuffling: its bottom card becomes
            # the top of the hand, so the cards come round again in the same order.
            seat.hand = seat.wood
            seat.wood = []
            seat.turnovers += 1
        count = min(3, len(seat.hand))
        # The three cards are turned over together: the third one ends on top of the Wood pile.
        seat.wood.extend(seat.hand[:count])
        del seat.hand[:count]
        return [Event("flip", {"player": player, "count": count, "turned_over": turned,
                               "wood_top": _card_json(seat.wood[-1]), "hand": len(seat.hand)})]

    def _do_shift(self, player: str, action: Action) -> list[Event]:
        """``{"type": "shift"}``: the Wood pile's top goes under the hand, only while stuck (§7)."""
        self._only(action)
        seat = self._seat(player)
        if not seat.wood:
            raise IllegalAction("your Wood pile is empty: there is nothing to shift")
        openings = self._openings()
        for source, card in seat.visible():
            if self._dutch_target(card, openings):
                where = "your Blitz pile" if source == "blitz" else (
                    "your Wood pile" if source == "wood" else f"your Post pile {source[5:]}")
                raise IllegalAction(f"you can still play the {_name(card)} from {where} to a Dutch pile: "
                                    f"shifting is only for when you are stuck")
        card = seat.wood.pop()
        seat.hand.append(card)
        return [Event("shift", {"player": player, "card": _card_json(card),
                                "wood_top": _card_json(seat.wood[-1]) if seat.wood else None})]

    def _do_end_hand(self, player: str, action: Action) -> list[Event]:
        """``{"type": "end_hand"}``: the stuck rule, applied by the table for the host (§8)."""
        self._only(action)
        if self.options.stuck_seconds == 0 and not self._dead_hand():
            raise IllegalAction("this table plays without the stuck rule (option stuck_seconds is 0)")
        reason = "stuck" if self.options.stuck_seconds > 0 else "dead"
        return self._end_hand(reason, None, by=player)

    def _after_move(self, player: str, seat: Seat, events: list[Event]) -> list[Event]:
        """End the hand when this move emptied the player's Blitz pile (§8)."""
        if not seat.blitz:
            events.append(Event("blitz", {"player": player}))
            events.extend(self._end_hand("blitz", player))
        return events

    def _end_hand(self, reason: str, blitzer: str | None, *, by: str | None = None) -> list[Event]:
        """Score the hand (§9) and either end the game or wait for ``ready`` (§11)."""
        dutch_counts = [0] * len(self.players)
        for pile in self.dutch:
            for card in pile:
                dutch_counts[card.owner] += 1
        detail: dict[str, Any] = {}
        scores: dict[str, int] = {}
        for i, p in enumerate(self.players):
            left = len(self.seats[i].blitz)
            scores[p] = dutch_counts[i] - 2 * left
            self.totals[p] += scores[p]
            detail[p] = {"dutch": dutch_counts[i], "blitz_left": left, "points": scores[p]}
        self.hand_scores.append(scores)
        ending = {"hand": self.hand_number, "reason": reason, "blitzer": blitzer, "by": by}
        self.hand_endings.append(ending)
        events = [Event("hand_end", {**ending, "scores": detail, "totals": dict(self.totals)})]
        best = max(self.totals.values())
        leaders = [p for p in self.players if self.totals[p] == best]
        decided = best >= self.options.target or self.hand_number >= self.options.max_hands
        if decided and len(leaders) == 1:
            self.phase = OVER
            why = "target" if best >= self.options.target else "max_hands"
            events.append(Event("game_over", {"winners": leaders, "totals": dict(self.totals), "why": why}))
        else:
            self.phase = BETWEEN
            self.ready = set()
            if decided:
                events.append(Event("tie_at_top", {"players": leaders, "total": best}))
        return events

    def _do_ready(self, player: str, action: Action) -> list[Event]:
        """``{"type": "ready"}`` between hands; the last one deals the next hand (§11)."""
        self._only(action)
        if self.phase != BETWEEN:
            raise IllegalAction("the hand is still being played: ready is for between hands")
        if player in self.ready:
            raise IllegalAction("you are already ready; waiting for the others")
        self.ready.add(player)
        events = [Event("ready", {"player": player, "ready": [p for p in self.players if p in self.ready]})]
        if len(self.ready) == len(self.players):
            events.extend(self._start_hand(forced_by=None))
        return events

    def _do_next_hand(self, player: str, action: Action) -> list[Event]:
        """``{"type": "next_hand"}``: the host deals the next hand without waiting (§11)."""
        self._only(action)
        if self.phase != BETWEEN:
            raise IllegalAction("the hand is still being played: there is no next hand to start yet")
        return self._start_hand(forced_by=player)

    def _start_hand(self, *, forced_by: str | None) -> list[Event]:
        self._deal()
        return [Event("hand_started", {"hand": self.hand_number, "forced_by": forced_by})]

    # ------------------------------------------------------------------ views and the end

    def _view(self, player: str | None) -> dict[str, Any]:
        # Every seat's bot or board asks after every move. Each view is a new dict whose nested
        # lists and dicts come from the memo and are shared by the views of the same state
        # (read-only): the seat dicts, the Dutch piles, the scores and endings. Each part is
        # checked against the state (the memos' copies of the piles, the totals, the Ready set,
        # the scores and endings), so it is remade whenever the state changed, by a move or from
        # outside; unchanged seats and Dutch piles keep their dicts.
        memo = self._memo_now()
        sms = memo.seats
        state = self.seats
        totals, ready = self.totals, self.ready
        seats: list[dict[str, Any]] = []
        for i, p in enumerate(self.players):
            sm = sms[i]
            if sm is None or _PARTS(state[i]) != sm.parts:
                sm = self._seat_now(memo, i)
            total = totals[p]
            is_ready = p in ready
            seat_view = sm.view
            if seat_view is None or sm.total != total or sm.ready != is_ready:
                seat_view = sm.view = self._seat_view(i, p, sm, total, is_ready)
                sm.total = total
                sm.ready = is_ready
            seats.append(seat_view)
        piles = memo.piles_json
        if piles is None:
            piles = memo.piles_json = self._piles_view(memo)
        scores = memo.scores
        if scores != self.hand_scores:  # (a hand ends once in a few hundred moves)
            scores = memo.scores = [dict(s) for s in self.hand_scores]
        endings = memo.endings
        if endings != self.hand_endings:
            endings = memo.endings = [dict(e) for e in self.hand_endings]
        o = self.options
        return {
            "phase": self.phase,
            "hand": self.hand_number,
            "target": o.target,
            "move_post_stacks": o.move_post_stacks,
            "stuck_seconds": o.stuck_seconds,
            "dutch_piles": piles,
            "seats": seats,
            "hand_scores": scores,
            "hand_endings": endings,
            "me": None if player is None else self.players.index(player),
        }

    @staticmethod
    def _seat_view(index: int, player: str, sm: _SeatMemo, total: int, is_ready: bool) -> dict[str, Any]:
        """One seat of the view (§12), from the copy of its piles in *sm*."""
        blitz, posts, wood, hand = sm.parts
        posts_json = sm.posts_json
        if posts_json is None:
            posts_json = sm.posts_json = [[_card_json(c) for c in pile] for pile in posts]
        return {
            "player": player,
            "seat": index,
            "blitz_top": _card_json(blitz[-1]) if blitz else None,
            "blitz_count": len(blitz),
            "posts": posts_json,
            "wood_top": _card_json(wood[-1]) if wood else None,
            "wood_count": len(wood),
            "hand_count": len(hand),
            "total": total,
            "ready": is_ready,
        }

    @staticmethod
    def _piles_view(memo: _Memo) -> list[dict[str, Any]]:
        """The ``dutch_piles`` of the view (§12) from the memo's copy of the piles, reusing the dict of
        every pile whose top card and size did not change.
        """
        assert memo.dutch is not None  # _memo_now() made it
        old = memo.piles
        made: list[tuple[BlitzCard, int, dict[str, Any]]] = []
        for i, pile in enumerate(memo.dutch):
            top = pile[-1]
            size = len(pile)
            if i < len(old) and old[i][0] is top and old[i][1] == size:
                made.append(old[i])
            else:
                made.append((top, size, {"pile": i, "colour": top.colour, "top": _card_json(top), "size": size,
                                         "complete": top.value == 10}))
        memo.piles = made
        return [entry[2] for entry in made]

    def _is_over(self) -> bool:
        return self.phase == OVER

    def _result(self) -> Result:
        return Result.from_scores(dict(self.totals), detail={
            "hands": len(self.hand_scores),
            "hand_scores": [dict(s) for s in self.hand_scores],
            "hand_endings": [dict(e) for e in self.hand_endings],
        })

    def _standing(self) -> Result:
        """An unfinished game placed by the totals of the hands scored so far, the highest ahead
        (``docs/rules/dutch-blitz.md`` §9). The hand being played does not count (it is scored at its end).
        """
        return self._provisional({p: float(self.totals[p]) for p in self.players})

    def hidden_cards(self, player: str | None) -> set[str]:
        """Ids of the cards nobody sees (the same set for every viewer; §12).

        Hidden: every card in a hand (face down), every Blitz and Wood card under the top
        (covered), and every Dutch-pile card under the top (covered; its owner is on its back).
        Face up: the tops of the Blitz, Wood and Dutch piles, and every card of every Post pile.
        """
        hidden: set[str] = set()
        for seat in self.seats:
            hidden.update(c.id for c in seat.hand)
            hidden.update(c.id for c in seat.blitz[:-1])
            hidden.update(c.id for c in seat.wood[:-1])
        for pile in self.dutch:
            hidden.update(c.id for c in pile[:-1])
        return hidden

    def timeout_action(self, player: str) -> Action | None:
        """The table's action for an idle *player*: ``ready`` between hands, else a flip (§11, §7).

        Dutch Blitz has no turns; the table only needs this for a seat that has gone quiet (a
        flip is what a stuck player does) and for the Ready step. ``None`` when neither is legal.
        """
        legal = self.legal_actions(player)
        for wanted in ({"type": "ready"}, {"type": "flip"}, {"type": "shift"}):
            if wanted in legal:
                return wanted
        return None

    def timed_rules(self) -> list[TimedRule]:
        """The stuck rule (§8): ``end_hand`` is allowed ``stuck_seconds`` after the last card went
        onto a Dutch pile, or after the hand began; none while the rule is off (0) or between hands.
        """
        if self.phase != PLAY or self.options.stuck_seconds <= 0:
            return []
        in_centre = sum(len(pile) for pile in self.dutch)
        key = f"hand {self.hand_number}, {in_centre} in the centre"
        return [TimedRule("stuck", self.options.stuck_seconds * 1000, key, "end_hand",
                          "the last card went onto a Dutch pile")]

    def contested_resource(self, player: str, action: Action) -> str | None:
        """``"dutch-pile:<index>"`` for a play onto an existing Dutch pile, else ``None`` (§2).

        Starting a new pile with a 1, building Post piles, flipping and every other move contest
        nothing and are applied at once (``docs/design.md`` §4).
        """
        if action.get("type") == "dutch":
            pile = action.get("pile")
            if isinstance(pile, int) and not isinstance(pile, bool):
                return f"dutch-pile:{pile}"
        return None
