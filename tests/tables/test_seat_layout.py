"""A Components V2 Section per seat (issue 29, item 3; ``docs/tables.md``, "Message layouts").

``render`` draws each :class:`~bot.tables.seats.SeatPanel` as a Section (its text beside a
Thumbnail of the avatar) under the header, and falls back to the seats as one TextDisplay when the
Sections would take the layout over Discord's 40 components or a seat has no avatar; never an error
for that. Every game UI gives its seats as data, and the text of the message writes the same lines.
"""

from __future__ import annotations

import discord
import pytest

from bot.tables.layout import V2_COMPONENTS_MAX, Grouped, render
from bot.tables.seats import PublicParts, SeatPanel
from cogs._blitz_ui import BlitzUI
from cogs._blitzkrieg_ui import BlitzkriegUI
from cogs._dutch_blitz_ui import DutchBlitzUI
from cogs._dutch_ui import DutchUI
from tests.tables.states import new_engine, player_counts, random_states, table_for

AVATAR = "https://cdn.discordapp.com/embed/avatars/{}.png"


def _seats(n: int, *, avatars: bool = True) -> list[SeatPanel]:
    return [SeatPanel(f"u{i}", f"{i + 1}. **P{i}** ❤️❤️" + (" — ▶ to play" if i == 0 else ""), turn=i == 0,
                      name=f"P{i}", avatar=AVATAR.format(i % 6) if avatars else None) for i in range(n)]


def _button(i: int) -> discord.ui.Button[discord.ui.LayoutView]:
    return discord.ui.Button(label=f"b{i}", custom_id=f"c{i}")


def _children(view: discord.ui.LayoutView) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    (container,) = view.children
    assert isinstance(container, discord.ui.Container)
    return list(container.children)


def test_render_draws_a_section_per_seat_with_its_text_and_avatar() -> None:
    """Header, then one Section per seat (its text, a Thumbnail of its avatar described by its name),
    then a separator and the body; the seat lines are not in the body."""
    seats = _seats(3)
    view = render("Blitz — table #1\nDiscard pile: 7♥", [_button(0)], seats=seats)
    children = _children(view)
    assert isinstance(children[0], discord.ui.TextDisplay) and children[0].content == "### Blitz — table #1"
    found = [c for c in children if isinstance(c, discord.ui.Section)]
    assert children[1:4] == found and len(found) == 3
    for section, seat in zip(found, seats, strict=True):
        (text,) = section.children
        assert isinstance(text, discord.ui.TextDisplay) and text.content == seat.text
        assert isinstance(section.accessory, discord.ui.Thumbnail)
        assert section.accessory.media.url == seat.avatar and section.accessory.description == seat.name
    assert isinstance(children[4], discord.ui.Separator)
    texts = [c.content for c in children if isinstance(c, discord.ui.TextDisplay)]
    assert texts == ["### Blitz — table #1", "Discard pile: 7♥"]
    payload = view.to_components()[0]["components"]
    assert [c["type"] for c in payload[:4]] == [10, 9, 9, 9] and payload[1]["accessory"]["type"] == 11


def test_seats_over_the_component_budget_are_written_as_one_text() -> None:
    """Eight seats as Sections (24 components) beside 24 buttons would be over 40: the seats become
    one TextDisplay of their lines, in order, and the layout is built, within 40 — no LimitError."""
    seats = _seats(8)
    buttons = [Grouped(_button(i), "cards", row=i // 5) for i in range(24)]
    view = render("T\nbody", buttons, seats=seats)
    assert view.total_children_count <= V2_COMPONENTS_MAX
    children = _children(view)
    assert not any(isinstance(c, discord.ui.Section) for c in children)
    assert isinstance(children[1], discord.ui.TextDisplay)
    assert children[1].content == "\n".join(s.text for s in seats)
    fitting = render("T\nbody", buttons[:5], seats=seats)  # room enough: Sections again
    assert sum(isinstance(c, discord.ui.Section) for c in _children(fitting)) == 8
    assert fitting.total_children_count <= V2_COMPONENTS_MAX


def test_seats_without_an_avatar_are_written_as_text() -> None:
    """A Section needs an accessory: seats whose avatar is not known are one TextDisplay."""
    view = render("T\nbody", seats=_seats(2, avatars=False))
    assert not any(isinstance(c, discord.ui.Section) for c in _children(view))
    assert "1. **P0**" in _children(view)[1].content and "2. **P1**" in _children(view)[1].content


UIS = {"blitz": BlitzUI, "blitzkrieg": BlitzkriegUI, "dutch": DutchUI, "dutch-blitz": DutchBlitzUI}


@pytest.mark.parametrize("kind", sorted(UIS))
def test_each_game_gives_its_seats_as_data_and_the_text_writes_the_same_lines(kind: str) -> None:
    """Through random games: the parts' header is the text's first line, every seat's line is in the
    text (one source) and not in the parts' body, a seat per player while the seats are shown, and
    at most one seat has the turn."""
    ui = UIS[kind]()
    for players in player_counts(kind):
        engine = new_engine(kind, players, 3)
        table = table_for(engine, seed=3)
        seen = 0
        for _ in random_states(engine, 3, every=3, limit=150):
            text = ui.public_text(table)
            parts = ui.public_parts(table)
            assert isinstance(parts, PublicParts) and text.split("\n", 1)[0] == parts.header
            assert sum(s.turn for s in parts.seats) <= 1
            for seat in parts.seats:
                assert seat.text in text and seat.text not in parts.body, (seat.text, parts.body)
                assert table.display_name(seat.player) in seat.text
            if parts.seats:
                assert [s.player for s in parts.seats] == list(engine.players)
                seen += 1
        assert seen, f"{kind}: no state with seats"
