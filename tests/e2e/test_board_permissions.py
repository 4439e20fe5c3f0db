"""End to end: a table action offered on a private board is still the host's (docs/tables.md, "Who may do what")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tables.ui import Board, BoardButton, Click
from cogs._dutch_blitz_ui import DutchBlitzUI
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz


class EndHandOnTheBoard(DutchBlitzUI):
    """A game UI that puts End hand (a table action) on every player's board."""

    def board(self, table, player, selection=None) -> Board:
        board = super().board(table, player, selection)
        return Board(board.text, [*board.buttons, BoardButton("End hand", "endhand", "danger", row=4)])

    def on_board_click(self, table, player, token) -> Click:
        return Click({"type": "end_hand"}) if token == "endhand" else super().on_board_click(table, player, token)


async def test_a_table_action_on_a_board_is_refused_to_a_seated_non_host(fake: FakeDiscord, world: World,
                                                                        tmp_path: Path) -> None:
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.uis["dutch-blitz"] = EndHandOnTheBoard()
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        bob_board = (await fake.click(world.bob, lobby, "Open my board")).message
        await fake.click(world.bob, bob_board, bob_board.button("End hand").custom_id)
        assert "Only the host" in fake.message(bob_board.id).text
        assert table.engine.view(None)["phase"] == "play", "the hand goes on"
        await asyncio.sleep(1.1)  # the stuck rule allows End hand a second after the last Dutch-pile play
        alice_board = (await fake.click(world.alice, lobby, "Open my board")).message
        await fake.click(world.alice, alice_board, alice_board.button("End hand").custom_id)
        assert "Only the host" not in fake.message(alice_board.id).text
        assert table.engine.view(None)["phase"] != "play", "the host may"


async def test_a_boards_buttons_clicked_by_another_player_are_refused(fake: FakeDiscord, world: World,
                                                                       tmp_path: Path) -> None:
    """Discord hides an ephemeral board from everyone but its owner, but the bot does not rely on it:
    Bob clicking a button of Alice's board (its custom id replayed) is told it is her board, and
    nothing is played for anyone (issue #31, item 5)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice_board = (await fake.click(world.alice, lobby, "Open my board")).message
        flip = next(b for b in alice_board.buttons if b.label.startswith("Flip"))
        count = table.engine.action_count
        replayed = fake.post_bot_message(thread, "Alice's board, seen by Bob", buttons=[("Flip", flip.custom_id)])
        result = await fake.click(world.bob, replayed, flip.custom_id)
        assert not result.failed and "That is alice's board, not yours" in result.text, result.text
        assert table.engine.action_count == count, "nothing was played, for Alice or for Bob"
