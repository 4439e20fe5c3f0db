"""A fifth game plugs in through its declaration alone (issue #28: "each game declared once").

The test-only game High card (``tests/engine/sample_game.py``) is installed here the way a game of
its own distribution would be: a distribution's metadata, put on ``sys.path``, declares it in the
``parlor.games`` entry-point group. Nothing shared is edited: the production cogs generate its
``/high-card new`` from its option declaration, load its table UI from the class its declaration
names, and the UI conformance driver plays it to the end through the loopback Discord.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.engine
from bot.client import cog_extensions
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_ui_conformance import BOT_DELAY_SCALE, fast_tables
from tests.e2e.ui_conformance import TableDriver
from tests.quick import table_options

KIND = "high-card"


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """High card installed as a distribution of its own (metadata only: its code is the tests')."""
    dist = tmp_path / "site" / "parlor_high_card-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: parlor-high-card\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{bot.engine.GAMES_GROUP}]\n{KIND} = tests.engine.sample_game:GAME\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "site"), *sys.path])
    # The registries are read again from the entry points (monkeypatch puts them back afterwards).
    for lazy in (bot.engine.GAMES, bot.engine.REGISTRY):
        monkeypatch.setattr(lazy, "_data", None)
    yield


def test_a_game_of_another_distribution_is_registered_by_its_entry_point(installed_plugin: None) -> None:
    """The registry finds High card's declaration beside Parlor's own four games."""
    from tests.engine.sample_game import GAME

    assert bot.engine.GAMES[KIND] is GAME and bot.engine.REGISTRY[KIND] is GAME.engine
    assert {"blitz", "blitzkrieg", "dutch", "dutch-blitz"} < set(bot.engine.GAMES)


async def test_a_game_plugged_in_by_its_declaration_passes_the_ui_conformance_test(
        installed_plugin: None, fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """With no edit to a shared file, /high-card new exists with its declared options and a whole game
    is played by random clicks: every click answered, every message within Discord's limits, every
    legal action reachable at every state sampled, no hidden card in a custom id."""
    spectator = fake.add_user("spectator", guild=world.guild)
    async with parlor(fake, tmp_path / "parlor.db", cog_extensions(), tables=fast_tables(), timer_scale=0.2) as bot_:
        assert KIND in bot_.tables.uis, "the generated game cog registered no table UI"
        (command,) = [c for c in fake.commands() if c["name"] == KIND]
        (new,) = command["options"]
        assert {o["name"]: (o.get("min_value"), o.get("max_value")) for o in new["options"]}["tricks"] == (1, 10)
        bot_.tables.bot_delay_scale = BOT_DELAY_SCALE
        driver = TableDriver(fake, bot_, world.channel, [world.alice, world.bob], spectator, KIND,
                             table_options(KIND), 1)
        await driver.open_and_start()
        run = await driver.play()
        print(run.summary())
        assert run.over
        assert run.states_checked >= 3 and run.board_clicks > 0
