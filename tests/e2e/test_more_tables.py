"""End to end: table paths that worked but had no test (audit of issues 11, 12 and 13).

Blitzkrieg: the deck switch of 6 against 9 announced on the table; a long battle told within
Discord's 2,000 characters, shortened by the UI itself (the first step, a count of the steps left
out, the latest ones); a war won by an A-Bomb titled so; a Napoleon and a clock choice left to the
turn timer. Dutch: the public table shows the running totals once a round is scored (passive).
Live boards: with Discord's rate limits on, a busy table with three people's boards open gets no 429
on the interaction-token edits, each board is edited at most once per ``board_refresh_ms``, and the
boards still follow the table.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.config import TablesConfig
from sandbox import FakeDiscord
from tests.e2e.conftest import World, deal_seed, parlor, stored_log
from tests.e2e.test_blitzkrieg import DB_COGS as BK_COGS
from tests.e2e.test_blitzkrieg import board_of, labels_on, open_table, press, stage, told
from tests.e2e.test_dutch import DB_COGS as DUTCH_COGS
from tests.e2e.test_dutch import FAST, PLAIN_MOVES, my_hand, open_dutch
from tests.e2e.test_dutch_blitz import DB_COGS as BLITZ_COGS
from tests.e2e.test_dutch_blitz import open_blitz

CALM = TablesConfig(redraw_interval_ms=100, board_refresh_ms=250, turn_timeout_seconds=3600,
                    turn_warning_seconds=0)
"""Quick redraws and no turn timer to speak of: nothing moves unless the test clicks."""


def stage_even(table: Any, first: str, second: str) -> None:
    """:func:`stage` *first* and *second* on top of the decks, then deal the rest 27 and 27 again below them
    (staging alone leaves the decks as uneven as the staged cards were in the random deal)."""
    stage(table, first, second)
    decks = table.engine.decks
    tops = [len(first.split()), len(second.split())]
    rest = decks[0][tops[0]:] + decks[1][tops[1]:]
    half = 27 - tops[0]
    decks[0][tops[0]:], decks[1][tops[1]:] = rest[:half], rest[half:]
    assert [len(d) for d in decks] == [27, 27]
    table.bump()


# ---------------------------------------------------------------------------------------------- Blitzkrieg


async def test_blitzkrieg_announces_the_deck_switch_of_six_against_nine(fake: FakeDiscord, world: World,
                                                                         tmp_path: Path) -> None:
    """6♠ against 9♥: the table names Switching sides and its meaning, the 9 takes the two cards, then
    says the players switch decks, and the card counts shown are the switched ones (alice now holds
    bob's deck with his winnings: 28 against 26)."""
    async with parlor(fake, tmp_path / "p.db", BK_COGS, tables=CALM, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        stage_even(table, "6S", "9H")
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        content = await told(fake, lobby, "🔄 The players switch decks.")
        assert "**Battle 1**: alice 6♠ ⚔️ 9♥ bob" in content
        assert "**Switching sides!" in content and "*The 9 wins, then the players switch decks.*" in content
        assert "bob takes the 2 cards of battle 1." in content
        lines = content.splitlines()
        took = next(i for i, x in enumerate(lines) if "bob takes the 2 cards" in x)
        switched = next(i for i, x in enumerate(lines) if "The players switch decks." in x)
        assert took < switched, "the switch comes once the battle's cards are collected"
        assert "**alice**: 28 cards" in content and "**bob**: 26 cards" in content, content  # a Section each
        assert "Switching sides ×1" in content


async def test_a_long_battle_is_shortened_by_the_ui_within_discords_limit(fake: FakeDiscord, world: World,
                                                                           tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 698's first battle is a Classic War with Crossing the Delaware and Battalion inside, two treaties
    and a switch: about 2,500 characters told in full. The table tells it step by step and, once told,
    keeps the battle's first step, says how many steps it left out and shows the latest ones, the whole
    message within 2,000 characters, never cut by the service's last-resort fitting."""
    deal_seed(monkeypatch, 698)
    async with parlor(fake, tmp_path / "p.db", BK_COGS, tables=CALM, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        battle = table.engine.view(None)["battle"]
        assert battle["number"] == 1 and table.engine.pending is None
        names = {x["scenario"] for x in battle["lines"] if x["type"] == "scenario"}
        assert {"classic-war", "crossing-the-delaware", "battalion"} <= names, names
        seen: list[str] = []

        def fully_told() -> bool:
            content = fake.message(lobby.id).text
            if not seen or seen[-1] != content:
                seen.append(content)
            return re.search(r"takes the \d+ cards of battle 1\.", content) is not None

        await fake.wait_for(fully_told, timeout=15, what="the long battle to be told")
        await asyncio.sleep(0.3)  # a last redraw, should one be on its way
        final = fake.message(lobby.id).text
        assert len(final) <= 2000, len(final)
        assert "lines left out" not in final, "the UI shortens its story; the service's fitting is not needed"
        assert "**Battle 1**: alice " in final and " ⚔️ " in final, "the battle's first step stays"
        assert re.search(r"… \d+ earlier steps …", final), final
        assert "Scenarios seen:" in final, "the tail below the battle stays"
        tellings = [c for c in seen if "**Battle 1**: alice" in c and "cards of battle 1." not in c]
        assert len(tellings) >= 3, "told in steps, not as one wall of text"
        assert all(len(c) <= 2000 and "lines left out" not in c for c in seen)


async def test_a_war_won_by_an_a_bomb_is_titled_so(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A♠ against 5♠, and bob's next card is an Ace: the A-Bomb ends the war at once; the final standings
    say it was won by A-Bomb, alice holds all 54 cards, and the thread gets the 🏁 notice."""
    async with parlor(fake, tmp_path / "p.db", BK_COGS, tables=CALM, timer_scale=0.05) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        stage(table, "AS", "5S AH")
        await press(fake, world.alice, lobby, "Battle!")
        await press(fake, world.bob, lobby, "Battle!")
        final = await told(fake, lobby, "Final standings")
        assert "**Final standings** (won by A-Bomb)" in final, final
        assert "1. alice — 54 cards" in final and "bob — 0 cards" in final, final
        await fake.wait_for(lambda: any(m.text.startswith("🏁") and "by A-Bomb" in m.text
                                        for m in fake.messages(thread)), timeout=5, what="the war's end notice")


async def test_napoleon_and_the_clock_left_unanswered_are_turned_by_the_turn_timer(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Alice turns her cards but never picks: after the warning the turn timer turns a face-down card for
    her (Napoleon), then an hour (the clock); each battle is told to its end, her buttons go, and the
    seat stays hers (one missed choice at a time is no reason to seat a bot)."""
    timed = TablesConfig(redraw_interval_ms=100, board_refresh_ms=250, turn_timeout_seconds=10,
                         turn_warning_seconds=5)
    async with parlor(fake, tmp_path / "p.db", BK_COGS, tables=timed, timer_scale=0.1) as bot:
        thread, lobby = await open_table(fake, world, friend=True)
        table = bot.tables.tables[1]
        alice = table.engine.players[0]
        for number, (mine, theirs, kind, options) in enumerate(
                [("4H 2C 3C 5S 6D", "JH", "napoleon", [1, 2, 3, 4]),
                 ("2S 3H 4H 5H 6H 7H 8H 9H KH QH JH AS", "10D", "clock", [1, 3, 4, 5, 6, 7, 8, 9, 11, 12])],
                start=1):
            stage(table, mine, theirs)
            warnings = sum("⏰" in m.text for m in fake.messages(thread))
            await press(fake, world.alice, lobby, "Battle!")
            await press(fake, world.bob, lobby, "Battle!")
            assert table.engine.pending is not None and table.engine.pending["kind"] == kind
            await told(fake, lobby, f"Waiting for **alice** — {'Napoleon' if kind == 'napoleon' else 'the clock'}")
            assert labels_on(await board_of(fake, world.alice, lobby)), "her choice is on her board"
            content = await told(fake, lobby, f"cards of battle {number}.", timeout=10)
            assert "Waiting for **alice**" not in content
            turned = re.search(r"alice turns (card \d+|\d+ o'clock)", content)
            assert turned, content
            last = (await stored_log(bot, table))["actions"][-1]
            assert last[0] == alice and last[1]["type"] == "turn" and last[1]["position"] in options
            assert str(last[1]["position"]) in turned.group(1), "the table tells the card the timer turned"
            assert sum("⏰" in m.text and f"<@{world.alice.id}>" in m.text
                       for m in fake.messages(thread)) > warnings, "alice was warned first"
            assert labels_on(await board_of(fake, world.alice, lobby)) == ["Battle!"]
            assert table.seats[0].bot_name is None, "still alice's seat"


# ---------------------------------------------------------------------------------------------- Dutch


async def test_the_dutch_table_shows_the_running_totals_after_a_round_is_scored(fake: FakeDiscord, world: World,
                                                                                tmp_path: Path) -> None:
    """Passive Dutch, alice and a bot: once round 1 is scored and round 2 dealt, the public table shows each
    seat's running total, the same totals the round's end notice gave, and the round's scores."""
    async with parlor(fake, tmp_path / "p.db", DUTCH_COGS) as bot:
        thread, lobby = await open_dutch(fake, world, target=500, **FAST)
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        me = table.seat_of_user(world.alice.id).player_id
        for _ in range(3000):
            view = table.engine.view(None)
            if view["round"] >= 2 and view["phase"] == "play":
                break
            if not any(a["type"] not in ("jump_in", "dutch") for a in table.engine.legal_actions(me)):
                await asyncio.sleep(0.02)
                continue
            board = await my_hand(fake, world.alice, lobby)
            buttons = [b for p in PLAIN_MOVES for b in board.buttons if b.label.startswith(p) and not b.disabled]
            if buttons:
                assert not (await fake.click(world.alice, board, buttons[0].custom_id)).failed
        else:
            raise AssertionError("round 2 was never dealt")
        notice = next(m.text for m in fake.messages(thread) if m.text.startswith("**Round 1 is over**"))
        totals = dict(re.findall(r"^• (.+?): .* → total (-?\d+)$", notice, re.M))
        names = [table.display_name(s.player_id) for s in table.seats]
        assert sorted(totals) == sorted(names), notice
        assert any(int(t) != 0 for t in totals.values()), "a scored round moves someone's total"

        def shows_totals() -> bool:
            content = fake.message(lobby.id).text
            return "round 2" in content and all(
                re.search(rf"\*\*{re.escape(n)}\*\*.* · total {totals[n]}$", content, re.M) for n in names)

        await fake.wait_for(shows_totals, timeout=5, what="the table to show the running totals")
        content = fake.message(lobby.id).text
        assert "Round 1 scored: " in content, content


# ---------------------------------------------------------------------------------------------- live boards


async def test_busy_live_boards_meet_no_429_and_are_edited_once_per_refresh_interval(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Dutch Blitz with alice, bob and carol (boards open, flipping now and then) and two fast bots, under
    Discord's rate limits: no interaction-token edit is refused with a 429; each board's refreshes are at
    least ``board_refresh_ms`` apart (the table's many changes combined into one edit); and each board
    still shows the Dutch piles as they are."""
    refresh_ms = 500
    limits = fake.enforce_discord_rate_limits()
    tables = TablesConfig(redraw_interval_ms=200, board_refresh_ms=refresh_ms, idle_seconds=3600,
                          idle_warning_seconds=60)
    people = [world.alice, world.bob, world.carol]
    async with parlor(fake, tmp_path / "p.db", BLITZ_COGS, tables=tables) as bot:
        bot.tables.bot_delay_scale = 0.05
        thread, lobby = await open_blitz(fake, world)
        for user in people[1:]:
            await fake.click(user, lobby, "Join")
        for _ in range(2):
            await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        ui = bot.tables.uis["dutch-blitz"]
        boards: dict[int, Any] = {}
        tokens: dict[str, int] = {}  # interaction token -> the board message it edits
        for user in people:
            result = await fake.click(user, lobby, "Open my board")
            boards[user.id] = result.message
            tokens[result.token] = result.message.id
        versions = table.version
        answers: list[tuple[str, int | None, str]] = []  # (who, response type, token's end) of each flip

        def refreshes(user: Any) -> list[float]:  # when the loopback took each edit of *user*'s board (ms)
            return [r.at_ms for r in fake.requests if r.path.startswith("/webhooks/") and r.method == "PATCH"
                    and r.status == 200 and tokens.get(r.path.split("/")[3]) == boards[user.id].id]

        # At least 12 rounds of 0.3 s: the bots move, the people flip now and then. Then on until every
        # board has been refreshed three times (a board is edited only when its face changed, and the
        # bots may flip for a few seconds before one of them finds a 1), at most 60 rounds.
        for round_ in range(60):
            if round_ >= 12 and all(len(refreshes(u)) >= 3 for u in people):
                break
            await asyncio.sleep(0.3)
            user = people[round_ % 3]
            board = fake.message(boards[user.id].id)
            flips = [b for b in board.buttons if b.label.startswith("Flip") and not b.disabled]
            if flips and table.status == "running":
                result = await fake.click(user, board, flips[0].custom_id)
                assert not result.failed
                answers.append((user.name, result.response_type, result.token[-6:]))
                if result.response_type == 7:  # answered in place: its token now edits the board
                    tokens[result.token] = board.id
        assert table.version - versions >= 20, "a busy table: it changed many times"

        def piles(text: str) -> str:
            return next((x for x in text.splitlines() if x.startswith("Dutch piles:")), "")

        def every_board_follows() -> bool:
            return all(piles(fake.message(boards[u.id].id).text)
                       == piles(ui.board(table, table.seat_of_user(u.id).player_id).text) for u in people)

        bot.tables.bot_delay_scale = 1000  # the bots pause after the move each has under way: the table rests
        await fake.wait_for(every_board_follows, timeout=10, what="every open board to show the table as it is")

    webhooks = [r for r in fake.requests if r.path.startswith("/webhooks/")]
    assert webhooks, "the boards were refreshed through the interaction tokens"
    refused = [r for r in webhooks if r.status == 429]
    assert not refused, f"{len(refused)} interaction-token edits refused with 429"
    assert limits.refused_global == 0
    for user in people:
        mine = refreshes(user)
        assert len(mine) >= 3, (f"{user.name}'s board was refreshed as the table moved; flips {answers}; edits "
                                f"{[(r.method, r.path[-40:], r.status, r.at_ms) for r in webhooks]}")
        gaps = [b - a for a, b in zip(mine, mine[1:], strict=False)]
        assert min(gaps) >= refresh_ms * 0.8, f"{user.name}'s board edited {min(gaps)} ms after the last: {gaps}"
