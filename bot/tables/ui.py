"""What a game cog supplies to the table service: how its table, boards and moves look.

The table service does everything a table needs (lobby, seats, bots, persistence, races, redraws)
for every game; a game cog registers a :class:`GameUI` that turns engine views into text and
labels moves. Rules never live here: a :class:`GameUI` reads ``engine.view(...)`` only, and never
checks who may make a move (:meth:`Moves.submit <bot.tables.moves.Moves.submit>` does).

The board's values and Discord's limits live in :mod:`bot.tables.board` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from bot.engine.narrate import narrate
from bot.tables.board import (
    BUTTON_LABEL_MAX,
    COMPONENTS_MAX,
    CONTENT_MAX,
    CUSTOM_ID_MAX,
    PLACEHOLDER_MAX,
    ROW_WIDTH,
    ROWS_MAX,
    SELECT_OPTIONS_MAX,
    SELECT_TEXT_MAX,
    STYLES,
    TOKEN_PATTERN,
    Board,
    BoardButton,
    BoardItem,
    BoardOption,
    BoardSelect,
    Click,
    LimitError,
    check_layout,
    check_length,
    fit_label,
)
from bot.tables.cards import card_text
from bot.tables.codec import codec_for, is_action_token, is_intent_token, is_selection_token
from bot.tables.faces import PLAIN, CardFaces, CardStyle
from bot.tables.picker import CANCEL, MISSING, Picker, Step, leaf_paths, step_components
from bot.tables.seats import PublicParts
from bot.tables.table import TableError, TableStatus

if TYPE_CHECKING:
    from bot.engine import Action, Event
    from bot.tables.table import Table

__all__ = ["GameUI", "BoardButton", "BoardOption", "BoardSelect", "BoardItem", "Board", "Click", "TOKEN_PATTERN",
           "LimitError", "check_length", "check_layout", "fit_label", "STYLES",
           "BUTTON_LABEL_MAX", "SELECT_OPTIONS_MAX", "SELECT_TEXT_MAX", "PLACEHOLDER_MAX", "CUSTOM_ID_MAX",
           "ROWS_MAX", "ROW_WIDTH", "COMPONENTS_MAX", "CONTENT_MAX"]


def _humanize(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


class GameUI:
    """Rendering of one game kind; subclass per game.

    Attributes
    ----------
    kind:
        The engine kind it renders.
    board_label:
        The label of the public "open my board/hand" button.
    faces:
        The card emojis of the client it is registered with (set by
        :meth:`TableRegistry.register_ui <bot.tables.registry.TableRegistry.register_ui>`); ``None``:
        cards as text.
    """

    kind: ClassVar[str] = ""
    board_label: ClassVar[str] = "Open my hand"
    faces: CardFaces | None = None

    def cards(self, table: Table) -> CardStyle:
        """How this render draws cards in *table*'s thread: as emojis where synced and usable, else as text.

        Ask once per message and draw every card through it (:class:`~bot.tables.faces.CardStyle`;
        ``docs/art.md`` §8). A face-down card is always :meth:`CardStyle.back
        <bot.tables.faces.CardStyle.back>`, never its face.
        """
        return self.faces.style(table.thread_id) if self.faces is not None else PLAIN

    def public_text(self, table: Table) -> str:
        """The public table message while the game runs (content ≤ 2000 characters).

        The default lists the public view's keys; games override it. A longer text is fitted by
        the service, which leaves out whole lines from the middle and says how many.
        """
        view = table.engine.view(None) if table.engine else {}
        lines = [f"**{table.title}** — table #{table.id}"]
        for key, value in view.items():
            lines.append(f"{key}: {value}")
        return "\n".join(lines)

    def public_parts(self, table: Table) -> PublicParts:
        """:meth:`public_text` as header, seats and the rest (:class:`~bot.tables.seats.PublicParts`; here no seats)."""
        return PublicParts.of_text(self.public_text(table))

    def private_text(self, table: Table, player: str) -> str:
        """The ephemeral board of *player* (content ≤ 2000 characters; see :meth:`public_text`)."""
        assert table.engine is not None
        view = table.engine.view(player)
        return "\n".join(f"{k}: {v}" for k, v in view.items())

    def board(self, table: Table, player: str, selection: str | None = None) -> Board:
        """The private board of *player*; *selection* is the picker step a previous click chose.

        The default shows :meth:`private_text` and the picker's current step
        (:mod:`bot.tables.picker`): the player's legal actions as steps of buttons (≤ 20) or a
        select menu (21–25), more split into ranges, with Back and Cancel. Every token is an
        action or selection token of :mod:`bot.tables.codec`, checked against the current state
        when clicked. A *selection* that no longer leads anywhere starts again from the first step,
        saying so (``docs/tables.md``, "The table kit").

        Raises
        ------
        LimitError
            A label from :meth:`step_label` or :meth:`action_label` is longer than 80 characters.
        """
        picker = self.picker(table, player)
        note = ""
        try:
            step = picker.step(selection)
        except TableError as exc:
            step, note = picker.step(None), str(exc)
        lines = [self.private_text(table, player)]
        if note:
            lines.append(note)
        lines.append(self.step_text(table, player, step))
        items = step_components(step, self.step_placeholder(table, player, step))
        return Board("\n".join(x for x in lines if x), items)

    def picker(self, table: Table, player: str) -> Picker:
        """The :class:`~bot.tables.picker.Picker` of *player*'s current legal actions, labelled by this UI."""
        assert table.engine is not None
        return Picker(table.engine.legal_actions(player), codec_for(table, player),
                      step_label=lambda path, value: self.step_label(table, player, path, value),
                      action_label=lambda action: self.action_label(table, player, action))

    def step_text(self, table: Table, player: str, step: Step) -> str:
        """The board's line about the picker *step*: what was chosen so far and what to pick now.

        E.g. ``"Power swap · Alice — Pick the first position:"``; ``"Nothing to do right now."``
        when the player has no legal action.
        """
        if not step.choices:
            return "Nothing to do right now."
        chosen = " · ".join(self.step_label(table, player, path, value) for path, value in step.chosen)
        if step.path is None:
            pick = "Your move:"
        else:
            pick = f"Pick the {self.path_label(table, player, step.path)}:"
        return f"{chosen} — {pick}" if chosen else pick

    def step_placeholder(self, table: Table, player: str, step: Step) -> str:
        """The placeholder of the picker's select menu for *step* (≤ 150 characters)."""
        what = self.path_label(table, player, step.path) if step.path else "move"
        return fit_label(f"Pick the {what}…", PLACEHOLDER_MAX)

    def token_is_stable(self, token: str) -> bool:
        """Whether board token *token* means the same move whatever the table's version.

        Yes, except the index tokens of older boards (``a3``: legal move 3; a fresh board). The
        picker's tokens are checked against the current legal actions or lead to the same choice;
        so are tokens that name the move (``flip``, ``c:wood``). Positional tokens say no.
        """
        return not (token.startswith("a") and token[1:].isdigit())

    def on_board_click(self, table: Table, player: str, token: str) -> Click:
        """What *player*'s click on board button (or menu option) *token* does.

        An action token plays its action, when it is still legal; a selection token shows that
        step of the picker; ``x`` goes back to the first step; an intent token (a button the game
        UI made with :meth:`intent`) goes to :meth:`on_intent`.

        Raises
        ------
        bot.tables.TableError
            The move is no longer possible, the step no longer exists, or the token is not one
            of the picker's (an old board of another layout); the message says which.
        """
        if is_intent_token(token):
            return self.on_intent(table, player, codec_for(table, player).decode_intent(
                token, self.intents(table, player)))
        if token == CANCEL:
            return Click(selection=None)
        picker = self.picker(table, player)
        if is_action_token(token):
            return Click(picker.decode(token))
        if picker.has_step(token):
            return Click(selection=token)
        if is_selection_token(token):
            raise TableError("That choice is no longer open — here is your fresh board.")
        raise TableError("That button is no longer valid — here is your fresh board.")

    def intents(self, table: Table, player: str) -> list[dict[str, Any]]:
        """Every intent the boards of this UI may carry for *player* (its vocabulary; default none).

        A game whose buttons mean more than one fixed action (Dutch Blitz: "my Wood card, onto
        whichever Dutch pile it fits when the click arrives") declares them as small dicts here,
        puts ``self.intent(table, player, {...})`` on its buttons and reads the click in
        :meth:`on_intent`: the kit's codec makes the tokens, so the game writes no token grammar.
        """
        return []

    def intent(self, table: Table, player: str, intent: dict[str, Any]) -> str:
        """The board token for *intent* (one of :meth:`intents`): keyed, version-independent, opaque."""
        return codec_for(table, player).intent_token(intent)

    def on_intent(self, table: Table, player: str, intent: Mapping[str, Any]) -> Click:
        """What a click on a button made with :meth:`intent` does (the decoded *intent*).

        Raises
        ------
        bot.tables.TableError
            The click cannot be taken now, with the reason.
        """
        raise TableError("That button is not in use.")

    def private_note(self, table: Table, player: str, event: Event) -> str | None:
        """The line a private *event* (one only *player* may see) adds to their board, or ``None``.

        The default names the event and its details; games word their own (a drawn card, a peek).
        """
        details = ", ".join(f"{k}: {v}" for k, v in event.data.items())
        return f"🔒 {event.type}" + (f" — {details}" if details else "")

    def private_note_seconds(self, table: Table, player: str, event: Event) -> float | None:
        """How long (seconds) the note of private *event* stays on *player*'s board; ``None``: until newer
        notes push it out.

        By default the engine's rule (:meth:`bot.engine.Engine.shown_for_ms`): a peek lasts the
        game's peek time, then the table removes the note and refreshes the open board through its
        live token, so the face is hidden again (``docs/tables.md``, "Live boards").
        """
        shown = table.engine.shown_for_ms(event) if table.engine is not None else None
        return None if shown is None else shown / 1000

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
            The button is not in use now, with the reason (who may take it, and when, is the
            table's decision: :meth:`Moves.submit <bot.tables.moves.Moves.submit>`).
        """
        raise TableError("That button is not in use.")

    def action_label(self, table: Table, player: str, action: Action) -> str:
        """The label (≤ 80 characters) of a button that plays the whole *action* from the first step.

        The default is the action's type and the :meth:`step_label` of its other values, e.g.
        ``"Power swap: Alice, position 2, Bob, position 0"``, shortened with "…" to 80.
        """
        parts = [self.step_label(table, player, path, value) for path, value in leaf_paths(action) if path != "type"]
        head = _humanize(str(action.get("type", "move"))).capitalize()
        return fit_label(f"{head}: {', '.join(parts)}" if parts else head)

    def step_label(self, table: Table, player: str, path: str, value: Any) -> str:
        """The label (≤ 80 characters) of a picker choice: *value* for the action path *path*.

        *path* names a leaf of the action (``"type"``, ``"card"``, ``"first.position"``); a value
        missing from some actions is :data:`bot.tables.picker.MISSING`. The default shows a type
        in words (``"Power swap"``), a seated player's display name, a card id as its card
        (``"Q♥"``, :mod:`bot.tables.cards`) and anything else as ``"<key> <value>"``
        (``"position 2"``), shortened with "…" to 80. Games override it to word their own.
        """
        key = path.rpartition(".")[2]
        if value is MISSING:
            return fit_label(f"no {_humanize(key)}")
        if path == "type":
            return fit_label(_humanize(str(value)).capitalize())
        if isinstance(value, str) and (table.seat_of_player(value) is not None
                                       or (table.engine is not None and value in table.engine.players)):
            return fit_label(table.display_name(value))
        if isinstance(value, str) and "card" in key and (card := card_text(value)) is not None:
            return card
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        return fit_label(f"{_humanize(key)} {shown}")

    def path_label(self, table: Table, player: str, path: str) -> str:
        """An action path in words, for the board's "Pick the …" line.

        The default: ``type`` → ``move``, ``first.position`` → ``first position``.
        """
        return "move" if path == "type" else _humanize(path.replace(".", " "))

    reveal_ms: ClassVar[int] = 0
    """Milliseconds between two steps of the public story (:meth:`story_steps`); 0 tells it whole."""

    def story_steps(self, table: Table) -> tuple[str, int]:
        """The story the public text tells step by step: a key naming it, and how many steps it has now.

        For a game whose one move sets off a long chain of events (a Blitzkrieg battle): the table
        message shows the first step at once and one more every :attr:`reveal_ms` (times the
        service's ``timer_scale``), instead of a wall of text; its edits stay coalesced. The same key
        with more steps (the story went on) carries on from the steps already shown; a new key
        starts again from one. :meth:`public_text` shows :meth:`shown_steps` of them. Default
        ``("", 0)``: nothing is told step by step.
        """
        return ("", 0)

    def shown_steps(self, table: Table) -> int:
        """How many steps of :meth:`story_steps` the public text shows now (all of them once the game is over)."""
        key, steps = self.story_steps(table)
        if not self.reveal_ms or table.engine is None or table.engine.is_over or table.status != TableStatus.RUNNING:
            return steps
        told_key, told = table.revealed
        return min(steps, told if told_key == key else 1)

    def auto_action(self, table: Table, player: str) -> Action | None:
        """A move the table makes by itself for the person *player* now, or ``None`` (the default).

        The table makes it, through the same path as a click, once the public story
        (:meth:`story_steps`) is told and one more step's pause has passed: e.g. Blitzkrieg at the
        automatic pace turns each player's card for them, while their choices stay theirs.
        """
        return None

    def standings_title(self, table: Table) -> str:
        """The head of :meth:`result_text` (default ``**Final standings**``; e.g. "(lowest wins)" added)."""
        return "**Final standings**"

    def score_text(self, table: Table, player: str, score: float) -> str:
        """How one player's final score reads in :meth:`result_text` (default: the number)."""
        return str(score)

    def result_text(self, table: Table) -> str:
        """The final standings: :meth:`standings_title`, then ``rank. name — score`` by rank."""
        assert table.engine is not None
        result = table.engine.result()
        if result is None:
            return ""
        lines = [self.standings_title(table)]
        for player, rank in sorted(result.ranks.items(), key=lambda kv: kv[1]):
            score = self.score_text(table, player, result.scores[player])
            lines.append(f"{rank}. {table.display_name(player)} — {score}")
        return "\n".join(lines)

    quiet_events: ClassVar[frozenset[str]] = frozenset()
    """Public event types :meth:`last_moves` leaves out (bookkeeping nobody needs told)."""

    def last_moves(self, table: Table, count: int = 6) -> list[str]:
        """The latest *count* public events of *table* in the game's own words, oldest first.

        Read from ``table.public_events`` through the game's narrator (``bot.engine.narrate``);
        empty after a restart until the next move.
        """
        lines = [narrate(table.kind, event, table.display_name) for event in table.public_events
                 if event.is_public and event.type not in self.quiet_events]
        return [line for line in lines if line][-count:]

    LAST_MOVES_CHARS = 900
    """Characters the "**Last moves**" block of a table message may take: a showdown of eight hands
    is a long line, and the seats, the standings and a notice need the rest of Discord's 2,000."""

    def last_moves_block(self, table: Table, count: int = 6) -> list[str]:
        """:meth:`last_moves` as lines of a table message, under a "**Last moves**" head (none: no lines).

        At most *count* moves and :attr:`LAST_MOVES_CHARS` characters: the newest first in, so
        older moves are left out when the newest are long (the newest is always there).
        """
        lines: list[str] = []
        used = 0
        for line in reversed(self.last_moves(table, count)):
            used += len(line) + 3
            if lines and used > self.LAST_MOVES_CHARS:
                break
            lines.insert(0, f"· {line}")
        return ["**Last moves**", *lines] if lines else []

    def options_from_command(self, **values: Any) -> dict[str, Any]:
        """Turn slash-command option values into engine options (``None`` values are dropped)."""
        return {k: v for k, v in values.items() if v is not None}
