"""The loopback Discord's Discord-like rate limits (sandbox/ratelimits.py): what the REST budget is proven against."""

from __future__ import annotations

import asyncio

from sandbox import FakeDiscord
from sandbox.ratelimits import RateLimits


def test_the_global_limit_counts_everything_but_interactions() -> None:
    limits = RateLimits(global_per_s=50)
    for i in range(50):
        assert limits.check("POST", f"/channels/{i}/messages", 1000.0).allowed
    refused = limits.check("POST", "/channels/99/messages", 1000.0)
    assert not refused.allowed and refused.is_global and 0 < refused.retry_after <= 1.0
    assert limits.check("POST", "/interactions/1/tok/callback", 1000.0).allowed, "interactions are exempt"
    assert limits.check("POST", "/channels/98/messages", 1999.0).allowed is False, "the same second is full"
    assert limits.check("PATCH", "/webhooks/1/tok/messages/@original", 1000.0).allowed
    assert limits.check("POST", "/channels/99/messages", 2001.0).allowed, "a second later it passes"
    assert all(limits.check("POST", f"/interactions/{i}/tok{i}/callback", 2001.0).allowed for i in range(100)), \
        "interaction answers are never limited"
    edits = [limits.check("PATCH", "/webhooks/1/tokA/messages/@original", 2001.0 + i) for i in range(6)]
    assert [v.allowed for v in edits] == [True] * 5 + [False], "an interaction token's webhook has its own bucket"
    assert limits.check("PATCH", "/webhooks/1/tokB/messages/@original", 2010.0).allowed
    assert limits.refused_global == 2 and limits.refused == 3


def test_a_channel_takes_five_messages_in_five_seconds_and_says_so_in_its_headers() -> None:
    limits = RateLimits()
    verdicts = [limits.check("POST", "/channels/7/messages", 10_000.0 + i) for i in range(6)]
    assert [v.allowed for v in verdicts] == [True] * 5 + [False]
    assert [v.headers["X-RateLimit-Remaining"] for v in verdicts[:5]] == ["4", "3", "2", "1", "0"]
    assert verdicts[0].headers["X-RateLimit-Limit"] == "5"
    assert not verdicts[5].is_global and 4.9 < verdicts[5].retry_after <= 5.0
    assert limits.check("POST", "/channels/8/messages", 10_010.0).allowed, "another channel has its own bucket"


async def test_discord_py_paces_itself_by_the_headers_and_no_send_is_lost(fake: FakeDiscord, world, bot) -> None:
    """Eight sends into one channel: discord.py waits out the 5-per-5-s bucket as with Discord; all arrive."""
    limits = fake.enforce_discord_rate_limits()
    channel = bot.get_channel(world.channel.id)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.gather(*(channel.send(f"message {i}") for i in range(8)))
    contents = [m.content for m in fake.messages(world.channel)]
    assert sorted(contents) == sorted(f"message {i}" for i in range(8)), "every send arrived"
    assert loop.time() - start > 4, "the bucket (5 in 5 s) made it wait"
    assert limits.refused <= 3, "the headers let discord.py wait instead of hammering"
