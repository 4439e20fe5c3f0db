"""End to end, against Discord's rate limits: many tables at once stay within the global limit (docs/tables.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor, settled
from tests.e2e.test_dutch_blitz import DB_COGS

TABLES = 30


async def open_busy_table(fake: FakeDiscord, user, channel) -> None:
    result = await settled(fake, await fake.slash(user, channel, "dutch-blitz new", options={"bot_speed": "fast"}))
    assert "is open" in result.text, result.text
    lobby = fake.last_message(fake.threads(channel)[-1])
    for _ in range(3):
        await fake.click(user, lobby, "Add bot")
    await fake.click(user, lobby, "Start")


async def test_a_burst_of_openings_and_a_restart_of_many_tables_meet_no_global_429(fake: FakeDiscord, world: World,
                                                                                 tmp_path: Path) -> None:
    """Thirty tables opened at once all open; they play and restart; Discord never refuses globally."""
    limits = fake.enforce_discord_rate_limits()
    tables = TablesConfig(rest_per_second=40, idle_seconds=3600, idle_warning_seconds=60)
    people = [(fake.add_user(f"p{i}", guild=world.guild), fake.add_channel(world.guild, f"t{i}"))
              for i in range(TABLES)]
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables) as bot:
        bot.tables.bot_delay_scale = 0.2
        await asyncio.gather(*(open_busy_table(fake, u, c) for u, c in people))
        await fake.wait_for(lambda: sum(t.status == "running" for t in bot.tables.tables.values()) == TABLES,
                            timeout=10, what="every table dealt")
        await asyncio.sleep(3)
        assert sum(t.engine.action_count for t in bot.tables.tables.values()) > TABLES, "the tables play"
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables) as bot:
        assert sum(t.status == "running" for t in bot.tables.tables.values()) == TABLES, "all restored"
        boards = await asyncio.gather(*(fake.click(u, fake.messages(fake.threads(c)[-1])[0], "Open my board")
                                        for u, c in people))
        unanswered = [b.text for b in boards if b.failed or not b.ephemeral or b.message is None
                      or "not playing" in b.text or "not running" in b.text]
        assert not unanswered, f"every restored table answers with a board: {unanswered}"
        await fake.wait_for(lambda: all("Restored" in fake.message(t.message_id).text
                                        for t in bot.tables.tables.values() if t.message_id), timeout=20,
                            what="every restored table to be redrawn")
    assert not [r for r in fake.interactions if r.failed], "every click was answered"
    assert limits.refused_global == 0, f"{limits.refused_global} global 429s"


async def test_a_table_a_person_clicked_is_redrawn_through_that_clicks_token(fake: FakeDiscord, world: World,
                                                                           tmp_path: Path,
                                                                           expected_errors: list[str]) -> None:
    """The Start click's token edits the table message outside the global limit; once Discord
    refuses that token, the bot's own route takes over at the next redraw (docs/tables.md)."""
    fake.enforce_discord_rate_limits()
    user, channel = fake.add_user("pat", guild=world.guild), fake.add_channel(world.guild, "busy")
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.bot_delay_scale = 0.2
        await open_busy_table(fake, user, channel)
        started = fake.now_ms()
        table = next(iter(bot.tables.tables.values()))

        def redraws(via: str) -> list[int]:
            return [e.at_ms for e in fake.edits(table.thread_id, via=via)
                    if e.message_id == table.message_id and e.at_ms > started]

        await fake.wait_for(lambda: len(redraws("interaction")) >= 3, timeout=10, what="redraws through the token")
        assert not redraws("channel"), "no redraw used the bot's route (the global limit)"
        kept = bot.tables.messages.tokens.get(table.id)
        board = await fake.click(user, fake.message(table.message_id), "Open my board")
        assert board.ephemeral and bot.tables.messages.tokens.get(table.id) is kept, \
            "a board's answer is not the table message's token"

        expected_errors.append(r"50027")
        fake.token_lifetime_s = 0  # Discord refuses the token from now on
        refused = fake.now_ms()
        await fake.wait_for(lambda: len(redraws("channel")) >= 2, timeout=10, what="redraws through the bot's route")
        assert bot.tables.messages.tokens.get(table.id) is None
        assert not [t for t in redraws("interaction") if t > refused], "no edit went through the refused token"
