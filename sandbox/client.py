"""Async context helpers that connect a real discord.py client to a ``FakeDiscord``.

These live in the package (not in tests/) so any test suite — the sandbox's own, and the
production bot's end-to-end tests — can build fixtures on them::

    async with FakeDiscord() as fake, pointed_at(fake):
        guild = fake.add_guild("Test"); channel = fake.add_channel(guild, "general")
        async with running_bot(fake, MyBot()) as bot:
            result = await fake.slash(alice, channel, "ping")
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import yarl

from .models import FakeChannel, FakeGuild, FakeUser
from .server import FakeDiscord, point_discord_py_at

if TYPE_CHECKING:
    import discord


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Points discord.py at ``fake`` (``point_discord_py_at``) and restores the previous targets on exit."""
    import discord.gateway
    import discord.http

    previous = point_discord_py_at(fake.api_base, fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = previous[0]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(previous[1])


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, client: discord.Client, *, timeout: float = 10.0,
                      fast_ready: bool = True) -> AsyncIterator[discord.Client]:
    """|coro| Logs ``client`` in to ``fake``, connects it, waits for ``on_ready``; closes it on exit.

    ``fast_ready`` lowers discord.py's ``guild_ready_timeout`` (2 s by default: the wait after the
    last GUILD_CREATE before ``on_ready``) to 0.05 s so tests start fast. Raises ``TimeoutError``
    if the client is not ready within ``timeout`` seconds, and re-raises the client's own
    failure (e.g. ``LoginFailure``) if its connection task died first.
    """
    with pointed_at(fake):
        if fast_ready:
            client._connection.guild_ready_timeout = 0.05  # a Client() option; set here for bots built elsewhere
        await client.login(fake.token)
        task = asyncio.create_task(client.connect(reconnect=True), name="sandbox-bot-connect")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                task.result()
                raise RuntimeError("the bot's gateway connection ended before it was ready")
            if ready not in done:
                raise TimeoutError(f"the bot was not ready within {timeout} s")
            yield client
        finally:
            ready.cancel()
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)


@dataclass
class World:
    """A ready-made small world: a guild, a channel with threads, one without, and some users."""

    guild: FakeGuild
    channel: FakeChannel
    no_threads: FakeChannel
    users: list[FakeUser]

    @property
    def alice(self) -> FakeUser:
        """The first user."""
        return self.users[0]

    @property
    def bob(self) -> FakeUser:
        """The second user."""
        return self.users[1]


def build_world(fake: FakeDiscord, *, users: tuple[str, ...] = ("alice", "bob"), guild: str = "Parlor Test",
                channel: str = "games") -> World:
    """Adds a guild with a ``channel`` (threads allowed), a ``quiet`` channel (threads refused) and ``users``."""
    g = fake.add_guild(guild)
    return World(guild=g, channel=fake.add_channel(g, channel), no_threads=fake.add_channel(g, "quiet",
                 allow_threads=False), users=[fake.add_user(name, guild=g) for name in users])
