"""Computer players for Dutch Blitz: ``greedy`` (hard), ``steady`` (normal: greedy's move half the
time, easy's otherwise) and ``easy``.

A bot reads only its own view (every face-up card on the table, ``docs/rules/dutch-blitz.md``
§12), its own legal actions and the events it may see. Both bots react at human speed: each
takes a :class:`~bot.engine.bots.Pacing` (reaction time in milliseconds) as a parameter.

Both send ``ready`` at once between hands and never force the next hand (§11). Stuck, both shift
(§7) once after each turnover of their Wood pile with no Dutch-pile play since, so that the next
round of flips shows other cards; at a table that is all they can do, since ending a stuck hand is
the host's (§8). In the simulator they also stand in for the host: a bot that has turned its Wood
pile back over several times since any card last went onto a Dutch pile sends ``end_hand``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any, ClassVar

from bot.engine.bots import Bot, Pacing
from bot.engine.bots import RandomBot as BaseRandomBot
from bot.engine.core import Action, Event
from bot.games.dutch_blitz.engine import DutchBlitz

__all__ = ["DutchBlitzBot", "GreedyBot", "SteadyBot", "EasyBot", "RandomBot", "BOTS"]

_SOURCE_RANK = {"blitz": 0, "wood": 2}
_END: Action = {"type": "end_hand"}
_SHIFT: Action = {"type": "shift"}
_BETWEEN_HANDS = frozenset({"ready", "next_hand"})
"""The action types legal only between hands, and always there between hands (§11)."""


def _source_rank(source: str) -> int:
    return _SOURCE_RANK.get(source, 1)


class DutchBlitzBot(Bot):
    """Shared memory of the Dutch Blitz bots: how stuck the table looks from this seat.

    Attributes
    ----------
    turnovers_since_dutch:
        How often this bot turned its Wood pile back over since a card last went onto any Dutch
        pile (from the events it observed).
    shifts_since_dutch:
        How often it has shifted since then: at most once a turnover (:meth:`_wants_shift`).
    stuck_turnovers:
        The number of turnovers after which the bot calls the hand stuck (class setting).
    """

    stuck_turnovers: ClassVar[int] = 3

    def __init__(self, player: str, rng: Random, pacing: Pacing | None = None) -> None:
        super().__init__(player, rng, pacing)
        self.turnovers_since_dutch = 0
        self.shifts_since_dutch = 0

    def observe(self, events: Sequence[Event]) -> None:
        """Track Dutch-pile plays (anyone's) and this bot's own Wood-pile turnovers."""
        for event in events:
            kind = event.type
            if kind == "flip":  # the commonest event; a turnover is rare
                data = event.data
                if data.get("turned_over") and data.get("player") == self.player:
                    self.turnovers_since_dutch += 1
            elif kind == "dutch" or kind == "hand_started":
                self.turnovers_since_dutch = 0
                self.shifts_since_dutch = 0

    def chooses_nothing(self, legal: Sequence[Action]) -> bool:
        """Whether *legal* is only the host's ``next_hand``: a bot that is ready waits for the others (§11)."""
        return _only_next_hand(legal)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Pick a move (see the class); ``ready`` between hands. The choice is :meth:`choose_lazily`'s."""
        return self.choose_lazily(legal, lambda: view)

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """The choice of :meth:`choose` (each bot its own), reading ``view()`` only when it needs it."""
        raise NotImplementedError

    def _between_hands(self, legal: Sequence[Action]) -> Action | None:
        """``ready`` when it is legal (§11); only called between hands."""
        return {"type": "ready"} if {"type": "ready"} in legal else None

    def _wants_shift(self) -> bool:
        """Whether a stuck bot shifts now (§7): once after each turnover of its Wood pile with no
        Dutch-pile play since. One shift changes which cards the next round of flips shows by one,
        so a card no round showed comes up within a few turnovers; a bot that shifted only once
        could flip the same cards for ever at a table, where it cannot end the hand (§8).
        Counts the shift when the answer is yes.
        """
        if self.shifts_since_dutch < self.turnovers_since_dutch:
            self.shifts_since_dutch += 1
            return True
        return False

    def _stuck_moves(self, legal: Sequence[Action]) -> Action | None:
        """End the hand when this bot has been stuck long enough (§8), else shift once a turnover (§7)."""
        if _END in legal and (self.turnovers_since_dutch >= self.stuck_turnovers
                              or all(a == _END for a in legal)):
            return {"type": "end_hand"}
        if _SHIFT in legal and self._wants_shift():
            return {"type": "shift"}
        return None


class GreedyBot(DutchBlitzBot):
    """Plays like a good human (``docs/rules/dutch-blitz.md`` §3–§8).

    Order of preference: a Dutch-pile play from the Blitz pile; any other Dutch-pile play (1s at
    once, Post pile before Wood pile); a Blitz card onto a Post pile; a whole or one-card Post
    pile moved so that it is refilled from the Blitz pile; a Wood card onto a Post pile when the
    Blitz card then fits on it; otherwise, when stuck, shift (once a turnover) or end the hand;
    otherwise flip.

    Parameters
    ----------
    player, rng:
        See :class:`~bot.engine.bots.Bot`.
    pacing:
        Reaction time in milliseconds; default median 800 ms.
    """

    name = "greedy"
    default_pacing = Pacing(median_ms=800.0, spread=0.35, minimum_ms=250.0, maximum_ms=4000.0)

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """Pick the best move by the order above; ``ready`` between hands.

        The view is asked only when the legal actions leave the choice open: for the phase when
        ``ready`` or ``next_hand`` is legal (only between hands, §11; not for ``next_hand`` alone, see
        :meth:`chooses_nothing`), for the sizes of the Post piles
        when a Post card could go to the centre from two piles or onto another Post pile, and for the
        Blitz and Wood tops when a Wood card could go on a Post pile. Most choices (a flip, a Blitz
        card played) need none of it.
        """
        # One pass over the legal actions (a bot chooses after nearly every move), keeping the first
        # action of each kind in the order above, and every Dutch-pile play from a Post pile (their
        # order depends on the piles' sizes). The same pass notes which of flip, shift and end_hand are
        # there (an action equal to {"type": ...} alone) for the stuck moves.
        flip = shift = None
        ends = 0
        between = moves = False
        for action in legal:
            kind = action["type"]
            if kind == "flip":
                if len(action) == 1:
                    flip = action
            elif kind == "end_hand":
                if len(action) == 1:
                    ends += 1
            elif kind == "shift":
                if len(action) == 1:
                    shift = action
            elif kind == "dutch" and action["from"] == "blitz":
                # The first choice, and the first such play is the one taken (Dutch-pile plays are
                # listed only during a hand, never with ready or next_hand: §11).
                return action
            elif kind in _BETWEEN_HANDS:
                between = True
            else:
                moves = True
        if between:
            if _only_next_hand(legal):  # chooses_nothing(legal)
                return None
            if view()["phase"] != "play":
                return self._between_hands(legal)
        if moves:  # (most choices have no card move to weigh: a flip, a shift or the end of the hand)
            choice = _best_move(legal, view)
            if choice is not None:
                return choice
        # _stuck_moves(legal), from what the pass noted.
        if ends and (self.turnovers_since_dutch >= self.stuck_turnovers or ends == len(legal)):
            return {"type": "end_hand"}
        if shift is not None and self._wants_shift():
            return shift
        if flip is not None:
            return flip
        return {"type": "end_hand"} if ends else None


class EasyBot(DutchBlitzBot):
    """A relaxed player: slower than ``greedy`` and less thorough, but sensible (§3–§8).

    It always sees a Dutch-pile play from its Blitz pile and overlooks each other Dutch-pile play
    with probability ``overlook``; it builds its Blitz card onto a Post pile whenever it can (that
    is how a Blitz pile empties) but makes none of ``greedy``'s cleverer Post-pile moves (moving
    Post piles to refill them, Wood cards that free the Blitz card). Otherwise it flips; stuck, it
    shifts once a turnover and ends the hand after a few turnovers. It beats random play clearly and loses
    to ``greedy`` (figures in ``docs/rules/dutch-blitz.md`` §14).

    Parameters
    ----------
    player, rng:
        See :class:`~bot.engine.bots.Bot`.
    pacing:
        Reaction time in milliseconds; default median 1000 ms.
    """

    name = "easy"
    default_pacing = Pacing(median_ms=1000.0, spread=0.4, minimum_ms=300.0, maximum_ms=5000.0)
    overlook: ClassVar[float] = 0.1
    stuck_turnovers = 4

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """Pick a move as described above; ``ready`` between hands. The view is asked only for the
        phase, when ``ready`` or ``next_hand`` is legal (only between hands, §11) and
        :meth:`chooses_nothing` does not already say the bot waits.
        """
        if any(a["type"] in _BETWEEN_HANDS for a in legal):
            if _only_next_hand(legal):  # chooses_nothing(legal)
                return None
            if view()["phase"] != "play":
                return self._between_hands(legal)
        dutch = [a for a in legal if a["type"] == "dutch"
                 and (a["from"] == "blitz" or self.rng.random() >= self.overlook)]
        if dutch:
            return min(dutch, key=lambda a: _source_rank(a["from"]))
        builds = [a for a in legal if a["type"] == "post" and a["from"] == "blitz"]
        if builds:
            return builds[0]
        stuck = self._stuck_moves(legal)
        if stuck is not None:
            return stuck
        if {"type": "flip"} in legal:
            return {"type": "flip"}
        return {"type": "end_hand"} if {"type": "end_hand"} in legal else None


class SteadyBot(Bot):
    """Normal strength: each choice is :class:`GreedyBot`'s with chance :attr:`hard_share`, else
    :class:`EasyBot`'s, both asked with this bot's own RNG (its games replay exactly); both keep
    their own record of the table. Between the two in speed too: median reaction 900 ms.

    Parameters
    ----------
    player, rng:
        See :class:`~bot.engine.bots.Bot`.
    pacing:
        Reaction time in milliseconds; default median 900 ms.
    """

    name = "steady"
    default_pacing = Pacing(median_ms=900.0, spread=0.35, minimum_ms=250.0, maximum_ms=4500.0)
    hard_share: ClassVar[float] = 0.5
    """The chance that a choice is the greedy bot's (``bench/bot_strengths.py`` measures the result)."""

    def __init__(self, player: str, rng: Random, pacing: Pacing | None = None) -> None:
        super().__init__(player, rng, pacing)
        self.hard = GreedyBot(player, rng, self.pacing)
        self.easy = EasyBot(player, rng, self.pacing)

    def observe(self, events: Sequence[Event]) -> None:
        """Both bots follow the table."""
        self.hard.observe(events)
        self.easy.observe(events)

    def chooses_nothing(self, legal: Sequence[Action]) -> bool:
        """As both bots: only the host's ``next_hand`` is left (§11)."""
        return _only_next_hand(legal)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """The choice of :meth:`choose_lazily` with *view*."""
        return self.choose_lazily(legal, lambda: view)

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """``None`` when :meth:`chooses_nothing`; else the greedy or the easy bot's choice (see the class)."""
        if _only_next_hand(legal):
            return None
        bot: DutchBlitzBot = self.hard if self.rng.random() < self.hard_share else self.easy
        return bot.choose_lazily(legal, view)


class RandomBot(BaseRandomBot):
    """Random play, the floor of the strength table: any legal move but the host's (§11, §8)."""

    avoid = DutchBlitz.table_actions


def _best_move(legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
    """The card move :meth:`GreedyBot.choose_lazily` prefers among *legal* (after a Dutch-pile play from the
    Blitz pile, which it takes at once), by its order of preference, or ``None`` when none is worth making
    (§3–§5). Reads ``view()`` only when the order depends on the Post piles' sizes or the Blitz and Wood tops.
    """
    from_wood_dutch = from_blitz = stack = from_wood = None
    from_posts: list[Action] = []  # Dutch-pile plays from Post piles
    builds: list[Action] = []  # post moves from Post piles
    for action in legal:
        kind = action["type"]
        if kind == "dutch":
            source = action["from"]
            if source == "wood":
                if from_wood_dutch is None:
                    from_wood_dutch = action
            elif source != "blitz":
                from_posts.append(action)
        elif kind == "post":
            source = action["from"]
            if source == "blitz":
                if from_blitz is None:
                    from_blitz = action
            elif source == "wood":
                if from_wood is None:
                    from_wood = action
            else:
                builds.append(action)
        elif kind == "stack":
            if stack is None:
                stack = action
    if from_posts:
        # A single-card Post pile played out is refilled from the Blitz pile: prefer it.
        if len(from_posts) > 1 and any(a["from"] != from_posts[0]["from"] for a in from_posts):
            posts = _me(view)["posts"]
            for action in from_posts:
                if len(posts[int(action["from"][5:])]) == 1:
                    return action
        return from_posts[0]
    if from_wood_dutch is not None:
        return from_wood_dutch
    if from_blitz is not None:
        return from_blitz
    if stack is not None:
        return stack
    if builds:
        posts = _me(view)["posts"]
        for action in builds:
            source = action["from"]
            if source.startswith("post:") and len(posts[int(source[5:])]) == 1:
                return action
    if from_wood is not None:
        me = _me(view)
        blitz_top, wood_top = me["blitz_top"], me["wood_top"]
        if (blitz_top and wood_top and blitz_top["value"] == wood_top["value"] - 1
                and _is_boy(blitz_top) != _is_boy(wood_top)):
            return from_wood
    return None


def _only_next_hand(legal: Sequence[Action]) -> bool:
    """Whether *legal* is only ``next_hand`` (a ready bot between hands, which waits: §11)."""
    return len(legal) == 1 and legal[0]["type"] == "next_hand"


def _me(view: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The seat's own part (``seats[me]``) of the view *view* returns."""
    whole = view()
    seat: dict[str, Any] = whole["seats"][whole["me"]]
    return seat


def _is_boy(card: dict[str, Any]) -> bool:
    return card["colour"] in ("red", "blue")


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "steady": SteadyBot, "easy": EasyBot}
"""Bot kind to class, strongest first; ``dutch_blitz.GAME.strengths`` names the easy, normal and hard ones."""
