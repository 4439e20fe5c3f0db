"""The sharded bot: one process running two shards against the loopback Discord."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.client import ShardedParlorBot, make_bot
from bot.config import DiscordConfig
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot
from tests.e2e.conftest import COGS, World, parlor_config, settled


async def test_two_shards_in_one_process_serve_a_table(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """shard_count=2 with both shard ids: two gateway sessions, and a table opens as usual."""
    base = parlor_config(fake, tmp_path / "p.db")
    config = dataclasses.replace(base, discord=dataclasses.replace(base.discord, shard_count=2, shard_ids=(0, 1)))
    async with Storage.open(config.database.path) as storage:
        client = make_bot(config, storage, load_cogs=COGS)
        assert isinstance(client, ShardedParlorBot)
        async with running_bot(fake, client):
            await client.tree.sync()
            assert fake.identify_count == 2
            result = await settled(fake, await fake.slash(world.alice, world.channel, "high-card new"))
            assert "is open" in result.text


async def test_restore_takes_only_this_processs_shards(tmp_path: Path) -> None:
    """A process running shard 1 of 2 owns guilds with (guild_id >> 22) % 2 == 1, and no others."""
    from bot.config import Config, DatabaseConfig

    config = Config(discord=DiscordConfig(shard_count=2, shard_ids=(1,)),
                    database=DatabaseConfig(path=str(tmp_path / "p.db")))
    async with Storage.open(config.database.path) as storage:
        client = make_bot(config, storage)
        assert client.tables.shards == (2, {1})
        assert client.tables.registry.on_this_shard(1 << 22) is True
        assert client.tables.registry.on_this_shard(2 << 22) is False


@pytest.mark.parametrize(("shard_ids", "share"), [((0, 1), 20.0), ((2,), 10.0), ((3,), 10.0), ((), 40.0)])
async def test_each_process_takes_its_share_of_the_bots_global_request_budget(
        tmp_path: Path, shard_ids: tuple[int, ...], share: float) -> None:
    """Discord's global limit is per bot: a process running some of 4 shards paces its REST requests at
    tables.rest_per_second x its shards / 4 (one running every shard takes all 40)."""
    from bot.config import Config, DatabaseConfig, TablesConfig

    config = Config(discord=DiscordConfig(shard_count=4, shard_ids=shard_ids), tables=TablesConfig(rest_per_second=40),
                    database=DatabaseConfig(path=str(tmp_path / "p.db")))
    async with Storage.open(config.database.path) as storage:
        client = make_bot(config, storage)
        assert client.tables.messages.budget.per_second == share
