"""What a game cog supplies to the table service: how its table, boards and moves look.

The table service does everything a table needs (lobby, seats, bots, persistence, races, redraws)
for every game; a game cog registers a :class:`GameUI` that turns engine views into text and
labels moves. Rules never live here: a :class:`GameUI` reads ``engine.view(...)`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from bot.engine import Action
    from bot.tables.table import Table

__all__ = ["GameUI"]


class GameUI:
    """Rendering of one game kind; subclass per game.

    Attributes
    ----------
    kind:
        The engine kind it renders.
    board_label:
        The label of the public "open my board/hand" button.
    turn_timer:
        Whether players get a turn timer (turn-based games); a real-time game sets ``False``.
    """

    kind: ClassVar[str] = ""
    board_label: ClassVar[str] = "Open my hand"
    turn_timer: ClassVar[bool] = True

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
