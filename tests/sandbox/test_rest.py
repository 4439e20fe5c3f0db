"""Channel messages, limits, threads, DMs, edit rates and REST faults through the real client."""

from __future__ import annotations

import io
import time

import discord
import pytest
from discord.http import Route

from .conftest import DEADLINE_S


def _send_raw(bot, channel_id: int, body: dict):
    """POST a raw message body through the client's own HTTP layer (bypassing discord.py's checks)."""
    return bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id), json=body)


def _buttons(n: int, width: int = 1) -> list[dict]:
    return [{"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"c{i}"} for i in range(n * width)]


async def test_bot_message_with_view_is_stored_and_dispatched(fake, world, bot):
    """A channel send is stored with its components and comes back to the bot as MESSAGE_CREATE."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Deal", custom_id="sb:deal"))
    sent = await bot.get_channel(world.channel.id).send("hello", view=view)
    stored = fake.message(sent.id)
    assert stored.content == "hello" and stored.button("Deal").custom_id == "sb:deal"
    await fake.wait_for(lambda: any(m.id == sent.id for m in bot.received), what="MESSAGE_CREATE")


async def test_sixth_action_row_is_400(fake, world, bot):
    """Six action rows get Discord's 400 Invalid Form Body (50035)."""
    rows = [{"type": 1, "components": [b]} for b in _buttons(6)]
    with pytest.raises(discord.HTTPException) as caught:
        await _send_raw(bot, world.channel.id, {"content": "x", "components": rows})
    assert caught.value.status == 400 and caught.value.code == 50035
    assert "components" in caught.value.text


async def test_sixth_button_in_a_row_is_400(fake, world, bot):
    """A row of six buttons is refused."""
    rows = [{"type": 1, "components": _buttons(6)}]
    with pytest.raises(discord.HTTPException) as caught:
        await _send_raw(bot, world.channel.id, {"components": rows})
    assert caught.value.code == 50035


async def test_101_char_custom_id_is_400(fake, world, bot):
    """A custom_id of 101 characters is refused; 100 is accepted."""
    ok = {"type": 2, "style": 1, "label": "ok", "custom_id": "a" * 100}
    await _send_raw(bot, world.channel.id, {"components": [{"type": 1, "components": [ok]}]})
    bad = {**ok, "custom_id": "a" * 101}
    with pytest.raises(discord.HTTPException) as caught:
        await _send_raw(bot, world.channel.id, {"components": [{"type": 1, "components": [bad]}]})
    assert caught.value.code == 50035 and "100 or fewer" in caught.value.text


async def test_duplicate_custom_id_is_400(fake, world, bot):
    """Two components with one custom_id in a message are refused."""
    twin = {"type": 2, "style": 1, "label": "x", "custom_id": "same"}
    with pytest.raises(discord.HTTPException):
        await _send_raw(bot, world.channel.id, {"components": [{"type": 1, "components": [twin, dict(twin)]}]})


async def test_2001_char_content_is_400(fake, world, bot):
    """Content over 2000 characters is refused through the ordinary send path; 2000 is fine."""
    channel = bot.get_channel(world.channel.id)
    await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.status == 400 and "2000 or fewer" in caught.value.text
    assert any("400 POST" in e for e in fake.errors)


async def test_eleven_embeds_are_400(fake, world, bot):
    """More than 10 embeds in a message are refused (sent raw: discord.py checks this one itself)."""
    with pytest.raises(discord.HTTPException) as caught:
        await _send_raw(bot, world.channel.id, {"embeds": [{"title": str(i)} for i in range(11)]})
    assert caught.value.code == 50035


async def test_embed_over_6000_chars_is_400(fake, world, bot):
    """Embeds whose text totals more than 6000 characters are refused."""
    embeds = [discord.Embed(title="t", description="d" * 4000), discord.Embed(description="e" * 2100)]
    with pytest.raises(discord.HTTPException) as caught:
        await bot.get_channel(world.channel.id).send(embeds=embeds)
    assert "6000" in caught.value.text


async def test_empty_message_is_400(fake, world, bot):
    """A message with nothing in it gets 50006."""
    with pytest.raises(discord.HTTPException) as caught:
        await _send_raw(bot, world.channel.id, {"content": ""})
    assert caught.value.code == 50006


async def test_edit_fetch_history_delete(fake, world, bot):
    """Edits, fetches, history (newest first) and deletes behave as on Discord and are recorded."""
    channel = bot.get_channel(world.channel.id)
    first = await channel.send("one")
    second = await channel.send("two")
    await first.edit(content="one, edited")
    assert (await channel.fetch_message(first.id)).content == "one, edited"
    assert [m.content async for m in channel.history(limit=10)] == ["two", "one, edited"]
    await second.delete()
    assert fake.message(second.id).deleted
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(second.id)
    assert [e.message_id for e in fake.edits(world.channel, via="channel")] == [first.id]


async def test_thread_from_message(fake, world, bot):
    """/table opens a thread from its reply; the thread carries the message's id and a welcome."""
    result = await fake.slash(world.alice, world.channel, "table")
    await fake.wait_for(lambda: fake.threads(world.channel) and fake.messages(fake.threads(world.channel)[0]),
                        what="thread welcome")
    (thread,) = fake.threads(world.channel)
    assert thread.id == result.message.id and thread.name == "table-1"
    assert fake.messages(thread)[0].content == "welcome to the table"
    await fake.wait_for(lambda: bot.get_channel(thread.id) is not None, what="THREAD_CREATE at the bot")


async def test_thread_refused_falls_back(fake, world, bot):
    """In a channel without threads, creation is 403 and the bot's fallback message shows."""
    result = await fake.slash(world.alice, world.no_threads, "table")
    await fake.wait_for(lambda: result.followups, what="fallback follow-up")
    assert fake.threads(world.no_threads) == []
    assert "not allowed" in result.followups[0].content
    assert any("50013" in e for e in fake.errors)


async def test_standalone_thread(fake, world, bot):
    """A thread without a starter message is created (private by default in discord.py)."""
    thread = await bot.get_channel(world.channel.id).create_thread(name="side", type=discord.ChannelType.public_thread)
    assert [t.id for t in fake.threads(world.channel)] == [thread.id]
    assert fake.channels[thread.id].type == 11


async def test_dm_to_user(fake, world, bot):
    """user.send opens a DM channel and the message is in it."""
    user = await bot.fetch_user(world.alice.id)
    await user.send("your turn")
    assert [m.content for m in fake.dm_messages(world.alice)] == ["your turn"]


async def test_dm_to_closed_dms_is_403(fake, world, bot):
    """A user with closed DMs cannot be messaged (403, 50007)."""
    shy = fake.add_user("shy", guild=world.guild, dms_open=False)
    user = await bot.fetch_user(shy.id)
    with pytest.raises(discord.Forbidden) as caught:
        await user.send("hi")
    assert caught.value.code == 50007


async def test_429_with_retry_after_is_retried(fake, world, bot):
    """An injected 429 makes discord.py wait Retry-After and retry; the send then succeeds."""
    fake.inject_rate_limit("POST", r"/channels/\d+/messages", retry_after=0.2, times=1)
    started = time.monotonic()
    sent = await bot.get_channel(world.channel.id).send("after the limit")
    assert time.monotonic() - started >= 0.2
    statuses = [r.status for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert statuses[-2:] == [429, 200]
    assert fake.message(sent.id).content == "after the limit"


async def test_edit_rate_is_recorded_and_enforced(fake, world, bot):
    """With the channel edit limit on, a burst is slowed by 429s so no window holds more than the limit."""
    fake.enforce_edit_rate(edits=2, window_s=0.3)
    message = await bot.get_channel(world.channel.id).send("board v0")
    for v in range(1, 5):
        await message.edit(content=f"board v{v}")
    assert fake.message(message.id).content == "board v4"
    assert len(fake.edits(world.channel)) == 4
    assert fake.max_edits_in_window(world.channel, 0.3) <= 2
    assert any(r.status == 429 for r in fake.requests)


async def test_slow_route_delays(fake, world, bot):
    """A slowed route answers only after the added delay."""
    fake.slow_route("POST", r"/channels/\d+/typing", 0.2, times=1)
    started = time.monotonic()
    await bot.get_channel(world.channel.id).typing()
    assert time.monotonic() - started >= 0.2


async def test_file_upload_becomes_attachment(fake, world, bot):
    """A file sent with a message is stored as an attachment with its bytes."""
    sent = await bot.get_channel(world.channel.id).send("the log", file=discord.File(io.BytesIO(b"abc"), "game.txt"))
    stored = fake.message(sent.id)
    assert [a["filename"] for a in stored.attachments] == ["game.txt"]
    assert stored.files["game.txt"] == b"abc"
    assert sent.attachments[0].filename == "game.txt" and sent.attachments[0].size == 3


async def test_old_message_edit_cap_raises_30046(fake, world, bot):
    """With the cap on, editing an hour-old message fails with 429 code 30046 (not retried by discord.py)."""
    fake.cap_old_message_edits(0)
    message = await bot.get_channel(world.channel.id).send("table")
    await message.edit(content="fresh edit")
    fake.advance_clock(3601)
    with pytest.raises(discord.HTTPException) as caught:
        await message.edit(content="stale edit")
    assert caught.value.status == 429 and caught.value.code == 30046
    assert fake.message(message.id).content == "fresh edit"


async def test_global_rate_limit_is_waited_out(fake, world, bot):
    """A global 429 pauses every request of the client, then the send goes through."""
    fake.inject_rate_limit("*", r"/channels/\d+/messages", retry_after=0.1, is_global=True)
    sent = await bot.get_channel(world.channel.id).send("after the global limit")
    assert fake.message(sent.id).content == "after the global limit"
    assert [r.status for r in fake.requests][-2:] == [429, 200]


async def test_slow_callback_route_makes_answer_late(fake, world, bot):
    """Lag on the callback route pushes an otherwise prompt answer past the deadline."""
    fake.slow_route("POST", r"/interactions/\d+/[^/]+/callback", DEADLINE_S + 0.1, times=1)
    result = await fake.slash(world.alice, world.channel, "ping")
    assert result.failed and result.response_type is None
    await fake.wait_for(lambda: any("late first response" in e for e in result.errors), what="the late answer")
