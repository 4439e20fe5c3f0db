"""End to end: every table message is a Components V2 layout (docs/tables.md, "Message layouts").

The production bot through the loopback Discord, which refuses a layout over Discord's limits
(tests/sandbox/test_components_v2.py): the invite card, the lobby, the running table message and
a private board are layouts in the game's accent colour with a header, and a board's buttons come
in rows by group (the player's cards first, actions after).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.engine import GAMES
from sandbox import FakeDiscord, FakeMessage
from tests.e2e.conftest import COGS, World, parlor, settled

DB_COGS = [*COGS, "cogs.games"]


def texts(msg: FakeMessage) -> list[str]:
    """The message's TextDisplays, in order."""
    out: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for c in components:
            if c.get("type") == 10:
                out.append(c["content"])
            walk(c.get("components") or [])

    walk(msg.components)
    return out


def rows(msg: FakeMessage) -> list[list[str]]:
    """The labels of each action row of the message's container, in order."""
    (container,) = msg.components
    return [[b.get("label") or "" for b in c["components"]] for c in container["components"] if c["type"] == 1]


def is_layout(msg: FakeMessage, kind: str) -> bool:
    """A V2 message with no content: one container in *kind*'s accent colour."""
    return (msg.is_v2 and not msg.content and len(msg.components) == 1 and msg.components[0]["type"] == 17
            and msg.accent == GAMES[kind].accent)


async def test_every_dutch_blitz_message_is_a_layout(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Invite card, lobby, table message and board are V2 layouts in Dutch Blitz's red, with a
    header; the board shows the player's cards on the first rows and Flip after them; a click on
    the board is answered with a layout again (type 7, the flag kept).
    """
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.bot_delay_scale = 50.0  # the bot stays out of the way
        result = await settled(fake, await fake.slash(world.alice, world.channel, "dutch-blitz new"))
        assert "is open" in result.text
        thread = fake.threads(world.channel)[-1]
        lobby = fake.last_message(thread)
        card = next(m for m in fake.messages(world.channel) if m.buttons and m.buttons[0].label == "Join")
        assert is_layout(card, "dutch-blitz") and "opened a **Dutch Blitz** table" in card.text
        assert is_layout(lobby, "dutch-blitz")
        assert texts(lobby)[0].startswith("### **Dutch Blitz** — table #1") and "alice" in lobby.text
        assert rows(lobby)[0] == ["Join", "Leave", "Add bot", "Start", "Cancel"]
        await fake.click(world.alice, lobby, "Add bot")
        started = await fake.click(world.alice, lobby, "Start")
        assert started.response_type == 7 and not started.failed
        table = fake.message(lobby.id)
        assert is_layout(table, "dutch-blitz") and texts(table)[0].startswith("### ")
        assert "table #1" in texts(table)[0] and rows(table)[0] == ["Open my board"]
        assert rows(table)[-1] == ["Leave game", "How to play"]
        await fake.wait_for(lambda: not is_layout(card, "dutch-blitz") or not card.buttons, what="the card's Join gone")
        board = (await fake.click(world.alice, table, "Open my board")).message
        assert board.ephemeral and is_layout(board, "dutch-blitz")
        assert texts(board)[0] == "### **Dutch Blitz** — table #1 · your board"
        labels = rows(board)
        assert labels[0][0].startswith("Blitz "), labels  # the player's cards come first
        flip_row = next(i for i, row in enumerate(labels) if any(x.startswith("Flip") for x in row))
        assert flip_row > 0 and all(x.startswith(("Blitz ", "Wood ")) for x in labels[0])
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        flipped = await fake.click(world.alice, board, flip.custom_id)
        assert flipped.response_type == 7 and is_layout(fake.message(board.id), "dutch-blitz")
        assert fake.errors == []


async def test_each_game_has_its_own_readable_accent() -> None:
    """The four games declare four distinct accent colours, none near black or white."""
    accents = {kind: game.accent for kind, game in GAMES.items()
               if kind in ("dutch-blitz", "blitzkrieg", "dutch", "blitz")}
    assert len(accents) == 4 and len(set(accents.values())) == 4
    for accent in accents.values():
        r, g, b = accent >> 16, (accent >> 8) & 0xFF, accent & 0xFF
        assert 60 < (r * 299 + g * 587 + b * 114) / 1000 < 200
