"""The engine protocol every Parlor game implements (``docs/design.md`` §2).

An engine is a pure, seeded state machine:

* :meth:`Engine.new` starts a game from player ids in seat order, a seed and a frozen options
  dataclass;
* :meth:`Engine.legal_actions` lists what a player may do now (:meth:`Engine.can_act`: whether
  there is anything);
* :meth:`Engine.apply` applies one action and returns the :class:`Event` objects it caused, or
  raises :class:`IllegalAction` (a :class:`ValueError`) with a reason a player can read, leaving
  the state untouched;
* :meth:`Engine.view` is the JSON-ready information set of one player (``None``: spectators);
* :attr:`Engine.is_over` / :meth:`Engine.result` tell the end and the scores;
  :meth:`Engine.standing` places the players of an unfinished game;
* :meth:`Engine.log` / :meth:`Engine.replay` record and reproduce a game exactly.

Engines never import ``discord`` or ``asyncio``, never read the clock and never use the global
``random``: all chance comes from ``self.rng``, a :class:`random.Random` seeded by the game.
Time reaches an engine only as actions (a ``timeout`` action injected by the table).

Actions are plain JSON objects (``dict`` with a ``"type"`` key and JSON-ready values), so they
round-trip through storage, custom ids and the simulator unchanged.

Game authors subclass :class:`Engine` and implement the underscore hooks:
``_setup``, ``_legal_actions``, ``_apply``, ``_view``, ``_is_over``, ``_result`` and
``hidden_cards``, and, to place an unfinished game (:meth:`Engine.standing`), ``_standing``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Self

__all__ = [
    "Action",
    "Event",
    "Result",
    "IllegalAction",
    "Engine",
    "canonical",
    "options_from_json",
    "TimedRule",
    "TURNS",
    "SIMULTANEOUS",
]

TURNS = "turns"
"""Play mode: players act in turn (a turn timer watches the player the game waits on)."""
SIMULTANEOUS = "simultaneous"
"""Play mode: everyone acts at once (no turn timer; races go through the race window)."""

Action = dict[str, Any]
"""An action: a JSON object with a ``"type"`` key, e.g. ``{"type": "flip"}``."""


class IllegalAction(ValueError):
    """Raised by :meth:`Engine.apply` when an action breaks a rule or is not this player's to take.

    The message is written for the player (it is shown to them ephemerally), names the move and
    says why it was refused. The engine state is unchanged when this is raised.
    """


def canonical(value: Any) -> Any:
    """Return *value* as it comes back from a JSON round trip (tuples become lists, keys strings).

    A fresh copy built without the round trip for the plain types (it is on every move's path);
    anything else goes through ``json`` itself, so the answer is always exactly the round trip's.

    Raises
    ------
    TypeError
        *value* holds something JSON cannot carry.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if value != value or value in (_INF, -_INF):
            return json.loads(json.dumps(value))  # NaN and infinities as JSON carries them
        return value
    if kind is dict:
        out: dict[str, Any] = {}
        for key, item in value.items():
            plain = type(item)  # strings, ints, bools and None as they are, without a call (actions are mostly these)
            out[key if type(key) is str else _json_key(key)] = (
                item if plain is str or plain is int or plain is bool or item is None else canonical(item))
        return out
    if kind is list or kind is tuple:
        return [canonical(item) for item in value]
    return json.loads(json.dumps(value))  # subclasses and the rest: JSON decides, or raises TypeError


_INF = float("inf")


def _json_key(key: Any) -> str:
    """A dict key as JSON writes it: strings as they are; numbers, booleans and None as JSON text."""
    if type(key) is str:
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return str(json.dumps(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


@dataclass(frozen=True, slots=True)
class TimedRule:
    """A rule of a game that depends on time, stated without a clock (``docs/design.md`` §7).

    The engine says *what* waits and for how long; the table measures the delay with its own
    clock from the moment :attr:`key` took its present value, and enforces it.

    Attributes
    ----------
    name:
        The rule's name, e.g. ``"stuck"``.
    delay_ms:
        How long, in milliseconds, after :attr:`key` last changed.
    key:
        What the delay counts from: any change of it (a new Dutch-pile play, a new discard)
        restarts the count.
    action:
        The action type the rule holds back: the table refuses it, whoever asks, until the
        delay has passed (the host's End hand of a stuck hand; the next draw after a discard).
    since:
        What :attr:`key` marks, in words for a refusal ("the last card went onto a Dutch pile").
    """

    name: str
    delay_ms: int
    key: str
    action: str
    since: str = ""


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened, for the table to narrate or show.

    Attributes
    ----------
    type:
        A short name, e.g. ``"played"``, ``"drew"``, ``"blitz"``.
    data:
        JSON-ready details.
    audience:
        ``None`` for a public event everyone may see; otherwise the player ids who alone may see
        it (a card a player drew or looked at). The table shows a private event to no one else.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: tuple[str, ...] | None = None

    def __init__(self, type: str, data: Mapping[str, Any] | None = None,
                 audience: tuple[str, ...] | None = None) -> None:
        # Frozen: the fields are set through their slots, as the generated __init__ does through
        # object.__setattr__, at half the cost (engines make events on every move).
        _SET_TYPE(self, type)
        _SET_DATA(self, {} if data is None else data)
        _SET_AUDIENCE(self, audience)

    @property
    def is_public(self) -> bool:
        """Whether everyone (spectators included) may see this event."""
        return self.audience is None

    def visible_to(self, player: str | None) -> bool:
        """Whether *player* (``None``: a spectator) may see this event."""
        return self.audience is None or (player is not None and player in self.audience)

    def to_json(self) -> dict[str, Any]:
        """``{"type", "data", "audience"}`` as JSON-ready data."""
        return {
            "type": self.type,
            "data": canonical(dict(self.data)),
            "audience": None if self.audience is None else list(self.audience),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        aud = obj.get("audience")
        return cls(obj["type"], dict(obj.get("data") or {}), None if aud is None else tuple(aud))


_SET_TYPE = vars(Event)["type"].__set__
_SET_DATA = vars(Event)["data"].__set__
_SET_AUDIENCE = vars(Event)["audience"].__set__


@dataclass(frozen=True, slots=True)
class Result:
    """The final outcome of a game.

    Attributes
    ----------
    scores:
        Player id to final score (the game's own unit: points, lives, cards).
    ranks:
        Player id to rank, 1 = best; tied players share a rank.
    winners:
        The player ids ranked 1.
    detail:
        JSON-ready extra facts (how the game ended).
    """

    scores: Mapping[str, float]
    ranks: Mapping[str, int]
    winners: tuple[str, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_scores(cls, scores: Mapping[str, float], *, higher_is_better: bool = True,
                    detail: Mapping[str, Any] | None = None) -> Result:
        """Rank players by *scores* (competition ranking: 1, 1, 3)."""
        ordered = sorted(scores.values(), reverse=higher_is_better)
        ranks = {p: ordered.index(s) + 1 for p, s in scores.items()}
        winners = tuple(p for p, r in ranks.items() if r == 1)
        return cls(dict(scores), ranks, winners, dict(detail or {}))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form: ``{"scores", "ranks", "winners", "detail"}``."""
        data: dict[str, Any] = canonical({"scores": dict(self.scores), "ranks": dict(self.ranks),
                                          "winners": list(self.winners), "detail": dict(self.detail)})
        return data


def options_from_json(options_cls: type, data: Mapping[str, Any] | None) -> Any:
    """Build an options dataclass from JSON data, refusing unknown keys.

    Raises
    ------
    ValueError
        A key is not a field of *options_cls*, or the dataclass rejects a value.
    """
    data = dict(data or {})
    names = {f.name for f in dataclasses.fields(options_cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown option(s) {unknown} for {options_cls.__name__}; known: {sorted(names)}")
    return options_cls(**data)


class Engine:
    """Base class of every game engine (``docs/design.md`` §2).

    Class attributes a game sets
    ----------------------------
    kind:
        The registry name (``"dutch-blitz"``, ``"blitzkrieg"``, ``"dutch"``, ``"blitz"``).
    title:
        The game's display name.
    min_players, max_players:
        Seat limits.
    Options:
        A frozen dataclass of the game's variant switches, defaults from the rule texts.
    max_actions:
        An upper bound on accepted actions in one game under the conformance suite's random
        play and the simulator's bot play, used to detect a game that never ends.
    conformance_options:
        Options (JSON mapping) the conformance suite's random-play games use, e.g. a lower
        target score so that uniformly random play ends quickly; ``{}`` means the defaults.
    table_actions:
        Action types that belong to the host or the table, not to ordinary seats or bots
        (e.g. Dutch Blitz's ``end_hand`` and ``next_hand``): the table lets only the host or a
        moderator take them, seated or not, and bots never choose them (``docs/tables.md``).
    play_mode:
        :data:`TURNS` (the default) or :data:`SIMULTANEOUS`: whether the table runs turn timers.
    lowest_score_wins:
        ``True`` when the game's scores (:attr:`Result.scores`, :meth:`standing`) are better the
        lower they are (Dutch's penalty points); ``False`` (the default) when higher is better.
        Code that adds scores up across games (a tournament's game points) reads it.
    timeout_continues:
        Action types that finish a turn the table's timer already began for a player: after a
        timeout's first :meth:`timeout_action`, the table goes on with the player's next one while
        its type is listed here (Dutch's discard after the timed-out draw), so one timeout plays one
        whole turn (``docs/tables.md``, "Turn timers"). Empty by default.

    Instance attributes
    -------------------
    players:
        Player ids (strings) in seat order.
    seed:
        The integer seed of :attr:`rng`.
    options:
        The game's options (an instance of :attr:`Options`).
    rng:
        The game's only source of chance.
    setup_events:
        The events of the initial deal (see :meth:`_setup`).
    """

    kind: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options: ClassVar[type] = type(None)
    max_actions: ClassVar[int] = 100_000
    conformance_options: ClassVar[Mapping[str, Any]] = {}
    table_actions: ClassVar[frozenset[str]] = frozenset()
    play_mode: ClassVar[str] = TURNS
    lowest_score_wins: ClassVar[bool] = False
    timeout_continues: ClassVar[frozenset[str]] = frozenset()

    players: tuple[str, ...]
    seed: int
    options: Any
    rng: Random
    setup_events: list[Event]
    _actions: list[Action] | None
    _actors: list[str]
    _count: int

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, players: Sequence[str], *, seed: int, options: Any = None, keep_log: bool = True) -> Self:
        """Start a new game.

        Parameters
        ----------
        players:
            Distinct player ids (non-empty strings) in seat order.
        seed:
            Seeds the game's :class:`random.Random`; the same seed, options and actions always
            give the same game.
        options:
            An instance of :attr:`Options`, a JSON mapping of its fields, or ``None`` for the
            defaults.
        keep_log:
            Whether the engine keeps its accepted actions for :meth:`log`. A table keeps its log
            in the database instead (``docs/tables.md``, "Restarts"), so its engine's memory is
            bounded by the state, not by the history; :attr:`action_count` counts either way.

        Raises
        ------
        ValueError
            Wrong number of players, duplicate or empty ids, or bad options.
        """
        players = tuple(players)
        if not cls.min_players <= len(players) <= cls.max_players:
            raise ValueError(
                f"{cls.title or cls.kind} takes {cls.min_players}-{cls.max_players} players, got {len(players)}"
            )
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise ValueError(f"player ids must be distinct non-empty strings, got {list(players)!r}")
        if options is None:
            options = cls.Options()
        elif isinstance(options, Mapping):
            options = options_from_json(cls.Options, options)
        elif not isinstance(options, cls.Options):
            raise ValueError(f"options must be {cls.Options.__name__}, got {type(options).__name__}")
        self = cls.__new__(cls)
        self.players = players
        self.seed = int(seed)
        self.options = options
        self.rng = Random(self.seed)
        self._actions = []  # the accepted actions, in order (None: no log kept)
        self._actors = []  # who took each of them (two flat lists, not pairs: a finished game a caller
        # keeps holds a few hundred objects fewer for the garbage collector to walk)
        self._count = 0
        events = self._setup()
        if events is not None:
            self.setup_events = list(events)
        elif not hasattr(self, "setup_events"):
            self.setup_events = []
        if not keep_log:
            self._actions = None
        return self

    def _setup(self) -> list[Event] | None:
        """Hook: deal and set up the initial state from ``players``, ``options`` and ``rng``.

        May return the events of the deal; they are kept in :attr:`setup_events` for the table
        to narrate (private ones only to their audience).
        """
        raise NotImplementedError

    # ------------------------------------------------------------------ the protocol

    def legal_actions(self, player: str) -> list[Action]:
        """Every action *player* may take now, as JSON objects (empty when they may not act).

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        self._check_player(player)
        if self.is_over:
            return []
        return self._legal_actions(player)

    def can_act(self, player: str) -> bool:
        """Whether *player* has at least one legal action now: ``bool(self.legal_actions(player))``.

        The simulator asks it of every other seat holding a plan after each move, and
        :meth:`to_act` of every seat, so a game may answer it quicker than by listing the actions;
        the answer must always equal ``bool(self.legal_actions(player))`` (``False`` once the game
        is over).

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        return bool(self.legal_actions(player))

    def is_legal(self, player: str, action: Action) -> bool:
        """Whether *action* is among ``legal_actions(player)``."""
        return player in self.players and canonical(action) in self.legal_actions(player)

    def apply(self, player: str, action: Action) -> list[Event]:
        """Apply *action* for *player*, log it and return the events it caused.

        Raises
        ------
        IllegalAction
            The game is over, *player* is not seated, the action is malformed or breaks a rule;
            the message says which, and the state is untouched.
        """
        if player not in self.players:
            raise IllegalAction(f"{player!r} is not playing at this table")
        if self.is_over:
            raise IllegalAction("the game is over")
        action = self._copied(action)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"an action must be an object with a 'type', got {action!r}")
        events = self._apply(player, action)
        self._count += 1
        if self._actions is not None:
            self._actions.append(action)
            self._actors.append(player)
        return events

    def _copied(self, action: Action) -> Action:
        """The engine's own copy of *action*, as a JSON round trip gives it (:func:`canonical`); a game
        may copy its plain actions quicker, with the same result.

        Raises
        ------
        IllegalAction
            *action* holds something JSON cannot carry.
        """
        try:
            copied: Action = canonical(action)
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"that action is not valid data: {exc}") from None
        return copied

    def view(self, player: str | None) -> dict[str, Any]:
        """What *player* may see, as a JSON-ready dict; ``None`` gives the public/spectator view.

        Hidden cards never appear in a view that may not see them, not even as ids or counts
        that give them away.

        Raises
        ------
        ValueError
            *player* is not seated in this game.
        """
        if player is not None:
            self._check_player(player)
        return self._view(player)

    @property
    def is_over(self) -> bool:
        """Whether the game has finished."""
        return self._is_over()

    def result(self) -> Result | None:
        """The final :class:`Result`, or ``None`` while the game runs."""
        return self._result() if self.is_over else None

    def standing(self) -> Result:
        """The game's standing now: its final :meth:`result` once over, else a provisional one.

        The provisional standing places the players as the game stands at this moment, for a
        game stopped before its end (a tournament's forced round, ``docs/tournaments.md`` §9):
        ``scores`` in the game's own unit (better when higher, or when lower for a game with
        :attr:`lowest_score_wins`), ``ranks`` from 1 (ties share a rank; they need not follow
        the scores alone), ``winners`` the players ranked 1, and ``detail`` ``{"provisional": True}``.
        It uses only what every player may see (no hidden card is counted) and does not change
        the game. Each game states in its rules page how an unfinished game is placed and
        overrides :meth:`_standing`; the default places everyone level on a score of 0.

        Returns
        -------
        Result
            Every seated player appears in ``scores`` and ``ranks``.
        """
        if self.is_over:
            return self._result()
        return self._standing()

    def to_act(self) -> list[str]:
        """The players who have at least one legal action now, in seat order."""
        return [p for p in self.players if self.can_act(p)]

    def timeout_action(self, player: str) -> Action | None:
        """The action the table takes for *player* when their turn timer runs out, or ``None``.

        ``None`` means the player has nothing they must do now (only optional moves, such as a
        jump-in, or nothing at all), so no timer runs for them. The default is the first legal
        action; games override it with their rule text's choice.
        """
        legal = self.legal_actions(player)
        return legal[0] if legal else None

    def contested_resource(self, player: str, action: Action) -> str | None:
        """The contested resource *action* claims, or ``None`` when it contests nothing.

        The table's race arbiter (``docs/design.md`` §4) holds
        claims on the same resource for the race window and applies them in Discord-timestamp
        order: e.g. ``"dutch-pile:3"`` for the next slot of Dutch pile 3, ``"jump-in:12"`` for the
        jump-in on discard number 12. Uncontested actions are applied at once.
        """
        return None

    def timed_rules(self) -> list[TimedRule]:
        """The game's rules that wait on time and apply now, as data (default: none).

        E.g. Dutch Blitz's stuck hand: ``end_hand`` is allowed ``stuck_seconds`` after the last
        card went onto a Dutch pile. The table measures the delays and enforces them.
        """
        return []

    def shown_for_ms(self, event: Event) -> int | None:
        """How long, in milliseconds, the players a private *event* is shown to may keep seeing it
        (a timed look: Dutch's peek, hidden again after ``peek_seconds``); ``None`` (the default):
        for good. The engine states the rule; the table measures it and hides the note again
        (``docs/tables.md``, "Live boards").
        """
        return None

    def hidden_cards(self, player: str | None) -> set[str]:
        """Ids of every card *player* (``None``: a spectator) may not see right now.

        The conformance suite searches ``view(player)`` for these ids.
        """
        raise NotImplementedError

    # ------------------------------------------------------------------ log and replay

    @property
    def action_count(self) -> int:
        """How many actions have been accepted."""
        return self._count

    @property
    def keeps_log(self) -> bool:
        """Whether this engine keeps its actions for :meth:`log` (see :meth:`new`'s ``keep_log``)."""
        return self._actions is not None

    def log(self) -> dict[str, Any]:
        """Everything needed to rebuild this game: ``{"kind", "seed", "options", "players", "actions"}``.

        ``actions`` is a list of ``[player, action]`` pairs in the order they were accepted.

        Raises
        ------
        LookupError
            The engine was made with ``keep_log=False`` (its log is kept elsewhere).
        """
        if self._actions is None:
            raise LookupError(f"this {self.kind} engine keeps no log (made with keep_log=False)")
        return {
            "kind": self.kind,
            "seed": self.seed,
            "options": canonical(dataclasses.asdict(self.options)),
            "players": list(self.players),
            "actions": [[p, copy.deepcopy(a)] for p, a in zip(self._actors, self._actions, strict=True)],
        }

    @classmethod
    def replay(cls, log: Mapping[str, Any], *, keep_log: bool = True) -> Self:
        """Rebuild a game from :meth:`log` output (*keep_log* as in :meth:`new`).

        Raises
        ------
        ValueError
            The log belongs to another kind of game.
        IllegalAction
            A logged action is refused (the log was not made by this engine version).
        """
        if log.get("kind") not in (None, cls.kind):
            raise ValueError(f"log of kind {log.get('kind')!r} cannot replay as {cls.kind!r}")
        game = cls.new(log["players"], seed=log["seed"], options=log.get("options"), keep_log=keep_log)
        for player, action in log["actions"]:
            game.apply(player, action)
        return game

    @classmethod
    def seen_by(cls, log: Mapping[str, Any], player: str) -> list[Event]:
        """Every event of the game in *log* that *player* may see, in order (setup events first).

        What a seat has been shown is exactly this, so a bot that takes over the seat, or is
        rebuilt after a restart, observes it and knows what the seat knew, no more
        (``docs/tables.md``, "Bots").

        Raises
        ------
        ValueError, IllegalAction
            As :meth:`replay`.
        """
        if log.get("kind") not in (None, cls.kind):
            raise ValueError(f"log of kind {log.get('kind')!r} cannot replay as {cls.kind!r}")
        game = cls.new(log["players"], seed=log["seed"], options=log.get("options"), keep_log=False)
        seen = [e for e in game.setup_events if e.visible_to(player)]
        for who, action in log["actions"]:
            seen += [e for e in game.apply(who, action) if e.visible_to(player)]
        return seen

    # ------------------------------------------------------------------ hooks

    def _legal_actions(self, player: str) -> list[Action]:
        raise NotImplementedError

    def _apply(self, player: str, action: Action) -> list[Event]:
        raise NotImplementedError

    def _view(self, player: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def _is_over(self) -> bool:
        raise NotImplementedError

    def _result(self) -> Result:
        raise NotImplementedError

    def _standing(self) -> Result:
        """The provisional standing of a game not over yet (:meth:`standing`); default: all level on 0."""
        return self._provisional({p: 0.0 for p in self.players})

    def _provisional(self, scores: Mapping[str, float], ranks: Mapping[str, int] | None = None) -> Result:
        """A provisional :meth:`standing` from *scores* (ranked by :attr:`lowest_score_wins`) or from *ranks*.

        Parameters
        ----------
        scores:
            Every player's score now, in the game's own unit.
        ranks:
            Every player's rank (1 = best, ties share), when the scores alone do not place them.
        """
        if ranks is None:
            return Result.from_scores(scores, higher_is_better=not self.lowest_score_wins,
                                      detail={"provisional": True})
        winners = tuple(p for p in self.players if ranks[p] == 1)
        return Result(dict(scores), dict(ranks), winners, {"provisional": True})

    # ------------------------------------------------------------------ helpers

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise ValueError(f"{player!r} is not seated; players are {list(self.players)}")

    def seat_of(self, player: str) -> int:
        """The 0-based seat index of *player*.

        Raises
        ------
        ValueError
            *player* is not seated.
        """
        self._check_player(player)
        return self.players.index(player)

    def snapshot(self) -> Any:
        """A deep copy of the whole state (with the RNG as its internal state), comparable with ``==``.

        Used by tests to prove a refused action left the state untouched.
        """
        state: dict[str, Any] = {}
        for key, value in vars(self).items():
            if key == "_actions" or key == "_actors":
                state[key] = None if value is None else len(value)  # the log only ever grows, through apply()
            elif isinstance(value, Random):
                state[key] = value.getstate()
            else:
                state[key] = copy.deepcopy(value)
        return state
