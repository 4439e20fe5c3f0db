"""One declaration per game option: default, allowed values and a one-line description.

Each game's ``Options`` dataclass declares its fields with :func:`option`. The same declaration
validates the options (:func:`check_options`, called from ``__post_init__``), and feeds the
``/<game> new`` slash command, ``parlor simulate KIND --help``, ``/rules`` and the docs
(:func:`describe_options`), so a range is written once (``docs/design.md`` §7).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo:
...     rounds: int = option(3, help="Rounds to play", min=1, max=9)
...     mode: str = option("fast", help="Pace", choices=("fast", "slow"))
...     def __post_init__(self) -> None:
...         check_options(self)
>>> [(s.name, s.allowed) for s in describe_options(Demo)]
[('rounds', 'a whole number from 1 to 9'), ('mode', "one of 'fast', 'slow'")]
>>> Demo(rounds=0)
Traceback (most recent call last):
...
ValueError: option rounds must be a whole number from 1 to 9, got 0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = ["OptionSpec", "option", "describe_options", "check_options"]

_KEY = "parlor_option"

_SWITCH = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}
"""The words a person may type for a switch's value (:meth:`OptionSpec.parse`)."""


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its name, type, default, allowed values and what it means.

    Attributes
    ----------
    name:
        The field name (``stuck_seconds``); flags and slash options use it as it is or with dashes.
    type:
        ``bool``, ``int``, ``float`` or ``str``.
    default:
        The rules' default.
    help:
        One line for people: what the option does, with its unit (seconds, points, …).
    min, max:
        The inclusive range of an ``int`` option, or ``None``.
    choices:
        The allowed values, or ``None`` (then any value of the type within the range).
    """

    name: str
    type: type
    default: Any
    help: str
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] | None = None

    @property
    def allowed(self) -> str:
        """The allowed values in words, e.g. ``"a whole number from 1 to 10"``."""
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        if self.type is int:
            return f"a whole number from {self.min} to {self.max}"
        return f"a {self.type.__name__}"

    def parse(self, text: str) -> Any:
        """*text* as typed by a person (a slash command's words, ``key=value``) as a value of this option's
        type: ``on``/``off``, ``true``/``false``, ``yes``/``no``, ``1``/``0`` for a switch, a number for a
        number. Its range and choices are not checked here (:meth:`accepts`, :func:`check_options`).

        Raises
        ------
        ValueError
            *text* is not of the type at all: ``<name> must be <allowed>, got <text>``.
        """
        word = text.strip()
        if self.type is bool:
            if word.lower() in _SWITCH:
                return _SWITCH[word.lower()]
        elif self.type in (int, float):
            try:
                return self.type(word.replace("\u2212", "-"))  # a typed minus sign is a minus
            except ValueError:
                pass
        else:
            return word
        raise ValueError(f"{self.name} must be {self.allowed}, got {text!r}")

    def accepts(self, value: Any) -> bool:
        """Whether *value* is an allowed value of this option (``True`` is not a number here)."""
        if self.type is bool:
            return isinstance(value, bool)
        if isinstance(value, bool):
            return False
        if self.choices is not None:
            return value in self.choices and isinstance(value, int | float | str)
        if self.type is int:
            return isinstance(value, int) and (self.min is None or value >= self.min) and (
                self.max is None or value <= self.max)
        return isinstance(value, self.type)


def option(default: Any, *, help: str, min: int | None = None, max: int | None = None,
           choices: tuple[Any, ...] | None = None) -> Any:
    """A dataclass field for a game option, carrying its declaration.

    Parameters
    ----------
    default:
        The rules' default; its type is the option's type.
    help:
        One line: what the option does, with its unit.
    min, max:
        The inclusive range of a whole-number option.
    choices:
        The only allowed values.

    Raises
    ------
    ValueError
        The declaration contradicts itself (a default outside its own range or choices).
    """
    spec = OptionSpec("", type(default), default, help, min, max, tuple(choices) if choices is not None else None)
    if not spec.accepts(default):
        raise ValueError(f"option default {default!r} is not {spec.allowed}")
    return dataclasses.field(default=default, metadata={_KEY: spec})


def describe_options(options_cls: type) -> list[OptionSpec]:
    """The declarations of every field of a game's ``Options`` dataclass, in field order.

    Raises
    ------
    TypeError
        A field was declared without :func:`option`.
    """
    specs = []
    for f in dataclasses.fields(options_cls):
        spec = f.metadata.get(_KEY)
        if spec is None:
            raise TypeError(f"option {options_cls.__name__}.{f.name} has no declaration; declare it with option()")
        specs.append(dataclasses.replace(spec, name=f.name))
    return specs


def check_options(options: Any) -> None:
    """Validate every declared field of *options* (call it from ``__post_init__``).

    Raises
    ------
    ValueError
        ``option <name> must be <allowed>, got <value>`` for the first value not allowed.
    """
    for spec in describe_options(type(options)):
        value = getattr(options, spec.name)
        if not spec.accepts(value):
            raise ValueError(f"option {spec.name} must be {spec.allowed}, got {value!r}")
