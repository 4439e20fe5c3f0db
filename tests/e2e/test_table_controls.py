"""End to end: turn timers, kicking, handing the host role, rematch."""

from __future__ import annotations

from pathlib import Path

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.test_tables import open_table


async def test_turn_timer_warns_then_moves_then_seats_a_bot(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A silent player is warned, the timeout action is taken for them, and after two timeouts a bot plays;
    when no person is left at all, the table ends itself."""
    tables = TablesConfig(redraw_interval_ms=200, turn_timeout_seconds=5, turn_warning_seconds=2,
                          timeouts_before_bot=2)
    async with parlor(fake, tmp_path / "p.db", tables=tables, timer_scale=0.1) as bot:
        thread, lobby = await open_table(fake, world, tricks=3)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await fake.wait_for(lambda: table.status == "cancelled", timeout=20, what="the table to end itself")
        texts = [m.text for m in fake.messages(thread)]
        assert any("⏰" in t and f"<@{world.alice.id}>" in t or f"<@{world.bob.id}>" in t for t in texts)
        assert any("A bot took over" in t for t in texts)
        assert all(s.is_bot for s in table.seats), "both silent players were replaced after two timeouts"
        actions = await bot.storage.actions(1)
        assert len(actions) >= 4 and all(a.discord_ts_ms is not None for a in actions)
        await fake.wait_for(lambda: "no players were left" in fake.message(lobby.id).text, timeout=5)
        assert (await bot.storage.game(1)).status == "cancelled"  # stored before the message said it


async def test_a_stale_timer_never_fires_on_a_new_turn(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A move restarts the clock: the next player gets a full turn before their timeout action."""
    import asyncio

    tables = TablesConfig(redraw_interval_ms=200, turn_timeout_seconds=5, turn_warning_seconds=0,
                          timeouts_before_bot=5)
    async with parlor(fake, tmp_path / "p.db", tables=tables, timer_scale=0.2) as bot:  # 1 s turns
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await asyncio.sleep(0.6)
        mover = world.alice if table.engine.view(None)["turn"] == f"u{world.alice.id}" else world.bob
        board = (await fake.click(mover, lobby, "Open my hand")).message
        await fake.click(mover, board, board.buttons[0].custom_id)
        assert table.engine.action_count == 1
        await asyncio.sleep(0.6)
        assert table.engine.action_count == 1, "the first turn's timer fired on the second turn"
        await fake.wait_for(lambda: table.engine.action_count == 2, timeout=5, what="the second turn's timeout")


async def test_host_kicks_a_player_from_the_lobby(fake: FakeDiscord, world: World, bot) -> None:
    """/table kick in the table's thread frees the seat and redraws the lobby."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    result = await fake.slash(world.alice, thread, "table kick", options={"user": world.bob})
    assert "was removed" in result.text
    await fake.wait_for(lambda: "bob" not in fake.message(lobby.id).text, timeout=5, what="the lobby redraw")


async def test_only_the_host_may_kick(fake: FakeDiscord, world: World, bot) -> None:
    """Bob cannot kick Alice: an ephemeral refusal."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    result = await fake.slash(world.bob, thread, "table kick", options={"user": world.alice})
    assert result.ephemeral and "Only the host" in result.text


async def test_kicked_player_in_a_running_game_is_replaced_by_a_bot(fake: FakeDiscord, world: World, bot) -> None:
    """Kicking during a game hands the seat to a bot, which plays on."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    result = await fake.slash(world.alice, thread, "table kick", options={"user": world.bob})
    assert "a bot plays their seat" in result.text
    table = bot.tables.tables[1]
    assert table.seat_of_player(f"u{world.bob.id}").is_bot


async def test_host_hands_over_and_the_new_host_can_start(fake: FakeDiscord, world: World, bot) -> None:
    """After /table host bob, Bob may start and Alice may not."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    result = await fake.slash(world.alice, thread, "table host", options={"user": world.bob})
    assert "now the host" in result.text
    refused = await fake.click(world.alice, lobby, "Start")
    assert refused.ephemeral and "Only the host" in refused.text
    started = await fake.click(world.bob, lobby, "Start")
    assert not started.failed and not started.ephemeral


async def test_rematch_gathers_the_players_and_the_host_deals(fake: FakeDiscord, world: World, bot) -> None:
    """Rematch after the end (issue #30, item 7): Bob's press opens a new lobby in the thread with the
    same options, Alice still its host, Bob and the table's bot seated; Alice's press seats her too;
    a second press is answered privately; the host's Start deals it."""
    thread, lobby = await open_table(fake, world, tricks=1)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Add bot")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    for _ in range(50):  # everyone plays their first card until the trick (the game) is over
        if table.engine.is_over:
            break
        turn = table.engine.view(None)["turn"]
        seat = table.seat_of_player(turn)
        if seat.is_bot:
            await fake.wait_for(lambda t=turn: table.engine.is_over or table.engine.view(None)["turn"] != t,
                                timeout=5, what="the bot's card")
            continue
        user = world.alice if seat.user_id == world.alice.id else world.bob
        board = (await fake.click(user, lobby, "Open my hand")).message
        await fake.click(user, board, board.buttons[0].custom_id)
    await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5)
    opened = await fake.click(world.bob, lobby, "Rematch")
    assert not opened.failed and not opened.ephemeral and "Waiting for players" in opened.text
    new = bot.tables.tables[2]
    assert new.status == "lobby" and new.host_id == world.alice.id and new.options == {"tricks": 1}
    assert [s.user_id for s in new.seats] == [world.bob.id, None], "Bob and the bot"
    joined = await fake.click(world.alice, lobby, "Rematch")
    assert joined.ephemeral and "You are in the rematch (table #2)" in joined.text
    again = await fake.click(world.alice, lobby, "Rematch")
    assert again.ephemeral and "already in the rematch" in again.text
    assert sorted(s.user_id for s in new.seats if s.user_id) == sorted([world.alice.id, world.bob.id])
    refused = await fake.click(world.bob, opened.message, "Start")
    assert refused.ephemeral and "Only the host" in refused.text
    started = await fake.click(world.alice, opened.message, "Start")
    assert not started.failed and new.status == "running"


async def alice_plays_against_the_bot(fake: FakeDiscord, world: World, lobby, table) -> None:
    """Alice plays her first card at each of her turns, the bot its own, until the game is over."""
    for _ in range(50):
        if table.engine.is_over:
            return
        if table.engine.view(None)["turn"] == f"u{world.alice.id}":
            board = (await fake.click(world.alice, lobby, "Open my hand")).message
            await fake.click(world.alice, board, board.buttons[0].custom_id)
        else:
            await fake.wait_for(lambda: table.engine.is_over
                                or table.engine.view(None)["turn"] == f"u{world.alice.id}",
                                timeout=5, what="the bot's card")


async def test_an_expired_rematch_button_is_disabled(fake: FakeDiscord, world: World, bot, monkeypatch) -> None:
    """Once a finished table is let go, its message's Rematch is disabled (not green and silent)."""
    from bot.tables import messages

    monkeypatch.setattr(messages, "FINISHED_TTL_S", 0.05)
    thread, lobby = await open_table(fake, world, tricks=1)
    await fake.click(world.alice, lobby, "Add bot")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    await alice_plays_against_the_bot(fake, world, lobby, table)
    await fake.wait_for(lambda: [(b.label, b.disabled) for b in fake.message(lobby.id).buttons]
                        == [("Rematch (expired)", True)], timeout=5, what="the Rematch button to expire")
    assert 1 not in bot.tables.tables


async def test_leaving_a_running_game_hands_the_seat_to_a_bot(fake: FakeDiscord, world: World, bot) -> None:
    """Leave game mid-game: an ephemeral confirmation, and a bot plays the seat to the end."""
    thread, lobby = await open_table(fake, world, tricks=2)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    left = await fake.click(world.bob, lobby, "Leave game")
    assert left.ephemeral and "a bot plays your seat" in left.text
    table = bot.tables.tables[1]
    assert table.seat_of_player(f"u{world.bob.id}").is_bot


async def test_rules_summarises_each_game_and_its_options(fake: FakeDiscord, world: World, bot) -> None:
    """/rules game:<kind> answers ephemerally with the summary and every option's default."""
    import dataclasses

    from bot.engine import REGISTRY

    for kind, engine in REGISTRY.items():
        result = await fake.slash(world.alice, world.channel, "rules", options={"game": kind})
        assert result.ephemeral and engine.title in result.text
        assert len(result.text) > 300, "a real summary, not just the title"
        for f in dataclasses.fields(engine.Options):
            assert f"`{f.name}`" in result.text


async def test_table_end_stops_the_game_and_marks_the_message(fake: FakeDiscord, world: World, bot) -> None:
    """/table end in the thread cancels the table, removes its buttons and says so."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    result = await fake.slash(world.alice, thread, "table end")
    assert "was ended" in result.text
    # The message is marked after the command is answered (docs/tables.md, "Who may do what").
    await fake.wait_for(lambda: "ended by alice" in fake.message(lobby.id).text, timeout=5, what="the mark")
    message = fake.message(lobby.id)
    assert message.buttons == [] and "ended by alice" in message.text
    assert 1 not in bot.tables.tables
    assert (await bot.storage.game(1)).status == "cancelled"


async def test_a_player_who_left_can_join_the_rematch(fake: FakeDiscord, world: World, bot) -> None:
    """Bob leaves mid-game (a bot plays his seat to the end); Alice's Rematch brings the table's own
    bots, not the one playing Bob's seat, so Join on the rematch seats Bob (review of issue #30: his
    seat id was taken twice and the lobby failed)."""
    thread, lobby = await open_table(fake, world, tricks=1)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    await fake.click(world.bob, lobby, "Leave game")
    await alice_plays_against_the_bot(fake, world, lobby, table)
    await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5)
    opened = await fake.click(world.alice, lobby, "Rematch")
    new = bot.tables.tables[2]
    assert [s.user_id for s in new.seats] == [world.alice.id], "no bot took Bob's place in the rematch"
    joined = await fake.click(world.bob, opened.message, "Join")
    assert not joined.failed and not joined.ephemeral, joined.text
    assert [s.user_id for s in new.seats] == [world.alice.id, world.bob.id]
    started = await fake.click(world.alice, opened.message, "Start")
    assert not started.failed and new.status == "running"
