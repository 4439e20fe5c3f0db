"""The web sandbox's pieces that need no browser: Discord's typed slash form, and a page with no CDN."""

from __future__ import annotations

import re

import pytest

from sandbox.web import STATIC, parse_slash

COMMANDS = [{"name": "dutch", "options": [{"type": 1, "name": "new", "options": [
    {"type": 4, "name": "target"}, {"type": 3, "name": "variant", "choices": [{"name": "aggressive", "value": "a"}]},
    {"type": 3, "name": "title"}]}]}, {"name": "games", "options": []}]


def test_typed_slash_commands_split_as_discord_writes_them() -> None:
    """``/name sub opt:value``: a value runs to the next known option (spaces kept); ``opt=value`` works too;
    what is neither is the tail being typed."""
    assert parse_slash(COMMANDS, "/dutch new target:30 title:Friday night variant=aggressive") == (
        "dutch new", COMMANDS[0]["options"][0]["options"],
        {"target": "30", "title": "Friday night", "variant": "aggressive"}, "")
    assert parse_slash(COMMANDS, "/dutch new tar")[2:] == ({}, "tar")
    assert parse_slash(COMMANDS, "/games")[0] == "games"
    with pytest.raises(ValueError, match="no command /nope"):
        parse_slash(COMMANDS, "/nope")


def test_the_page_loads_nothing_from_outside() -> None:
    """No CDN: every script, style sheet and image the page names is served by the sandbox itself."""
    for path in STATIC.iterdir():
        text = path.read_text()
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path
        assert "@import" not in text and "fetch(\"http" not in text, path


async def test_the_sandbox_stops_at_once_with_a_page_open() -> None:
    """A page still connected when the sandbox stops is told the server is going away (close code 1001)
    and the sandbox does not sit out aiohttp's shutdown timeout for it (it did: 30 s and more per page)."""
    import aiohttp

    from sandbox import FakeDiscord
    from sandbox.web import WebSandbox

    fake = FakeDiscord()
    guild = fake.add_guild("Parlor test")
    async with aiohttp.ClientSession() as session:
        web = WebSandbox(fake, guild)
        await web.__aenter__()
        ws = await session.ws_connect(web.url + "ws")
        first = await ws.receive_json()  # the world, pushed on connect
        assert first["type"] == "world"
        await web.__aexit__(None, None, None)
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.close_code == aiohttp.WSCloseCode.GOING_AWAY
