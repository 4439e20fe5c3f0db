"""The ``parlor`` command line.

::

    parlor [--config FILE] run                 start the bot
    parlor [--config FILE] sync [--guild ID]   register slash commands and upload the card emojis
    parlor [--config FILE] migrate [--db URL]  bring the database schema up to date
    parlor db copy SRC DST                     copy a SQLite database's rows into a new (PostgreSQL) one
    parlor [--config FILE] replay GAME_ID [--player SEAT] [--db PATH]
                                               a stored game told move by move
    parlor [--config FILE] ratings rebuild [--db PATH]
                                               recompute every rating from the stored results
    parlor [--config FILE] tournament export ID [--matches] [--db PATH]
                                               a tournament's standings (or matches) as CSV
    parlor simulate KIND [--players N] [--games G] [--seed S] [--bot STRENGTH] [--json]
                         [--replay FILE] [--<option> VALUE ...]
                                               bot-only games offline

``replay``, ``ratings`` and ``tournament`` read an existing database (``--db``, else
``PARLOR_DATABASE_URL`` / ``database.url``, else ``PARLOR_DB`` / ``database.path``) and never create one;
``--db`` takes a SQLite path (or ``sqlite:PATH``) or a PostgreSQL URL (``postgresql://…``). Bad
arguments and bad configuration exit with status 2 and a message that names the key or flag and what was
expected; nothing is started.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import typing
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.options import describe_options

__all__ = ["main", "build_parser", "simulate_parser"]


RUN_EPILOG = """\
The bot needs its token: DISCORD_TOKEN (or discord.token in the config file).

Configuration: --config FILE, else $PARLOR_CONFIG, else ./config.toml if present (see
config.example.toml). Environment variables win over the file:
  DISCORD_TOKEN      discord.token      the bot token (required)
  PARLOR_CONFIG      the config file
  PARLOR_DB          database.path      SQLite file (default ./parlor.db)
  PARLOR_DATABASE_URL database.url      postgresql://user:pass@host:port/db (wins over database.path)
  PARLOR_LOG_LEVEL   logging.level      DEBUG, INFO (default), WARNING, ERROR, CRITICAL
  DISCORD_API_BASE   discord.api_base   another Discord's REST base (with DISCORD_GATEWAY)
  DISCORD_GATEWAY    discord.gateway    another Discord's gateway URL (with DISCORD_API_BASE)

Slash commands appear in Discord only after `parlor sync` (once, and after upgrades).
Bad configuration exits with status 2 and a message naming the key."""


SYNC_EPILOG = """\
The bot's token: DISCORD_TOKEN (or discord.token in the config file). DISCORD_API_BASE and
DISCORD_GATEWAY point it at another Discord.

Exit status (each failure is one line on stderr saying what failed):
  0  the slash commands and the card emojis are synced
  1  Discord cannot be reached (the network, or DISCORD_API_BASE), or it failed (5xx): try again
  2  the token or the configuration is bad, or Discord refuses the commands or an emoji
     (e.g. --guild names a server the bot was not invited to)"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("parlor")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The top-level argument parser (``simulate`` options are parsed per game)."""
    parser = argparse.ArgumentParser(prog="parlor", description="Parlor, a Discord bot that hosts card games.")
    parser.add_argument("--version", action="version", version=f"parlor {_version()}")
    parser.add_argument("--config", metavar="FILE", help="TOML config file (default: $PARLOR_CONFIG or ./config.toml)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sub.add_parser("run", help="start the bot", description="Start the bot (migrates the database first).",
                   epilog=RUN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sync = sub.add_parser("sync", help="register slash commands and upload the card emojis to Discord",
                          description="Register the slash commands with Discord, then upload the card "
                                      "pictures as the application's emojis (only the missing ones; "
                                      "those of an older art version are deleted).",
                          epilog=SYNC_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sync.add_argument("--guild", type=_snowflake, metavar="ID",
                      help="sync to one guild (instant) instead of globally")
    migrate = sub.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument("--db", metavar="URL", help="the database (a SQLite path or postgresql://...; default: "
                                                     "database.url, else database.path)")
    db = sub.add_parser("db", help="database maintenance: copy a SQLite database into PostgreSQL",
                        description="copy SRC DST: every row of the SQLite database SRC into DST (a PostgreSQL "
                                    "URL, or a SQLite path), which is created or migrated and must hold no rows. "
                                    "Stop the bot first.")
    db.add_argument("action", choices=["copy"])
    db.add_argument("src", metavar="SRC", help="the SQLite database to read (a path or sqlite:PATH)")
    db.add_argument("dst", metavar="DST", help="the database to fill (postgresql://... or a SQLite path)")
    sub.add_parser("health", help="exit 0 if the running bot's heartbeat file is fresh (container health checks)")
    replay = sub.add_parser("replay", help="tell a stored game move by move, as a spectator or one player saw it",
                            description="Tell a stored game move by move, as a spectator or one player saw it.",
                            epilog=DB_EPILOG)
    replay.add_argument("game", type=_positive, metavar="GAME_ID", help="the game's id (its table number)")
    replay.add_argument("--player", metavar="SEAT|USER_ID",
                        help="one player's view (seat number from 1, user id or player id), for reviewing a dispute")
    _add_db_argument(replay)
    ratings = sub.add_parser("ratings", help="ratings maintenance", epilog=DB_EPILOG)
    ratings.add_argument("action", choices=["rebuild"], help="rebuild: recompute every rating from the results")
    _add_db_argument(ratings)
    tournament = sub.add_parser("tournament", help="tournaments: export the standings or matches as CSV",
                                epilog=DB_EPILOG)
    tournament.add_argument("action", choices=["export"], help="export: print a tournament as CSV")
    tournament.add_argument("tournament", type=_positive, metavar="ID", help="the tournament's number")
    tournament.add_argument("--matches", action="store_true", help="every match instead of the standings")
    _add_db_argument(tournament)
    games = sub.add_parser("games", help="list the installed games (Parlor's and any declared by other packages)")
    games.add_argument("--markdown", action="store_true", help="as the README's Markdown table")
    sim = sub.add_parser("simulate", help="play bot-only games offline", add_help=False)
    sim.add_argument("kind", nargs="?", help="game kind")
    return parser


DB_EPILOG = ("It reads an existing database and creates none: a path where there is no file is an error "
             "(exit status 2).")


def _add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db PATH`` of the commands that read the bot's database (:func:`_database_to_read`)."""
    parser.add_argument("--db", metavar="PATH|URL",
                        help="the bot's database: a SQLite path or a postgresql:// URL (default: "
                             "$PARLOR_DATABASE_URL / database.url, else $PARLOR_DB / database.path, else ./parlor.db)")


def _database_to_read(config: Any, db: str | None, command: str) -> Any | None:
    """*config* with ``database.path`` set to *db* when given, or ``None`` (after one line on stderr) when
    there is no database file at the path: the commands that read the database never create one.

    Parameters
    ----------
    config:
        The loaded :class:`bot.config.Config`.
    db:
        ``--db PATH``, which wins over ``PARLOR_DB`` and ``database.path``; ``None`` when not given.
    command:
        The command's name, for the message (``replay``).
    """
    from bot.config import DatabaseConfig
    from bot.storage.postgres import is_postgres_url
    from bot.storage.repository import sqlite_path

    if db is not None:
        config = dataclasses.replace(config, database=dataclasses.replace(config.database, url=db))
        origin = "from --db"
    elif config.database.url.strip():
        origin = "from PARLOR_DATABASE_URL" if os.environ.get("PARLOR_DATABASE_URL") else "database.url"
    elif os.environ.get("PARLOR_DB"):
        origin = "from PARLOR_DB"
    elif config.source is not None and config.database.path != DatabaseConfig().path:
        origin = f"database.path in {config.source}"
    else:
        origin = "the default"
    target = config.database.target
    if is_postgres_url(target):  # a server: open_storage says why when it cannot be reached
        return config
    path = sqlite_path(target)
    if path == ":memory:" or os.path.exists(path):  # a directory or an unreadable file: open_storage says why
        return config
    print(f"parlor {command}: there is no database {path!r} ({origin}); name the bot's database with "
          "--db PATH or PARLOR_DB (nothing was created)", file=sys.stderr)
    return None


def _snowflake(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 2**64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord id (expected a snowflake, digits only)")
    return int(text)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value}")
    return value


def simulate_parser(kind: str) -> argparse.ArgumentParser:
    """The parser of ``parlor simulate KIND``: common flags plus one flag per field of the game's options.

    Raises
    ------
    KeyError
        *kind* is not a registered game.
    """
    from bot.engine import get_game

    game = get_game(kind)
    engine = game.engine
    bots = [*game.strengths, *game.bots] if game.bots else []  # a strength, or a bot kind by name
    parser = argparse.ArgumentParser(prog=f"parlor simulate {kind}",
                                     description=f"Play bot-only {engine.title or kind} games offline.")
    parser.add_argument("--players", type=int, default=engine.min_players if engine.min_players == engine.max_players
                        else min(4, engine.max_players),
                        help=f"seats, {engine.min_players}-{engine.max_players}")
    parser.add_argument("--games", type=_positive, default=10, help="how many games")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed+i)")
    default_bot = ("normal" if game.strengths else game.bot_for()) if bots else None
    parser.add_argument("--bot", choices=bots or None, default=default_bot,
                        help="which bot plays: a strength (easy, normal, hard) or a bot by kind; default normal")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of text")
    parser.add_argument("--replay", metavar="FILE", help="write each game's action log as a JSON line to FILE")
    parser.add_argument("--verbose", action="store_true",
                        help="tell each game move by move in words (what a spectator sees) before its line")
    group = parser.add_argument_group("game options", "the table options of the game (docs/rules/ of each game)")
    for spec in describe_options(engine.Options):
        flag = "--" + spec.name.replace("_", "-")
        text = f"{spec.help}; {spec.allowed} (default {spec.default!r})"
        if spec.type is bool:
            group.add_argument(flag, dest=f"opt_{spec.name}", action=argparse.BooleanOptionalAction, default=None,
                               help=text)
        else:
            group.add_argument(flag, dest=f"opt_{spec.name}", type=spec.type, default=None, help=text,
                               metavar=spec.type.__name__.upper())
    return parser


def run_simulation(kind: str, argv: Sequence[str], out: typing.TextIO | None = None) -> int:
    """Run ``parlor simulate KIND`` with *argv*, printing to *out* (default stdout); returns the exit status."""
    out = out or sys.stdout
    from bot.engine import get_game
    from bot.engine.simulate import bot_classes_for, figures_of, play_game, summarize

    parser = simulate_parser(kind)
    args = parser.parse_args(argv)
    game = get_game(kind)
    engine_cls = game.engine
    if not engine_cls.min_players <= args.players <= engine_cls.max_players:
        parser.error(f"--players: {engine_cls.title or kind} takes {engine_cls.min_players}-"
                     f"{engine_cls.max_players} players, got {args.players}")
    overrides = {k[4:]: v for k, v in vars(args).items() if k.startswith("opt_") and v is not None}
    try:
        options = engine_cls.Options(**overrides)
    except (TypeError, ValueError) as exc:
        parser.error(f"bad game option: {exc}")
    players = [f"seat{i}" for i in range(1, args.players + 1)]  # seats are numbered from 1 in all it prints
    records = []
    replay = open(args.replay, "w", encoding="utf-8") if args.replay else None
    try:
        for i in range(args.games):
            seed = args.seed + i
            rec = play_game(engine_cls, players, seed=seed, options=options,
                            bot_classes=bot_classes_for(game, args.bot, args.players),
                            figures=figures_of(game))
            records.append(rec)
            if args.verbose:
                from bot.engine.narrate import play_by_play

                print(f"--- game {i + 1} (seed {seed}) ---", file=out)
                for told in play_by_play(engine_cls, rec.engine.log()):
                    print(told, file=out)
            result = None if rec.stopped else rec.engine.result()
            winners = [rec.engine.seat_of(p) + 1 for p in result.winners] if result else []
            line = {"game": i + 1, "seed": seed, "actions": rec.actions, "refused": rec.refused,
                    "sim_seconds": round(rec.sim_ms / 1000, 1), "winning_seats": winners,
                    "scores": dict(result.scores) if result else {}, "stopped": rec.stopped, **rec.figures}
            if args.json:
                print(json.dumps(line), file=out)
            else:
                figs = " ".join(f"{k}={_fmt(v)}" for k, v in rec.figures.items())
                outcome = f"STOPPED ({rec.stopped})" if rec.stopped else f"winner seat(s) {winners}"
                print(f"game {i + 1:>4} seed {seed}: {rec.actions} actions, {outcome}, "
                      f"{rec.sim_ms / 1000:.0f} s simulated{' | ' + figs if figs else ''}", file=out)
            if replay is not None:
                replay.write(json.dumps(rec.engine.log()) + "\n")
    finally:
        if replay is not None:
            replay.close()
    summary = summarize(records, figures_of(game))
    summary.update(kind=kind, players=args.players, bot=args.bot, options=dataclasses.asdict(options))
    if args.json:
        print(json.dumps({"summary": summary}), file=out)
    else:
        print(f"\n{summary['games']} games of {engine_cls.title or kind}, {args.players} x {args.bot} bot", file=out)
        print(f"actions: {summary['actions']} (mean {summary['actions'] / max(1, summary['games']):.1f} per game), "
              f"refused as stale: {summary['refused']}", file=out)
        if summary["stopped"]:
            print(f"stopped at a safety limit: {summary['stopped']} game(s)", file=out)
        print("wins per seat: " + ", ".join(f"seat {s}: {n}" for s, n in summary["wins_per_seat"].items()), file=out)
        for name, fig in summary["figures"].items():  # a count has its total, a value per game its mean alone
            if "total" in fig:
                print(f"{name}: total {_fmt(fig['total'])}, mean {_fmt(fig['mean'])} per game", file=out)
            else:
                print(f"{name}: mean {_fmt(fig['mean'])} over the games", file=out)
    return 0


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def print_games(*, markdown: bool = False) -> int:
    """``parlor games``: every installed game (``bot.engine.GAMES``), one a line, or with *markdown*
    the README's table (``bot.engine.game.games_markdown``); returns 0.
    """
    from bot.engine import GAMES
    from bot.engine.game import games_markdown

    if markdown:
        print(games_markdown(GAMES))
        return 0
    for kind, game in sorted(GAMES.items()):
        print(f"{kind:<12} {game.title}, {game.players_text} players: {game.tagline} ({game.rules_page})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``parlor`` console script; returns the exit status."""
    from bot.config import ConfigError, load_config

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "simulate":
        from bot.engine import REGISTRY

        if args.kind is None or args.kind in ("-h", "--help"):
            def seats(k: str) -> str:
                lo, hi = REGISTRY[k].min_players, REGISTRY[k].max_players
                return f"{lo} players" if lo == hi else f"{lo}-{hi} players"

            games = "\n".join(f"  {k:<12} {REGISTRY[k].title}, {seats(k)}" for k in sorted(REGISTRY))
            text = (f"usage: parlor simulate KIND [options]\n\nPlay bot-only games offline. KIND is one of:\n"
                    f"{games}\n\n`parlor simulate KIND --help` lists that game's options.\n")
            asked = args.kind is not None or any(a in ("-h", "--help") for a in rest)
            print(text, end="", file=sys.stdout if asked else sys.stderr)
            return 0 if asked else 2
        if args.kind not in REGISTRY:
            parser.error(f"simulate: unknown game {args.kind!r}; expected one of: {', '.join(sorted(REGISTRY))}")
        return _into_a_closed_pipe_quietly(lambda: run_simulation(args.kind, rest))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "games":
        return _into_a_closed_pipe_quietly(lambda: print_games(markdown=args.markdown))
    try:
        config = load_config(args.config)
        if args.command == "run":
            from bot.client import run_bot

            config.require_token()
            _setup_logging(config)
            asyncio.run(run_bot(config))
        elif args.command == "sync":
            config.require_token()
            _setup_logging(config)
            return asyncio.run(_sync(config, args.guild))
        elif args.command == "health":
            return _health(config)
        elif args.command in ("replay", "tournament", "ratings"):
            reading = _database_to_read(config, args.db, args.command)
            if reading is None:
                return 2
            if args.command == "replay":
                return _into_a_closed_pipe_quietly(lambda: asyncio.run(_replay(reading, args.game, args.player)))
            if args.command == "tournament":
                return _into_a_closed_pipe_quietly(
                    lambda: asyncio.run(_export_tournament(reading, args.tournament, args.matches)))
            rated = asyncio.run(_rebuild_ratings(reading))
            print(f"ratings rebuilt from {rated} rated game(s)")
        elif args.command == "migrate":
            if args.db is not None:
                from bot.config import _validate_database_url

                _validate_database_url(args.db, "--db")
                config = dataclasses.replace(config, database=dataclasses.replace(config.database, url=args.db))
            version = asyncio.run(_migrate(config))
            print(f"database {_shown(config.database.target)} is at schema version {version}")
        elif args.command == "db":
            return asyncio.run(_copy_database(config, args.src, args.dst))
    except ConfigError as exc:
        print(f"parlor: configuration error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def _into_a_closed_pipe_quietly(command: Callable[[], int]) -> int:
    """Run a command that prints to stdout, ending quietly if the reader of stdout has gone.

    ``parlor simulate … | head`` and ``parlor replay N | head``: the reader has all it wants, so the
    ``BrokenPipeError`` is no error; stdout is pointed at the null device so that nothing is left to
    flush (and fail, with a traceback) at exit.

    Parameters
    ----------
    command:
        The command's body; returns its exit status.

    Returns
    -------
    int
        The command's exit status, or 0 when the reader closed stdout before it was done.
    """
    try:
        status = command()
        sys.stdout.flush()  # the last buffered lines fail here, not at exit
        return status
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


THIRD_PARTY_LOGGERS = ("discord", "aiosqlite", "asyncio", "aiohttp", "websockets")
"""Libraries whose loggers stay at ``logging.third_party_level`` (INFO by default), whatever Parlor's level."""


def _setup_logging(config: Any) -> None:
    """Log to stderr with discord.py's formatter: Parlor at ``logging.level``, libraries at the higher
    of that and ``logging.third_party_level`` (INFO unless asked: their DEBUG output holds seeds and boards).
    """
    import logging

    import discord

    level = getattr(logging, config.logging.level.upper())
    discord.utils.setup_logging(level=level, root=True)
    third = max(level, getattr(logging, config.logging.third_party_level.upper()))
    for name in THIRD_PARTY_LOGGERS:
        logging.getLogger(name).setLevel(third)


def _health(config: Any) -> int:
    """``parlor health``: 0 when ``health.heartbeat_file`` was touched within three heartbeats, else 1."""
    import time
    from pathlib import Path

    from bot.config import ConfigError

    if not config.health.heartbeat_file:
        raise ConfigError("PARLOR_HEARTBEAT_FILE / health.heartbeat_file",
                          "is not set; expected the file the running bot touches (see config.example.toml)")
    path = Path(config.health.heartbeat_file)
    limit = 3 * config.health.heartbeat_seconds
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        print(f"parlor health: no heartbeat file {str(path)!r} yet: the bot is not connected", file=sys.stderr)
        return 1
    if age > limit:
        print(f"parlor health: the last heartbeat is {age:.0f} s old (more than {limit} s)", file=sys.stderr)
        return 1
    print(f"healthy: heartbeat {age:.0f} s ago")
    return 0


async def _replay(config: Any, game_id: int, player: str | None) -> int:
    """``parlor replay``: print a stored game in words; 1 when it cannot be told."""
    from bot.client import open_storage
    from bot.ratings.replays import load_game, tell

    async with open_storage(config) as storage:
        try:
            game = await load_game(storage, game_id)
            viewer = game.player(player) if player else None
        except (LookupError, ValueError) as exc:
            print(f"parlor replay: {exc}", file=sys.stderr)
            return 1
    print(f"{game.row.kind} game {game_id} ({game.row.status}), "
          f"seen by {game.name(viewer) if viewer else 'a spectator'}:")
    for line in tell(game, viewer=viewer):
        print(line)
    return 0


async def _export_tournament(config: Any, tournament_id: int, matches: bool) -> int:
    """``parlor tournament export``: print a tournament's standings (or matches) as CSV; 1 when there is none."""
    from typing import cast

    from bot.client import open_storage
    from bot.tournaments.service import TournamentError, TournamentService

    async with open_storage(config) as storage:
        # The export reads storage only: no table service is needed.
        service = TournamentService(storage, config.tournaments, cast(Any, None))
        try:
            state = await service.load(tournament_id)
        except TournamentError as exc:
            print(f"parlor tournament: {exc}", file=sys.stderr)
            return 1
    sys.stdout.write(service.export_csv(state, "matches" if matches else "standings"))
    return 0


async def _rebuild_ratings(config: Any) -> int:
    from bot.client import open_storage
    from bot.ratings.service import RatingService, registry_bot_orders

    async with open_storage(config) as storage:
        return await RatingService(storage, registry_bot_orders()).rebuild()


def _shown(target: str) -> str:
    """A database URL as printed: without its password."""
    from bot.client import _without_password

    return _without_password(target)


async def _copy_database(config: Any, src: str, dst: str) -> int:
    """``parlor db copy SRC DST``: every row of the SQLite database *src* into *dst*; 1 when it cannot be
    done (one line on stderr), 0 after a line per table copied.

    Raises
    ------
    bot.config.ConfigError
        *src* or *dst* cannot be opened (the caller exits 2).
    """
    from bot.client import open_storage
    from bot.config import _validate_database_url
    from bot.storage.copy import CopyError, copy_database
    from bot.storage.postgres import is_postgres_url
    from bot.storage.repository import sqlite_path

    for key, value in (("SRC", src), ("DST", dst)):
        _validate_database_url(value, key)
    if is_postgres_url(src) or not os.path.exists(sqlite_path(src)):
        print(f"parlor db copy: SRC must be an existing SQLite database; got {_shown(src)!r}", file=sys.stderr)
        return 2
    with_db = dataclasses.replace
    async with open_storage(with_db(config, database=with_db(config.database, url=src))) as source, \
            open_storage(with_db(config, database=with_db(config.database, url=dst))) as destination:
        try:
            counts = await copy_database(source.database, destination.database)
        except CopyError as exc:
            print(f"parlor db copy: {exc}", file=sys.stderr)
            return 1
    for table, n in counts.items():
        print(f"{table}: {n} row(s)")
    print(f"copied {_shown(src)} into {_shown(dst)}")
    return 0


async def _migrate(config: Any) -> int:
    from bot.client import open_storage

    async with open_storage(config) as storage:
        return await storage.schema_version()


async def _sync(config: Any, guild_id: int | None) -> int:
    """``parlor sync``: the slash commands, then the card emojis (``docs/art.md`` §6).

    Returns 0 when both are synced, 1 when Discord cannot be reached (nothing was changed, or only the
    commands), 2 when Discord refuses the commands or an emoji; each failure is one line on stderr
    (:data:`SYNC_EPILOG`).

    Raises
    ------
    bot.config.ConfigError
        Discord rejected the token (the caller exits 2).
    """
    import aiohttp
    import discord

    from bot.client import apply_api_overrides, make_bot, open_storage
    from bot.config import ConfigError
    from bot.emoji_sync import EmojiSyncRefused, sync_card_emojis

    apply_api_overrides(config.discord.api_base, config.discord.gateway)
    where = f"guild {guild_id}" if guild_id is not None else "all guilds"
    async with open_storage(config) as storage:
        bot = make_bot(config, storage, restore_tables=False)
        async with bot:
            try:
                await bot.login(config.require_token())
                if guild_id is not None:
                    guild = discord.Object(id=guild_id)
                    bot.tree.copy_global_to(guild=guild)
                    synced = await bot.tree.sync(guild=guild)
                else:
                    synced = await bot.tree.sync()
                    where += " (global; Discord may take up to an hour to show changes)"
                print(f"synced {len(synced)} commands to {where}: {', '.join('/' + c.name for c in synced)}")
                print(f"synced {await sync_card_emojis(bot)}")
                await bot.load_card_emojis()  # this client draws its cards with the emojis just synced
            except discord.LoginFailure as exc:
                raise ConfigError("DISCORD_TOKEN / discord.token", f"Discord rejected the token ({exc}).") from None
            except EmojiSyncRefused as exc:
                print(f"parlor sync: the card emojis were not synced: {exc}", file=sys.stderr)
                return 2
            except discord.DiscordServerError as exc:  # a 5xx: Discord is there but failing; try again
                print(f"parlor sync: Discord failed while registering the slash commands to {where} ({exc}); "
                      "try again later", file=sys.stderr)
                return 1
            except discord.HTTPException as exc:
                hint = ("is the bot in that server, invited with the applications.commands scope "
                        "(README, \"Discord application\")?" if guild_id is not None and exc.status == 403
                        else "nothing more was synced")
                print(f"parlor sync: Discord refused the slash commands for {where} ({exc}); {hint}",
                      file=sys.stderr)
                return 2
            except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                print(f"parlor sync: cannot reach Discord at {discord.http.Route.BASE} "
                      f"({exc or type(exc).__name__}); check the address (DISCORD_API_BASE / discord.api_base) "
                      "and the network", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
