"""Live private boards: each person's ephemeral board, drawn and kept current through their token.

An ephemeral message can only be edited through the token of the interaction that made or last
answered it, and that token lives 15 minutes (``docs/tables.md``, "Live boards"). :class:`LiveBoards`
draws a player's board (text and buttons), keeps the latest token of each open board, refreshes
the open boards of a table as it changes (coalesced, latest state wins) and hides a timed note (a
peek) again on every message that showed it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.tables.components import board_view
from bot.tables.core import now_ms, wait_event
from bot.tables.layout import accent_of
from bot.tables.practice import coach_lines, is_practice
from bot.tables.registry import TableRegistry
from bot.tables.table import Table, TableStatus
from bot.tables.text import CONTENT_MAX, fit_text
from bot.tables.ui import BoardItem, BoardSelect

__all__ = ["LiveBoards", "OpenBoard", "Reply", "Face", "BOARD_TOKEN_S", "FOLLOW_S", "BOARD_NOTE_S"]

log = logging.getLogger("parlor.tables")

BOARD_TOKEN_S = 15 * 60
"""Seconds an interaction token lives (Discord's rule): an ephemeral board can be edited that long."""

FOLLOW_S = 0.02
"""Seconds a redraw of the table message or of the open boards waits after the change that woke
it, at least: the click that made the change is answered first, instead of its answer waiting
behind the redraws it caused (``docs/tables.md``, "Live boards")."""

BOARD_NOTE_S = 8
"""Seconds a click's note (a refusal, a race result) stays on a board that is refreshed meanwhile."""



class BoardHandle(Protocol):
    """What edits an open board's message: the interaction whose original response it is, or a
    token and message id kept of one (:class:`_Token`), or a follow-up (:class:`_FollowUp`).
    """

    async def edit_original_response(self, *, content: str | None, view: discord.ui.LayoutView | None) -> object:
        """|coro| Edit the board's message to *view*, a Components V2 layout carrying the text
        (*content* ``None``: the flag goes with it).
        """


@dataclass
class OpenBoard:
    """A person's open private board: the latest interaction whose token can edit it.

    An ephemeral message can only be edited through the token of the interaction that made or
    last answered it, and that token lives 15 minutes (``docs/tables.md``, "Live boards").

    Attributes
    ----------
    interaction:
        What edits the board: an object with ``async edit_original_response(*, content, view)``
        that goes through the token of the interaction whose original response is the board
        (the Discord layer keeps just that token and the message id, not the whole interaction).
    opened_ms:
        When its token was received (monotonic milliseconds).
    version:
        The table version the board shows.
    selection:
        The board's selection token (a card picked, a step of a choice), kept across refreshes.
    note, note_ms:
        The line the last click added (a refusal, a race result) and when (monotonic ms); a
        refresh keeps it for a few seconds.
    warned:
        Whether the board already says that it stops updating soon.
    notes:
        The private notes it shows (a note that expires makes it due for a refresh).
    message_id:
        The message the board is on, when Discord said which (a board sent anew); ``None`` when unknown.
    face:
        A digest of what its message shows apart from the table version in its custom ids, or
        ``None`` when unknown: a refresh that would show the same is not sent (``docs/tables.md``,
        "Live boards").
    """

    interaction: BoardHandle
    opened_ms: float
    version: int
    selection: str | None = None
    note: str = ""
    note_ms: float = 0.0
    warned: bool = False
    notes: tuple[str, ...] = ()
    face: bytes | None = None
    message_id: int | None = None


@dataclass
class Reply:
    """An interaction answer decided under the table lock and sent after it is released."""

    kind: str  # "edit" (the clicked message), "send" (a new message) or "refuse" (ephemeral refusal)
    content: str = ""
    view: discord.ui.View | discord.ui.LayoutView | None = None  # a layout carries its own text (content "")
    ephemeral: bool = True
    table_message_of: Table | None = None  # the sent message becomes this table's public message
    board_of: str | None = None  # the sent message is this player's private board (kept live)
    sent: discord.WebhookMessage | None = None  # the follow-up it went out as, when the answer was deferred
    version: int = 0  # the table version a board shows
    message_id: int | None = None  # the message a "send" became, when Discord said
    drawn_ms: float = 0.0  # when (monotonic ms) the board it carries was drawn: the notes it shows are those then
    followup_of: str | None = None  # the player whose board went out as a follow-up (not kept live)
    face: Face | None = None  # what the board it carries shows (a live board's refresh skips an equal face)


class _FollowUp:
    """A board sent as a follow-up, edited through its webhook message: the one edit that hides a
    timed note on it (a follow-up is not the interaction's own message, so it is not kept live).
    """

    def __init__(self, message: discord.WebhookMessage) -> None:
        self.message = message

    async def edit_original_response(self, *, content: str | None, view: discord.ui.LayoutView | None) -> None:
        await self.message.edit(content=content, view=view)


class _Token:
    """What a live board sent by an interaction keeps of it: the interaction's webhook (its
    application id and its 15-minute token) and the board's message id. Editing that message
    needs nothing more, so the interaction itself (its payload, the member, the last response
    discord.py caches on it) is let go: about 10 KB a board (``docs/tables.md``, "Live boards").
    """

    __slots__ = ("webhook", "message_id")

    def __init__(self, interaction: discord.Interaction, message_id: int) -> None:
        self.webhook = interaction.followup
        self.message_id = message_id

    @property
    def token(self) -> str | None:
        """The interaction token (the same for every board the interaction drew)."""
        return self.webhook.token

    async def edit_original_response(self, *, content: str | None, view: discord.ui.LayoutView | None) -> None:
        if view is not None:  # a layout carries its text (no content; discord.py sends the V2 flag)
            await self.webhook.edit_message(self.message_id, view=view)
        else:
            await self.webhook.edit_message(self.message_id, content=content, view=None)


@dataclass(frozen=True)
class Face:
    """What a private board's message shows, apart from the table version in its custom ids.

    Two equal stable faces look and act the same: a refresh from one to the other is not sent
    (``docs/tables.md``, "Live boards").
    """

    text: str
    items: tuple[BoardItem, ...]
    stable: bool  # every token on it means the same move whatever the table's version

    @property
    def key(self) -> bytes | None:
        """What a live board keeps of its face: a 128-bit digest of the text and items (a board's
        text and buttons would cost a few KB a board), or ``None`` when the face is not stable.
        """
        if not self.stable:
            return None
        return hashlib.blake2b(repr((self.text, self.items)).encode(), digest_size=16).digest()


def _tokens(items: tuple[BoardItem, ...]) -> list[str]:
    """Every token of a board's buttons and of its menus' options."""
    return [token for item in items
            for token in ([o.token for o in item.options] if isinstance(item, BoardSelect) else [item.token])]


def _token_of(board: OpenBoard) -> str | None:
    """The interaction token that edits *board* (``None`` for a follow-up's)."""
    return getattr(board.interaction, "token", None)


def _board_message_id(interaction: discord.Interaction, reply: Reply) -> int | None:
    """The message *reply* (answering *interaction*) is a board on, or ``None`` when unknown.

    A board sent anew is the message Discord created for the answer; a click on a board edits the
    board it was on (an ephemeral message; a click on the public table message sends a new board).
    """
    if reply.kind != "edit":
        return reply.message_id
    message = getattr(interaction, "message", None)
    flags = getattr(message, "flags", None)
    return message.id if message is not None and getattr(flags, "ephemeral", False) else None


class LiveBoards:
    """The open private boards of every table (see the module's documentation).

    Parameters
    ----------
    registry:
        The tables and games of this process (each game's UI draws its boards).

    Attributes
    ----------
    live:
        Whether open private boards are refreshed as the table changes (``docs/tables.md``,
        "Live boards"); the stale-click benchmark turns it off to measure the difference.
    token_s:
        How long an interaction token lives, in seconds (Discord: 15 minutes; tests shorten it).
    """

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry
        self.open: dict[int, dict[str, OpenBoard]] = {}
        """Table id to its people's open boards: player id to their board, refreshed as the table changes."""
        self.live = True
        self.token_s: float = BOARD_TOKEN_S
        self.fading: dict[int, list[tuple[str, OpenBoard]]] = {}
        """Table id to the replaced boards that still show a timed private note (a peek), each with
        its player: they are edited until the note is gone (:meth:`remember`)."""

    def of(self, table: Table) -> dict[str, OpenBoard]:
        """*table*'s open boards: player id to that person's newest board (kept live)."""
        return self.open.setdefault(table.id, {})

    def board(self, table: Table, player: str, note: str = "",
              selection: str | None = None) -> tuple[str, discord.ui.LayoutView]:
        """The private board of *player* (text and layout), with an optional *note* on top."""
        face = self.face(table, player, note, selection)
        return face.text, self.view(table, face)

    def face(self, table: Table, player: str, note: str = "", selection: str | None = None) -> Face:
        """What *player*'s private board shows now (its text and items), before any Discord view is built."""
        ui = self.registry.uis[table.kind]
        assert table.engine is not None
        notes = table.notes_for(player, now_ms())
        board = ui.board(table, player, selection)
        if table.engine.is_over:  # the board as the game left it (the last battle, the last hand), no buttons
            return Face(fit_text("\n".join(x for x in [note, board.text, "🏁 The game is over."] if x)), (), True)
        coach = self.registry.coaches.get(table.kind) if is_practice(table) else None
        lesson = coach_lines(coach, table, player) if coach is not None else []  # /learn: docs/tables.md
        text = "\n".join(x for x in [note, *notes, board.text, *lesson] if x)
        if len(text) > CONTENT_MAX and ui.cards(table).uses_emojis:  # too long with emojis: cards as text
            with self.registry.faces.plain():
                board = ui.board(table, player, selection)
            text = "\n".join(x for x in [note, *notes, board.text, *lesson] if x)
        text = fit_text(text)
        items = tuple(board.buttons)
        return Face(text, items, all(ui.token_is_stable(token) for token in _tokens(items)))

    @staticmethod
    def view(table: Table, face: Face) -> discord.ui.LayoutView:
        """The Components V2 layout of a board *face* (its text under the header "game — table #N ·
        your board", its buttons grouped), the custom ids carrying the table's current version.
        """
        header = f"**{table.title}** — table #{table.id} · your board"
        return board_view(table.id, table.version, face.items, text=face.text, accent=accent_of(table.kind),
                          header=header)


    def remember(self, table: Table, reply: Reply, interaction: discord.Interaction,
               selection: str | None = None, note: str = "") -> None:
        """Keep *interaction* as the token that edits *reply*'s board, so it is refreshed as the table changes.

        Only a player's newest board follows the table. A board it replaces on another message that
        still shows a timed private note (a peek) is kept aside and edited once more when the note's
        time is up, so no message keeps showing the face (``docs/tables.md``, "Live boards").
        """
        if not self.live or table.status != TableStatus.RUNNING:
            return
        now = now_ms()
        # The notes the board shows are those of when it was drawn: a peek that ran out while the
        # answer was on its way is still on the message, so it must still be hidden.
        drawn = reply.drawn_ms or now
        if reply.followup_of is not None and reply.sent is not None:  # only to hide a peek on it
            shown = OpenBoard(_FollowUp(reply.sent), now, reply.version,
                           notes=tuple(table.notes_for(reply.followup_of, drawn)))
            if self.shows_timed_note(table, reply.followup_of, shown):
                self.fading.setdefault(table.id, []).append((reply.followup_of, shown))
                table.boards_dirty.set()
            return
        if reply.board_of is None:
            return
        player = reply.board_of
        message_id = _board_message_id(interaction, reply)
        # A board this interaction sent is a message of its own webhook, edited by id through its
        # token like any follow-up. A board a click updated was sent through an older token, so
        # it is edited as this interaction's original response, which needs the interaction.
        handle: BoardHandle = interaction
        if reply.kind == "send" and message_id is not None:
            handle = _Token(interaction, message_id)
        board = OpenBoard(handle, now, reply.version, selection, note, now,
                       notes=tuple(table.notes_for(player, drawn)), face=reply.face.key if reply.face else None,
                       message_id=message_id)
        old = self.of(table).get(player)
        if (old is not None and _token_of(old) != interaction.token and self.shows_timed_note(table, player, old)
                and not (old.message_id is not None
                         and old.message_id == board.message_id)):
            self.fading.setdefault(table.id, []).append((player, old))
            table.boards_dirty.set()
        self.of(table)[player] = board
        if board.notes != tuple(table.notes_for(player, now)):  # a note ran out since: redraw it now
            table.boards_dirty.set()

    @staticmethod
    def shows_timed_note(table: Table, player: str, board: OpenBoard) -> bool:
        """Whether *board* shows a private note that is to be hidden again (a peek), expired or not."""
        lasting = {n.text for n in table.private_notes.get(player, []) if n.until_ms is None}
        return any(text not in lasting for text in board.notes)


    async def loop(self, table: Table) -> None:
        """Refresh every open private board of *table* as it changes (``docs/tables.md``, "Live boards").

        Coalesced: one pass per ``board_refresh_ms`` at most, latest state wins; a board is edited
        only when the table moved on since it was drawn. Each board is edited through its owner's
        latest interaction token; near the token's end (15 minutes) the board says so, and after
        it the board is forgotten (any click on it, or **Open my board**, gives a fresh one).
        Interaction webhooks are outside Discord's global rate limit.
        """
        try:
            interval = self.registry.config.board_refresh_ms / 1000
            last = 0.0
            while True:
                timeout = self.token_s / 30
                if (expiry := table.next_note_expiry(now_ms())) is not None:  # a peek to hide again
                    timeout = min(timeout, (expiry - now_ms()) / 1000 + 0.01)
                if self._notes_changed_since_drawn(table):  # e.g. a peek ran out while the last pass was drawing
                    table.boards_dirty.set()
                await wait_event(table.boards_dirty, max(0.02, timeout))
                if not self.of(table) and not self.fading.get(table.id):  # no board open: nothing to refresh
                    table.boards_dirty.clear()
                    if table.status != TableStatus.RUNNING or self.registry.closing:
                        return
                    continue
                # A click's own answer goes out before the boards it changed (FOLLOW_S).
                await asyncio.sleep(max(last + interval - time.monotonic(), FOLLOW_S))
                table.boards_dirty.clear()
                last = time.monotonic()
                if self.registry.closing:
                    return
                await asyncio.gather(*(self.refresh_board(table, player, board)
                                       for player, board in list(self.of(table).items())),
                                     self._refresh_fading(table))
                if table.status != TableStatus.RUNNING:
                    return
        finally:  # the table ended (or its tasks were stopped): its boards are let go
            self.open.pop(table.id, None)
            self.fading.pop(table.id, None)

    def _notes_changed_since_drawn(self, table: Table) -> bool:
        """Whether an open or replaced board of *table* shows other private notes than its player has
        now: a note that ran out after the board was drawn (its expiry is past, so no timer wakes
        the loop for it) still has to be hidden at once (``docs/tables.md``, "Live boards").
        """
        now = now_ms()
        boards = [*self.of(table).items(), *self.fading.get(table.id, [])]
        return any(board.notes != tuple(table.notes_for(player, now)) for player, board in boards)

    async def _refresh_fading(self, table: Table) -> None:
        """Edit each replaced board that still shows a timed note; forget it once it shows none."""
        fading = list(self.fading.get(table.id, []))
        if not fading:
            return
        done = await asyncio.gather(*(self.refresh_board(table, player, board) for player, board in fading))
        kept = [(player, board) for (player, board), ok in zip(fading, done, strict=True)
                if ok and self.shows_timed_note(table, player, board)]
        current = self.fading.get(table.id, [])
        kept += current[len(fading):]  # replaced while these were being edited
        if kept:
            self.fading[table.id] = kept
        else:
            self.fading.pop(table.id, None)

    async def refresh_board(self, table: Table, player: str, board: OpenBoard) -> bool:
        """Edit one open board to the table's current state (or tell its owner it stops updating).

        Returns whether the board can still be edited.
        """
        age_s = (now_ms() - board.opened_ms) / 1000
        expiring, last = age_s >= self.token_s * 0.8, age_s >= self.token_s * 0.93
        notes = tuple(table.notes_for(player, now_ms()))
        if (board.version == table.version and notes == board.notes and not last
                and (board.warned or not expiring)):
            return True
        seat = table.seat_of_player(player)
        if seat is None or seat.is_bot or table.engine is None:
            if self.of(table).get(player) is board:
                self.of(table).pop(player, None)
            return False
        note = board.note if now_ms() - board.note_ms < BOARD_NOTE_S * 1000 else ""
        if last:
            note = ("⌛ This board no longer updates by itself: press **Open my board** (or `/table board`) "
                    "for one that does.")
        elif expiring:
            note = "\n".join(x for x in [note, "⌛ This board stops updating in a few minutes: press **Open my "
                                             "board** for a fresh one."] if x)
        version = table.version
        face = self.face(table, player, note, board.selection)
        key = face.key
        if key is not None and key == board.face:  # the table moved on, but not on this board: nothing to send
            board.version, board.warned, board.notes = version, expiring, notes
            return True
        try:
            await board.interaction.edit_original_response(content=None, view=self.view(table, face))
        except discord.HTTPException as exc:  # dismissed (10008) or the token ran out (50027): forget it
            log.info("table %s: the board of %s can no longer be edited (%s)", table.id, player, exc.code)
            if self.of(table).get(player) is board:
                self.of(table).pop(player, None)
            return False
        board.version, board.warned, board.notes, board.face = version, expiring, notes, key
        if last and self.of(table).get(player) is board:
            self.of(table).pop(player, None)
        if board.version != table.version:
            table.boards_dirty.set()
        return True

