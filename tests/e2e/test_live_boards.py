"""End to end: open private boards follow the table (docs/tables.md, "Live boards")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.config import TablesConfig
from bot.tables.messages import PublicToken
from bot.tables.table import PrivateNote
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz

LIVE = TablesConfig(redraw_interval_ms=200, board_refresh_ms=250)


def piles_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Dutch piles:"))


async def start_with_a_bot(fake: FakeDiscord, world: World, bot) -> tuple:
    thread, lobby = await open_blitz(fake, world)
    await fake.click(world.alice, lobby, "Add bot")
    await fake.click(world.alice, lobby, "Start")
    return thread, lobby, bot.tables.tables[1]


async def test_an_open_board_follows_the_table_without_a_click(fake: FakeDiscord, world: World,
                                                              tmp_path: Path) -> None:
    """Alice opens her board and never clicks: as the bot plays, her board shows the Dutch piles as they are.

    The check is that her board shows piles the table had since she opened it (every state, recorded
    as the table records its change), not the piles of the instant of the check: on a loaded machine
    the bot changed them between every refresh and the check.
    """
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.bot_delay_scale = 0.05
        thread, lobby, table = await start_with_a_bot(fake, world, bot)
        ui, alice = bot.tables.uis["dutch-blitz"], table.seats[0].player_id
        seen: set[str] = set()  # every Dutch-piles line the table has had since Alice opened her board
        bump = table.bump

        def bump_and_record() -> None:
            bump()
            if table.engine is not None and not table.engine.is_over:
                seen.add(piles_line(ui.board(table, alice).text))

        table.bump = bump_and_record  # observes every change
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        first = board.text
        seen.add(piles_line(ui.board(table, alice).text))

        def shows_piles_the_table_had() -> bool:
            lines = [x for x in fake.message(board.id).text.splitlines() if x.startswith("Dutch piles:")]
            return bool(lines) and "none yet" not in lines[0] and lines[0] in seen

        try:
            await fake.wait_for(shows_piles_the_table_had, timeout=15, what="Alice's board to show the bot's plays")
        except TimeoutError as exc:  # say why: a board that stopped, or a bot that found no play
            tasks = [(t.get_name(), t.done()) for t in table.tasks]
            raise AssertionError(f"{exc}\nboard: {fake.message(board.id).text!r}\n"
                                 f"table: {ui.board(table, alice).text!r}\ntasks (name, done): {tasks}") from exc
        assert fake.message(board.id).text != first
        assert fake.edits(via="interaction", message=board.id), "through Alice's interaction token"
        assert fake.message(board.id).visible_to == world.alice.id, "still Alice's ephemeral message"


async def test_a_refreshed_board_keeps_the_last_clicks_note(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A click's answer (here: a card that fits nowhere) survives the refreshes of the next seconds."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.bot_delay_scale = 0.05
        thread, lobby, table = await start_with_a_bot(fake, world, bot)
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        await fake.click(world.alice, board, flip.custom_id)
        edits = len(fake.edits(via="interaction", message=board.id))
        seat = table.seats[0]
        # Two changes on Alice's board (a board nothing changed on is not edited; the bot's moves
        # may leave hers as it was): two private notes, as a game's private event adds them.
        for n in (1, 2):
            table.private_notes.setdefault(seat.player_id, []).append(PrivateNote(f"🔒 note {n}", None))
            table.bump()
            await fake.wait_for(lambda n=n: f"note {n}" in fake.message(board.id).text, timeout=10,
                                what=f"the refresh with note {n}")
        assert len(fake.edits(via="interaction", message=board.id)) > edits + 1, "two refreshes after the click"
        assert bot.tables.boards.of(table)[seat.player_id].interaction is not None
        assert "Your Blitz pile" in fake.message(board.id).text


async def test_a_board_near_its_tokens_end_says_so_then_stops(fake: FakeDiscord, world: World,
                                                             tmp_path: Path) -> None:
    """Tokens live 15 minutes (2 s here): the board says it stops updating, then that it no longer does."""
    fake.token_lifetime_s = 3.0  # Discord's clock runs from its own send; the service keeps a margin
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.board_token_s = 2.0
        bot.tables.bot_delay_scale = 0.05
        thread, lobby, table = await start_with_a_bot(fake, world, bot)
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        await fake.wait_for(lambda: "stops updating" in fake.message(board.id).text, timeout=3,
                            what="the warning")
        await fake.wait_for(lambda: "no longer updates" in fake.message(board.id).text, timeout=3,
                            what="the last word")
        await fake.wait_for(lambda: table.seats[0].player_id not in bot.tables.boards.of(table), timeout=2,
                            what="the board to be forgotten before its token dies")
        assert fake.message(board.id).buttons, "its buttons still work: a click gives a fresh board"
        result = await fake.click(world.alice, board, fake.message(board.id).buttons[-1].custom_id)
        assert not result.failed
        # The bot keeps the board live once Discord has taken its answer.
        await fake.wait_for(lambda: table.seats[0].player_id in bot.tables.boards.of(table), timeout=2,
                            what="the click's fresh token keeps it live again")


async def test_a_dismissed_board_is_forgotten(fake: FakeDiscord, world: World, tmp_path: Path,
                                              expected_errors: list[str]) -> None:
    """A board its owner dismissed (Discord answers 10008 Unknown Message) is dropped, and play goes on."""
    expected_errors.append(r"10008|Unknown Message")
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.bot_delay_scale = 0.05
        thread, lobby, table = await start_with_a_bot(fake, world, bot)
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        fake.delete_message(board)
        # A change on Alice's own board (the bot's moves may leave it as it was: no edit is sent then).
        table.private_notes.setdefault(table.seats[0].player_id, []).append(PrivateNote("📝 a change on the board"))
        table.bump()
        await fake.wait_for(lambda: table.seats[0].player_id not in bot.tables.boards.of(table), timeout=10,
                            what="the dismissed board to be dropped")
        again = (await fake.click(world.alice, lobby, "Open my board")).message
        assert "Your Blitz pile" in again.text
        assert table.seats[0].player_id in bot.tables.boards.of(table)


async def test_no_board_is_kept_for_a_spectator_or_after_the_seat_goes_to_a_bot(fake: FakeDiscord, world: World,
                                                                                tmp_path: Path) -> None:
    """Only seated people have live boards; leaving hands the seat to a bot and its board stops updating."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.bot_delay_scale = 0.05
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        refused = await fake.click(world.carol, lobby, "Open my board")
        assert "not playing" in refused.text
        await fake.click(world.bob, lobby, "Open my board")
        bob = table.seat_of_user(world.bob.id).player_id
        assert bob in bot.tables.boards.of(table)
        await fake.click(world.bob, lobby, "Leave game")
        await fake.wait_for(lambda: bob not in bot.tables.boards.of(table), timeout=10,
                            what="Bob's board to be dropped")
        assert len(bot.tables.boards.of(table)) <= 1


async def test_a_click_is_answered_before_the_redraws_it_causes(fake: FakeDiscord, world: World, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice's move changes the table message and wakes the refresh of Bob's open board; neither starts before her
    answer is sent, so her click never waits behind the work it caused (docs/tables.md, "Live boards")."""
    steps: list[str] = []
    answer = discord.InteractionResponse.edit_message

    async def answering(self: discord.InteractionResponse, **kwargs: object) -> object:
        steps.append("answer starts")
        try:
            return await answer(self, **kwargs)
        finally:
            steps.append("answer sent")

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", answering)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await fake.click(world.bob, lobby, "Open my board")
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        await asyncio.sleep(0.6)  # every redraw of the start is done
        redraw, refresh = bot.tables.messages._redraw, bot.tables.boards.refresh_board

        async def redrawing(*args: object) -> bool:
            steps.append("redraw")
            return await redraw(*args)

        async def refreshing(*args: object) -> object:
            steps.append("refresh")
            return await refresh(*args)

        monkeypatch.setattr(bot.tables.messages, "_redraw", redrawing)
        monkeypatch.setattr(bot.tables.boards, "refresh_board", refreshing)
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        steps.clear()
        version = table.version
        assert not (await fake.click(world.alice, board, flip.custom_id)).failed
        assert table.version > version
        await fake.wait_for(lambda: {"redraw", "refresh"} <= set(steps), timeout=5, what="both redraws")
        assert steps.index("answer sent") < min(steps.index("redraw"), steps.index("refresh")), steps


async def test_a_move_that_leaves_a_board_as_it_was_sends_it_no_edit(fake: FakeDiscord, world: World,
                                                                     tmp_path: Path) -> None:
    """Alice's Flips move the table on but change nothing Bob's board shows (his cards, the Dutch
    piles): his board is not edited, and its buttons, drawn at an older version, still play
    (docs/tables.md, "Live boards")."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = (seat.player_id for seat in table.seats)
        bobs = (await fake.click(world.bob, lobby, "Open my board")).message
        alices = (await fake.click(world.alice, lobby, "Open my board")).message
        await asyncio.sleep(0.6)  # every refresh of the start is done
        bob_edits, drawn_at = len(fake.edits(via="interaction", message=bobs.id)), table.version
        for _ in range(3):
            board = fake.message(alices.id)
            flip = next(b for b in board.buttons if b.label.startswith("Flip"))
            assert not (await fake.click(world.alice, board, flip.custom_id)).failed
        assert table.version >= drawn_at + 3
        await fake.wait_for(lambda: bot.tables.boards.of(table)[bob].version == table.version, timeout=5,
                            what="a refresh pass over Bob's board")
        await fake.wait_for(lambda: bot.tables.boards.of(table)[alice].version == table.version, timeout=5,
                            what="Alice's own board to be current")
        assert len(fake.edits(via="interaction", message=bobs.id)) == bob_edits, "nothing changed on Bob's board"

        before = table.engine.view(bob)["seats"][1]
        board = fake.message(bobs.id)
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        assert f":v{table.version}:" not in flip.custom_id, "the button was drawn at an older version"
        answer = await fake.click(world.bob, board, flip.custom_id)
        assert not answer.failed and "moved on" not in answer.message.text
        after = table.engine.view(bob)["seats"][1]
        assert (after["hand_count"], after["wood_count"]) != (before["hand_count"], before["wood_count"])


@pytest.mark.parametrize("route", ["token", "channel"])
async def test_a_game_that_ends_while_the_table_message_is_edited_is_drawn_once_more(
        fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, route: str) -> None:
    """The table message's last edit shows the end: when the game ends while an edit drawn before
    it is on its way, the table draws its message once more (docs/tables.md, "Live boards"), whether
    it is edited through Alice's Start click's token or, without one, through the bot's route."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=LIVE) as bot:
        bot.tables.bot_delay_scale = 100.0  # the bot stays out of the way
        thread, lobby, table = await start_with_a_bot(fake, world, bot)
        await asyncio.sleep(0.6)  # every redraw of the start is done
        owner: type = PublicToken if route == "token" else discord.PartialMessage
        if route == "channel":
            bot.tables.messages.tokens.pop(table.id, None)
        else:
            assert isinstance(bot.tables.messages.tokens.get(table.id), PublicToken)
        edit, ended = owner.edit, []

        async def ending_meanwhile(self: object, **kwargs: object) -> object:
            if not ended and getattr(self, "id", table.message_id) == table.message_id:
                ended.append(True)
                table.status = "finished"  # the game ends while this edit is on its way
                table.bump()
            return await edit(self, **kwargs)

        monkeypatch.setattr(owner, "edit", ending_meanwhile)
        before = len(fake.edits(message=table.message_id))
        table.bump()
        await fake.wait_for(lambda: len(fake.edits(message=table.message_id)) >= before + 2, timeout=5,
                            what="the edit under way, then one more")
        await asyncio.sleep(0.6)
        assert len(fake.edits(message=table.message_id)) == before + 2, "one more, and no further"
