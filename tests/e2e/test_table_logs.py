"""End to end: the table lifecycle's INFO log lines (opened, finished, restored, ended), each written once;
and ``/table log`` tells a finished game with its players' names, never their ids or mentions."""

from __future__ import annotations

import dataclasses
import logging
import re
from pathlib import Path

import pytest

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import COGS, World, parlor, settled
from tests.e2e.test_tables import open_table, play_out

RAW_ID = re.compile(r"<@|\bu\d{5,}\b|\bbot\d+\b")
"""What a told game must never show: a mention, or an engine player id (``u<snowflake>``, ``bot<n>``)."""


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("parlor") and r.levelno == logging.INFO]


def once(caplog: pytest.LogCaptureFixture, start: str) -> str:
    """The one INFO line that starts with *start*."""
    found = [line for line in lines(caplog) if line.startswith(start)]
    assert len(found) == 1, (start, lines(caplog))
    return found[0]


async def test_table_lifecycle_is_logged_once_per_step(fake: FakeDiscord, world: World, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    """Table 1 is opened and played to the end; table 2 is opened, survives a restart and is ended by its
    host: each step writes its INFO line on the "parlor" logger once, naming the table."""
    caplog.set_level(logging.INFO, logger="parlor")
    db = tmp_path / "parlor.db"
    async with parlor(fake, db) as first:
        thread, lobby = await open_table(fake, world, tricks=2)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        await play_out(fake, lobby, [world.alice, world.bob], first.tables.tables[1])
        await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5,
                            what="the final standings")
        opened = once(caplog, "table 1 opened")
        assert f"high-card in guild {world.guild.id} by user {world.alice.id}" in opened
        assert once(caplog, "table 1 finished") == f"table 1 finished: high-card in guild {world.guild.id}"
        elsewhere = dataclasses.replace(world, channel=fake.add_channel(world.guild, "more-games"))
        second, _ = await open_table(fake, elsewhere)  # open_table expects the channel's only thread
        once(caplog, "table 2 opened")
        assert not [line for line in lines(caplog) if "restored" in line or "ended" in line]
    async with parlor(fake, db):
        assert once(caplog, "restored") == "restored 1 table(s) after a restart"
        ended = await settled(fake, await fake.slash(world.alice, second, "table end"))
        assert "was ended" in ended.text
        assert once(caplog, "table 2 ended") == f"table 2 ended by user {world.alice.id}"
    for start in ("table 1 opened", "table 1 finished", "table 2 opened", "restored", "table 2 ended"):
        once(caplog, start)
    assert not [line for line in lines(caplog) if line.startswith("table 1 ended")], "a finished table is not ended"


async def told_log(fake: FakeDiscord, user, thread) -> str:
    """``/table log`` by *user* in *thread*: the text of the file it answers with."""
    told = await settled(fake, await fake.slash(user, thread, "table log"))
    assert told.ephemeral and told.message.attachments, told.text
    (text,) = told.message.files.values()
    return text.decode()


async def test_table_log_of_a_blitzkrieg_war_names_the_players(fake: FakeDiscord, world: World,
                                                               tmp_path: Path) -> None:
    """Alice and bob fight a short war at the automatic pace; `/table log` tells it with their names (the
    battles' own lines carried the player ids), never an id or a mention."""
    async with parlor(fake, tmp_path / "p.db", [*COGS, "cogs.games"],
                      tables=TablesConfig(redraw_interval_ms=100, board_refresh_ms=100), timer_scale=0.02) as bot:
        result = await settled(fake, await fake.slash(world.alice, world.channel, "blitzkrieg new",
                                                      options={"max_battles": 3, "pace": "auto"}))
        assert "is open" in result.text, result.text
        thread = fake.threads(world.channel)[-1]
        lobby = fake.last_message(thread)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await fake.wait_for(lambda: table.engine is not None and table.engine.is_over, timeout=10,
                            what="the war to end by itself")
        await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5,
                            what="the final standings")
        text = await told_log(fake, world.bob, thread)
    assert "alice turns " in text and "bob turns " in text, text[:600]
    assert not RAW_ID.search(text), RAW_ID.search(text)


async def test_table_log_of_high_card_names_people_and_bots(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """High card between alice, a member whose name has markdown in it, and a bot: `/table log` names each
    as the table did (the name as typed, not escaped), in the narrated lines and in the ones told from the
    events' data; no id, no mention."""
    marked = fake.add_user("mr_*x*", guild=world.guild)
    async with parlor(fake, tmp_path / "p.db") as bot:
        thread, lobby = await open_table(fake, world, tricks=2)
        await fake.click(marked, lobby, "Join")
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await play_out(fake, lobby, [world.alice, marked], table)
        await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5,
                            what="the final standings")
        bot_name = table.seats[2].name
        text = await told_log(fake, world.alice, thread)
    assert "player: alice" in text and "player: mr_*x*" in text and f"player: {bot_name}" in text, text
    assert "trick — winners: ['" in text and "\\" not in text, text
    assert not RAW_ID.search(text), RAW_ID.search(text)
