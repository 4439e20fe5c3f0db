"""``canonical`` gives exactly what a JSON round trip gives, without one on the move path (issue 18)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.core import canonical

KEYS = st.one_of(st.text(max_size=4), st.integers(), st.booleans(), st.none(), st.floats())
JSON_LIKE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=25,
)


@given(JSON_LIKE)
def test_canonical_equals_the_json_round_trip(value: Any) -> None:
    """Tuples become lists, keys become JSON's strings, NaN and infinities survive, as json itself does."""
    assert json.dumps(canonical(value)) == json.dumps(json.loads(json.dumps(value)))


def test_canonical_returns_a_copy() -> None:
    """Changing the answer never changes the caller's action (an engine keeps what it was given)."""
    action = {"type": "play", "cards": [1, 2], "at": {"pile": 3}}
    copy = canonical(action)
    copy["cards"].append(3)
    copy["at"]["pile"] = 4
    assert action == {"type": "play", "cards": [1, 2], "at": {"pile": 3}}


def test_canonical_refuses_what_json_cannot_carry() -> None:
    """A set or an object is not JSON data: TypeError, as from json.dumps."""
    with pytest.raises(TypeError):
        canonical({"type": "play", "cards": {1, 2}})
    with pytest.raises(TypeError):
        canonical({(1, 2): "tuple key"})
