"""Fixtures: the loopback Discord with a small world, and the production ParlorBot connected to it."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client import ParlorBot
from bot.config import Config, DatabaseConfig, DiscordConfig, TablesConfig
from bot.storage import Storage
from sandbox import FakeChannel, FakeDiscord, FakeGuild, FakeUser, running_bot

COGS = ["cogs.tables", "tests.e2e._sample_cog"]


@dataclass
class World:
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser


async def stored_log(bot: ParlorBot, table) -> dict:
    """*table*'s game log as stored (``Engine.log()`` shape): a table's engine keeps none in memory.

    A move is applied, then stored (its player is answered after both): this waits up to 5 s for
    every move the engine holds to be in the database, so a test never reads the log mid-commit.
    """
    deadline = asyncio.get_running_loop().time() + 5
    while True:
        rows = await bot.storage.actions(table.id)
        engine = table.engine
        if engine is None or len(rows) >= engine.action_count or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.02)
    actions = [[a.player_id, a.action] for a in rows]
    return {"kind": table.kind, "seed": table.seed, "options": table.options,
            "players": [s.player_id for s in table.seats], "actions": actions}


async def settled(fake: FakeDiscord, result):
    """The interaction's answer once it is no longer "thinking" (a deferred reply's follow-up has come)."""
    await fake.wait_for(lambda: result.failed or (result.message is not None and not result.message.loading),
                        timeout=5, what="the deferred answer")
    return result


def seen_alone(result, user, what: str) -> list[str]:
    """What is wrong with *result* as a refusal that only *user* may see (empty: nothing)."""
    if result.failed:
        return [f"{what}: the interaction failed"]
    shown = list({m.id: m for m in (result.message, *result.followups) if m is not None}.values())
    if not shown or result.response_type not in (4, 5):
        return [f"{what}: answered with type {result.response_type}, no message of its own"]
    return [f"{what}: {m.text[:80]!r} is seen by everyone" for m in shown
            if not m.ephemeral or m.visible_to != user.id]


@pytest.fixture
def expected_errors() -> list[str]:
    """Regexes of loopback errors a test provokes on purpose (append to it in the test)."""
    return []


@pytest.fixture
async def fake(expected_errors: list[str]) -> AsyncIterator[FakeDiscord]:
    """The loopback Discord; at teardown it must have seen no 4xx, no failed interaction, no unknown
    route, other than those the test expects."""
    async with FakeDiscord() as server:
        yield server
        server.check_clean(*expected_errors)


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Parlor Test")
    channel = fake.add_channel(guild, "games")
    return World(guild, channel, fake.add_user("alice", guild=guild), fake.add_user("bob", guild=guild),
                 fake.add_user("carol", guild=guild))


def parlor_config(fake: FakeDiscord, db: Path, tables: TablesConfig | None = None) -> Config:
    return Config(discord=DiscordConfig(token=fake.token, api_base=fake.api_base, gateway=fake.gateway_url),
                  database=DatabaseConfig(path=str(db)),
                  tables=tables or TablesConfig(redraw_interval_ms=200))


@contextlib.asynccontextmanager
async def parlor(fake: FakeDiscord, db: Path, cogs: list[str] = COGS, *, tables: TablesConfig | None = None,
                 timer_scale: float = 1.0) -> AsyncIterator[ParlorBot]:
    """The production bot class with a temporary database, connected and with its commands synced."""
    config = parlor_config(fake, db, tables)
    async with Storage.open(config.database.path) as storage:
        client = ParlorBot(config, storage, load_cogs=cogs, check_commands=False)
        client.tables.bot_delay_scale = 0.02
        client.tables.timer_scale = timer_scale
        async with running_bot(fake, client):
            await client.tree.sync()
            yield client


@pytest.fixture
async def bot(fake: FakeDiscord, world: World, tmp_path: Path) -> AsyncIterator[ParlorBot]:
    async with parlor(fake, tmp_path / "parlor.db") as client:
        yield client


class _FixedSeed:
    """Stands in for ``random.SystemRandom`` where the table service draws a new table's seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, stop: int) -> int:
        return self.seed


def deal_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every table opened (or rematched) from now on in this test deals seed *seed*, not a random one
    (the table service draws seeds from ``random.SystemRandom``)."""
    monkeypatch.setattr(random, "SystemRandom", lambda: _FixedSeed(seed))
