"""End to end: cards shown as the application's emojis (issue 29 items 2 and 5; ``docs/art.md`` §8).

With the card emojis synced in the loopback Discord (as ``parlor sync`` leaves them), every game's
table message and private board show cards as ``<:p1_…:ID>`` with their name beside them, and a
button naming a card carries its emoji and names it in words. Where none are synced, or the
channel denies @everyone Use External Emojis, the cards are today's text. Over whole games, no emoji
on any message a person sees shows a card face that person was never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.art.emojis import EMOJI_KEYS, back_key, card_key, emoji_name
from bot.client import ParlorBot, cog_extensions
from bot.engine import REGISTRY
from bot.tables.cards import blitz_card, playing_card
from bot.tables.table import Table
from sandbox import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.e2e.conftest import World, parlor
from tests.e2e.test_audit_messages import fast_tables
from tests.e2e.ui_conformance import TableDriver, emoji_names
from tests.quick import table_options

PRODUCTION_COGS = cog_extensions()
KINDS = sorted(REGISTRY)


def sync_emojis(fake: FakeDiscord) -> dict[str, str]:
    """Every card emoji of this art version in the loopback application, as a sync leaves them: key to its markup."""
    return {key: f"<:{emoji.name}:{emoji.id}>"
            for key in EMOJI_KEYS for emoji in [fake.add_application_emoji(emoji_name(key))]}


async def start(fake: FakeDiscord, bot: ParlorBot, channel: FakeChannel, people: list[FakeUser],
                kind: str) -> tuple[TableDriver, Table]:
    """A table of *kind* opened in *channel* by the first of *people*, everyone seated, one bot, started."""
    driver = TableDriver(fake, bot, channel, people, None, kind, table_options(kind), 1, reachability=False)
    table = await driver.open_and_start()
    return driver, table


async def table_shows(fake: FakeDiscord, table: Table, text: str | Callable[[], str]) -> FakeMessage:
    """The table message once it shows *text* (the table redraws it after each change); a callable gives
    the text as the game stands at each check (a bot's move may change the card to look for)."""
    wanted = text if callable(text) else (lambda: text)
    await fake.wait_for(lambda: wanted() in fake.message(table.message_id).text, timeout=10,
                        what=f"{wanted()!r} on the table message")
    return fake.message(table.message_id)


async def board_of(fake: FakeDiscord, table: Table, user: FakeUser) -> FakeMessage:
    """*user*'s private board, opened from the table message."""
    public = fake.message(table.message_id)
    opener = next(b.custom_id for b in public.buttons if b.custom_id and b.custom_id.startswith("parlor:board:"))
    result = await fake.click(user, public, opener)
    assert result.message is not None, result.errors
    return result.message


NOTHING = "\x00nothing"
"""What :func:`known_card` answers while the game shows no such card: never on a message."""


def known_card(kind: str, table: Table) -> tuple[str, str]:
    """A card the public table message of a just-started *kind* shows: its key and today's text of it
    (:data:`NOTHING` for both while there is none)."""
    assert table.engine is not None
    view = table.engine.view(None)
    if kind == "dutch-blitz":
        card = view["seats"][0]["posts"][0][-1]
        return card_key(card), blitz_card(card)
    if kind == "blitz":  # the discard pile is empty for a moment after a player takes its only card
        top = view["discard_top"]
        return (card_key(top), playing_card(top)) if top is not None else (NOTHING, NOTHING)
    if kind == "dutch":
        return back_key("standard"), "🂠"
    raise AssertionError(f"no known card for {kind}")


@pytest.mark.parametrize("kind", ["dutch-blitz", "blitz", "dutch"])
async def test_the_table_and_board_show_card_emojis(kind: str, fake: FakeDiscord, world: World,
                                                    tmp_path: Path) -> None:
    """Emojis synced: the table message shows a card the game shows everyone as its emoji (with its name
    beside it), and the player's board shows their cards as emojis too."""
    markup = sync_emojis(fake)
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables()) as bot:
        assert bot.tables.registry.faces.loaded == len(EMOJI_KEYS)
        _, table = await start(fake, bot, world.channel, [world.alice], kind)
        def beside() -> str:  # a face's name is beside its emoji; a back is the emoji alone
            key, text = known_card(kind, table)
            if key == NOTHING:
                return NOTHING
            return markup[key] if key == "standard:back" else f"{markup[key]} {text.split(' ')[-1]}"

        await table_shows(fake, table, beside)
        board = await board_of(fake, table, world.alice)
        assert any(n.startswith("p1_") for n in emoji_names(board)), board.text


async def test_a_dutch_blitz_card_button_has_its_emoji_and_names_the_card(fake: FakeDiscord, world: World,
                                                                         tmp_path: Path) -> None:
    """The board's Blitz pile button carries the top card's emoji, and its label names it in words
    ("Blitz yellow 8"); the table message shows the colour's letter beside the emoji (``R7``)."""
    markup = sync_emojis(fake)
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables()) as bot:
        _, table = await start(fake, bot, world.channel, [world.alice], "dutch-blitz")
        assert table.engine is not None
        player = table.seat_of_user(world.alice.id).player_id  # type: ignore[union-attr]
        me = table.engine.view(player)
        top = me["seats"][me["me"]]["blitz_top"]
        board = await board_of(fake, table, world.alice)
        button = next(b for b in board.buttons if (b.label or "").startswith("Blitz "))
        assert button.emoji == emoji_name(card_key(top))
        assert button.label == f"Blitz {top['colour']} {top['value']}"

        def post() -> str:
            assert table.engine is not None
            card = table.engine.view(None)["seats"][0]["posts"][0][-1]
            return f"{markup[card_key(card)]} {blitz_card(card).split(' ')[1]}"

        await table_shows(fake, table, post)


async def test_a_blitzkrieg_battle_shows_its_two_cards_as_emojis(fake: FakeDiscord, world: World,
                                                                tmp_path: Path) -> None:
    """After the first battle the table message tells it with both cards' emojis (their labels beside)."""
    markup = sync_emojis(fake)
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables()) as bot:
        _, table = await start(fake, bot, world.channel, [world.alice], "blitzkrieg")
        board = await board_of(fake, table, world.alice)
        battle = next(b.custom_id for b in board.buttons if b.label == "Battle!" and b.custom_id)
        await fake.click(world.alice, board, battle)
        assert table.engine is not None
        await fake.wait_for(lambda: table.engine is not None and table.engine.view(None)["battle"] is not None,
                            timeout=10, what="the first battle")
        cards = table.engine.view(None)["battle"]["cards"]
        for label in cards.values():
            if label != "Joker":
                await table_shows(fake, table, f"{markup[card_key(_standard_id(label))]} {label}")


def _standard_id(label: str) -> str:
    """A standard card's id from its label (``Q♥`` → ``QH``)."""
    suits = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    return label[:-1] + suits[label[-1]]


@pytest.mark.parametrize("kind", ["dutch-blitz", "blitz", "dutch"])
async def test_cards_are_text_where_the_channel_denies_external_emojis(kind: str, fake: FakeDiscord, world: World,
                                                                       tmp_path: Path) -> None:
    """Emojis synced, but @everyone may not Use External Emojis in the channel: the table and the board
    show today's text and no emoji; in an allowing channel the same bot uses them."""
    markup = sync_emojis(fake)
    strict = fake.add_channel(world.guild, "no-emojis", allow_external_emojis=False)
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables()) as bot:
        _, table = await start(fake, bot, strict, [world.alice], kind)
        shown = await table_shows(fake, table, lambda: known_card(kind, table)[1])
        assert not emoji_names(shown), shown.text
        board = await board_of(fake, table, world.alice)
        assert not emoji_names(board), board.text
        _, other = await start(fake, bot, world.channel, [world.bob], kind)
        await table_shows(fake, other, lambda: markup.get(known_card(kind, other)[0], NOTHING))


@pytest.mark.parametrize("kind", ["dutch-blitz", "blitz"])
async def test_cards_are_text_until_the_emojis_are_synced_and_loaded(kind: str, fake: FakeDiscord, world: World,
                                                                     tmp_path: Path) -> None:
    """No emoji synced: today's text. After a sync, loading the emojis again (what ``parlor sync`` and a
    start-up do) makes the next redraw show them; an emoji of another art version is never used."""
    old = fake.add_application_emoji("p0_std_qh")
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables()) as bot:
        assert bot.tables.registry.faces.loaded == 0
        _, table = await start(fake, bot, world.channel, [world.alice], kind)
        shown = await table_shows(fake, table, lambda: known_card(kind, table)[1])
        assert not emoji_names(shown) and str(old.id) not in shown.text
        markup = sync_emojis(fake)
        assert await bot.load_card_emojis() == len(EMOJI_KEYS)
        table.bump()  # any change redraws the table message
        await table_shows(fake, table, lambda: markup.get(known_card(kind, table)[0], NOTHING))


@pytest.mark.parametrize("kind", KINDS)
async def test_no_emoji_shows_a_card_its_viewer_may_not_see(kind: str, fake: FakeDiscord, world: World,
                                                           tmp_path: Path) -> None:
    """A whole game with the emojis synced, two people and a spectator: after every step, every card emoji
    on every message each of them can see (text and buttons) shows a face that person has been shown
    (their views, the public view, their private events such as Dutch's look) or a card's back."""
    sync_emojis(fake)
    spectator = fake.add_user("sam", guild=world.guild)
    people = [world.alice, world.bob][:REGISTRY[kind].max_players - 1]
    async with parlor(fake, tmp_path / "p.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
        bot.tables.bot_delay_scale = 0.06
        driver = TableDriver(fake, bot, world.channel, people, spectator, kind, table_options(kind), 3,
                             reachability=False)
        driver.watch_private_events()
        await driver.open_and_start()
        await driver.play()
    assert driver.hidden.emojis_checked > 0, "no card emoji was shown: the check checked nothing"


def test_the_emoji_check_catches_a_face_the_viewer_was_not_shown() -> None:
    """The check the whole-game test relies on flags a hidden card's face and lets its back pass."""
    from tests.e2e.ui_conformance import HiddenCards

    hidden = HiddenCards()
    hidden.shown("p1", {"card": {"id": "QH", "rank": 12, "suit": "H"}})
    assert not hidden.emoji_name_problems("p1", ["p1_std_qh", "p1_std_back", "p1_db_back_pump"], "board")
    problems = hidden.emoji_name_problems("p0", ["p1_std_qh"], "board")
    assert problems and "standard:QH" in problems[0]
    assert hidden.emoji_name_problems("p1", ["p1_std_ks"], "board")
