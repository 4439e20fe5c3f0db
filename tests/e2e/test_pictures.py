"""End to end: each game's moments send their picture once in the table's thread (issue #29 item 4;
``docs/art.md`` §7), through the loopback Discord with the production bot.

A whole short game (``tests/quick.py``) is played by random clicks (the UI conformance driver); the
thread then holds the moment's picture (a Components V2 message: a Container with a MediaGallery of
the attached PNG, with its alt text, and a caption) and the final standings,
each exactly once, and every card face up in a picture was public when it was drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.art.pictures import MAX_BYTES, PNG_SIGNATURE
from sandbox import FakeDiscord, FakeMessage
from tests.e2e.conftest import World, parlor
from tests.e2e.test_ui_conformance import ACTION_KEYS, BOT_DELAY_SCALE, PRODUCTION_COGS, case_options, fast_tables
from tests.e2e.ui_conformance import TableDriver, action_key

MOMENTS = {"dutch": "dutch-reveal.png", "blitz": "blitz-showdown.png", "blitzkrieg": "blitzkrieg-battle.png",
           "dutch-blitz": "dutch-blitz-hand-end.png"}
"""Each game's moment and the file its picture is sent as."""

GAMES_TO_TRY = 6
"""Short games a test plays at most until its moment happens (a Blitzkrieg war may be won before any
battle is fought as a scenario); a budget in games, not seconds."""


def pictures(fake: FakeDiscord, thread: object, filename: str) -> list[FakeMessage]:
    """The messages of *thread* that carry an attachment named *filename*."""
    return [m for m in fake.messages(thread) if any(a["filename"] == filename for a in m.attachments)]


@pytest.mark.parametrize("kind", sorted(MOMENTS))
async def test_each_moment_sends_its_picture_once_in_the_thread(kind: str, fake: FakeDiscord, world: World,
                                                                 tmp_path: Path) -> None:
    """The game's moment and its final standings each arrive once in the table's thread, as a PNG
    attachment within 150 KB with alt text; only the table's thread gets them."""
    _, options = case_options(kind)
    filename = MOMENTS[kind]
    async with parlor(fake, tmp_path / "parlor.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
        bot.tables.bot_delay_scale = BOT_DELAY_SCALE
        for attempt in range(GAMES_TO_TRY):
            driver = TableDriver(fake, bot, world.channel, [world.alice], None, kind, options, attempt,
                                 key=ACTION_KEYS.get(kind, action_key), reachability=False)
            await driver.open_and_start()
            await driver.play()
            thread = driver.thread
            await fake.wait_for(lambda t=thread: pictures(fake, t, "standings.png"), timeout=30,
                                what="the final standings' picture")
            if pictures(fake, thread, filename):
                break
        else:
            pytest.fail(f"no {filename} in {GAMES_TO_TRY} games")
        sent = pictures(fake, thread, filename)
        standings = pictures(fake, thread, "standings.png")
        assert len(standings) == 1
        moments = {tuple(sorted(a["filename"] for a in m.attachments)) for m in sent}
        assert moments == {(filename,)}
        drawn = [m.files[filename] for m in sent]
        assert len(set(drawn)) == len(drawn), "a moment's picture was sent twice"
        for message in [*sent, *standings]:
            (attachment,) = message.attachments
            data = message.files[attachment["filename"]]
            assert data.startswith(PNG_SIGNATURE) and len(data) <= MAX_BYTES
            assert attachment["description"], "a picture needs its alt text"
            assert not message.ephemeral
            assert message.is_v2 and message.accent is not None
            assert message.media == [(f"attachment://{attachment['filename']}", attachment["description"])]
            assert message.text.strip(), "a picture has its caption beside it"
        assert not pictures(fake, world.channel, "standings.png"), "pictures go to the table's thread only"


@pytest.mark.parametrize("kind", sorted(MOMENTS))
async def test_a_games_picture_cards_are_drawn_when_its_first_table_starts(kind: str, fake: FakeDiscord,
                                                                          world: World, tmp_path: Path) -> None:
    """Starting a table draws the cards of its game's pictures in the background (``TablePictures.prepare``),
    so the first moment's picture only pastes them (≤ 50 ms): the picture cache fills without a moment."""
    from bot.art import deck
    from bot.art import pictures as art_pictures
    from bot.moments import moments_function

    art_pictures._card_rgba.cache_clear()
    deck._drawn.cache_clear()
    sizes = {size for moment in getattr(moments_function(kind), "draws", ())
             for size in art_pictures.CARD_SIZES.get(moment, ())}
    wanted = sum(len(deck.deck_keys(name)) for name, _ in sizes)
    assert wanted > 0
    _, options = case_options(kind)
    async with parlor(fake, tmp_path / "parlor.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
        driver = TableDriver(fake, bot, world.channel, [world.alice], None, kind, options, 0,
                             key=ACTION_KEYS.get(kind, action_key), reachability=False)
        await driver.open_and_start()
        await fake.wait_for(lambda: art_pictures._card_rgba.cache_info().currsize >= wanted, timeout=30,
                            what=f"the {wanted} cards of {kind}'s pictures drawn ahead")
        assert art_pictures.warm(getattr(moments_function(kind), "draws", ())) == 0
