"""Bot-only games offline, in simulated time, generic over the registry.

The simulator plays whole games between bots without a clock: every bot that wants to act gets
a due time drawn from its reaction-time distribution (milliseconds of simulated time), the
soonest acts next, and claims whose due times are equal are ordered by the game's seeded
tie-break, never by list order — as the table's race window orders Discord timestamps. A bot
whose planned move no longer fits when it comes due (another bot moved first) is refused, as
at a real table, and plans again. A whole game takes milliseconds and the same seed gives the
same games.

Before asking a seat's legal actions after a move, the simulator asks its bot :meth:`Bot.is_idle
<bot.engine.bots.Bot.is_idle>` (bots that override it only): an idle seat is not asked at all, which
changes no game, as an idle bot would choose nothing.

Game packages supply their bots (``BOTS``) and optionally ``figures(engine, events) -> dict``,
numbers worth printing per game; the simulator adds them up over all games, and averages those the
hook declares values per game (``means``: :func:`bot.engine.game.mean_figures`). A ``figures`` hook may
carry a ``tally`` attribute, a class whose instances count a game's figures as it goes:
``add(events)`` takes the game's events in order, a batch at a time, and ``figures(engine)`` then
answers exactly what ``figures(engine, events)`` would. With one the simulator never holds a whole
game's events as objects (its record keeps them packed, see :class:`GameRecord`).
"""

from __future__ import annotations

import marshal
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from random import Random
from typing import Any

from bot.engine.bots import Bot, Pacing
from bot.engine.core import Action, Engine, Event, IllegalAction
from bot.engine.game import Game

__all__ = ["GameRecord", "Match", "head_to_head", "play_game", "summarize"]


class GameRecord:
    """One simulated game.

    Attributes
    ----------
    engine:
        The finished engine.
    events:
        Every event of the game, in order (a property: see below).
    actions:
        Accepted actions.
    refused:
        Moves refused because another bot got there first (stale plans).
    sim_ms:
        Simulated duration in milliseconds.
    figures:
        The game's own per-game figures.
    stopped:
        ``None`` for a game that ended by its rules; otherwise why the simulator stopped it at a
        safety limit (past ``max_actions``, or no bot could move). The run goes on with the next
        game, and the game is reported as stopped, never counted as won.

    Callers keep records by the hundred, and a game has thousands of events: as
    :class:`~bot.engine.core.Event` objects, each with its data, they would be the bulk of what the
    garbage collector walks over and over. So the record keeps them packed, a batch of events per
    ``bytes`` object (:mod:`marshal`, which carries every JSON type exactly: dicts in their key
    order, lists, tuples, strings, numbers, booleans, ``None``), and :attr:`events` unpacks them on
    each read: a fresh list of fresh events, each equal to the one the engine made (its data equal,
    no longer the same objects). A batch holding an event that is not a plain
    :class:`~bot.engine.core.Event`, or data ``marshal`` cannot carry, is kept as it is.
    """

    __slots__ = ("engine", "_batches", "actions", "refused", "sim_ms", "figures", "stopped")

    def __init__(self, engine: Engine, events: Sequence[Event] = (), actions: int = 0, refused: int = 0,
                 sim_ms: int = 0, figures: dict[str, float] | None = None, stopped: str | None = None) -> None:
        self.engine = engine
        self.events = list(events)
        self.actions = actions
        self.refused = refused
        self.sim_ms = sim_ms
        self.figures: dict[str, float] = {} if figures is None else figures
        self.stopped = stopped

    @property
    def events(self) -> list[Event]:
        """Every event of the game, in order, as a fresh list (changing it does not change the record)."""
        out: list[Event] = []
        for batch in self._batches:
            if isinstance(batch, bytes):
                out += [Event(kind, data, audience) for kind, data, audience in marshal.loads(batch)]
            else:
                out += batch
        return out

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._batches: list[bytes | list[Event]] = []
        self._add(events)

    def _add(self, events: list[Event]) -> None:
        """Keep *events*, the next ones of the game, packed (or, if they cannot be, as they are).

        Event data is JSON-ready (:class:`~bot.engine.core.Event`), which ``marshal`` carries exactly;
        it refuses what it cannot carry (then the batch is kept as it is), but would write another
        buffer (a ``bytearray``) as ``bytes``: no JSON data holds one.
        """
        if not events:
            return
        if set(map(type, events)) == {Event}:
            try:
                self._batches.append(marshal.dumps([(event.type, event.data, event.audience) for event in events]))
                return
            except ValueError:  # something that is not JSON-ready data: kept as it is
                pass
        self._batches.append(list(events))

    def __repr__(self) -> str:
        return (f"GameRecord(engine={self.engine!r}, events=<{len(self.events)} events>, actions={self.actions}, "
                f"refused={self.refused}, sim_ms={self.sim_ms}, figures={self.figures!r}, stopped={self.stopped!r})")


_BATCH = 64
"""How many events the simulator holds as objects before it hands them to the record (and the
figures' tally) as a batch: few enough that they seldom outlive the garbage collector's youngest
generation."""


def play_game(engine_cls: type[Engine], players: Sequence[str], *, seed: int,
              bot_classes: Sequence[type[Bot]], options: Any = None,
              figures: Any = None) -> GameRecord:
    """Play one bot-only game in simulated time.

    Parameters
    ----------
    engine_cls:
        The engine to play.
    players:
        Player ids in seat order.
    seed:
        The game seed; each bot's RNG is derived from it and its seat.
    bot_classes:
        One bot class per seat.
    options:
        The game options (instance, mapping or ``None``).
    figures:
        Optional ``figures(engine, events) -> dict`` of the game package.

    Returns
    -------
    GameRecord
        The game; a game stopped at a safety limit (past ``engine_cls.max_actions``, or no bot
        could move) has :attr:`GameRecord.stopped` set instead of raising.
    """
    engine = engine_cls.new(players, seed=seed, options=options)
    bots = {p: cls(p, Random(seed * 1_000_003 + i * 7919 + 1))
            for i, (p, cls) in enumerate(zip(players, bot_classes, strict=True))}
    tiebreak = Random(seed ^ 0x5EED)
    record = GameRecord(engine)
    plans: dict[str, Action] = {}  # player to the move their bot is about to make
    due: dict[str, int] = {}  # player to the time (ms) that move comes due, for the same players
    clock = 0
    idle_rounds = 0

    def deliver(events: list[Event]) -> None:
        """Hand every bot the *events* its seat may see (public ones: the same list to every bot)."""
        for event in events:
            if event.audience is not None:
                break
        else:
            if events:
                for observe in observers:
                    observe(events)
            return
        # Some are private: a seat in no audience sees the public ones (one list for all such seats).
        audiences: set[str] = set()
        public = []
        for e in events:
            if e.audience is None:
                public.append(e)
            else:
                audiences.update(e.audience)
        for player, observe in observing:
            if player in audiences:
                visible = [e for e in events if e.audience is None or player in e.audience]  # e.visible_to(player)
            else:
                visible = public
            if visible:
                observe(visible)

    observing = [(p, bot.observe) for p, bot in bots.items()]
    observers = [observe for _, observe in observing]
    deliver(engine.setup_events)  # the deal's events, as the table hands them over
    legal_actions, apply, can_act = engine.legal_actions, engine.apply, engine.can_act
    # Each seat with its bot, the bot's is_idle when its class answers one (else None: always asked)
    # and its view, asked only if the bot needs it.
    seats = [(p, bot, None if type(bot).is_idle is Bot.is_idle else bot.is_idle, partial(engine.view, p))
             for p, bot in bots.items()]
    max_actions = engine_cls.max_actions
    accepted = 0  # record.actions, kept in a local until the end
    # A figures hook with a tally counts the events a batch at a time; one without needs them all at
    # the end. The events not yet handed to the record (which packs them), in order:
    tally_cls = None if figures is None else getattr(figures, "tally", None)
    tally = None if tally_cls is None else tally_cls()
    batch = _BATCH if figures is None or tally is not None else sys.maxsize
    played: list[Event] = []
    while not engine.is_over:
        if accepted > max_actions:
            record.stopped = f"no end after {accepted} actions"
            break
        for player, bot, is_idle, view in seats:
            if player in plans or (is_idle is not None and is_idle()):
                continue  # an idle bot would choose nothing whatever its legal actions: not asked
            legal = legal_actions(player)
            if not legal:
                continue
            choice = bot.choose_lazily(legal, view)
            if choice is not None:
                plans[player] = choice
                due[player] = clock + bot.delay_ms()
        if not plans:
            # Nobody wants to move: the table's turn timer would fire for the first who can act.
            idle_rounds += 1
            waiting = engine.to_act()
            if not waiting or idle_rounds > 3:
                record.stopped = "no bot can move and the game is not over"
                break
            player = waiting[0]
            action = engine.timeout_action(player)
            if action is None:
                record.stopped = f"{player} has no timeout action"
                break
            plans[player] = action
            due[player] = clock + bots[player].delay_ms()
            continue
        idle_rounds = 0
        if len(due) == 1:
            player, soonest = next(iter(due.items()))
        else:
            soonest = min(due.values())
            tied = [p for p, when in due.items() if when == soonest]
            player = tied[0] if len(tied) == 1 else tiebreak.choice(sorted(tied))
        clock = soonest
        del due[player]
        action = plans.pop(player)
        try:
            events = apply(player, action)
        except IllegalAction:
            record.refused += 1
            continue
        accepted += 1
        played += events
        if len(played) >= batch:
            if tally is not None:
                tally.add(played)
            record._add(played)
            played = []
        deliver(events)
        # Plans made before this move may now be stale; they stay and are refused if they no
        # longer fit, except that a player who may no longer act at all drops theirs.
        if plans:
            for other in list(plans):
                if not can_act(other):
                    del plans[other], due[other]
    record.actions = accepted
    record.sim_ms = clock
    if tally is not None:
        tally.add(played)
        record.figures = dict(tally.figures(engine))
    elif figures is not None:
        record.figures = dict(figures(engine, played))  # played holds every event
    record._add(played)
    return record


@dataclass(frozen=True)
class Match:
    """The outcome of :func:`head_to_head`: games won by each side, shared, and stopped.

    A game whose winners include both sides (a shared win) counts in ``shared``; a game stopped at
    a safety limit counts in ``stopped`` and in neither side's wins.
    """

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    shared: int
    stopped: int

    @property
    def a_rate(self) -> float:
        """Side a's share of the decided games (0.0 to 1.0), a shared win counting half."""
        decided = self.games - self.stopped
        return (self.a_wins + self.shared / 2) / decided if decided else 0.0


def head_to_head(engine_cls: type[Engine], a: type[Bot], b: type[Bot], *, games: int, seed: int = 1,
                 options: Any = None, pacing: Pacing | None = None, seats: int = 2) -> Match:
    """Play *games* bot-only games of bot class *a* against *b* and count the wins.

    Seats alternate between the two classes and the first seat rotates from game to game, so
    neither side keeps a seat advantage. With *seats* > 2 the classes alternate around the
    table (a, b, a, b, …). With *pacing* (milliseconds) both sides react at the same speed, so
    the table measures strategy alone; without it each class keeps its own default pacing.

    Returns
    -------
    Match
        Side *a* wins a game when every winner plays *a*; likewise *b*; otherwise it is shared.
    """
    if pacing is not None:
        a = type(a.__name__, (a,), {"default_pacing": pacing})
        b = type(b.__name__, (b,), {"default_pacing": pacing})
    players = [f"seat{i}" for i in range(seats)]
    a_wins = b_wins = shared = stopped = 0
    for g in range(games):
        classes = [a if (i + g) % 2 == 0 else b for i in range(seats)]
        record = play_game(engine_cls, players, seed=seed + g, bot_classes=classes, options=options)
        result = record.engine.result() if record.stopped is None else None
        if result is None:
            stopped += 1
            continue
        sides = {classes[players.index(p)] for p in result.winners}
        if sides == {a}:
            a_wins += 1
        elif sides == {b}:
            b_wins += 1
        else:
            shared += 1
    return Match(a.name, b.name, games, a_wins, b_wins, shared, stopped)


def summarize(records: Sequence[GameRecord], figures: Any = None) -> dict[str, Any]:
    """Totals over many games: games, actions, refusals, wins per seat and summed/mean figures.

    Parameters
    ----------
    records:
        The games, all with the same seats.
    figures:
        The game's ``figures`` hook that counted the records' figures, for its ``means``: the
        figures that are values per game (:func:`bot.engine.game.mean_figures`). Without it every
        figure is a count.

    Returns
    -------
    dict
        ``{"games", "actions", "refused", "stopped", "wins_per_seat", "figures"}``. ``wins_per_seat``
        maps each seat's number, from ``"1"``, to its wins; a win shared by several seats counts for
        each of them. ``figures`` maps a count to ``{"total", "mean"}`` (its mean per game) and a
        value per game to ``{"mean"}`` (its mean over the games) alone. ``stopped`` counts the games
        the simulator stopped at a safety limit (their figures still count, their wins do not).
    """
    wins: dict[int, int] = {}
    totals: dict[str, float] = {}
    for rec in records:
        if rec.stopped is not None:
            continue
        result = rec.engine.result()
        if result is not None:
            for p in result.winners:
                seat = rec.engine.seat_of(p)
                wins[seat] = wins.get(seat, 0) + 1
        for name, value in rec.figures.items():
            totals[name] = totals.get(name, 0) + value
    n = max(1, len(records))
    means = frozenset(getattr(figures, "means", ()))
    return {
        "games": len(records),
        "actions": sum(r.actions for r in records),
        "refused": sum(r.refused for r in records),
        "stopped": sum(1 for r in records if r.stopped is not None),
        "wins_per_seat": {str(seat + 1): wins.get(seat, 0) for seat in range(len(records[0].engine.players))}
        if records else {},
        "figures": {name: {"mean": round(total / n, 3)} if name in means
                    else {"total": total, "mean": round(total / n, 3)} for name, total in totals.items()},
    }


def figures_of(game: Game) -> Any:
    """The ``figures`` hook of *game*'s declaration, or ``None``."""
    return game.figures


def bot_classes_for(game: Game, name: str | None, seats: int) -> list[type[Bot]]:
    """The bot class that *name* names at *game* (a strength, ``easy``, ``normal`` or ``hard``, or a bot
    kind; default ``normal``: :meth:`Game.bot_for <bot.engine.game.Game.bot_for>`), once per seat.

    Raises
    ------
    KeyError
        The game has no bots, or none that *name* names; the message lists the choices.
    """
    bots: Mapping[str, type[Bot]] = game.bots  # type: ignore[assignment]  # bot classes, by the declaration
    if not bots:
        raise KeyError(f"game {game.kind!r} has no bots")
    try:
        kind = game.bot_for(name)
    except KeyError:
        raise KeyError(f"game {game.kind!r} has no bot {name!r}; bots: {[*game.strengths, *sorted(bots)]}") from None
    return [bots[kind]] * seats
