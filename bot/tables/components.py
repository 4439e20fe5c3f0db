"""Persistent buttons of every table, as :class:`discord.ui.DynamicItem` classes.

Custom ids are a small wire format, ``parlor:<verb>:<table>[:v<version>:<index>]``, at most 100
characters, parsed only in ``from_custom_id`` and registered in ``setup_hook`` (through the tables
cog), so buttons keep working after a restart. Move buttons carry the table's state version and
the index of the move in the player's legal actions at that version — never a card: a custom id
must not reveal a hidden card.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.tables.service import TableService

__all__ = ["TableButton", "MoveButton", "lobby_view", "table_view", "board_view", "finished_view", "COMPONENTS"]

log = logging.getLogger("parlor.tables")

LOBBY_VERBS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "addbot": ("Add bot", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def _service(interaction: discord.Interaction) -> TableService:
    return interaction.client.tables  # type: ignore[attr-defined]


async def _guarded(interaction: discord.Interaction, handler: Any, *args: Any) -> None:
    """Run a click handler; an unexpected error is logged and answered ephemerally, never left unanswered."""
    try:
        await handler(interaction, *args)
    except Exception:
        from bot.client import answer_error

        log.exception("component %s failed", interaction.data.get("custom_id") if interaction.data else "?")
        await answer_error(interaction, "Something went wrong on our side; the error was logged. Please try again.")


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"parlor:(?P<verb>join|leave|addbot|start|cancel|board|rematch):(?P<table>\d+)"):
    """A table-level button: lobby controls, "Open my hand", "Rematch".

    Parameters
    ----------
    verb:
        ``join``, ``leave``, ``addbot``, ``start``, ``cancel``, ``board`` or ``rematch``.
    table_id:
        The table's id.
    label:
        The button label (≤ 80 characters).
    """

    def __init__(self, verb: str, table_id: int, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.verb = verb
        self.table_id = table_id
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=f"parlor:{verb}:{table_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> TableButton:
        """Rebuild the button from its custom id (parse only)."""
        return cls(match["verb"], int(match["table"]), item.label, item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the table service."""
        await _guarded(interaction, _service(interaction).on_table_button, self.table_id, self.verb)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"parlor:move:(?P<table>\d+):v(?P<ver>\d+):(?P<index>\d+)"):
    """One legal move on a player's ephemeral board.

    Parameters
    ----------
    table_id:
        The table's id.
    version:
        The table's state version when the board was drawn.
    index:
        The move's index in the player's legal actions at that version.
    """

    def __init__(self, table_id: int, version: int, index: int, label: str = "move",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        self.table_id, self.version, self.index = table_id, version, index
        super().__init__(discord.ui.Button(label=label[:80], style=style,
                                           custom_id=f"parlor:move:{table_id}:v{version}:{index}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> MoveButton:
        """Rebuild the button from its custom id (parse only)."""
        return cls(int(match["table"]), int(match["ver"]), int(match["index"]), item.label or "move", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the move to the table service."""
        await _guarded(interaction, _service(interaction).on_move, self.table_id, self.version, self.index)


COMPONENTS = (TableButton, MoveButton)
"""Every DynamicItem class to register with ``bot.add_dynamic_items``."""


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: int) -> discord.ui.View:
    """The lobby buttons: Join, Leave, Add bot, Start, Cancel."""
    return _view([TableButton(verb, table_id, label, style) for verb, (label, style) in LOBBY_VERBS.items()])


def table_view(table_id: int, board_label: str) -> discord.ui.View:
    """The running table's public buttons: open one's private board/hand, and leave the game."""
    return _view([TableButton("board", table_id, board_label, discord.ButtonStyle.primary),
                  TableButton("leave", table_id, "Leave game", discord.ButtonStyle.secondary)])


def finished_view(table_id: int) -> discord.ui.View:
    """The finished table's button: Rematch."""
    return _view([TableButton("rematch", table_id, "Rematch", discord.ButtonStyle.success)])


def board_view(table_id: int, version: int, labels: list[str]) -> discord.ui.View:
    """A private board: one button per legal move (at most 25, Discord's limit of 5 rows × 5)."""
    return _view([MoveButton(table_id, version, i, label) for i, label in enumerate(labels[:25])])
