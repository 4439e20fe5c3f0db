"""The generic picker: a player's legal actions as steps of buttons or a select menu.

Every game's default board (:meth:`bot.tables.ui.GameUI.board`) is built from it, so a game UI
writes labels, not token grammars (``docs/tables.md``, "The table kit").

How the steps come about:

* each action is flattened into its leaf paths (:func:`leaf_paths`): ``type`` first, then the
  keys in the action's own order, nested objects as ``first.player``, ``first.position``;
* a step offers the distinct values of the next path on which the actions still matching the
  choices so far differ (a path on which they all agree is no choice and is passed over), in the
  order the legal actions give them;
* a value that leaves one action plays it: its token is the action's codec token
  (:mod:`bot.tables.codec`), so one click plays a move whenever the step makes it obvious; a
  value that leaves several leads to the next step, whose token is a selection token;
* a step of at most 20 choices is shown as buttons (rows 0–3, Back and Cancel on row 4), of
  21–25 as one select menu; more than 25 are split into ranges of at most 25 (and ranges of
  ranges, should one step ever hold more than 625), so Discord's limits are never reached.

Selection tokens, like action tokens, are keyed hashes: they say nothing of the choices and are
decoded against the player's current legal actions, so a board never goes stale because someone
else moved; a choice that no longer exists is refused with a reason.

>>> from bot.tables.codec import ActionCodec
>>> legal = [{"type": "draw"}, {"type": "swap", "position": 0}, {"type": "swap", "position": 1}]
>>> picker = Picker(legal, ActionCodec(b"k" * 32))
>>> [c.label for c in picker.step(None).choices]
['draw', 'swap']
>>> second = picker.step(picker.step(None).choices[1].token)
>>> second.path, [c.label for c in second.choices], second.back
('position', ['0', '1'], 'x')
>>> second.choices[0].action
{'type': 'swap', 'position': 0}
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from bot.engine.core import canonical
from bot.tables.board import (
    BUTTON_LABEL_MAX,
    ROW_WIDTH,
    SELECT_OPTIONS_MAX,
    BoardButton,
    BoardItem,
    BoardOption,
    BoardSelect,
    fit_label,
)
from bot.tables.codec import ActionCodec, canonical_json
from bot.tables.table import TableError

if TYPE_CHECKING:
    from bot.engine.core import Action

__all__ = ["Picker", "Step", "Choice", "leaf_paths", "step_components", "MISSING", "CANCEL", "BUTTONS_MAX",
           "MENU_MAX"]

CANCEL = "x"
"""The token of Cancel: back to the first step."""
BUTTONS_MAX = 20
"""A step with at most this many choices is shown as buttons (rows 0–3; row 4 holds Back and Cancel)."""
MENU_MAX = SELECT_OPTIONS_MAX
"""A step with at most this many choices (and more than :data:`BUTTONS_MAX`) is one select menu; more are split."""
_CACHE_SIZE = 32  # a tree of ~900 Dutch swaps takes ~1 MB


class _Missing:
    """The value of a path an action does not have (another action of the step does)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()
"""The value shown for a path that some of a step's actions lack."""


def leaf_paths(action: Mapping[str, Any], _prefix: str = "") -> list[tuple[str, Any]]:
    """The leaves of *action* as ``(path, value)`` in the picker's order.

    ``type`` comes first, then the keys in the action's own order; a nested object is flattened
    into ``outer.inner`` paths (an empty one is a leaf). Lists are leaves.

    >>> leaf_paths({"first": {"player": "u1", "position": 2}, "type": "power_swap"})
    [('type', 'power_swap'), ('first.player', 'u1'), ('first.position', 2)]
    """
    keys = sorted(action, key=lambda k: k != "type") if not _prefix else list(action)
    out: list[tuple[str, Any]] = []
    for key in keys:
        value = action[key]
        path = f"{_prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.extend(leaf_paths(value, f"{path}."))
        else:
            out.append((path, value))
    return out


@dataclass(frozen=True)
class Choice:
    """One choice of a picker step.

    Attributes
    ----------
    label:
        What the button or option says (from the game UI's ``step_label`` or ``action_label``).
    token:
        An action token (the click plays :attr:`action`) or a selection token (the next step).
    action:
        The action the click plays, or ``None`` when it leads to another step.
    """

    label: str
    token: str
    action: Action | None = None


@dataclass(frozen=True)
class Step:
    """What a board shows at one point of the picker.

    Attributes
    ----------
    path:
        The action path this step chooses (``"type"``, ``"first.position"``), or ``None`` when
        the player has at most one action.
    chosen:
        The choices made so far, ``(path, value)`` in order.
    choices:
        The choices now (at most 25), in the legal actions' order.
    token:
        This step's selection token (``None`` for the first step).
    back:
        The token of the step before (``"x"`` when that is the first step), or ``None`` on the
        first step.
    """

    path: str | None
    chosen: tuple[tuple[str, Any], ...]
    choices: tuple[Choice, ...]
    token: str | None = None
    back: str | None = None

    @property
    def is_menu(self) -> bool:
        """Whether the step is shown as a select menu (21–25 choices) rather than buttons."""
        return len(self.choices) > BUTTONS_MAX


# ---------------------------------------------------------------------------------------- the tree


@dataclass(eq=False)
class _Entry:
    value: Any = None
    action: Action | None = None
    child: _Node | None = None
    page: tuple[Any, Any] | None = None  # (first value, last value) of a range


@dataclass(eq=False)
class _Node:
    token: str | None
    parent: _Node | None
    chosen: tuple[tuple[str, Any], ...]
    path: str | None = None
    entries: list[_Entry] = field(default_factory=list)


_Candidate = tuple[dict[str, Any], dict[str, Any]]  # (action, {path: value})


def _value_key(value: Any) -> str | None:
    return None if value is MISSING else canonical_json(value)


class _Tree:
    """Every step of one player's legal actions, built once per distinct set of legal actions."""

    def __init__(self, legal: Sequence[Action], codec: ActionCodec) -> None:
        self.codec = codec
        self.steps: dict[str, _Node] = {}
        seen: set[str] = set()
        candidates: list[_Candidate] = []
        for action in legal:
            text = canonical_json(action)
            if text not in seen:
                seen.add(text)
                candidates.append((action, dict(leaf_paths(action))))
        self.candidates = candidates
        self.root = self._node(candidates, (), None)
        self._actions: dict[str, Action] | None = None

    def actions(self) -> dict[str, Action]:
        """Action token to action, for every legal action (built on first use)."""
        if self._actions is None:
            self._actions = {self.codec.token(a): a for a, _ in self.candidates}
        return self._actions

    def _register(self, chosen: tuple[tuple[str, Any], ...], pages: tuple[int, ...],
                  parent: _Node | None) -> _Node:
        if parent is None:
            return _Node(None, None, chosen)
        selection_id = canonical_json({"c": [[p, _value_key(v)] for p, v in chosen], "p": list(pages)})
        node = _Node(self.codec.selection_token(selection_id), parent, chosen)
        assert node.token is not None
        self.steps[node.token] = node
        return node

    def _node(self, candidates: list[_Candidate], chosen: tuple[tuple[str, Any], ...],
              parent: _Node | None) -> _Node:
        node = self._register(chosen, (), parent)
        if len(candidates) <= 1:
            node.entries = [_Entry(action=a) for a, _ in candidates]
            return node
        path = _next_path(candidates)
        node.path = path
        groups: dict[str | None, tuple[Any, list[_Candidate]]] = {}
        for candidate in candidates:
            value = candidate[1].get(path, MISSING)
            groups.setdefault(_value_key(value), (value, []))[1].append(candidate)
        entries: list[_Entry] = []
        for value, group in groups.values():
            if len(group) == 1:
                entries.append(_Entry(value=value, action=group[0][0]))
            else:
                entries.append(_Entry(value=value, child=self._node(group, (*chosen, (path, value)), node)))
        node.entries = self._split(node, entries, 0)
        return node

    def _split(self, node: _Node, entries: list[_Entry], level: int) -> list[_Entry]:
        """Entries as they fit one step: as they are (≤ 25), or as ranges of ≤ 25 (recursively)."""
        if len(entries) <= MENU_MAX:
            return entries
        count = math.ceil(len(entries) / MENU_MAX)
        size = math.ceil(len(entries) / count)
        ranges: list[_Entry] = []
        for i in range(0, len(entries), size):
            chunk = entries[i:i + size]
            page = self._register(node.chosen, (level, i // size), node)
            page.path, page.entries = node.path, chunk
            for entry in chunk:
                if entry.child is not None:
                    entry.child.parent = page
            ranges.append(_Entry(child=page, page=(_first(chunk[0]), _last(chunk[-1]))))
        return self._split(node, ranges, level + 1)


def _first(entry: _Entry) -> Any:
    return entry.page[0] if entry.page is not None else entry.value


def _last(entry: _Entry) -> Any:
    return entry.page[1] if entry.page is not None else entry.value


def _next_path(candidates: list[_Candidate]) -> str:
    """The first path (in the candidates' own order) on which the candidates differ."""
    order: dict[str, None] = {}
    for _, leaves in candidates:
        order.update(dict.fromkeys(leaves))
    for path in order:
        values = {_value_key(leaves.get(path, MISSING)) for _, leaves in candidates}
        if len(values) > 1:
            return path
    raise AssertionError("distinct actions differ on some path")  # candidates are deduplicated


_TREES: OrderedDict[tuple[bytes, str], _Tree] = OrderedDict()


def _tree_for(legal: Sequence[Action], codec: ActionCodec) -> _Tree:
    key = (codec.key, json.dumps(list(legal)))  # order-sensitive, which only costs a miss: fast and exact
    tree = _TREES.get(key)
    if tree is None:
        tree = _TREES[key] = _Tree(legal, codec)
        while len(_TREES) > _CACHE_SIZE:
            _TREES.popitem(last=False)
    else:
        _TREES.move_to_end(key)
    return tree


# ---------------------------------------------------------------------------------------- the picker


def _default_step_label(path: str, value: Any) -> str:
    return fit_label(str(value))


def _default_action_label(action: Action) -> str:
    return fit_label(str(action.get("type", "move")))


class Picker:
    """One player's legal actions as picker steps (see the module docstring).

    Parameters
    ----------
    legal:
        The player's current legal actions (``engine.legal_actions(player)``).
    codec:
        The player's :class:`~bot.tables.codec.ActionCodec` at this table.
    step_label:
        ``(path, value) -> label`` of a choice; the game UI's ``step_label``.
    action_label:
        ``action -> label`` of a choice that plays an action from the first step; the game UI's
        ``action_label``.

    Building the steps costs one pass over the legal actions; the steps of a set of legal
    actions are cached (the last 32 sets), so a board and the click on it share them.
    """

    def __init__(self, legal: Sequence[Action], codec: ActionCodec, *,
                 step_label: Callable[[str, Any], str] = _default_step_label,
                 action_label: Callable[[Action], str] = _default_action_label) -> None:
        self.legal = list(legal)
        self.codec = codec
        self._step_label = step_label
        self._action_label = action_label
        self._tree = _tree_for(self.legal, codec)

    def decode(self, token: str) -> Action:
        """The legal action whose token is *token* (as :meth:`ActionCodec.decode`, from the cached steps).

        Raises
        ------
        TableError
            *token* is not an action token, or no current legal action has it.
        """
        action = self._tree.actions().get(token)
        if action is None:
            raise self.codec.refusal(token, self.legal)
        fresh: Action = canonical(action)  # a copy: the cached steps stay as they were
        return fresh

    def has_step(self, token: str) -> bool:
        """Whether *token* is the selection token of one of the current steps."""
        return token in self._tree.steps

    def step(self, selection: str | None) -> Step:
        """The step a board shows for *selection* (``None`` or ``"x"``: the first step).

        Raises
        ------
        TableError
            *selection* leads nowhere among the current legal actions ("that choice is no
            longer open").
        """
        if selection is None or selection == CANCEL:
            return self._render(self._tree.root)
        node = self._tree.steps.get(selection)
        if node is None:
            raise TableError("That choice is no longer open (the table moved on); pick again.")
        return self._render(node)

    def steps(self) -> Iterator[Step]:
        """Every step, the first one first, depth first (for tests and the UI conformance driver)."""
        stack = [self._tree.root]
        while stack:
            node = stack.pop()
            yield self._render(node)
            stack.extend(reversed([e.child for e in node.entries if e.child is not None]))

    def _render(self, node: _Node) -> Step:
        choices = []
        for entry in node.entries:
            if entry.page is not None:
                assert entry.child is not None and entry.child.token is not None and node.path is not None
                first, last = (fit_label(self._step_label(node.path, v), BUTTON_LABEL_MAX // 2 - 2)
                               for v in entry.page)
                choices.append(Choice(f"{first} … {last}", entry.child.token))
            elif entry.action is not None:
                label = (self._action_label(entry.action) if node.path is None or not node.chosen
                         else self._step_label(node.path, entry.value))
                choices.append(Choice(label, self.codec.token(entry.action), entry.action))
            else:
                assert entry.child is not None and entry.child.token is not None and node.path is not None
                choices.append(Choice(self._step_label(node.path, entry.value), entry.child.token))
        parent = node.parent
        back = None if parent is None else (parent.token or CANCEL)
        return Step(node.path, node.chosen, tuple(choices), node.token, back)


def step_components(step: Step, placeholder: str = "Choose…") -> list[BoardItem]:
    """The board components of *step*: its choices and its Back and Cancel buttons.

    Up to 20 choices are buttons on rows 0–3 (an action is ``primary``, a further step
    ``secondary``) and Back/Cancel go on row 4; 21–25 choices are one select menu on row 0 and
    Back/Cancel on row 1. Back shows from the third step on, Cancel from the second.

    Raises
    ------
    LimitError
        A label is too long for Discord (80 for a button, 100 for a menu option), or the step
        holds more than 25 choices (the picker never makes one).
    """
    items: list[BoardItem] = []
    if step.is_menu:
        items.append(BoardSelect([BoardOption(c.label, c.token) for c in step.choices], placeholder, row=0))
        nav_row = 1
    else:
        items += [BoardButton(c.label, c.token, "primary" if c.action is not None else "secondary", row=i // ROW_WIDTH)
                  for i, c in enumerate(step.choices)]
        nav_row = 4
    if step.back is not None and step.back != CANCEL:
        items.append(BoardButton("◀ Back", step.back, "secondary", row=nav_row))
    if step.token is not None:
        items.append(BoardButton("✖ Cancel", CANCEL, "secondary", row=nav_row))
    return items
