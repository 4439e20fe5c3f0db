"""End to end: the table lifecycle's INFO log lines (opened, finished, restored, ended), each written once."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor, settled
from tests.e2e.test_tables import open_table, play_out


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
        assert "was ended" in ended.content
        assert once(caplog, "table 2 ended") == f"table 2 ended by user {world.alice.id}"
    for start in ("table 1 opened", "table 1 finished", "table 2 opened", "restored", "table 2 ended"):
        once(caplog, start)
    assert not [line for line in lines(caplog) if line.startswith("table 1 ended")], "a finished table is not ended"
