"""Configuration: a TOML file read with :mod:`tomllib`, overridden by environment variables.

Where the file is: ``$PARLOR_CONFIG`` if set (it must exist), else ``./config.toml`` if present,
else built-in defaults. Every key is documented in ``config.example.toml``. Environment variables
win over the file:

========================  ==================================
variable                  key
========================  ==================================
``DISCORD_TOKEN``         ``discord.token``
``DISCORD_API_BASE``      ``discord.api_base``
``DISCORD_GATEWAY``       ``discord.gateway``
``PARLOR_DB``             ``database.path``
``PARLOR_DATABASE_URL``   ``database.url``
``PARLOR_SHARD_COUNT``    ``discord.shard_count``
``PARLOR_SHARD_IDS``      ``discord.shard_ids`` (``0,1``)
``PARLOR_LOG_LEVEL``      ``logging.level``
========================  ==================================

A bad value raises :class:`ConfigError`, which names the key, the bad value and what was expected;
the command line turns it into exit status 2 before anything starts.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

__all__ = [
    "ConfigError",
    "DiscordConfig",
    "DatabaseConfig",
    "LoggingConfig",
    "TablesConfig",
    "TournamentsConfig",
    "Config",
    "load_config",
    "check_tables_value",
    "check_tables",
    "tables_range",
    "ENV_OVERRIDES",
    "TOKEN_HELP",
]

TOKEN_HELP = (
    "Set DISCORD_TOKEN (or discord.token in the config file) to your bot's token: create an "
    "application at https://discord.com/developers/applications, open Bot, press Reset Token and "
    "copy it. See the README, section 'Discord application'."
)

ENV_OVERRIDES: dict[str, str] = {
    "DISCORD_TOKEN": "discord.token",
    "DISCORD_API_BASE": "discord.api_base",
    "DISCORD_GATEWAY": "discord.gateway",
    "PARLOR_DB": "database.path",
    "PARLOR_DATABASE_URL": "database.url",
    "PARLOR_SHARD_COUNT": "discord.shard_count",
    "PARLOR_SHARD_IDS": "discord.shard_ids",
    "PARLOR_LOG_LEVEL": "logging.level",
    "PARLOR_HEARTBEAT_FILE": "health.heartbeat_file",
}
"""Environment variable to the config key it overrides."""


class ConfigError(ValueError):
    """A configuration value is missing or invalid.

    Attributes
    ----------
    key:
        The dotted key (``"tables.race_window_ms"``) or environment variable at fault.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True)
class DiscordConfig:
    """The ``[discord]`` table.

    Attributes
    ----------
    token:
        The bot token (empty: not configured; ``parlor run`` then refuses to start).
    api_base:
        REST base URL override (``http://127.0.0.1:PORT/api/v10`` for the loopback Discord);
        empty for the real Discord.
    gateway:
        Gateway websocket URL override; empty for the real Discord.
    shard_count:
        Total shards across all processes; 0 lets Discord choose (single process).
    shard_ids:
        The shards this process runs; empty for all.
    """

    token: str = ""
    api_base: str = ""
    gateway: str = ""
    shard_count: int = 0
    shard_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class DatabaseConfig:
    """The ``[database]`` table.

    Attributes
    ----------
    path:
        The SQLite file, created on first run (used when :attr:`url` is empty).
    url:
        Where the database is, winning over :attr:`path` when set: ``postgresql://user:password@host:port/db``
        (a PostgreSQL server shared by several shard processes; ``docs/design.md`` §3), or a SQLite file
        as a path or ``sqlite:PATH``. Empty (the default): the SQLite file :attr:`path`.
    """

    path: str = "./parlor.db"
    url: str = ""

    @property
    def target(self) -> str:
        """The database to open: :attr:`url` when set, else :attr:`path` (a SQLite file)."""
        return self.url.strip() or self.path

    @property
    def key(self) -> str:
        """The config key (and variable) :attr:`target` comes from, for messages."""
        return "PARLOR_DATABASE_URL / database.url" if self.url.strip() else "PARLOR_DB / database.path"


@dataclass(frozen=True)
class HealthConfig:
    """The ``[health]`` table: a heartbeat file for container health checks (``parlor health``).

    Attributes
    ----------
    heartbeat_file:
        A file the running bot touches every ``heartbeat_seconds`` while it is connected to
        Discord; empty (the default) writes none.
    heartbeat_seconds:
        Seconds between two touches; ``parlor health`` calls the bot unhealthy when the file is
        older than three of them.
    """

    heartbeat_file: str = ""
    heartbeat_seconds: int = 30


@dataclass(frozen=True)
class LoggingConfig:
    """The ``[logging]`` table.

    Attributes
    ----------
    level:
        One of DEBUG, INFO, WARNING, ERROR, CRITICAL: Parlor's own loggers (``parlor.*``).
    third_party_level:
        The same choice for the libraries' loggers (discord.py, aiosqlite, asyncio, aiohttp),
        never below INFO unless set here: at DEBUG they write request bodies and SQL parameters,
        which hold game seeds and ephemeral boards (``docs/design.md``, hidden information).
    """

    level: str = "INFO"
    third_party_level: str = "INFO"


@dataclass(frozen=True)
class TablesConfig:
    """The ``[tables]`` table: timing of the table service.

    Attributes
    ----------
    race_window_ms:
        Milliseconds a race window stays open after the first claim on a contested resource.
    race_tie_ms:
        Claims whose Discord timestamps differ by less than this many milliseconds are a tie,
        broken by the game's seeded RNG (0: only equal timestamps tie).
    turn_timeout_seconds:
        Seconds a player has for a turn before the game's timeout action is taken.
    turn_warning_seconds:
        Seconds before the timeout at which the player is warned.
    timeouts_before_bot:
        Timeouts in a row after which a bot takes over the seat.
    redraw_interval_ms:
        Minimum milliseconds between two edits of a table's public message.
    repost_after_minutes:
        Minutes after which the public table message is posted anew (Discord caps edits of
        messages older than an hour).
    rest_per_second:
        Requests per second the bot allows itself outside interactions (redraws, notices,
        threads), below Discord's global limit of 50 for headroom; redraws stretch to fit.
    token_redraws_per_second:
        Edits per second, all tables together, of public table messages made through a player's
        interaction token (a click on the table message gives one that lasts 15 minutes). Discord
        does not count these against the global limit; this cap keeps them from taking the bot's
        CPU from the clicks, and the redraw interval of such tables stretches to fit.
    board_refresh_ms:
        Milliseconds between refreshes of the open private boards of one table (each person's
        ephemeral board is edited through their latest interaction token as the table changes).
    idle_seconds, idle_warning_seconds:
        Real-time games: a seated person without a move for ``idle_seconds`` is warned
        ``idle_warning_seconds`` before, then a bot takes the seat.
    ready_timeout_seconds:
        Between hands, seconds after which everyone not yet ready is made ready.
    lobby_expiry_minutes:
        Minutes after which a lobby that never started closes itself.
    moderator_role_ids:
        Role snowflakes whose members may moderate every table of the server (end, kick, hand
        over the host role, End hand / Next hand), besides members with Manage Threads and
        administrators (``docs/tables.md``, "Who may do what").
    """

    race_window_ms: int = 150
    race_tie_ms: int = 0
    turn_timeout_seconds: int = 60
    turn_warning_seconds: int = 15
    timeouts_before_bot: int = 2
    redraw_interval_ms: int = 1200
    repost_after_minutes: int = 50
    rest_per_second: int = 40
    token_redraws_per_second: int = 250
    board_refresh_ms: int = 500
    idle_seconds: int = 180
    idle_warning_seconds: int = 30
    ready_timeout_seconds: int = 60
    lobby_expiry_minutes: int = 30
    moderator_role_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class TournamentsConfig:
    """The ``[tournaments]`` table (``docs/tournaments.md`` §10).

    Attributes
    ----------
    no_show_minutes:
        Minutes a player has to show up at a match's table (open their board or move) before they
        forfeit the match.
    checkin_minutes:
        The check-in window a new tournament gets when its organizer names none (0: no check-in).
    max_entrants:
        The most players one tournament may take (its capacity cannot be set higher).
    organizer_role_ids:
        Role snowflakes whose members may create tournaments, besides members with Manage Server
        or Manage Events (and administrators).
    """

    no_show_minutes: int = 10
    checkin_minutes: int = 15
    max_entrants: int = 128
    organizer_role_ids: tuple[int, ...] = ()


_RANGES: dict[str, tuple[int, int]] = {
    "discord.shard_count": (0, 100_000),
    "tables.race_window_ms": (0, 2000),
    "tables.race_tie_ms": (0, 1000),
    "tables.turn_timeout_seconds": (5, 3600),
    "tables.turn_warning_seconds": (0, 3600),
    "tables.timeouts_before_bot": (1, 100),
    "tables.redraw_interval_ms": (200, 60_000),
    "tables.repost_after_minutes": (1, 59),
    "health.heartbeat_seconds": (5, 3600),
    "tables.rest_per_second": (1, 50),
    "tables.token_redraws_per_second": (1, 10_000),
    "tables.board_refresh_ms": (250, 60_000),
    "tables.idle_seconds": (10, 86_400),
    "tables.idle_warning_seconds": (0, 3600),
    "tables.ready_timeout_seconds": (5, 3600),
    "tables.lobby_expiry_minutes": (1, 10_080),
    "tournaments.no_show_minutes": (1, 240),
    "tournaments.checkin_minutes": (0, 1440),
    "tournaments.max_entrants": (2, 1024),
}


@dataclass(frozen=True)
class Config:
    """The whole configuration.

    Attributes
    ----------
    discord, database, logging, tables, health, tournaments:
        The sections of the file.
    source:
        The file the values came from, or ``None`` for defaults and environment only.
    """

    discord: DiscordConfig = field(default_factory=DiscordConfig)
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    tables: TablesConfig = field(default_factory=TablesConfig)
    health: HealthConfig = field(default_factory=HealthConfig)
    tournaments: TournamentsConfig = field(default_factory=TournamentsConfig)
    source: Path | None = None

    def require_token(self) -> str:
        """The bot token.

        Raises
        ------
        ConfigError
            No token is configured; the message says how to get one.
        """
        if not self.discord.token.strip():
            raise ConfigError("DISCORD_TOKEN / discord.token", f"no bot token is configured. {TOKEN_HELP}")
        return self.discord.token.strip()


_SECTIONS: dict[str, type] = {
    "discord": DiscordConfig,
    "database": DatabaseConfig,
    "logging": LoggingConfig,
    "tables": TablesConfig,
    "health": HealthConfig,
    "tournaments": TournamentsConfig,
}


def _coerce(key: str, value: Any, default: Any) -> Any:
    """Check *value* for *key* against the type of its *default*."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(key, f"got {value!r}, expected true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(key, f"got {value!r}, expected a whole number")
        lo, hi = _RANGES.get(key, (-(2**63), 2**63))
        if not lo <= value <= hi:
            raise ConfigError(key, f"got {value!r}, expected a whole number from {lo} to {hi}")
        return value
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if not isinstance(value, list):
            raise ConfigError(key, f"got {value!r}, expected a list of whole numbers")
        out = []
        for item in value:
            try:
                out.append(int(item))
            except (TypeError, ValueError):
                raise ConfigError(key, f"got {value!r}, expected a list of whole numbers") from None
        return tuple(out)
    if not isinstance(value, str):
        raise ConfigError(key, f"got {value!r}, expected a string")
    return value


def _section(name: str, data: Any) -> Any:
    cls = _SECTIONS[name]
    if not isinstance(data, Mapping):
        raise ConfigError(name, f"got {data!r}, expected a table [{name}]")
    defaults = cls()
    known = {f.name for f in fields(cls)}
    for key in data:
        if key not in known:
            raise ConfigError(f"{name}.{key}", f"unknown key; expected one of {sorted(known)}")
    values = {k: _coerce(f"{name}.{k}", v, getattr(defaults, k)) for k, v in data.items()}
    return cls(**values)


def _validate_database_url(url: str, key: str = "database.url") -> None:
    """Refuse a ``database.url`` that names neither a PostgreSQL server nor a SQLite file.

    Raises
    ------
    ConfigError
        (naming *key*) Another scheme (``mysql://…``), a PostgreSQL URL without a host or socket, or ``sqlite:``
        without a path.
    """
    from urllib.parse import parse_qs, urlsplit

    if not url:
        return
    expected = "expected postgresql://user:password@host:port/database, sqlite:PATH or a file path"
    if url.startswith(("postgresql://", "postgres://")):
        parts = urlsplit(url)
        try:
            parts.port  # noqa: B018 (a bad port raises)
        except ValueError:
            raise ConfigError(key, f"got {url!r}, a bad port; {expected}") from None
        if not parts.hostname and "host" not in parse_qs(parts.query):
            raise ConfigError(key, f"got {url!r}, no host; {expected}")
        return
    if url.startswith("sqlite:"):
        if not url.removeprefix("sqlite:").removeprefix("//").strip():
            raise ConfigError(key, f"got {url!r}, no file path; {expected}")
        return
    if "://" in url:
        raise ConfigError(key, f"got {url!r}, an unknown scheme; {expected}")


def _validate(config: Config) -> None:
    for key, value in (("logging.level", config.logging.level),
                       ("logging.third_party_level", config.logging.third_party_level)):
        if value.upper() not in LOG_LEVELS:
            raise ConfigError(key, f"got {value!r}, expected one of {', '.join(LOG_LEVELS)}")
    for key, url, schemes in (("discord.api_base", config.discord.api_base, ("http://", "https://")),
                              ("discord.gateway", config.discord.gateway, ("ws://", "wss://"))):
        if url and not url.startswith(schemes):
            raise ConfigError(key, f"got {url!r}, expected a URL starting with {' or '.join(schemes)}")
    if bool(config.discord.api_base) != bool(config.discord.gateway):
        raise ConfigError("discord.api_base / discord.gateway",
                          "set both (DISCORD_API_BASE and DISCORD_GATEWAY) to use another Discord, or neither; "
                          f"got api_base={config.discord.api_base!r}, gateway={config.discord.gateway!r}")
    if not config.database.path.strip():
        raise ConfigError("database.path", "got an empty path, expected a file path such as ./parlor.db")
    _validate_database_url(config.database.url.strip())
    check_tables(config.tables)
    d = config.discord
    if d.shard_ids and (d.shard_count == 0 or any(not 0 <= s < d.shard_count for s in d.shard_ids)):
        raise ConfigError("discord.shard_ids",
                          f"got {list(d.shard_ids)}, expected ids from 0 to discord.shard_count-1 "
                          f"(shard_count is {d.shard_count})")


def check_tables_value(name: str, value: Any) -> Any:
    """*value* checked as key ``tables.<name>`` of the file is (type and range, :data:`_RANGES`): a
    server's own turn and idle times take the same values as the config (``docs/tables.md``,
    "Server settings").

    Raises
    ------
    ConfigError
        No such key of ``[tables]``, or a value it does not take; the message says what it takes.
    """
    defaults = TablesConfig()
    if name not in {f.name for f in fields(TablesConfig)}:
        raise ConfigError(f"tables.{name}", "unknown key")
    return _coerce(f"tables.{name}", value, getattr(defaults, name))


def tables_range(name: str) -> tuple[int, int] | None:
    """The inclusive range key ``tables.<name>`` takes, or ``None`` when it has none."""
    return _RANGES.get(f"tables.{name}")


def check_tables(t: TablesConfig) -> None:
    """Check the ``[tables]`` values that depend on one another (a warning comes before its timeout).

    Raises
    ------
    ConfigError
        ``tables.turn_warning_seconds`` not below ``tables.turn_timeout_seconds``, or
        ``tables.idle_warning_seconds`` not below ``tables.idle_seconds``.
    """
    if t.turn_warning_seconds >= t.turn_timeout_seconds:
        raise ConfigError("tables.turn_warning_seconds",
                          f"got {t.turn_warning_seconds}, expected less than tables.turn_timeout_seconds "
                          f"({t.turn_timeout_seconds})")
    if t.idle_warning_seconds >= t.idle_seconds:
        raise ConfigError("tables.idle_warning_seconds",
                          f"got {t.idle_warning_seconds}, expected less than tables.idle_seconds ({t.idle_seconds})")


def load_config(path: str | os.PathLike[str] | None = None,
                environ: Mapping[str, str] | None = None) -> Config:
    """Load the configuration.

    Parameters
    ----------
    path:
        The TOML file; ``None`` uses ``$PARLOR_CONFIG`` or ``./config.toml`` if it exists.
    environ:
        The environment to read overrides from (default :data:`os.environ`).

    Raises
    ------
    ConfigError
        The file is missing (when named), not valid TOML, or a value is invalid.
    """
    env = os.environ if environ is None else environ
    source: Path | None = None
    raw: dict[str, Any] = {}
    if path is None and env.get("PARLOR_CONFIG"):
        path = env["PARLOR_CONFIG"]
        named = "PARLOR_CONFIG"
    else:
        named = "--config"
    if path is not None:
        source = Path(path)
        if source.is_dir():
            raise ConfigError(named, f"{str(source)!r} is a directory; expected a TOML file "
                                     "(copy config.example.toml)")
        if not source.is_file():
            raise ConfigError(named, f"config file {str(source)!r} does not exist; expected a TOML file "
                                     "(copy config.example.toml)")
    elif Path("config.toml").is_file():
        source = Path("config.toml")
    if source is not None:
        try:
            with source.open("rb") as fh:
                raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(str(source), f"is not valid TOML: {exc}") from None
    for name, value in raw.items():
        if name not in _SECTIONS:
            raise ConfigError(name, f"unknown section; expected one of {sorted(_SECTIONS)}")
        if not isinstance(value, Mapping):
            raise ConfigError(name, f"got {value!r}, expected a table [{name}]")
    merged: dict[str, dict[str, Any]] = {name: dict(raw.get(name, {})) for name in _SECTIONS}
    for var, key in ENV_OVERRIDES.items():
        if env.get(var):
            section, name = key.split(".")
            merged[section][name] = env[var]
    config = Config(**{name: _section(name, data) for name, data in merged.items()}, source=source)
    _validate(config)
    return config
