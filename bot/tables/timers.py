"""The table's clock for the games' timed rules (``docs/design.md`` §7; rules: ``bot.engine.TimedRule``).

Engines state their timed rules without a clock; a :class:`TimerBook` per table notes when each
rule's key last changed, by the table's own clock, and answers whether an action is allowed yet.
It is pure: the caller passes the time (milliseconds), so it is
tested with a fake clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import TimedRule

__all__ = ["TimerBook", "Wait"]


@dataclass(frozen=True)
class Wait:
    """Why an action must wait: its rule, and the milliseconds waited and still to wait."""

    rule: TimedRule
    waited_ms: float
    left_ms: float

    def reason(self) -> str:
        """A refusal a player can read, in whole seconds."""
        since = self.rule.since or "the last change"
        return (f"not yet: that is allowed {self.rule.delay_ms // 1000} s after {since}, and it has been "
                f"{int(self.waited_ms // 1000)} s ({int(-(-self.left_ms // 1000))} s to go).")


@dataclass
class TimerBook:
    """When each timed rule of one table started counting (by its key), in the table's milliseconds."""

    started: dict[str, tuple[str, float]] = field(default_factory=dict)
    rules: list[TimedRule] = field(default_factory=list)

    def observe(self, rules: Sequence[TimedRule], now_ms: float) -> None:
        """Take the engine's rules as they are now: a rule whose key changed starts counting at *now_ms*."""
        self.rules = list(rules)
        current = {rule.name for rule in rules}
        for rule in rules:
            seen = self.started.get(rule.name)
            if seen is None or seen[0] != rule.key:
                self.started[rule.name] = (rule.key, now_ms)
        for name in list(self.started):
            if name not in current:
                del self.started[name]

    def ends_at(self, name: str) -> float | None:
        """When rule *name*'s wait ends, in the book's milliseconds, or ``None`` when no such rule holds now.

        >>> book = TimerBook()
        >>> book.observe([TimedRule("grace", 3000, "discard:4", "draw")], now_ms=10_000)
        >>> book.ends_at("grace"), book.ends_at("stuck")
        (13000, None)
        """
        started = self.started.get(name)
        rule = next((r for r in self.rules if r.name == name), None)
        if started is None or rule is None:
            return None
        return started[1] + rule.delay_ms

    def wait_for(self, action_type: str, now_ms: float) -> Wait | None:
        """The wait an action of *action_type* still owes under a rule, or ``None`` if it is allowed now."""
        for rule in self.rules:
            if rule.action == action_type:
                waited = now_ms - self.started[rule.name][1]
                if waited < rule.delay_ms:
                    return Wait(rule, waited, rule.delay_ms - waited)
        return None
