"""End to end: the production bot's table service through the loopback Discord, with a test-only game."""

from __future__ import annotations

from pathlib import Path

from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor, settled


async def open_table(fake: FakeDiscord, world: World, tricks: int = 3):
    result = await settled(fake, await fake.slash(world.alice, world.channel, "high-card new", tricks=tricks))
    assert result.ephemeral and "is open" in result.text
    (thread,) = fake.threads(world.channel)
    lobby = fake.last_message(thread)
    return thread, lobby


async def test_table_opens_in_a_thread_with_lobby_buttons(fake: FakeDiscord, world: World, bot) -> None:
    """/high-card new creates a thread whose lobby message has Join, Leave, Add bot, Start, Cancel."""
    thread, lobby = await open_table(fake, world)
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Add bot", "Start", "Cancel", "How to play"]
    assert "alice" in lobby.text and "host" in lobby.text


async def test_join_add_bot_and_start(fake: FakeDiscord, world: World, bot) -> None:
    """A second user joins, the host adds a bot and starts: the table shows the game and Open my hand."""
    thread, lobby = await open_table(fake, world)
    joined = await fake.click(world.bob, lobby, "Join")
    assert not joined.failed and "bob" in fake.message(lobby.id).text
    await fake.click(world.alice, lobby, "Add bot")
    assert "(bot)" in fake.message(lobby.id).text
    started = await fake.click(world.alice, lobby, "Start")
    assert not started.failed
    assert [b.label for b in fake.message(lobby.id).buttons] == ["Open my hand", "Leave game", "How to play"]


async def test_non_host_start_is_refused_ephemerally(fake: FakeDiscord, world: World, bot) -> None:
    """Bob pressing Start gets an ephemeral refusal and the lobby stays open."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    refused = await fake.click(world.bob, lobby, "Start")
    assert refused.ephemeral and "Only the host" in refused.text
    assert [b.label for b in fake.message(lobby.id).buttons][0] == "Join"


async def test_start_needs_enough_players(fake: FakeDiscord, world: World, bot) -> None:
    """Starting alone is refused with the minimum stated."""
    thread, lobby = await open_table(fake, world)
    refused = await fake.click(world.alice, lobby, "Start")
    assert refused.ephemeral and "at least 2" in refused.text


async def test_cancel_closes_the_lobby(fake: FakeDiscord, world: World, bot) -> None:
    """The host's Cancel removes the buttons and marks the table cancelled."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.alice, lobby, "Cancel")
    message = fake.message(lobby.id)
    assert message.buttons == [] and "Cancelled" in message.text


async def test_private_hand_is_visible_only_to_its_player(fake: FakeDiscord, world: World, bot) -> None:
    """Open my hand answers with an ephemeral board that only its user can see."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    board = await fake.click(world.bob, lobby, "Open my hand")
    assert board.ephemeral and "Your hand:" in board.text
    visible_to_alice = [m.id for m in fake.messages(thread, visible_to=world.alice)]
    assert board.message.id not in visible_to_alice


async def play_out(fake: FakeDiscord, lobby, players, table) -> None:
    """Each human plays their first card whenever it is their turn, until the game ends."""
    for _ in range(60):
        if table.engine.is_over:
            return
        turn = table.engine.view(None)["turn"]
        user = next((u for u in players if f"u{u.id}" == turn), None)
        if user is None:  # the bot's turn: wait until it moved
            version = table.version
            await fake.wait_for(lambda v=version: table.version != v, timeout=5, what="the bot to move")
            continue
        board = (await fake.click(user, lobby, "Open my hand")).message
        result = await fake.click(user, board, board.buttons[0].custom_id)
        assert not result.failed and "Refused" not in fake.message(board.id).text
    raise AssertionError("the game did not finish")


async def test_two_humans_and_a_bot_play_to_the_end(fake: FakeDiscord, world: World, bot) -> None:
    """A whole game through boards and a bot: the table shows final standings and Rematch."""
    thread, lobby = await open_table(fake, world, tricks=2)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Add bot")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    await play_out(fake, lobby, [world.alice, world.bob], table)
    await fake.wait_for(lambda: "Rematch" in [b.label for b in fake.message(lobby.id).buttons], timeout=5)
    assert "Final standings" in fake.message(lobby.id).text
    stored = await bot.storage.result(1)
    assert stored is not None and set(stored["ranks"]) == {f"u{world.alice.id}", f"u{world.bob.id}", "bot1"}
    assert len(await bot.storage.actions(1)) == 6


async def test_stale_board_click_gets_a_fresh_board(fake: FakeDiscord, world: World, bot) -> None:
    """A click on a board drawn before the table moved answers with a fresh board, not an error."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = next(iter(bot.tables.tables.values()))
    mover = world.alice if table.engine.view(None)["turn"] == f"u{world.alice.id}" else world.bob
    first = (await fake.click(mover, lobby, "Open my hand")).message
    second = (await fake.click(mover, lobby, "Open my hand")).message
    await fake.click(mover, first, first.buttons[0].custom_id)
    version = table.version
    result = await fake.click(mover, second, second.buttons[0].custom_id)
    assert not result.failed and "fresh board" in fake.message(second.id).text
    assert table.version == version, "a stale click must not make a move"


async def test_non_player_board_is_refused(fake: FakeDiscord, world: World, bot) -> None:
    """Carol, not seated, pressing Open my hand is told so ephemerally."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    refused = await fake.click(world.carol, lobby, "Open my hand")
    assert refused.ephemeral and "not playing" in refused.text


async def test_restart_mid_lobby_and_mid_game_keeps_tables_and_buttons(fake: FakeDiscord, world: World,
                                                                        tmp_path: Path) -> None:
    """A new bot process on the same database restores the lobby and the running game; old buttons work."""
    db = tmp_path / "parlor.db"
    async with parlor(fake, db):
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
    async with parlor(fake, db):
        await fake.click(world.alice, lobby, "Start")
        board = (await fake.click(world.alice, lobby, "Open my hand")).message
        before = board.text
    async with parlor(fake, db) as again:
        table = again.tables.tables[1]
        assert table.status == "running" and table.engine is not None
        await fake.wait_for(lambda: "Restored" in fake.message(lobby.id).text, timeout=5)
        fresh = await fake.click(world.alice, lobby, "Open my hand")
        assert fresh.text == before
        assert [s.name for s in table.seats] == ["alice", "bob"], "display names survive the restart"
        assert "<@" not in fake.message(lobby.id).text


async def test_unexpected_error_in_a_click_is_answered_ephemerally(fake: FakeDiscord, world: World, bot,
                                                                   monkeypatch) -> None:
    """A bug inside a button handler still gets an ephemeral explanation, not "This interaction failed"."""
    thread, lobby = await open_table(fake, world)

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(bot.tables.lobby, "join", broken)
    result = await fake.click(world.bob, lobby, "Join")
    assert not result.failed and result.ephemeral and "went wrong on our side" in result.text


async def test_unexpected_error_in_a_command_is_answered_ephemerally(fake: FakeDiscord, world: World, bot,
                                                                     monkeypatch) -> None:
    """The command tree's error handler answers a failing slash command ephemerally."""
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(bot.tables, "open", broken)
    result = await settled(fake, await fake.slash(world.alice, world.channel, "high-card new"))
    assert not result.failed and result.ephemeral and "went wrong on our side" in result.text


async def test_rate_limit_and_dropped_gateway_lose_nothing(fake: FakeDiscord, world: World, bot) -> None:
    """A 429 on message sends and a dropped gateway connection are survived; the table works after both."""
    fake.inject_rate_limit("POST", r"/channels/\d+/messages", retry_after=0.3, times=1)
    thread, lobby = await open_table(fake, world)
    await fake.drop_gateway()
    await fake.wait_for(lambda: fake.connected, timeout=10, what="the bot to reconnect")
    joined = await fake.click(world.bob, lobby, "Join")
    assert not joined.failed and "bob" in fake.message(lobby.id).text


async def test_games_lists_the_registered_games(fake: FakeDiscord, world: World, bot) -> None:
    """/games answers ephemerally with one line per registered engine."""
    from bot.engine import REGISTRY

    result = await fake.slash(world.alice, world.channel, "games")
    assert result.ephemeral
    for engine in REGISTRY.values():
        assert engine.title in result.text


async def test_second_table_in_a_channel_is_refused_with_the_reason(fake: FakeDiscord, world: World, bot) -> None:
    """A user already seated in this channel gets an ephemeral refusal naming their table."""
    await open_table(fake, world)
    again = await settled(fake, await fake.slash(world.alice, world.channel, "high-card new"))
    assert again.ephemeral and "already sit at table #1" in again.text


async def test_table_stays_in_the_channel_where_threads_are_refused(fake: FakeDiscord, world: World, bot,
                                                                      expected_errors: list[str]) -> None:
    """Without thread permission the lobby is posted in the channel itself."""
    expected_errors.append(r"403 POST /channels/\d+/threads")
    quiet = fake.add_channel(world.guild, "quiet", allow_threads=False)
    result = await settled(fake, await fake.slash(world.alice, quiet, "high-card new"))
    assert "is open" in result.text
    assert fake.threads(quiet) == []
    lobby = fake.last_message(quiet)
    assert [b.label for b in lobby.buttons][0] == "Join"
    second = await settled(fake, await fake.slash(world.bob, quiet, "high-card new"))
    assert second.ephemeral and "already has a running table" in second.text


async def test_public_message_is_posted_anew_before_it_is_an_hour_old(fake: FakeDiscord, world: World, bot) -> None:
    """A table message older than repost_after_minutes is replaced by a new one; the old loses its buttons."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    table.message_posted_ms -= 55 * 60_000  # the message is now 55 minutes old
    table.bump()
    await fake.wait_for(lambda: table.message_id != lobby.id, timeout=5, what="the re-post")
    await fake.wait_for(lambda: fake.message(lobby.id).buttons == [], timeout=5, what="the old buttons to go")
    assert "Open my hand" in [b.label for b in fake.message(table.message_id).buttons]
    assert (await bot.storage.game(1)).message_id == table.message_id


async def test_private_deal_event_reaches_only_its_player(fake: FakeDiscord, world: World, bot) -> None:
    """The deal's private events show on their own player's board and nowhere else."""
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    alice_cards = [c["label"] for c in table.engine.view(f"u{world.alice.id}")["hand"]]
    alice_board = await fake.click(world.alice, lobby, "Open my hand")
    bob_board = await fake.click(world.bob, lobby, "Open my hand")
    assert "You were dealt " + " ".join(alice_cards) in alice_board.text
    assert all(label not in bob_board.text for label in alice_cards)
    public = [m.text for m in fake.messages(thread)]
    assert not any("You were dealt" in text for text in public)


async def test_a_board_menu_plays_the_picked_move(fake: FakeDiscord, world: World, bot) -> None:
    """A select menu on a private board (MoveSelect): picking an option plays that move, as its button would."""
    from bot.tables.ui import Board, BoardOption, BoardSelect
    from tests.e2e._sample_cog import HighCardUI

    class MenuUI(HighCardUI):
        def board(self, table, player, selection=None):
            step = self.picker(table, player).step(None)
            options = [BoardOption(c.label, c.token) for c in step.choices]
            return Board("Pick a card", [BoardSelect(options, "Play a card…")] if options else [])

    bot.tables.uis["high-card"] = MenuUI()
    thread, lobby = await open_table(fake, world)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = next(iter(bot.tables.tables.values()))
    mover = world.alice if table.engine.view(None)["turn"] == f"u{world.alice.id}" else world.bob
    board = (await fake.click(mover, lobby, "Open my hand")).message
    (menu,) = board.selects
    assert menu.custom_id == f"parlor:msel:{table.id}:v{table.version}:0" and not board.buttons
    label, token = menu.options[1]
    assert label.startswith("Play ") and token.startswith("k.")
    count = table.engine.action_count
    result = await fake.select(mover, board, menu.custom_id, [token])
    assert not result.failed and table.engine.action_count == count + 1
    played = table.engine.view(None)["trick"][-1][1]["label"]
    assert label == f"Play {played}"


async def test_a_name_with_markdown_and_mentions_is_shown_as_typed_and_pings_nobody(fake: FakeDiscord, world: World,
                                                                                  bot) -> None:
    """A member named `**bold** <@alice> @everyone` joins: the lobby shows the name as typed (escaped), not
    bold, and neither that message nor any redraw pings Alice or everyone (issue #31 B, at tables)."""
    named = fake.add_user(f"**bold** <@{world.alice.id}> @everyone", guild=world.guild)
    thread, lobby = await open_table(fake, world)
    await fake.click(named, lobby, "Join")
    shown = fake.message(lobby.id).text
    assert "\\*\\*bold\\*\\*" in shown and "@\u200beveryone" in shown, shown
    assert not any(m.pings for m in fake.messages(thread)), [m.pings for m in fake.messages(thread)]
    assert bot.tables.tables[1].seats[1].name.startswith("\\*\\*bold")


async def test_the_channel_gets_an_invite_card_that_follows_the_lobby(fake: FakeDiscord, world: World,
                                                                       bot) -> None:
    """The `/… new` answer is private, so the channel gets an invite card with Join (issue #30, item 8):
    Join there seats Bob and tells him where to play; the card counts the seats; once the game starts
    it becomes a link to the thread, without buttons."""
    thread, lobby = await open_table(fake, world)
    (card,) = [m for m in fake.messages(world.channel) if "opened a **High card** table" in (m.text or "")]
    assert "1/4 seated" in card.text and f"<#{thread.id}>" in card.text and card.button("Join")
    assert not card.pings, "an invite pings nobody"
    joined = await fake.click(world.bob, card, "Join")
    assert joined.ephemeral and f"<#{thread.id}>" in joined.text, joined.text
    table = bot.tables.tables[1]
    assert table.seat_of_user(world.bob.id) is not None
    await fake.wait_for(lambda: "2/4 seated" in fake.message(card.id).text, timeout=5, what="the card to count Bob")
    await fake.wait_for(lambda: "bob" in fake.message(lobby.id).text, timeout=5, what="the lobby to show Bob")
    again = await fake.click(world.bob, card, "Join")
    assert again.ephemeral and "already seated" in again.text
    await fake.click(world.alice, lobby, "Start")
    await fake.wait_for(lambda: "table #1 is played in" in fake.message(card.id).text, timeout=5,
                        what="the card to become a link to the game")
    assert not fake.message(card.id).buttons and "alice, bob" in fake.message(card.id).text
