"""A loopback Discord (REST v10 + gateway) for driving the real discord.py client in tests.

``FakeDiscord`` is the server and the users' side; ``point_discord_py_at`` / ``pointed_at``
aim discord.py at it; ``running_bot`` connects a client and waits for ``on_ready``. The data a
test asserts on (messages, buttons, interaction results, edit records) are dataclasses in
``sandbox.models``. Design notes: docs/design.md §8 "Testing against a real client,
without Discord".
"""

from .client import World, build_world, pointed_at, running_bot
from .emojis import FakeEmoji
from .models import (
    ButtonInfo,
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeUser,
    InteractionResult,
    RequestRecord,
    SelectInfo,
    make_snowflake,
    pinged_by,
    snowflake_time_ms,
)
from .server import FakeDiscord, point_discord_py_at
from .wire import DiscordHTTPError, GatewayFrame

__all__ = [
    "ButtonInfo",
    "World",
    "build_world",
    "DiscordHTTPError",
    "EditRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeEmoji",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeUser",
    "GatewayFrame",
    "InteractionResult",
    "RequestRecord",
    "SelectInfo",
    "make_snowflake",
    "pinged_by",
    "pointed_at",
    "point_discord_py_at",
    "running_bot",
    "snowflake_time_ms",
]
