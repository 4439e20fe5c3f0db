"""One declaration per game: everything Parlor builds per game is built from its :class:`Game`.

A game package exports ``GAME``, a :class:`Game` naming its engine, bots, summary, table UI, the
slash command's description and the options of a short game. The registry (:mod:`bot.engine`)
loads every declaration from the ``parlor.games`` entry-point group, so the core names no game and
a game can ship in a distribution of its own (``docs/design.md`` §7, CONTRIBUTING.md "Adding a
game"). The ``/<kind> new`` command, ``/rules``, ``/games``, the bot's table UIs, the test
parametrizations, the benchmarks and the README's table of games are built from the declarations.

>>> from bot.engine import GAMES
>>> GAMES["blitz"].title, GAMES["blitz"].players, GAMES["blitz"].rules_page
('Blitz (31)', (2, 8), 'docs/rules/blitz.md')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from bot.engine.core import Engine

__all__ = ["Game", "Measure", "TABLE_SETTINGS", "games_markdown", "mean_figures", "strength_pairs"]

_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def mean_figures(*names: str) -> Callable[[_Hook], _Hook]:
    """Declare figures of a game's ``figures`` hook that are values per game, not counts.

    A mean, a rate, a least or a most, a final score: adding one up over games makes no total, so
    the simulator's summary gives its mean over the games only (``bot.engine.simulate.summarize``),
    while a count has its total and its mean per game. The hook carries the names as its ``means``
    attribute (a hook that is an instance of a class of its own may set ``means`` on the class).

    >>> @mean_figures("avg_hand")
    ... def figures(engine, events):
    ...     return {"rounds": 2, "avg_hand": 7.5}
    >>> sorted(figures.means)
    ['avg_hand']
    """
    def declare(hook: _Hook) -> _Hook:
        vars(hook)["means"] = frozenset(names)
        return hook

    return declare


TABLE_SETTINGS = ("bot_speed", "race_window_ms", "pace")
"""The table settings a game's ``/<kind> new`` may offer besides its engine options (declared in
``bot.tables.settings``): how fast bots play, a race window of its own, Blitzkrieg's pace."""


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Measure:
    """One way a game's bots are measured against each other (``bench/bot_strengths.py`` plays it
    long; ``tests/engine/test_bot_strengths.py`` guards it with a modest bar).

    Attributes
    ----------
    options:
        The engine options of the games played (a game long enough to tell strengths apart).
    label:
        The rule set it measures (``"passive"``), or ``""`` for the game as a whole.
    games:
        Games per pairing in the guard test (seeded: the same games every run).
    """

    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""
    games: int = 30


@dataclass(frozen=True)
class Game:
    """A game, declared once.

    Attributes
    ----------
    engine:
        The engine class (``docs/design.md`` §2); its ``kind``, ``title``, player counts and
        ``Options`` are the game's.
    bots:
        Bot name to bot class (called as ``cls(player_id, rng)``), strongest first; the first is
        the one a table seats by default and that takes a seat a person left.
    summary:
        What ``/rules`` and a table's "How to play" say first: a few lines in the project's words.
    ui:
        Where the game's table UI lives, as ``"module:Class"`` (a :class:`~bot.tables.ui.GameUI`
        subclass). Only the Discord side imports it, so the declaration stays free of Discord.
    command:
        The description of the ``/<kind>`` command group (≤ 100 characters).
    tagline:
        What the game is, in a line (the README's and ``parlor games``' table).
    quick_options:
        Engine options that make a whole game short (one hand, one round, one life): what tests,
        demos and the sandbox play.
    variants:
        Further named rule sets whose boards differ (name to engine options), e.g. Dutch's
        ``aggressive``; tests play each as a case of its own.
    table_settings:
        The table settings its ``/<kind> new`` offers (names from :data:`TABLE_SETTINGS`).
    opened:
        The end of the private answer to ``/<kind> new``: what to do next in the new thread.
    figures:
        ``figures(engine, events) -> dict[str, float]``: per-game numbers for the simulator, or ``None``.
        The simulator adds them up over games, except those the hook declares values per game
        (:func:`mean_figures`), which it averages.
    narrate:
        ``narrate(event, name) -> str | None``: a public event in the game's own words, or ``None``.
    baseline:
        The bot that plays at random, which the weakest bot must beat (``None``: the generic
        :class:`~bot.engine.bots.RandomBot`).
    measures:
        How its bots are measured (:func:`strength_pairs`); none for a game whose bots have one
        strength.
    pictures:
        Where the game's moments worth a picture are read, as ``"module:function"`` (a
        ``cogs._pictures.MomentsOf``: public events, public view and names to the moments that
        ``bot.art.pictures`` draws), or ``""`` for none (``docs/art.md`` §7). Only the Discord side's
        table service imports it, so the declaration stays free of Pillow.
    """

    engine: type[Engine]
    bots: Mapping[str, Callable[..., Any]]
    summary: str
    ui: str
    command: str
    tagline: str = ""
    quick_options: Mapping[str, Any] = field(default_factory=dict)
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    table_settings: tuple[str, ...] = ("bot_speed",)
    opened: str = "press **Join** there."
    figures: Callable[..., Any] | None = None
    narrate: Callable[..., str | None] | None = None
    baseline: Callable[..., Any] | None = None
    measures: tuple[Measure, ...] = (Measure(),)
    pictures: str = ""

    def __post_init__(self) -> None:
        if not self.engine.kind:
            raise ValueError(f"{self.engine.__name__} has no kind")
        if ":" not in self.ui:
            raise ValueError(f"game {self.engine.kind!r}: ui must be 'module:Class', got {self.ui!r}")
        if self.pictures and ":" not in self.pictures:
            raise ValueError(f"game {self.engine.kind!r}: pictures must be 'module:function', got {self.pictures!r}")
        unknown = [s for s in self.table_settings if s not in TABLE_SETTINGS]
        if unknown:
            raise ValueError(f"game {self.engine.kind!r}: unknown table settings {unknown}; "
                             f"expected some of {TABLE_SETTINGS}")
        if not 0 < len(self.command) <= 100:
            raise ValueError(f"game {self.engine.kind!r}: command must be 1-100 characters, got {len(self.command)}")
        self.engine.Options(**self.quick_options)  # raises ValueError or TypeError naming a bad option
        for options in self.variants.values():
            self.engine.Options(**{**self.quick_options, **options})
        object.__setattr__(self, "bots", _frozen(self.bots))
        object.__setattr__(self, "quick_options", _frozen(self.quick_options))
        object.__setattr__(self, "variants", _frozen({k: _frozen(v) for k, v in self.variants.items()}))

    @property
    def kind(self) -> str:
        """The game's kind name (``dutch-blitz``): its slash command and its key everywhere."""
        return self.engine.kind

    @property
    def title(self) -> str:
        """The game's display name (``Dutch Blitz``)."""
        return self.engine.title or self.kind

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and most players, inclusive."""
        return self.engine.min_players, self.engine.max_players

    @property
    def players_text(self) -> str:
        """The player count in words: ``2–8``, or ``2`` for a game of exactly two."""
        lo, hi = self.players
        return str(lo) if lo == hi else f"{lo}–{hi}"

    @property
    def rules_page(self) -> str:
        """The game's rules page in the repository (``docs/rules/<kind>.md``)."""
        return f"docs/rules/{self.kind}.md"


def games_markdown(games: Mapping[str, Game]) -> str:
    """The Markdown table of *games* (kind to declaration), one row a game in kind order: name and
    kind, players, what it is, rules page. The README's table is this (``parlor games --markdown``).

    >>> from bot.engine import GAMES
    >>> games_markdown({"blitz": GAMES["blitz"]}).splitlines()[2].startswith("| **Blitz (31)** (`blitz`) | 2–8 |")
    True
    """
    rows = ["| game | players | what it is | rules page |", "| --- | --- | --- | --- |"]
    rows += [f"| **{g.title}** (`{g.kind}`) | {g.players_text} | {g.tagline} | [{g.rules_page}]({g.rules_page}) |"
             for _, g in sorted(games.items())]
    return "\n".join(rows)


def strength_pairs(game: Game) -> list[tuple[str, Callable[..., Any], Callable[..., Any], Measure]]:
    """Every pairing that measures *game*'s bots: each bot against the next weaker one, and the
    weakest against random play, under each of its :attr:`Game.measures`, as
    ``(id, stronger, weaker, measure)`` with ids such as ``"dutch-passive-perfect-over-forgetful"``.

    >>> from bot.engine import GAMES
    >>> [pair[0] for pair in strength_pairs(GAMES["blitz"])]
    ['blitz-heuristic-over-easy', 'blitz-easy-over-random']
    """
    from bot.engine.bots import RandomBot

    names = list(game.bots)
    pairs = [(a, game.bots[a], b, game.bots[b]) for a, b in zip(names, names[1:], strict=False)]
    if names:
        pairs.append((names[-1], game.bots[names[-1]], "random", game.baseline or RandomBot))
    return [("-".join(x for x in (game.kind, m.label, f"{a}-over-{b}") if x), strong, weak, m)
            for m in game.measures for a, strong, b, weak in pairs]
