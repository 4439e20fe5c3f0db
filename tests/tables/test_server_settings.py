"""A server's own settings over the config, without Discord (``docs/tables.md``, "Server settings").

The resolver (:class:`bot.tables.server.ServerSettings`) as the table registry holds it, over a real
SQLite file: what it resolves, what it refuses, what it stores, and how it shares the server's
settings row with the per-user pings and the ratings' switch.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import TablesConfig
from bot.storage import Storage
from bot.tables.messenger import RecordingMessenger
from bot.tables.server import GuildSettings, ServerSettings, SettingError
from bot.tables.service import Tables
from bot.tables.table import Table
from tests.engine.sample_game import BOTS, HighCard
from tests.tables.test_service_logic import ALICE, ui_for

GUILD = 77


def tables_over(storage: Storage, config: TablesConfig | None = None, organizers: tuple[int, ...] = ()) -> Tables:
    tables = Tables(storage, config or TablesConfig(), RecordingMessenger(), organizer_role_ids=organizers)
    tables.register_ui(ui_for("high-card"), engine=HighCard, bots=BOTS)
    return tables


async def test_values_not_set_come_from_the_config_and_set_ones_from_the_server(tmp_path: Path) -> None:
    """Nothing set: the config's times, moderator and organizer roles, normal bots, pings on. Set: the server's."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        config = TablesConfig(turn_timeout_seconds=90, moderator_role_ids=(5,))
        server = tables_over(storage, config, organizers=(6,)).server
        assert server.tables(GUILD) is config and server.tables(None) is config
        assert (server.moderator_role_ids(GUILD), server.organizer_role_ids(GUILD)) == ((5,), (6,))
        assert (server.bot_strength(GUILD), server.pings(GUILD)) == ("normal", True)
        await server.set_value(GUILD, "turn_timeout_seconds", "30")
        await server.set_value(GUILD, "bot_strength", "hard")
        await server.set_role(GUILD, "organizer_roles", 8, add=True)
        await server.set_role(GUILD, "moderator_roles", 5, add=False)
        effective = server.tables(GUILD)
        assert effective.turn_timeout_seconds == 30 and effective.turn_warning_seconds == config.turn_warning_seconds
        assert (server.moderator_role_ids(GUILD), server.organizer_role_ids(GUILD)) == ((), (6, 8))
        assert server.bot_strength(GUILD) == "hard" and server.tables(GUILD + 1) is config, "other servers: the config"
        assert await server.reset(GUILD, "turn_timeout_seconds") and server.tables(GUILD).turn_timeout_seconds == 90
        assert not await server.reset(GUILD, "turn_timeout_seconds"), "not set any more"
        assert await server.reset(GUILD, "all") and server.of(GUILD) == GuildSettings()


async def test_a_refused_value_changes_nothing_and_says_what_the_setting_takes(tmp_path: Path) -> None:
    """A warning not below the timeout, a Dutch-only option for another game, a bad pace: refused, and
    the stored row is as it was."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        server = tables_over(storage).server
        await server.set_option(GUILD, "high-card", "tricks", "5")
        row = await storage.guild_settings(GUILD)
        with pytest.raises(SettingError, match="turn_warning_seconds: got 60, expected less than turn_timeout_seconds"):
            await server.set_value(GUILD, "turn_warning_seconds", "60")
        with pytest.raises(SettingError, match="high-card has no option 'target'"):
            await server.set_option(GUILD, "high-card", "target", "30")
        with pytest.raises(SettingError, match="option tricks must be a whole number from 1 to 10, got 11"):
            await server.set_option(GUILD, "high-card", "tricks", "11")
        with pytest.raises(SettingError, match="pace must be one of 'click', 'auto'"):
            await server.set_value(GUILD, "pace", "slow")
        assert await storage.guild_settings(GUILD) == row and server.of(GUILD).options_for("high-card") == {"tricks": 5}


async def test_a_new_table_starts_from_the_servers_defaults_and_what_the_host_gives_wins(tmp_path: Path) -> None:
    """The server's option and bot speed fill what the host left out; what the host gave stays."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        tables = tables_over(storage)
        await tables.server.set_option(GUILD, "high-card", "tricks", "7")
        await tables.server.set_value(GUILD, "bot_speed", "fast")
        table = await tables.create("high-card", ALICE, {}, None, guild_id=GUILD, channel_id=1)
        assert table.options == {"tricks": 7} and table.settings["bot_speed"] == "fast"
        other = await tables.create("high-card", ALICE, {"tricks": 2}, {"bot_speed": "normal"}, guild_id=GUILD,
                                    channel_id=2)
        assert other.options == {"tricks": 2} and other.settings["bot_speed"] == "normal"
        elsewhere = await tables.create("high-card", ALICE, {}, None, guild_id=GUILD + 1, channel_id=3)
        assert elsewhere.options == {} and elsewhere.settings["bot_speed"] == "relaxed"


async def test_pings_off_for_the_server_ping_only_those_who_turned_theirs_on(tmp_path: Path) -> None:
    """With the server's pings off, a table pings only a player who chose pings (`/table pings`); a player
    who turned them off stays quiet either way; the server's, the pings' and the ratings' entries of the
    one settings row keep one another."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        await storage.set_guild_settings(GUILD, {"rate_bots": True})
        tables = tables_over(storage)
        table = Table(id=1, kind="high-card", title="High card", guild_id=GUILD, channel_id=1, thread_id=1,
                      host_id=1, options={}, seed=1, min_players=2, max_players=4)
        assert await tables.registry.pingable(table, [1, 2, 3]) == [1, 2, 3]
        await tables.registry.set_pings(GUILD, 2, on=False)
        await tables.server.set_value(GUILD, "pings", "off")
        assert await tables.registry.pingable(table, [1, 2, 3]) == []
        await tables.registry.set_pings(GUILD, 3, on=True)
        assert await tables.registry.pingable(table, [1, 2, 3]) == [3]
        row = await storage.guild_settings(GUILD)
        assert row["rate_bots"] is True and row["server"] == {"pings": False} and row["ping_users"] == [3]
        again = tables_over(storage)  # a restart: read from the row
        await again.server.load_all()
        assert await again.registry.pingable(table, [1, 2, 3]) == [3]


async def test_stored_settings_that_no_longer_fit_fall_back_to_the_config(tmp_path: Path) -> None:
    """A row with an unknown entry loads without it; a stored warning that the config's new timeout no
    longer allows gives way to the config's times (a table never runs on a warning after its timeout)."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        await storage.set_guild_settings(GUILD, {"server": {"turn_warning_seconds": 50, "colour": "red"}})
        server: ServerSettings = tables_over(storage, TablesConfig(turn_timeout_seconds=40,
                                                                   turn_warning_seconds=10)).server
        assert await server.load_all() == 1
        assert server.of(GUILD) == GuildSettings(turn_warning_seconds=50)
        assert (server.tables(GUILD).turn_timeout_seconds, server.tables(GUILD).turn_warning_seconds) == (40, 10)
