"""The computer-player interface shared by every game.

A bot plays one seat. It reads only what its seat may know: its own :meth:`Engine.view
<bot.engine.core.Engine.view>`, its own legal actions and the events visible to it. It never
sees the engine. Its chance (which move, how long it takes to react) comes from its own
:class:`random.Random`, seeded by the table or simulator, so bot games replay exactly.

Each game package exports ``BOTS``, a mapping from a bot's kind (``"greedy"``, ``"easy"``, …) to
its class, strongest first; its declaration's ``strengths`` says which kind plays easy, normal (the
default) and hard (``bot.engine.game.Game.bot_for``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, ClassVar

from bot.engine.core import Action, Event

__all__ = ["Bot", "Pacing", "RandomBot"]


class Pacing:
    """A human-like reaction-time distribution, in milliseconds.

    Delays are drawn from a log-normal distribution with the given median, clamped to
    ``[minimum_ms, maximum_ms]``.

    Parameters
    ----------
    median_ms:
        The median reaction time in milliseconds.
    spread:
        The log-normal sigma (0 gives a fixed delay).
    minimum_ms, maximum_ms:
        Bounds of any one delay, in milliseconds.
    """

    def __init__(self, median_ms: float = 900.0, spread: float = 0.35, minimum_ms: float = 150.0,
                 maximum_ms: float = 6000.0) -> None:
        if median_ms <= 0 or spread < 0 or not 0 <= minimum_ms <= maximum_ms:
            raise ValueError(
                f"pacing needs median_ms > 0 (got {median_ms}), spread >= 0 (got {spread}) "
                f"and 0 <= minimum_ms <= maximum_ms (got {minimum_ms}, {maximum_ms})"
            )
        self.median_ms = median_ms
        self.spread = spread
        self.minimum_ms = minimum_ms
        self.maximum_ms = maximum_ms

    def draw(self, rng: Random) -> int:
        """One reaction time in whole milliseconds, drawn from *rng*."""
        value = self.median_ms * math.exp(rng.gauss(0.0, self.spread)) if self.spread else self.median_ms
        if value < self.minimum_ms:
            value = self.minimum_ms
        elif value > self.maximum_ms:
            value = self.maximum_ms
        return int(value)

    def __repr__(self) -> str:
        return f"Pacing(median_ms={self.median_ms}, spread={self.spread})"


class Bot:
    """Base class of a computer player for one seat.

    Parameters
    ----------
    player:
        The player id of the seat this bot plays.
    rng:
        The bot's own random generator (seed it from the game seed and the seat).
    pacing:
        Its reaction-time distribution; ``None`` takes :attr:`default_pacing`.

    Subclasses implement :meth:`choose` and may override :meth:`observe`, :meth:`chooses_nothing`,
    :meth:`choose_lazily` and :meth:`is_idle`.
    """

    name: ClassVar[str] = "bot"
    """The name the simulator's ``--bot`` flag and the table use."""

    default_pacing: ClassVar[Pacing] = Pacing()

    def __init__(self, player: str, rng: Random, pacing: Pacing | None = None) -> None:
        self.player = player
        self.rng = rng
        self.pacing = pacing or self.default_pacing

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Pick one of *legal* given this seat's *view*, or ``None`` to do nothing for now.

        *legal* is never empty when this is called.
        """
        raise NotImplementedError

    def chooses_nothing(self, legal: Sequence[Action]) -> bool:
        """Whether :meth:`choose` would return ``None`` for *legal* whatever the view shows.

        A bot answers ``True`` only when it is sure from *legal* alone, and answering neither draws
        from its RNG nor changes its memory; a caller may then skip the view and :meth:`choose`
        (the simulator does, for the seats a game asks after every move while they have nothing
        to do, through the default :meth:`choose_lazily`). The default, ``False``, always asks. *legal*
        is never empty when this is called.
        """
        return False

    def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
        """What :meth:`choose` returns for *legal* and the view ``view()``, asking for the view only
        when the choice depends on it.

        *view* returns this seat's :meth:`Engine.view <bot.engine.core.Engine.view>` (the same dict
        :meth:`choose` would be given); a bot overrides this when *legal* alone often decides, so that
        a caller spares the engine the view (the simulator asks every choice through here). The answer,
        the draws from the bot's RNG and the changes to its memory must be exactly :meth:`choose`'s.
        The default answers ``None`` when :meth:`chooses_nothing` says so, and otherwise asks for the
        view and calls :meth:`choose`. *legal* is never empty when this is called.
        """
        return None if self.chooses_nothing(legal) else self.choose(view(), legal)

    def is_idle(self) -> bool:
        """Whether the bot is sure, from the events it has observed alone, that it chooses nothing now
        whatever its seat's legal actions and view: its seat has no legal action, or
        :meth:`choose_lazily` would answer ``None`` without drawing from its RNG or changing its memory.

        A caller may then skip asking the engine for the seat's legal actions at all (the simulator
        does, for bots that override this: most seats of a turn-based game wait most of the time).
        A bot answers ``True`` only when its own record of the game (whose turn it is, what it
        remembers) says so for certain; answering neither draws from its RNG nor changes its memory.
        The default, ``False``, always asks.
        """
        return False

    def observe(self, events: Sequence[Event]) -> None:
        """Called with every event this seat may see, in order (for memory bots).

        Read *events*, never change them: the same sequence may go to every seat.
        """

    def delay_ms(self) -> int:
        """How long this bot takes to make its next move, in milliseconds."""
        return self.pacing.draw(self.rng)


class RandomBot(Bot):
    """The floor of every strength table: picks uniformly among its legal actions.

    Actions whose type is in :attr:`avoid` (the moves a table keeps for its host, such as ending
    a hand) are left out unless nothing else is legal. Games subclass it to set :attr:`avoid`.
    """

    name = "random"
    avoid: ClassVar[frozenset[str]] = frozenset()
    """Action types a random player leaves alone while anything else is legal."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Any legal action not in :attr:`avoid`, by the bot's own RNG."""
        choices = [a for a in legal if a["type"] not in self.avoid] or list(legal)
        return dict(self.rng.choice(choices))
