"""Slash-command parameters from a game's option declaration (``docs/design.md`` §7).

A game's ``/<game> new`` command takes its table options as parameters; their ranges, choices
and descriptions come from the one declaration of each option (:mod:`bot.engine.options`), so the
command, ``parlor simulate`` and the engine never disagree.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.engine.options import describe_options

__all__ = ["apply_option_declarations"]


def apply_option_declarations(command: app_commands.Command[Any, Any, Any], options_cls: type) -> None:
    """Give *command*'s parameters named after options of *options_cls* their declared ranges, choices
    and descriptions (in place, before the command is synced).

    Raises
    ------
    TypeError
        An option of *options_cls* has no declaration.
    """
    params = command._params
    for spec in describe_options(options_cls):
        param = params.get(spec.name)
        if param is None:
            continue
        param.description = spec.help[:100]
        if spec.choices is not None:
            param.choices = [app_commands.Choice(name=str(c), value=c) for c in spec.choices]
        elif spec.type is int:
            param.min_value, param.max_value = spec.min, spec.max
