"""Table options of Dutch Blitz (``docs/rules/dutch-blitz.md`` §10).

Every field is a switch a table may set when it opens; the defaults are the rule texts' and the
rulings' (``docs/rules/dutch-blitz.md``). The simulator's CLI turns each field into
a ``--<name>`` flag (underscores become dashes).

>>> DutchBlitzOptions()
DutchBlitzOptions(target=75, move_post_stacks=False, stuck_seconds=60, max_hands=30)
>>> DutchBlitzOptions(target=0)
Traceback (most recent call last):
...
ValueError: option target must be a whole number of points from 1 to 10000, got 0
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DutchBlitzOptions"]


@dataclass(frozen=True, slots=True)
class DutchBlitzOptions:
    """The options of a Dutch Blitz table.

    Attributes
    ----------
    target:
        Points (int, >= 1) that end the game: the game ends after the hand in which anyone's
        total reaches it, unless the highest total is tied (``docs/rules/dutch-blitz.md`` §9;
        ruling "Scoring per hand", *option* ``target``, default 75).
    move_post_stacks:
        Whether a whole Post pile may be moved onto another Post pile when its bottom card fits
        there (``docs/rules/dutch-blitz.md`` §5; ruling "Playable cards", *option*
        ``move_post_stacks``, default off).
    stuck_seconds:
        Seconds (int, >= 0) without a card going onto a Dutch pile after which the host may end
        the hand (``docs/rules/dutch-blitz.md`` §8; ruling "The hand ends", *option*, default 60).
        The engine cannot see the clock: the table keeps this timer and applies ``end_hand``;
        0 turns the stuck rule off, and then the engine lists ``end_hand`` only for a dead hand
        in which nobody can move at all.
    max_hands:
        Hands (int, 1 to 1000) after which the highest total wins even if nobody has reached
        ``target``; a tie at the top plays one more hand (``docs/rules/dutch-blitz.md`` §9, ruling
        *option* ``max_hands``, default 30). With many players the totals can drift below zero,
        and without this limit such a game might never end.

    Raises
    ------
    ValueError
        From construction, naming the option, the bad value and what was expected.
    """

    target: int = 75
    move_post_stacks: bool = False
    stuck_seconds: int = 60
    max_hands: int = 30

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 1 <= self.target <= 10_000:
            raise ValueError(f"option target must be a whole number of points from 1 to 10000, got {self.target!r}")
        if not isinstance(self.move_post_stacks, bool):
            raise ValueError(f"option move_post_stacks must be true or false, got {self.move_post_stacks!r}")
        if (isinstance(self.stuck_seconds, bool) or not isinstance(self.stuck_seconds, int)
                or not 0 <= self.stuck_seconds <= 3600):
            raise ValueError(
                f"option stuck_seconds must be a whole number of seconds from 0 (rule off) to 3600, "
                f"got {self.stuck_seconds!r}"
            )
        if (isinstance(self.max_hands, bool) or not isinstance(self.max_hands, int)
                or not 1 <= self.max_hands <= 1000):
            raise ValueError(f"option max_hands must be a whole number of hands from 1 to 1000, got {self.max_hands!r}")
