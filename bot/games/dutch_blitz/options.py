"""Table options of Dutch Blitz (``docs/rules/dutch-blitz.md`` §10).

Every field is a switch a table may set when it opens; the defaults are the rule texts' and the
rulings' (``docs/rules/dutch-blitz.md``). The simulator's CLI turns each field into
a ``--<name>`` flag (underscores become dashes).

>>> DutchBlitzOptions()
DutchBlitzOptions(target=75, move_post_stacks=False, stuck_seconds=60, max_hands=30)
>>> DutchBlitzOptions(target=0)
Traceback (most recent call last):
...
ValueError: option target must be a whole number from 1 to 10000, got 0
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.options import check_options, option

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

    target: int = option(75, help="Points that end the game: after the hand in which a total reaches them",
                         min=1, max=10_000)
    move_post_stacks: bool = option(False, help="Allow moving a whole Post pile onto another")
    stuck_seconds: int = option(60, help="Seconds without a Dutch-pile play before the host may end the hand "
                                         "(0: never)", min=0, max=3600)
    max_hands: int = option(30, help="Hands after which the highest total wins without reaching the target",
                            min=1, max=1000)

    def __post_init__(self) -> None:
        check_options(self)
