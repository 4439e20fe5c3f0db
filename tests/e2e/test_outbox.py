"""End to end: no notice is lost (issue #31, item 4). Table notices and tournament announcements go
through the durable outbox (``docs/design.md`` §3, "The outbox"): stored with the change that causes
them, posted in order per target and retried through a 429 storm, posted after a restart when the
bot stopped before sending, and never twice when it stopped between Discord's answer and the mark.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox import FakeDiscord
from sandbox.wire import DEFAULT_PERMISSIONS
from tests.e2e.conftest import World, parlor, settled
from tests.e2e.test_tables import open_table
from tests.e2e.test_tournaments import MANAGE_EVENTS, _parlor, create, play, show_up, wait_round

FAST_RETRY_S = 0.05
"""The sender's first pause after a failed try in these tests (it doubles per failure)."""


async def until(check: Callable[[], Awaitable[bool]], what: str, steps: int = 300) -> None:
    """Check the database every 50 ms until *check* holds (at most *steps* checks)."""
    for _ in range(steps):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what}: not after {steps} checks")


def took_over(fake: FakeDiscord, thread: Any, name: str) -> list[Any]:
    """The notices (messages without buttons: the table's message shows its latest notice too) that a
    bot took over *name*'s seat."""
    return [m for m in fake.messages(thread) if f"A bot took over {name}'s seat" in m.text and not m.components]


async def three_at_a_table(fake: FakeDiscord, world: World) -> tuple[Any, Any]:
    """Alice, Bob and Carol at a running High card table: its thread and its public message."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.carol, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    return thread, lobby


async def test_a_table_notice_outlasts_a_long_429_storm_in_order(fake: FakeDiscord, world: World, bot,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Thirty 429s on the thread's message route (discord.py gives up after five in a row): Carol's
    and then Bob's "a bot took over" notices are both posted, in that order, with no traceback."""
    bot.tables.outbox.retry_s = FAST_RETRY_S
    thread, lobby = await three_at_a_table(fake, world)
    fake.inject_rate_limit("POST", rf"/channels/{thread.id}/messages", retry_after=0.02, times=30)
    caplog.set_level(logging.INFO)
    for user in (world.carol, world.bob):
        left = await fake.click(user, lobby, "Leave game")
        assert not left.failed
    await fake.wait_for(lambda: took_over(fake, thread, "carol") and took_over(fake, thread, "bob"), timeout=30,
                        what="both notices through the storm")
    carol, bob = took_over(fake, thread, "carol"), took_over(fake, thread, "bob")
    assert len(carol) == len(bob) == 1 and carol[0].id < bob[0].id
    refused = [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{thread.id}/messages"
               and r.status == 429]
    assert len(refused) == 30
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records if r.exc_info]
    await until(lambda: _sent(bot, thread.id), "both rows marked sent")
    rows = await bot.storage.outbox.rows(target=thread.id)
    assert [r.message_id for r in rows] == [carol[0].id, bob[0].id] and rows[0].attempts > 0


async def test_a_notice_for_a_thread_that_is_gone_is_dropped_and_the_queue_goes_on(
        fake: FakeDiscord, world: World, bot, expected_errors: list[str], caplog: pytest.LogCaptureFixture) -> None:
    """Discord answers Carol's notice with 404 Unknown Channel (as for a deleted thread): the row is
    dropped with one log line, no traceback, and Bob's notice behind it is posted."""
    expected_errors.append(r"404 POST .*10003")
    thread, lobby = await three_at_a_table(fake, world)
    fake.fail_route("POST", rf"/channels/{thread.id}/messages", status=404, code=10003, message="Unknown Channel")
    caplog.set_level(logging.INFO)
    for user in (world.carol, world.bob):
        assert not (await fake.click(user, lobby, "Leave game")).failed
    await until(lambda: _sent(bot, thread.id, dropped=1, rows_at_least=2), "Bob's notice posted")
    assert not took_over(fake, thread, "carol") and len(took_over(fake, thread, "bob")) == 1
    carol, bob = await bot.storage.outbox.rows(target=thread.id)
    assert carol.dropped_ms is not None and carol.message_id is None and bob.message_id is not None
    assert [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()] == [
        f"outbox row {carol.id}: its thread {thread.id} is gone or closed to the bot (404 10003); dropped"]
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_notice_sent_but_not_marked_before_a_stop_is_not_posted_twice(fake: FakeDiscord, world: World,
                                                                              tmp_path: Path) -> None:
    """Discord makes Carol's notice but its answer is late; the bot stops before it hears it (the row is
    not marked sent). After the restart the row is sent again with its nonce: Discord answers with the
    first message, so the thread holds it once and the row is marked with that message."""
    db = tmp_path / "parlor.db"
    async with parlor(fake, db) as bot:
        thread, lobby = await three_at_a_table(fake, world)
        fake.hold_response("POST", rf"/channels/{thread.id}/messages", 2.0)
        left = await fake.click(world.carol, lobby, "Leave game")
        assert not left.failed
        await fake.wait_for(lambda: took_over(fake, thread, "carol"), timeout=10, what="the notice made on Discord")
        [pending] = [r for r in await bot.storage.outbox.rows(target=thread.id)]
        assert pending.sent_ms is None
        bot.tables.outbox.stop_grace_s = 0  # stopped as a killed process would be: nothing more goes out
    async with parlor(fake, db) as bot:
        await until(lambda: _sent(bot, thread.id), "the row marked sent")
        [made] = took_over(fake, thread, "carol")
        [row] = await bot.storage.outbox.rows(target=thread.id)
        assert row.message_id == made.id and row.id == pending.id


async def _sent(bot: Any, target: int, dropped: int = 0, rows_at_least: int = 1) -> bool:
    """Whether every row for *target* left the queue (at least *rows_at_least* of them were stored):
    posted, but *dropped* of them."""
    rows = await bot.storage.outbox.rows(target=target)
    return (len(rows) >= rows_at_least and all(r.sent_ms is not None or r.dropped_ms is not None for r in rows)
            and sum(r.dropped_ms is not None for r in rows) == dropped)


async def test_a_match_result_stored_before_a_stop_is_announced_once_after_the_restart(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A one-round tournament's match ends and its result is stored while Discord holds the channel's
    posts back (a long 429); the bot stops before the announcement is sent. After the restart on the
    same database the result and the final standings are announced, each exactly once."""
    db = tmp_path / "p.db"
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    users = {f"u{u.id}": u for u in (world.alice, world.bob)}
    async with _parlor(fake, db) as bot:
        message = await create(fake, world, organizer, name="Cup", game="high-card", format="swiss", rounds=1,
                               options="tricks=1")
        for user in users.values():
            assert not (await fake.click(user, message, "Register")).failed
        started = await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        assert "has started" in started.text, started.text
        await wait_round(fake, bot, 1, 1)
        s = await bot.get_cog("TournamentsCog").service.load(1)
        [match] = [m for m in s.current.matches if len(m.players) > 1]
        await show_up(fake, bot, match.game_id, users)
        route = f"/channels/{world.channel.id}/messages"
        fake.inject_rate_limit("POST", route, retry_after=60, times=1)
        await play(fake, bot, match.game_id, users)
        await until(lambda: _result_stored(bot), "the result stored")
        await fake.wait_for(lambda: any(r.path == route and r.status == 429 for r in fake.requests), timeout=10,
                            what="the announcement on its way")
        assert not [m for m in fake.messages(world.channel) if "Round 1, match 1" in m.text]
        bot.tables.outbox.stop_grace_s = 0  # stopped as a killed process would be: nothing more goes out
    async with _parlor(fake, db) as bot:
        await until(lambda: _sent(bot, world.channel.id), "the announcements")
        results = [m for m in fake.messages(world.channel) if "✅ Round 1, match 1" in m.text]
        final = [m for m in fake.messages(world.channel) if "Final standings" in m.text]
        assert len(results) == 1 and len(final) == 1 and results[0].id < final[0].id


async def _result_stored(bot: Any) -> bool:
    s = await bot.get_cog("TournamentsCog").service.load(1)
    return any(m.status == "done" and len(m.players) > 1 for m in s.rounds[0].matches)
