"""End to end: what a table keeps in memory between clicks (docs/tables.md, "The table service inside").

A busy bot draws thousands of boards a minute; none of them may leave anything behind that lives
longer than the table needs it.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import discord

from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz


async def open_two_boards(fake: FakeDiscord, world: World) -> tuple:
    """Alice and Bob start a table; both open their boards and Alice flips once."""
    thread, lobby = await open_blitz(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    board = (await fake.click(world.alice, lobby, "Open my board")).message
    flip = next(b for b in board.buttons if b.label.startswith("Flip"))
    assert not (await fake.click(world.alice, board, flip.custom_id)).failed
    await fake.click(world.bob, lobby, "Open my board")
    return thread, lobby


async def test_an_ephemeral_board_leaves_no_view_listening(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """discord.py would keep every view sent on an ephemeral message, with a 15-minute timeout task
    each; a board's buttons are dispatched by custom id, so no view and no such task is kept."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        await open_two_boards(fake, world)
        timeouts = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
        assert timeouts == []
        assert bot.persistent_views == []


async def test_a_live_board_keeps_its_token_not_the_interaction(fake: FakeDiscord, world: World,
                                                               tmp_path: Path) -> None:
    """A board sent by **Open my board** is edited through that interaction's token and the board's
    message id; the interaction itself (its payload, the member) is not kept, and the board still
    follows the table. (A board a click updated is edited as that click's original response.)"""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_two_boards(fake, world)
        table = bot.tables.tables[1]
        bob = table.seat_of_user(world.bob.id).player_id
        alice = table.seat_of_user(world.alice.id).player_id
        bob_board = bot.tables.boards.of(table)[bob]
        assert not isinstance(bob_board.interaction, discord.Interaction)
        assert isinstance(bot.tables.boards.of(table)[alice].interaction, discord.Interaction), \
            "updated by her Flip click"
        version = table.version
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        await fake.click(world.alice, board, flip.custom_id)
        assert table.version > version
        await fake.wait_for(lambda: bob_board.version == table.version, timeout=5, what="Bob's board refreshed")


async def test_the_bot_caches_no_message(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Parlor reads no message from discord.py's cache, so it keeps none, whatever is posted."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        await open_two_boards(fake, world)
        fake.post_message(world.alice, world.channel, "hello")
        await asyncio.sleep(0.1)
        assert list(bot.cached_messages) == []


def test_starting_the_bot_does_not_import_networkx() -> None:
    """networkx (13 MB) is imported by the first Swiss pairing, not by the bot and its cogs."""
    code = ("import sys, importlib, pkgutil, bot.client, cogs\n"
            "for m in pkgutil.iter_modules(cogs.__path__): importlib.import_module('cogs.' + m.name)\n"
            "print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"
