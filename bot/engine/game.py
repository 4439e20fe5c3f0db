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
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, TypeVar

from bot.engine.core import Engine

__all__ = ["BotChoice", "DEFAULT_STRENGTH", "Game", "Measure", "STRENGTHS", "TABLE_SETTINGS", "games_markdown",
           "mean_figures", "pick_bot", "strength_pairs"]

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


STRENGTHS = ("easy", "normal", "hard")
"""The bot strengths every game offers, weakest first (``docs/tables.md``, "Bots")."""

DEFAULT_STRENGTH = "normal"
"""The strength a plain **Add bot**, a seat a person left and ``parlor simulate`` get."""


@dataclass(frozen=True)
class BotChoice:
    """One strength of a game's bots: which bot plays it, and how it plays in one line.

    Attributes
    ----------
    bot:
        The bot's kind: a key of :attr:`Game.bots` (what a seat stores, so replays name the bot
        exactly).
    description:
        How it plays, in one line of at most 100 characters (the Add-bot menu's option description).
    """

    bot: str
    description: str


def pick_bot(bots: Mapping[str, Any], strengths: Mapping[str, BotChoice], choice: str | None) -> str:
    """The bot kind (a key of *bots*) that *choice* names: a strength (``easy``, ``normal``, ``hard``),
    a bot kind itself (names stored by older tables keep working), or ``None`` for
    :data:`DEFAULT_STRENGTH`. A game that declares no strengths plays its first bot at every strength.

    >>> pick_bot({"sharp": 1, "dull": 2}, {"hard": BotChoice("sharp", "x"), "normal": BotChoice("dull", "y"),
    ...          "easy": BotChoice("dull", "z")}, None)
    'dull'
    >>> pick_bot({"only": 1}, {}, "hard"), pick_bot({"sharp": 1, "dull": 2}, {}, "dull")
    ('only', 'dull')

    Raises
    ------
    KeyError
        No bots, or *choice* is neither a strength nor one of *bots* (the message lists them).
    """
    if not bots:
        raise KeyError("this game has no bots")
    choice = choice or DEFAULT_STRENGTH
    if choice in strengths:
        return strengths[choice].bot
    if choice in bots:
        return choice
    if choice in STRENGTHS and not strengths:
        return next(iter(bots))
    raise KeyError(f"no bot {choice!r}; pick one of {', '.join(strengths or bots)}")


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
    bar:
        The share of those games (a shared win counts half) the stronger bot must win there.
    baseline_games:
        Games for the easy bot against random play (a wide margin needs few), or ``None``: ``games``.
    """

    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""
    games: int = 30
    bar: float = 0.6
    baseline_games: int | None = None


@dataclass(frozen=True)
class Game:
    """A game, declared once.

    Attributes
    ----------
    engine:
        The engine class (``docs/design.md`` §2); its ``kind``, ``title``, player counts and
        ``Options`` are the game's.
    bots:
        Bot kind to bot class (called as ``cls(player_id, rng)``), strongest first. Seats store
        the kind; a person picks a strength (:attr:`strengths`).
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
    coach:
        Where the game's coach for practice tables (``/learn``) lives, as ``"module:function"``: a
        pure ``coach(moment) -> Lesson`` (:mod:`bot.engine.coach`) that explains the learner's
        moves and the others' in the rules' words; ``""``: a plain coach naming the moves only.
        How its bots are measured (:func:`strength_pairs`); none for a game whose strengths cannot
        be told apart.
    strengths:
        Each of :data:`STRENGTHS` to the :class:`BotChoice` that plays it: what the lobby's Add-bot
        menu offers (``normal`` by default, :data:`DEFAULT_STRENGTH`), the bot a seat a person left
        gets, ``parlor simulate --bot`` and the strength guard. Empty: every strength is the first bot.
    accent:
        The accent colour (``0xRRGGBB``, an int) of the Container of every message of its tables
        (Components V2, ``docs/tables.md``, "Message layouts"); distinct per game and readable on
        Discord's light and dark themes. Default: Discord's blurple.
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
    coach: str = ""
    strengths: Mapping[str, BotChoice] = field(default_factory=dict)
    accent: int = 0x5865F2
    pictures: str = ""

    def __post_init__(self) -> None:
        if not self.engine.kind:
            raise ValueError(f"{self.engine.__name__} has no kind")
        if ":" not in self.ui:
            raise ValueError(f"game {self.engine.kind!r}: ui must be 'module:Class', got {self.ui!r}")
        if self.coach and ":" not in self.coach:
            raise ValueError(f"game {self.engine.kind!r}: coach must be 'module:function', got {self.coach!r}")
        if self.pictures and ":" not in self.pictures:
            raise ValueError(f"game {self.engine.kind!r}: pictures must be 'module:function', got {self.pictures!r}")
        unknown = [s for s in self.table_settings if s not in TABLE_SETTINGS]
        if unknown:
            raise ValueError(f"game {self.engine.kind!r}: unknown table settings {unknown}; "
                             f"expected some of {TABLE_SETTINGS}")
        if not 0 < len(self.command) <= 100:
            raise ValueError(f"game {self.engine.kind!r}: command must be 1-100 characters, got {len(self.command)}")
        if not 0 <= self.accent <= 0xFFFFFF:
            raise ValueError(f"game {self.engine.kind!r}: accent must be a colour 0x000000-0xFFFFFF, "
                             f"got {self.accent:#x}")
        self.engine.Options(**self.quick_options)  # raises ValueError or TypeError naming a bad option
        for options in self.variants.values():
            self.engine.Options(**{**self.quick_options, **options})
        if self.strengths and sorted(self.strengths) != sorted(STRENGTHS):
            raise ValueError(f"game {self.engine.kind!r}: strengths must be exactly {STRENGTHS}, "
                             f"got {tuple(self.strengths)}")
        for strength, choice in self.strengths.items():
            if choice.bot not in self.bots:
                raise ValueError(f"game {self.engine.kind!r}: strength {strength!r} names no bot {choice.bot!r}")
            if not 0 < len(choice.description) <= 100:
                raise ValueError(f"game {self.engine.kind!r}: the {strength} description must be 1-100 characters")
        object.__setattr__(self, "bots", _frozen(self.bots))
        object.__setattr__(self, "strengths", _frozen({s: self.strengths[s] for s in STRENGTHS
                                                       if s in self.strengths}))
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

    def bot_for(self, strength: str | None = None) -> str:
        """The bot kind (a key of :attr:`bots`) that plays *strength* (``easy``, ``normal``, ``hard``;
        ``None``: :data:`DEFAULT_STRENGTH`); a bot kind is answered as itself (:func:`pick_bot`).

        >>> from bot.engine import GAMES
        >>> GAMES["dutch"].bot_for("hard"), GAMES["dutch"].bot_for("easy"), GAMES["dutch"].bot_for("perfect")
        ('perfect', 'forgetful', 'perfect')

        Raises
        ------
        KeyError
            The game has no bots, or *strength* is neither a strength nor a bot kind.
        """
        return pick_bot(self.bots, self.strengths, strength)

    def strength_of(self, bot: str) -> str | None:
        """The strength bot kind *bot* plays (the hardest that names it), or ``None`` if none does."""
        return next((s for s in reversed(STRENGTHS) if s in self.strengths and self.strengths[s].bot == bot), None)

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


def strength_pairs(game: Game, measures: tuple[Measure, ...] | None = None
                   ) -> list[tuple[str, Callable[..., Any], Callable[..., Any], Measure]]:
    """Every pairing that measures *game*'s bots, under each of *measures* (default its
    :attr:`Game.measures`), as ``(id, stronger, weaker, measure)``: each strength against the next
    weaker one (``hard`` over ``normal`` over ``easy``), and ``easy`` against random play (unless the
    easy bot is random play), with ids such as ``"dutch-passive-hard-over-normal"``. A game that
    declares no strengths pairs its bots in their order, strongest first.

    >>> from bot.engine import GAMES
    >>> [pair[0] for pair in strength_pairs(GAMES["blitz"])]
    ['blitz-hard-over-normal', 'blitz-normal-over-easy', 'blitz-easy-over-random']
    """
    from bot.engine.bots import RandomBot

    if game.strengths:
        named = [(s, game.bots[game.strengths[s].bot]) for s in reversed(STRENGTHS)]
    else:
        named = list(game.bots.items())
    pairs = [(a, strong, b, weak) for (a, strong), (b, weak) in zip(named, named[1:], strict=False)]
    baseline: Any = game.baseline or RandomBot
    weakest = named[-1][1] if named else None
    if weakest is not None and not (isinstance(weakest, type) and issubclass(weakest, baseline)):
        pairs.append((named[-1][0], weakest, "random", baseline))
    return [("-".join(x for x in (game.kind, m.label, f"{a}-over-{b}") if x), strong, weak,
             m if b != "random" or m.baseline_games is None else replace(m, games=m.baseline_games))
            for m in (game.measures if measures is None else measures) for a, strong, b, weak in pairs]
