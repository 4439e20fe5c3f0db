"""Every cog loads into the production bot, and no two slash commands share a name."""

from __future__ import annotations

from pathlib import Path

from bot.client import ParlorBot, cog_extensions
from bot.config import Config, DatabaseConfig
from bot.storage import Storage


async def test_every_cog_loads_and_command_names_are_unique(tmp_path: Path) -> None:
    """All of cogs/ loads; the top-level command names are distinct; each game cog registers a UI."""
    config = Config(database=DatabaseConfig(path=str(tmp_path / "x.db")))
    async with Storage.open(config.database.path) as storage:
        bot = ParlorBot(config, storage)
        for name in cog_extensions():
            await bot.load_extension(name)
        names = [c.name for c in bot.tree.get_commands()]
        assert len(names) == len(set(names)), names
        assert {"games", "rules", "help", "table", "dutch-blitz"} <= set(names)
        assert set(bot.tables.uis) <= set(names) | {"high-card"}
        await bot.close()


def test_helper_modules_are_not_extensions() -> None:
    """Modules starting with an underscore are helpers, never loaded as extensions."""
    assert all(not name.split(".")[-1].startswith("_") for name in cog_extensions())
    assert "cogs.tables" in cog_extensions()
