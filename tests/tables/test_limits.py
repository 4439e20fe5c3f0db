"""Discord's limits fail loudly (LimitError), never silently cut (docs/design.md §5, docs/tables.md)."""

from __future__ import annotations

import discord
import pytest

from bot.tables.components import (
    BotPicker,
    MoveButton,
    MoveSelect,
    PublicButton,
    TableButton,
    board_view,
    lobby_view,
    table_view,
)
from bot.tables.layout import Grouped, Media, render
from bot.tables.ui import Board, BoardButton, BoardOption, BoardSelect, LimitError, check_layout, check_length


def _buttons(n: int, row: int | None = None) -> list[BoardButton]:
    return [BoardButton(f"b{i}", f"t{i}", row=row) for i in range(n)]


def _options(n: int) -> list[BoardOption]:
    return [BoardOption(f"option {i}", f"o{i}") for i in range(n)]


# ------------------------------------------------------------------ described components (bot/tables/ui.py)


def test_a_button_label_over_80_characters_is_refused() -> None:
    """80 characters is a label; 81 raises, naming the limit; an empty label too."""
    assert BoardButton("x" * 80, "t").label == "x" * 80
    with pytest.raises(LimitError, match="button label has 81 characters, more than Discord's 80"):
        BoardButton("x" * 81, "t")
    with pytest.raises(LimitError, match="at least 1"):
        BoardButton("", "t")


def test_a_token_outside_the_pattern_or_over_60_is_refused() -> None:
    """A token goes into a custom id: ≤ 60 characters of A-Za-z0-9:._- only."""
    BoardButton("ok", "k.abcdefghijkl")
    for bad in ("x" * 61, "has space", "", "é"):
        with pytest.raises(LimitError, match="must match"):
            BoardButton("ok", bad)


def test_a_row_outside_0_to_4_is_refused() -> None:
    """A message has action rows 0–4."""
    with pytest.raises(LimitError, match="row 5 does not exist"):
        BoardButton("ok", "t", row=5)
    with pytest.raises(LimitError, match="row -1 does not exist"):
        BoardSelect(_options(2), row=-1)


def test_a_board_holds_25_buttons_and_5_a_row() -> None:
    """25 flowing buttons fit; a 26th, or a sixth on one row, raises."""
    Board("", _buttons(25))
    with pytest.raises(LimitError, match="26 components, more than Discord's 25"):
        Board("", _buttons(26))
    with pytest.raises(LimitError, match="action row 2 would hold 6 > 5"):
        Board("", _buttons(6, row=2))


def test_a_select_menu_takes_a_whole_row() -> None:
    """A menu is 5 wide: nothing else fits on its row, and five menus fill a board."""
    Board("", [BoardSelect(_options(3), row=0), *_buttons(5, row=1)])
    with pytest.raises(LimitError, match="action row 0 would hold 6 > 5"):
        Board("", [BoardSelect(_options(3), row=0), BoardButton("b", "b", row=0)])
    menus = [BoardSelect([BoardOption("o", f"m{i}")]) for i in range(5)]
    with pytest.raises(LimitError, match="no action row has room"):
        Board("", [*menus, BoardButton("b", "b")])


def test_a_select_menu_holds_1_to_25_options_with_texts_of_100() -> None:
    """25 options fit; 26 or none raise; an option label, description or placeholder too long raises."""
    BoardSelect(_options(25))
    with pytest.raises(LimitError, match="1–25 options, got 26"):
        BoardSelect(_options(26))
    with pytest.raises(LimitError, match="got 0"):
        BoardSelect([])
    BoardOption("x" * 100, "t", "d" * 100)
    with pytest.raises(LimitError, match="select option label has 101 characters"):
        BoardOption("x" * 101, "t")
    with pytest.raises(LimitError, match="select option description has 101 characters"):
        BoardOption("x", "t", "d" * 101)
    with pytest.raises(LimitError, match="select placeholder has 151 characters"):
        BoardSelect(_options(2), "p" * 151)
    with pytest.raises(LimitError, match="share a value"):
        BoardSelect([BoardOption("a", "same"), BoardOption("b", "same")])


def test_two_buttons_with_one_token_are_refused() -> None:
    """A custom id must be unique in a message."""
    with pytest.raises(LimitError, match="share a token"):
        Board("", [BoardButton("a", "same"), BoardButton("b", "same")])


def test_check_layout_places_as_discord_py_does() -> None:
    """Explicit rows where asked, the rest in the first row with room."""
    assert check_layout([(1, 1), (None, 5), (None, 1)]) == [1, 0, 1]
    with pytest.raises(LimitError):
        check_length("custom id", "p" * 101, 100)


# ------------------------------------------------------------------ discord.py components (bot/tables/components.py)


async def test_component_labels_over_80_are_refused() -> None:
    """MoveButton, PublicButton and TableButton: an 81-character label raises instead of being cut."""
    long = "y" * 81
    with pytest.raises(LimitError, match="button label"):
        MoveButton(1, 1, "flip", long)
    with pytest.raises(LimitError, match="button label"):
        PublicButton(1, "ready", long)
    with pytest.raises(LimitError, match="button label"):
        TableButton("board", 1, long)
    assert MoveButton(1, 1, "flip", "z" * 80).item.label == "z" * 80


async def test_custom_ids_over_100_are_refused() -> None:
    """A huge table id and version with a 60-character token make a custom id over 100: it raises."""
    token = "t" * 60
    MoveButton(10**9, 1_700_000_000_000, token, "ok")
    with pytest.raises(LimitError, match="custom id has 108 characters, more than Discord's 100"):
        MoveButton(10**19, 1_700_000_000_000, token, "ok")
    with pytest.raises(LimitError, match="custom id"):
        PublicButton(10**40, token, "ok")


async def test_board_view_refuses_more_than_25_and_builds_menus() -> None:
    """board_view: 26 buttons raise; a menu becomes a MoveSelect whose options carry the tokens."""
    with pytest.raises(LimitError, match="26 components"):
        board_view(1, 2, _buttons(25) + [BoardButton("b25", "t25")], text="board")  # Board itself is bypassed
    view = board_view(7, 3, [BoardSelect(_options(25), "Pick…"), *_buttons(5, row=4)], text="board")
    menu = next(c for c in view.walk_children() if isinstance(c, MoveSelect))
    assert menu.item.custom_id == "parlor:msel:7:v3:0" and [o.value for o in menu.item.options] == [
        f"o{i}" for i in range(25)]
    assert menu.item.placeholder == "Pick…"


async def test_move_select_refuses_26_options_and_long_texts() -> None:
    """MoveSelect: 26 options or an option label over 100 raise."""
    with pytest.raises(LimitError, match="at most 25 options, got 26"):
        MoveSelect(1, 1, _options(26))
    with pytest.raises(LimitError, match="select placeholder"):
        MoveSelect(1, 1, _options(2), "p" * 151)


async def test_the_bot_menu_refuses_26_bots_and_long_names() -> None:
    """The lobby's bot menu: 26 bots or a label over 100 raise instead of being cut."""
    with pytest.raises(LimitError, match="at most 25 options"):
        BotPicker(1, [(f"bot{i}", f"Bot {i}", "") for i in range(26)])
    with pytest.raises(LimitError, match="select option label has 101"):
        BotPicker(1, [("hard", "h" * 101, ""), ("easy", "Easy", "")])
    with pytest.raises(LimitError, match="select option description has 101"):
        BotPicker(1, [("hard", "Hard", "d" * 101), ("easy", "Easy", "")])
    lobby_view(1, [("hard", "Hard", "plays well"), ("easy", "Easy", "")], text="lobby")


async def test_table_view_refuses_game_buttons_that_do_not_fit() -> None:
    """The public table: 22 game buttons fit next to the table's three within Discord's 40 V2
    components (rows and texts counted); a layout over 40 raises (no silent [:3] any more).
    """
    view = table_view(1, "Open my board", _buttons(22), text="Table\nseats")
    assert sum(1 for c in view.walk_children() if isinstance(getattr(c, "item", c), discord.ui.Button)) == 25
    assert view.total_children_count <= 40
    spaced = table_view(1, "Open my board", _buttons(22), text="Table\n" + "\n\n".join(["seats"] * 6))
    assert spaced.total_children_count <= 40  # too many to space out: the paragraphs share one text


def _button(i: int) -> discord.ui.Button[discord.ui.LayoutView]:
    return discord.ui.Button(label=f"b{i}", custom_id=f"c{i}")


async def test_a_layout_over_discords_v2_limits_raises() -> None:
    """render: more than 40 components, more than 4,000 characters of text or more than 10 pictures
    raise LimitError; a layout at the limits is built, each group of buttons in rows of its own.
    """
    with pytest.raises(LimitError, match="more than Discord's 40"):
        render("T", [_button(i) for i in range(35)])  # container, header, 7 rows, 35 buttons
    with pytest.raises(LimitError, match="more than Discord's 4000"):
        render("T\n" + "x" * 3998)
    with pytest.raises(LimitError, match="pictures"):
        render("T", media=[Media(f"{i}.png") for i in range(11)])
    view = render("T\nbody", [Grouped(_button(0), "actions"), Grouped(_button(1), "cards"),
                              Grouped(_button(2), "cards")], accent=0x123456, media=[Media("a.png", "alt")])
    (container,) = view.children
    assert isinstance(container, discord.ui.Container) and container.accent_colour == 0x123456
    rows = [[b.label for b in row.children] for row in view.walk_children() if isinstance(row, discord.ui.ActionRow)]
    assert rows == [["b1", "b2"], ["b0"]]  # cards before actions, one row per group
    texts = [t.content for t in view.walk_children() if isinstance(t, discord.ui.TextDisplay)]
    assert texts == ["### T", "body"]
    gallery = next(c for c in view.walk_children() if isinstance(c, discord.ui.MediaGallery))
    assert gallery.items[0].media.url == "attachment://a.png" and gallery.items[0].description == "alt"


async def test_a_select_pick_reaches_on_move_with_its_token() -> None:
    """A pick in a board menu is handed to the table service's on_move exactly as a button click."""
    calls: list[tuple[int, int, str]] = []

    class Service:
        def awaits_replay(self, table_id: int) -> bool:
            return False

        async def on_move(self, interaction: object, table_id: int, version: int, token: str) -> None:
            calls.append((table_id, version, token))

    class Interaction:
        data = {"values": ["k.abcdefghijkl"], "custom_id": "parlor:msel:5:v9:0"}
        created_at = discord.utils.utcnow()  # a click that has just arrived
        client = type("Client", (), {"tables": Service()})()

    menu = MoveSelect(5, 9, _options(2))
    await menu.callback(Interaction())
    assert calls == [(5, 9, "k.abcdefghijkl")]
    assert isinstance(menu.item, discord.ui.Select)


def test_the_last_moves_block_keeps_the_newest_moves_within_its_share_of_a_message() -> None:
    """Two showdowns of eight hands are long lines: the block keeps the newest moves that fit its
    characters (the newest always), so a crowded table message fits Discord's 2,000 as written."""
    from bot.tables.ui import GameUI

    class Moves(GameUI):
        def last_moves(self, table, count):  # type: ignore[no-untyped-def]
            return [f"move {i} " + "x" * 400 for i in range(count)][-count:]

    block = Moves().last_moves_block(None, 6)  # type: ignore[arg-type]
    assert block[0] == "**Last moves**" and block[-1].startswith("· move 5")
    assert sum(len(line) + 1 for line in block[1:]) <= GameUI.LAST_MOVES_CHARS
    assert [line.split()[2] for line in block[1:]] == ["4", "5"], "the newest that fit, in order"

    class Huge(GameUI):
        def last_moves(self, table, count):  # type: ignore[no-untyped-def]
            return ["y" * 1500]

    assert Huge().last_moves_block(None, 6) == ["**Last moves**", "· " + "y" * 1500], "the newest always"
