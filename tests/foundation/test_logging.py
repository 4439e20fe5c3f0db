"""Logging never writes a game's seed (issue 17 item 16): libraries stay at INFO unless asked."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import cli
from bot.config import load_config
from bot.storage import Storage

SEED = 918273645


async def _store_a_game(path: Path) -> None:
    async with Storage.open(str(path)) as storage:
        game = await storage.create_game("dutch", seed=SEED, options={})
        await storage.append_action(game, 1, "p0", {"type": "draw"}, discord_ts_ms=1)


@pytest.fixture
def restore_loggers():
    names = ["", *cli.THIRD_PARTY_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    handlers = list(logging.getLogger().handlers)
    yield
    for n, level in levels.items():
        logging.getLogger(n).setLevel(level)
    logging.getLogger().handlers[:] = handlers


async def test_debug_logging_writes_no_seed(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                            restore_loggers: None) -> None:
    """PARLOR_LOG_LEVEL=DEBUG: Parlor logs at DEBUG, aiosqlite's SQL (with the seed) is not logged."""
    config = load_config(environ={"PARLOR_LOG_LEVEL": "DEBUG"})
    cli._setup_logging(config)
    assert logging.getLogger("parlor").getEffectiveLevel() == logging.DEBUG
    assert logging.getLogger("aiosqlite").getEffectiveLevel() == logging.INFO
    with caplog.at_level(logging.DEBUG):
        await _store_a_game(tmp_path / "p.db")
    assert not [r for r in caplog.records if str(SEED) in r.getMessage()]


async def test_third_party_debug_only_when_asked(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                 restore_loggers: None) -> None:
    """The library level is a separate, explicit choice (and this test proves the seed check can fail)."""
    config = load_config(environ={"PARLOR_LOG_LEVEL": "DEBUG"})
    import dataclasses

    config = dataclasses.replace(config, logging=dataclasses.replace(config.logging, third_party_level="DEBUG"))
    cli._setup_logging(config)
    with caplog.at_level(logging.DEBUG):
        await _store_a_game(tmp_path / "p.db")
    assert [r for r in caplog.records if str(SEED) in r.getMessage()], "aiosqlite at DEBUG logs SQL parameters"
