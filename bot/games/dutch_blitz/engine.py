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


class _ActionLog(list[Action]):
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

_BOYS = frozenset({"red", "blue"})
"""The boy colours (``BlitzCard.is_boy``; ``docs/rules/dutch-blitz.md`` §1)."""

_POST_NAMES = tuple(f"post:{i}" for i in range(16))
"""``"post:<i>"`` for the Post pile indexes a seat can have (5 at most; a few spare)."""

_POST_INDEX = {name: i for i, name in enumerate(_POST_NAMES)}
"""``"post:<i>"`` to ``i``: the fast path of :meth:`DutchBlitz._post_index`."""

_PARTS = attrgetter("blitz", "posts", "wood", "hand")
"""A seat's piles as one tuple, compared with the copy a memo was made from (at C speed)."""

_KEYS_DUTCH = frozenset({"type", "from", "pile"})
_KEYS_MOVE = frozenset({"type", "from", "to"})


def _deck(owner: int) -> list[BlitzCard]:
    """A new list of seat *owner*'s 40 cards in :func:`~bot.engine.cards.blitz_deck` order (§1)."""
    deck = _DECKS.get(owner)
    if deck is None:
        deck = _DECKS[owner] = tuple(blitz_deck(owner))
        for card in deck:
            info = _INFO[id(card)] = _make_info(card)
            _JSONS[id(card)] = info[4]
    return list(deck)


def _card_json(card: BlitzCard) -> dict[str, Any]:
    """``card.to_json()``, memoised (cards are immutable); each call returns a fresh dict (for events)."""
    json = _JSONS.get(id(card))
    return (_info(card)[4] if json is None else json).copy()


def _shared_json(card: BlitzCard) -> dict[str, Any]:
    """``card.to_json()`` as one dict per card, shared by every view that shows the card: views are
    read and never changed (``docs/design.md`` §2), and a fresh copy per card of every open board
    would cost each table about 5 KB.
    """
    json = _JSONS.get(id(card))
    return _info(card)[4] if json is None else json


_Top = tuple[str, int, tuple[str, int], bool]
"""A playable top card as the memos keep it: ``(source, value, (colour, value), is_boy)``."""

_Key = tuple[str, int]
"""``(colour, value)``: a card, or the card a Dutch pile takes next (an *opening*)."""

_Info = tuple[BlitzCard, int, _Key, bool, dict[str, Any], tuple[int, bool], "_Key | None", tuple[int, bool],
              _Top, tuple[_Top, ...], "_Key | None"]
"""What the memos read of a card: ``(a card equal to it, value, (colour, value), is_boy, its shared to_json(), (value,
is_boy), opening, wanted, blitz top, post tops, next)``. *opening* is the ``(colour, value)`` a Dutch pile needs
for the card to go on it (``None`` for a 1, which starts a pile); *wanted* the ``(value, is_boy)`` of the
cards that may go on it on a Post pile (one lower, the other kind, §4); *blitz top* its :data:`_Top` on top
of the Blitz pile and *post tops* on top of each Post pile ``j`` (``j`` < ``len(_POST_NAMES)``); *next* the
opening of a Dutch pile topped by the card (``None`` for a 10: the pile is complete)."""

_INFO: dict[int, _Info] = {}
"""``id(card)`` to :data:`_Info` of every card of :data:`_DECKS` (kept alive there, so an id found here is
that card's: no identity check needed)."""

_INFO_BY_KEY: dict[tuple[int, str, int], _Info] = {}
"""``(owner, colour, value)`` to :data:`_Info` for any other card (built by a test, unpickled): at most one
entry per card of the decks, however many such cards are made."""

_JSONS: dict[int, dict[str, Any]] = {}
"""``id(card)`` to the shared ``to_json()`` of every card of :data:`_DECKS` (``_INFO[id(card)][4]``), for
lookups at C speed (``map``)."""

_JSON_OF = _JSONS.__getitem__


def _make_info(card: BlitzCard) -> _Info:
    colour, value = card.colour, card.value
    boy = colour in _BOYS
    key = (colour, value)
    return (card, value, key, boy, card.to_json(), (value, boy), None if value == 1 else key, (value - 1, not boy),
            ("blitz", value, key, boy), tuple((name, value, key, boy) for name in _POST_NAMES),
            (colour, value + 1) if value < 10 else None)


def _info(card: BlitzCard) -> _Info:
    """:data:`_Info` of *card* (memoised; cards are immutable). Hot paths look a deck card up in
    :data:`_INFO` themselves and call this for the others.
    """
    info = _INFO.get(id(card))
    if info is None:
        key = (card.owner, card.colour, card.value)
        info = _INFO_BY_KEY.get(key)
        if info is None:
            info = _INFO_BY_KEY[key] = _make_info(card)
    return info


def _post_name(index: int) -> str:
    return _POST_NAMES[index] if index < len(_POST_NAMES) else f"post:{index}"


def _dutch_plays(visible: list[_Top], openings: dict[_Key, list[int]]) -> list[Action]:
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


class _Head:
    """What a seat's moves derive from its Blitz pile's top and its Post piles: valid for as long as
    both are the same, so a flip or a Wood-pile play (most moves) keeps it.

    Attributes
    ----------
    blitz_top, posts:
        The Blitz pile's top (or ``None``) and a copy of the Post piles (each pile copied) it was made from.
    blitz_json:
        The Blitz pile's top as the view shows it (the card's shared dict, or ``None``).
    post_tops:
        :data:`_Top` of each Post pile's top, in pile order.
    wants:
        ``(value, is_boy)`` of a card to the names of the Post piles it may go on (§4), in pile order,
        for the cards that fit somewhere.
    stacks:
        The ``stack`` actions (§5), which depend on the Post piles alone.
    post_own, post_keys:
        The ``post`` actions from one Post pile onto another (§4), by source then target, and the
        ``(colour, value)`` of the Post tops that are 2 or more.
    visible, own:
        :data:`_Top` of the playable Blitz and Post tops, in ``Seat.visible()`` order, and their
        ``post`` actions (§4), by source then target.
    keys:
        The ``(colour, value)`` of those tops that are 2 or more: the only openings of the centre their
        Dutch-pile plays depend on (a 1 always starts a new pile).
    gen, dutch:
        The Dutch-pile plays (§3) of :attr:`visible`, made for the centre of :attr:`_Memo.gen` ``gen``.
    wood_builds:
        ``(value, is_boy)`` of a Wood card to its ``post`` actions onto these Post piles (§4), made for
        the cards in :attr:`wants` when first needed.
    free, busy:
        What follows the Dutch-pile plays in the legal actions when there are none and when there are
        some, for a Wood pile whose top goes on no Post pile: :attr:`own`, the stacks (§5), ``flip``,
        ``shift`` (only in ``free``, §7) and ``end_hand`` when the stuck rule is on (§8). :attr:`busy`
        also follows them for an empty Wood pile with cards in hand (no ``shift``).
    posts_json:
        The seat's ``posts`` in the view (card dicts), ``None`` until needed.
    """

    __slots__ = ("blitz_top", "blitz_json", "posts", "post_tops", "wants", "stacks", "post_own", "post_keys",
                 "visible", "keys", "own", "gen", "dutch", "wood_builds", "free", "busy", "posts_json")

    blitz_top: BlitzCard | None
    blitz_json: dict[str, Any] | None
    posts: list[list[BlitzCard]]
    post_tops: list[_Top]
    wants: dict[tuple[int, bool], list[str]]
    stacks: list[Action]
    post_own: list[Action]
    post_keys: frozenset[_Key]
    visible: list[_Top]
    keys: frozenset[_Key]
    own: list[Action]
    gen: int
    dutch: list[Action]
    wood_builds: dict[tuple[int, bool], list[Action]]
    free: list[Action]
    busy: list[Action]
    posts_json: list[list[dict[str, Any]]] | None

    def __init__(self, blitz_top: BlitzCard | None, posts: list[list[BlitzCard]], prev: _Head | None,
                 memo: _Memo) -> None:
        if prev is not None and prev.posts == posts:
            # A Blitz card played out: the Post piles did not change.
            self.posts, self.posts_json, self.post_tops, self.wants = (
                prev.posts, prev.posts_json, prev.post_tops, prev.wants)
            self.stacks, self.post_own, self.post_keys, self.wood_builds = (
                prev.stacks, prev.post_own, prev.post_keys, prev.wood_builds)
            wants = self.wants
        else:
            self.posts = posts = list(map(list, posts))
            self.posts_json = None
            post_tops: list[_Top] = []
            infos: list[_Info] = []
            keys: list[_Key] = []
            wants = {}
            j = 0
            for pile in posts:
                if pile:
                    card = pile[-1]
                    info = _INFO.get(id(card)) or _info(card)
                    top = info[9][j] if j < len(_POST_NAMES) else (f"post:{j}", info[1], info[2], info[3])
                    post_tops.append(top)
                    infos.append(info)
                    if info[1] != 1:
                        keys.append(info[2])
                    targets = wants.get(info[7])
                    if targets is None:
                        wants[info[7]] = [top[0]]
                    else:
                        targets.append(top[0])
                j += 1
            self.post_tops, self.wants = post_tops, wants
            self.wood_builds = {}
            stacks: list[Action] = []
            if memo.move_post_stacks:
                names = _POST_NAMES if len(posts) <= len(_POST_NAMES) else [f"post:{i}" for i in range(len(posts))]
                for i, pile in enumerate(posts):
                    if len(pile) < 2:
                        continue  # a single card moves with "post"
                    for j, other in enumerate(posts):
                        if i != j and other and _fits_post(pile[0], other[-1]):
                            stacks.append({"type": "stack", "from": names[i], "to": names[j]})
            self.stacks = stacks
            post_own: list[Action] = []
            j = 0
            for info in infos:
                targets = wants.get(info[5])
                if targets is not None:
                    source = post_tops[j][0]
                    for to in targets:
                        if to != source:
                            post_own.append({"type": "post", "from": source, "to": to})
                j += 1
            self.post_own = post_own
            self.post_keys = frozenset(keys)
        self.blitz_top = blitz_top
        own = self.post_own
        if blitz_top is None:
            self.blitz_json = None
            self.visible = self.post_tops
            self.keys = self.post_keys
        else:
            info = _INFO.get(id(blitz_top)) or _info(blitz_top)
            self.blitz_json = info[4]
            self.visible = [info[8], *self.post_tops]
            self.keys = self.post_keys if info[1] == 1 else self.post_keys | {info[2]}
            targets = wants.get(info[5])
            if targets is not None:
                own = [{"type": "post", "from": "blitz", "to": to} for to in targets]
                own.extend(self.post_own)
        self.own = own
        self.gen = -1
        self.dutch = []
        # Same order as DutchBlitz._moves: post builds by source then target, stacks, flip, shift.
        end = memo.end
        if self.stacks:
            own = [*own, *self.stacks]
        self.busy = [*own, memo.flip, *end]
        self.free = [*own, memo.flip, memo.shift, *end]


class _SeatMemo:
    """What the legal actions and the view of one seat derive from its piles, made from a copy of
    them (:attr:`parts`); valid for as long as the seat's piles equal that copy.

    Attributes
    ----------
    parts:
        Copies of ``(blitz, posts, wood, hand)`` (the Post piles are the head's copy).
    head:
        The :class:`_Head` part of its moves.
    wood, hand:
        The Wood pile's top (:data:`_Info`, ``None`` when empty) and whether the hand has cards.
    gen, legal:
        The legal actions (§13; never handed out, only copies of it) for the centre of
        :attr:`_Memo.gen` ``gen``.
    view:
        The seat's dict in the view (§12), for the totals and Ready set of the memo; ``None`` until needed.
    posts_json:
        The Post piles (copies) and their card dicts in the last view made of this seat, for the next
        view to reuse the piles' lists that did not change; ``None`` until then.
    """

    __slots__ = ("parts", "head", "wood", "hand", "gen", "legal", "view", "posts_json")

    parts: tuple[list[BlitzCard], list[list[BlitzCard]], list[BlitzCard], list[BlitzCard]]
    head: _Head
    wood: _Info | None
    hand: bool
    gen: int
    legal: list[Action]
    view: dict[str, Any] | None
    posts_json: tuple[list[list[BlitzCard]], list[list[dict[str, Any]]]] | None


class _Memo:
    """Derived data of a :class:`DutchBlitz` state (not state: left out of pickles and snapshots).

    Every part is checked against the state it was made from before it is used (a copy of the
    piles, compared at C speed), never against a move counter, so a state changed from outside
    (a test staging a position) is never read stale. A Dutch-pile play made through the engine also
    updates the copy of the centre and what derives from it in step (only the two openings it changed),
    instead of leaving every seat to remake its Dutch-pile plays. What the legal actions and views hand
    out from here (action dicts, the nested lists and dicts of a view) is shared between calls and
    read-only, as in the Dutch engine.

    Attributes
    ----------
    options, players:
        The engine's options and players it was made for (compared by identity).
    move_post_stacks, stuck:
        From the options: whether ``stack`` moves are allowed (§5) and the stuck rule is on (§8).
    flip, shift, end:
        The ``flip`` and ``shift`` actions (§7) and ``[end_hand]`` when the stuck rule is on, else ``[]``
        (§8): one of each for all the legal actions this memo hands out.
    seats:
        One :class:`_SeatMemo` per seat (``None`` until first needed).
    dutch, gen:
        A copy of the Dutch piles and a number that changes whenever that copy changes.
    openings:
        ``_openings()`` of that copy (``None`` until needed).
    piles_json:
        The ``dutch_piles`` of the view (``None`` until needed).
    totals, ready:
        Copies of the totals and the Ready set the seats' views were made with.
    scores, endings:
        The ``hand_scores`` and ``hand_endings`` of the view (copies, compared with the state's).
    """

    __slots__ = ("options", "players", "move_post_stacks", "stuck", "flip", "shift", "end", "seats", "dutch", "gen",
                 "openings", "piles_json", "totals", "ready", "scores", "endings")

    def __init__(self, options: DutchBlitzOptions, players: tuple[str, ...], seats: int) -> None:
        self.options = options
        self.players = players
        self.move_post_stacks = options.move_post_stacks
        self.stuck = options.stuck_seconds > 0
        self.flip: Action = {"type": "flip"}
        self.shift: Action = {"type": "shift"}
        self.end: list[Action] = [{"type": "end_hand"}] if self.stuck else []
        self.seats: list[_SeatMemo | None] = [None] * seats
        self.dutch: list[list[BlitzCard]] | None = None
        self.gen = 0
        self.openings: dict[_Key, list[int]] | None = None
        self.piles_json: list[dict[str, Any]] | None = None
        self.totals: dict[str, int] | None = None
        self.ready: set[str] | None = None
        self.scores: list[dict[str, int]] | None = None
        self.endings: list[dict[str, Any]] | None = None

    def played(self, pile: int, card: BlitzCard, started: bool) -> None:
        """Follow a Dutch-pile play the engine just made: *card* went onto *pile* (a new pile when
        *started*). The copy of the centre takes the same card; the openings, the view's piles and the
        seats' Dutch-pile plays that the two changed openings cannot touch are carried over to the new
        :attr:`gen`. Should the copy not match (the state was changed from outside), it is dropped and
        made again from the state when next needed.
        """
        dutch = self.dutch
        if dutch is None:
            return
        openings = self.openings
        info = _INFO.get(id(card)) or _info(card)
        new_key = info[10]  # the opening the pile has now
        if started:
            if pile != len(dutch):
                self.dutch = None
                return
            dutch.append([card])
            keys: tuple[_Key | None, ...] = (new_key,)
            if openings is not None and new_key is not None:  # (a 1: never None)
                openings.setdefault(new_key, []).append(pile)  # the highest index: still in order
        else:
            if pile >= len(dutch):
                self.dutch = None
                return
            copy = dutch[pile]
            old = copy[-1]
            copy.append(card)
            old_key = (_INFO.get(id(old)) or _info(old))[10]
            keys = (old_key, new_key)
            if openings is not None:
                if old_key is not None:
                    piles = openings.get(old_key)
                    if piles is None or pile not in piles:  # pragma: no cover - the openings follow the copy
                        openings = self.openings = None
                    else:
                        piles.remove(pile)
                        if not piles:
                            del openings[old_key]
                if openings is not None and new_key is not None:
                    piles = openings.setdefault(new_key, [])
                    piles.append(pile)
                    if len(piles) > 1:
                        piles.sort()
        old_gen = self.gen
        gen = self.gen = old_gen + 1
        if openings is not None:
            for sm in self.seats:
                if sm is None:
                    continue
                head = sm.head
                if head.gen == old_gen and head.keys.isdisjoint(keys):
                    head.gen = gen
                    if sm.gen == old_gen and (sm.wood is None or sm.wood[6] not in keys):
                        sm.gen = gen
        piles_json = self.piles_json
        if piles_json is not None:
            entry = {"pile": pile, "colour": info[2][0], "top": info[4], "size": len(dutch[pile]),
                     "complete": info[1] == 10}
            piles_json = self.piles_json = piles_json.copy()
            if started:
                piles_json.append(entry)
            else:
                piles_json[pile] = entry


def _plain_copy(action: Action) -> Action | None:
    """A copy of *action* equal to ``canonical(action)`` (:func:`~bot.engine.core.canonical`) when its keys
    are strings and its values strings, ints, booleans or ``None`` (every action the engine lists);
    ``None`` for anything else (the caller then goes through ``canonical``, which decides).
    """
    out: Action = {}
    for key, value in action.items():
        kind = type(value)
        if type(key) is str and (kind is str or kind is int or value is None or kind is bool):
            out[key] = value
        else:
            return None
    return out


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

    def legal_actions(self, player: str) -> list[Action]:
        """Every action *player* may take now (§13), as :meth:`Engine.legal_actions
        <bot.engine.core.Engine.legal_actions>` gives them: a new list whose action dicts are shared
        between calls and read-only (``docs/design.md`` §2); empty once the game is over.

        Hot (the simulator and the table ask every seat after every move), so the base class's
        checks are made here in one call instead of through :meth:`_legal_actions`.

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        try:
            index = self.players.index(player)
        except ValueError:
            self._check_player(player)  # raises
            raise
        phase = self.phase
        if phase != PLAY:
            if phase == OVER:
                return []
            return [{"type": "next_hand"}] if player in self.ready else [{"type": "ready"}, {"type": "next_hand"}]
        # The same actions as _moves(seat) plus end_hand, from the memos of the seat and of the centre
        # (checked here against the state, as _memo_now and _seat_now do).
        memo = self._memo
        if (memo is None or memo.options is not self.options or memo.players is not self.players
                or self.dutch != memo.dutch):
            memo = self._memo_now()
        sm = memo.seats[index]
        parts = _PARTS(self.seats[index])
        if sm is None or parts != sm.parts:
            sm = self._seat_now(memo, index, parts)
        if sm.gen == memo.gen:
            legal = sm.legal
        else:
            legal = self._seat_legal(memo, sm)
        if legal:
            return legal[:]
        # (with the stuck rule on, the legal actions end with end_hand: never empty)
        return [{"type": "end_hand"}] if self._dead_hand() else []

    def _legal_actions(self, player: str) -> list[Action]:
        return self.legal_actions(player)

    def can_act(self, player: str) -> bool:
        """Whether *player* has any legal action now (:meth:`Engine.can_act
        <bot.engine.core.Engine.can_act>`), mostly without listing them: between hands everyone
        may (``ready`` or ``next_hand``, §11); in a hand, anyone while the stuck rule is on
        (``end_hand``, §8) and anyone with cards in hand or on the Wood pile (``flip``, §7).

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        phase = self.phase
        if phase == PLAY and self.options.stuck_seconds > 0 and player in self.players:
            return True  # (the simulator asks every seat holding a plan after every move)
        if player not in self.players:
            self._check_player(player)
        if phase != PLAY:
            return phase != OVER
        if self.options.stuck_seconds > 0:
            return True
        seat = self.seats[self.players.index(player)]
        return bool(seat.hand or seat.wood) or bool(self.legal_actions(player))

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

    def _seat_now(self, memo: _Memo, index: int, parts: tuple[list[BlitzCard], list[list[BlitzCard]],
                                                              list[BlitzCard], list[BlitzCard]]) -> _SeatMemo:
        """The memo of seat *index* renewed from *parts*, its piles ``(blitz, posts, wood, hand)`` (the caller
        found that they differ from the memo's copy).
        """
        sm = memo.seats[index]
        blitz, posts, wood, hand = parts
        blitz_top = blitz[-1] if blitz else None
        if sm is None:
            sm = memo.seats[index] = _SeatMemo()
            sm.posts_json = None
            head = None
        else:
            head = sm.head
        if head is None or head.blitz_top is not blitz_top or head.posts != posts:
            head = sm.head = _Head(blitz_top, posts, head, memo)
        sm.parts = (blitz[:], head.posts, wood[:], hand[:])
        if wood:
            top = wood[-1]
            sm.wood = _INFO.get(id(top)) or _info(top)
        else:
            sm.wood = None
        sm.hand = bool(hand)
        sm.gen = -1
        sm.view = None
        return sm

    def _seat_legal(self, memo: _Memo, sm: _SeatMemo) -> list[Action]:
        """Make (and return) the legal actions of *sm* for the centre of *memo*, in the order ``_moves``
        lists them: the Dutch-pile plays by source then pile (§3), the ``post`` actions by source then
        target (§4), the stacks (§5), ``flip``, ``shift`` when no Dutch-pile play is left (§7),
        ``end_hand`` (§8).
        """
        openings = memo.openings
        if openings is None:
            assert memo.dutch is not None  # _memo_now() made it
            openings = memo.openings = self._openings(memo.dutch)
        gen = memo.gen
        head = sm.head
        if head.gen != gen:
            head.dutch = _dutch_plays(head.visible, openings)
            head.gen = gen
        dutch = head.dutch
        wood = sm.wood
        if wood is None:
            # No Wood pile: no shift (§7), and no flip either when the hand is empty too.
            tail = head.busy if sm.hand else [*head.own, *head.stacks, *memo.end]
            legal = dutch + tail if dutch else tail
        else:
            key = wood[6]
            if key is None:
                dutch = [*dutch, {"type": "dutch", "from": "wood", "pile": None}]
            else:
                piles = openings.get(key)
                if piles:
                    dutch = dutch + [{"type": "dutch", "from": "wood", "pile": pile} for pile in piles]
            targets = head.wants.get(wood[5])
            if targets is None:
                legal = dutch + head.busy if dutch else head.free
            else:
                builds = head.wood_builds.get(wood[5])
                if builds is None:
                    builds = head.wood_builds[wood[5]] = [{"type": "post", "from": "wood", "to": to} for to in targets]
                own = [*head.own, *builds, *head.stacks, memo.flip]
                legal = [*dutch, *own, *memo.end] if dutch else [*own, memo.shift, *memo.end]
        sm.legal = legal
        sm.gen = gen
        return legal

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

    def _copied(self, action: Action) -> Action:
        """The engine's copy of *action* (:meth:`Engine._copied <bot.engine.core.Engine._copied>`): an action
        of strings, ints, booleans and ``None`` under string keys (every action the engine lists) is
        copied directly (:func:`_plain_copy`), anything else goes through :func:`~bot.engine.core.canonical`
        as in every game.

        Raises
        ------
        IllegalAction
            *action* holds something JSON cannot carry.
        """
        if type(action) is dict:
            if len(action) == 1:
                kind = action.get("type")
                if type(kind) is str:  # flip, shift, end_hand, ready, next_hand
                    return {"type": kind}
            else:
                copied = _plain_copy(action)
                if copied is not None:
                    return copied
        return super()._copied(action)

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
        seat = self.seats[self.players.index(player)]
        source = action.get("from")
        if source == "wood" and seat.wood:  # (the commonest source)
            card = seat.wood[-1]
        else:
            card, source = self._source_card(seat, source)
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
        refills: list[Event] = []
        taken = seat.wood.pop() if source == "wood" else self._take(player, seat, source, refills)
        started = pile is None
        dutch = self.dutch
        if pile is None:
            dutch.append([taken])
            pile = len(dutch) - 1
        else:
            dutch[pile].append(taken)
        memo = self._memo
        if memo is not None:
            memo.played(pile, taken, started)
        value = taken.value
        events = [Event("dutch", {
            "player": player, "card": _card_json(taken), "from": source, "pile": pile,
            "size": len(dutch[pile]), "started": value == 1, "complete": value == 10,
        })]
        if refills:
            events.extend(refills)
        if seat.blitz:
            return events
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
        if len(action) != 1:  # (the engine core saw to a "type")
            self._only(action)
        seat = self.seats[self.players.index(player)]
        hand, wood = seat.hand, seat.wood
        if not hand and not wood:
            raise IllegalAction("you have no cards in your hand or Wood pile to flip")
        turned = not hand
        if turned:
            # Turn the Wood pile over as the new hand, without shuffling: its bottom card becomes
            # the top of the hand, so the cards come round again in the same order.
            hand = seat.hand = wood
            wood = seat.wood = []
            seat.turnovers += 1
        count = 3 if len(hand) >= 3 else len(hand)
        # The three cards are turned over together: the third one ends on top of the Wood pile.
        wood.extend(hand[:count])
        del hand[:count]
        top = wood[-1]
        shown = _JSONS.get(id(top))  # (_card_json, inline: most moves are flips)
        return [Event("flip", {"player": player, "count": count, "turned_over": turned,
                               "wood_top": _card_json(top) if shown is None else shown.copy(), "hand": len(hand)})]

    def _do_shift(self, player: str, action: Action) -> list[Event]:
        """``{"type": "shift"}``: the Wood pile's top goes under the hand, only while stuck (§7)."""
        if len(action) != 1:  # (the engine core saw to a "type")
            self._only(action)
        seat = self._seat(player)
        if not seat.wood:
            raise IllegalAction("your Wood pile is empty: there is nothing to shift")
        memo = self._memo
        if memo is not None and memo.openings is not None and memo.dutch == self.dutch:
            openings = memo.openings  # (the memo's, of the same piles)
        else:
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
        if len(action) != 1:  # (the engine core saw to a "type")
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
        if len(action) != 1:  # (the engine core saw to a "type")
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
        if len(action) != 1:  # (the engine core saw to a "type")
            self._only(action)
        if self.phase != BETWEEN:
            raise IllegalAction("the hand is still being played: there is no next hand to start yet")
        return self._start_hand(forced_by=player)

    def _start_hand(self, *, forced_by: str | None) -> list[Event]:
        self._deal()
        return [Event("hand_started", {"hand": self.hand_number, "forced_by": forced_by})]

    # ------------------------------------------------------------------ views and the end

    def view(self, player: str | None) -> dict[str, Any]:
        """What *player* may see (§12), as :meth:`Engine.view <bot.engine.core.Engine.view>` gives it
        (``None``: a spectator): a new dict whose nested lists and dicts are shared between calls and
        read-only (``docs/design.md`` §2). The shape is in the package docstring.

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        if player is not None and player not in self.players:
            self._check_player(player)
        return self._view(player)

    def _view(self, player: str | None) -> dict[str, Any]:
        # Every seat's bot or board asks after every move. Each view is a new dict whose nested
        # lists and dicts come from the memo and are shared by the views of the same state
        # (read-only): the seat dicts, the Dutch piles, the scores and endings. Each part is
        # checked against the state (the memos' copies of the piles, the totals, the Ready set,
        # the scores and endings), so it is remade whenever the state changed, by a move or from
        # outside; unchanged seats and Dutch piles keep their dicts.
        memo = self._memo
        if (memo is None or memo.options is not self.options or memo.players is not self.players
                or self.dutch != memo.dutch):
            memo = self._memo_now()
        sms = memo.seats
        if self.totals != memo.totals or self.ready != memo.ready:  # (once a hand, or between hands)
            memo.totals = dict(self.totals)
            memo.ready = set(self.ready)
            for sm in sms:
                if sm is not None:
                    sm.view = None
        totals, ready = memo.totals, memo.ready
        assert totals is not None and ready is not None
        state = self.seats
        players = self.players
        seats: list[dict[str, Any]] = []
        for i, sm in enumerate(sms):
            parts = _PARTS(state[i])
            if sm is None or parts != sm.parts:
                sm = self._seat_now(memo, i, parts)
            seat_view = sm.view
            if seat_view is None:
                p = players[i]
                seat_view = sm.view = self._seat_view(i, p, sm, totals[p], p in ready)
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
            "me": None if player is None else players.index(player),
        }

    @staticmethod
    def _seat_view(index: int, player: str, sm: _SeatMemo, total: int, is_ready: bool) -> dict[str, Any]:
        """One seat of the view (§12), from the copy of its piles in *sm*."""
        blitz, posts, wood, hand = sm.parts
        head = sm.head
        posts_json = head.posts_json
        if posts_json is None:
            # Most moves change one or two Post piles: the others keep their lists of card dicts.
            last = sm.posts_json
            posts_json = []
            j = 0
            for pile in posts:
                if last is not None and j < len(last[0]) and last[0][j] == pile:
                    posts_json.append(last[1][j])
                else:
                    try:
                        posts_json.append(list(map(_JSON_OF, map(id, pile))))
                    except KeyError:  # a card not of the decks (built by a test, unpickled)
                        posts_json.append([_info(c)[4] for c in pile])
                j += 1
            head.posts_json = posts_json
            sm.posts_json = (posts, posts_json)
        wood_top = sm.wood
        return {
            "player": player,
            "seat": index,
            "blitz_top": head.blitz_json,
            "blitz_count": len(blitz),
            "posts": posts_json,
            "wood_top": None if wood_top is None else wood_top[4],
            "wood_count": len(wood),
            "hand_count": len(hand),
            "total": total,
            "ready": is_ready,
        }

    @staticmethod
    def _piles_view(memo: _Memo) -> list[dict[str, Any]]:
        """The ``dutch_piles`` of the view (§12) from the memo's copy of the piles."""
        assert memo.dutch is not None  # _memo_now() made it
        return [{"pile": i, "colour": pile[-1].colour, "top": _shared_json(pile[-1]), "size": len(pile),
                 "complete": pile[-1].value == 10} for i, pile in enumerate(memo.dutch)]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (:attr:`Engine.is_over <bot.engine.core.Engine.is_over>`, without a hook call)."""
        return self.phase == OVER

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
