"""Per-game figures of Dutch for the simulator (``bot.engine.simulate``; ``docs/rules/dutch.md`` §11)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine.core import Event

__all__ = ["figures", "Figures", "Tally"]


class Tally:
    """Dutch's figures of one game, counted as it goes (:attr:`Figures.tally`, for the simulator).

    :meth:`add` takes the game's events in order, in as many batches as the caller likes;
    :meth:`figures` then answers what :func:`figures` answers for all of them.
    """

    __slots__ = ("rounds", "hands", "hand_total", "dutch_calls", "undercuts", "outright", "deck_endings",
                 "right", "wrong", "powers", "power_actions")

    def __init__(self) -> None:
        self.rounds = self.hands = self.hand_total = self.dutch_calls = self.undercuts = 0
        self.outright = self.deck_endings = self.right = self.wrong = self.powers = self.power_actions = 0

    def add(self, events: Iterable[Event]) -> None:
        """Count *events*, the next ones of the game."""
        right = wrong = powers = power_actions = dutch_calls = 0
        for e in events:  # one pass (a game has thousands of events)
            kind = e.type
            if kind == "round_over":
                d = e.data
                self.rounds += 1
                values = d["values"].values()
                self.hands += len(values)
                self.hand_total += sum(values)
                self.undercuts += d["outcome"] in ("tied", "undercut")
                self.outright += d["outcome"] == "outright"
                self.deck_endings += d["why"] == "deck"
            elif kind == "jump_in":
                if e.data["right"]:
                    right += 1
                else:
                    wrong += 1
            elif kind == "dutch":
                dutch_calls += 1
            elif kind == "power":
                powers += 1
            elif kind == "power_look" or kind == "power_swap":
                power_actions += 1
        self.right += right
        self.wrong += wrong
        self.powers += powers
        self.power_actions += power_actions
        self.dutch_calls += dutch_calls

    def figures(self, engine: Any) -> dict[str, int | float]:
        """The figures of the events counted so far, the game being *engine* (see :func:`figures`)."""
        result = engine.result()
        return {
            "rounds": self.rounds,
            "avg_final_hand": round(self.hand_total / self.hands, 3) if self.hands else 0.0,
            "dutch_calls": self.dutch_calls,
            "undercuts": self.undercuts,
            "outright_calls": self.outright,
            "deck_endings": self.deck_endings,
            "jump_ins_right": self.right,
            "jump_ins_wrong": self.wrong,
            "powers": self.powers,
            "power_actions": self.power_actions,
            "winning_score": min(result.scores.values()) if result is not None else 0,
        }


class Figures:
    """The type of :func:`figures`: a function of a finished game, with the :class:`Tally` that counts
    the same figures as the game goes (``figures.tally``, which the simulator uses when present).
    """

    tally = Tally
    means = frozenset({"avg_final_hand", "winning_score"})
    """The figures that are values per game, averaged over games, never added up (``bot.engine.game.mean_figures``)."""

    def __call__(self, engine: Any, events: Sequence[Event]) -> dict[str, int | float]:
        """Numbers worth printing for one finished game, from its events.

        Returns
        -------
        dict
            ``rounds``; ``avg_final_hand`` (mean hand value over every player and round, points);
            ``dutch_calls``; ``undercuts`` (calls that were tied or beaten); ``outright_calls``;
            ``deck_endings`` (rounds ended by the deck running out); ``jump_ins_right`` /
            ``jump_ins_wrong``; ``powers`` (J/Q/K powers granted) and ``power_actions`` (looks and
            swaps made with them); ``winning_score`` (the winner's total, or hand in the aggressive set).
        """
        tally = Tally()
        tally.add(events)
        return tally.figures(engine)


figures = Figures()
"""``figures(engine, events) -> dict``: Dutch's per-game figures (:meth:`Figures.__call__`)."""
