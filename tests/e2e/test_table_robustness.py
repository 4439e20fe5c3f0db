"""End to end: the table service under slow Discord, failures, restarts and concurrent clicks."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest

from bot.client import FULL_COLLECTION_AFTER
from sandbox import FakeDiscord, pointed_at
from tests.e2e.conftest import World, parlor, parlor_config, settled, stored_log
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz
from tests.e2e.test_tables import open_table, play_out


async def test_two_rematch_clicks_open_one_rematch(fake: FakeDiscord, world: World, bot) -> None:
    """Alice and Bob press Rematch at once: one lobby gathers them both, the second click is told it is
    in the rematch (Rematch gathers the players: issue #30, item 7)."""
    thread, lobby = await open_table(fake, world, tricks=1)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    await play_out(fake, lobby, [world.alice, world.bob], bot.tables.tables[1])
    await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5)
    first = await fake.click(world.alice, lobby, "Rematch", wait=False)
    second = await fake.click(world.bob, lobby, "Rematch", wait=False)
    await fake.wait_for_response(first)
    await fake.wait_for_response(second)
    assert [t.id for t in bot.tables.tables.values() if t.status == "lobby"] == [2]
    assert [r.id for r in await bot.storage.games_with_status("lobby")] == [2]
    assert sorted(s.user_id for s in bot.tables.tables[2].seats) == sorted([world.alice.id, world.bob.id])
    assert "You are in the rematch" in (first.text + second.text)


async def test_a_slow_notice_does_not_block_other_clicks(fake: FakeDiscord, world: World, bot) -> None:
    """Carol leaves (a notice is posted, slowly); Alice's Open my hand is still answered in time."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.carol, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    fake.slow_route("POST", r"/channels/\d+/messages", 3.5, times=1)
    leave = await fake.click(world.carol, lobby, "Leave game", wait=False)
    await asyncio.sleep(0.2)
    board = await fake.click(world.alice, lobby, "Open my hand")
    await fake.wait_for_response(leave)
    assert not board.failed and not leave.failed


async def test_table_opens_even_when_discord_is_slow(fake: FakeDiscord, world: World, bot) -> None:
    """/… new defers first: a slow thread creation and lobby post still end in an answer."""
    fake.slow_route("POST", r"/channels/\d+/threads", 1.8, times=1)
    fake.slow_route("POST", r"/channels/\d+/messages", 1.5, times=1)
    result = await fake.slash(world.alice, world.channel, "high-card new")
    await fake.wait_for(lambda: result.message is not None and not result.message.loading, timeout=10)
    assert not result.failed and "is open" in result.text


async def test_table_end_only_reaches_tables_of_this_server(fake: FakeDiscord, world: World, bot) -> None:
    """A moderator of another server cannot end table #1 by its number."""
    await open_table(fake, world)
    mallory = fake.add_user("mallory")
    other = fake.add_guild("Other", owner=mallory)
    channel = fake.add_channel(other, "x")
    await bot.tree.sync()
    result = await settled(fake, await fake.slash(mallory, channel, "table end", id=1))
    assert result.ephemeral and "no live table #1 in this server" in result.text
    assert 1 in bot.tables.tables


async def test_a_move_that_cannot_be_stored_is_undone(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """If the database refuses a move, the player is told and the game is as if it never happened."""
    db = tmp_path / "p.db"
    async with parlor(fake, db) as bot:
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        before = {p: table.engine.view(p) for p in [*table.engine.players, None]}
        real = bot.storage.append_action
        failures = iter([True])

        async def flaky(*args, **kwargs):
            if next(failures, False):
                raise OSError("disk I/O error")
            return await real(*args, **kwargs)

        bot.storage.append_action = flaky
        users = {f"u{world.alice.id}": world.alice, f"u{world.bob.id}": world.bob}
        user = users[table.engine.view(None)["turn"]]
        board = (await fake.click(user, lobby, "Open my hand")).message
        await fake.click(user, board, board.buttons[0].custom_id)
        assert "could not be saved" in fake.message(board.id).text
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        board = (await fake.click(user, lobby, "Open my hand")).message
        await fake.click(user, board, board.buttons[0].custom_id)
        assert [a.seq for a in await bot.storage.actions(1)] == [1]
    async with parlor(fake, db) as again:
        assert again.tables.tables[1].engine.action_count == 1


async def test_a_lobby_older_than_an_hour_is_posted_anew_at_start(fake: FakeDiscord, world: World, bot,
                                                                   expected_errors: list[str]) -> None:
    """The table message's age is its own (from its id): a 70-minute-old lobby is re-posted, not edited."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    fake.advance_clock(70 * 60)
    fake.cap_old_message_edits(0)
    expected_errors.append(r"30046")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    table.bump()
    await fake.wait_for(lambda: table.message_id != lobby.id, timeout=5, what="the re-post")


async def test_restore_keeps_the_message_age(fake: FakeDiscord, world: World, tmp_path: Path,
                                             expected_errors: list[str]) -> None:
    """After a restart, a table message already 70 minutes old is re-posted rather than edited."""
    db = tmp_path / "p.db"
    async with parlor(fake, db):
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
    fake.advance_clock(70 * 60)
    fake.cap_old_message_edits(0)
    expected_errors.append(r"30046")
    async with parlor(fake, db) as again:
        table = again.tables.tables[1]
        await fake.wait_for(lambda: table.message_id != lobby.id, timeout=5, what="the re-post")


async def test_parlor_sync_runs_no_tables(fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch) -> None:
    """`parlor sync` loads the cogs to sync commands but never restores or runs tables."""
    import bot.cli as cli
    import bot.client

    db = tmp_path / "p.db"
    async with parlor(fake, db):
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
    restored: list[int] = []
    monkeypatch.setattr(bot.client, "cog_extensions", lambda: ["cogs.tables", "tests.e2e._sample_cog"])
    from bot.tables.restore import Restorer

    real = Restorer.restore

    async def spy(self):
        restored.append(1)
        return await real(self)

    monkeypatch.setattr(Restorer, "restore", spy)
    with pointed_at(fake):  # _sync points discord.py at the configured Discord; put it back afterwards
        await cli._sync(parlor_config(fake, db), None)
    assert restored == []
    assert {c["name"] for c in fake.commands()} >= {"high-card", "table"}


async def test_boards_keep_working_while_bots_play_at_real_pace(fake: FakeDiscord, world: World,
                                                                tmp_path: Path) -> None:
    """Against three bots at human pace, a Flip clicked a second after opening the board is applied."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.bot_delay_scale = 1.0
        thread, lobby = await open_blitz(fake, world)
        for _ in range(3):
            await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        applied = 0
        for _ in range(3):
            board = (await fake.click(world.alice, lobby, "Open my board")).message
            await asyncio.sleep(1.0)
            count = len([a for p, a in (await stored_log(bot, table))["actions"] if p == f"u{world.alice.id}"])
            # The Flip on the board as it is now: a bot's move may have refreshed it meanwhile.
            flip = next(b for b in fake.message(board.id).buttons if b.label.startswith("Flip"))
            await fake.click(world.alice, board, flip.custom_id)
            after = len([a for p, a in (await stored_log(bot, table))["actions"] if p == f"u{world.alice.id}"])
            applied += after - count
            assert "fresh board" not in fake.message(board.id).text
        assert applied == 3


def slow_seats(bot: Any, monkeypatch: pytest.MonkeyPatch, seconds: float) -> Any:
    """Make storing a table's seats take *seconds* more (a slow disk, many tables at once); returns the
    real ``set_seats``, to put back with ``monkeypatch.setattr``."""
    real = bot.storage.set_seats

    async def slow_set_seats(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.storage, "set_seats", slow_set_seats)
    return real


@pytest.mark.parametrize(("decision_s", "late_ms"), [(2.6, 0), (1.7, 1500)], ids=["slow-decision", "late-click"])
async def test_a_click_at_risk_of_discords_3_s_is_deferred_never_failed(
        decision_s: float, late_ms: int, fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch) -> None:
    """The click is deferred, then answered, never failed:

    * slow-decision: storage slower than Discord's 3 s (hundreds of tables at once); the watchdog
      defers it at 2 s;
    * late-click: the click is 1.5 s old when the bot gets to it (its event loop behind: a thousand
      clicks at once after a restart) and the decision takes 1.7 s. Answered when decided, or
      deferred by the watchdog at 2 s, it would fail; it is deferred at once.

    A quick decision on a click in time is then answered without a deferral.
    """
    async with parlor(fake, tmp_path / "p.db") as bot:
        thread, lobby = await open_table(fake, world)
        real = slow_seats(bot, monkeypatch, decision_s)
        joined = await fake.click(world.bob, lobby, "Join", created_at_ms=fake.now_ms() - late_ms)
        assert not joined.failed and joined.response_type == 6, "deferred before Discord's 3 s"
        await fake.wait_for(lambda: "bob" in fake.message(lobby.id).text, timeout=5,
                            what="the lobby to show Bob once the seat is saved")
        monkeypatch.setattr(bot.storage, "set_seats", real)
        started = await fake.click(world.alice, lobby, "Start")
        assert not started.failed and started.response_type == 7, "a quick decision is answered at once"


async def test_an_answer_in_flight_when_the_watchdog_wakes_is_not_deferred(fake: FakeDiscord, world: World,
                                                                           tmp_path: Path, monkeypatch) -> None:
    """The decision takes 1.5 s and its answer 1 s more on the way: the watchdog (at 2 s) must not defer
    meanwhile, or Discord refuses the answer as the interaction's second response (40060)."""
    async with parlor(fake, tmp_path / "p.db") as bot:
        thread, lobby = await open_table(fake, world)
        slow_seats(bot, monkeypatch, 1.5)
        fake.slow_route("POST", r"/interactions/\d+/[^/]+/callback", 1.0, times=1)
        joined = await fake.click(world.bob, lobby, "Join")
        assert not joined.failed and joined.response_type == 7, "the handler's own answer, not a deferral"
        await asyncio.sleep(0.5)
        assert "bob" in fake.message(lobby.id).text
        shown = [m.text or "" for m in fake.messages(thread, visible_to=world.bob)]
        assert not [text for text in shown if "Something went wrong" in text]


async def test_a_click_answered_after_discords_3_s_logs_one_line(fake: FakeDiscord, world: World, tmp_path: Path,
                                                                caplog, expected_errors: list[str]) -> None:
    """Discord forgot the interaction before the answer came (10062): a warning without traceback, no second try."""
    expected_errors.append(r"This interaction failed|late first response|Unknown interaction")
    async with parlor(fake, tmp_path / "p.db") as bot:
        thread, lobby = await open_table(fake, world)
        fake.slow_route("POST", r"/interactions/\d+/[^/]+/callback", 3.2, times=1)
        with caplog.at_level("WARNING"):
            joined = await fake.click(world.bob, lobby, "Join")
            await asyncio.sleep(3.5)
        assert joined.failed, "Discord showed 'This interaction failed'"
        late = [r for r in caplog.records if "answered too late" in r.getMessage()]
        assert len(late) == 1 and late[0].exc_info is None
        assert not [r for r in caplog.records if r.exc_info and "parlor" in r.name], "no traceback logged"
        assert bot.tables.tables  # the table is still there and answers the next click
        left = await fake.click(world.bob, lobby, "Leave")
        assert not left.failed


async def test_once_ready_the_bot_freezes_start_up_and_keeps_full_collections_at_pythons_pace(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A ready bot has frozen what start-up built and runs a full garbage collection no rarer than
    Python's default (rarer ones free more garbage at once: issue #32's stall of 0.4-0.7 s); closing
    gives the process both back (docs/tables.md, "Robustness")."""
    before = gc.get_threshold()
    async with parlor(fake, tmp_path / "p.db") as bot:
        await fake.wait_for(lambda: bot._frozen, timeout=5, what="on_ready")
        assert gc.get_freeze_count() > 1000
        assert gc.get_threshold() == (before[0], before[1], FULL_COLLECTION_AFTER)
        assert FULL_COLLECTION_AFTER <= before[2]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
