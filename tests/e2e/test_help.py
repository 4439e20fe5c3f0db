"""End to end: /help and /games name only commands and buttons that exist (docs/tables.md)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.client import cog_extensions
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor, settled

BUTTON_WORDS = re.compile(r"\*\*([^*]+)\*\*")
COMMANDS = re.compile(r"`(/[a-z0-9 _-]+)`")


def command_paths(fake: FakeDiscord) -> set[str]:
    """Every invocable slash command, as typed: ``/games``, ``/table board``, ``/dutch-blitz new``."""
    paths: set[str] = set()
    for command in fake.global_commands + [c for cs in fake.guild_commands.values() for c in cs]:
        subs = [o for o in command.get("options") or [] if o["type"] == 1]
        paths |= {f"/{command['name']} {s['name']}" for s in subs} or {f"/{command['name']}"}
    return paths


async def test_help_and_games_name_only_what_exists(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Every `/command` in /help and /games is registered; every **button** in /help is one a table shows."""
    async with parlor(fake, tmp_path / "p.db", cog_extensions()) as bot:
        help_text = (await fake.slash(world.alice, world.channel, "help")).text
        games_text = (await fake.slash(world.alice, world.channel, "games")).text
        known = command_paths(fake)
        named = {m.strip() for m in COMMANDS.findall(help_text + games_text)}
        assert named, "the answers name commands"
        assert named <= known, f"named but not registered: {named - known}"
        for kind in bot.tables.uis:
            assert f"/{kind} new" in games_text and f"/{kind} new" in help_text

        labels: set[str] = set()
        for kind in bot.tables.uis:
            result = await settled(fake, await fake.slash(world.alice, world.channel, f"{kind} new"))
            assert "is open" in result.text
            lobby = fake.last_message(fake.threads(world.channel)[-1])
            labels |= {b.label for b in lobby.buttons}
            await fake.click(world.alice, lobby, "Add bot")
            await fake.click(world.alice, lobby, "Start")
            labels |= {b.label for b in fake.message(lobby.id).buttons}
            await fake.click(world.alice, lobby, "Leave game")
        buttons = {w for w in BUTTON_WORDS.findall(help_text) if w != "Parlor"}
        assert buttons <= labels, f"/help names buttons no table shows: {buttons - labels}"
