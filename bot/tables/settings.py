"""A table's own settings (not the engine's options), declared once: what ``/<kind> new`` offers and
what the table service accepts (``docs/tables.md``, "Lobby").

A game's declaration names the settings its command offers (``Game.table_settings``); whatever
opens a table (a command, a tournament, a test) passes settings the lobby checks with
:func:`check_settings`, so a value outside its declaration never reaches a running table.

>>> check_settings({"race_window_ms": 200, "bot_speed": "fast", "secret": "ab"})
>>> check_settings({"race_window_ms": -1})
Traceback (most recent call last):
...
ValueError: setting race_window_ms must be a whole number from 0 to 1000, got -1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.options import OptionSpec
from bot.tables.core import BOT_SPEEDS

__all__ = ["TABLE_SETTINGS", "PACES", "check_settings", "check_table"]

PACES = ("click", "auto")
"""Blitzkrieg's paces (the ``pace`` setting): a battle on each click of Battle!, or at a readable pace."""

TABLE_SETTINGS: dict[str, OptionSpec] = {
    "race_window_ms": OptionSpec("race_window_ms", int, None, "How long a race for one pile or one jump-in stays "
                                 "open, in ms (default: the server's)", min=0, max=1000),
    "pace": OptionSpec("pace", str, "click", "click: each battle on a click of Battle! (default); auto: battles "
                       "follow at a readable pace", choices=PACES),
    "bot_speed": OptionSpec("bot_speed", str, "relaxed", "How fast bots play: relaxed (default), normal or fast",
                            choices=tuple(BOT_SPEEDS)),
}
"""The table settings a game's ``/<kind> new`` may offer (``Game.table_settings``), by name: a setting
left out takes its default, and ``race_window_ms``'s default is the server's (``tables.race_window_ms``)."""


def check_settings(settings: Mapping[str, Any]) -> None:
    """Check the declared settings among *settings* (others, such as a table's ``secret`` or its
    ``tournament``, are the table service's own and pass).

    Raises
    ------
    ValueError
        A declared setting has a value outside its declaration; the message names it, what it takes
        and the value.
    """
    for name, spec in TABLE_SETTINGS.items():
        if name not in settings or settings[name] is None:
            continue
        value = settings[name]
        if spec.choices is not None:
            if value not in spec.choices:
                raise ValueError(f"setting {name} must be one of {', '.join(map(repr, spec.choices))}, got {value!r}")
        elif spec.type is int:
            low = spec.min if spec.min is not None else value
            high = spec.max if spec.max is not None else value
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"setting {name} must be a whole number from {spec.min} to {spec.max}, got {value!r}")


def check_table(options_cls: type, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
    """Check that *options* make a game of *options_cls* (the engine's ``Options``, built with them:
    every option's declaration and the rules between options) and that *settings* are within their
    declarations (:func:`check_settings`): the one check of what a table is opened with, by
    ``/<kind> new`` and by a server's defaults (``docs/tables.md``, "Lobby" and "Server settings").

    Raises
    ------
    ValueError
        An option or a setting is not allowed; the message names it, what it takes and the value.
    TypeError
        An option the game does not have.
    """
    options_cls(**options)
    check_settings(settings or {})
