"""The race arbiter: a lag-tolerant timing window for contested moves.

``docs/design.md`` §4. A claim on a contested resource (the next
slot of a Dutch pile, the jump-in on one discard) opens a window of ``window_ms`` when the first
claim arrives; every claim on the same resource arriving while it is open joins it. When the window
closes, its claims are ordered by their Discord timestamps (``interaction.created_at``, Unix ms),
ties (timestamps closer than ``tie_ms``, or equal) broken by the table's seeded RNG — never by
arrival order. The caller then applies them in that order; the engine refuses those that no longer
fit.

The arbiter is pure: it takes the current time as an argument (milliseconds of any monotonic
clock), so it is tested with a fake clock and no sleeps. The table service schedules the closing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Claim", "RaceArbiter", "Outcome"]


@dataclass(eq=False)
class Claim:
    """One player's claim on a contested resource.

    Attributes
    ----------
    resource:
        The contested resource (``engine.contested_resource(player, action)``).
    player:
        The engine player id.
    action:
        The engine action (JSON object).
    discord_ts_ms:
        The Discord timestamp of the interaction (or the bot's simulated click), Unix ms.
    payload:
        Anything the caller wants back with the ordered claim (e.g. a future to resolve).
    """

    resource: str
    player: str
    action: dict[str, Any]
    discord_ts_ms: int
    payload: Any = None


@dataclass
class Outcome:
    """What became of a claim once its window closed and it was applied or refused.

    Attributes
    ----------
    accepted:
        Whether the engine accepted the action.
    reason:
        The engine's refusal reason (empty when accepted).
    beaten_by:
        For a claim that lost the race (refused, or accepted by the engine but too late, as a second
        correct Dutch jump-in), the player whose claim in the same window was accepted first.
    margin_ms:
        By how many milliseconds (Discord timestamps) the winner was earlier.
    events:
        The engine events of an accepted claim.
    beat:
        For the accepted claim of a race, the players it beat and by how many ms.
    plain:
        Whether *reason* is the table's own answer, shown as it is (who may act, a stale or
        unreadable button), not a rule the engine named (shown as "Refused: …").
    note:
        The line the click itself adds to its board (``Click.note``), shown with the outcome.
    selection:
        The board's new selection, for a click that only changed the board (no move made).
    """

    accepted: bool
    reason: str = ""
    beaten_by: str | None = None
    margin_ms: int | None = None
    events: list[Any] = field(default_factory=list)
    beat: list[tuple[str, int]] = field(default_factory=list)
    plain: bool = False
    note: str = ""
    selection: str | None = None


@dataclass
class _Window:
    deadline_ms: float
    claims: list[Claim]


class RaceArbiter:
    """Collects contested claims into windows and orders them fairly.

    Parameters
    ----------
    window_ms:
        How long a window stays open after its first claim, in milliseconds.
    tie_ms:
        Claims whose Discord timestamps differ by less than this (ms) are tied; equal timestamps
        always are.
    rng:
        The table's seeded generator for tie-breaks, or the seed to make it from: then it is made
        at the first tie (a generator holds 2.5 KB, and most tables never see a tie).

    Raises
    ------
    ValueError
        A negative window or tie.
    """

    def __init__(self, window_ms: int, tie_ms: int, rng: random.Random | int) -> None:
        if window_ms < 0 or tie_ms < 0:
            raise ValueError(f"window_ms and tie_ms must be >= 0, got {window_ms} and {tie_ms}")
        self.window_ms = window_ms
        self.tie_ms = tie_ms
        self._rng = rng
        self._open: dict[str, _Window] = {}

    @property
    def rng(self) -> random.Random:
        """The generator for tie-breaks (made from the seed on first use)."""
        if not isinstance(self._rng, random.Random):
            self._rng = random.Random(self._rng)
        return self._rng

    def submit(self, claim: Claim, now_ms: float) -> bool:
        """Add *claim*; returns ``True`` when it opened a new window (the caller schedules its close).

        A window is open until it is closed: a claim that arrives after its deadline but before
        the caller got round to closing it still joins it (and so is never lost).
        """
        window = self._open.get(claim.resource)
        if window is not None:
            window.claims.append(claim)
            return False
        self._open[claim.resource] = _Window(now_ms + self.window_ms, [claim])
        return True

    def deadline(self, resource: str) -> float | None:
        """When the open window on *resource* closes (ms), or ``None``."""
        window = self._open.get(resource)
        return window.deadline_ms if window else None

    def close(self, resource: str) -> list[Claim]:
        """Close the window on *resource* and return its claims in fair order (empty if none open)."""
        window = self._open.pop(resource, None)
        return self.order(window.claims) if window else []

    def drain(self) -> list[Claim]:
        """Close every open window at once and return all their claims (unordered), e.g. at shutdown."""
        claims = [c for w in self._open.values() for c in w.claims]
        self._open.clear()
        return claims

    def close_due(self, now_ms: float) -> list[list[Claim]]:
        """Close every window whose deadline has passed; each in fair order."""
        due = [r for r, w in self._open.items() if w.deadline_ms <= now_ms]
        return [self.close(r) for r in sorted(due)]

    def order(self, claims: list[Claim]) -> list[Claim]:
        """Sort *claims* by Discord timestamp; shuffle each group of tied claims with :attr:`rng`.

        A group is the claims within ``tie_ms`` of the group's earliest claim.
        """
        ordered = sorted(claims, key=lambda c: c.discord_ts_ms)
        out: list[Claim] = []
        group: list[Claim] = []
        for claim in ordered:
            if group and claim.discord_ts_ms - group[0].discord_ts_ms >= max(self.tie_ms, 1):
                out.extend(self._shuffled(group))
                group = []
            group.append(claim)
        out.extend(self._shuffled(group))
        return out

    def _shuffled(self, group: list[Claim]) -> list[Claim]:
        if len(group) > 1:
            group = sorted(group, key=lambda c: c.player)  # arrival order must not matter
            self.rng.shuffle(group)
        return group
