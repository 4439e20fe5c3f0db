"""Every game declares each option once, and that declaration is what the game accepts."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import REGISTRY
from bot.engine.options import describe_options

KINDS = sorted(REGISTRY)


@pytest.mark.parametrize("kind", KINDS)
def test_every_option_is_declared_with_help(kind: str) -> None:
    """describe_options covers every field of the game's Options, each with a one-line description."""
    specs = describe_options(REGISTRY[kind].Options)
    assert [s.name for s in specs] == [f.name for f in dataclasses.fields(REGISTRY[kind].Options)]
    assert all(s.help and "\n" not in s.help for s in specs)


@pytest.mark.parametrize("kind", KINDS)
def test_the_declared_range_is_what_the_game_accepts(kind: str) -> None:
    """Defaults and range ends are accepted; one past either end, a non-choice, a wrong type are refused."""
    options_cls = REGISTRY[kind].Options
    options_cls()
    for spec in describe_options(options_cls):
        bad: list[object] = ["nonsense"] if spec.type is not str else [12345]
        if spec.type is int and spec.choices is None:
            options_cls(**{spec.name: spec.min})
            options_cls(**{spec.name: spec.max})
            bad += [spec.min - 1, spec.max + 1, True]
        if spec.choices is not None:
            for choice in spec.choices:
                options_cls(**{spec.name: choice})
            bad.append(99)
        for value in bad:
            with pytest.raises(ValueError, match=f"option {spec.name} must be"):
                options_cls(**{spec.name: value})
