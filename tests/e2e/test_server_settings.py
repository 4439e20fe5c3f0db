"""End to end: ``/settings``, a server's own defaults over the config (issue #30, item 11;
``docs/tables.md``, "Server settings").

Who may change them (Manage Server, checked by Discord's default permissions and again by the bot),
a game option's default in a new table's lobby, the turn times a table runs on, moderator roles set
per server, a reset back to the config, bad values refused with nothing stored, and settings kept
across a restart on the same database.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import COGS, World, parlor, seen_alone, settled

SETTINGS_COGS = [*COGS, "cogs.games", "cogs.settings"]


async def open_game(fake: FakeDiscord, world: World, user, kind: str, **options: object):
    """*user* opens a *kind* table with *options*: its thread and lobby message."""
    result = await settled(fake, await fake.slash(user, world.channel, f"{kind} new", options=options))
    assert result.ephemeral and "is open" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    return thread, fake.last_message(thread)


async def running_table(fake: FakeDiscord, world: World) -> None:
    """Alice opens a High card table, Bob joins, Alice starts it."""
    _, lobby = await open_game(fake, world, world.alice, "high-card")
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")


async def test_only_a_manager_changes_the_settings_and_others_are_refused_privately(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Discord keeps /settings from ordinary members (default permissions); where a server lets everyone
    use it, a member without Manage Server may view the settings, and a change is refused privately
    with nothing stored; a member with Manage Server changes them."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", SETTINGS_COGS) as bot:
        with pytest.raises(PermissionError):
            await fake.slash(world.alice, world.channel, "settings set", options={"key": "bot_speed", "value": "fast"})
        fake.enforce_command_permissions = False  # the server let every member use /settings
        shown = await fake.slash(world.alice, world.channel, "settings show")
        assert not seen_alone(shown, world.alice, "/settings show") and "bot_speed" in shown.text
        for command, options in (("settings set", {"key": "bot_speed", "value": "fast"}),
                                 ("settings option", {"game": "dutch", "option": "target", "value": "30"}),
                                 ("settings reset", {"key": "all"})):
            refused = await fake.slash(world.alice, world.channel, command, options=options)
            assert not seen_alone(refused, world.alice, command)
            assert "Manage Server" in refused.text, refused.text
        assert await bot.storage.guild_settings(world.guild.id) == {}, "nothing stored"
        speeds = await fake.autocomplete(manager, world.channel, "settings set", "value", "", key="bot_speed")
        assert [c["value"] for c in speeds.choices] == ["slow", "relaxed", "normal", "fast"]
        done = await fake.slash(manager, world.channel, "settings set", options={"key": "bot_speed", "value": "fast"})
        assert done.ephemeral and "now **fast**" in done.text, done.text
        assert bot.tables.server.of(world.guild.id).bot_speed == "fast"
        resettable = await fake.autocomplete(manager, world.channel, "settings reset", "key", "")
        assert [c["value"] for c in resettable.choices] == ["bot_speed", "all"]


async def test_a_game_option_set_for_the_server_is_in_a_new_tables_lobby_and_the_host_may_change_it(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A manager makes Dutch's target 30 and bots fast for the server: Alice's new Dutch table opens with
    them (its lobby says "target 30"); Bob, opening his with target 60, gets 60; Blitz is untouched."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", SETTINGS_COGS) as bot:
        suggested = await fake.autocomplete(manager, world.channel, "settings option", "option", "tar", game="dutch")
        assert [c["value"] for c in suggested.choices] == ["target"]
        values = await fake.autocomplete(manager, world.channel, "settings option", "value", "", game="dutch",
                                         option="variant")
        assert [c["value"] for c in values.choices] == ["passive", "aggressive"]
        done = await fake.slash(manager, world.channel, "settings option",
                                options={"game": "dutch", "option": "target", "value": "30"})
        assert done.ephemeral and "target" in done.text and "**30**" in done.text, done.text
        await fake.slash(manager, world.channel, "settings set", options={"key": "bot_speed", "value": "fast"})
        _, lobby = await open_game(fake, world, world.alice, "dutch")
        assert "target 30" in lobby.text, lobby.text
        alices = bot.tables.tables[1]
        assert alices.options["target"] == 30 and alices.settings["bot_speed"] == "fast"
        _, lobby = await open_game(fake, world, world.bob, "dutch", target=60, bot_speed="normal")
        assert "target 60" in lobby.text, lobby.text
        assert bot.tables.tables[2].options["target"] == 60 and bot.tables.tables[2].settings["bot_speed"] == "normal"
        _, lobby = await open_game(fake, world, world.carol, "blitz")
        assert "target" not in lobby.text and bot.tables.tables[3].options == {}


async def test_turn_times_set_for_the_server_are_what_its_tables_run_on(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """The config gives 60 s turns warned 15 s before; the server sets 20 s warned 7 s before, and a
    Blitz table's warning says 7 s (times scaled by 0.1)."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", SETTINGS_COGS, timer_scale=0.1) as bot:
        for key, value in (("turn_timeout_seconds", "20"), ("turn_warning_seconds", "7")):
            done = await fake.slash(manager, world.channel, "settings set", options={"key": key, "value": value})
            assert done.ephemeral and f"now **{value}**" in done.text, done.text
        assert bot.tables.server.tables(world.guild.id).turn_timeout_seconds == 20
        thread, lobby = await open_game(fake, world, world.alice, "blitz")
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        await fake.wait_for(lambda: any("⏰" in (m.text or "") for m in fake.messages(thread)), timeout=10,
                            what="a turn warning")
        warnings = [m.text for m in fake.messages(thread) if "⏰" in (m.text or "")]
        assert all("⏰ 7 s left" in w for w in warnings), warnings


async def test_a_moderator_role_set_for_the_server_moderates_and_a_reset_returns_to_the_config(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """The config names role A as moderators. The server adds role B: a member with B ends a table.
    The server takes A off: a member with only A may no longer. `/settings reset moderator_roles`
    returns to the config: A moderates again, B no longer."""
    role_a, role_b = fake.add_role(world.guild, "Config mods"), fake.add_role(world.guild, "Server mods")
    mod_a = fake.add_user("moda", guild=world.guild, roles=[role_a])
    mod_b = fake.add_user("modb", guild=world.guild, roles=[role_b])
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    config = TablesConfig(redraw_interval_ms=200, moderator_role_ids=(role_a,))
    async with parlor(fake, tmp_path / "p.db", SETTINGS_COGS, tables=config) as bot:
        async def ends(mod, table_id: int) -> bool:
            answer = await fake.slash(mod, world.channel, "table end", options={"id": table_id})
            assert answer.ephemeral or "was ended" in answer.text, answer.text
            return "was ended" in answer.text

        await running_table(fake, world)
        assert not await ends(mod_b, 1)
        added = await fake.slash(manager, world.channel, "settings role",
                                 options={"list": "moderator_roles", "role": role_b, "action": "add"})
        assert added.ephemeral and f"<@&{role_a}> <@&{role_b}>" in added.text, added.text
        assert not added.message.pings, "naming the roles pings nobody"
        assert await ends(mod_b, 1)
        await running_table(fake, world)
        await fake.slash(manager, world.channel, "settings role",
                         options={"list": "moderator_roles", "role": role_a, "action": "remove"})
        assert not await ends(mod_a, 2)
        reset = await fake.slash(manager, world.channel, "settings reset", options={"key": "moderator_roles"})
        assert reset.ephemeral and "follows the bot's config" in reset.text, reset.text
        assert bot.tables.server.moderator_role_ids(world.guild.id) == (role_a,)
        assert not await ends(mod_b, 2)
        assert await ends(mod_a, 2)


async def test_bad_values_are_refused_naming_the_setting_and_nothing_is_stored(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Out of range, of the wrong type, against another setting, an unknown key or game: each answer is
    private, names the setting and what it takes, and the server's settings stay as they were."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", SETTINGS_COGS) as bot:
        await fake.slash(manager, world.channel, "settings set", options={"key": "pace", "value": "auto"})
        before = await bot.storage.guild_settings(world.guild.id)
        cases = [
            ("settings option", {"game": "dutch", "option": "target", "value": "0"},
             "target must be a whole number from 1 to 10000"),
            ("settings option", {"game": "dutch", "option": "jokers", "value": "maybe"},
             "jokers must be true or false"),
            ("settings option", {"game": "dutch", "option": "variant", "value": "wild"}, "variant must be one of"),
            ("settings option", {"game": "dutch", "option": "colour", "value": "red"}, "no option 'colour'"),
            ("settings option", {"game": "chess", "option": "target", "value": "1"}, "no game 'chess'"),
            ("settings set", {"key": "turn_timeout_seconds", "value": "2"},
             "turn_timeout_seconds: got 2, expected a whole number from 5 to 3600"),
            ("settings set", {"key": "turn_warning_seconds", "value": "90"},
             "expected less than turn_timeout_seconds (60)"),
            ("settings set", {"key": "idle_seconds", "value": "soon"}, "idle_seconds must be a whole number"),
            ("settings set", {"key": "bot_speed", "value": "warp"},
             "bot_speed must be one of 'slow', 'relaxed', 'normal', 'fast'"),
            ("settings set", {"key": "bot_strength", "value": "brutal"},
             "bot_strength must be one of 'easy', 'normal', 'hard'"),
            ("settings set", {"key": "race_window_ms", "value": "5000"},
             "race_window_ms must be a whole number from 0 to 1000"),
            ("settings reset", {"key": "colour"}, "no setting 'colour'"),
        ]
        for command, options, expected in cases:
            refused = await fake.slash(manager, world.channel, command, options=options)
            assert not seen_alone(refused, manager, f"{command} {options}")
            assert refused.text.startswith("Not changed") and expected in refused.text, (options, refused.text)
        assert await bot.storage.guild_settings(world.guild.id) == before, "nothing stored"
        forged = await fake.slash(manager, world.channel, "settings set", options={"key": "secret", "value": "1"},
                                  forged=True)
        assert forged.ephemeral and "`secret` is not one" in forged.text, forged.text
        assert bot.tables.server.of(world.guild.id).pace == "auto"


async def test_server_settings_survive_a_restart(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Settings made before a restart are the server's after it (same database): `/settings show`
    marks them, a new table starts from them; what was not set shows the config's value."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    db = tmp_path / "p.db"
    async with parlor(fake, db, SETTINGS_COGS):
        for key, value in (("bot_strength", "easy"), ("pings", "off"), ("idle_seconds", "120")):
            await fake.slash(manager, world.channel, "settings set", options={"key": key, "value": value})
        await fake.slash(manager, world.channel, "settings option",
                         options={"game": "dutch", "option": "jokers", "value": "off"})
    async with parlor(fake, db, SETTINGS_COGS) as again:
        shown = await fake.slash(manager, world.channel, "settings show")
        assert "`bot_strength`: **easy** ✎" in shown.text and "`pings`: **off** ✎" in shown.text
        assert "`idle_seconds`: **120** ✎" in shown.text and "dutch: jokers=off" in shown.text
        assert "`turn_timeout_seconds`: **60** —" in shown.text, "not set: the config's"
        assert again.tables.server.bot_strength(world.guild.id) == "easy"
        assert again.tables.server.tables(world.guild.id).idle_seconds == 120
        _, lobby = await open_game(fake, world, world.alice, "dutch")
        assert "jokers off" in lobby.text and again.tables.tables[1].options["jokers"] is False


async def test_an_organizer_role_set_for_the_server_creates_tournaments(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """The config names no organizer role: a member of role O is refused `/tournament create`; once the
    server adds O to its organizer roles, that member creates one."""
    role = fake.add_role(world.guild, "Organizers")
    organizer = fake.add_user("oli", guild=world.guild, roles=[role])
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", [*COGS, "cogs.tournaments", "cogs.settings"]) as bot:
        create = {"name": "Cup", "game": "high-card", "format": "swiss"}
        refused = await fake.slash(organizer, world.channel, "tournament create", options=create)
        assert refused.ephemeral and "Manage Server or Manage Events" in refused.text, refused.text
        await fake.slash(manager, world.channel, "settings role",
                         options={"list": "organizer_roles", "role": role, "action": "add"})
        created = await fake.slash(organizer, world.channel, "tournament create", options=create)
        assert not created.failed and not created.ephemeral, created.text
        assert [t.organizer_id for t in await bot.storage.tournaments(guild_id=world.guild.id)] == [organizer.id]
