"""End to end: ``/learn`` opens a private practice table against a slow easy bot that explains each step
(issue 30, item 12; ``docs/tables.md``, "Learning a game").

For every registered game, through the loopback Discord and the production bot: the table is a
private thread with only the learner in it, the learner's board carries the coach's block (what
they may do now, with the rule; what the bot just did), and the learner plays on by clicking their
board (random enabled buttons and menus, a budget in steps). A finished practice game is stored but
counts for no rating, statistic or ``/history``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.config import TablesConfig
from bot.engine import GAMES
from bot.tables.practice import PRACTICE_BOT_SPEED
from sandbox import FakeDiscord, FakeMessage, FakeUser
from sandbox.models import PRIVATE_THREAD
from tests.e2e.conftest import COGS, World, parlor, seen_alone, settled

LEARN_COGS = [*COGS, "cogs.games", "cogs.learn", "cogs.stats"]

STEPS = 1500
"""Clicks (or waits for the bot) a practice game may take in these tests: a budget in steps, never in seconds."""

LEARNER_MOVES = 12
"""Moves of the learner after which a game that has not ended yet has shown enough (several turns)."""


def choices(msg: FakeMessage) -> list[tuple[str, str, Any]]:
    """The enabled buttons and menus of *msg*: ``("button", custom id, None)`` or ``("select", custom id, menu)``."""
    out: list[tuple[str, str, Any]] = [("button", b.custom_id, None) for b in msg.buttons
                                       if b.custom_id and not b.disabled]
    out += [("select", s.custom_id, s) for s in msg.selects if not s.disabled and s.options]
    return out


async def learn(fake: FakeDiscord, world: World, bot: Any, kind: str) -> tuple[Any, Any]:
    """``/learn game:<kind>`` by Alice: the answer, and the practice table."""
    result = await settled(fake, await fake.slash(world.alice, world.channel, "learn", options={"game": kind}))
    assert result.ephemeral and "practice table" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    table = bot.tables.table_in(thread.id)
    assert table is not None and table.kind == kind
    return thread, table


async def play(fake: FakeDiscord, bot: Any, table: Any, user: FakeUser, rng: random.Random, *,
               to_the_end: bool) -> dict[str, bool]:
    """Alice plays her board by random enabled clicks until the game ends (or, unless *to_the_end*, she
    has made :data:`LEARNER_MOVES` moves); returns what her board was seen to show.
    """
    ui = bot.tables.uis[table.kind]
    me = f"u{user.id}"
    public = fake.message(table.message_id)
    board = (await fake.click(user, public, ui.board_label)).message
    seen = {"options": False, "bot": False, "coach": False}
    bot_name = next(s.name for s in table.seats if s.is_bot)
    for _ in range(STEPS):
        mine = sum(1 for who, _events in table.told if who == me)  # moves of Alice's the table tells
        if table.engine.is_over or table.status != "running" or (not to_the_end and mine >= LEARNER_MOVES
                                                                  and seen["bot"]):
            break
        board = fake.message(board.id)
        text = board.text or ""
        seen["coach"] |= "🎓 **Coach**" in text
        seen["options"] |= "**You may now:**" in text
        seen["bot"] |= any(line.startswith("🤖 ") and bot_name in line for line in text.splitlines())
        usable = choices(board)
        public_usable = [c for c in choices(fake.message(table.message_id))
                         if not any(v in c[1] for v in ("parlor:leave:", "parlor:rematch:", "parlor:board:"))]
        heard = len(fake.requests)
        if usable and rng.random() < 0.93:
            kind, custom_id, menu = rng.choice(usable)
            if kind == "button":
                result = await fake.click(user, board, custom_id)
            else:
                values = [v for _, v in menu.options]
                result = await fake.select(user, board, custom_id, rng.sample(values, menu.min_values or 1))
            assert not result.failed, result.errors
            if result.message is not None and result.message.id != board.id and choices(result.message):
                board = result.message  # a fresh board (a positional layout): play on from it
        elif public_usable and rng.random() < 0.5:
            _kind, custom_id, _menu = rng.choice(public_usable)
            assert not (await fake.click(user, table.message_id, custom_id)).failed
        else:
            await fake.wait_for(lambda heard=heard: len(fake.requests) > heard or table.engine.is_over
                                or table.status != "running", timeout=30, what="the table to move on")
    else:
        pytest.fail(f"{table.kind}: the practice game went on past {STEPS} steps")
    return seen


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_learn_opens_a_private_coached_table_against_a_slow_easy_bot(
        fake: FakeDiscord, world: World, tmp_path: Path, kind: str) -> None:
    """/learn: a private thread with only the learner, one seat for the game's easiest bot at the slow
    pace, dealt at once; the learner's board explains what they may do and, after the bot's move,
    what it did; the learner plays on through several turns."""
    async with parlor(fake, tmp_path / "p.db", LEARN_COGS) as bot:
        thread, table = await learn(fake, world, bot, kind)
        assert thread.type == PRIVATE_THREAD
        assert world.alice.id in thread.thread_member_ids and world.bob.id not in thread.thread_member_ids
        assert not fake.messages(world.channel), "a practice table posts nothing in the channel"
        assert table.status == "running" and table.engine is not None
        assert table.settings["practice"] is True and table.settings["bot_speed"] == PRACTICE_BOT_SPEED
        people = [s for s in table.seats if not s.is_bot]
        bots = [s for s in table.seats if s.is_bot]
        assert [s.user_id for s in people] == [world.alice.id]
        assert [s.bot_name for s in bots] == [list(GAMES[kind].bots)[-1]]  # the easiest bot
        seen = await play(fake, bot, table, world.alice, random.Random(kind), to_the_end=False)
        assert seen == {"options": True, "bot": True, "coach": True}, seen


async def test_a_practice_game_ends_unrated_and_out_of_history(fake: FakeDiscord, world: World,
                                                               tmp_path: Path) -> None:
    """A practice game of Blitz (31) played to its end: its result is stored, yet no rating, statistic
    or /history line counts it, even where the server rates games with bots."""
    async with parlor(fake, tmp_path / "p.db", LEARN_COGS) as bot:
        await bot.storage.set_guild_settings(world.guild.id, {"rate_bots": True})
        _thread, table = await learn(fake, world, bot, "blitz")
        await play(fake, bot, table, world.alice, random.Random(5), to_the_end=True)
        await fake.wait_for(lambda: table.status == "finished", timeout=5, what="the practice game to finish")
        assert await bot.storage.result(table.id) is not None
        assert await bot.storage.finished_games() == []
        assert await bot.storage.ratings(world.guild.id, "blitz") == []
        history = await settled(fake, await fake.slash(world.alice, world.channel, "history"))
        assert "no finished games here yet" in history.text, history.text


@pytest.mark.parametrize("kind", ["blitz", "dutch-blitz"])
async def test_a_practice_table_left_alone_ends_by_itself(fake: FakeDiscord, world: World, tmp_path: Path,
                                                           kind: str) -> None:
    """A learner who walks away (missed turns in a turn-based game, idling in real-time Dutch Blitz):
    a bot takes the seat as at every table, and with no person left the practice table ends itself."""
    tables = TablesConfig(redraw_interval_ms=200, idle_seconds=60, idle_warning_seconds=10)
    async with parlor(fake, tmp_path / "p.db", LEARN_COGS, tables=tables, timer_scale=0.01) as bot:
        thread, table = await learn(fake, world, bot, kind)
        await fake.wait_for(lambda: table.status == "cancelled", timeout=30, what="the idle practice table to end")
        assert all(s.is_bot for s in table.seats)
        assert bot.tables.table_in(thread.id) is None
        await fake.wait_for(lambda: "ended itself" in (fake.message(table.message_id).text or ""), timeout=10,
                            what="the table message saying it ended")


async def test_learn_refuses_privately_where_no_private_thread_can_be_opened(
        fake: FakeDiscord, world: World, tmp_path: Path, expected_errors: list[str]) -> None:
    """In a channel where Parlor may not create threads, and inside a thread, /learn answers the member
    alone with the reason and opens no table; the command's choices are the registered games."""
    expected_errors.append(r"Missing Permissions")
    closed = fake.add_channel(world.guild, "no-threads", allow_threads=False)
    async with parlor(fake, tmp_path / "p.db", LEARN_COGS) as bot:
        command = bot.tree.get_command("learn")
        assert command is not None
        assert [c.value for c in command.parameters[0].choices] == sorted(GAMES)
        refused = await settled(fake, await fake.slash(world.alice, closed, "learn", options={"game": "dutch"}))
        assert not seen_alone(refused, world.alice, "/learn without threads")
        assert "private thread" in refused.text, refused.text
        assert not bot.tables.tables and not fake.threads(closed) and not fake.messages(closed)
        thread, _table = await learn(fake, world, bot, "blitz")
        inside = await settled(fake, await fake.slash(world.alice, thread, "learn", options={"game": "dutch"}))
        assert not seen_alone(inside, world.alice, "/learn in a thread")
        assert "private thread" in inside.text, inside.text
        assert len(bot.tables.tables) == 1
