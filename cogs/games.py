"""Every declared game on Discord: its ``/<kind> new`` command and its table UI, built from its declaration.

One :class:`GameCog` per game of ``bot.engine.GAMES`` (``docs/design.md`` §7): the command's
parameters come from the game's option declaration and the table settings it offers
(``bot.tables.commands.new_table_command``), its table UI is the class its declaration names, and
the table service does the rest (``docs/tables.md``). A new game needs no cog of its own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.engine import GAMES, Game
from bot.tables.commands import new_table_command
from bot.tables.ui import GameUI

if TYPE_CHECKING:
    from bot.client import ParlorBot


def load_ui(game: Game) -> GameUI:
    """A new instance of *game*'s table UI, imported from its declaration's ``"module:Class"``.

    Raises
    ------
    TypeError
        What the declaration names is not a :class:`~bot.tables.ui.GameUI` of the game's kind.
    """
    module, _, name = game.ui.partition(":")
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, GameUI) and cls.kind == game.kind):
        raise TypeError(f"game {game.kind!r}: {game.ui!r} is not a GameUI of kind {game.kind!r}")
    return cls()


class GameCog(commands.Cog):
    """The ``/<kind>`` commands of one declared game, and its table UI at the table service."""

    def __init__(self, bot: ParlorBot, game: Game) -> None:
        self.__cog_name__ = game.title  # one cog a game, each named after its game
        self.bot = bot
        self.game = game
        self.group = new_table_command(game, self.open_table)

    async def cog_load(self) -> None:
        """Make the game playable at the table service and add its command group to the tree."""
        self.bot.tables.register_ui(load_ui(self.game))
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        """Take the game's command group off the tree."""
        self.bot.tree.remove_command(self.group.name)

    async def open_table(self, interaction: discord.Interaction, kind: str, options: dict[str, Any],
                         settings: dict[str, Any]) -> None:
        """|coro| ``/<kind> new``: open a table in a new thread and say where, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and a message to create
        table = await self.bot.tables.open(kind, interaction, options, settings)
        variant = getattr(self.game.engine.Options(**table.options), "variant", None)  # given, else the server's
        rule_set = f" ({variant})" if variant is not None else ""  # a game with rule sets names its own
        await interaction.followup.send(f"{self.game.title} table #{table.id}{rule_set} is open in "
                                        f"<#{table.thread_id}> — {self.game.opened}", ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    """Load one :class:`GameCog` per declared game."""
    for _, game in sorted(GAMES.items()):
        await bot.add_cog(GameCog(bot, game))
