"""A server's own defaults (``/settings``), with ``config.toml`` as the fallback (``docs/tables.md``,
"Server settings").

:class:`GuildSettings` is what one server has set (each value ``None`` until set: the config's then
counts), stored as JSON under the ``"server"`` key of the server's settings row
(``Storage.guild_settings``). :class:`ServerSettings` is the one resolver every part reads the
effective values through (the server's, else the config's): held by the table registry, it keeps
each server's settings in memory (all read at start-up, :meth:`ServerSettings.load_all`; a guild
lives in one process, ``docs/design.md`` §10) and replaces them when a change is stored.

Every value is checked where a table would check it: a game option by the game's ``Options``
(:func:`bot.tables.settings.check_table`), a table setting by :func:`~bot.tables.settings.check_settings`,
a turn or idle time by the config's own ranges (:func:`bot.config.check_tables_value`).

>>> GuildSettings.from_json({"bot_speed": "fast", "game_options": {"dutch": {"target": 50}}}).options_for("dutch")
{'target': 50}
>>> parse_value(SERVER_KEYS["pings"], "off")
False
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.config import ConfigError, TablesConfig, check_tables, check_tables_value, tables_range
from bot.engine import GAMES
from bot.engine.options import OptionSpec, describe_options
from bot.tables.settings import TABLE_SETTINGS, check_settings, check_table

if TYPE_CHECKING:
    from bot.storage import Storage

__all__ = ["GuildSettings", "ServerSettings", "SettingError", "SERVER_KEYS", "ROLE_LISTS", "BOT_STRENGTHS",
           "parse_value"]

log = logging.getLogger("parlor.tables")

BOT_STRENGTHS = ("easy", "normal", "hard")
"""The bot strengths a server may choose as its default (``bot_strength``), the same in every game."""

TIME_KEYS = ("turn_timeout_seconds", "turn_warning_seconds", "idle_seconds")
"""The ``[tables]`` times a server may set for itself (seconds)."""


def _time_spec(name: str, help: str) -> OptionSpec:
    low, high = tables_range(name) or (0, 86_400)
    return OptionSpec(name, int, None, help, min=low, max=high)


SERVER_KEYS: dict[str, OptionSpec] = {
    "bot_speed": dataclasses.replace(TABLE_SETTINGS["bot_speed"], help="How fast bots play: relaxed, normal or fast"),
    "pace": dataclasses.replace(TABLE_SETTINGS["pace"], help="Blitzkrieg's pace: click (a battle a click) or auto"),
    "race_window_ms": dataclasses.replace(TABLE_SETTINGS["race_window_ms"],
                                          help="How long a race for one pile or one jump-in stays open, in ms"),
    "bot_strength": OptionSpec("bot_strength", str, "normal", "The bots' strength: easy, normal or hard",
                               choices=BOT_STRENGTHS),
    "turn_timeout_seconds": _time_spec("turn_timeout_seconds", "Seconds a player has for a turn"),
    "turn_warning_seconds": _time_spec("turn_warning_seconds", "Seconds before a turn's timeout the player is warned"),
    "idle_seconds": _time_spec("idle_seconds", "Real-time games: seconds without a move before a bot takes the seat"),
    "pings": OptionSpec("pings", bool, True, "Whether tables ping players (each may still turn theirs off or on)"),
}
"""The server-wide settings ``/settings set`` takes, by name (a game's options are set per game)."""

ROLE_LISTS = {"moderator_roles": "moderator_role_ids", "organizer_roles": "organizer_role_ids"}
"""The role lists a server may set (``/settings role``), by name, to their field and config key."""


class SettingError(ValueError):
    """A server setting was refused; the message names the setting, what it takes and the value."""


def parse_value(spec: OptionSpec, text: str) -> Any:
    """*text* (as typed in a command) as a value of *spec*'s type (:meth:`OptionSpec.parse
    <bot.engine.options.OptionSpec.parse>`); its range or choices are checked where it is used.

    Raises
    ------
    SettingError
        *text* is not of the type at all; the message names the setting and what it takes.
    """
    try:
        return spec.parse(text)
    except ValueError as exc:
        raise SettingError(str(exc)) from None


@dataclass(frozen=True)
class GuildSettings:
    """What one server has set; ``None`` (or a missing game option) is "not set: the config's".

    Attributes
    ----------
    bot_speed, pace, race_window_ms:
        Defaults of the table settings of a new table (:data:`bot.tables.settings.TABLE_SETTINGS`).
    bot_strength:
        The bots' strength, one of :data:`BOT_STRENGTHS`.
    turn_timeout_seconds, turn_warning_seconds, idle_seconds:
        The tables' times (s), as ``[tables]`` has them.
    pings:
        Whether tables ping players who did not choose for themselves (``/table pings``).
    moderator_role_ids, organizer_role_ids:
        Role snowflakes (``tables.moderator_role_ids``, ``tournaments.organizer_role_ids``).
    game_options:
        Game kind to option name to the value a new table of that game starts from.
    """

    bot_speed: str | None = None
    pace: str | None = None
    race_window_ms: int | None = None
    bot_strength: str | None = None
    turn_timeout_seconds: int | None = None
    turn_warning_seconds: int | None = None
    idle_seconds: int | None = None
    pings: bool | None = None
    moderator_role_ids: tuple[int, ...] | None = None
    organizer_role_ids: tuple[int, ...] | None = None
    game_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def options_for(self, kind: str) -> dict[str, Any]:
        """The option values this server set for game *kind* (a fresh dict, maybe empty)."""
        return dict(self.game_options.get(kind, {}))

    def with_option(self, kind: str, name: str, value: Any | None) -> GuildSettings:
        """A copy with game *kind*'s option *name* set to *value* (``None``: unset)."""
        options = {k: dict(v) for k, v in self.game_options.items()}
        kind_options = options.setdefault(kind, {})
        if value is None:
            kind_options.pop(name, None)
        else:
            kind_options[name] = value
        return dataclasses.replace(self, game_options={k: v for k, v in options.items() if v})

    def set_keys(self) -> list[str]:
        """What this server has set, as :meth:`ServerSettings.reset` names it (``"bot_speed"``,
        ``"moderator_roles"``, ``"dutch.target"``).
        """
        keys = [k for k in SERVER_KEYS if getattr(self, k) is not None]
        keys += [name for name, attr in ROLE_LISTS.items() if getattr(self, attr) is not None]
        return keys + [f"{kind}.{name}" for kind, opts in sorted(self.game_options.items()) for name in opts]

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready dict stored for the server (only what is set)."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                                if f.name != "game_options" and getattr(self, f.name) is not None}
        for attr in ROLE_LISTS.values():
            if attr in data:
                data[attr] = list(data[attr])
        if self.game_options:
            data["game_options"] = {k: dict(v) for k, v in self.game_options.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GuildSettings:
        """The settings stored as *data* (:meth:`to_json`); an entry of unknown name or shape is left out
        (logged), so a stored value never stops a table.
        """
        values: dict[str, Any] = {}
        for name in SERVER_KEYS:
            if data.get(name) is not None:
                values[name] = data[name]
        for attr in ROLE_LISTS.values():
            if isinstance(data.get(attr), list):
                values[attr] = tuple(int(r) for r in data[attr])
        options = data.get("game_options")
        if isinstance(options, Mapping):
            values["game_options"] = {str(k): dict(v) for k, v in options.items() if isinstance(v, Mapping)}
        unknown = set(data) - set(values) - {"game_options"}
        if unknown:
            log.warning("server settings: left out unknown entries %s", sorted(unknown))
        return cls(**values)


class ServerSettings:
    """The effective settings of each server: its own, else the config's (see the module's documentation).

    Parameters
    ----------
    storage:
        Where each server's settings row is (``guild_settings``).
    config:
        The ``[tables]`` settings: the fallback of every table value.
    organizer_role_ids:
        ``tournaments.organizer_role_ids``: the fallback of the organizer roles.
    engine_cls:
        The engine class of a registered game kind (``TableRegistry.engine_cls``; ``KeyError`` for none).

    Attributes
    ----------
    lock:
        Held for each read-change-write of a server's settings row (the per-user pings share it).
    """

    def __init__(self, storage: Storage, config: TablesConfig, *, organizer_role_ids: tuple[int, ...] = (),
                 engine_cls: Callable[[str], Any]) -> None:
        self.storage = storage
        self.config = config
        self.organizer_default = tuple(organizer_role_ids)
        self.engine_cls = engine_cls
        self.lock = asyncio.Lock()
        self._guilds: dict[int, GuildSettings] = {}
        self._tables: dict[int, TablesConfig] = {}  # guild id to its effective [tables]

    # ------------------------------------------------------------------ reading

    async def load_all(self) -> int:
        """|coro| Read every server's stored settings into memory (at start-up); returns how many servers
        have some.
        """
        rows = await self.storage.all_guild_settings()
        for guild_id, blob in rows.items():
            self._keep(guild_id, GuildSettings.from_json(blob.get("server") or {}))
        return sum(1 for g in self._guilds.values() if g != GuildSettings())

    def _keep(self, guild_id: int, settings: GuildSettings) -> None:
        self._guilds[guild_id] = settings
        self._tables.pop(guild_id, None)

    def of(self, guild_id: int | None) -> GuildSettings:
        """What server *guild_id* has set (nothing for ``None`` or a server that set nothing)."""
        return self._guilds.get(guild_id or 0) or GuildSettings()

    def tables(self, guild_id: int | None) -> TablesConfig:
        """The ``[tables]`` values for a table of server *guild_id*: the config's, with the server's
        times and moderator roles in their place (cached). A stored set that no longer fits the config
        (a warning not below its timeout after the config changed) falls back to the config, logged.
        """
        if guild_id is None or guild_id not in self._guilds:
            return self.config
        cached = self._tables.get(guild_id)
        if cached is None:
            cached = self._effective(self.of(guild_id))
            try:
                check_tables(cached)
            except ConfigError as exc:
                log.warning("server %s: its times do not fit the config (%s); the config's apply", guild_id, exc)
                cached = dataclasses.replace(cached, **{k: getattr(self.config, k) for k in TIME_KEYS})
            self._tables[guild_id] = cached
        return cached

    def _effective(self, own: GuildSettings) -> TablesConfig:
        changes: dict[str, Any] = {k: getattr(own, k) for k in TIME_KEYS if getattr(own, k) is not None}
        if own.moderator_role_ids is not None:
            changes["moderator_role_ids"] = own.moderator_role_ids
        if own.race_window_ms is not None:
            changes["race_window_ms"] = own.race_window_ms
        return dataclasses.replace(self.config, **changes)

    def moderator_role_ids(self, guild_id: int | None) -> tuple[int, ...]:
        """Role snowflakes whose members moderate every table of the server (``docs/tables.md``)."""
        return self.tables(guild_id).moderator_role_ids

    def organizer_role_ids(self, guild_id: int | None) -> tuple[int, ...]:
        """Role snowflakes whose members may create tournaments (``docs/tournaments.md`` §10)."""
        own = self.of(guild_id).organizer_role_ids
        return self.organizer_default if own is None else own

    def bot_strength(self, guild_id: int | None) -> str:
        """The server's default bot strength: ``"easy"``, ``"normal"`` (the default) or ``"hard"``."""
        return self.of(guild_id).bot_strength or "normal"

    def pings(self, guild_id: int | None) -> bool:
        """Whether the server's tables ping a player who has not chosen for themselves (default ``True``)."""
        own = self.of(guild_id).pings
        return True if own is None else own

    def value(self, guild_id: int | None, key: str) -> Any:
        """The effective value of server-wide setting *key* (:data:`SERVER_KEYS`) or role list (:data:`ROLE_LISTS`)."""
        own = getattr(self.of(guild_id), ROLE_LISTS.get(key, key))
        if own is not None:
            return own
        if key == "organizer_roles":
            return self.organizer_default
        if key in ROLE_LISTS or key in TIME_KEYS or key == "race_window_ms":
            return getattr(self.config, ROLE_LISTS.get(key, key))
        return SERVER_KEYS[key].default

    def table_defaults(self, kind: str, guild_id: int | None, options: Mapping[str, Any],
                       settings: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The options and table settings a new table of *kind* opens with: *options* and *settings*
        as given, each one not given taken from the server, else the declared default (a setting whose
        default is the config's, ``race_window_ms``, stays out then).

        Only the table settings the game offers are filled (``Game.table_settings``).
        """
        own = self.of(guild_id)
        merged_options = {**own.options_for(kind), **options}
        merged = dict(settings or {})
        game = GAMES.get(kind)
        for name in game.table_settings if game is not None else ("bot_speed",):
            if merged.get(name) is None:
                value = getattr(own, name, None)
                merged[name] = value if value is not None else TABLE_SETTINGS[name].default
            if merged[name] is None:
                del merged[name]
        return merged_options, merged

    # ------------------------------------------------------------------ changing

    async def change(self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """|coro| Store ``change(row)`` as server *guild_id*'s settings row (read, changed and written
        under :attr:`lock`); returns it. The server's own settings in memory follow it.
        """
        async with self.lock:
            row = change(await self.storage.guild_settings(guild_id))
            await self.storage.set_guild_settings(guild_id, row)
            self._keep(guild_id, GuildSettings.from_json(row.get("server") or {}))
            return row

    async def _store(self, guild_id: int, update: Callable[[GuildSettings], GuildSettings]) -> GuildSettings:
        """|coro| Change the server's own settings with *update* (which may raise: nothing is stored)."""
        def change(row: dict[str, Any]) -> dict[str, Any]:
            return {**row, "server": update(GuildSettings.from_json(row.get("server") or {})).to_json()}

        return GuildSettings.from_json((await self.change(guild_id, change))["server"])

    async def set_value(self, guild_id: int, key: str, text: str) -> Any:
        """|coro| Set server-wide setting *key* (:data:`SERVER_KEYS`) to *text*; returns the value stored.

        Raises
        ------
        SettingError
            No such setting, or a value it does not take (the message says what it takes); nothing is stored.
        """
        spec = SERVER_KEYS.get(key)
        if spec is None:
            raise SettingError(f"There is no setting {key!r}; the settings are {', '.join(SERVER_KEYS)}.")
        value = parse_value(spec, text)

        def update(own: GuildSettings) -> GuildSettings:
            new = dataclasses.replace(own, **{key: value})
            try:
                if key in TABLE_SETTINGS:
                    check_settings({key: value})
                elif key in TIME_KEYS:
                    check_tables_value(key, value)
                    check_tables(self._effective(new))
                elif not spec.accepts(value):
                    raise SettingError(f"{key} must be {spec.allowed}, got {text!r}")
            except (ValueError, ConfigError) as exc:
                raise SettingError(str(exc).replace("tables.", "").replace("setting ", "")) from None
            return new

        await self._store(guild_id, update)
        return value

    async def set_option(self, guild_id: int, kind: str, name: str, text: str) -> Any:
        """|coro| Make *text* the value of option *name* that a new table of game *kind* starts from;
        returns the value stored.

        Raises
        ------
        SettingError
            No such game or option, or a value the game does not take (checked as ``/<kind> new``
            checks it: :func:`~bot.tables.settings.check_table`); nothing is stored.
        """
        try:
            options_cls = self.engine_cls(kind).Options
        except KeyError:
            raise SettingError(f"There is no game {kind!r} here.") from None
        spec = next((s for s in describe_options(options_cls) if s.name == name), None)
        if spec is None:
            names = ", ".join(s.name for s in describe_options(options_cls))
            raise SettingError(f"{kind} has no option {name!r}; its options are {names}.")
        value = parse_value(dataclasses.replace(spec, name=f"option {name}"), text)

        def update(own: GuildSettings) -> GuildSettings:
            new = own.with_option(kind, name, value)
            try:
                check_table(options_cls, new.options_for(kind))
            except (TypeError, ValueError) as exc:
                raise SettingError(f"{kind}: {exc}") from None
            return new

        await self._store(guild_id, update)
        return value

    async def set_role(self, guild_id: int, key: str, role_id: int, *, add: bool) -> tuple[int, ...]:
        """|coro| Add *role_id* to (or take it off) role list *key* (:data:`ROLE_LISTS`), starting from
        the effective list (the config's until the server has its own); returns the new list.

        Raises
        ------
        SettingError
            No such role list.
        """
        if key not in ROLE_LISTS:
            raise SettingError(f"There is no role list {key!r}; the lists are {', '.join(ROLE_LISTS)}.")
        start = tuple(self.value(guild_id, key))

        def update(own: GuildSettings) -> GuildSettings:
            current = getattr(own, ROLE_LISTS[key])
            roles = [r for r in (start if current is None else current) if r != role_id]
            changes: dict[str, Any] = {ROLE_LISTS[key]: tuple(roles + [role_id] if add else roles)}
            return dataclasses.replace(own, **changes)

        roles: tuple[int, ...] = getattr(await self._store(guild_id, update), ROLE_LISTS[key])
        return roles

    async def reset(self, guild_id: int, key: str) -> bool:
        """|coro| Return *key* (a name of :meth:`GuildSettings.set_keys`: ``"bot_speed"``,
        ``"moderator_roles"``, ``"dutch.target"``; or ``"all"``) to the config's value; returns whether
        the server had set it.

        Raises
        ------
        SettingError
            No such setting (nothing is changed).
        """
        known = set(SERVER_KEYS) | set(ROLE_LISTS) | {"all"}
        kind, _, name = key.partition(".")
        if key not in known and not (name and self._has_game(kind)):
            raise SettingError(f"There is no setting {key!r} to reset; this server has set "
                               f"{', '.join(self.of(guild_id).set_keys()) or 'nothing'}.")
        had = key in self.of(guild_id).set_keys() or (key == "all" and bool(self.of(guild_id).set_keys()))

        def update(own: GuildSettings) -> GuildSettings:
            if key == "all":
                return GuildSettings()
            if key in SERVER_KEYS or key in ROLE_LISTS:
                unset: dict[str, Any] = {ROLE_LISTS.get(key, key): None}
                return dataclasses.replace(own, **unset)
            return own.with_option(kind, name, None)

        await self._store(guild_id, update)
        return had

    def _has_game(self, kind: str) -> bool:
        try:
            self.engine_cls(kind)
        except KeyError:
            return False
        return True
