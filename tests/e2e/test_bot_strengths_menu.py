"""The lobby's Add-bot menu offers the same three strengths in every game (issue #30, item 6):
Easy, Normal and Hard, each with a line of how it plays; a plain **Add bot** seats Normal, and
picking Hard seats the game's hard bot (``docs/tables.md``, "Bots")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import GAMES
from sandbox import FakeDiscord
from sandbox.models import walk_components
from tests.e2e.conftest import COGS, World, parlor, settled

GAME_COGS = [*COGS, "cogs.games"]


async def open_lobby(fake: FakeDiscord, world: World, kind: str):
    """``/<kind> new`` by Alice: the lobby message of the new table."""
    result = await settled(fake, await fake.slash(world.alice, world.channel, f"{kind} new"))
    assert result.ephemeral and "is open" in result.text, result.text
    return fake.last_message(fake.threads(world.channel)[-1])


def bot_menu(fake: FakeDiscord, lobby) -> dict:
    """The Add-bot menu of *lobby* as Discord got it (raw JSON: labels, values, descriptions)."""
    return next(c for c in walk_components(fake.message(lobby.id).components)
                if str(c.get("custom_id", "")).startswith("parlor:botpick:"))


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_the_add_bot_menu_offers_easy_normal_hard_and_add_bot_seats_normal(
        fake: FakeDiscord, world: World, tmp_path: Path, kind: str) -> None:
    """Each game's menu lists Easy, Normal, Hard with the declared descriptions; Add bot seats the
    normal bot; after a new lobby, picking Hard seats the hard one (its kind stored, its strength shown)."""
    game = GAMES[kind]
    async with parlor(fake, tmp_path / "p.db", GAME_COGS) as bot:
        lobby = await open_lobby(fake, world, kind)
        menu = bot_menu(fake, lobby)
        assert [(o["label"], o["value"]) for o in menu["options"]] == [
            ("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard")]
        assert [o.get("description") for o in menu["options"]] == [
            game.strengths[s].description for s in ("easy", "normal", "hard")]
        assert all(o.get("description") for o in menu["options"])

        await fake.click(world.alice, lobby, "Add bot")
        table = bot.tables.table_in(lobby.channel_id)
        assert [(s.bot_name, s.name) for s in table.seats if s.is_bot] == [(game.bot_for("normal"), "Bot 1 (normal)")]
        assert "Bot 1 (normal)" in fake.message(lobby.id).text
        await fake.click(world.alice, lobby, "Cancel")

        lobby = await open_lobby(fake, world, kind)
        await fake.select(world.alice, lobby, bot_menu(fake, lobby)["custom_id"], ["hard"])
        table = bot.tables.table_in(lobby.channel_id)
        assert [(s.bot_name, s.name) for s in table.seats if s.is_bot] == [(game.bot_for("hard"), "Bot 1 (hard)")]
        assert game.bot_for("hard") != game.bot_for("normal") != game.bot_for("easy")
        assert "Bot 1 (hard)" in fake.message(lobby.id).text


async def test_a_servers_default_strength_is_what_a_plain_add_bot_seats(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A manager sets the server's ``bot_strength`` to easy with ``/settings``: a plain **Add bot** then
    seats each game's easy bot (``docs/tables.md``, "Server settings")."""
    manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", [*GAME_COGS, "cogs.settings"]) as bot:
        done = await fake.slash(manager, world.channel, "settings set",
                                options={"key": "bot_strength", "value": "easy"})
        assert done.ephemeral and "now **easy**" in done.text, done.text
        for kind in sorted(GAMES):
            lobby = await open_lobby(fake, world, kind)
            await fake.click(world.alice, lobby, "Add bot")
            table = bot.tables.table_in(lobby.channel_id)
            assert [s.bot_name for s in table.seats if s.is_bot] == [GAMES[kind].bot_for("easy")], kind
            await fake.click(world.alice, lobby, "Cancel")
