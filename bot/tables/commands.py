"""Slash-command parameters from a game's option declaration (``docs/design.md`` §7).

A game's ``/<game> new`` command takes its table options as parameters; their ranges, choices
and descriptions come from the one declaration of each option (:mod:`bot.engine.options`), so the
command, ``parlor simulate`` and the engine never disagree.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.engine.game import Game
from bot.engine.options import OptionSpec, describe_options
from bot.tables.settings import PACES, TABLE_SETTINGS

__all__ = ["apply_option_declarations", "new_table_command", "TABLE_SETTINGS", "PACES", "OpenTable"]

OpenTable = Callable[[discord.Interaction, str, dict[str, Any], dict[str, Any]], Awaitable[None]]
"""``open_table(interaction, kind, options, settings)``: what a ``/<kind> new`` command does."""


def apply_option_declarations(command: app_commands.Command[Any, Any, Any], options_cls: type) -> None:
    """Give *command*'s parameters named after options of *options_cls* their declared ranges, choices
    and descriptions (in place, before the command is synced).

    Raises
    ------
    TypeError
        An option of *options_cls* has no declaration.
    """
    _apply_specs(command, describe_options(options_cls))


def _apply_specs(command: app_commands.Command[Any, Any, Any], specs: list[OptionSpec]) -> None:
    """Give *command*'s parameters named after *specs* their description, choices or range (in place)."""
    params = command._params
    for spec in specs:
        param = params.get(spec.name)
        if param is None:
            continue
        param.description = spec.help[:100]
        if spec.choices is not None:
            param.choices = [app_commands.Choice(name=str(c), value=c) for c in spec.choices]
        elif spec.type is int:
            param.min_value, param.max_value = spec.min, spec.max


_TYPES = (bool, int, float, str)
"""The option types a slash command takes."""


def new_table_command(game: Game, open_table: OpenTable) -> app_commands.Group:
    """The ``/<kind>`` command group of declared *game*, with its ``new`` command: one parameter per
    engine option (its declared default, range or choices and help) and per table setting the game
    offers (:data:`TABLE_SETTINGS`), in that order (``docs/design.md`` §7).

    *open_table* is awaited as ``open_table(interaction, kind, options, settings)`` with the engine
    options and the table settings the user gave: what they leave out is not in them, and the table
    takes it from the server's defaults, else the declared default
    (:meth:`ServerSettings.table_defaults <bot.tables.server.ServerSettings.table_defaults>`).

    Raises
    ------
    TypeError
        An option of the game has no declaration, or a type a slash command cannot take.
    """
    specs = describe_options(game.engine.Options)
    engine_names = [s.name for s in specs]
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for spec in specs:
        if spec.type not in _TYPES:
            raise TypeError(f"option {spec.name} of {game.kind} is a {spec.type.__name__}; a slash command takes "
                            "bool, int, float or str")
        params.append(inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, annotation=spec.type | None,
                                        default=None))
    for name in game.table_settings:
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                        annotation=TABLE_SETTINGS[name].type | None, default=None))

    async def new(interaction: discord.Interaction, /, **values: Any) -> None:
        options = {k: values[k] for k in engine_names if values.get(k) is not None}
        settings = {k: values[k] for k in game.table_settings if values.get(k) is not None}
        await open_table(interaction, game.kind, options, settings)

    new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # what discord.py reads
    new.__qualname__ = new.__name__ = "new"
    new.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        **{s.name: s.help[:100] for s in specs}, **{k: TABLE_SETTINGS[k].help[:100] for k in game.table_settings}}
    group = app_commands.Group(name=game.kind, description=game.command, guild_only=True)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="new", callback=new, parent=group,
        description=f"Open a {game.title} table ({game.players_text} players) in a new thread.")
    apply_option_declarations(command, game.engine.Options)
    _apply_specs(command, [TABLE_SETTINGS[k] for k in game.table_settings])
    group.add_command(command)
    return group
