"""Gateway life: READY and GUILD_CREATE, dropped connections, RESUME replay, op 7 and op 9."""

from __future__ import annotations

import discord
import pytest

from sandbox import pointed_at, running_bot

from .conftest import SandboxTestBot


async def test_ready_brings_guild_channels_and_members(fake, world, bot):
    """After READY and GUILD_CREATE the bot knows the guild, its channels and every member."""
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Parlor Test"
    assert {c.name for c in guild.text_channels} == {"games", "quiet"}
    assert guild.member_count == len(world.guild.members) == 4
    assert bot.user.id == fake.bot_user.id and bot.application_id == fake.application_id


async def test_members_intent_gets_every_member_without_chunking(fake, world):
    """With the members intent the member list is complete at GUILD_CREATE, so no chunk is needed."""
    client = discord.Client(intents=discord.Intents.default() | discord.Intents(members=True))
    async with running_bot(fake, client):
        guild = client.get_guild(world.guild.id)
        assert guild.chunked and {m.name for m in guild.members} >= {"alice", "bob"}


async def test_guild_added_while_connected_is_dispatched(fake, world, bot):
    """A guild created after login reaches the bot as GUILD_CREATE."""
    later = fake.add_guild("Later")
    fake.add_channel(later, "lobby")
    await fake.wait_for(lambda: bot.get_guild(later.id) and bot.get_guild(later.id).get_channel(later.channel_ids[0]),
                        what="the new guild and channel")


async def test_dropped_gateway_resumes_and_replays_missed_dispatch(fake, world, bot):
    """A closed socket makes the bot RESUME; a message posted while it was away arrives by replay."""
    async with fake.gateway_down():
        note = fake.post_message(world.alice, world.channel, "sent during the drop")
    await fake.wait_for(lambda: any(m.id == note.id for m in bot.received), what="the replayed MESSAGE_CREATE")
    assert fake.resume_count == 1 and fake.identify_count == 1
    assert fake.replayed_count == 1
    replayed = [f for f in fake.gateway_log if f.connection == 2 and f.t == "MESSAGE_CREATE"]
    assert len(replayed) == 1


async def test_interaction_after_plain_drop_is_served(fake, world, bot):
    """After drop_gateway the bot comes back by itself and answers a slash command."""
    await fake.drop_gateway()
    await fake.wait_for(lambda: fake.resume_count == 1 and fake.connected, what="RESUME")
    assert (await fake.slash(world.alice, world.channel, "ping")).content == "pong"


async def test_server_requested_reconnect_resumes(fake, world, bot):
    """Op 7 RECONNECT makes the bot reconnect and RESUME the same session."""
    await fake.request_reconnect()
    await fake.wait_for(lambda: fake.resume_count == 1 and fake.connected, what="RESUME after op 7")
    result = await fake.slash(world.alice, world.channel, "ping")
    assert result.content == "pong"
    assert fake.identify_count == 1


async def test_invalid_session_makes_bot_identify_again(fake, world, bot):
    """Op 9 (not resumable) makes the bot IDENTIFY anew and it keeps working."""
    await fake.invalidate_session(resumable=False)
    await fake.wait_for(lambda: fake.identify_count == 2 and fake.connected, what="a second IDENTIFY")
    await fake.wait_for_ready()
    result = await fake.slash(world.alice, world.channel, "ping")
    assert result.content == "pong"


async def test_resumed_event_fires(fake, world, bot):
    """discord.py's on_resumed fires after a drop (RESUMED carries d: {})."""
    resumed = []

    async def on_resumed() -> None:
        resumed.append(True)

    bot.add_listener(on_resumed)
    await fake.drop_gateway()
    await fake.wait_for(lambda: resumed, what="on_resumed")


async def test_wrong_token_is_refused(fake, world):
    """A bot with the wrong token cannot log in (401 on GET /users/@me becomes LoginFailure)."""
    client = SandboxTestBot()
    with pointed_at(fake), pytest.raises(discord.LoginFailure):
        await client.login("not-the-bot-token")
    await client.close()


async def test_channel_refusing_threads_shows_in_permissions(fake, world, bot):
    """discord.py's own permission check agrees with the 403: no thread creation in the no-threads channel."""
    guild = bot.get_guild(world.guild.id)
    games, quiet = guild.get_channel(world.channel.id), guild.get_channel(world.no_threads.id)
    assert games.permissions_for(guild.me).create_public_threads
    assert not quiet.permissions_for(guild.me).create_public_threads
    assert guild.me.guild_permissions.manage_threads and not guild.me.guild_permissions.administrator
    result = await fake.slash(world.alice, world.no_threads, "ping")
    seen = next(i for i in bot.seen if i.id == result.id)
    assert not seen.app_permissions.create_public_threads and not seen.permissions.create_public_threads


class ShardedPingBot(discord.AutoShardedClient):
    """An AutoShardedClient with one /ping command (and no 5 s wait between shard IDENTIFYs)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), shard_count=2)
        self.tree = discord.app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="Pong with the shard")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong from shard {interaction.guild.shard_id}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def test_sharded_bot_gets_each_guild_on_its_shard(fake):
    """With two shards each guild arrives on shard (id >> 22) % 2 and its interactions go there."""
    guilds = [fake.add_guild(f"G{n}", shard=(n, 2)) for n in range(2)]
    channels = [fake.add_channel(g, "games") for g in guilds]
    alice = fake.add_user("alice")
    for g in guilds:
        fake.add_member(g, alice)
    client = ShardedPingBot()
    async with running_bot(fake, client):
        await client.tree.sync()
        assert fake.identify_count == 2 and fake.shard_count == 2
        for n, channel in enumerate(channels):
            assert client.get_guild(guilds[n].id).shard_id == n
            result = await fake.slash(alice, channel, "ping")
            assert result.content == f"pong from shard {n}"


async def test_fast_heartbeats_raise_no_websocket_behind_warning(caplog):
    """Forty heartbeats at 50 ms are each acknowledged at once: discord.py never logs "websocket is … behind"."""
    import asyncio
    import logging

    from sandbox import FakeDiscord, build_world, running_bot
    from tests.sandbox.conftest import SandboxTestBot

    caplog.set_level(logging.DEBUG, logger="discord.gateway")
    async with FakeDiscord(heartbeat_interval_ms=50) as fake:
        build_world(fake)
        async with running_bot(fake, SandboxTestBot()):
            await asyncio.sleep(2.0)
    beats = [r for r in caplog.records if "Keeping shard ID" in r.getMessage()]
    assert len(beats) >= 20
    assert not [r for r in caplog.records if "behind" in r.getMessage() or "blocked" in r.getMessage()]


async def test_message_events_follow_the_identified_intents(fake, world):
    """As on Discord, a bot that did not ask for the guild messages intent is sent no MESSAGE_CREATE."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    seen: list[discord.Message] = []
    client.event(_collect(seen))
    async with running_bot(fake, client):
        fake.post_message(world.alice, world.channel, "not for this bot")
        later = fake.add_guild("Later")  # an event that is sent, after the message
        await fake.wait_for(lambda: client.get_guild(later.id) is not None, what="the later GUILD_CREATE")
        assert seen == []
        assert not [f for f in fake.gateway_log if f.t == "MESSAGE_CREATE"]


def _collect(seen):
    async def on_message(message):
        seen.append(message)
    return on_message
