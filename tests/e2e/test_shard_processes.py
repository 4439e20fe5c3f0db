"""Two shard processes over one PostgreSQL database against the loopback Discord (docs/design.md §3,
README "Running on more than one machine"): each serves only its own shard's guilds; one stopping
leaves the other's tables playing; restarted, it brings its own tables back."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

from bot.client import ParlorBot, make_bot
from bot.config import DatabaseConfig
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot
from sandbox.models import FakeUser
from tests.e2e.conftest import COGS, parlor_config, settled


@contextlib.asynccontextmanager
async def shard_process(fake: FakeDiscord, url: str, shard: int) -> AsyncIterator[ParlorBot]:
    """A bot as `parlor run` makes it with discord.shard_ids = [shard] of 2 and database.url = *url*."""
    base = parlor_config(fake, Path("unused.db"))
    config = dataclasses.replace(base, discord=dataclasses.replace(base.discord, shard_count=2, shard_ids=(shard,)),
                                 database=DatabaseConfig(url=url))
    async with Storage.open(config.database.target) as storage:
        client = make_bot(config, storage, load_cogs=COGS, check_commands=False)
        client.tables.bot_delay_scale = 0.02
        async with running_bot(fake, client):
            await client.tree.sync()
            yield client


async def play_one(fake: FakeDiscord, table, lobby, people: dict[str, FakeUser]) -> None:
    """The player whose turn it is plays a card from their hand; the move is answered and applied."""
    turn = table.engine.view(None)["turn"]
    hand = (await fake.click(people[turn], lobby, "Open my hand")).message
    card = next(b for b in hand.buttons if b.label.startswith("Play"))
    count = table.engine.action_count
    result = await fake.click(people[turn], hand, card.custom_id)
    assert not result.failed, "the move is answered"
    await fake.wait_for(lambda: table.engine.action_count > count, timeout=5, what="the move to be applied")


async def test_two_shard_processes_over_one_postgresql_serve_only_their_guilds_and_survive_each_other(
        fake: FakeDiscord, pg_url: str) -> None:
    """Shard 0 and shard 1 of 2 each in its own bot over one PostgreSQL database: a table opens and plays
    in a guild of each, each process holds only its own guild's table; shard 1's process stops and the
    table on shard 0 goes on move after move; shard 1's process starts again and its table is back,
    every stored move kept, and plays on."""
    guilds = [fake.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [fake.add_channel(g, "games") for g in guilds]
    people = [{f"u{u.id}": u for u in (fake.add_user(f"a{n}", guild=g), fake.add_user(f"b{n}", guild=g))}
              for n, g in enumerate(guilds)]

    async def open_and_start(n: int) -> tuple[object, object]:
        alice, bob = people[n].values()
        result = await settled(fake, await fake.slash(alice, channels[n], "high-card new", options={"tricks": 10}))
        assert "is open" in result.text, result.text
        lobby = fake.messages(fake.threads(channels[n])[-1])[0]
        await fake.click(bob, lobby, "Join")
        await fake.click(alice, lobby, "Start")
        return lobby, alice

    async with contextlib.AsyncExitStack() as stack:
        zero = await stack.enter_async_context(shard_process(fake, pg_url, 0))
        one_stack = contextlib.AsyncExitStack()
        one = await one_stack.enter_async_context(shard_process(fake, pg_url, 1))
        (lobby0, _), (lobby1, _) = await open_and_start(0), await open_and_start(1)
        [table0], [table1] = zero.tables.tables.values(), one.tables.tables.values()
        assert (table0.guild_id, table1.guild_id) == (guilds[0].id, guilds[1].id), "each its own shard's guild"
        assert table0.id != table1.id, "one database numbers the tables of both"
        for _ in range(3):
            await play_one(fake, table0, lobby0, people[0])
            await play_one(fake, table1, lobby1, people[1])
        stored1 = table1.engine.action_count

        await one_stack.aclose()  # shard 1's process stops
        for _ in range(6):  # shard 0's table never skips a beat
            await play_one(fake, table0, lobby0, people[0])
        assert len(await zero.storage.actions(table0.id)) == table0.engine.action_count == 9

        one = await stack.enter_async_context(shard_process(fake, pg_url, 1))
        assert list(one.tables.tables) == [table1.id], "its own table back, and only its own"
        back = one.tables.tables[table1.id]
        assert back.engine is not None and back.engine.action_count == stored1
        await fake.wait_for(lambda: "Restored" in fake.message(lobby1.id).text, timeout=5,
                            what="shard 1's table redrawn after the restart")
        await play_one(fake, back, lobby1, people[1])
        await play_one(fake, table0, lobby0, people[0])
        assert list(zero.tables.tables) == [table0.id], "shard 0 never took shard 1's table"
        assert len(await one.storage.actions(table1.id)) == stored1 + 1
