"""The table's clock for timed rules (bot/tables/timers.py), with a fake clock: no sleeps."""

from __future__ import annotations

from bot.engine import REGISTRY, TimedRule
from bot.tables.timers import TimerBook

STUCK = TimedRule("stuck", 60_000, "hand 1, 0 in the centre", "end_hand", "the last card went onto a Dutch pile")


def test_an_action_waits_its_delay_from_when_the_key_took_its_value() -> None:
    """end_hand is held back for 60 s after the rule's key last changed, then allowed."""
    book = TimerBook()
    book.observe([STUCK], now_ms=1_000)
    wait = book.wait_for("end_hand", now_ms=31_000)
    assert wait is not None and wait.waited_ms == 30_000 and wait.left_ms == 30_000
    assert "60 s after the last card went onto a Dutch pile" in wait.reason() and "30 s to go" in wait.reason()
    assert book.wait_for("end_hand", now_ms=61_000) is None
    assert book.wait_for("flip", now_ms=1_000) is None


def test_a_new_key_restarts_the_count_and_the_same_key_does_not() -> None:
    """A card onto a Dutch pile (a new key) restarts the wait; seeing the same key again changes nothing."""
    book = TimerBook()
    book.observe([STUCK], now_ms=0)
    book.observe([STUCK], now_ms=50_000)
    assert book.wait_for("end_hand", now_ms=60_000) is None
    moved = TimedRule("stuck", 60_000, "hand 1, 1 in the centre", "end_hand")
    book.observe([moved], now_ms=60_000)
    assert book.wait_for("end_hand", now_ms=100_000) is not None
    assert book.wait_for("end_hand", now_ms=120_000) is None


def test_a_rule_that_no_longer_applies_holds_nothing_back() -> None:
    """Between hands the engine states no stuck rule: the action is no longer held."""
    book = TimerBook()
    book.observe([STUCK], now_ms=0)
    book.observe([], now_ms=1)
    assert book.wait_for("end_hand", now_ms=2) is None and book.started == {}


def test_engines_declare_their_facts() -> None:
    """Dutch Blitz is simultaneous with its host's actions; the turn-based games run turns."""
    assert REGISTRY["dutch-blitz"].play_mode == "simultaneous"
    assert REGISTRY["dutch-blitz"].table_actions == {"end_hand", "next_hand"}
    assert all(REGISTRY[k].play_mode == "turns" for k in ("dutch", "blitz", "blitzkrieg"))


def test_dutch_blitz_states_its_stuck_rule_and_dutch_its_jump_in_grace() -> None:
    """The stuck rule counts from the last Dutch-pile play; Dutch's grace holds the next draw after a discard."""
    game = REGISTRY["dutch-blitz"].new(["a", "b"], seed=1, options={"stuck_seconds": 45})
    (rule,) = game.timed_rules()
    assert (rule.name, rule.delay_ms, rule.action) == ("stuck", 45_000, "end_hand")
    off = REGISTRY["dutch-blitz"].new(["a", "b"], seed=1, options={"stuck_seconds": 0})
    assert off.timed_rules() == []
    dutch = REGISTRY["dutch"].new(["a", "b"], seed=1, options={"jump_in_grace_seconds": 3})
    for p in ("a", "b"):
        dutch.apply(p, dutch.legal_actions(p)[0])  # the opening looks
    assert dutch.timed_rules() == []  # no discard yet
    dutch.apply("a", {"type": "draw"})
    dutch.apply("a", {"type": "discard"})
    (grace,) = dutch.timed_rules()
    assert (grace.name, grace.delay_ms, grace.action) == ("jump_in_grace", 3000, "draw")


def test_a_table_tells_when_a_rules_wait_ends_in_unix_time_for_discords_countdown() -> None:
    """``<t:unix:R>`` needs the wall time the grace ends; over or unknown rules give None."""
    import time

    from bot.tables.core import now_ms
    from bot.tables.table import Table

    table = Table(id=1, kind="dutch", title="Dutch", guild_id=1, channel_id=1, thread_id=1, host_id=1, options={},
                  seed=1, min_players=2, max_players=8)
    before = time.time() * 1000
    table.timers.observe([TimedRule("jump_in_grace", 3000, "discard:1", "draw")], now_ms())
    ends = table.rule_ends_unix_ms("jump_in_grace")
    after = time.time() * 1000
    # Bracketed by the wall clock read before and after (no tolerance a loaded machine could exceed).
    assert ends is not None and before + 3000 - 1 <= ends <= after + 3000 + 1
    assert table.rule_ends_unix_ms("stuck") is None
    table.timers.observe([TimedRule("jump_in_grace", 3000, "discard:2", "draw")], now_ms() - 5000)
    assert table.rule_ends_unix_ms("jump_in_grace") is None, "a wait that is over has no countdown"
