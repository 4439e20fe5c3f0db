"""Persistent buttons of every table, as :class:`discord.ui.DynamicItem` classes.

Custom ids are a small wire format, at most 100 characters, parsed only in ``from_custom_id`` and
registered in ``setup_hook`` (through the tables cog), so buttons keep working after a restart:

* ``parlor:<verb>:<table>`` — lobby controls, "Open my hand", "Leave game", "Rematch";
* ``parlor:move:<table>:v<version>:<token>`` — a private board button; the version lets the table
  answer a stale board with a fresh one;
* ``parlor:pub:<table>:<token>`` — a game's own public button (Ready, End hand).

Tokens are the game UI's (``a3``: legal action 3; ``c:wood``: the Wood pile's card) and never
name a hidden card.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.answers import answer_error
from bot.tables.ui import TOKEN_PATTERN, BoardButton

if TYPE_CHECKING:
    from bot.tables.service import TableService

__all__ = ["TableButton", "MoveButton", "PublicButton", "BotPicker", "lobby_view", "table_view", "board_view",
           "finished_view", "COMPONENTS"]

log = logging.getLogger("parlor.tables")

LOBBY_VERBS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "addbot": ("Add bot", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def _service(interaction: discord.Interaction) -> TableService:
    return cast("TableService", interaction.client.tables)  # type: ignore[attr-defined]  # a ParlorBot's


async def _guarded(interaction: discord.Interaction, handler: Any, *args: Any) -> None:
    """Run a click handler; an unexpected error is logged and answered ephemerally, never left unanswered."""
    try:
        await handler(interaction, *args)
    except Exception:
        log.exception("component %s failed", interaction.data.get("custom_id") if interaction.data else "?")
        await answer_error(interaction, "Something went wrong on our side; the error was logged. Please try again.")


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"parlor:(?P<verb>join|leave|addbot|start|cancel|board|rematch|howto):(?P<table>\d+)"):
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
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TableButton:
        """Rebuild the button from its custom id (parse only)."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button[Any]()
        return cls(match["verb"], int(match["table"]), button.label, button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the table service."""
        await _guarded(interaction, _service(interaction).on_table_button, self.table_id, self.verb)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"parlor:move:(?P<table>\d+):v(?P<ver>\d+):(?P<token>" + TOKEN_PATTERN + ")"):
    """A button on a player's ephemeral board.

    Parameters
    ----------
    table_id:
        The table's id.
    version:
        The table's state version when the board was drawn.
    token:
        What the click means to the game's :class:`~bot.tables.ui.GameUI` (never a hidden card).
    """

    def __init__(self, table_id: int, version: int, token: str, label: str = "move",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, disabled: bool = False,
                 row: int | None = None) -> None:
        self.table_id, self.version, self.token = table_id, version, token
        super().__init__(discord.ui.Button(label=label[:80], style=style, disabled=disabled, row=row,
                                           custom_id=f"parlor:move:{table_id}:v{version}:{token}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveButton:
        """Rebuild the button from its custom id (parse only)."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button[Any]()
        return cls(int(match["table"]), int(match["ver"]), match["token"], button.label or "move", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the table service."""
        await _guarded(interaction, _service(interaction).on_move, self.table_id, self.version, self.token)


class PublicButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"parlor:pub:(?P<table>\d+):(?P<token>" + TOKEN_PATTERN + ")"):
    """A game-specific button on the public table message (e.g. Ready, End hand)."""

    def __init__(self, table_id: int, token: str, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        self.table_id, self.token = table_id, token
        super().__init__(discord.ui.Button(label=label[:80], style=style, disabled=disabled,
                                           custom_id=f"parlor:pub:{table_id}:{token}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PublicButton:
        """Rebuild the button from its custom id (parse only)."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button[Any]()
        return cls(int(match["table"]), match["token"], button.label or "?", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the table service."""
        await _guarded(interaction, _service(interaction).on_public, self.table_id, self.token)


class BotPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"parlor:botpick:(?P<table>\d+)"):
    """The lobby's "Add a bot…" menu: the host picks which of the game's bots takes a seat.

    Parameters
    ----------
    table_id:
        The table's id.
    bots:
        ``(name, label)`` of each of the game's bots, strongest first.
    """

    def __init__(self, table_id: int, bots: list[tuple[str, str]] | None = None) -> None:
        self.table_id = table_id
        options = [discord.SelectOption(label=label[:100], value=name[:100]) for name, label in (bots or [])[:25]]
        super().__init__(discord.ui.Select(custom_id=f"parlor:botpick:{table_id}", placeholder="Add a bot…",
                                           options=options or [discord.SelectOption(label="bot", value="bot")],
                                           row=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BotPicker:
        """Rebuild the menu from its custom id (parse only)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the pick to the table service."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [""])
        await _guarded(interaction, _service(interaction).on_bot_pick, self.table_id, str(values[0]))


COMPONENTS = (TableButton, MoveButton, PublicButton, BotPicker)
"""Every DynamicItem class to register with ``bot.add_dynamic_items``."""


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: int, bots: list[tuple[str, str]] | None = None) -> discord.ui.View:
    """The lobby: Join, Leave, Add bot, Start, Cancel; and, when the game has several bots, a menu of them."""
    items: list[discord.ui.Item[Any]] = [TableButton(verb, table_id, label, style)
                                         for verb, (label, style) in LOBBY_VERBS.items()]
    if bots and len(bots) > 1:
        items.append(BotPicker(table_id, bots))
    how = TableButton("howto", table_id, "How to play", discord.ButtonStyle.secondary)
    how.item.row = 2
    items.append(how)
    return _view(items)


STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


def table_view(table_id: int, board_label: str, extra: list[BoardButton] | None = None) -> discord.ui.View:
    """The running table's public buttons: open one's private board/hand, leave, and the game's own."""
    items: list[discord.ui.Item[Any]] = [TableButton("board", table_id, board_label, discord.ButtonStyle.primary)]
    items += [PublicButton(table_id, b.token, b.label, STYLES[b.style], b.disabled) for b in (extra or [])[:3]]
    items.append(TableButton("leave", table_id, "Leave game", discord.ButtonStyle.secondary))
    items.append(TableButton("howto", table_id, "How to play", discord.ButtonStyle.secondary))
    return _view(items)


def finished_view(table_id: int) -> discord.ui.View:
    """The finished table's button: Rematch."""
    return _view([TableButton("rematch", table_id, "Rematch", discord.ButtonStyle.success)])


def board_view(table_id: int, version: int, buttons: list[BoardButton]) -> discord.ui.View:
    """A private board's buttons (at most 25, Discord's limit of 5 rows × 5)."""
    return _view([MoveButton(table_id, version, b.token, b.label, STYLES[b.style], b.disabled, b.row)
                  for b in buttons[:25]])
