"""End to end: idle people in real-time games, Ready between hands, lobbies nobody starts (docs/tables.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz
from tests.e2e.test_tables import open_table

# timer_scale 0.01: 100 s of config are 1 s of test.
FAST = TablesConfig(redraw_interval_ms=200, idle_seconds=100, idle_warning_seconds=40, ready_timeout_seconds=50,
                    lobby_expiry_minutes=1)


async def test_an_idle_person_is_warned_then_a_bot_takes_the_seat(fake: FakeDiscord, world: World,
                                                                   tmp_path: Path) -> None:
    """Bob never moves in Dutch Blitz: he is pinged, then a bot plays his seat; Alice, who plays, keeps hers."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=FAST, timer_scale=0.01) as bot:
        bot.tables.bot_delay_scale = 1.0
        thread, lobby = await open_blitz(fake, world, stuck_seconds=0)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        bob = table.seat_of_user(world.bob.id)
        alice = table.seat_of_user(world.alice.id)
        for _ in range(12):  # Alice keeps flipping, every 0.1 s
            board = (await fake.click(world.alice, lobby, "Open my board")).message
            flip = next(b for b in board.buttons if b.label.startswith("Flip"))
            await fake.click(world.alice, board, flip.custom_id)
            await asyncio.sleep(0.1)
        assert bob.is_bot and not alice.is_bot
        texts = [m.text for m in fake.messages(thread)]
        assert any(f"<@{world.bob.id}> ⏰" in t for t in texts), "Bob was warned first"
        assert any("A bot took over bob's seat (idle)" in t for t in texts)


async def test_ready_times_out_between_hands(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Between hands nobody presses Ready: after ready_timeout_seconds they are made ready and the next hand deals."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=FAST, timer_scale=0.01) as bot:
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await asyncio.sleep(1.1)
        await fake.click(world.alice, lobby, "End hand (host)")
        assert table.engine.view(None)["phase"] == "between"
        await fake.wait_for(lambda: table.engine.view(None)["hand"] == 2, timeout=5, what="the next hand")


async def test_a_lobby_nobody_starts_expires(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A lobby still open after lobby_expiry_minutes closes itself and says so."""
    async with parlor(fake, tmp_path / "p.db", tables=FAST, timer_scale=0.01) as bot:
        thread, lobby = await open_table(fake, world)
        await fake.wait_for(lambda: 1 not in bot.tables.tables, timeout=5, what="the lobby to expire")
        assert (await bot.storage.game(1)).status == "cancelled"
        await fake.wait_for(lambda: "expired" in fake.message(lobby.id).text, timeout=5)
        assert fake.message(lobby.id).buttons == []


async def test_a_started_table_does_not_expire(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Starting the game in time stops the lobby's expiry."""
    async with parlor(fake, tmp_path / "p.db", tables=FAST, timer_scale=0.01) as bot:
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        await asyncio.sleep(0.8)
        assert bot.tables.tables[1].status == "running"


async def test_a_person_whose_seat_a_bot_took_for_idling_takes_it_back_by_opening_their_board(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Bob idles, a bot takes his seat; he comes back and presses Open my board: the seat is his again
    (the bot stops, he plays on, the game is his), and the thread hears he is back (issue #30, item 3).
    Someone the host removed gets no such way back."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=FAST, timer_scale=0.01) as bot:
        bot.tables.bot_delay_scale = 1.0
        thread, lobby = await open_blitz(fake, world, stuck_seconds=0)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.carol, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        bob = table.seat_of_user(world.bob.id)
        carol = table.seat_of_user(world.carol.id)
        removed = await fake.slash(world.alice, thread, "table kick", options={"user": world.carol})
        assert "carol was removed" in removed.text
        for _ in range(100):  # Alice keeps flipping; Bob idles until a bot has his seat
            if bob.is_bot:
                break
            board = (await fake.click(world.alice, lobby, "Open my board")).message
            flip = next(b for b in board.buttons if b.label.startswith("Flip"))
            await fake.click(world.alice, board, flip.custom_id)
            await asyncio.sleep(0.05)
        assert bob.is_bot and bob.away == (world.bob.id, "bob")
        back = await fake.click(world.bob, lobby, "Open my board")
        assert not back.failed and back.ephemeral and "not playing" not in back.text, back.text
        assert not bob.is_bot and bob.user_id == world.bob.id and bob.name == "bob"
        assert bob.player_id not in table.bots, "the bot left the seat"
        await fake.wait_for(lambda: any("bob is back in their seat" in m.text for m in fake.messages(thread)),
                            timeout=5, what="the notice that Bob is back")
        refused = await fake.click(world.carol, lobby, "Open my board")
        assert refused.ephemeral and "not playing" in refused.text and carol.is_bot
