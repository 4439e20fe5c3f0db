"""Discord's message nonce: the same ``nonce`` with ``enforce_nonce`` from the same author within a few
minutes returns the message it already created (the outbox relies on it, ``docs/design.md``)."""

from __future__ import annotations

import asyncio

import discord


async def test_a_repeated_nonce_returns_the_first_message(fake, world, bot):
    """Two sends with one nonce make one message; both answers are that message; another nonce is new."""
    channel = bot.get_channel(world.channel.id)
    first = await channel.send("the result", nonce="po-1")
    again = await channel.send("the result", nonce="po-1")
    other = await channel.send("the result", nonce="po-2")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in fake.messages(world.channel)].count("the result") == 2
    assert fake.message(first.id).nonce == "po-1"


async def test_a_nonce_older_than_the_window_makes_a_new_message(fake, world, bot):
    """After Discord's few minutes the nonce is forgotten: the same nonce creates a new message."""
    channel = bot.get_channel(world.channel.id)
    first = await channel.send("hello", nonce="po-7")
    fake.advance_clock(6 * 60)
    later = await channel.send("hello", nonce="po-7")
    assert later.id != first.id


async def test_a_held_answer_still_creates_the_message(fake, world, bot):
    """``hold_response``: the message exists before its answer reaches the bot."""
    fake.hold_response("POST", r"/channels/\d+/messages", 2)
    sending = asyncio.create_task(bot.get_channel(world.channel.id).send("in flight", nonce="po-9"))
    await fake.wait_for(lambda: any(m.content == "in flight" for m in fake.messages(world.channel)),
                        timeout=5, what="the held message")
    assert not sending.done()
    sending.cancel()
    again = await bot.get_channel(world.channel.id).send("in flight", nonce="po-9")
    assert [m.id for m in fake.messages(world.channel) if m.content == "in flight"] == [again.id]
    assert isinstance(again, discord.Message)
