"""End to end: Dutch on the production bot through the loopback Discord (tracker issue 12).

Whole games (a person and three bots, both rule sets), a staged race of aggressive jump-ins, a
peek that hides again, a wrong jump-in's penalty, a Dutch call's last turns, a restart mid-round,
and a leak test: at every change the loopback Discord sees, no message anyone can see, no custom
id and no log line names the face of a card that viewer has not been shown.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.engine.cards import standard_deck
from bot.tables.cards import playing_card
from sandbox import FakeDiscord, FakeUser
from tests.e2e.conftest import COGS, World, deal_seed, parlor, settled, stored_log
from tests.e2e.test_ui_conformance import PRODUCTION_COGS, fast_tables
from tests.e2e.ui_conformance import TableDriver

DB_COGS = [*COGS, "cogs.games"]
FAST = {"jump_in_grace_seconds": 0, "peek_seconds": 1, "bot_speed": "fast"}
"""Options of ``/dutch new`` for quick tests: no grace before a draw, looks shown for 1 s, fast bots."""

PLAIN_MOVES = ("Look at my cards", "Turn the hands over", "Next round", "Skip the power", "Draw", "Discard")
"""What the test's person presses, first match first: a plain game (no jump-in, no swap, no call)."""


async def open_dutch(fake: FakeDiscord, world: World, **options: Any) -> tuple[Any, Any]:
    result = await settled(fake, await fake.slash(world.alice, world.channel, "dutch new", options=options))
    assert result.ephemeral and "is open" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    return thread, fake.last_message(thread)


def pid(table: Any, user: FakeUser) -> str:
    seat = table.seat_of_user(user.id)
    assert seat is not None
    return str(seat.player_id)


async def my_hand(fake: FakeDiscord, user: FakeUser, lobby: Any) -> Any:
    result = await fake.click(user, lobby, "Open my hand")
    assert not result.failed and result.ephemeral, result.text
    return result.message


def button(board: Any, label: str) -> Any:
    found = [b for b in board.buttons if b.label.startswith(label) and not b.disabled]
    assert found, f"no {label!r} button on {[b.label for b in board.buttons]}"
    return found[0]


async def press(fake: FakeDiscord, user: FakeUser, lobby: Any, label: str, **kwargs: Any) -> Any:
    """Open a fresh hand and press the button whose label starts with *label*."""
    board = await my_hand(fake, user, lobby)
    return await fake.click(user, board, button(board, label).custom_id, **kwargs)


def has_plain_move(table: Any, player: str) -> bool:
    return any(a["type"] not in ("jump_in", "dutch") for a in table.engine.legal_actions(player))


async def play_plainly(fake: FakeDiscord, user: FakeUser, lobby: Any, table: Any, *, max_moves: int = 3000) -> int:
    """*user* plays until the game is over: the opening look, draw and discard, skip powers, reveal,
    deal the next round (PLAIN_MOVES). Returns how many moves they made."""
    me = pid(table, user)
    moves = 0
    for _ in range(max_moves):
        if table.engine.is_over:
            return moves
        if not has_plain_move(table, me):
            await fake.wait_for(lambda: table.engine.is_over or has_plain_move(table, me), timeout=20,
                                what=f"a move for {user.name}")
            continue
        board = await my_hand(fake, user, lobby)
        labels = [(b, p) for p in PLAIN_MOVES for b in board.buttons if b.label.startswith(p) and not b.disabled]
        if not labels:
            continue  # the table moved on between the check and the hand
        result = await fake.click(user, board, labels[0][0].custom_id)
        assert not result.failed
        moves += 1
    raise AssertionError("the game did not end")


def stage(engine: Any, hands: dict[str, list[str]], discard: list[str], *, turn: int = 0) -> None:
    """Put the round in play with these hands and discard pile and a jump-in window open on its top.

    The other cards form the deck; every opening look is taken; nobody has seen anything.
    """
    wanted = {c for h in hands.values() for c in h} | set(discard)
    pool = [c.id for c in standard_deck(jokers=2) if c.id not in wanted]
    for p in engine.players:
        engine.hands[p] = list(hands[p]) if p in hands else [pool.pop() for _ in range(4)]
    engine.discard, engine.deck = list(discard), pool
    engine.phase, engine.step, engine.turn, engine.drawn, engine.power = "play", "draw", turn, None, None
    engine.looked = {p: True for p in engine.players}
    engine.seen = {}
    top = discard[-1]
    engine.discards = 5
    rank = standard_deck(jokers=2)[[c.id for c in standard_deck(jokers=2)].index(top)].rank
    name = {0: "Joker", 1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    engine.window = {"number": 5, "rank": rank, "name": name, "taken": False}


# ---------------------------------------------------------------------------------------------- whole games


async def seat_three_bots(fake: FakeDiscord, world: World, lobby: Any) -> None:
    """The default (normal) bot from Add bot, then the hard and the easy one from the lobby's menu."""
    await fake.click(world.alice, lobby, "Add bot")
    menu = next(s for s in fake.message(lobby.id).selects if s.custom_id.startswith("parlor:botpick:"))
    assert [v for _, v in menu.options] == ["easy", "normal", "hard"]
    await fake.select(world.alice, lobby, menu.custom_id, ["hard"])
    await fake.select(world.alice, lobby, menu.custom_id, ["easy"])


async def test_a_person_and_three_bots_play_a_passive_game_to_the_target(fake: FakeDiscord, world: World,
                                                                        tmp_path: Path) -> None:
    """Alice (draw and discard) and three bots of the three strengths play rounds until a total reaches 40
    (the deal is random: one round is sometimes enough)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, target=40, **FAST)
        await seat_three_bots(fake, world, lobby)
        table = bot.tables.tables[1]
        assert [s.bot_name for s in table.seats] == [None, "attentive", "perfect", "forgetful"]
        await fake.click(world.alice, lobby, "Start")
        assert "1:🂠 2:🂠 3:🂠 4:🂠" in fake.message(lobby.id).text, "every hand as card backs by position"
        assert await play_plainly(fake, world.alice, lobby, table) > 0
        view = table.engine.view(None)
        assert view["phase"] == "over" and max(view["totals"].values()) >= 40
        await fake.wait_for(lambda: "Final standings" in fake.message(lobby.id).text, timeout=5)
        final = fake.message(lobby.id)
        assert "every hand is turned face up" in final.text
        assert any(b.custom_id.startswith("parlor:rematch:") for b in final.buttons)
        # Notices are posted as messages of their own, alongside the board's last edit: wait for them.
        notices = lambda: [m.text for m in fake.messages(thread) if m.id != lobby.id]  # noqa: E731
        await fake.wait_for(lambda: any("Game over" in n for n in notices()), timeout=5)
        assert any("Round 1 is over" in n for n in notices())
        assert await bot.storage.result(1) is not None


async def test_a_person_and_three_bots_play_an_aggressive_game_to_the_end(fake: FakeDiscord, world: World,
                                                                         tmp_path: Path) -> None:
    """One round to the end of the deck: every hand face up, the lowest wins, Rematch offered."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, variant="aggressive", **FAST)
        await seat_three_bots(fake, world, lobby)
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        assert "(aggressive)" in fake.message(lobby.id).text
        await play_plainly(fake, world.alice, lobby, table)
        view = table.engine.view(None)
        assert view["phase"] == "over" and view["deck"] == 0 and view["round"] == 1
        await fake.wait_for(lambda: "Final standings" in fake.message(lobby.id).text, timeout=5)
        assert "the deck is exhausted" in fake.message(lobby.id).text
        result = table.engine.result()
        assert min(result.scores.values()) == result.scores[result.winners[0]]


# ---------------------------------------------------------------------------------------------- staged moments


async def test_the_earlier_discord_timestamp_wins_a_race_of_aggressive_jump_ins(fake: FakeDiscord, world: World,
                                                                                tmp_path: Path) -> None:
    """Bob's jump-in arrives first but Alice's was stamped 40 ms earlier: Alice's 7 goes; Bob's right 7
    comes too late, so it stays where it was, shown to all (docs/rules/dutch.md §7.6). Bob is told that
    Alice got there first by 40 ms, and Alice that she beat Bob by 40 ms (docs/design.md §4)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, variant="aggressive", race_window_ms=300, **FAST)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = pid(table, world.alice), pid(table, world.bob)
        stage(table.engine, {alice: ["7S", "2S", "3S", "4S"], bob: ["7H", "2H", "3H", "4H"]}, ["9C", "7D"])
        table.bump()
        alice_board = await my_hand(fake, world.alice, lobby)
        bob_board = await my_hand(fake, world.bob, lobby)
        assert "Jump in: bob's card 1" in [b.label for b in alice_board.buttons], "aggressive: adversaries' cards too"
        t = fake.now_ms()
        bob_click = await fake.click(world.bob, bob_board, button(bob_board, "Jump in: my card 1").custom_id,
                                     created_at_ms=t + 60, wait=False)
        await asyncio.sleep(0.03)
        alice_click = await fake.click(world.alice, alice_board, button(alice_board, "Jump in: my card 1").custom_id,
                                       created_at_ms=t + 20, wait=False)
        await fake.wait_for_response(bob_click)
        await fake.wait_for_response(alice_click)
        assert not bob_click.failed and not alice_click.failed
        engine = table.engine
        await fake.wait_for(lambda: engine.action_count == 2, timeout=5, what="the race window to close")
        assert engine.hands[alice][0] is None and engine.discard[-1] == "7S", "Alice's 7 was first"
        assert engine.hands[bob][0] == "7H", "Bob's 7 came late: it stays in its place"
        jumps = [(p, a["player"]) for p, a in (await stored_log(bot, table))["actions"] if a["type"] == "jump_in"]
        assert jumps == [(alice, alice), (bob, bob)], "applied in Discord-timestamp order"
        await fake.wait_for(lambda: "too late" in fake.message(lobby.id).text, timeout=5, what="the public story")
        assert "bob jumps in with bob's card 1, a 7♥, but too late" in fake.message(lobby.id).text
        # The loser is told who was first and by how many ms, the winner whom they beat (design §4).
        for click, told in ((bob_click, "Too late: alice got there first by 40 ms."),
                            (alice_click, "You got there first — ahead of bob by 40 ms.")):
            await fake.wait_for(lambda c=click, t=told: t in fake.message(c.message.id).text, timeout=5,
                                what=f"{told!r} on the board")
        assert "40 ms" not in "\n".join(m.text for m in fake.messages(thread, visible_to=world.carol))


async def alice_and_bob_started(fake: FakeDiscord, world: World, bot: Any) -> tuple[Any, Any, Any, list[str]]:
    """Alice and Bob at a started FAST table: its thread, lobby, table and Alice's first two faces."""
    thread, lobby = await open_dutch(fake, world, **FAST)
    await fake.click(world.bob, lobby, "Join")
    await fake.click(world.alice, lobby, "Start")
    table = bot.tables.tables[1]
    faces = [playing_card(c) for c in table.engine.hands[pid(table, world.alice)][:2]]
    return thread, lobby, table, faces


async def test_a_look_is_shown_to_its_player_only_and_hidden_again(fake: FakeDiscord, world: World,
                                                                   tmp_path: Path) -> None:
    """Alice's opening look shows her two cards on her own hand for peek_seconds (1 s), then hides them;
    Bob and a spectator never see them."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby, table, faces = await alice_and_bob_started(fake, world, bot)
        board = await my_hand(fake, world.alice, lobby)
        assert not any(f"**{face}**" in board.text for face in faces), "a face-down card is not shown, not even"
        answered = await fake.click(world.alice, board, button(board, "Look at my cards 1 and 2").custom_id)
        shown_at = fake.now_ms()
        seen = answered.message.text
        assert f"Your card 1 is the **{faces[0]}**" in seen and f"Your card 2 is the **{faces[1]}**" in seen
        await fake.wait_for(lambda: faces[0] not in fake.message(board.id).text, timeout=4,
                            what="the look to be hidden again")
        hidden = [e.at_ms for e in fake.edits(via="interaction", message=board.id)][-1]
        assert hidden - shown_at >= 800, "shown for peek_seconds (1 s), on Alice's own ephemeral hand"
        assert faces[1] not in fake.message(board.id).text
        again = await my_hand(fake, world.alice, lobby)
        assert not any(face in again.text for face in faces), "a fresh hand does not show it either"
        for user in (world.bob, world.carol):
            texts = [m.text for m in fake.messages(thread, visible_to=user)]
            assert not any(face in text for text in texts for face in faces), f"{user.name} never sees it"


async def test_a_hand_drawn_during_a_look_and_sent_after_it_is_hidden_at_once(
        fake: FakeDiscord, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice opens her hand again while her opening look is shown, and Discord is slow: the answer
    leaves after the look's time is up. The hand shows the faces as drawn, so it is hidden as soon
    as it is kept live, not at the next periodic refresh (docs/tables.md, "Live boards")."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby, table, faces = await alice_and_bob_started(fake, world, bot)
        first = await my_hand(fake, world.alice, lobby)
        await fake.click(world.alice, first, button(first, "Look at my cards 1 and 2").custom_id)
        send = discord.InteractionResponse.send_message

        async def slow(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(1.2)  # the look (1 s) runs out while the answer is on its way
            return await send(self, *args, **kwargs)

        monkeypatch.setattr(discord.InteractionResponse, "send_message", slow)
        late = await my_hand(fake, world.alice, lobby)
        monkeypatch.undo()
        assert any(f in late.text for f in faces), "drawn while the look was shown"
        await fake.wait_for(lambda: not any(f in fake.message(late.id).text for f in faces), timeout=3,
                            what="the late hand to be hidden at once")


async def test_a_look_hides_again_on_every_hand_opened_while_it_was_shown(fake: FakeDiscord, world: World,
                                                                            tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice opens her hand again (Open my hand, then `/table board`) while a look is shown: after
    peek_seconds no message of hers shows the face, not even the hands she replaced — the opening
    look and a Jack's look alike (docs/tables.md, "Live boards"; docs/rules/dutch.md §2, §6)."""
    deal_seed(monkeypatch, 1)  # the opening look's faces are none of the cards staged below, which Bob may see
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, **{**FAST, "peek_seconds": 2})
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = pid(table, world.alice), pid(table, world.bob)
        faces = [playing_card(c) for c in table.engine.hands[alice][:2]]
        staged = ["5S", "2S", "3S", "4S", "7H", "2H", "3H", "4H", "9C", "JS"]
        assert not set(faces) & {playing_card(c) for c in staged}, "the seed must deal other cards to Alice"
        first = await my_hand(fake, world.alice, lobby)
        await fake.click(world.alice, first, button(first, "Look at my cards 1 and 2").custom_id)
        again = await my_hand(fake, world.alice, lobby)
        boards = [first.id, again.id]
        assert all(faces[0] in fake.message(b).text for b in boards), "shown on both while the look lasts"
        await fake.wait_for(lambda: not any(f in fake.message(b).text for b in boards for f in faces),
                            timeout=5, what="the look to be hidden on both hands")
        await asyncio.sleep(0.8)  # and it stays hidden
        assert not any(f in fake.message(b).text for b in boards for f in faces)

        # A Jack's look: Alice draws the J♠ and discards it, looks at Bob's card 1, and opens her
        # hand twice more (the button and `/table board`) while it is shown.
        await press(fake, world.bob, lobby, "Look at my cards 1 and 2")
        stage(table.engine, {alice: ["5S", "2S", "3S", "4S"], bob: ["7H", "2H", "3H", "4H"]}, ["9C"])
        table.engine.window = None
        table.engine.deck.remove("JS")
        table.engine.deck.append("JS")
        table.bump()
        await press(fake, world.alice, lobby, "Draw")
        board = await my_hand(fake, world.alice, lobby)
        answer = await fake.click(world.alice, board, button(board, "Discard the J♠").custom_id)
        for label in ("Look at a card", "bob's cards", "card 1"):
            answer = await fake.click(world.alice, board, button(answer.message, label).custom_id)
        assert "bob's card 1 is the **7♥**" in answer.message.text, answer.message.text
        opened = await my_hand(fake, world.alice, lobby)
        slash = await settled(fake, await fake.slash(world.alice, thread, "table board"))
        assert slash.ephemeral and "7♥" in slash.message.text
        boards = [board.id, opened.id, slash.message.id]
        await fake.wait_for(lambda: not any("7♥" in fake.message(b).text for b in boards), timeout=5,
                            what="the Jack's look to be hidden on all three hands")
        await fake.wait_for(lambda: not bot.tables.boards.fading, timeout=2, what="the replaced hands to be let go")
        for user in (world.bob, world.carol):
            texts = [m.text for m in fake.messages(thread, visible_to=user)]
            assert not any(face in text for text in texts for face in faces), f"{user.name} never sees it"


async def test_a_wrong_jump_in_shows_the_card_and_costs_two_penalty_cards(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Passive: Alice jumps in on a 7 with her card 1, a 5: it is shown and discarded, and she draws two
    cards face down into new positions 5 and 6 (docs/rules/dutch.md §7.2, §7.3)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, **FAST)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = pid(table, world.alice), pid(table, world.bob)
        stage(table.engine, {alice: ["5S", "2S", "3S", "4S"], bob: ["7H", "2H", "3H", "4H"]}, ["9C", "7D"], turn=1)
        table.bump()
        board = await my_hand(fake, world.alice, lobby)
        assert "Jump in: bob's card 1" not in [b.label for b in board.buttons], "passive: own cards only"
        result = await fake.click(world.alice, board, button(board, "Jump in: my card 1").custom_id)
        assert not result.failed
        hand = table.engine.hands[alice]
        assert hand[0] is None and len(hand) == 6 and table.engine.discard[-1] == "5S"
        answer = fake.message(board.id).text
        assert "Your cards: 2:🂠 3:🂠 4:🂠 5:🂠 6:🂠" in answer, "the penalty cards lie face down in new positions"
        assert not any(playing_card(c) in answer for c in hand[4:]), "unseen, even by Alice"
        await fake.wait_for(lambda: "alice draws 2 penalty cards" in fake.message(lobby.id).text, timeout=5)
        public = fake.message(lobby.id).text
        assert "alice jumps in with alice's card 1: 5♠ — wrong." in public
        assert "alice** — 2:🂠 3:🂠 4:🂠 5:🂠 6:🂠 (5 cards)" in public


async def test_a_dutch_call_gives_everyone_else_one_last_turn(fake: FakeDiscord, world: World,
                                                              tmp_path: Path) -> None:
    """Bob calls Dutch before Alice draws: Alice's turn is her last, then Carol's; Bob gets none; then the
    hands are turned over and the call is scored (docs/rules/dutch.md §9.1)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, **FAST)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.carol, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for user in (world.alice, world.bob, world.carol):
            await press(fake, user, lobby, "Look at my cards 1 and 2")
        assert table.engine.view(None)["turn"] == pid(table, world.alice)
        await press(fake, world.bob, lobby, "Call Dutch")
        await fake.wait_for(lambda: "called **Dutch** — last turns: alice (now), carol."
                            in fake.message(lobby.id).text, timeout=5)
        await fake.wait_for(lambda: any("bob calls Dutch! Last turns: alice, carol." in m.text
                                        for m in fake.messages(thread)), timeout=5, what="the call's notice")
        bob_board = await my_hand(fake, world.bob, lobby)
        assert not any(b.label in ("Call Dutch", "Draw") for b in bob_board.buttons)
        for user in (world.alice, world.carol):
            await press(fake, user, lobby, "Draw")
            await press(fake, user, lobby, "Discard")
            while table.engine.view(None)["power"] is not None:  # a discarded J, Q or K: its power, skipped
                await press(fake, user, lobby, "Skip the power")
            if user is world.alice:
                await fake.wait_for(lambda: "called **Dutch** — last turns: carol (now)."
                                    in fake.message(lobby.id).text, timeout=5)
        view = table.engine.view(None)  # on a slow machine the hands may already be turned over by themselves
        assert view["due_to_end"] or view["phase"] == "round_over", view["phase"]
        bob_board = await my_hand(fake, world.bob, lobby)
        assert "Draw" not in [b.label for b in bob_board.buttons], "the caller gets no last turn"
        await fake.wait_for(lambda: table.engine.view(None)["phase"] == "round_over", timeout=10,
                            what="the hands to be turned over by themselves, nobody pressing anything")
        detail = table.engine.view(None)["last_round"]
        assert detail["caller"] == pid(table, world.bob) and detail["why"] == "dutch"
        draws = [p for p, a in (await stored_log(bot, table))["actions"] if a["type"] == "draw"]
        assert pid(table, world.bob) not in draws
        await fake.wait_for(lambda: "Round 1 is over** (everyone had their last turn)"
                            in fake.message(lobby.id).text, timeout=5)
        public = fake.message(lobby.id).text
        caller = "🔔 called Dutch and is lowest" if detail["outcome"] == "outright" else "undercut penalty +15"
        assert caller in public and "Next round" in [b.label for b in fake.message(lobby.id).buttons]


async def test_a_restart_mid_round_keeps_every_move_and_each_bots_memory(fake: FakeDiscord, world: World,
                                                                        tmp_path: Path, monkeypatch) -> None:
    """After a restart the table replays its log: every view as before, each bot remembers exactly what
    it was shown (rebuilt from the log's private events), and play goes on.

    The deal is fixed (seed 1): with a random one a bot sometimes called Dutch within alice's first
    four turns, the round ended, and alice had no draw to make after the restart.
    """
    deal_seed(monkeypatch, 1)
    db = tmp_path / "p.db"
    async with parlor(fake, db, DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, target=500, **FAST)
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice = pid(table, world.alice)
        for _ in range(4):
            await fake.wait_for(lambda: has_plain_move(table, alice), timeout=10, what="Alice's turn")
            for label in ("Look", "Draw", "Discard", "Skip the power"):
                board = await my_hand(fake, world.alice, lobby)
                found = [b for b in board.buttons if b.label.startswith(label)]
                if found:
                    await fake.click(world.alice, board, found[0].custom_id)
        await fake.wait_for(lambda: {"type": "draw"} in table.engine.legal_actions(alice), timeout=10)
        await asyncio.sleep(0.3)  # the bots' sure jump-ins, if any
    count = table.engine.action_count
    before = {p: table.engine.view(p) for p in [*table.engine.players, None]}
    memories = {p: dict(b.memory) for p, b in table.bots.items()}
    assert count > 8 and any(memories.values()), "the bots have seen cards"
    async with parlor(fake, db, DB_COGS) as again:
        table = again.tables.tables[1]
        assert table.engine.action_count == count
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        assert {p: dict(b.memory) for p, b in table.bots.items()} == memories
        await press(fake, world.alice, lobby, "Draw")
        assert table.engine.action_count == count + 1


async def alice_plays_her_turn(fake: FakeDiscord, world: World, lobby: Any, table: Any) -> None:
    alice = pid(table, world.alice)
    await fake.wait_for(lambda: {"type": "draw"} in table.engine.legal_actions(alice), timeout=5, what="Alice's turn")
    await press(fake, world.alice, lobby, "Draw")
    await press(fake, world.alice, lobby, "Discard")
    while table.engine.view(None)["power"] is not None:  # a discarded J, Q or K: its power, skipped
        await press(fake, world.alice, lobby, "Skip the power")


async def test_a_timeout_plays_the_whole_turn_and_two_missed_turns_seat_a_bot(fake: FakeDiscord, world: World,
                                                                           tmp_path: Path) -> None:
    """Bob lets his turn run out: one timeout draws and discards the drawn card (and skips its power)
    at once, and counts one missed turn: his seat stays his. After his second missed turn a bot takes
    it, knowing the two cards Bob looked at (docs/rules/dutch.md §5.4; docs/tables.md, "Turn timers")."""
    from bot.config import TablesConfig

    tables = TablesConfig(redraw_interval_ms=200, turn_timeout_seconds=20, turn_warning_seconds=5)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables, timer_scale=0.1) as bot:
        thread, lobby = await open_dutch(fake, world, target=500, **FAST)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = pid(table, world.alice), pid(table, world.bob)
        looked = list(table.engine.hands[bob][:2])
        await press(fake, world.alice, lobby, "Look at my cards 1 and 2")
        await press(fake, world.bob, lobby, "Look at my cards 1 and 2")
        assert table.engine.view(None)["turn"] == alice
        await alice_plays_her_turn(fake, world, lobby, table)
        count = table.engine.action_count
        await fake.wait_for(lambda: table.engine.view(None)["turn"] == alice and table.engine.action_count > count,
                            timeout=5, what="Bob's turn to time out")
        moves = (await stored_log(bot, table))["actions"][count:]
        assert [p for p, _ in moves] == [bob] * len(moves)
        assert [a["type"] for _, a in moves] in (["draw", "discard"], ["draw", "discard", "skip_power"]), moves
        assert not table.seat_of_player(bob).is_bot and table.timeouts[bob] == 1, "one missed turn, one count"
        await alice_plays_her_turn(fake, world, lobby, table)
        await fake.wait_for(lambda: table.seat_of_player(bob).is_bot, timeout=5, what="a bot in Bob's seat")
        types = [a["type"] for p, a in (await stored_log(bot, table))["actions"][count:] if p == bob]
        assert types.count("draw") == 2, f"the bot came after Bob's second whole turn: {types}"
        await fake.wait_for(lambda: any("A bot took over bob's seat (timed out too often)" in (m.text or "")
                                        for m in fake.messages(thread)), timeout=5, what="the notice")
        memory = table.bots[bob].memory
        kept = [i for i in (0, 1) if table.engine.hands[bob][i] == looked[i]]  # (unless the bot jumped in since)
        assert kept and all(memory[(bob, i)]["id"] == looked[i] for i in kept), "the bot knows what Bob was shown"


async def test_the_jump_in_grace_counts_down_and_holds_the_next_draw_back(fake: FakeDiscord, world: World,
                                                                           tmp_path: Path) -> None:
    """With a grace of 2 s, a discard shows Discord's live countdown to the next draw on the table and
    on the hands; Bob's draw clicked during the grace is never refused: his hand says it is made when
    the grace is over, a jump-in is still possible, and the draw is made then without another click
    (docs/rules/dutch.md §7.1; issue #30: quick is never wrong)."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, **{**FAST, "jump_in_grace_seconds": 2})
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for user in (world.alice, world.bob):
            await press(fake, user, lobby, "Look at my cards 1 and 2")
        await press(fake, world.alice, lobby, "Draw")
        await press(fake, world.alice, lobby, "Discard")
        while table.engine.view(None)["power"] is not None:
            await press(fake, world.alice, lobby, "Skip the power")
        discarded_at = fake.now_ms()
        countdown = re.compile(r"the next draw waits until <t:(\d+):R>")
        await fake.wait_for(lambda: countdown.search(fake.message(lobby.id).text), timeout=5,
                            what="the countdown on the table")
        ends = int(countdown.search(fake.message(lobby.id).text).group(1))  # type: ignore[union-attr]
        assert abs(ends * 1000 - (discarded_at + 2000)) <= 2000, "Discord's relative timestamp of the draw"
        board = await my_hand(fake, world.bob, lobby)
        assert countdown.search(board.text), "the hand shows the countdown too"
        assert any(b.label.startswith("Jump in: my card") for b in board.buttons), "jump-ins during the grace"
        count = table.engine.action_count
        early = await fake.click(world.bob, board, button(board, "Draw").custom_id)
        assert not early.failed and early.ephemeral
        assert "Refused" not in early.message.text and "not yet" not in early.message.text
        assert "⏳ Draw: made as soon as it is allowed, 2 s after the last discard" in early.message.text
        assert table.engine.action_count == count and table.engine.view(None)["step"] == "draw", "held back"
        await fake.wait_for(lambda: table.engine.view(None)["step"] == "decide", timeout=10,
                            what="the held draw to be made when the grace is over, with no second click")
        # Made when the grace ended (2 s after the discard, by the table's clock), not at the click: the
        # discard's time here is read a moment after it, hence the margin.
        assert table.engine.action_count == count + 1 and fake.now_ms() >= discarded_at + 1500


async def test_new_command_offers_every_engine_option_and_they_reach_the_table(fake: FakeDiscord, world: World,
                                                                             tmp_path: Path) -> None:
    """/dutch new as synced has each option of the engine's declaration (docs/rules/dutch.md §10) with
    its help, range and choices; every one set away from its default reaches the table and the game;
    /rules game:dutch tells how to play on Discord."""
    from bot.engine.options import describe_options
    from bot.games.dutch.engine import DutchOptions

    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        (group,) = [c for c in fake.commands() if c["name"] == "dutch"]
        (new,) = [o for o in group["options"] if o["name"] == "new"]
        synced = {o["name"]: o for o in new["options"]}
        specs = {spec.name: spec for spec in describe_options(DutchOptions)}
        assert set(synced) == {*specs, "race_window_ms", "bot_speed"}
        for name, spec in specs.items():
            assert synced[name]["description"] == spec.help[:100], name
            if spec.min is not None:
                assert (synced[name]["min_value"], synced[name]["max_value"]) == (spec.min, spec.max), name
            if spec.choices is not None:
                assert [c["value"] for c in synced[name]["choices"]] == list(spec.choices), name
        chosen = {"variant": "passive", "jokers": False, "hand_size": 6, "red_kings": -3, "peek_seconds": 7,
                  "jump_in_grace_seconds": 0, "target": 250, "undercut_penalty": 20, "forgiving_scores": True}
        assert all(chosen[n] != specs[n].default for n in specs if n != "variant" and n != "jump_in_grace_seconds")
        thread, lobby = await open_dutch(fake, world, **chosen, race_window_ms=90, bot_speed="fast")
        table = bot.tables.tables[1]
        assert table.options == chosen
        assert table.settings["race_window_ms"] == 90 and table.settings["bot_speed"] == "fast"
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        engine = table.engine
        assert {n: getattr(engine.options, n) for n in specs} == chosen
        assert all(len(hand) == 6 for hand in engine.hands.values()), "hand_size reached the deal"
        assert not any(c.startswith("X") for c in [*engine.deck, *engine.discard,
                                                    *(c for h in engine.hands.values() for c in h if c)]), "no Jokers"
        aggressive = {"variant": "aggressive", "jokers": True, "jump_in_grace_seconds": 0}
        result = await settled(fake, await fake.slash(world.carol, world.channel, "dutch new", options=aggressive))
        assert "(aggressive)" in result.text and bot.tables.tables[2].options["variant"] == "aggressive"
        rules = await fake.slash(world.alice, world.channel, "rules", options={"game": "dutch"})
        assert "/dutch new" in rules.text and "Open my hand" in rules.text


# ---------------------------------------------------------------------------------------------- leaks

FACE_RE = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏 Joker|\b(?:the|a) Joker\b|: Joker\b")
"""A card's face in text: the kit's ``playing_card`` (``Q♥``, ``🃏 Joker``) or the narration's words."""
CARD_ID_RE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\bX[12]\b")
"""A card's id (``QH``, ``10S``, ``X1``)."""
ROUND_RE = re.compile(r"[Rr]ound (\d+)")
TABLE_RE = re.compile(r"table #(\d+)")
FACES: dict[str, set[str]] = {}
for _card in standard_deck(jokers=2):
    FACES.setdefault("Joker" if _card.is_joker else playing_card(_card), set()).add(_card.id)
CARD_IDS = {c.id for c in standard_deck(jokers=2)}


def _face_ids(face: str) -> set[str]:
    return FACES["Joker"] if "Joker" in face else FACES[face]


def _cards_in(data: Any) -> Iterator[str]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("id"), str) and "rank" in node:
                yield node["id"]
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)


@dataclass
class _Shadow:
    """What the leak watch knows of one table: a shadow engine fed the table's accepted actions, and
    the faces each seat (``None``: a spectator) has been shown in each round."""

    table: Any
    engine: Any
    applied: int = 0
    round: int = 0
    shown: dict[tuple[str | None, int], set[str]] = field(default_factory=dict)

    def events(self, events: list[Any]) -> None:
        for event in events:
            if event.type == "round_started":
                self.round = event.data["round"]
            cards = set(_cards_in(dict(event.data)))
            for viewer in [None, *self.engine.players]:
                if cards and event.visible_to(viewer):
                    self.shown.setdefault((viewer, self.round), set()).update(cards)


class LeakWatch:
    """At every change the loopback Discord sees: every message version each user can see names only
    faces that user's seat (a spectator: the public) has been shown in that message's round at that
    message's table; no custom id names a card; and no log line at INFO or above names one.

    What a seat has been shown is rebuilt from the game's own events (a shadow replay of each table's
    accepted actions): the events visible to it, round by round (a new round hides every card again).
    A message belongs to the table whose thread it is in, else to the table it names ("table #N"):
    an earlier table's last redraw may come after the next table opened.
    """

    def __init__(self, fake: FakeDiscord, bot: Any, users: list[FakeUser]) -> None:
        self.fake, self.bot, self.users = fake, bot, users
        self.shadows: dict[int, _Shadow] = {}
        self.checked: dict[int, tuple[str, int]] = {}
        self.problems: list[str] = []
        self.faces_checked = 0
        self.records: list[logging.LogRecord] = []
        self.accepted: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        """Table id to its accepted actions, as the table stores them (its engine keeps no log)."""

    def install(self) -> None:
        original = self.fake._changed
        store = self.bot.storage.append_action

        async def append_action(game_id: int, seq: int, player_id: str, action: dict[str, Any], **kw: Any) -> Any:
            self.accepted.setdefault(game_id, []).append((player_id, action))  # before any message shows it
            return await store(game_id, seq, player_id, action, **kw)

        self.bot.storage.append_action = append_action

        def changed() -> None:
            original()
            try:
                self.check()
            except Exception as exc:  # never break the loopback Discord; fail the test instead
                self.problems.append(f"the leak watch failed: {exc!r}")

        self.fake._changed = changed  # type: ignore[method-assign]

    def sync(self) -> None:
        for table in list(self.bot.tables.tables.values()):
            engine = table.engine
            if table.kind != "dutch" or engine is None:
                continue
            shadow = self.shadows.get(table.id)
            if shadow is None or shadow.table is not table:
                shadow = _Shadow(table, type(engine).new(engine.players, seed=engine.seed, options=engine.options))
                shadow.events(shadow.engine.setup_events)
                self.shadows[table.id] = shadow
            for who, action in self.accepted.get(table.id, [])[shadow.applied:]:
                shadow.events(shadow.engine.apply(who, action))
                shadow.applied += 1

    def shadow_of(self, msg: Any) -> _Shadow | None:
        """The table *msg* belongs to: the one whose thread (or channel) it is in, else the one it names."""
        found = [s for s in self.shadows.values() if s.table.thread_id == msg.channel_id]
        if len(found) == 1:
            return found[0]
        named = TABLE_RE.search(msg.text or "")
        if named is not None and int(named.group(1)) in self.shadows:
            return self.shadows[int(named.group(1))]
        return self.shadows[max(self.shadows)] if self.shadows else None

    @staticmethod
    def viewer(shadow: _Shadow, user: FakeUser) -> str | None:
        seat = shadow.table.seat_of_user(user.id)
        return None if seat is None or seat.is_bot else str(seat.player_id)

    def check(self) -> None:
        self.sync()
        if not self.shadows:
            return
        for msg in list(self.fake._messages.values()):
            mark = (msg.text or "", id(msg.components))
            if self.checked.get(msg.id) == mark:
                continue
            self.checked[msg.id] = mark
            ids = [b.custom_id for b in msg.buttons if b.custom_id] + [s.custom_id for s in msg.selects]
            ids += [v for s in msg.selects for _, v in s.options]
            for cid in ids:
                if set(re.split(r"[:._-]", cid)) & CARD_IDS:
                    self.problems.append(f"custom id {cid!r} names a card")
            faces = FACE_RE.findall(msg.text or "")
            shadow = self.shadow_of(msg)
            if not faces or shadow is None:
                continue
            found = ROUND_RE.search(msg.text or "")
            round_ = int(found.group(1)) if found else shadow.round
            users = [u for u in self.users if not msg.ephemeral or u.id == msg.visible_to]
            for user in users:
                viewer = self.viewer(shadow, user)
                allowed = shadow.shown.get((viewer, round_), set())
                for face in faces:
                    self.faces_checked += 1
                    if not _face_ids(face) & allowed:
                        self.problems.append(f"{user.name} ({viewer or 'spectator'}) sees {face!r} in round {round_}, "
                                             f"never shown to them: message {msg.id} (table "
                                             f"#{shadow.table.id}):\n{msg.text}")

    def log_problems(self) -> list[str]:
        out = []
        for record in self.records:
            text = record.getMessage()
            if FACE_RE.search(text) or CARD_ID_RE.search(text):
                out.append(f"log line of {record.name} at {record.levelname} names a card: {text}")
        return out


class _Records(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.INFO)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("sandbox"):
            self.into.append(record)


@pytest.mark.parametrize("variant", ["passive", "aggressive"])
async def test_no_one_ever_sees_a_card_they_were_not_shown(variant: str, fake: FakeDiscord, world: World,
                                                           tmp_path: Path) -> None:
    """Two people clicking at random (jump-ins, powers, calls, peeks) and two bots play whole games.

    The UI conformance driver checks every click's answer, Discord's limits and reachability (both
    rule sets also run in test_ui_conformance.py, the aggressive one as its VARIANTS case); the leak
    watch checks every message version, custom id and log line as above.
    """
    options = {"target": 1, "variant": variant, **FAST}
    root = logging.getLogger()
    watch = LeakWatch(fake, None, [world.alice, world.bob, world.carol])
    handler = _Records(watch.records)
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
            bot.tables.bot_delay_scale = 0.06
            watch.bot = bot
            watch.install()
            for seed in (1, 2):
                driver = TableDriver(fake, bot, world.channel, [world.alice, world.bob], world.carol, "dutch",
                                     options, seed, bots=2)
                await driver.open_and_start()
                run = await driver.play()
                print(run.summary())
                assert run.over and run.states_checked >= 10
                watch.check()
                # the game is over a moment before its table is stored as finished: the next /dutch new waits
                await fake.wait_for(lambda d=driver: d.table.status != "running", timeout=10, what="table finished")
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    assert not watch.problems, "\n".join(dict.fromkeys(watch.problems))
    assert not watch.log_problems(), "\n".join(watch.log_problems())
    assert watch.faces_checked > 50, "faces were shown and checked (the watch is not vacuous)"
    assert watch.records, "log lines were captured"


async def test_the_leak_watch_catches_a_face_down_card_on_the_table(fake: FakeDiscord, world: World, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A table message whose seat showed Alice's face-down cards is caught at once (the watch can fail)."""
    from bot.tables.seats import SeatPanel
    from cogs._dutch_ui import DutchUI

    def leaky(self: DutchUI, table: Any) -> list[SeatPanel]:
        first = table.engine.players[0]
        return [SeatPanel(first, "Alice holds " + " ".join(playing_card(c) for c in table.engine.hands[first] if c))]

    monkeypatch.setattr(DutchUI, "seat_panels", leaky)  # in the seat's Section and in the text
    watch = LeakWatch(fake, None, [world.alice, world.bob, world.carol])
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        watch.bot = bot
        watch.install()
        thread, lobby = await open_dutch(fake, world, **FAST)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        await fake.wait_for(lambda: watch.problems, timeout=5, what="the leak to be caught")
    assert any("bob (u" in p and "never shown to them" in p for p in watch.problems), watch.problems
