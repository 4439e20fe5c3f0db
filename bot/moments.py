"""The moments of real seeded games, for the gallery and the leak tests (``docs/art.md`` §7).

Plays a seeded game of a declared kind with its bots (``bot.engine.simulate.play_game``), then
replays it move by move and asks the game's declared moments function (``Game.pictures``) what
each move's public events make, exactly as a table does after each committed move
(``bot/tables/pictures.py``). No game is named here: everything comes from the declarations.

Run ``python -m bot.moments [DIRECTORY]`` (``make gallery``; default ``docs/gallery``) to write
each game's first moment as ``<file>`` (``dutch-reveal.png``, ``blitz-showdown.png``, ...), a final
standings picture and a tournament's standings and bracket, each from seeded games.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from bot.art import card_key
from bot.art.pictures import Bracket, BracketMatch, Moment, Picture, StandingRow, Standings, render
from bot.engine import GAMES, Engine, Event
from bot.engine.simulate import bot_classes_for, play_game

__all__ = ["PlayedMoment", "gallery_moments", "gallery_pictures", "main", "moments_function", "played_moments",
           "public_cards", "tournament_moments", "write_moment_gallery"]

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")
"""The players' names in the seeded games (seat order)."""


def moments_function(kind: str) -> Callable[..., list[Moment]] | None:
    """The moments function game *kind* declares (``Game.pictures``), or ``None`` for none.

    Raises
    ------
    KeyError
        No game *kind* is declared.
    """
    where = GAMES[kind].pictures
    if not where:
        return None
    module, _, name = where.partition(":")
    found: Callable[..., list[Moment]] = getattr(importlib.import_module(module), name)
    return found


def public_cards(data: Any) -> set[str]:
    """The card keys (``docs/art.md`` §4) of every card in *data* (a view or an event's data): each dict
    with an ``id`` that looks like a card (a rank and suit, or a colour and value).
    """
    out: set[str] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            looks_like_card = {"rank", "suit"} <= node.keys() or {"colour", "value"} <= node.keys()
            if isinstance(node.get("id"), str) and looks_like_card:
                out.add(card_key(node))
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
    return out


@dataclass(frozen=True)
class PlayedMoment:
    """A moment of a seeded game: the moment, the card keys every player had seen face up by then (in
    public events or the public view), and the number of the move that made it (1 = the first).
    """

    moment: Moment
    public: frozenset[str]
    move: int


def played_moments(kind: str, *, seed: int, players: int = 3, options: dict[str, Any] | None = None,
                   ) -> Iterator[PlayedMoment]:
    """Play a seeded game of *kind* (its first bot in every seat, its short game's options unless
    *options*) and yield each moment its moves make, in order, then its final standings.

    Raises
    ------
    KeyError
        No game *kind* is declared.
    """
    game = GAMES[kind]
    lo, hi = game.players
    seats = list(NAMES[:max(lo, min(players, hi))])
    chosen = dict(game.quick_options) if options is None else options
    record = play_game(game.engine, seats, seed=seed, bot_classes=bot_classes_for(game, None, len(seats)),
                       options=game.engine.Options(**chosen))
    log = record.engine.log()
    engine: Engine = game.engine.new(log["players"], seed=log["seed"], options=log["options"])
    found = moments_function(kind)
    seen = public_cards(engine.view(None)) | _cards_of(engine.setup_events)
    for n, (player, action) in enumerate(log["actions"], 1):
        events = engine.apply(player, action)
        public = [e for e in events if e.audience is None]
        seen |= _cards_of(public) | public_cards(engine.view(None))
        if found is not None and public:
            for moment in found(public, lambda: engine.view(None), str):
                yield PlayedMoment(moment, frozenset(seen), n)
    result = engine.result()
    if result is not None:
        rows = tuple(StandingRow(rank, p, _number(result.scores.get(p, 0)))
                     for p, rank in sorted(result.ranks.items(), key=lambda kv: (kv[1], kv[0])))
        yield PlayedMoment(Standings(f"{game.title}: final standings", rows), frozenset(seen), len(log["actions"]))


def _cards_of(events: Sequence[Event]) -> set[str]:
    return public_cards([e.data for e in events if e.audience is None])


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def tournament_moments(kind: str, *, seed: int, field: int = 8) -> tuple[Standings, Bracket]:
    """A seeded single-elimination tournament of *kind* among *field* players (a power of two), each
    match a seeded two-player game with the game's bots: its standings and its bracket.
    """
    game = GAMES[kind]
    rng = Random(seed)
    alive = list(NAMES[:field])
    rounds: list[tuple[BracketMatch, ...]] = []
    wins = {p: 0 for p in alive}
    played = {p: 0 for p in alive}
    out_in: dict[str, int] = {}
    bots = bot_classes_for(game, None, 2)
    number = 0
    while len(alive) > 1:
        matches, next_alive = [], []
        for a, b in zip(alive[0::2], alive[1::2], strict=True):
            number += 1
            record = play_game(game.engine, [a, b], seed=seed * 1000 + number, bot_classes=bots,
                               options=game.engine.Options(**game.quick_options))
            result = record.engine.result()
            winners = list(result.winners) if result is not None else []
            winner = winners[0] if len(winners) == 1 else rng.choice([a, b])
            loser = b if winner == a else a
            wins[winner] += 1
            played[a] += 1
            played[b] += 1
            out_in[loser] = len(rounds) + 1
            matches.append(BracketMatch((a, b), winner))
            next_alive.append(winner)
        rounds.append(tuple(matches))
        alive = next_alive
    rounds.append((BracketMatch((alive[0], ""), alive[0]),))
    order = sorted(wins, key=lambda p: (-out_in.get(p, len(rounds)), -wins[p], p))
    rank_of: dict[str, int] = {}
    for i, p in enumerate(order):
        prev = order[i - 1] if i else None
        same = prev is not None and out_in.get(prev) == out_in.get(p) and wins[prev] == wins[p]
        rank_of[p] = rank_of[prev] if same and prev is not None else i + 1
    rows = tuple(StandingRow(rank_of[p], p, str(wins[p]), (str(played[p]),)) for p in order)
    title = f"{game.title} cup"
    return (Standings(f"{title}: standings", rows, ("wins", "games"), "tournament-standings.png"),
            Bracket(f"{title}: bracket", tuple(rounds)))


def gallery_pictures(seed: int = 1) -> dict[str, Picture]:
    """:func:`gallery_moments` drawn: file name to picture."""
    return {name: render(moment) for name, moment in gallery_moments(seed).items()}


def gallery_moments(seed: int = 1) -> dict[str, Moment]:
    """Each declared game's first moment (by its picture's file name) from seeded games (seeds *seed*,
    *seed* + 1, ... until the game makes a moment), a final standings and a tournament's standings
    and bracket.
    """
    out: dict[str, Moment] = {}
    for kind in sorted(GAMES):
        if moments_function(kind) is None:
            continue
        for attempt in range(seed, seed + 20):
            first = next((m for m in played_moments(kind, seed=attempt) if not isinstance(m.moment, Standings)), None)
            if first is not None:
                out.setdefault(render(first.moment).filename, first.moment)
                break
    kinds = sorted(k for k in GAMES if moments_function(k) is not None)
    if kinds:
        last = list(played_moments(kinds[-1], seed=seed, players=4))[-1]
        out["standings.png"] = last.moment
        out["tournament-standings.png"], out["tournament-bracket.png"] = tournament_moments(kinds[0], seed=seed)
    return out


def write_moment_gallery(directory: Path, seed: int = 1) -> list[Path]:
    """Write :func:`gallery_pictures` into *directory* (created if need be); returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, picture in sorted(gallery_pictures(seed).items()):
        path = directory / name
        path.write_bytes(picture.png)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m bot.moments [DIRECTORY]``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: python -m bot.moments [DIRECTORY]   (default docs/gallery)", file=sys.stderr)
        return 2
    for path in write_moment_gallery(Path(args[0] if args else "docs/gallery")):
        print(f"{path} {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
