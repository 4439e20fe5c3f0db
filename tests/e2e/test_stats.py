"""End to end: /stats, /leaderboard (paged), /history and /table log through the loopback Discord."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from sandbox import FakeDiscord
from tests.e2e.conftest import COGS, World, parlor, stored_log
from tests.e2e.test_tables import open_table, play_out

STATS_COGS = [*COGS, "cogs.stats"]


def places(text: str) -> list[int]:
    """The leaderboard places listed in a message."""
    return [int(m.group(1)) for m in re.finditer(r"^(\d+)\. ", text, re.M)]


async def test_a_finished_game_is_rated_and_shows_in_stats_history_and_its_log(fake: FakeDiscord, world: World,
                                                                               tmp_path: Path) -> None:
    """Two people play High card to the end: both are rated, /stats and /history show it, /table log tells it."""
    async with parlor(fake, tmp_path / "p.db", STATS_COGS) as bot:
        thread, lobby = await open_table(fake, world, tricks=2)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await play_out(fake, lobby, [world.alice, world.bob], table)
        result = None
        for _ in range(100):  # the last move may be the table's own: its result is stored right after
            result = await bot.storage.result(1)
            if result:
                break
            await asyncio.sleep(0.05)
        assert result is not None
        await asyncio.sleep(0.1)  # the rating follows the result
        ratings = await bot.storage.ratings(world.guild.id, "high-card")
        decided = len(set(result["ranks"].values())) > 1  # a drawn game teaches nothing: unrated
        expected = {f"u{world.alice.id}", f"u{world.bob.id}"} if decided else set()
        assert {r.player for r in ratings} == expected
        stats = await fake.slash(world.alice, world.channel, "stats")
        assert stats.ephemeral and "Games 1" in stats.text
        assert ("high-card rating" in stats.text) == decided
        history = await fake.slash(world.alice, world.channel, "history", options={"user": world.bob})
        assert history.ephemeral and f"<@{world.alice.id}>" in history.text and "#1" in history.text
        told = await fake.slash(world.alice, thread, "table log")
        assert told.ephemeral and told.message.attachments, told.text
        text = told.message.files["table-1.txt"].decode()
        played = [e.data["card"]["label"] for e in table.engine.setup_events if e.type == "played"]
        log = await stored_log(bot, table)
        assert text.count("played") == len(log["actions"]) >= 4 and not played
        dealt = {c["label"] for e in table.engine.setup_events if e.type == "dealt" for c in e.data["cards"]}
        shown = {line.split("'label': '")[1].split("'")[0] for line in text.splitlines() if "'label': '" in line}
        assert shown and shown <= dealt, "only cards that were played face up are told"
        assert "dealt" not in text, "no private deal reaches the public log"


async def test_leaderboard_pages_with_buttons(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Twelve rated players: page 1 shows ten, Next shows the last two, Previous goes back."""
    async with parlor(fake, tmp_path / "p.db", STATS_COGS) as bot:
        guild = world.guild.id
        storage = bot.storage
        players = [fake.add_user(f"p{i}", guild=world.guild) for i in range(12)]
        cog = bot.get_cog("StatsCog")
        for _ in range(3):
            for i in range(0, 12, 2):
                a, b = players[i], players[i + 1]
                game = await storage.create_game("blitz", seed=1, guild_id=guild, thread_id=world.channel.id)
                await storage.set_seats(game, [(f"u{a.id}", a.id, None), (f"u{b.id}", b.id, None)])
                await storage.save_result(game, {"scores": {}, "ranks": {f"u{a.id}": 1, f"u{b.id}": 2},
                                                 "winners": [f"u{a.id}"], "detail": {}})
                await cog.ratings.record_game(game)
        board = await fake.slash(world.alice, world.channel, "leaderboard", options={"game": "blitz"})
        first = board.message
        assert not board.ephemeral and "Page 1 of 2" in first.text
        assert places(first.text) == list(range(1, 11))
        winners = {f"<@{p.id}>" for p in players[0::2]}
        top = [line for line in first.text.splitlines() if line.startswith(("1.", "2.", "3."))]
        assert all(any(w in line for w in winners) for line in top), "the players who won every game lead"
        await fake.click(world.bob, first, "Next ▶")
        page2 = fake.message(first.id)
        assert "Page 2 of 2" in page2.text and places(page2.text) == [11, 12]
        await fake.click(world.bob, page2, "◀ Previous")
        assert "Page 1 of 2" in fake.message(first.id).text
        month = await fake.slash(world.alice, world.channel, "leaderboard",
                                 options={"game": "blitz", "period": "30d"})
        assert "the last 30 days" in month.message.text and "Page 1 of 2" in month.message.text


async def test_rating_bots_is_for_managers_and_rebuilds(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """/ratings bots is hidden from ordinary members (default permissions) and, for a manager, rates bot games."""
    import pytest

    manager = fake.add_user("manager", guild=world.guild, manage_guild=True)
    async with parlor(fake, tmp_path / "p.db", STATS_COGS) as bot:
        with pytest.raises(PermissionError):
            await fake.slash(world.alice, world.channel, "ratings bots", options={"rated": True})
        game = await bot.storage.create_game("high-card", seed=1, guild_id=world.guild.id)
        await bot.storage.set_seats(game, [(f"u{world.alice.id}", world.alice.id, None), ("bot1", None, "first")])
        await bot.storage.save_result(game, {"scores": {}, "ranks": {f"u{world.alice.id}": 1, "bot1": 2},
                                             "winners": [f"u{world.alice.id}"], "detail": {}})
        answer = await fake.slash(manager, world.channel, "ratings bots", options={"rated": True})
        assert answer.ephemeral and "now rated" in answer.text and "1 rated game" in answer.text
        assert [r.player for r in await bot.storage.ratings(world.guild.id, "high-card")] == [f"u{world.alice.id}"]
