"""End to end: who may end and run a table, and the table's answers when things go wrong (issue 17)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor, seen_alone, settled
from tests.e2e.test_dutch_blitz import DB_COGS, open_blitz
from tests.e2e.test_tables import open_table


async def running_table(fake: FakeDiscord, world: World):
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    return thread, lobby


async def test_table_end_is_refused_to_an_ordinary_member(fake: FakeDiscord, world: World, bot) -> None:
    """Carol (no host, no Manage Threads, no moderator role) cannot end table #1, even by its number."""
    thread, lobby = await running_table(fake, world)
    for where in (thread, world.channel):
        refused = await fake.slash(world.carol, where, "table end", options={"id": 1})
        assert refused.ephemeral and "Only the host" in refused.text
    assert bot.tables.tables[1].status == "running"


async def test_table_end_by_the_host(fake: FakeDiscord, world: World, bot) -> None:
    """The host of the table may end it."""
    thread, lobby = await running_table(fake, world)
    ended = await fake.slash(world.alice, thread, "table end")
    assert "was ended" in ended.text and 1 not in bot.tables.tables


async def test_table_end_by_an_administrator(fake: FakeDiscord, world: World, bot) -> None:
    """An administrator who does not play may end any table of the server by its number."""
    admin = fake.add_user("admin", guild=world.guild, administrator=True)
    await running_table(fake, world)
    ended = await fake.slash(admin, world.channel, "table end", options={"id": 1})
    assert "was ended" in ended.text and 1 not in bot.tables.tables
    await fake.wait_for(lambda: "ended by admin" in fake.messages(fake.threads(world.channel)[0])[0].text,
                        timeout=5, what="the ended mark")


async def test_table_end_by_a_moderator_role(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A member of a role in tables.moderator_role_ids may end a table; another host may not end it."""
    role = fake.add_role(world.guild, "Game mods")
    mod = fake.add_user("mod", guild=world.guild, roles=[role])
    async with parlor(fake, tmp_path / "p.db", tables=TablesConfig(redraw_interval_ms=200,
                                                                   moderator_role_ids=(role,))) as bot:
        await running_table(fake, world)
        ended = await fake.slash(mod, world.channel, "table end", options={"id": 1})
        assert "was ended" in ended.text and 1 not in bot.tables.tables


async def test_table_end_elsewhere_is_not_found(fake: FakeDiscord, world: World, bot) -> None:
    """A table number of another server answers 'no live table' (numbers are not a way in)."""
    other = fake.add_guild("Other")
    channel = fake.add_channel(other, "games")
    stranger = fake.add_user("eve", guild=other, administrator=True)
    await running_table(fake, world)
    refused = await fake.slash(stranger, channel, "table end", options={"id": 1})
    assert refused.ephemeral and "no live table #1" in refused.text
    assert bot.tables.tables[1].status == "running"


async def test_host_who_leaves_a_running_game_hands_the_host_role_on(fake: FakeDiscord, world: World, bot) -> None:
    """Alice (host) leaves mid-game: a bot plays her seat and Bob, the next seated person, hosts."""
    thread, lobby = await running_table(fake, world)
    await fake.click(world.alice, lobby, "Leave game")
    table = bot.tables.tables[1]
    assert table.host_id == world.bob.id
    assert (await bot.storage.game(1)).host_id == world.bob.id
    kicked = await fake.slash(world.alice, thread, "table kick", options={"user": world.bob})
    assert kicked.ephemeral and "Only the host" in kicked.text


async def test_unseated_moderator_may_end_a_stuck_hand(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A moderator who does not play presses End hand (a table action) after the wait; a spectator may not."""
    mod = fake.add_user("mod", guild=world.guild, manage_threads=True)
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await fake.wait_for(lambda: "End hand (host)" in [b.label for b in fake.message(lobby.id).buttons],
                            timeout=5, what="the End hand button")
        await asyncio.sleep(1.1)
        spectator = await fake.click(world.carol, lobby, "End hand (host)")
        assert spectator.ephemeral and "not playing" in spectator.text
        ended = await fake.click(mod, lobby, "End hand (host)")
        assert not ended.failed and ended.response_type == 6  # a deferred update: the table shows it
        assert table.engine.view(None)["phase"] == "between"
        await fake.wait_for(lambda: "Next hand (host)" in [b.label for b in fake.message(lobby.id).buttons],
                            timeout=5, what="the Next hand button")
        nxt = await fake.click(mod, lobby, "Next hand (host)")
        assert not nxt.failed and table.engine.view(None)["phase"] == "play"


async def test_deleted_table_message_is_posted_again(fake: FakeDiscord, world: World, bot,
                                                     expected_errors: list[str]) -> None:
    """Someone deletes the table message: the next redraw posts it anew, and /table board still works."""
    expected_errors.append(r"10008")
    thread, lobby = await running_table(fake, world)
    table = bot.tables.tables[1]
    fake.delete_message(lobby)
    board = await fake.slash(world.alice, thread, "table board")
    assert board.ephemeral and "Your hand" in board.text and board.message.buttons
    table.dirty.set()
    await fake.wait_for(lambda: table.message_id != lobby.id, timeout=5, what="the table to be posted again")
    reposted = fake.message(table.message_id)
    assert not reposted.deleted and "High card" in reposted.text
    assert [b.label for b in reposted.buttons] == ["Open my hand", "Leave game", "How to play"]


async def test_table_board_outside_a_table_thread_says_where(fake: FakeDiscord, world: World, bot) -> None:
    """/table board in a plain channel answers where to use it."""
    answer = await fake.slash(world.alice, world.channel, "table board")
    assert answer.ephemeral and "thread of a running table" in answer.text


@pytest.mark.parametrize("custom_id", ["parlor:frobnicate:1", "parlor:move:1:vX:flip", "parlor:v2:move:1:flip"])
async def test_unknown_parlor_custom_id_gets_an_answer(fake: FakeDiscord, world: World, bot, custom_id: str) -> None:
    """A garbled or future-format parlor: button is answered ephemerally, never 'This interaction failed'."""
    thread, lobby = await running_table(fake, world)
    message = fake.post_bot_message(thread, "an old table", buttons=[("Old", custom_id)])
    result = await fake.click(world.alice, message, custom_id)
    assert not result.failed and result.ephemeral and "no longer valid" in result.text


async def test_malformed_board_token_is_answered_not_raised(fake: FakeDiscord, world: World, tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    """A Dutch Blitz board token naming no real pile (c:post:x) gets a fresh board; nothing is logged as an error."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        custom_id = f"parlor:move:1:v{table.version}:c:post:x"
        message = fake.post_bot_message(thread, "a forged board", buttons=[("Forged", custom_id)])
        result = await fake.click(world.alice, message, custom_id)
        assert not result.failed and "no longer valid" in result.text
        assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_stale_slash_command_asks_for_parlor_sync(fake: FakeDiscord, world: World, bot,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """A command Discord still lists but this version lacks: 'ask an admin to run parlor sync', one WARNING."""
    fake.global_commands.append({**fake.commands()[0], "name": "old-game", "id": "1234567890123",
                                 "options": [], "description": "a retired game"})
    result = await fake.slash(world.alice, world.channel, "old-game")
    assert result.ephemeral and "parlor sync" in result.text
    stale = [r for r in caplog.records if "stale slash command" in r.getMessage()]
    assert [r.levelname for r in stale] == ["WARNING"] and stale[0].exc_info is None
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_stale_subcommand_is_named_whole_in_the_answer(fake: FakeDiscord, world: World, bot,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """A subcommand Discord still lists under a group this version has (/table shuffle) is named whole:
    "try `/table shuffle` again", never "`/shuffle`", a command that does not exist (issue #31 D)."""
    table = next(c for c in fake.commands() if c["name"] == "table")
    table["options"].append({"type": 1, "name": "shuffle", "description": "a retired command", "options": []})
    result = await fake.slash(world.alice, world.channel, "table shuffle")
    assert result.ephemeral and "parlor sync" in result.text
    assert "`/table shuffle`" in result.text and "`/shuffle`" not in result.text, result.text
    assert [r.levelname for r in caplog.records if "stale slash command /table shuffle" in r.getMessage()] == \
        ["WARNING"]


async def test_pending_race_claim_is_answered_when_the_table_ends(fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """A claim waiting in a race window when the host ends the table is answered with a refusal."""
    tables = TablesConfig(redraw_interval_ms=200, race_window_ms=2000)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        from tests.e2e.test_dutch_blitz import stage_red_race

        stage_red_race(table.engine)
        table.bump()
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        red = next(b for b in board.buttons if b.style == 1)
        claim = await fake.click(world.alice, board, red.custom_id, wait=False)
        await fake.wait_for(lambda: claim.response_type is not None, timeout=5, what="the deferred claim")
        await fake.slash(world.alice, thread, "table end")
        await fake.wait_for(lambda: "table was ended" in fake.message(board.id).text.lower(), timeout=5,
                            what="the claim's answer")
        assert not claim.failed


async def test_stored_move_is_never_answered_try_again(fake: FakeDiscord, world: World, bot) -> None:
    """Discord answers 429 to every retry of a move's answer: the move is stored and the player is told so."""
    thread, lobby = await running_table(fake, world)
    table = bot.tables.tables[1]
    mover = world.alice if table.engine.view(None)["turn"] == f"u{world.alice.id}" else world.bob
    board = (await fake.click(mover, lobby, "Open my hand")).message
    fake.inject_rate_limit("POST", r"/interactions/\d+/[^/]+/callback", retry_after=0.05, times=5)
    result = await fake.click(mover, board, board.buttons[0].custom_id)
    await fake.wait_for(lambda: result.text is not None, timeout=5, what="an answer")
    assert table.engine.action_count == 1
    assert "was played" in result.text and "try again" not in result.text.lower()


async def test_a_seated_non_host_cannot_take_a_table_action_by_any_path(fake: FakeDiscord, world: World,
                                                                        tmp_path: Path) -> None:
    """Bob plays but is not the host: End hand is refused to him from the table's button, from a board
    button carrying its (valid, keyed) token and as a move submitted for him; the host then takes it."""
    from bot.tables.codec import codec_for
    from bot.tables.core import Actor, now_ms

    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        bob = table.seat_of_user(world.bob.id).player_id
        await fake.wait_for(lambda: {"type": "end_hand"} in table.engine.legal_actions(bob), timeout=10,
                            what="End hand to be legal (the hand counts as stuck)")
        end_hand = {"type": "end_hand"}
        public = await fake.click(world.bob, lobby, "End hand (host)")
        assert public.ephemeral and "Only the host" in public.text, public.text
        token = codec_for(table, bob).token(end_hand)
        forged = fake.post_bot_message(thread, "a board", buttons=[("End", f"parlor:move:1:v{table.version}:{token}")])
        board = await fake.click(world.bob, forged, f"parlor:move:1:v{table.version}:{token}")
        assert not board.failed and "Only the host" in board.text, board.text
        submitted = await bot.tables.submit(table, Actor(world.bob.id, "bob"), end_hand, 0)
        assert not submitted.accepted and "Only the host" in submitted.reason
        assert table.engine.view(None)["phase"] == "play", "no path ended the hand"
        await fake.wait_for(lambda: table.timers.wait_for("end_hand", now_ms()) is None, timeout=10,
                            what="the stuck rule's wait to be over")
        ended = await fake.click(world.alice, lobby, "End hand (host)")
        assert not ended.failed and not ended.ephemeral, ended.text
        assert table.engine.view(None)["phase"] == "between", "the host may"


async def test_every_refusal_of_a_table_command_is_seen_by_its_member_alone(fake: FakeDiscord, world: World,
                                                                             bot) -> None:
    """Carol (not seated, not the host, no moderator) tries every /table command, in the table's thread and
    in the channel: each refusal is ephemeral, for Carol alone, and no public message appears (issue #31 A)."""
    thread, lobby = await running_table(fake, world)
    tries: dict[str, dict[str, object]] = {"board": {}, "log": {"id": 999}, "end": {"id": 1},
                                           "kick": {"user": world.bob}, "host": {"user": world.carol},
                                           "pings": {"enabled": False}}  # (her own: answered, privately)
    command = next(c for c in fake.commands() if c["name"] == "table")
    assert set(tries) == {o["name"] for o in command["options"] if o["type"] == 1}, "a /table command is not walked"
    before = {where.id: [m.id for m in fake.messages(where)] for where in (thread, world.channel)}
    problems: list[str] = []
    for where in (thread, world.channel):
        for sub, options in tries.items():
            result = await settled(fake, await fake.slash(world.carol, where, f"table {sub}", options=options))
            problems += seen_alone(result, world.carol, f"/table {sub} in #{where.name}")
    assert not problems, "\n".join(problems)
    assert {where.id: [m.id for m in fake.messages(where)] for where in (thread, world.channel)} == before
    assert bot.tables.tables[1].status == "running"
