"""End to end: a Components V2 Section per seat in the lobby and the running table message (issue 29, item 3;
``docs/tables.md``, "Message layouts").

The production bot through the loopback Discord, which validates Sections as Discord does (1–3
TextDisplays and a Button or Thumbnail accessory, ``tests/sandbox/test_components_v2.py``). Each seat
is a Section: its line (name, counts, lives or points, whose-turn mark ``▶``) beside the player's
avatar (a Thumbnail described by the name; the bot user's own avatar for a bot seat). The ▶ moves
when the turn does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.tables.messages import default_avatar_url
from sandbox import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.conftest import COGS, World, parlor, settled

DB_COGS = [*COGS, "cogs.games"]
FAST_DUTCH = {"jump_in_grace_seconds": 0, "peek_seconds": 1, "bot_speed": "fast"}


def sections(msg: FakeMessage) -> list[dict[str, Any]]:
    """The Sections of the message's container, in order: ``{"text", "url", "alt"}`` each."""
    (container,) = msg.components
    out = []
    for c in container["components"]:
        if c["type"] == 9:
            (text,) = c["components"]
            accessory = c["accessory"]
            assert accessory["type"] == 11, accessory  # a Thumbnail
            out.append({"text": text["content"], "url": accessory["media"]["url"],
                        "alt": accessory.get("description")})
    return out


def section_of(fake: FakeDiscord, msg: FakeMessage, name: str) -> dict[str, Any]:
    """The Section of seat *name* on the current version of *msg*."""
    found = [s for s in sections(fake.message(msg.id)) if f"**{name}**" in s["text"] or s["alt"] == name]
    assert len(found) == 1, sections(fake.message(msg.id))
    return found[0]


async def marked(fake: FakeDiscord, msg: FakeMessage, name: str, other: str) -> None:
    """Wait until the table message marks *name*'s seat as having the turn (▶), and not *other*'s."""
    await fake.wait_for(lambda: "▶" in section_of(fake, msg, name)["text"]
                        and "▶" not in section_of(fake, msg, other)["text"], timeout=10,
                        what=f"{name}'s seat marked ▶ on the table message")


async def draw_and_discard(fake: FakeDiscord, table_message: FakeMessage, user: Any, draw: str) -> None:
    """*user*'s whole turn from their hand: the first enabled button whose label starts with *draw*,
    then a Discard; in Dutch, a discarded Jack's, Queen's or King's power is skipped, the turn's last
    step (``docs/rules/dutch.md`` §6)."""
    hand = (await fake.click(user, table_message, "Open my hand")).message
    for prefix in (draw, "Discard", "Skip the power"):
        button = next((b for b in fake.message(hand.id).buttons if b.label.startswith(prefix) and not b.disabled),
                      None)
        if button is None and prefix == "Skip the power":  # no power to use: the turn is over
            return
        assert button is not None, f"no enabled {prefix!r} on {user.name}'s hand"
        assert not (await fake.click(user, hand, button.custom_id)).failed


async def open_table(fake: FakeDiscord, world: World, command: str, **options: Any) -> tuple[Any, FakeMessage]:
    """/<game> new by alice, bob joins; the thread and its lobby message (not started)."""
    result = await settled(fake, await fake.slash(world.alice, world.channel, f"{command} new", options=options))
    assert result.ephemeral and "is open" in result.text, result.text
    thread = fake.threads(world.channel)[-1]
    lobby = fake.last_message(thread)
    await fake.click(world.bob, lobby, "Join")
    return thread, lobby


def avatar(bot: Any, user: FakeUser) -> str:
    """The avatar URL discord.py gives *user* as the loopback sends it (no avatar set: Discord's default one)."""
    return discord.User(state=bot._connection, data=user.to_payload()).display_avatar.url


async def test_the_lobby_shows_a_section_per_seat_with_avatars(fake: FakeDiscord, world: World,
                                                               tmp_path: Path) -> None:
    """Alice (host), Bob and a bot: three Sections under the header, each seat's line beside its avatar;
    the bot seat shows the bot user's own avatar; the seats are not written twice; Leave removes one."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_table(fake, world, "blitz")
        await fake.click(world.alice, lobby, "Add bot")
        seats = sections(fake.message(lobby.id))
        assert [s["text"] for s in seats] == ["1. alice — host", "2. bob", "3. Bot 1 (normal) (bot)"], seats
        assert [s["alt"] for s in seats] == ["alice", "bob", "Bot 1 (normal)"]
        # Not in the bot's cache (no members intent): the default avatar of the snowflake, no request.
        assert bot.get_user(world.alice.id) is None
        assert seats[0]["url"] == avatar(bot, world.alice) == default_avatar_url(world.alice.id)
        assert seats[0]["url"].startswith("https://cdn.discordapp.com/embed/avatars/")
        assert seats[1]["url"] == avatar(bot, world.bob)
        assert seats[2]["url"] == bot.user.display_avatar.url
        text = fake.message(lobby.id).text
        assert text.count("1. alice — host") == 1 and "Seats (3/" in text
        (container,) = fake.message(lobby.id).components
        assert [c["type"] for c in container["components"][:4]] == [10, 9, 9, 9], "the seats come under the header"
        await fake.click(world.bob, lobby, "Leave")
        await fake.wait_for(lambda: len(sections(fake.message(lobby.id))) == 2, timeout=5, what="bob's seat gone")
        assert [s["alt"] for s in sections(fake.message(lobby.id))] == ["alice", "Bot 1 (normal)"]


async def test_blitz_marks_whose_turn_on_the_seat_and_the_mark_moves(fake: FakeDiscord, world: World,
                                                                     tmp_path: Path) -> None:
    """Blitz (31): a Section per seat with lives; ▶ on the player to play; after their draw and
    discard the ▶ is on the other seat."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_table(fake, world, "blitz")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        users = {f"u{u.id}": u for u in (world.alice, world.bob)}
        first = users[table.engine.turn]
        other = world.bob if first is world.alice else world.alice
        await marked(fake, lobby, first.name, other.name)
        seats = sections(fake.message(lobby.id))
        assert len(seats) == 2 and all("❤️" in s["text"] for s in seats), seats
        assert {s["url"] for s in seats} == {avatar(bot, world.alice), avatar(bot, world.bob)}
        await draw_and_discard(fake, lobby, first, "Draw from the stock")
        await marked(fake, lobby, other.name, first.name)


async def test_dutch_marks_whose_turn_on_the_seat_and_the_mark_moves(fake: FakeDiscord, world: World,
                                                                     tmp_path: Path) -> None:
    """Dutch: a Section per seat with the cards face down by position and the count; ▶ on the player
    to draw; after their draw and discard the ▶ is on the other seat. No face is ever in a seat."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_table(fake, world, "dutch", **FAST_DUTCH)
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        for user in (world.alice, world.bob):
            hand = (await fake.click(user, lobby, "Open my hand")).message
            look = next(b for b in hand.buttons if b.label.startswith("Look") and not b.disabled)
            assert not (await fake.click(user, hand, look.custom_id)).failed
        await fake.wait_for(lambda: table.engine.phase == "play", timeout=10, what="the round in play")
        users = {f"u{u.id}": u for u in (world.alice, world.bob)}
        first = users[table.engine.players[table.engine.turn]]
        other = world.bob if first is world.alice else world.alice
        await marked(fake, lobby, first.name, other.name)
        seats = sections(fake.message(lobby.id))
        assert len(seats) == 2 and all("(4 cards)" in s["text"] and "1:" in s["text"] for s in seats), seats
        await draw_and_discard(fake, lobby, first, "Draw")
        await marked(fake, lobby, other.name, first.name)


async def test_blitzkrieg_marks_the_player_the_battle_waits_for(fake: FakeDiscord, world: World,
                                                                tmp_path: Path) -> None:
    """Blitzkrieg: a Section per player with the card count; both turn at once, so nobody is marked
    until Alice has turned her card: then ▶ is on Bob's seat, the one the battle waits for."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_table(fake, world, "blitzkrieg")
        await fake.click(world.alice, lobby, "Start")
        await fake.wait_for(lambda: len(sections(fake.message(lobby.id))) == 2, timeout=5, what="the seats")
        seats = sections(fake.message(lobby.id))
        assert [s["text"] for s in seats] == ["**alice**: 27 cards", "**bob**: 27 cards"], seats
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        assert not (await fake.click(world.alice, board, "Battle!")).failed
        await marked(fake, lobby, "bob", "alice")
        assert section_of(fake, lobby, "bob")["text"] == "▶ **bob**: 27 cards"
        assert bot.tables.tables[1].engine.legal_actions(f"u{world.alice.id}") == []


async def test_dutch_blitz_shows_each_seats_piles_and_nobody_has_the_turn(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Dutch Blitz: a Section per seat with its Blitz count and face-up tops; everybody plays at once,
    so no seat is marked; Alice's Flip changes her own seat's Wood pile."""
    async with parlor(fake, tmp_path / "p.db", DB_COGS) as bot:
        thread, lobby = await open_table(fake, world, "dutch-blitz")
        await fake.click(world.alice, lobby, "Start")
        await fake.wait_for(lambda: len(sections(fake.message(lobby.id))) == 2, timeout=5, what="the seats")
        before = section_of(fake, lobby, "alice")["text"]
        assert before.startswith("• **alice** — Blitz 10") and "Wood" in before, before
        assert all("▶" not in s["text"] for s in sections(fake.message(lobby.id)))
        board = (await fake.click(world.alice, lobby, "Open my board")).message
        flip = next(b for b in board.buttons if b.label.startswith("Flip"))
        assert not (await fake.click(world.alice, board, flip.custom_id)).failed
        await fake.wait_for(lambda: section_of(fake, lobby, "alice")["text"] != before, timeout=5,
                            what="alice's seat redrawn after her flip")
        assert "Wood" in section_of(fake, lobby, "alice")["text"]
        assert bot.tables.tables[1].engine is not None
