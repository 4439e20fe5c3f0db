"""The conformance checks catch broken engines (so a pass means something)."""

from __future__ import annotations

import pytest

from tests.engine import conformance
from tests.engine.sample_game import (
    GlobalRandomHighCard,
    LeakyHighCard,
    MutatingHighCard,
    NeverEndingHighCard,
    RefusingHighCard,
)


@pytest.mark.parametrize(
    ("engine_cls", "check"),
    [
        (LeakyHighCard, conformance.check_views_hide_cards),
        (MutatingHighCard, conformance.check_legal_and_illegal),
        (GlobalRandomHighCard, conformance.check_global_random_ignored),
        (NeverEndingHighCard, conformance.check_terminates),
        (RefusingHighCard, conformance.check_legal_and_illegal),
    ],
    ids=["leaky-view", "mutates-when-refusing", "global-random", "never-ends", "lists-refused-action"],
)
def test_broken_engine_fails_its_check(engine_cls: type, check: object) -> None:
    """Each deliberately broken sample engine fails the check aimed at its fault."""
    with pytest.raises(AssertionError):
        check(engine_cls, range(3))  # type: ignore[operator]
