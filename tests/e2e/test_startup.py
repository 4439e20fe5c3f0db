"""End to end: what `parlor run` tells an admin at start-up (issue 16, the first hour)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.client import ParlorBot
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot
from tests.e2e.conftest import COGS, World, parlor_config


async def test_ready_is_logged_and_missing_commands_name_parlor_sync(fake: FakeDiscord, world: World, tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """Before `parlor sync` the bot says who it is and warns that it has no slash commands; after, it does not."""
    caplog.set_level(logging.INFO, logger="parlor")
    config = parlor_config(fake, tmp_path / "p.db")
    async with Storage.open(config.database.path) as storage:
        client = ParlorBot(config, storage, load_cogs=COGS)
        async with running_bot(fake, client):
            await fake.wait_for(lambda: any("parlor sync" in r.getMessage() for r in caplog.records), timeout=5,
                                what="the unsynced warning")
            ready = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ready as")]
            assert ready and "1 server(s)" in ready[0] and "1 shard(s)" in ready[0]
            warning = next(r for r in caplog.records if "parlor sync" in r.getMessage())
            assert warning.levelname == "WARNING"
            await client.tree.sync()
            assert await client.warn_if_unsynced() is False


async def test_heartbeat_file_makes_parlor_health_pass_and_a_stale_one_fails(fake: FakeDiscord, world: World,
                                                                             tmp_path: Path) -> None:
    """While connected the bot touches its heartbeat file: `parlor health` says healthy; an old file says not."""
    import dataclasses
    import os
    import time

    from bot import cli
    from bot.config import HealthConfig

    beat = tmp_path / "heartbeat"
    config = dataclasses.replace(parlor_config(fake, tmp_path / "p.db"),
                                 health=HealthConfig(heartbeat_file=str(beat), heartbeat_seconds=5))
    assert cli._health(config) == 1  # no file: not connected yet
    async with Storage.open(config.database.path) as storage:
        client = ParlorBot(config, storage, load_cogs=COGS, check_commands=False)
        async with running_bot(fake, client):
            await fake.wait_for(beat.exists, timeout=5, what="the heartbeat file")
            assert cli._health(config) == 0
    old = time.time() - 60
    os.utime(beat, (old, old))
    assert cli._health(config) == 1


async def test_no_voice_library_warning_is_logged(fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Parlor uses no voice: without PyNaCl (or davey) installed, discord.py's "voice will NOT be supported"
    warnings are not logged when the bot is made."""
    import discord

    # discord.py warns once per process, at the first client made: pretend none was made yet and neither
    # library is installed.
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.WARNING)
    config = parlor_config(fake, tmp_path / "p.db")
    async with Storage.open(config.database.path) as storage:
        ParlorBot(config, storage, load_cogs=COGS, check_commands=False)
    voice = [r.getMessage() for r in caplog.records if "voice" in r.getMessage().lower()]
    assert voice == []
