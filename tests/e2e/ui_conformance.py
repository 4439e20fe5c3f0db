"""UI conformance of a game's table: the reusable driver and checks (tests/e2e/test_ui_conformance.py runs them).

Three layers, each usable alone:

* **Discord's limits** (:func:`message_problems`, :func:`board_problems`): every message a user can
  see, and every board a :class:`~bot.tables.ui.GameUI` draws *before* the table renders it (the
  rendering cuts silently; the issue wants it loud).
* **Reachability** (:func:`reachability_problems`): a pure walk over a player's board, through
  ``GameUI.board`` / ``GameUI.on_board_click`` on the live :class:`~bot.tables.table.Table`, without
  submitting anything: a click with a ``selection`` leads to another board, a click with an
  ``action`` is an action reached. Every legal action of the player that is not a table action must
  be reached (from the board or from a public button); table actions must be reached from the
  public buttons by the host.
* **The driver** (:class:`TableDriver`): through the loopback Discord, with the production bot,
  opens a table with ``/<kind> new``, seats people and a bot, starts, and plays random *enabled*
  buttons and select options on each person's ephemeral board and on the public table message
  until the game ends. After every click it checks that the click was answered, that the loopback
  recorded no error, every visible message's limits, hidden information in custom ids, and (once
  per table version and person) reachability.

The driver finds everything by custom ids and component data, never by labels: a *board* is any
ephemeral message of that person with an enabled component; the *public message* is the table's
``message_id``; lobby controls are ``parlor:<verb>:<table>`` (docs/tables.md, "Custom ids").
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from bot.art.emojis import card_key, key_of_name
from bot.engine.cards import BlitzCard, Card
from bot.tables.core import Actor
from bot.tables.moves import decide
from bot.tables.race import Outcome
from bot.tables.table import Table, TableError
from bot.tables.ui import GameUI
from sandbox import FakeChannel, FakeDiscord, FakeMessage, FakeUser

__all__ = ["LIMITS", "FIT_MARKER", "mention_problems", "fake_message_problems", "public_text_unfitted",
           "ActionKey", "Reach", "TableDriver", "RunStats", "action_key", "board_items", "board_problems",
           "board_tokens",
           "component_count", "explore_board", "message_problems", "public_reach", "reachability_problems",
           "card_ids", "all_card_ids", "engine_cards", "HiddenCards", "ConformanceFailure", "SKIPPED_PUBLIC_VERBS",
           "host_player"]

Action = dict[str, Any]
ActionKey = Callable[[Action], Any]

# Discord's own numbers (https://discord.com/developers/docs), written here on purpose rather than
# imported from the loopback: a bug there must not hide a breach here.
LIMITS = {
    "content": 2000,
    "rows": 5,
    "row_buttons": 5,
    "label": 80,
    "custom_id": 100,
    "select_options": 25,
    "select_text": 100,  # option label, value, description
    "placeholder": 150,
    "embeds": 10,
    "embed_total": 6000,
    "embed_description": 4096,
    "embed_title": 256,
    "v2_components": 40,  # Components V2: every component, nested ones counted
    "v2_text": 4000,  # Components V2: the characters of every TextDisplay together
}

V2_FLAG = 1 << 15
"""IS_COMPONENTS_V2: the message is a layout (no content, no embeds)."""


def _tree(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a (Components V2) tree, depth first, a section's accessory included."""
    out: list[dict[str, Any]] = []
    for c in components or []:
        out.append(c)
        out += _tree(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            out += _tree([c["accessory"]])
    return out

TOKEN_RE = re.compile(r"[A-Za-z0-9:._-]{1,60}")
"""What a board or public token may look like (``bot.tables.ui.TOKEN_PATTERN``; ≤ 60 characters)."""


# ---------------------------------------------------------------------------------------------- limits


def message_problems(content: str | None, components: list[dict[str, Any]] | None,
                     embeds: list[dict[str, Any]] | None = None, *, where: str = "", v2: bool = False) -> list[str]:
    """Breaches of Discord's message limits in one message (its JSON as sent or as rendered).

    With *v2* (the IS_COMPONENTS_V2 flag) the message is a layout: no content or embeds, at most 40
    components counting nested ones, 4,000 characters of TextDisplay text, and each action row
    anywhere in the tree checked as a classic one (5 buttons or a select alone).
    """
    out: list[str] = []
    at = f"{where}: " if where else ""
    if v2:
        every = _tree(components or [])
        if content or embeds:
            out.append(f"{at}a V2 layout with content or embeds")
        if len(every) > LIMITS["v2_components"]:
            out.append(f"{at}{len(every)} components in all (> {LIMITS['v2_components']})")
        text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
        if text > LIMITS["v2_text"]:
            out.append(f"{at}{text} characters of text displays (> {LIMITS['v2_text']})")
        rows = [c for c in every if c.get("type") == 1]
        rows += [{"type": 1, "components": [c["accessory"]]} for c in every
                 if c.get("type") == 9 and (c.get("accessory") or {}).get("type") == 2]
    else:
        if content and len(content) > LIMITS["content"]:
            out.append(f"{at}content is {len(content)} characters (> {LIMITS['content']})")
        rows = components or []
        if len(rows) > LIMITS["rows"]:
            out.append(f"{at}{len(rows)} action rows (> {LIMITS['rows']})")
    ids: list[str] = []
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            out.append(f"{at}a {row.get('type')} component where only action rows may be (no V2 flag)")
            continue
        children = row.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if len(buttons) > LIMITS["row_buttons"]:
            out.append(f"{at}row {r} has {len(buttons)} buttons (> {LIMITS['row_buttons']})")
        if selects and len(children) > 1:
            out.append(f"{at}row {r}: a select menu must be alone in its row, it has {len(children)} components")
        for c in children:
            cid = c.get("custom_id")
            if cid is not None:
                ids.append(cid)
                if len(cid) > LIMITS["custom_id"]:
                    out.append(f"{at}custom id of {len(cid)} characters (> {LIMITS['custom_id']}): {cid!r}")
            label = c.get("label") or ""
            if len(label) > LIMITS["label"]:
                out.append(f"{at}label of {len(label)} characters (> {LIMITS['label']}): {label!r}")
            if c.get("type") == 2 and not label and not c.get("emoji"):
                out.append(f"{at}a button with neither label nor emoji ({cid!r})")
            if c.get("type") == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= LIMITS["select_options"]:
                    out.append(f"{at}select {cid!r} has {len(options)} options (1..{LIMITS['select_options']})")
                for o in options:
                    for key in ("label", "value", "description"):
                        if len(o.get(key) or "") > LIMITS["select_text"]:
                            out.append(f"{at}select {cid!r}: option {key} over {LIMITS['select_text']}: {o.get(key)!r}")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    out.append(f"{at}select {cid!r} repeats option values")
                low, high = int(c.get("min_values", 1)), int(c.get("max_values", 1))
                if not 0 <= low <= high <= max(1, len(options)):
                    out.append(f"{at}select {cid!r}: min/max values {low}/{high} with {len(options)} options")
            if len(c.get("placeholder") or "") > LIMITS["placeholder"]:
                out.append(f"{at}placeholder over {LIMITS['placeholder']} characters in {cid!r}")
    if len(set(ids)) != len(ids):
        out.append(f"{at}custom ids repeat: {sorted(i for i in set(ids) if ids.count(i) > 1)}")
    embeds = embeds or []
    if len(embeds) > LIMITS["embeds"]:
        out.append(f"{at}{len(embeds)} embeds (> {LIMITS['embeds']})")
    total = 0
    for e in embeds:
        title, desc = e.get("title") or "", e.get("description") or ""
        total += len(title) + len(desc) + sum(len(f.get("name", "")) + len(f.get("value", ""))
                                              for f in e.get("fields") or [])
        if len(title) > LIMITS["embed_title"] or len(desc) > LIMITS["embed_description"]:
            out.append(f"{at}an embed's title or description is over Discord's limit")
    if total > LIMITS["embed_total"]:
        out.append(f"{at}embeds hold {total} characters (> {LIMITS['embed_total']})")
    return out


FIT_MARKER = re.compile(r"… \d+ lines? left out …")
"""What ``bot.tables.text.fit_text`` writes where it shortened a text: a message carrying it was cut."""


def fake_message_problems(msg: FakeMessage, *, user_pings: Iterable[int] = ()) -> list[str]:
    """:func:`message_problems` of a message the loopback stores, plus :func:`mention_problems` (it may
    have pinged *user_pings*) and a text the service had to shorten (:data:`FIT_MARKER`)."""
    who = f"ephemeral for {msg.visible_to}" if msg.ephemeral else "public"
    where = f"message {msg.id} ({who})"
    v2 = bool(msg.flags & V2_FLAG)
    out = message_problems(msg.content if v2 else msg.text, msg.components, msg.embeds, where=where, v2=v2)
    if FIT_MARKER.search(msg.text or ""):
        out.append(f"{where}: its text was shortened to fit 2,000 characters (lines left out)")
    return out + mention_problems(msg, where=where, user_pings=user_pings)


def public_text_unfitted(ui: GameUI, table: Table) -> str:
    """The public table text as the game writes it, before the service fits it into 2,000 characters.

    The same parts as ``TableRegistry.public_text`` (``bot/tables/registry.py``): the notice line, the
    game's public text and, once the game is over, its result text.
    """
    text = ui.public_text(table)
    if table.engine is not None and table.engine.is_over:
        text = f"{text}\n\n{ui.result_text(table)}"
    return f"{table.notice}\n{text}" if table.notice else text


def mention_problems(msg: FakeMessage, *, where: str = "", user_pings: Iterable[int] = ()) -> list[str]:
    """Ways a bot message could ping people by accident (issue 11, item 9).

    Every request that created the message or set its text must carry ``allowed_mentions``
    (without it Discord pings every mention in the text, a player named ``@everyone`` included),
    and none may allow ``@everyone``/``@here`` or role pings. Creating the message may have pinged
    only the users in *user_pings* (a notice that means to ping a player; empty for a table
    message). Ephemeral messages ping nobody and are skipped.
    """
    if msg.ephemeral:
        return []
    at = f"{where}: " if where else f"message {msg.id}: "
    out: list[str] = []
    for allowed in msg.allowed_mentions_sent:
        if allowed is None:
            out.append(f"{at}sent without allowed_mentions (Discord would ping every mention in it)")
            continue
        wide = sorted(set(allowed.get("parse") or []) & {"everyone", "roles"})
        if wide or allowed.get("roles"):
            out.append(f"{at}allowed_mentions {allowed} allows {wide or 'roles'} pings")
    wanted = {f"user:{u}" for u in user_pings}
    stray = sorted(set(msg.pings) - wanted)
    if stray:
        out.append(f"{at}pinged {stray} when it was posted: {msg.text[:120]!r}")
    return out


def component_count(view: Any) -> int:
    """How many interactive components (buttons, selects) a rendered ``discord.ui.View`` or
    ``LayoutView`` holds, nested ones included (``None``: 0).
    """
    if view is None:
        return 0
    return sum(1 for c in _tree(view.to_components()) if c.get("type") in (2, 3, 5, 6, 7, 8))


def _options(item: Any) -> list[Any]:
    """The options of a select-menu item of a board (anything with ``options``), else ``[]``."""
    return list(getattr(item, "options", None) or [])


def _option_token(option: Any) -> str:
    if isinstance(option, tuple | list):
        return str(option[-1])
    return str(getattr(option, "token", None) or getattr(option, "value", ""))


def board_items(board: Any) -> list[Any]:
    """A board's components: ``board.buttons`` (buttons and select menus), and ``board.selects`` if it has them."""
    return list(board.buttons) + list(getattr(board, "selects", None) or [])


def board_tokens(board: Any) -> list[str]:
    """The tokens a person can click on a :class:`~bot.tables.ui.Board`: enabled buttons and every select option.

    Items with ``options`` are select menus (``BoardSelect``: each option's ``token`` is what
    picking it means); read duck-typed, so this keeps working as the picker changes shape.
    """
    tokens: list[str] = []
    for item in board_items(board):
        if getattr(item, "disabled", False):
            continue
        if hasattr(item, "options"):
            tokens += [t for t in map(_option_token, _options(item)) if t]
        else:
            tokens.append(item.token)
    return tokens


def board_problems(board: Any, where: str) -> list[str]:
    """What a board would break *before* the table renders it.

    At most 25 components (a select menu is as wide as a row), at most 5 wide in any explicit
    row, rows 0–4, labels 1–80 characters, 1–25 options a menu, tokens matching
    ``TOKEN_PATTERN``, no token twice, and a text within Discord's 2,000 characters *as the game
    wrote it*: the service's ``fit_text`` would leave lines out to make a longer text fit, which
    is a last resort, not a way to render a board (issue 11, item 2: never silently cut). (``Board``
    refuses most of the component problems itself with a ``LimitError``; this check also covers
    any board-like object.)
    """
    out: list[str] = []
    text = str(getattr(board, "text", "") or "")
    if len(text) > LIMITS["content"]:
        out.append(f"{where}: text of {len(text)} characters before fitting (> {LIMITS['content']}): the table "
                   "would shorten it")
    items = board_items(board)
    widths = [LIMITS["row_buttons"] if hasattr(item, "options") else 1 for item in items]
    if sum(widths) > LIMITS["rows"] * LIMITS["row_buttons"]:
        out.append(f"{where}: {len(items)} components of total width {sum(widths)} (> 25: they cannot all be shown)")
    rows: dict[int, int] = {}
    tokens: list[str] = []
    for item, width in zip(items, widths, strict=True):
        row = getattr(item, "row", None)
        if row is not None:
            if not 0 <= row < LIMITS["rows"]:
                out.append(f"{where}: a component in row {row} (rows are 0-4)")
            rows[row] = rows.get(row, 0) + width
        if hasattr(item, "options"):
            options = _options(item)
            if not 1 <= len(options) <= LIMITS["select_options"]:
                out.append(f"{where}: a select menu with {len(options)} options (1..25)")
            labels = [str(getattr(o, "label", "")) for o in options]
            out += [f"{where}: option label of {len(x)} characters (1..100): {x!r}" for x in labels
                    if not 1 <= len(x) <= LIMITS["select_text"]]
            item_tokens = [_option_token(o) for o in options]
            if len(set(item_tokens)) != len(item_tokens):
                out.append(f"{where}: a select menu repeats a value")
        else:
            item_tokens = [item.token]
            label = str(item.label)
            if not 1 <= len(label) <= LIMITS["label"]:
                out.append(f"{where}: label of {len(label)} characters (1..80): {label!r}")
            tokens.append(item.token)
        for token in item_tokens:
            if not TOKEN_RE.fullmatch(token):
                out.append(f"{where}: token {token!r} does not match TOKEN_PATTERN (≤ 60 of [A-Za-z0-9:._-])")
    for row, width in rows.items():
        if width > LIMITS["row_buttons"]:
            out.append(f"{where}: row {row} would be {width} wide (> 5)")
    if len(set(tokens)) != len(tokens):
        out.append(f"{where}: a token appears twice: {sorted(t for t in set(tokens) if tokens.count(t) > 1)}")
    return out


# ---------------------------------------------------------------------------------------------- reachability


def action_key(action: Action) -> str:
    """The default identity of an action: its canonical JSON."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass
class Reach:
    """What clicking around one player's board (or the public buttons) reaches, without submitting."""

    actions: list[tuple[str, Action]] = field(default_factory=list)
    """``(path, action)``: the clicks that lead there (``"c:wood > p:wood:2"``) and the action."""
    problems: list[str] = field(default_factory=list)
    boards: int = 0


def explore_board(ui: GameUI, table: Table, player: str, *,
                  render: Callable[[str | None, Any], list[str]] | None = None, max_boards: int = 1000) -> Reach:
    """Walk every board *player* can reach by clicks from their fresh board; submit nothing.

    *render* (optional) is called with ``(selection, board)`` for each board and returns problems
    of the rendered message (see :meth:`TableDriver.render_problems`).
    """
    reach = Reach()
    assert table.engine is not None
    legal = [action_key(a) for a in table.engine.legal_actions(player)]
    todo: list[tuple[str | None, str]] = [(None, "")]
    seen: set[str | None] = set()
    while todo:
        selection, path = todo.pop()
        if selection in seen:
            continue
        seen.add(selection)
        reach.boards += 1
        if reach.boards > max_boards:
            reach.problems.append(f"{player}: more than {max_boards} boards reachable by clicks; is a selection "
                                  "token growing without end?")
            break
        where = f"board of {player} (selection {selection!r})"
        try:
            board = ui.board(table, player, selection)
        except Exception as exc:  # a board that cannot be drawn is a failure of the UI
            reach.problems.append(f"{where}: board() raised {exc!r}")
            continue
        reach.problems += board_problems(board, where)
        if render is not None:
            reach.problems += render(selection, board)
        for token in board_tokens(board):
            step = f"{path} > {token}" if path else token
            try:
                click = ui.on_board_click(table, player, token)
            except TableError as exc:
                reach.problems.append(f"{where}: enabled button {token!r} is refused at the very version it was "
                                      f"drawn: {exc} (disable or drop it instead)")
                continue
            except Exception as exc:
                reach.problems.append(f"{where}: on_board_click({token!r}) raised {exc!r}")
                continue
            if click.action is not None:
                reach.actions.append((step, click.action))
                if action_key(click.action) not in legal and str(click.action.get("type")) not in \
                        table.engine.table_actions:
                    reach.problems.append(f"{where}: {step} submits {click.action}, which is not legal now "
                                          "(an enabled button the engine would refuse)")
            elif click.selection is not None and click.selection not in seen:
                todo.append((click.selection, step))
    return reach


def public_reach(ui: GameUI, table: Table, player: str, *, is_host: bool) -> Reach:
    """The actions the game's public buttons give *player* (``is_host``: as the host) now."""
    reach = Reach(boards=1)
    for button in ui.public_buttons(table):
        if button.disabled:
            continue
        if not TOKEN_RE.fullmatch(button.token) or not 1 <= len(button.label) <= LIMITS["label"]:
            reach.problems.append(f"public button {button.token!r} ({button.label!r}): bad token or label length")
        try:
            action = ui.on_public_click(table, player, button.token, is_host=is_host)
        except TableError:
            continue  # refused with a reason (not the host, too early): answered, reaches nothing
        reach.actions.append((f"public {button.token}", action))
    return reach


def host_player(table: Table) -> str:
    """The engine player the service acts for when the host presses a public button."""
    seat = table.seat_of_user(table.host_id)
    return seat.player_id if seat is not None and not seat.is_bot else table.seats[0].player_id


def reachability_problems(ui: GameUI, table: Table, player: str, *, key: ActionKey = action_key,
                          render: Callable[[str | None, Any], list[str]] | None = None,
                          reached_keys: set[Any] | None = None,
                          excuse: Callable[[Table, str, Action], bool] | None = None,
                          excused: list[Action] | None = None, reaches: list[Reach] | None = None) -> list[str]:
    """Problems with reaching *player*'s legal actions by clicks at the table's current state.

    Every legal action that is not a table action must be reached from *player*'s board or the
    public buttons; every legal table action must be reached from the public buttons by the host.
    A table action a non-host reaches (a UI may offer its button to everyone) must be refused to
    them by the table's one decision (``bot.tables.moves.decide``), never taken. Actions are
    compared through *key*, so a UI may merge actions *key* calls equivalent. *reached_keys*, if
    given, collects the keys of every action reached (for statistics). *excuse* (a known gap of a
    game's UI, see ``KNOWN_GAPS`` in the test) lets an unreachable action pass; those go to *excused*.
    The board's :class:`Reach` is appended to *reaches*, if given.
    """
    engine = table.engine
    assert engine is not None
    is_host = player == host_player(table)
    board = explore_board(ui, table, player, render=render)
    if reaches is not None:
        reaches.append(board)
    public = public_reach(ui, table, player, is_host=is_host)
    host = public_reach(ui, table, host_player(table), is_host=True)
    problems = board.problems + public.problems
    table_types = engine.table_actions
    mine = {key(a) for _, a in board.actions + public.actions}
    hosts = {key(a) for _, a in host.actions if a.get("type") in table_types}
    if reached_keys is not None:
        reached_keys |= mine | hosts
    if not is_host:
        seat = table.seat_of_player(player)
        person = Actor(seat.user_id if seat is not None and seat.user_id is not None else -1, player)
        for path, action in board.actions + public.actions:
            if action.get("type") in table_types and not isinstance(decide(table, person, action), Outcome):
                problems.append(f"{player} is not the host but {path} lets them take the table action {action}")
    for action in engine.legal_actions(player):
        if action.get("type") in table_types:
            if key(action) not in hosts:
                problems.append(f"table action {action} (legal for {player}) is not reachable by the host from the "
                                "public buttons")
        elif key(action) not in mine:
            if excuse is not None and excuse(table, player, action):
                if excused is not None:
                    excused.append(action)
                continue
            problems.append(f"legal action {action} of {player} is not reachable by clicks (board: "
                            f"{sorted({p for p, _ in board.actions})[:12]}; public: {[p for p, _ in public.actions]})")
    return problems


# ---------------------------------------------------------------------------------------------- hidden cards


def card_ids(view: Any) -> set[str]:
    """Every card id in an engine view: the ``id`` of each dict that looks like a card (has an ``id``
    and a colour/value or rank/suit)."""
    out: set[str] = set()
    stack = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            looks_like_card = {"colour", "value"} <= node.keys() or {"rank", "suit"} <= node.keys() or "face" in node
            if isinstance(node.get("id"), str) and looks_like_card:
                out.add(node["id"])
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
    return out


EMOJI_MARKUP = re.compile(r"<a?:([A-Za-z0-9_]{2,32}):\d+>")
"""A custom emoji in a message's text; group 1 is its name."""

_LABEL_FACES = {Card(rank, suit).label: f"standard:{Card(rank, suit).id}" for rank in range(1, 14) for suit in "SHDC"}


def emoji_names(msg: FakeMessage) -> list[str]:
    """The names of the custom emojis in *msg*'s text and on its buttons."""
    return EMOJI_MARKUP.findall(msg.text or "") + [b.emoji for b in msg.buttons if b.emoji]


def card_faces(view: Any) -> set[str]:
    """The face of every card an engine view shows (``docs/art.md`` §4 keys): its card dicts, and the
    standard cards it names by label in its strings (Blitzkrieg's battles)."""
    out = set()
    for card in card_ids(view):
        try:
            out.add(card_key(card))
        except ValueError:
            continue
    stack = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
        elif isinstance(node, str) and node in _LABEL_FACES:
            out.add(_LABEL_FACES[node])
    return out


def engine_cards(engine: Any) -> dict[str, str]:
    """Every card object in the engine's state (``bot.engine.cards``' ``Card`` and ``BlitzCard``): id → label."""
    card_types = (Card, BlitzCard)
    out: dict[str, str] = {}
    seen: set[int] = set()
    stack: list[Any] = [engine]
    while stack:
        node = stack.pop()
        if isinstance(node, card_types):
            out[node.id] = node.label
            continue
        if id(node) in seen or isinstance(node, str | bytes | int | float | bool | random.Random) or node is None:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list | tuple | set | frozenset):
            stack.extend(node)
        elif node is engine or type(node).__module__.startswith("bot."):
            stack.extend(v for k, v in getattr(node, "__dict__", {}).items() if k not in ("_actions", "setup_events"))
            for slot in getattr(type(node), "__slots__", ()):
                stack.append(getattr(node, slot, None))
    return out


def all_card_ids(engine: Any) -> set[str]:
    """The id of every card object in the engine's state (:func:`engine_cards`)."""
    return set(engine_cards(engine))


@dataclass
class HiddenCards:
    """Which cards each viewer has ever seen; every other card of the game is hidden from them.

    A custom id on a message a viewer can see must not name a card hidden from them. "Ever seen"
    (sampled at every step, from ``engine.view``) rather than "sees now": a board drawn a moment
    ago may rightly show a card that has since been covered. A card shown to the viewer only
    between two samples could give a false alarm; no game's custom ids name cards at all.
    """

    seen: dict[str, set[str]] = field(default_factory=dict)
    cards: set[str] = field(default_factory=set)
    faces: dict[str, set[str]] = field(default_factory=dict)
    """Viewer to the card faces (``docs/art.md`` §4 keys: ``standard:QH``) they have ever been shown."""
    told: set[str] = field(default_factory=set)
    """The card faces public events told everyone (a showdown's hands, a battle's cards)."""
    emojis_checked: int = 0
    """How many card emojis the checks have looked at (a test with emojis synced asserts some)."""

    def observe(self, engine: Any) -> None:
        """Sample every seat's view, the public view and the whole deck."""
        self.cards |= all_card_ids(engine)
        try:  # an engine that keeps its cards as ids (Blitz (31)) names its hidden ones itself
            self.cards |= set(engine.hidden_cards(None))
        except NotImplementedError:
            pass
        public_view = engine.view(None)
        public = card_ids(public_view)
        self.seen.setdefault("None", set()).update(public)
        public_faces = card_faces(public_view)
        self.faces.setdefault("None", set()).update(public_faces)
        for viewer in engine.players:
            view = engine.view(viewer)
            self.seen.setdefault(str(viewer), set()).update(card_ids(view) | public)
            self.faces.setdefault(str(viewer), set()).update(card_faces(view) | public_faces)

    def told_everyone(self, events: Iterable[Any]) -> None:
        """Public *events* (``Table.public_events``) showed their cards to everyone."""
        for event in events:
            self.told |= card_faces(event.data)

    def shown(self, viewer: str, data: Any) -> None:
        """*viewer* was shown the cards in *data* (a private event's, e.g. Dutch's look)."""
        self.seen.setdefault(str(viewer), set()).update(card_ids(data))
        self.faces.setdefault(str(viewer), set()).update(card_faces(data))

    def emoji_problems(self, viewer: str | None, msg: FakeMessage, where: str) -> list[str]:
        """Card emojis (in *msg*'s text or on its buttons) that show a face *viewer* has never been shown."""
        return self.emoji_name_problems(viewer, emoji_names(msg), where)

    def emoji_name_problems(self, viewer: str | None, names: Iterable[str], where: str) -> list[str]:
        """Those emoji *names* (on a message *viewer* sees) that show a face *viewer* has never been shown.

        A face-down card must be its back's emoji (``docs/art.md`` §4): a back is always allowed; a
        face is allowed when the viewer was shown a card of that face (a second copy looks the same).
        """
        names = list(names)
        self.emojis_checked += len(names)
        shown = self.faces.get(str(viewer), set()) | self.told
        out = []
        for name in names:
            key = key_of_name(name)
            if key is None or key.partition(":")[2].startswith("back"):
                continue
            if key not in shown:
                out.append(f"{where}: emoji {name} shows the face {key}, which {viewer or 'a spectator'} "
                           "has never been shown")
        return out

    def problems(self, viewer: str | None, custom_ids: Iterable[str], where: str) -> list[str]:
        """Custom ids (on messages *viewer* sees) that name a card hidden from *viewer*."""
        hidden = self.cards - self.seen.get(str(viewer), set())
        out = []
        for cid in custom_ids:
            named = sorted(set(re.split(r"[:._-]", cid)) & hidden)
            if named:
                out.append(f"{where}: custom id {cid!r} names card(s) {named} that {viewer or 'a spectator'} "
                           "has not seen")
        return out


# ---------------------------------------------------------------------------------------------- the driver


@dataclass
class RunStats:
    """What one driven game did (for the report and for asserting it did enough)."""

    kind: str
    seed: int
    table_seed: int = 0
    table_id: int = 0
    people: int = 0
    clicks: int = 0
    board_clicks: int = 0
    public_clicks: int = 0
    selects: int = 0
    boards_opened: int = 0
    states_checked: int = 0
    boards_explored: int = 0
    messages_checked: int = 0
    actions_played: int = 0
    actions_reached: set[Any] = field(default_factory=set)
    excused: int = 0
    steps: int = 0
    idle_steps: int = 0
    seconds: float = 0.0
    over: bool = False

    def summary(self) -> str:
        """One line for the test output."""
        fields = dataclasses.asdict(self)
        fields["actions_reached"] = len(self.actions_reached)
        return " ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in fields.items())


SKIPPED_PUBLIC_VERBS = ("leave", "rematch")
"""Public table buttons the random player never presses: **Leave game** hands the seat to a bot (the
game would end with nobody left), **Rematch** starts another game. Both are covered by their own
e2e tests."""


PLAY_STEPS = 5000
"""Steps a driven game may take before it fails as never ending: about three and a half times the
longest game the drivers played here (1,418 steps, Dutch Blitz; most end within a few hundred). A
budget in steps, never in seconds: a loaded machine plays the same steps more slowly (a Dutch game of
725 steps took 15 s here, and one on a loaded machine went past the 60 s it was given). The bots move
in real time between steps, so how many steps a game takes still varies with the machine's speed:
hence the wide margin."""


class ConformanceFailure(AssertionError):
    """A conformance check failed; the message names the kind, the seed and the table's seed."""


class TableDriver:
    """Plays one table of *kind* through the loopback Discord by random enabled clicks.

    Parameters
    ----------
    fake, bot:
        The loopback Discord and the production bot connected to it.
    channel:
        Where ``/<kind> new`` is run (the table opens in a new thread of it).
    people:
        The users who sit down; the first opens the table and hosts.
    spectator:
        A user who never sits; they see the public view, and now and then press a public button.
    options:
        Slash-command options of ``/<kind> new`` that make a game short.
    seed:
        Seeds the driver's own :class:`random.Random` (the game's deal comes from the bot).
    key:
        The action equivalence of this game (:func:`action_key` by default).
    bots:
        How many bots the host adds.
    excuse:
        A game's known UI gap (see :func:`reachability_problems`).
    reachability:
        Whether to check, once per table version and person, that every legal action is reachable
        by clicks (``False`` for tests about messages only: with eight seats a Queen's swap has
        hundreds of boards).
    """

    def __init__(self, fake: FakeDiscord, bot: Any, channel: FakeChannel, people: list[FakeUser],
                 spectator: FakeUser | None, kind: str, options: dict[str, Any], seed: int, *,
                 key: ActionKey = action_key, bots: int = 1,
                 excuse: Callable[[Table, str, Action], bool] | None = None, reachability: bool = True) -> None:
        self.fake, self.bot, self.channel = fake, bot, channel
        self.people, self.spectator, self.kind, self.options = people, spectator, kind, options
        self.rng = random.Random(seed)
        self.key, self.excuse, self.reachability = key, excuse, reachability
        self.excused: list[Action] = []
        self.bots = bots
        self.stats = RunStats(kind, seed, people=len(people))
        self.thread: FakeChannel | None = None
        self.table: Table | None = None
        self.results: list[Any] = []
        self.hidden = HiddenCards()
        self._checked: dict[tuple[int, int], tuple[str, Any, Any]] = {}
        self._explored: set[tuple[int, str]] = set()
        self._table_messages: set[int] = set()
        self._errors_seen = len(fake.errors)
        self._step = "set-up"

    # -------------------------------------------------------------- helpers

    @property
    def ui(self) -> GameUI:
        """The game's registered UI."""
        return self.bot.tables.uis[self.kind]

    def fail(self, what: str) -> NoReturn:
        """Stop with *what*, naming the kind, seeds and step."""
        table = self.table
        extra = ""
        if table is not None and table.engine is not None:
            extra = f", table #{table.id} seed {table.seed}, {table.engine.action_count} actions in"
        raise ConformanceFailure(f"[{self.kind} driver seed {self.stats.seed}{extra}, at {self._step}] {what}")

    def player_of(self, user: FakeUser) -> str | None:
        """The engine player id of *user* at the table (``None``: not seated)."""
        assert self.table is not None
        seat = self.table.seat_of_user(user.id)
        return seat.player_id if seat is not None and not seat.is_bot else None

    async def _answered(self, result: Any, what: str) -> Any:
        self.results.append(result)
        if result.failed or not result.responded:
            self.fail(f"{what} was not answered: {result.errors}")
        self._check_errors(what)
        return result

    def _check_errors(self, what: str) -> None:
        new = self.fake.errors[self._errors_seen:]
        if new:
            self.fail(f"the loopback Discord recorded errors after {what}:\n" + "\n".join(new))

    async def click(self, user: FakeUser, message: FakeMessage | int, custom_id: str, what: str) -> Any:
        """Click a button by custom id and check it was answered."""
        self.stats.clicks += 1
        return await self._answered(await self.fake.click(user, message, custom_id), what)

    def _button(self, message: FakeMessage, verb: str) -> str:
        for b in message.buttons:
            if b.custom_id and b.custom_id.startswith(f"parlor:{verb}:"):
                return b.custom_id
        self.fail(f"no parlor:{verb}: button on message {message.id}: {[b.custom_id for b in message.buttons]}")

    def watch_private_events(self) -> None:
        """Count the cards of every private event the table shows a player (Dutch's look) as shown to them.

        A look is no part of any view (the card stays face down), yet its note rightly shows the
        card's face to its player: the emoji check must know it. The UI's ``private_note`` is wrapped,
        passing every call through unchanged.
        """
        ui = self.ui
        original = ui.private_note

        def noting(table: Table, player: str, event: Any) -> str | None:
            self.hidden.shown(player, event.data)
            return original(table, player, event)

        ui.private_note = noting  # type: ignore[method-assign]

    # -------------------------------------------------------------- set-up

    async def open_and_start(self) -> Table:
        """``/<kind> new`` with the fast options, everyone joins, the host adds bots and starts."""
        host = self.people[0]
        before = {t.id for t in self.fake.threads(self.channel)}
        result = await self.fake.slash(host, self.channel, f"{self.kind} new", options=self.options)
        await self._answered(result, f"/{self.kind} new")
        await self.fake.wait_for(lambda: result.message is not None and not result.message.loading, timeout=5,
                                 what=f"the answer to /{self.kind} new")
        threads = [t for t in self.fake.threads(self.channel) if t.id not in before]
        self.thread = threads[-1] if threads else self.channel
        table = self.bot.tables.table_in(self.thread.id)
        if table is None:
            self.fail(f"/{self.kind} new opened no table: {result.text!r}")
        self.table = table
        self.stats.table_id = table.id
        bump = table.bump

        def observed_bump() -> None:  # every state the table passes through, not only those a check meets:
            if table.engine is not None:  # a message redrawn between two checks shows a state seen here
                self.hidden.observe(table.engine)
            bump()

        table.bump = observed_bump  # type: ignore[method-assign]
        lobby = self.fake.message(table.message_id)
        for user in self.people[1:]:
            await self.click(user, lobby, self._button(lobby, "join"), f"{user.name} joins")
        for _ in range(self.bots):
            await self.click(host, lobby, self._button(self.fake.message(lobby.id), "addbot"), "add bot")
        self.check_messages()
        await self.click(host, lobby, self._button(self.fake.message(lobby.id), "start"), "start")
        if table.engine is None or table.status != "running":
            self.fail(f"the table did not start: status {table.status}")
        self.stats.table_seed = table.seed
        return table

    # -------------------------------------------------------------- the checks run after every step

    def viewers(self) -> list[tuple[FakeUser, str | None]]:
        """Every user the test plays, with the engine player whose view they get (``None``: public)."""
        out = [(u, self.player_of(u)) for u in self.people]
        if self.spectator is not None:
            out.append((self.spectator, None))
        return out

    def check_messages(self, *, full: bool = False) -> None:
        """Discord's limits on every message any of the test's users can see, and hidden cards in custom ids.

        Messages unchanged since their last check are skipped, unless *full*.
        """
        channels = [self.channel] + ([self.thread] if self.thread is not None and self.thread is not self.channel
                                     else [])
        engine = self.table.engine if self.table is not None else None
        if engine is not None:
            self.hidden.observe(engine)
            assert self.table is not None
            self.hidden.told_everyone(e for e in self.table.public_events if e.is_public)
        problems: list[str] = []
        pingable: set[int] = set()
        if self.table is not None:
            if self.table.message_id is not None:
                self._table_messages.add(self.table.message_id)
            pingable = {s.user_id for s in self.table.seats if s.user_id is not None and not s.is_bot}
            if engine is not None:
                text = public_text_unfitted(self.ui, self.table)
                if len(text) > LIMITS["content"]:
                    problems.append(f"the public table text is {len(text)} characters before fitting "
                                    f"(> {LIMITS['content']}): the table would shorten it:\n{text}")
        for user, player in self.viewers():
            for channel in channels:
                for msg in self.fake.messages(channel, visible_to=user):
                    if msg.author.id == user.id:
                        continue
                    mark = (msg.text, msg.components, msg.embeds)
                    old = self._checked.get((user.id, msg.id))
                    changed = old is None or old[0] != mark[0] or old[1] is not mark[1] or old[2] is not mark[2]
                    if changed:
                        self._checked[(user.id, msg.id)] = mark
                        self.stats.messages_checked += 1
                        problems += fake_message_problems(
                            msg, user_pings=() if msg.id in self._table_messages else pingable)
                        if not msg.flags & V2_FLAG and any(
                                (b.custom_id or "").startswith("parlor:") for b in msg.buttons):
                            problems.append(f"message {msg.id}: a table message or board that is not a "
                                            "Components V2 layout")
                    if engine is not None and (changed or full):
                        ids = [b.custom_id for b in msg.buttons if b.custom_id] + [s.custom_id for s in msg.selects]
                        problems += self.hidden.problems(player, ids, f"message {msg.id} seen by {user.name}")
                        problems += self.hidden.emoji_problems(player, msg, f"message {msg.id} seen by {user.name}")
        if problems:
            self.fail("Discord's limits or hidden information broken:\n" + "\n".join(dict.fromkeys(problems)))

    def render_problems(self, player: str) -> Callable[[str | None, Any], list[str]]:
        """For :func:`explore_board`: the service's rendering of each board must keep every button and fit."""

        def check(selection: str | None, board: Any) -> list[str]:
            assert self.table is not None
            text, view = self.bot.tables.board(self.table, player, selection=selection)
            where = f"rendered board of {player} (selection {selection!r})"
            out = message_problems(None, view.to_components(), where=where, v2=True)
            if FIT_MARKER.search(text):
                out.append(f"{where}: the board's text with its notes was shortened to fit 2,000 characters")
            wanted = len(board_items(board))
            if component_count(view) != wanted:
                out.append(f"{where}: the board has {wanted} components, the message {component_count(view)} "
                           "(something was dropped)")
            return out

        return check

    def check_reachability(self) -> None:
        """Once per table version and seated person: every legal action reachable by clicks."""
        table = self.table
        assert table is not None and table.engine is not None
        if table.engine.is_over:
            return
        problems: list[str] = []
        reaches: list[Reach] = []
        for user in self.people:
            player = self.player_of(user)
            if player is None or (table.version, player) in self._explored:
                continue
            self._explored.add((table.version, player))
            self.stats.states_checked += 1
            problems += reachability_problems(self.ui, table, player, key=self.key, render=self.render_problems(player),
                                              reached_keys=self.stats.actions_reached, excuse=self.excuse,
                                              excused=self.excused, reaches=reaches)
        self.stats.boards_explored += sum(r.boards for r in reaches)
        self.stats.excused = len(self.excused)
        if problems:
            self.fail("not every legal action is reachable by clicks, or a board is wrong:\n"
                      + "\n".join(dict.fromkeys(problems)))

    def check_all(self) -> None:
        """Every check that needs no waiting."""
        self._check_errors(self._step)
        self.check_messages()
        if self.reachability and self.table is not None and self.table.engine is not None:
            self.check_reachability()

    # -------------------------------------------------------------- playing

    def boards_of(self, user: FakeUser) -> list[FakeMessage]:
        """*user*'s ephemeral messages in the thread with an enabled component, oldest first."""
        assert self.thread is not None
        return [m for m in self.fake.messages(self.thread, visible_to=user)
                if m.ephemeral and m.visible_to == user.id and self._choices(m)]

    def _choices(self, msg: FakeMessage, *, public: bool = False) -> list[tuple[str, str, Any]]:
        """``("button", custom_id, None)`` and ``("select", custom_id, SelectInfo)`` one may use on *msg*."""
        out: list[tuple[str, str, Any]] = []
        for b in msg.buttons:
            if b.disabled or not b.custom_id:
                continue
            if public and any(b.custom_id.startswith(f"parlor:{verb}:") for verb in SKIPPED_PUBLIC_VERBS):
                continue
            out.append(("button", b.custom_id, None))
        for s in msg.selects:
            if not s.disabled and s.options:
                out.append(("select", s.custom_id, s))
        return out

    async def use(self, user: FakeUser, msg: FakeMessage, choice: tuple[str, str, Any], where: str) -> Any:
        """Press a button or pick select options (seeded random values)."""
        kind, custom_id, menu = choice
        self._step = f"{user.name} {kind} {custom_id!r} on {where}"
        if kind == "button":
            self.stats.clicks += 1
            result = await self.fake.click(user, msg, custom_id)
        else:
            self.stats.selects += 1
            values = [v for _, v in menu.options]
            high = min(menu.max_values, len(values))
            count = self.rng.randint(min(menu.min_values, high), high)
            result = await self.fake.select(user, msg, custom_id, self.rng.sample(values, count))
        return await self._answered(result, self._step)

    async def step(self) -> bool:
        """One person (or the spectator, now and then) uses one enabled component; ``False`` when there
        was none to use (the public message between redraws, say)."""
        table = self.table
        assert table is not None and table.message_id is not None
        if self.spectator is not None and self.rng.random() < 0.03:
            public = self.fake.message(table.message_id)
            choices = self._choices(public, public=True)
            if not choices:
                return False
            await self.use(self.spectator, public, self.rng.choice(choices), "the public message")
            self.stats.public_clicks += 1
            return True
        user = self.rng.choice(self.people)
        boards = self.boards_of(user)
        roll = self.rng.random()
        if not boards or roll < 0.08:  # open (or re-open) the board from the public message
            public = self.fake.message(table.message_id)
            opener = next((b.custom_id for b in public.buttons if b.custom_id and not b.disabled
                           and b.custom_id.startswith("parlor:board:")), None)
            if opener is None:
                return False  # between redraws, or over
            self._step = f"{user.name} opens their board"
            self.stats.boards_opened += 1
            await self.click(user, public, opener, self._step)
            return True
        if roll < 0.25:
            public = self.fake.message(table.message_id)
            choices = self._choices(public, public=True)
            if not choices:
                return False
            self.stats.public_clicks += 1
            await self.use(user, public, self.rng.choice(choices), "the public message")
            return True
        board = boards[-1] if roll < 0.9 or len(boards) == 1 else self.rng.choice(boards[:-1])  # old ones too
        self.stats.board_clicks += 1
        await self.use(user, board, self.rng.choice(self._choices(board)), f"board message {board.id}")
        return True

    async def _next_change(self) -> None:
        """Wait until the loopback Discord hears from the bot again (a redraw, a bot's move), or the game
        is over: a step that found nothing to use must not spin without letting the table move on."""
        table = self.table
        assert table is not None and table.engine is not None
        heard = len(self.fake.requests)
        await self.fake.wait_for(lambda: len(self.fake.requests) > heard or table.engine is None
                                 or table.engine.is_over or table.status != "running", timeout=30,
                                 what="the bot to do anything at all (the table is stuck)")

    async def play(self, *, max_steps: int = PLAY_STEPS) -> RunStats:
        """Play random enabled components until the game is over, checking everything after each step.

        The budget is in steps (a person's or the spectator's click, select or board opening; a step
        that found nothing to use waits for the bot and counts too), never in seconds, so that a
        loaded machine, which plays the same steps more slowly, fails no game that a fast one passes.
        """
        table = self.table
        assert table is not None and table.engine is not None
        start = time.monotonic()
        self.check_all()
        for n in range(max_steps):
            if table.engine.is_over or table.status != "running":
                break
            self.stats.steps = n + 1
            if not await self.step():
                self.stats.idle_steps += 1
                await self._next_change()
            self.check_all()
        else:
            if not (table.engine.is_over or table.status != "running"):
                self.fail(f"the game did not end within {max_steps} steps; "
                          f"public message:\n{self.fake.message(table.message_id).text}")
        if not table.engine.is_over:
            self.fail(f"the table stopped running ({table.status}) before the game was over")
        await self.finish()
        self.stats.seconds = time.monotonic() - start
        return self.stats

    async def finish(self) -> None:
        """Wait for every answer and the final table; check it all once more."""
        table = self.table
        assert table is not None and table.engine is not None
        self._step = "the end"
        self.stats.over = True
        self.stats.actions_played = table.engine.action_count
        tail = self.ui.result_text(table).strip().splitlines()
        await self.fake.wait_for(lambda: all(r.responded or r.failed for r in self.results), timeout=5,
                                 what="every click's answer")
        await self.fake.wait_for(lambda: not any(r.message is not None and r.message.loading for r in self.results),
                                 timeout=5, what="every deferred answer")
        last = tail[-1] if tail else ""
        # Content, not speed: on a loaded machine the last coalesced redraw can come after 5 s.
        await self.fake.wait_for(lambda: last in self.fake.message(table.message_id).text, timeout=15,
                                 what=f"the final standings ({last!r}) on the table message")
        failed = [r for r in self.results if r.failed]
        if failed:
            self.fail(f"{len(failed)} interactions failed: {[r.errors for r in failed]}")
        self._check_errors("the end")
        self._checked.clear()
        self.check_messages(full=True)
        # The game is over a moment before its table is stored as finished; a next /<game> new by the
        # same people in this channel is refused until then ("You already sit at table #1").
        await self.fake.wait_for(lambda: table.status == "finished", timeout=10, what="the table stored as finished")


def production_uis() -> dict[str, type[GameUI]]:
    """Every declared game's table UI class, by kind (``bot.engine.GAMES``, each UI imported from its
    declaration as the bot's game cogs import it).
    """
    from bot.engine import GAMES
    from cogs.games import load_ui

    return {kind: type(load_ui(game)) for kind, game in GAMES.items()}
