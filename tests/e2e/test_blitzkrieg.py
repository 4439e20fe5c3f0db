"""End to end: Blitzkrieg on the production bot through the loopback Discord (issue 13).

Staged battles put chosen cards on top of the live engine's decks before anyone turns a card
(the decks of a two-person table: nobody moves until the test clicks). Seat 0 is alice (the
host), seat 1 bob or the house bot.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import COGS, World, deal_seed, parlor, settled, stored_log

DB_COGS = [*COGS, "cogs.games"]
QUICK = TablesConfig(redraw_interval_ms=100, board_refresh_ms=100)
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card_id: str) -> str:
    """The label of a card id ("10H" → "10♥")."""
    return card_id[:-1] + SUIT[card_id[-1]]


async def open_table(fake: FakeDiscord, world: World, *, friend: bool = False, house: bool = False, **options):
    """/blitzkrieg new by alice; bob joins (*friend*) or alice adds the house bot (*house*); Start."""
    result = await settled(fake, await fake.slash(world.alice, world.channel, "blitzkrieg new", options=options))
    assert result.ephemeral and "is open" in result.text and "fun as well" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    lobby = fake.last_message(thread)
    if friend:
        await fake.click(world.bob, lobby, "Join")
    if house:
        await fake.click(world.alice, lobby, "Add bot")
    await fake.click(world.alice, lobby, "Start")
    return thread, lobby


def stage(table, first: str, second: str) -> None:
    """Put the cards *first* (seat 0) and *second* (seat 1), space-separated ids, on top of the decks."""
    engine = table.engine
    assert engine.turned == [None, None] and engine.pending is None, "stage only between battles"
    cards = {c.id: c for deck in engine.decks for c in deck}
    tops = [[cards[i] for i in first.split()], [cards[i] for i in second.split()]]
    for deck in engine.decks:
        deck[:] = [c for c in deck if c not in tops[0] and c not in tops[1]]
    for seat in (0, 1):
        engine.decks[seat][:0] = tops[seat]
    table.bump()


async def board_of(fake: FakeDiscord, user, lobby):
    """A fresh private board of *user*."""
    result = await fake.click(user, lobby, "Open my board")
    assert result.ephemeral and result.message is not None
    return result.message


async def press(fake: FakeDiscord, user, lobby, label_: str):
    """*user* opens a fresh board and clicks the button labelled *label_* on it; the redrawn board."""
    board = await board_of(fake, user, lobby)
    result = await fake.click(user, board, label_)
    assert not result.failed and result.response_type != 4, result.text  # 4: a refusal
    return fake.message(board.id)


def labels_on(board) -> list[str]:
    return [b.label for b in board.buttons if b.custom_id and not b.disabled]


async def told(fake: FakeDiscord, lobby, *texts: str, timeout: float = 5) -> str:
    """Wait until the table message shows every one of *texts*; its content."""
    await fake.wait_for(lambda: all(t in fake.message(lobby.id).text for t in texts), timeout=timeout,
                        what=f"the table message to tell {texts}")
    return fake.message(lobby.id).text


async def test_a_person_plays_the_house_bot_to_the_end(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Alice alone against the house (Add bot), max_battles 5: Battle! on her board until the war ends;
    the table shows card counts, each battle, the tally, the final standings in cards and Rematch."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, house=True, max_battles=5)
        table = bot.tables.tables[1]
        assert table.settings["pace"] == "click" and [s.bot_name for s in table.seats] == [None, "house"]
        start = await told(fake, lobby, "Press **Open my board**, then **Battle!**")
        assert "0 of 5 battles" in start and "alice**: 27 cards" in start and "Bot 1" in start
        for _ in range(200):
            if table.engine.is_over:
                break
            board = await board_of(fake, world.alice, lobby)
            buttons = labels_on(board)
            if buttons:  # Battle!, or a choice (Cold War, Napoleon, the clock): take the first
                result = await fake.click(world.alice, board, buttons[0])
                assert not result.failed
            else:
                await asyncio.sleep(0.02)  # the house is still to turn its card, or to choose
        engine = table.engine
        assert engine.is_over and engine.battles <= 5
        reason = engine.result().detail["reason"]
        assert reason in ("max-battles", "out-of-cards", "a-bomb")
        final = await told(fake, lobby, "Final standings")
        assert "Rematch" in [b.label for b in fake.message(lobby.id).buttons]
        assert re.search(r"1\. \w.* — \d+ cards", final), final
        assert f"**Battle {engine.battles}**" in final and " ⚔️ " in final
        assert not re.search(r"\bu\d{6,}\b", final), "player ids are shown as names"
        if engine.tally:
            assert "Scenarios seen:" in final
        await fake.wait_for(lambda: table.status == "finished", timeout=5, what="the result stored")
        assert await bot.storage.result(1) is not None
        def endings() -> list[str]:  # the notice goes out through the outbox, a moment after the move
            return [m.text for m in fake.messages(thread) if m.id != lobby.id and m.text.startswith("🏁")]

        ending = await fake.wait_for(endings, timeout=5, what="the war's end notice")
        assert "wins the war" in ending[-1] or "a draw" in ending[-1], ending


async def test_the_battle_is_told_step_by_step_with_a_nested_diplomat(fake: FakeDiscord, world: World,
                                                                      tmp_path: Path) -> None:
    """Classic War with a Diplomat in the first battle for the advantage: the table message tells it a step
    at a time; the nested battle is indented under the Classic War, the treaty under the battle it
    interrupts, and the return and who takes how many cards follow; the tally counts all three scenarios."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.3) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        # alice's 13th card (2♦) is the second of her two cards for the advantage: staged too, or a
        # random deck would now and then turn up the other Diplomat there and tell a second treaty
        stage(table, "7H 3S X1 9C 5D 4H 2C 8S 6H KS QD JH 2D", "7C 9D KD 10H 2H 3C 4S 5S 6S 8C 10C QC")
        await press(fake, world.alice, lobby, "Battle!")
        await told(fake, lobby, "**Battle 1**: alice has turned 7♥ — waiting for bob.")
        await press(fake, world.bob, lobby, "Battle!")
        seen: list[str] = []
        while "takes the 14 cards of battle 1" not in fake.message(lobby.id).text:
            content = fake.message(lobby.id).text
            if not seen or seen[-1] != content:
                seen.append(content)
            assert len(seen) < 100
            await asyncio.sleep(0.03)
        seen.append(fake.message(lobby.id).text)
        partial = [c for c in seen if "**Battle 1**: alice 7♥ ⚔️ 7♣ bob" in c and "takes the 14 cards" not in c]
        assert len(partial) >= 3, "the battle was told in steps, not all at once"
        assert "(as the battle began)" in partial[0]
        full = seen[-1]
        lines = full.splitlines()

        def depth(text: str) -> int:
            line = next(x for x in lines if text in x)
            return len(line) - len(line.lstrip("\u2003"))

        assert "*Same rank: three battles decide the advantage, then two cards against one.*" in full
        assert depth("Classic War! 7♥ against 7♣.") == 0
        assert depth("Battle 1 of 3 for the advantage: 3♠ against 9♦.") == 1
        assert depth("A Diplomat turns up in alice's draw") == 2
        assert depth("Peace: alice hands over 9♣, 5♦, 4♥ and bob hands over K♦, 10♥, 2♥.") == 2
        assert depth("The treaty is settled: back to the battle, alice draws again.") == 2
        assert depth("alice takes the 14 cards of battle 1.") == 0
        assert "Scenarios seen: The Diplomat's peace treaty ×1 · Classic War ×1 · East Germany ×1" in full
        assert "(as the battle began)" not in full  # the counts once the battle is told


async def test_cold_war_hands_are_private_and_the_choice_is_the_red_queens(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Cold War twice: each hand shows on its holder's board only; only alice (the red Queen) gets
    Challenge and Disarm; Disarm gives no winner, Challenge shows both hands and the higher total wins."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.1) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        alice_hand, bob_hand = "9C 8C 7C 6C 5C", "2H 3H 4H 5H 6H"
        stage(table, f"QH {alice_hand}", f"QS {bob_hand}")
        await press(fake, world.alice, lobby, "Battle!")
        bob_board = await press(fake, world.bob, lobby, "Battle!")
        assert table.engine.pending["kind"] == "cold-war"
        alice_board = await board_of(fake, world.alice, lobby)
        assert labels_on(alice_board) == ["Challenge (show both hands)", "Disarm (no winner)"]
        assert "🔒 Your Cold War hand (only you see it): 9♣, 8♣, 7♣, 6♣, 5♣ — total 35" in alice_board.text
        bob_board = await board_of(fake, world.bob, lobby)
        assert labels_on(bob_board) == [] and "2♥, 3♥, 4♥, 5♥, 6♥" in bob_board.text
        await told(fake, lobby, "Cold War! Q♥ against Q♠.", "Waiting for **alice** — Cold War")

        def private_to_its_holder() -> None:
            for user, other_hand in ((world.bob, alice_hand), (world.alice, bob_hand)):
                for msg in fake.messages(thread, visible_to=user) + fake.messages(world.channel, visible_to=user):
                    for card in other_hand.split():
                        assert label(card) not in msg.text, f"{user.name} sees {label(card)}: {msg.text!r}"

        private_to_its_holder()
        await fake.click(world.alice, alice_board, "Disarm (no winner)")
        await told(fake, lobby, "alice disarms: each side takes back its Queen and its hand.")
        private_to_its_holder()
        assert table.engine.pending is None and table.engine.tally == {"cold-war": 1}

        stage(table, "QD KD JD 10D 9D 8D", "QC AS 2S 3S 4S 5S")
        await press(fake, world.bob, lobby, "Battle!")
        await press(fake, world.alice, lobby, "Battle!")
        assert labels_on(await board_of(fake, world.bob, lobby)) == []
        await press(fake, world.alice, lobby, "Challenge (show both hands)")
        await told(fake, lobby, "alice challenges: K♦, J♦, 10♦, 9♦, 8♦ (51) against A♠, 2♠, 3♠, 4♠, 5♠ (15).",
                   "alice wins the Cold War.", "Cold War ×2")


async def test_napoleon_and_the_clock_are_chosen_on_the_board(fake: FakeDiscord, world: World,
                                                             tmp_path: Path) -> None:
    """Napoleon: alice (the number) picks which of her four face-down cards to turn; the clock: she picks
    an hour. Both by buttons on her board only; the engine turns the card she picked."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.1) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        stage(table, "4H 2C 3C 5S 6D", "JH")  # card 4 is the 6♦: not a heart, so the Jack wins
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        board = await board_of(fake, world.alice, lobby)
        assert labels_on(board) == ["Card 1", "Card 2", "Card 3", "Card 4"]
        assert "Pick the face-down card to turn" in board.text
        assert labels_on(await board_of(fake, world.bob, lobby)) == []
        await told(fake, lobby, "Napoleon! 4♥ against J♥.", "Waiting for **alice** — Napoleon")
        await fake.click(world.alice, board, "Card 4")
        last = (await stored_log(bot, table))["actions"][-1]
        assert last == [table.engine.players[0], {"type": "turn", "position": 4}]
        await told(fake, lobby, "bob takes the 6 cards of battle 1.")

        # The clock: alice's 2 against bob's 10; hours 1, 3–9, 11, 12 face down, then her final card (A♠).
        hours = "3H 4H 5H 6H 7H 8H 9H KH QH JH"
        stage(table, f"2S {hours} AS", "10D")
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        board = await board_of(fake, world.alice, lobby)
        assert labels_on(board) == [f"{h} o'clock" for h in (1, 3, 4, 5, 6, 7, 8, 9, 11, 12)]
        assert "Pick the hour to turn" in board.text
        await fake.click(world.alice, board, "7 o'clock")
        assert (await stored_log(bot, table))["actions"][-1][1] == {"type": "turn", "position": 7}
        await told(fake, lobby, "alice turns 7 o'clock: 8♥ against A♠: defended!",
                   "alice takes the 13 cards of battle 2.", "Napoleon ×1 · The clock ×1")


async def test_an_unanswered_choice_times_out_as_the_house_would(fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """Alice lets her Cold War choice run out: the table disarms for her, as the house does on a hand under 36."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.02) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        stage(table, "QH 9C 8C 7C 6C 5C", "QS 2H 3H 4H 5H 6H")
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        assert table.engine.pending["kind"] == "cold-war"
        await fake.wait_for(lambda: table.engine.pending is None, timeout=5, what="the turn timer")
        assert (await stored_log(bot, table))["actions"][-1][1] == {"type": "disarm"}
        await told(fake, lobby, "alice disarms")


async def test_a_restart_mid_game_keeps_every_move(fake: FakeDiscord, world: World, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the table replays its log: every view is as before, and the war goes on.

    The deal is seed 1, whose first six battles need no choice and end nothing: one random deal
    in ten ends the war (or waits on bob's Cold War or Napoleon) within six battles, and then
    alice has no Battle! to press. Staging cards would not do: a restart replays the seed and log.
    """
    deal_seed(monkeypatch, 1)
    db = tmp_path / "p.db"
    async with parlor(fake, db, DB_COGS, tables=QUICK, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        for _ in range(4):
            for user in (world.alice, world.bob):
                board = await board_of(fake, user, lobby)
                if labels_on(board):
                    await fake.click(user, board, labels_on(board)[0])
        await press(fake, world.alice, lobby, "Battle!")  # alice's card of the next battle waits for bob's
        before = {p: table.engine.view(p) for p in [*table.engine.players, None]}
        count = table.engine.action_count
    async with parlor(fake, db, DB_COGS, tables=QUICK, timer_scale=0.05) as again:
        table = again.tables.tables[1]
        assert table.engine.action_count == count > 0
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        await told(fake, lobby, "alice has turned")
        await press(fake, world.bob, lobby, "Battle!")
        assert table.engine.action_count == count + 1


async def test_the_automatic_pace_plays_the_war_by_itself(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """pace auto against the house: nobody clicks, the table turns alice's card once each battle is told."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.02) as bot:
        thread, lobby = await open_table(fake, world, house=True, max_battles=3, pace="auto")
        table = bot.tables.tables[1]
        await fake.wait_for(lambda: table.engine.is_over, timeout=10, what="the war to end by itself")
        alice = table.engine.players[0]
        actions = (await stored_log(bot, table))["actions"]
        assert sum(1 for p, a in actions if p == alice and a == {"type": "battle"}) >= 1
        assert await told(fake, lobby, "automatic pace", "Final standings")


async def test_new_command_options_come_from_the_one_declaration(fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """/blitzkrieg new as synced: max_battles has the engine's range and help; pace offers click and auto;
    /games lists the table and /rules explains it."""
    from bot.engine.options import describe_options
    from bot.games.blitzkrieg import BlitzkriegOptions

    async with parlor(fake, tmp_path / "p.db", DB_COGS):
        (group,) = [c for c in fake.commands() if c["name"] == "blitzkrieg"]
        (new,) = [o for o in group["options"] if o["name"] == "new"]
        synced = {o["name"]: o for o in new["options"]}
        for spec in describe_options(BlitzkriegOptions):
            assert synced[spec.name]["description"] == spec.help[:100]
            assert (synced[spec.name]["min_value"], synced[spec.name]["max_value"]) == (spec.min, spec.max)
        assert [c["value"] for c in synced["pace"]["choices"]] == ["click", "auto"]
        games = await fake.slash(world.alice, world.channel, "games")
        assert "**Blitzkrieg** — 2 players · `/blitzkrieg new`" in games.text
        rules = await fake.slash(world.alice, world.channel, "rules", options={"game": "blitzkrieg"})
        assert "/blitzkrieg new" in rules.text and "Battle!" in rules.text


async def test_a_battles_outcome_stays_readable_after_the_next_battle(fake: FakeDiscord, world: World,
                                                                       tmp_path: Path) -> None:
    """At click pace the next Battle! does not wipe the last outcome (issue #30, item 5): the table keeps
    the earlier battles' outcomes in a line, and the board shows the last battle once it is told."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=QUICK, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, house=True, max_battles=20)
        table = bot.tables.tables[1]
        for _ in range(400):  # Battle! (or a choice) until three battles were fought
            if table.engine.is_over or table.engine.battles >= 3:
                break
            board = await board_of(fake, world.alice, lobby)
            buttons = labels_on(board)
            if buttons:
                assert not (await fake.click(world.alice, board, buttons[0])).failed
            else:
                await asyncio.sleep(0.02)  # the house is still to turn its card, or to choose
        if table.engine.is_over:
            pytest.skip("the war ended within two battles (an A-Bomb): nothing earlier to keep")
        first = table.engine.view(None)["earlier"][0]
        assert first["number"] == 1 and first["outcome"]
        shown = await told(fake, lobby, "Before: Battle")
        assert re.search(r"Before: Battle \d+[^:]*: \S", shown), shown
        await fake.wait_for(lambda: table.engine.view(None)["battle"] is not None
                            and bot.tables.uis["blitzkrieg"].shown_steps(table)
                            > len(table.engine.view(None)["battle"]["lines"]), timeout=10,
                            what="the latest battle told in full")
        board = await board_of(fake, world.alice, lobby)
        assert "Last battle (" in board.text and " ⚔️ " in board.text, board.text
