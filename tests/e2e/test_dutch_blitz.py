"""End to end: Dutch Blitz on the production bot through the loopback Discord (tracker issue 5)."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from pathlib import Path

import pytest

from bot.config import TablesConfig
from bot.engine.cards import BlitzCard
from bot.tables import restore as restore_module
from bot.tables.restore import Restorer
from sandbox import FakeDiscord
from tests.e2e.conftest import COGS, World, parlor, settled

DB_COGS = [*COGS, "cogs.games"]
_SHIFT_TURN = itertools.count()


async def open_blitz(fake: FakeDiscord, world: World, **options):
    result = await settled(fake, await fake.slash(world.alice, world.channel, "dutch-blitz new", options=options))
    assert result.ephemeral and "is open" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    return thread, fake.last_message(thread)


def card_buttons(board):
    return [b for b in board.buttons if b.custom_id and b.label.startswith(("Blitz ", "Wood ", "Post "))]


async def play_one_move(fake: FakeDiscord, user, lobby, *, build_posts: bool = False) -> str:
    """Open a fresh board and make a simple good move: a card that fits a Dutch pile; else (with
    *build_posts*) the Blitz card onto a Post pile it fits; else, when stuck, Shift every other time;
    else Flip.

    Returns ``"dutch"``, ``"flip"``, ``"none"`` (nothing to click) or ``"refused"`` (the table
    answered with a refusal, e.g. the game just ended). A board that went stale before the click
    (the bots move fast) is opened again, up to five times.
    """
    for _ in range(5):
        board = (await fake.click(user, lobby, "Open my board")).message
        fitting = [b for b in card_buttons(board) if b.style == 1]  # primary: fits a Dutch pile
        flips = [b for b in board.buttons if b.label.startswith("Flip")]
        button, kind = (fitting[0], "dutch") if fitting else (None, "none")
        if button is None and build_posts:
            blitz = next((b for b in card_buttons(board) if b.label.startswith("Blitz")), None)
            if blitz is not None:
                try:
                    picked = (await fake.click(user, board, blitz.custom_id)).message
                except LookupError:
                    continue
                targets = [b for b in picked.buttons if b.label.startswith("→")]
                if targets:
                    button, kind, board = targets[0], "post", picked
        shifts = [b for b in board.buttons if b.label.startswith("Shift")]
        if button is None and shifts and next(_SHIFT_TURN) % 2:
            button, kind = shifts[0], "shift"  # stuck: every other time, shift instead of flipping
        if button is None and flips:
            button, kind = flips[0], "flip"
        if button is None:
            return kind
        edits = len(fake.edits(via="interaction", message=board.id))
        try:
            result = await fake.click(user, board, button.custom_id)
        except LookupError:  # the board was redrawn under the user's finger (e.g. the hand ended)
            continue
        assert not result.failed
        if result.response_type == 4:  # a new ephemeral message: a refusal
            return "refused"
        # a contested play is answered after its race window: wait for the board's redraw
        await fake.wait_for(lambda b=board, n=edits: len(fake.edits(via="interaction", message=b.id)) > n,
                            timeout=5, what="the board to be redrawn")
        if "fresh board" not in fake.message(board.id).text:
            return kind
    return "stale"


async def test_human_and_bot_play_a_hand_to_the_blitz(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A test-driven human and a greedy bot play until someone blitzes; the summary and Ready follow.

    A hand can truly stick (nobody can play for a long while); then the host ends it by the stuck
    rule, both press Ready, and they play on until a hand ends with a Blitz (at most six hands: the
    deal is random, and once four hands in a row ended stuck).
    """
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.bot_delay_scale = 0.1  # about 90 ms a move: Alice's boards are mostly current
        thread, lobby = await open_blitz(fake, world, stuck_seconds=2)
        await fake.select(world.alice, lobby, "parlor:botpick:1", ["hard"])  # the bot that plays most (greedy)
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for _ in range(6):
            while table.engine.view(None)["phase"] == "play":
                await play_one_move(fake, world.alice, lobby, build_posts=True)
                since = max(table.last_event_ms.get(t, 0.0) for t in ("dutch", "start", "hand_started"))
                if time.monotonic() * 1000 - since > 2500 and table.engine.view(None)["phase"] == "play":
                    await fake.click(world.alice, lobby, "End hand (host)")  # the stuck rule
            view = table.engine.view(None)
            if view["hand_endings"][-1]["reason"] == "blitz":
                break
            await fake.wait_for(lambda: "Ready" in [b.label for b in fake.message(lobby.id).buttons], timeout=5)
            await fake.click(world.alice, lobby, "Ready")
            await fake.wait_for(lambda: table.engine.view(None)["phase"] == "play", timeout=5, what="a new hand")
        view = table.engine.view(None)
        assert view["phase"] == "between" and view["hand_endings"][-1]["reason"] == "blitz"
        await fake.wait_for(lambda: "Blitz!" in fake.message(lobby.id).text
                            and "Ready" in [b.label for b in fake.message(lobby.id).buttons], timeout=5,
                            what="the hand summary with Ready")
        late = (await fake.click(world.alice, lobby, "Open my board")).message
        assert "is over" in late.text and card_buttons(late) == []
        hand = view["hand"]
        ready = await fake.click(world.alice, lobby, "Ready")
        assert not ready.failed
        await fake.wait_for(lambda: table.engine.view(None)["phase"] == "play", timeout=5, what="the next hand")
        assert table.engine.view(None)["hand"] == hand + 1


def stage_red_race(engine, seats=(0, 1)) -> None:
    """Put a red pile at 4 in the centre and a red 5 on top of each given seat's Blitz pile."""
    owner = seats[0]
    pile = []
    for value in range(1, 5):
        card = BlitzCard(owner, "red", value)
        _remove(engine.seats[owner], card)
        pile.append(card)
    engine.dutch = [pile]
    for seat in seats:
        five = BlitzCard(seat, "red", 5)
        _remove(engine.seats[seat], five)
        engine.seats[seat].blitz.append(five)


def _remove(seat, card) -> None:
    for pile in [seat.blitz, *seat.posts, seat.wood, seat.hand]:
        if card in pile:
            pile.remove(card)
            if not pile and pile in seat.posts:
                pile.append(seat.blitz.pop(0))
            return
    raise AssertionError(f"{card} not found")


async def test_race_goes_to_the_earlier_discord_timestamp(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Bob's click arrives first but Alice's has the earlier timestamp: Alice's 5 lands, Bob keeps his."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, race_window_ms=300)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        stage_red_race(table.engine)
        table.bump()
        alice_board = (await fake.click(world.alice, lobby, "Open my board")).message
        bob_board = (await fake.click(world.bob, lobby, "Open my board")).message
        alice_btn = next(b for b in card_buttons(alice_board) if b.label.startswith("Blitz"))
        bob_btn = next(b for b in card_buttons(bob_board) if b.label.startswith("Blitz"))
        t = fake.now_ms()
        bob_click = await fake.click(world.bob, bob_board, bob_btn.custom_id, created_at_ms=t + 60, wait=False)
        await asyncio.sleep(0.03)
        alice_click = await fake.click(world.alice, alice_board, alice_btn.custom_id, created_at_ms=t + 20,
                                       wait=False)
        await fake.wait_for_response(bob_click)
        await fake.wait_for_response(alice_click)
        await fake.wait_for(lambda: "ms" in fake.message(bob_board.id).text, timeout=5, what="bob's board")
        top = table.engine.view(None)["dutch_piles"][0]["top"]
        assert top["id"] == "0R5", "Alice's red 5 is on the pile"
        assert table.engine.view(None)["seats"][1]["blitz_top"]["id"] == "1R5", "Bob's red 5 stayed home"
        bob_text = fake.message(bob_board.id).text
        alice_text = fake.message(alice_board.id).text
        assert "alice got there first by 40 ms" in bob_text
        assert "ahead of bob by 40 ms" in alice_text
        assert not bob_click.failed and not alice_click.failed


async def test_board_drawn_before_a_play_is_judged_against_the_table_now(fake: FakeDiscord, world: World,
                                                                         tmp_path: Path) -> None:
    """Everyone plays at once, so a board is rarely current: its clicks are judged on the table as it is.

    Bob's red 5 no longer fits once Alice's red 5 is on the pile (no move, and his board shows the
    pile at 5); his Flip from an equally old board is applied.
    """
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        stage_red_race(table.engine)
        table.bump()
        bob_board = (await fake.click(world.bob, lobby, "Open my board")).message
        bob_other = (await fake.click(world.bob, lobby, "Open my board")).message
        assert await play_one_move(fake, world.alice, lobby) == "dutch"
        assert table.engine.view(None)["dutch_piles"][0]["top"]["id"] == "0R5"
        count = table.engine.action_count
        old = fake.message(bob_board.id)
        blitz = next(b for b in card_buttons(old) if b.label.startswith("Blitz"))
        result = await fake.click(world.bob, old, blitz.custom_id)
        assert not result.failed and table.engine.action_count == count
        redrawn = fake.message(bob_board.id).text
        assert "🟥 R5" in redrawn, "the board shows the pile as it is now"
        assert "fits no Dutch pile" in redrawn or "Selected: Blitz" in redrawn  # at most a Post pile is left
        flip = next(b for b in fake.message(bob_other.id).buttons if b.label.startswith("Flip"))
        await fake.click(world.bob, bob_other, flip.custom_id)
        assert table.engine.action_count == count + 1


async def test_non_player_cannot_open_a_board(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Carol is told she is not playing; nothing is shown to her but the public table."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS):
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        refused = await fake.click(world.carol, lobby, "Open my board")
        assert refused.ephemeral and "not playing" in refused.text


async def test_restart_mid_hand_keeps_every_accepted_play(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """After a restart the table replays its log: every view is as before, and play goes on."""
    db = tmp_path / "p.db"
    async with parlor(fake, db, DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        for _ in range(6):
            await play_one_move(fake, world.alice, lobby)
            await play_one_move(fake, world.bob, lobby)
        table = bot.tables.tables[1]
        before = {p: table.engine.view(p) for p in [*table.engine.players, None]}
        count = table.engine.action_count
    async with parlor(fake, db, DB_COGS) as again:
        table = again.tables.tables[1]
        assert table.engine.action_count == count > 0
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        assert await play_one_move(fake, world.alice, lobby) in ("dutch", "flip", "shift")
        assert table.engine.action_count == count + 1


async def restarted_after_an_update(fake: FakeDiscord, world: World, db: Path, monkeypatch: pytest.MonkeyPatch):
    """Alice and Bob's table, a few moves in; then Parlor "updated" (its snapshot is from other code),
    and the next start leaves every whole-log replay for later with no background replay coming."""
    async with parlor(fake, db, DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        for _ in range(3):
            await play_one_move(fake, world.alice, lobby)
        engine = bot.tables.tables[1].engine
        views = {p: engine.view(p) for p in [*engine.players, None]}
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE snapshots SET code = 'an older parlor'")
    monkeypatch.setattr(restore_module, "REPLAY_BEFORE_READY_S", 0.0)

    async def no_background_replay(self: object) -> None:
        return None

    monkeypatch.setattr(Restorer, "_replay_rest", no_background_replay)
    return thread, lobby, views


async def test_a_refusal_on_a_table_left_to_replay_later_arrives_when_discord_is_slow(
        fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Carol, who does not play, clicks Open my board on a table waiting for its replay while
    Discord takes 300 ms to take the click's deferral: the refusal waits for the deferral and
    arrives as a follow-up, not as a second first answer (which Discord would refuse)."""
    thread, lobby, _ = await restarted_after_an_update(fake, world, tmp_path / "p.db", monkeypatch)
    fake.slow_route("POST", r"/interactions/\d+/[^/]+/callback", 0.3)
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as again:
        assert again.tables.tables[1].engine is None
        click = await fake.click(world.carol, lobby, "Open my board")
        assert click.response_type == 6
        await fake.wait_for(lambda: click.followups, timeout=5, what="the refusal as a follow-up")
        assert click.followups[0].ephemeral and "not playing" in click.followups[0].text


async def test_a_slash_command_in_a_table_left_to_replay_later_is_answered_when_the_database_fails(
        fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails once as Bob's ``/table board`` replays the table first: he is told that
    something went wrong (not left without an answer), the table still waits, and his next
    ``/table board`` replays it and shows his board."""
    thread, lobby, _ = await restarted_after_an_update(fake, world, tmp_path / "p.db", monkeypatch)
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as again:
        storage = again.tables.storage
        real = storage.action_log
        failures = [OSError("disk I/O error")]

        async def failing_once(*args: object, **kwargs: object) -> object:
            if failures:
                raise failures.pop()
            return await real(*args, **kwargs)

        monkeypatch.setattr(storage, "action_log", failing_once)
        first = await settled(fake, await fake.slash(world.bob, thread, "table board"))
        assert first.ephemeral and "went wrong" in first.text
        table = again.tables.tables[1]
        assert table.engine is None and again.tables.awaits_replay(1)
        second = await settled(fake, await fake.slash(world.bob, thread, "table board"))
        assert second.ephemeral and any(b.label.startswith("Flip") for b in second.message.buttons), second.text
        assert table.engine is not None and table.engine.action_count == 3


async def test_after_an_update_a_table_left_to_replay_later_answers_its_first_click(
        fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parlor was updated between stop and start (the snapshot is from other code) and the start
    leaves every whole-log replay for later, with no background replay coming: Alice's first
    click, and Bob's ``/table board`` in the thread, replay the table on the spot and find every
    move in place; play goes on."""
    db = tmp_path / "p.db"
    thread, lobby, before = await restarted_after_an_update(fake, world, db, monkeypatch)
    count = 3
    async with parlor(fake, db, DB_COGS) as again:
        table = again.tables.tables[1]
        assert table.engine is None, "left to replay later"
        click = await fake.click(world.alice, lobby, "Open my board")
        assert click.response_type == 6, "deferred at once, before the replay"
        await fake.wait_for(lambda: click.followups, timeout=5, what="the board as a follow-up")
        board = click.followups[0]
        assert board.ephemeral and any(b.label.startswith("Flip") for b in board.buttons), board.text
        assert table.engine is not None and table.engine.action_count == count
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        slash = await settled(fake, await fake.slash(world.bob, thread, "table board"))
        assert slash.ephemeral and any(b.label.startswith("Flip") for b in slash.message.buttons), slash.text
        assert await play_one_move(fake, world.alice, lobby) in ("dutch", "flip", "shift")
        assert table.engine.action_count == count + 1


async def test_public_edits_stay_under_the_coalescing_rate_with_four_bots(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Three bots playing flat out (their host watching): the public message is edited at most once per ~1.2 s."""
    tables = TablesConfig(redraw_interval_ms=1200)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables) as bot:
        bot.tables.bot_delay_scale = 0.01
        thread, lobby = await open_blitz(fake, world)
        for _ in range(3):
            await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        started = fake.now_ms()  # the lobby clicks' own answers updated the message until here
        table = bot.tables.tables[1]
        await asyncio.sleep(4.5)
        assert table.engine.action_count > 50, "the bots played flat out"
        # Alice's Start gave a token that edits the table message outside the global limit: the
        # redraws go through it, at the same pace.
        edits = [e.at_ms for e in fake.edits(thread, via="interaction") if e.message_id == lobby.id
                 and e.at_ms > started]
        assert len(edits) >= 2
        assert not [e for e in fake.edits(thread, via="channel") if e.message_id == lobby.id]
        gaps = [b - a for a, b in zip(edits, edits[1:], strict=False)]
        assert min(gaps) >= 1100, gaps
        assert max(sum(1 for t in edits if 0 <= t - start < 5000) for start in edits) <= 5


async def test_one_person_and_three_bots_play_a_whole_game(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Alice and three bots play hands (Alice always Ready) until someone reaches the default 75."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        bot.tables.bot_delay_scale = 0.005
        thread, lobby = await open_blitz(fake, world, stuck_seconds=2)
        for _ in range(3):
            await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for _ in range(5000):
            phase = table.engine.view(None)["phase"]
            if phase == "over":
                break
            if phase == "between":
                await fake.wait_for(lambda: "Ready" in [b.label for b in fake.message(lobby.id).buttons]
                                    or table.engine.view(None)["phase"] != "between", timeout=5)
                if table.engine.view(None)["phase"] != "between":
                    continue
                await fake.click(world.alice, lobby, "Ready")
                await fake.wait_for(lambda: table.engine.view(None)["phase"] != "between", timeout=5)
                continue
            await play_one_move(fake, world.alice, lobby)
            since = max(table.last_event_ms.get(t, 0.0) for t in ("dutch", "start", "hand_started"))
            if time.monotonic() * 1000 - since > 2500 and table.engine.view(None)["phase"] == "play":
                await fake.click(world.alice, lobby, "End hand (host)")  # a stuck hand: the host ends it
        assert table.engine.is_over
        await fake.wait_for(lambda: "Final standings" in fake.message(lobby.id).text, timeout=5)
        result = table.engine.result()
        assert max(result.scores.values()) >= 75
        assert table.engine.view(None)["hand"] > 1, "a game to 75 takes several hands"
        assert await bot.storage.result(1) is not None


async def test_host_ends_a_stuck_hand_only_after_the_wait(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """End hand is refused to non-hosts; the host's End hand clicked before stuck_seconds without a
    Dutch-pile play is held, not refused, and the hand ends by itself when the wait is over; it scores."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await fake.wait_for(lambda: "End hand (host)" in [b.label for b in fake.message(lobby.id).buttons],
                            timeout=5, what="the End hand button")
        not_host = await fake.click(world.bob, lobby, "End hand (host)")
        assert not_host.ephemeral and "Only the host" in not_host.text
        early = await fake.click(world.alice, lobby, "End hand (host)")
        assert not early.failed and early.ephemeral and "not yet" not in early.text
        assert "⏳ End hand: made as soon as it is allowed, 1 s after the last card went onto a Dutch pile" \
            in early.text, early.text
        await fake.wait_for(lambda: table.engine.view(None)["phase"] == "between", timeout=10,
                            what="the held End hand to be made when the wait is over")
        view = table.engine.view(None)
        assert view["hand_endings"][-1]["reason"] != "blitz"
        await fake.wait_for(lambda: "The hand was ended" in fake.message(lobby.id).text, timeout=5)


async def test_card_goes_to_an_equivalent_pile_nobody_is_racing_for(fake: FakeDiscord, world: World,
                                                                    tmp_path: Path) -> None:
    """Two red piles at 4 and a race open on the first: Alice's red 5 goes onto the second."""
    from bot.tables.race import Claim

    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        engine = table.engine
        stage_red_race(engine, seats=(0,))
        second = []
        for value in range(1, 5):
            card = BlitzCard(1, "red", value)
            _remove(engine.seats[1], card)
            second.append(card)
        engine.dutch.append(second)
        table.bump()
        pending = asyncio.get_running_loop().create_future()
        table.arbiter.submit(Claim("dutch-pile:0", f"u{world.bob.id}", {"type": "dutch"}, 0, pending), 0)
        assert await play_one_move(fake, world.alice, lobby) == "dutch"
        piles = table.engine.view(None)["dutch_piles"]
        assert piles[1]["top"]["id"] == "0R5" and piles[0]["top"]["value"] == 4


async def test_new_command_options_come_from_the_one_declaration(fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """/dutch-blitz new as synced: each option's range, default-free description and type are the engine's."""
    from bot.engine.options import describe_options
    from bot.games.dutch_blitz.options import DutchBlitzOptions

    async with parlor(fake, tmp_path / "p.db", DB_COGS):
        (group,) = [c for c in fake.commands() if c["name"] == "dutch-blitz"]
        (new,) = [o for o in group["options"] if o["name"] == "new"]
        synced = {o["name"]: o for o in new["options"]}
        for spec in describe_options(DutchBlitzOptions):
            option = synced[spec.name]
            assert option["description"] == spec.help[:100]
            if spec.type is int:
                assert (option["min_value"], option["max_value"]) == (spec.min, spec.max)
        refused = await fake.slash(world.alice, world.channel, "dutch-blitz new", options={"target": 1})
        assert not refused.failed  # 1 point is a legal (if short) game: the engine's range, not the old 5


async def test_host_picks_a_bots_strength_and_the_table_its_speed(fake: FakeDiscord, world: World,
                                                                  tmp_path: Path) -> None:
    """The lobby's bot menu seats the easy bot; a table opened with bot_speed fast keeps it, relaxed by default."""
    from bot.tables.core import bot_speed_factor

    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, bot_speed="fast")
        menu = next(s for s in lobby.selects if s.custom_id.startswith("parlor:botpick:"))
        assert menu.options == (("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard"))
        refused = await fake.select(world.bob, lobby, menu.custom_id, ["easy"])
        assert refused.ephemeral and "Only the host" in refused.text
        await fake.select(world.alice, lobby, menu.custom_id, ["easy"])
        table = bot.tables.tables[1]
        assert [(s.bot_name, s.name) for s in table.seats if s.is_bot] == [("easy", "Bot 1 (easy)")]
        assert "Bot 1 (easy)" in fake.message(lobby.id).text
        assert table.settings["bot_speed"] == "fast" and bot_speed_factor(table.settings) == 0.6
        assert (await bot.storage.game(1)).settings["bot_speed"] == "fast"  # kept across a restart
        await fake.click(world.alice, lobby, "Cancel")
        await open_blitz(fake, world)
        assert bot.tables.tables[2].settings["bot_speed"] == "relaxed"


async def test_hand_end_posts_a_notice_and_how_to_play_answers_privately(fake: FakeDiscord, world: World,
                                                                         tmp_path: Path) -> None:
    """A hand's end is a new message in the thread (it notifies); How to play explains the board ephemerally."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, stuck_seconds=1)
        how = await fake.click(world.carol, lobby, "How to play")
        assert how.ephemeral and "Open my board" in how.text and "Dutch pile" in how.text
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        before = len(fake.messages(thread))
        await asyncio.sleep(1.1)
        await fake.click(world.alice, lobby, "End hand (host)")
        assert table.engine.view(None)["phase"] == "between"
        def hand_end_notice() -> object:  # the hand's picture (docs/art.md §7) is a message of its own
            return next((m for m in fake.messages(thread)[before:] if "Totals" in m.text), None)

        notice = await fake.wait_for(hand_end_notice, timeout=5, what="the hand-end notice")
        assert notice.id != lobby.id and "Hand 1 ends" in notice.text
        assert "alice" in notice.text and "<@" not in notice.text
