"""Persistent buttons of every table, as :class:`discord.ui.DynamicItem` classes.

Custom ids are a small wire format, at most 100 characters, parsed only in ``from_custom_id`` and
registered in ``setup_hook`` (through the tables cog), so buttons keep working after a restart:

* ``parlor:<verb>:<table>`` — lobby controls, "Open my hand", "Leave game", "Rematch";
* ``parlor:move:<table>:v<version>:<token>`` — a private board button; the version lets the table
  answer a stale board with a fresh one;
* ``parlor:msel:<table>:v<version>:<row>`` — a select menu on a private board; the picked
  option's value is a token, handled exactly as a button's;
* ``parlor:pub:<table>:<token>`` — a game's own public button (Ready, End hand).

Tokens are the game UI's (the picker's ``k.…`` action and ``s.…`` selection tokens,
:mod:`bot.tables.codec`; Dutch Blitz's ``c:wood``: the Wood pile's card) and never name a card.

Discord's limits (``docs/design.md`` §5) fail loudly with :class:`~bot.tables.board.LimitError`:
80-character button labels, 100-character custom ids and select option labels and values,
25 options per menu, 5 action rows of width 5. Nothing is cut short.

The ``*_view`` functions at the end choose a message's buttons and hand them, with its text, to
the one renderer (:func:`bot.tables.layout.render`): every table message and board is a
Components V2 layout (``docs/tables.md``, "Message layouts").
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.answers import ANSWERING, DEFERRING, UNKNOWN_INTERACTION, answer_error
from bot.tables.layout import DEFAULT_ACCENT, Grouped, Media, render
from bot.tables.seats import SeatPanel
from bot.tables.ui import (
    BUTTON_LABEL_MAX,
    CUSTOM_ID_MAX,
    PLACEHOLDER_MAX,
    SELECT_OPTIONS_MAX,
    SELECT_TEXT_MAX,
    TOKEN_PATTERN,
    BoardButton,
    BoardItem,
    BoardOption,
    BoardSelect,
    LimitError,
    check_layout,
    check_length,
)

if TYPE_CHECKING:
    from bot.tables.service import TableService

__all__ = ["TableButton", "MoveButton", "MoveSelect", "PublicButton", "BotPicker", "lobby_view", "table_view",
           "board_view", "finished_view", "invite_view", "text_view", "COMPONENTS", "LimitError"]

log = logging.getLogger("parlor.tables")

LOBBY_VERBS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "addbot": ("Add bot", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def _button(label: str, style: discord.ButtonStyle, custom_id: str, *, disabled: bool = False,
            row: int | None = None, emoji: str | None = None) -> discord.ui.Button[Any]:
    """A button whose label (1–80) and custom id (≤ 100) fit Discord, else :class:`LimitError`; *emoji*
    is a card's emoji markup (``<:p1_std_qh:ID>``, ``docs/art.md`` §8) or ``None``.
    """
    check_length("button label", label, BUTTON_LABEL_MAX, minimum=1)
    check_length("custom id", custom_id, CUSTOM_ID_MAX)
    return discord.ui.Button(label=label, style=style, disabled=disabled, row=row, custom_id=custom_id, emoji=emoji)


def _options(options: list[tuple[str, str, str]]) -> list[discord.SelectOption]:
    """Select options ``(label, value, description)``: 1–25 of them, each text ≤ 100, else :class:`LimitError`."""
    if len(options) > SELECT_OPTIONS_MAX:
        raise LimitError(f"a select menu holds at most {SELECT_OPTIONS_MAX} options, got {len(options)}")
    out = []
    for label, value, description in options:
        check_length("select option label", label, SELECT_TEXT_MAX, minimum=1)
        check_length("select option value", value, SELECT_TEXT_MAX, minimum=1)
        check_length("select option description", description, SELECT_TEXT_MAX)
        out.append(discord.SelectOption(label=label, value=value, description=description or None))
    return out


def _service(interaction: discord.Interaction) -> TableService:
    return cast("TableService", interaction.client.tables)  # type: ignore[attr-defined]  # a ParlorBot's


ANSWER_WITHIN_S = 2.0
"""Seconds a click handler may take before its interaction is deferred (Discord waits 3 s)."""


BEHIND_S = 1.0
"""Seconds old (from its snowflake, Discord's clock) a click may be when its handler starts: an
older one finds the event loop that far behind (a thousand clicks at once after a restart), so the
watchdog's timer could fire past Discord's 3 s and it is deferred at once (``docs/tables.md``,
"Robustness"). A click reaches the bot well within this in normal play (Discord's own delivery
takes a few hundred milliseconds)."""


def _age_s(interaction: discord.Interaction) -> float:
    """Seconds since Discord created *interaction* (its snowflake), by this machine's clock."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark a watchdog deferral's error as seen (the handler's own answer reports what matters)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("deferring a slow click failed: %s", task.exception())


async def _guarded(interaction: discord.Interaction, handler: Any, table_id: int, *args: Any) -> None:
    """Run a click handler for table *table_id*; an unexpected error is logged and answered
    ephemerally, never left unanswered.

    A handler still deciding after :data:`ANSWER_WITHIN_S` (many tables at once, a slow disk) has
    its interaction deferred, so Discord never shows "This interaction failed"; the handler's answer
    then goes through the interaction token (``docs/tables.md``, "Robustness"). A click on a table
    that a restart left to replay later is deferred at once: a thousand such clicks together would
    keep the loop busy past Discord's 3 s before a timer could fire (``docs/tables.md``, "Restarts").
    So is a click already :data:`BEHIND_S` old when its handler starts: the loop is behind.
    """
    def watchdog() -> None:
        if not interaction.response.is_done() and not interaction.extras.get(ANSWERING):
            deferring = asyncio.ensure_future(interaction.response.defer())
            deferring.add_done_callback(_retrieved)
            interaction.extras[DEFERRING] = deferring

    # A timer, not a task of its own for the handler: a click goes through no extra turn of the loop.
    timer = asyncio.get_running_loop().call_later(ANSWER_WITHIN_S, watchdog)
    if _service(interaction).awaits_replay(table_id) or _age_s(interaction) >= BEHIND_S:
        watchdog()
    try:
        try:
            await handler(interaction, table_id, *args)
        finally:
            timer.cancel()
    except Exception as exc:
        custom_id = interaction.data.get("custom_id") if interaction.data else "?"
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
            # Discord gave up on the click before its answer came (it already showed "This
            # interaction failed"): one line, no traceback and no second answer, which would be
            # refused as well.
            log.warning("component %s answered too late: Discord no longer knows interaction %s",
                        custom_id, interaction.id)
            return
        log.exception("component %s failed", custom_id)
        await answer_error(interaction, "Something went wrong on our side; the error was logged. Please try again.")


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"parlor:(?P<verb>join|leave|addbot|start|cancel|board|rematch|howto|invite):(?P<table>\d+)"):
    """A table-level button: lobby controls, "Open my hand", "Rematch".

    Parameters
    ----------
    verb:
        ``join``, ``leave``, ``addbot``, ``start``, ``cancel``, ``board``, ``rematch``, ``howto`` or
        ``invite`` (Join on the channel's invite card).
    table_id:
        The table's id.
    label:
        The button label (≤ 80 characters).
    """

    def __init__(self, verb: str, table_id: int, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.verb = verb
        self.table_id = table_id
        super().__init__(_button(label or verb, style, f"parlor:{verb}:{table_id}"))

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

    Raises :class:`~bot.tables.board.LimitError` when its label passes 80 characters or its custom
    id 100.

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
                 row: int | None = None, emoji: str | None = None) -> None:
        self.table_id, self.version, self.token = table_id, version, token
        super().__init__(_button(label, style, f"parlor:move:{table_id}:v{version}:{token}", disabled=disabled,
                                 row=row, emoji=emoji))

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
    """A game-specific button on the public table message (e.g. Ready, End hand).

    Raises :class:`~bot.tables.board.LimitError` when its label passes 80 characters or its custom
    id 100.
    """

    def __init__(self, table_id: int, token: str, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 emoji: str | None = None) -> None:
        self.table_id, self.token = table_id, token
        super().__init__(_button(label, style, f"parlor:pub:{table_id}:{token}", disabled=disabled, emoji=emoji))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PublicButton:
        """Rebuild the button from its custom id (parse only)."""
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button[Any]()
        return cls(int(match["table"]), match["token"], button.label or "?", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the table service."""
        await _guarded(interaction, _service(interaction).on_public, self.table_id, self.token)


BOT_PICKER_PLACEHOLDER = "Add a bot: pick its strength (Add bot seats Normal)…"
"""What the lobby's Add-bot menu says before a pick."""


class BotPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"parlor:botpick:(?P<table>\d+)"):
    """The lobby's "Add a bot…" menu: the host picks which of the game's bots takes a seat.

    Parameters
    ----------
    table_id:
        The table's id.
    bots:
        ``(value, label, description)`` of each choice: the game's strengths, easy to hard (a
        value is what :meth:`TableRegistry.bot_for <bot.tables.registry.TableRegistry.bot_for>`
        reads; at most 25).

    Raises
    ------
    LimitError
        More than 25 choices, or a value, label or description over 100 characters.
    """

    def __init__(self, table_id: int, bots: list[tuple[str, str, str]] | None = None) -> None:
        self.table_id = table_id
        options = _options([(label, value, description) for value, label, description in (bots or [])])
        super().__init__(discord.ui.Select(custom_id=f"parlor:botpick:{table_id}", placeholder=BOT_PICKER_PLACEHOLDER,
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


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"parlor:msel:(?P<table>\d+):v(?P<ver>\d+):(?P<row>[0-4])"):
    """A select menu on a player's ephemeral board: the picked option's value is a board token.

    The pick goes to the table service exactly as a :class:`MoveButton` click with that token
    does (``docs/tables.md``, "Custom ids").

    Parameters
    ----------
    table_id:
        The table's id.
    version:
        The table's state version when the board was drawn.
    options:
        The menu's options (1–25; labels and tokens ≤ 100 characters).
    placeholder:
        The menu's text before a pick (≤ 150 characters).
    row:
        The action row (0–4) it takes; it is part of the custom id, so two menus of one board
        never share one.

    Raises
    ------
    LimitError
        More than 25 options, a text too long, or a custom id over 100 characters.
    """

    def __init__(self, table_id: int, version: int, options: list[BoardOption] | None = None,
                 placeholder: str = "Choose…", row: int = 0) -> None:
        self.table_id, self.version = table_id, version
        custom_id = check_length("custom id", f"parlor:msel:{table_id}:v{version}:{row}", CUSTOM_ID_MAX)
        check_length("select placeholder", placeholder, PLACEHOLDER_MAX)
        choices = _options([(o.label, o.token, o.description) for o in options or []])
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder, row=row,
                                           options=choices or [discord.SelectOption(label="?", value="x")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveSelect:
        """Rebuild the menu from its custom id (parse only)."""
        return cls(int(match["table"]), int(match["ver"]), row=int(match["row"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the picked option's token to the table service, as a board button click."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [""])
        await _guarded(interaction, _service(interaction).on_move, self.table_id, self.version, str(values[0]))


COMPONENTS = (TableButton, MoveButton, MoveSelect, PublicButton, BotPicker)
"""Every DynamicItem class to register with ``bot.add_dynamic_items``."""


def lobby_view(table_id: int, bots: list[tuple[str, str, str]] | None = None, *, text: str,
               accent: int = DEFAULT_ACCENT, seats: Sequence[SeatPanel] = ()) -> discord.ui.LayoutView:
    """The lobby's layout (:func:`~bot.tables.layout.render`): *text* (a Section per seat of *seats*
    under its header), then Join, Leave, Add bot, Start, Cancel; when there are several to choose
    from, the Add-bot menu (*bots*: ``(value, label, description)``, see :class:`BotPicker`); and How to play.
    """
    items: list[Grouped] = [Grouped(TableButton(verb, table_id, label, style))
                            for verb, (label, style) in LOBBY_VERBS.items()]
    if bots and len(bots) > 1:
        picker = BotPicker(table_id, bots)
        picker.item.row = None
        items.append(Grouped(picker, row=1))
    items.append(Grouped(TableButton("howto", table_id, "How to play", discord.ButtonStyle.secondary), row=2))
    return render(text, items, accent=accent, seats=seats)


STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


def table_view(table_id: int, board_label: str, extra: list[BoardButton] | None = None, *, text: str,
               accent: int = DEFAULT_ACCENT, header: str | None = None, media: Sequence[Media] = (),
               seats: Sequence[SeatPanel] = ()) -> discord.ui.LayoutView:
    """The running table's layout: *text* (its first line the header, or *header*), a Section per
    seat of *seats* (:class:`~bot.tables.seats.SeatPanel`, their lines not in *text*), the pictures
    *media* (uploaded with the message), and the public buttons: one's private board/hand, the
    game's own (by their ``group``), leave, how to play.

    Raises
    ------
    LimitError
        The layout is over Discord's V2 limits, or a label is over 80 characters.
    """
    items = [Grouped(TableButton("board", table_id, board_label, discord.ButtonStyle.primary), "cards")]
    items += [Grouped(PublicButton(table_id, b.token, b.label, STYLES[b.style], b.disabled, emoji=b.emoji),
                      b.group, b.row) for b in extra or []]
    items.append(Grouped(TableButton("leave", table_id, "Leave game", discord.ButtonStyle.secondary), row=4))
    items.append(Grouped(TableButton("howto", table_id, "How to play", discord.ButtonStyle.secondary), row=4))
    return render(text, items, accent=accent, header=header, media=media, seats=seats)


def invite_view(table_id: int, *, text: str, accent: int = DEFAULT_ACCENT, join: bool = True) -> discord.ui.LayoutView:
    """The channel's invite card of a table: *text*, and Join (answered privately, with the thread)
    while *join* (the lobby is open).
    """
    items = [TableButton("invite", table_id, "Join", discord.ButtonStyle.success)] if join else []
    return render(text, items, accent=accent)


def finished_view(table_id: int, *, text: str, accent: int = DEFAULT_ACCENT, expired: bool = False,
                  rematch: bool = True, media: Sequence[Media] = (), header: str | None = None,
                  seats: Sequence[SeatPanel] = ()) -> discord.ui.LayoutView:
    """The finished table's layout: *seats* as they ended, *text* and Rematch (none when not
    *rematch*: a tournament match); disabled once the table is let go (*expired*).
    """
    items: list[discord.ui.Item[Any]] = []
    if rematch:
        button = TableButton("rematch", table_id, "Rematch (expired)" if expired else "Rematch",
                             discord.ButtonStyle.secondary if expired else discord.ButtonStyle.success)
        button.item.disabled = expired
        items.append(button)
    return render(text, items, accent=accent, media=media, header=header, seats=seats)


def text_view(text: str, *, accent: int = DEFAULT_ACCENT, header: str | None = None) -> discord.ui.LayoutView:
    """A layout of *text* alone (a table that ended, a message that moved on): no buttons."""
    return render(text, accent=accent, header=header)


def board_view(table_id: int, version: int, buttons: Sequence[BoardItem], *, text: str,
               accent: int = DEFAULT_ACCENT, header: str | None = None) -> discord.ui.LayoutView:
    """A private board's layout: *text* (under *header*, else its first line), then a
    :class:`MoveButton` per button and a :class:`MoveSelect` per menu, grouped by the items'
    ``group`` (:data:`~bot.tables.board.GROUPS`).

    Parameters
    ----------
    table_id, version:
        The table and its state version (both go into every custom id).
    buttons:
        The board's :class:`~bot.tables.ui.BoardButton` and :class:`~bot.tables.ui.BoardSelect`
        items, in order; a menu without a row takes the first free one.
    text, accent, header:
        As :func:`~bot.tables.layout.render` takes them.

    Raises
    ------
    LimitError
        They do not fit 5 action rows of width 5 (a menu is 5 wide; the rows also number the
        menus' custom ids), the layout is over Discord's V2 limits, or a label, option or custom
        id is too long (``docs/design.md`` §5).
    """
    rows = check_layout([(b.row, b.width) for b in buttons])
    items: list[Grouped] = []
    for item, row in zip(buttons, rows, strict=True):
        group = getattr(item, "group", "actions")
        if isinstance(item, BoardSelect):
            items.append(Grouped(MoveSelect(table_id, version, list(item.options), item.placeholder, row), group, row))
        else:
            button = MoveButton(table_id, version, item.token, item.label, STYLES[item.style], item.disabled,
                                emoji=item.emoji)
            items.append(Grouped(button, group, row))
    return render(text, items, accent=accent, header=header)
