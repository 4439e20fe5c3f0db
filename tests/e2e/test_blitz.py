"""End to end: Blitz (31) on the production bot through the loopback Discord (issue 13, first half).

The whole game is staged with prepared decks (``tests/games/blitz/helpers.py``): the engine the
table runs deals them round by round, the heuristic bot is deterministic, and Alice plays through
the buttons of her ephemeral hand, so a knock, a 31, showdowns with lives lost and two eliminations
happen every time.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.config import TablesConfig
from bot.engine.cards import Card
from bot.games.blitz.bots import BOTS
from bot.games.blitz.engine import BlitzEngine
from sandbox import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.conftest import COGS, World, parlor, settled, stored_log
from tests.games.blitz.helpers import dealing_order

DB_COGS = [*COGS, "cogs.games"]

# Round 1 (Alice deals, Bot 1 plays first): Bot 1 holds 28 and knocks at once; Bot 2 draws the 6♦
# and throws the 3♣; Alice's last turn draws the 10♠ from the stock: A♠ K♠ 10♠ is 31.
ROUND_1 = dealing_order(["KC QC 8C", "2D 3C 4H", "AS KS 2H"], discard="2S", stock_top=["6D", "10S"])
# Round 2 (Bot 1 deals, Bot 2 first): Bot 2 knocks on 28; Alice takes the 5♥ (25); Bot 1 stays at
# 7, the lowest hand alone: its last life goes and it is out.
ROUND_2 = dealing_order(["KD QD 8D", "AH 9H 3S", "2C 3D 4S"], discard="5H", stock_top=["6C"])
# Round 3 (Bot 2 deals, Alice first): Alice knocks on 30; Bot 2 cannot catch up and is out.
ROUND_3 = dealing_order(["AH KH 9H", "2C 3D 4S"], discard="5C", stock_top=["6D"])


def dealt_by_round(*decks: list[Card]) -> type[BlitzEngine]:
    """A Blitz engine that deals *decks* in rounds 1, 2, … (then shuffled decks).

    By round number, not from a queue: the table rebuilds games from their log (a bot's memory
    after it takes a seat, a restart), and every rebuild must deal the same cards.
    """

    class Dealt(BlitzEngine):
        def _fresh_deck(self) -> list[Card]:
            if self.round <= len(decks):
                return list(decks[self.round - 1])
            return super()._fresh_deck()

    return Dealt


async def open_blitz(fake: FakeDiscord, world: World, **options: object) -> tuple[object, FakeMessage]:
    result = await settled(fake, await fake.slash(world.alice, world.channel, "blitz new", options=options))
    assert result.ephemeral and "is open" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    return thread, fake.last_message(thread)


def labels(message: FakeMessage, *, enabled: bool = True) -> list[str]:
    return [b.label for b in message.buttons if not enabled or not b.disabled]


def seen_by(fake: FakeDiscord, thread: object, user: FakeUser) -> str:
    """Every message *user* can see in the thread, as one text."""
    return "\n".join(m.text or "" for m in fake.messages(thread, visible_to=user))  # type: ignore[arg-type]


async def my_turn(fake: FakeDiscord, table: object, player: str) -> None:
    await fake.wait_for(lambda: table.engine.turn == player and table.engine.phase == "draw",  # type: ignore[attr-defined]
                        timeout=5, what=f"{player}'s turn")


async def test_a_person_and_two_bots_play_to_the_end(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A knock, a 31 in the last turns (the knocker loses too), two showdowns that put a bot out, the
    deal rotating, Alice's own knock winning the game; final standings and Rematch. Alice's cards are
    only ever on her own ephemeral hand until a showdown or a 31 shows them."""
    spectator = world.carol
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        dealt = dealt_by_round(ROUND_1, ROUND_2, ROUND_3)
        bot.tables.register_ui(bot.tables.uis["blitz"], engine=dealt, bots=dict(BOTS))
        thread, lobby = await open_blitz(fake, world, lives=2, bot_speed="fast")
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice = f"u{world.alice.id}"
        bot1, bot2 = (table.display_name(p) for p in ("bot1", "bot2"))

        # ---- round 1: Bot 1 knocks at once, Bot 2 plays its last turn, then Alice's last turn
        await my_turn(fake, table, alice)
        await fake.wait_for(lambda: "Bot 2" in fake.message(lobby.id).text.split("**Last moves**")[-1]
                            and "3♣" in fake.message(lobby.id).text, timeout=5, what="the table after Bot 2")
        public = fake.message(lobby.id).text
        assert "round 1 · alice deals" in public and "Discard pile: **3♣** · stock: 41 cards" in public
        assert re.search(r"1\. \*\*alice\*\* ❤️❤️ — ▶ to play · ⏳ last turn to come", public), public
        assert f"{bot1} ❤️❤️ — 🔔 knocked" in public
        assert f"{bot1} knocks: everyone else has one more turn." in public
        assert f"{bot2} draws from the stock." in public and f"{bot2} discards the 3♣." in public
        hand = (await fake.click(world.alice, lobby, "Open my hand")).message
        assert hand.ephemeral and hand.visible_to == world.alice.id
        assert "A♠ K♠ 2♥ — worth **21**" in hand.text
        assert f"🔔 {bot1} knocked: your last turn." in hand.text
        assert labels(hand) == ["Draw from the stock", "Take the 3♣ (discard pile)"]  # no Knock after a knock
        assert "K♣" not in hand.text and "2♦" not in hand.text  # the bots' hands stay theirs
        for card in ("A♠", "K♠", "2♥"):
            assert card not in seen_by(fake, thread, spectator), f"{card} of Alice's hand is public"
        assert all("♠" not in (b.custom_id or "") and "AS" not in (b.custom_id or "") for b in hand.buttons)

        await fake.click(world.alice, hand, "Draw from the stock")
        hand = fake.message(hand.id)
        assert "A♠ K♠ 2♥ + **10♠** (drawn from the stock)" in hand.text
        assert "the best you can keep is **31** (discard the 2♥)" in hand.text
        assert labels(hand) == ["Discard A♠ (keep 20)", "Discard K♠ (keep 21)", "Discard 2♥ (keep 31)",
                                "Discard 10♠ (keep 21)"]
        assert "10♠" not in seen_by(fake, thread, spectator), "a card drawn from the stock is Alice's alone"
        await fake.click(world.alice, hand, "Discard 2♥ (keep 31)")
        notice = await fake.wait_for(lambda: next((m for m in fake.messages(thread) if "🎯 **31!**" in (m.text or "")),
                                                  None), timeout=5, what="the 31 notice")
        assert f"🎯 **31!** alice holds 31: {bot1} and {bot2} each lose 1 life." in notice.text
        assert "• alice: A♠ K♠ 10♠ — **31**" in notice.text and f"• {bot1}: K♣ Q♣ 8♣ — **28**" in notice.text
        assert table.engine.lives == {alice: 2, "bot1": 1, "bot2": 1}

        # ---- round 2: the deal passes to Bot 1; Bot 2 knocks; Alice takes the discard; Bot 1 goes out
        await my_turn(fake, table, alice)
        await fake.wait_for(lambda: "round 2 · " + bot1 + " deals" in fake.message(lobby.id).text, timeout=5,
                            what="round 2 on the table")
        hand = (await fake.click(world.alice, lobby, "Open my hand")).message
        assert "A♥ 9♥ 3♠ — worth **20**" in hand.text and "round 2 · ❤️❤️" in hand.text
        assert labels(hand) == ["Draw from the stock", "Take the 5♥ (discard pile)"]
        await fake.click(world.alice, hand, "Take the 5♥ (discard pile)")
        hand = fake.message(hand.id)
        assert "+ **5♥** (drawn from the discard pile — keep it this turn)" in hand.text
        assert labels(hand) == ["Discard A♥ (keep 14)", "Discard 9♥ (keep 16)", "Discard 3♠ (keep 25)"]
        await fake.click(world.alice, hand, "Discard 3♠ (keep 25)")
        showdown = await fake.wait_for(lambda: next((m for m in fake.messages(thread)
                                                     if "Showdown" in (m.text or "")), None),
                                       timeout=5, what="the showdown notice")
        assert f"🃏 **Showdown** after {bot2}'s knock: {bot1} has the lowest hand (7) and loses 1 life." \
            in showdown.text
        assert "• alice: A♥ 9♥ 5♥ — **25**" in showdown.text
        await fake.wait_for(lambda: any(f"💀 {bot1} is out (no lives left)." in (m.text or "")
                                        for m in fake.messages(thread)), timeout=5, what="Bot 1 going out")
        await fake.wait_for(lambda: f"~~{bot1}~~ — 💀 out" in fake.message(lobby.id).text, timeout=5,
                            what="Bot 1 out on the table")

        # ---- round 3: Bot 1 is skipped; Alice plays first and knocks on 30; Bot 2 goes out; Alice wins
        await my_turn(fake, table, alice)
        hand = (await fake.click(world.alice, lobby, "Open my hand")).message
        assert "A♥ K♥ 9♥ — worth **30**" in hand.text
        assert labels(hand) == ["Draw from the stock", "Take the 5♣ (discard pile)", "Knock"]  # piles, then actions
        await fake.click(world.alice, hand, "Knock")
        await fake.wait_for(lambda: table.engine.is_over, timeout=5, what="the end of the game")
        await fake.wait_for(lambda: "Final standings" in fake.message(lobby.id).text, timeout=5,
                            what="the final standings")
        final = fake.message(lobby.id)
        assert "1. alice — ❤️❤️ left" in final.text
        assert f"2. {bot2} — out" in final.text and f"3. {bot1} — out" in final.text
        assert labels(final) == ["Rematch"]
        assert any(f"{bot2} has the lowest hand (7) and loses 1 life." in (m.text or "")
                   for m in fake.messages(thread))
        assert any("🏆 Game over: alice wins!" in (m.text or "") for m in fake.messages(thread))
        assert (await bot.storage.result(1)) is not None
        kinds = [a["type"] for _, a in (await stored_log(bot, table))["actions"] if _ == alice]
        assert kinds == ["draw", "discard", "draw", "discard", "knock"]

        rematch = await fake.click(world.alice, final, "Rematch")
        assert not rematch.failed and bot.tables.tables[2].status == "lobby", "a lobby gathers the rematch"
        await fake.click(world.alice, rematch.message, "Start")
        await fake.wait_for(lambda: bot.tables.tables[2].status == "running", timeout=5, what="the rematch")


async def test_restart_mid_game_keeps_every_move(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """After a restart the table replays its log: every view is as before, and a hand opened before
    the restart still plays its buttons."""
    db = tmp_path / "p.db"
    alice = f"u{world.alice.id}"
    async with parlor(fake, db, DB_COGS) as bot:
        thread, lobby = await open_blitz(fake, world, bot_speed="fast")
        await fake.click(world.alice, lobby, "Add bot")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for _ in range(3):
            await my_turn(fake, table, alice)
            hand = (await fake.click(world.alice, lobby, "Open my hand")).message
            await fake.click(world.alice, hand, "Draw from the stock")
            discard = next(b for b in fake.message(hand.id).buttons if b.label.startswith("Discard"))
            await fake.click(world.alice, hand, discard.custom_id)
        await my_turn(fake, table, alice)
        hand = (await fake.click(world.alice, lobby, "Open my hand")).message
        before = {p: table.engine.view(p) for p in [*table.engine.players, None]}
        count = table.engine.action_count
        assert count >= 6
    async with parlor(fake, db, DB_COGS) as again:
        table = again.tables.tables[1]
        assert table.engine.action_count == count
        assert {p: table.engine.view(p) for p in [*table.engine.players, None]} == before
        await fake.wait_for(lambda: "Restored" in fake.message(table.message_id).text, timeout=5,
                            what="the restored table")
        result = await fake.click(world.alice, hand, "Draw from the stock")  # the hand from before the restart
        assert not result.failed
        assert table.engine.action_count == count + 1
        assert "(drawn from the stock)" in fake.message(hand.id).text


async def test_turn_timer_plays_the_whole_turn_then_a_bot_takes_the_seat(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Bob, first to play, lets his timer run out: the table plays his whole turn at once, a draw from
    the stock and that card discarded (``docs/rules/blitz.md`` §11), and his seat stays his. Alice
    plays; Bob misses his second turn too, and after two missed turns a bot takes his seat."""
    tables = TablesConfig(redraw_interval_ms=200, turn_timeout_seconds=20, turn_warning_seconds=5)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables, timer_scale=0.1) as bot:
        thread, lobby = await open_blitz(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        bob, alice = f"u{world.bob.id}", f"u{world.alice.id}"
        assert table.engine.turn == bob
        await fake.wait_for(lambda: table.engine.action_count >= 2, timeout=5, what="Bob's timeout")
        log = await stored_log(bot, table)
        after_draw = BlitzEngine.replay({**log, "actions": log["actions"][:1]})
        drawn = after_draw.hands[bob][-1]
        assert log["actions"] == [[bob, {"type": "draw", "source": "stock"}],
                                  [bob, {"type": "discard", "card": drawn}]], "one timeout, the whole turn"
        assert table.engine.turn == alice and not table.seat_of_player(bob).is_bot, "one missed turn: still Bob's"
        assert table.timeouts[bob] == 1
        hand = (await fake.click(world.alice, lobby, "Open my hand")).message
        await fake.click(world.alice, hand, "Draw from the stock")
        hand = fake.message(hand.id)
        await fake.click(world.alice, hand, next(b.custom_id for b in hand.buttons if b.label.startswith("Discard")))
        await fake.wait_for(lambda: table.seat_of_player(bob).is_bot, timeout=5, what="a bot in Bob's seat")
        moves = (await stored_log(bot, table))["actions"]
        assert [(p, a["type"]) for p, a in moves[:6]] == [(bob, "draw"), (bob, "discard"), (alice, "draw"),
                                                          (alice, "discard"), (bob, "draw"), (bob, "discard")]
        await fake.wait_for(lambda: any("A bot took over bob's seat (timed out too often)" in (m.text or "")
                                        for m in fake.messages(thread)), timeout=5, what="the notice")
        assert any("⏰" in (m.text or "") and f"<@{world.bob.id}>" in (m.text or "")
                   for m in fake.messages(thread)), "Bob was warned before his turn ran out"


async def test_new_command_options_come_from_the_one_declaration(fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """/blitz new as synced: lives' range, the three-of-a-kind choices and the pickup rule are the
    engine's declarations; 30.5 and the pickup rule off reach the table; How to play explains the hand."""
    from bot.engine.options import describe_options
    from bot.games.blitz.engine import BlitzOptions

    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        (group,) = [c for c in fake.commands() if c["name"] == "blitz"]
        (new,) = [o for o in group["options"] if o["name"] == "new"]
        synced = {o["name"]: o for o in new["options"]}
        assert set(synced) == {"lives", "three_of_a_kind", "keep_discard_pickup", "bot_speed"}
        for spec in describe_options(BlitzOptions):
            assert synced[spec.name]["description"] == spec.help[:100]
        assert (synced["lives"]["min_value"], synced["lives"]["max_value"]) == (1, 10)
        assert [c["value"] for c in synced["three_of_a_kind"]["choices"]] == [30.0, 30.5]
        thread, lobby = await open_blitz(fake, world, lives=3, three_of_a_kind=30.5, keep_discard_pickup=False)
        table = bot.tables.tables[1]
        assert table.options == {"lives": 3, "three_of_a_kind": 30.5, "keep_discard_pickup": False}
        assert table.settings["bot_speed"] == "relaxed"
        how = await fake.click(world.carol, lobby, "How to play")
        assert how.ephemeral and "Open my hand" in how.text and "Knock" in how.text
        menu = next(s for s in lobby.selects if s.custom_id.startswith("parlor:botpick:"))
        assert [v for _, v in menu.options] == ["easy", "normal", "hard"]
        await fake.select(world.alice, lobby, menu.custom_id, ["easy"])
        await fake.click(world.alice, lobby, "Start")
        assert table.engine.options.three_of_a_kind == 30.5 and table.engine.options.lives == 3
        waiting = (await fake.click(world.alice, lobby, "Open my hand")).message
        lives = table.engine.lives[f"u{world.alice.id}"]  # 3, or 2 when a 31 was dealt (rules §6)
        assert "— worth **" in waiting.text and "❤️" * lives in waiting.text and lives >= 2
        refused = await fake.click(world.carol, lobby, "Open my hand")
        assert refused.ephemeral and "not playing" in refused.text


async def test_a_turn_finds_the_person_it_waits_for_once_unless_they_turned_pings_off(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Bob is away (no move for longer than the table's few seconds) when his turn starts: he is
    mentioned once, pinging him alone (issue #30, item 2). After `/table pings enabled:false` his next
    turn sends him nothing. (Times are scaled by 0.01: 0.2 s away is 20 s away.)"""
    tables = TablesConfig(turn_timeout_seconds=3600, turn_warning_seconds=0)
    async with parlor(fake, tmp_path / "p.db", DB_COGS, tables=tables, timer_scale=0.01) as bot:
        thread, lobby = await open_blitz(fake, world, lives=3)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice, bob = f"u{world.alice.id}", f"u{world.bob.id}"

        def turn_lines() -> list:
            return [m for m in fake.messages(thread) if f"<@{world.bob.id}> ▶" in (m.text or "")]

        async def play_turn(user: object, player: str) -> None:
            await my_turn(fake, table, player)
            hand = (await fake.click(user, lobby, "Open my hand")).message
            await fake.click(user, hand, "Draw from the stock")
            hand = fake.message(hand.id)
            await fake.click(user, hand, next(b.custom_id for b in hand.buttons if b.label.startswith("Discard")))

        if table.engine.turn == bob:
            await play_turn(world.bob, bob)
        await asyncio.sleep(0.2)  # Bob steps away (20 s at this scale)
        await play_turn(world.alice, alice)  # Bob's turn starts, and he is away
        await fake.wait_for(turn_lines, timeout=5, what="Bob's turn to find him")
        (line,) = turn_lines()
        assert line.pings == {f"user:{world.bob.id}"}, line.pings
        assert "the table waits for you" in line.text
        answer = await fake.slash(world.bob, thread, "table pings", options={"enabled": False})
        assert answer.ephemeral and "no longer ping you" in answer.text
        await play_turn(world.bob, bob)
        await asyncio.sleep(0.2)
        await play_turn(world.alice, alice)  # Bob's turn again, away again: nothing for him now
        await my_turn(fake, table, bob)
        assert len(turn_lines()) == 1, "no second mention once he turned pings off"
