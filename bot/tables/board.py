"""The values a game's board is drawn from, and Discord's limits they must keep.

A :class:`~bot.tables.ui.GameUI` draws a player's board as a :class:`Board` of
:class:`BoardButton` and :class:`BoardSelect` items and reads a click as a :class:`Click`; the
picker (:mod:`bot.tables.picker`) builds them from legal actions and the components
(:mod:`bot.tables.components`) turn them into Discord's. Discord's limits (``docs/design.md`` §5)
are checked here and fail loudly with a :class:`LimitError`; nothing is silently cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from bot.engine import Action

__all__ = ["BoardButton", "BoardOption", "BoardSelect", "BoardItem", "Board", "Click", "TOKEN_PATTERN",
           "LimitError", "check_length", "check_layout", "fit_label", "STYLES", "GROUPS",
           "BUTTON_LABEL_MAX", "SELECT_OPTIONS_MAX", "SELECT_TEXT_MAX", "PLACEHOLDER_MAX", "CUSTOM_ID_MAX",
           "ROWS_MAX", "ROW_WIDTH", "COMPONENTS_MAX", "CONTENT_MAX"]

TOKEN_PATTERN = r"[A-Za-z0-9:._-]{1,60}"
"""What a board or public button token may look like (it goes into a custom id of ≤ 100 chars)."""

BUTTON_LABEL_MAX = 80
"""Characters of a button label (Discord)."""
SELECT_OPTIONS_MAX = 25
"""Options of one select menu (Discord)."""
SELECT_TEXT_MAX = 100
"""Characters of a select option's label, value or description (Discord)."""
PLACEHOLDER_MAX = 150
"""Characters of a select menu's placeholder (Discord)."""
CUSTOM_ID_MAX = 100
"""Characters of a custom id (Discord)."""
ROWS_MAX = 5
"""Action rows of one message (Discord)."""
ROW_WIDTH = 5
"""Width of one action row: five buttons, or one select menu (Discord)."""
COMPONENTS_MAX = ROWS_MAX * ROW_WIDTH
"""Components of one message (5 rows × 5)."""
CONTENT_MAX = 2000
"""Characters of a message's content (Discord)."""

STYLES = ("primary", "secondary", "success", "danger")
"""The button styles a :class:`BoardButton` may have."""
GROUPS = ("cards", "piles", "actions")
"""What a button does, in the order a layout shows the groups, each from a new action row: the
player's own cards, the table's piles, and actions (draw, knock, ready, cancel…)
(:mod:`bot.tables.layout`, ``docs/tables.md``, "Message layouts")."""

_TOKEN_RE = re.compile(TOKEN_PATTERN)
_EMOJI_RE = re.compile(r"<:[A-Za-z0-9_]{2,32}:\d{1,20}>")


class LimitError(ValueError):
    """A message or component would break one of Discord's limits (``docs/design.md`` §5).

    Raised where the component is described or built, so a game that would exceed a limit
    fails in its tests instead of being cut short (or refused with a 400) in front of players.
    The message names the limit and the value that broke it.
    """


def check_length(what: str, text: str, maximum: int, *, minimum: int = 0) -> str:
    """Return *text* when its length is within ``minimum..maximum``.

    Parameters
    ----------
    what:
        What *text* is, for the message ("button label").
    text:
        The text to check.
    maximum, minimum:
        The limits, in characters.

    Raises
    ------
    LimitError
        *text* is longer (or shorter) than allowed; the message names *what*, the limit and the text.

    >>> check_length("button label", "Flip", 80)
    'Flip'
    >>> check_length("button label", "Flip " * 17, 80)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    bot.tables.board.LimitError: button label has 85 characters, more than Discord's 80: 'Flip Flip...'
    """
    if len(text) > maximum:
        raise LimitError(f"{what} has {len(text)} characters, more than Discord's {maximum}: {text[:40] + '…'!r}")
    if len(text) < minimum:
        raise LimitError(f"{what} must have at least {minimum} character(s), got {text!r}")
    return text


def check_token(token: str) -> str:
    """Return *token* when it matches :data:`TOKEN_PATTERN` (≤ 60 characters of ``A-Za-z0-9:._-``).

    Raises
    ------
    LimitError
        It does not; the message shows it.
    """
    if not _TOKEN_RE.fullmatch(token):
        raise LimitError(f"token {token!r} must match {TOKEN_PATTERN} (it goes into a custom id of "
                         f"at most {CUSTOM_ID_MAX} characters)")
    return token


def check_layout(items: Sequence[tuple[int | None, int]]) -> list[int]:
    """Place components in action rows as discord.py does, or fail.

    Parameters
    ----------
    items:
        ``(row, width)`` per component in the order they are added: *row* is ``0``–``4`` or
        ``None`` (the first row with room), *width* 1 for a button and 5 for a select menu.

    Returns
    -------
    list[int]
        The row each item lands in.

    Raises
    ------
    LimitError
        More than 25 components, a row index outside 0–4, or a row wider than 5
        (``docs/design.md`` §5: 5 action rows × 5 buttons).

    >>> check_layout([(None, 1)] * 6 + [(4, 5)])
    [0, 0, 0, 0, 0, 1, 4]
    >>> check_layout([(0, 5), (0, 1)])
    Traceback (most recent call last):
    bot.tables.board.LimitError: action row 0 would hold 6 > 5 (a row has room for 5 buttons or one select menu)
    """
    if len(items) > COMPONENTS_MAX:
        raise LimitError(f"{len(items)} components, more than Discord's {COMPONENTS_MAX} (5 rows × 5)")
    weights = [0] * ROWS_MAX
    rows: list[int] = []
    for row, width in items:
        if row is not None:
            if not 0 <= row < ROWS_MAX:
                raise LimitError(f"action row {row} does not exist: a message has rows 0–{ROWS_MAX - 1}")
            if weights[row] + width > ROW_WIDTH:
                raise LimitError(f"action row {row} would hold {weights[row] + width} > {ROW_WIDTH} "
                                 "(a row has room for 5 buttons or one select menu)")
        else:
            row = next((i for i, w in enumerate(weights) if w + width <= ROW_WIDTH), None)
            if row is None:
                raise LimitError(f"no action row has room for one more component of width {width} "
                                 f"(5 rows × 5): row widths are {weights}")
        weights[row] += width
        rows.append(row)
    return rows


def fit_label(text: str, limit: int = BUTTON_LABEL_MAX) -> str:
    r"""*text* shortened on purpose to *limit* characters, ending with "…" when it was longer.

    For a game UI that builds a label from data of unknown length (a display name, a list); the
    kit itself never shortens a label it is given, it raises :class:`LimitError`.

    A label is plain text, never markdown: a name escaped for messages (``john\_doe``) is shown
    as typed (``john_doe``).

    >>> fit_label("Power swap: " + "Alice, " * 20, 30)
    'Power swap: Alice, Alice, Ali…'
    >>> fit_label("john\\_doe's cards")
    "john_doe's cards"
    """
    text = _MARKDOWN_ESCAPE.sub(r"\1", text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


_MARKDOWN_ESCAPE = re.compile(r"\\([*_~`|>\\])")
"""A backslash escaping a markdown character (``discord.utils.escape_markdown``)."""


@dataclass(frozen=True)
class BoardButton:
    """One button of a private board or of the public table message.

    Attributes
    ----------
    label:
        The text on the button (1–80 characters).
    token:
        What the click means to the :class:`GameUI` (matches :data:`TOKEN_PATTERN`); it must
        never name a card (an action's token comes from :mod:`bot.tables.codec`).
    style:
        ``"primary"``, ``"secondary"``, ``"success"`` or ``"danger"``.
    disabled:
        Shown greyed out.
    row:
        The action row (0–4), or ``None`` to let Discord flow the buttons.
    group:
        What it does, one of :data:`GROUPS`: ``"cards"`` (the player's own cards), ``"piles"`` (the
        table's piles) or ``"actions"`` (the default); the layout shows the groups in that order,
        each from a new action row.
    emoji:
        A card's emoji markup shown before the label (``<:p1_db_r8:ID>``, from
        :meth:`CardStyle.emoji <bot.tables.faces.CardStyle.emoji>`), or ``None``. The label still
        names the card in words ("Wood yellow 8"), for screen readers (``docs/art.md`` §8).

    Raises
    ------
    LimitError
        The label is empty or longer than 80 characters, the token does not match
        :data:`TOKEN_PATTERN`, or the row is outside 0–4 (``docs/design.md`` §5).
    ValueError
        An unknown style or group, or an emoji that is not a custom emoji's markup.
    """

    label: str
    token: str
    style: str = "secondary"
    disabled: bool = False
    row: int | None = None
    group: str = "actions"
    emoji: str | None = None

    def __post_init__(self) -> None:
        if self.emoji is not None and not _EMOJI_RE.fullmatch(self.emoji):
            raise ValueError(f"button {self.label!r}: emoji {self.emoji!r} is not a custom emoji's markup <:name:id>")
        check_length("button label", self.label, BUTTON_LABEL_MAX, minimum=1)
        check_token(self.token)
        if self.row is not None and not 0 <= self.row < ROWS_MAX:
            raise LimitError(f"button {self.label!r}: action row {self.row} does not exist (rows 0–{ROWS_MAX - 1})")
        if self.style not in STYLES:
            raise ValueError(f"button {self.label!r}: style {self.style!r} is not one of {STYLES}")
        if self.group not in GROUPS:
            raise ValueError(f"button {self.label!r}: group {self.group!r} is not one of {GROUPS}")

    width: ClassVar[int] = 1


@dataclass(frozen=True)
class BoardOption:
    """One option of a board's select menu.

    Attributes
    ----------
    label:
        What the option says (1–100 characters).
    token:
        What picking it means, as a button's token (:data:`TOKEN_PATTERN`); it becomes the
        option's value.
    description:
        A second, smaller line (≤ 100 characters), or ``""``.

    Raises
    ------
    LimitError
        A text over 100 characters, an empty label, or a token not matching :data:`TOKEN_PATTERN`.
    """

    label: str
    token: str
    description: str = ""

    def __post_init__(self) -> None:
        check_length("select option label", self.label, SELECT_TEXT_MAX, minimum=1)
        check_length("select option value", check_token(self.token), SELECT_TEXT_MAX)
        check_length("select option description", self.description, SELECT_TEXT_MAX)


@dataclass(frozen=True)
class BoardSelect:
    """A select menu on a private board (it takes a whole action row).

    Attributes
    ----------
    options:
        1–25 options with distinct tokens.
    placeholder:
        The menu's text before a pick (≤ 150 characters).
    row:
        The action row (0–4), or ``None`` for the first free one.

    Raises
    ------
    LimitError
        No option or more than 25, two options with one token, a placeholder over 150
        characters, or a row outside 0–4 (``docs/design.md`` §5).
    """

    options: Sequence[BoardOption]
    placeholder: str = "Choose…"
    row: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.options) <= SELECT_OPTIONS_MAX:
            raise LimitError(f"a select menu holds 1–{SELECT_OPTIONS_MAX} options, got {len(self.options)}")
        tokens = [o.token for o in self.options]
        if len(set(tokens)) != len(tokens):
            raise LimitError(f"two options of one select menu share a value: {sorted(tokens)}")
        check_length("select placeholder", self.placeholder, PLACEHOLDER_MAX)
        if self.row is not None and not 0 <= self.row < ROWS_MAX:
            raise LimitError(f"select menu: action row {self.row} does not exist (rows 0–{ROWS_MAX - 1})")

    width: ClassVar[int] = ROW_WIDTH


BoardItem = BoardButton | BoardSelect
"""A component of a board: a button, or a select menu."""


@dataclass(frozen=True)
class Board:
    """A private board: its text and components.

    Attributes
    ----------
    text:
        The board's text (the service fits it, with the notes on top, into 2,000 characters by
        leaving out whole lines, and says so).
    buttons:
        Its components in the order they are added: :class:`BoardButton` and
        :class:`BoardSelect` items (a menu takes a whole row), within 5 rows × 5.

    Raises
    ------
    LimitError
        The components do not fit 5 action rows of width 5, or two of them share a token
        (a custom id must be unique in a message).
    """

    text: str
    buttons: Sequence[BoardItem] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_layout([(b.row, b.width) for b in self.buttons])
        tokens = [b.token for b in self.buttons if isinstance(b, BoardButton)]
        if len(set(tokens)) != len(tokens):
            raise LimitError(f"two buttons of one board share a token (custom ids must differ): {sorted(tokens)}")


@dataclass(frozen=True)
class Click:
    """What a board click means.

    Attributes
    ----------
    action:
        The engine action to submit, or ``None`` when the click only changes the board (a card
        selected, a choice offered).
    selection:
        The board's new selection token, or ``None``.
    note:
        A line to show on the redrawn board.
    """

    action: Action | None = None
    selection: str | None = None
    note: str = ""
