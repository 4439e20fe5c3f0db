"""What a game cog supplies to the table service: how its table, boards and moves look.

The table service does everything a table needs (lobby, seats, bots, persistence, races, redraws)
for every game; a game cog registers a :class:`GameUI` that turns engine views into text and
labels moves. Rules never live here: a :class:`GameUI` reads ``engine.view(...)`` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from bot.engine import Action, Event
    from bot.tables.table import Table

__all__ = ["GameUI", "BoardButton", "Board", "Click", "TOKEN_PATTERN"]

TOKEN_PATTERN = r"[A-Za-z0-9:._-]{1,60}"
"""What a board or public button token may look like (it goes into a custom id of ≤ 100 chars)."""


@dataclass(frozen=True)
class BoardButton:
    """One button of a private board or of the public table message.

    Attributes
    ----------
    label:
        The text on the button (≤ 80 characters).
    token:
        What the click means to the :class:`GameUI` (matches :data:`TOKEN_PATTERN`); it must
        never name a hidden card.
    style:
        ``"primary"``, ``"secondary"``, ``"success"`` or ``"danger"``.
    disabled:
        Shown greyed out.
    row:
        The action row (0–4), or ``None`` to let Discord flow the buttons.
    """

    label: str
    token: str
    style: str = "secondary"
    disabled: bool = False
    row: int | None = None


@dataclass(frozen=True)
class Board:
    """A private board: its text and buttons (at most 25)."""

    text: str
    buttons: list[BoardButton] = field(default_factory=list)


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


class GameUI:
    """Rendering of one game kind; subclass per game.

    Attributes
    ----------
    kind:
        The engine kind it renders.
    board_label:
        The label of the public "open my board/hand" button.
    """

    kind: ClassVar[str] = ""
    board_label: ClassVar[str] = "Open my hand"

    def public_text(self, table: Table) -> str:
        """The public table message while the game runs (content ≤ 2000 characters).

        The default lists the public view's keys; games override it.
        """
        view = table.engine.view(None) if table.engine else {}
        lines = [f"**{table.title}** — table #{table.id}"]
        for key, value in view.items():
            lines.append(f"{key}: {value}")
        return "\n".join(lines)[:2000]

    def private_text(self, table: Table, player: str) -> str:
        """The ephemeral board of *player* (content ≤ 2000 characters)."""
        assert table.engine is not None
        view = table.engine.view(player)
        return "\n".join(f"{k}: {v}" for k, v in view.items())[:2000]

    def board(self, table: Table, player: str, selection: str | None = None) -> Board:
        """The private board of *player*; *selection* is the token a previous click selected.

        The default shows :meth:`private_text` and one button per legal action, token ``a<i>``
        for the action's index in ``legal_actions(player)`` (a version-bound index: the table
        rejects clicks from an older version before asking :meth:`on_board_click`).
        """
        assert table.engine is not None
        legal = table.engine.legal_actions(player)
        buttons = [BoardButton(self.action_label(table, player, a), f"a{i}", "primary") for i, a in enumerate(legal)]
        return Board(self.private_text(table, player), buttons)

    def token_is_stable(self, token: str) -> bool:
        """Whether board token *token* means the same move whatever the table's version.

        Index tokens (``a3``: legal action 3) are not: a click on a board from an older version
        gets a fresh board. Tokens that name the move (``flip``, ``c:wood``) are checked against
        the current state instead, so everyone playing at once does not turn every board stale.
        """
        return not (token.startswith("a") and token[1:].isdigit())

    def on_board_click(self, table: Table, player: str, token: str) -> Click:
        """What *player*'s click on board button *token* does (same table version as the board).

        Raises
        ------
        bot.tables.TableError
            The token is not understood (an old board of another layout).
        """
        from bot.tables.table import TableError

        assert table.engine is not None
        legal = table.engine.legal_actions(player)
        if token.startswith("a") and token[1:].isdigit() and int(token[1:]) < len(legal):
            return Click(legal[int(token[1:])])
        raise TableError("That button is no longer available.")

    def private_note(self, table: Table, player: str, event: Event) -> str | None:
        """The line a private *event* (one only *player* may see) adds to their board, or ``None``.

        The default names the event and its details; games word their own (a drawn card, a peek).
        """
        details = ", ".join(f"{k}: {v}" for k, v in event.data.items())
        return f"🔒 {event.type}" + (f" — {details}" if details else "")

    def bot_actions(self, table: Table, player: str, legal: list[Action]) -> list[Action]:
        """The subset of *legal* a bot seat may choose from (default: all).

        Games drop actions the table reserves for the host, e.g. forcing the next hand.
        """
        return legal

    notice_events: ClassVar[frozenset[str]] = frozenset({"game_over"})
    """Event types that also get a short new message in the thread (an edit alone notifies nobody)."""

    def notice(self, table: Table, event: Event) -> str | None:
        """The short new message for *event* (one of :attr:`notice_events`), or ``None``.

        The default tells it in the game's own words (``bot.engine.narrate``).
        """
        from bot.engine.narrate import narrate

        return narrate(table.kind, event, table.display_name) or None

    def how_to_play(self, table: Table) -> str:
        """The "How to play" answer (ephemeral): the game's rules in short and how its table works.

        The default is the first paragraph of the engine's documentation; games give their own.
        """
        doc = (type(table.engine).__doc__ if table.engine else "") or ""
        return f"**{table.title}**\n{doc.strip().split(chr(10) * 2)[0]}"

    def public_buttons(self, table: Table) -> list[BoardButton]:
        """Extra buttons on the public table message while the game runs (default: none)."""
        return []

    def on_public_click(self, table: Table, player: str, token: str, *, is_host: bool) -> Action:
        """The action a public button *token* stands for when *player* clicks it.

        Raises
        ------
        bot.tables.TableError
            The click is not allowed now (not the host, too early, …), with the reason.
        """
        from bot.tables.table import TableError

        raise TableError("That button is not in use.")

    def action_label(self, table: Table, player: str, action: Action) -> str:
        """A button label (≤ 80 characters) for one of *player*'s legal actions."""
        details = " ".join(str(v) for k, v in action.items() if k != "type")
        return f"{action['type']} {details}".strip()[:80]

    def result_text(self, table: Table) -> str:
        """The final standings."""
        assert table.engine is not None
        result = table.engine.result()
        if result is None:
            return ""
        lines = ["**Final standings**"]
        for player, rank in sorted(result.ranks.items(), key=lambda kv: kv[1]):
            lines.append(f"{rank}. {table.display_name(player)} — {result.scores[player]}")
        return "\n".join(lines)

    def options_from_command(self, **values: Any) -> dict[str, Any]:
        """Turn slash-command option values into engine options (``None`` values are dropped)."""
        return {k: v for k, v in values.items() if v is not None}
