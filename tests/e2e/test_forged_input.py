"""End to end: option values Discord's client would never send (a modified client, a hand-made request).

Discord's client keeps a slash command's values within their declared ranges, lengths and choices,
but the interaction reaches the bot as it was sent, and discord.py checks none of it but choices of
a ``Choice`` parameter (which it fails with an error nobody answers). Every such value is refused
before the command runs, privately, naming the option and what it takes, with no ERROR logged and
nothing made (issue #31 C). ``FakeDiscord.slash(..., forged=True)`` sends them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import cog_extensions
from sandbox import FakeDiscord
from sandbox.wire import DEFAULT_PERMISSIONS
from tests.e2e.conftest import World, parlor, seen_alone, settled

MANAGE_EVENTS = 1 << 33

FORGED = [
    ("dutch-blitz new", {"race_window_ms": -1}, ["race_window_ms", "0", "1000"]),
    ("dutch new", {"race_window_ms": 5000}, ["race_window_ms", "0", "1000"]),
    ("dutch-blitz new", {"bot_speed": "warp"}, ["bot_speed", "slow", "relaxed", "normal", "fast"]),
    ("dutch new", {"variant": "wild"}, ["variant", "passive", "aggressive"]),
    ("dutch new", {"hand_size": 99}, ["hand_size", "4", "6"]),
    ("tournament create", {"name": "Cup", "game": "dutch", "format": "knockout"},
     ["format", "swiss", "pods", "elimination", "round-robin"]),
    ("tournament create", {"name": "", "game": "dutch", "format": "swiss"}, ["name", "1", "100"]),
    ("tournament create", {"name": "Cup", "game": "dutch", "format": "pods", "table_size": 9},
     ["table_size", "3", "5"]),
    ("rules", {"game": "chess"}, ["game", "dutch-blitz"]),
]


@pytest.mark.parametrize(("command", "options", "named"), FORGED,
                         ids=[f"{c}-{next(iter(o.items()))[0] if len(o) == 1 else n[0]}" for c, o, n in FORGED])
async def test_a_forged_option_value_is_refused_privately_naming_the_option_and_what_it_takes(
        fake: FakeDiscord, world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture, command: str,
        options: dict[str, object], named: list[str]) -> None:
    """A value outside an option's range, length or choices: a private refusal that names the option and
    the values it takes; no ERROR, no table opened, no tournament created."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    async with parlor(fake, tmp_path / "p.db", cog_extensions()) as bot:
        result = await settled(fake, await fake.slash(organizer, world.channel, command, options=options,
                                                      forged=True))
        assert not seen_alone(result, organizer, command)
        assert all(word in result.text for word in named), result.text
        assert "went wrong" not in result.text
        assert not bot.tables.tables and not fake.threads(world.channel)
        assert await bot.storage.tournaments() == []
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]
