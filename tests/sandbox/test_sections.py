"""The loopback Discord takes a seat's Section as Discord does (issue 29, item 3): a Section holds 1–3
TextDisplays and a Button or Thumbnail accessory (required); a Thumbnail's media is an http(s) or
``attachment://`` URL and its description ≤ 1,024 characters; the section's texts are in the message's
text; the console prints a seat on one line with its picture's description, not its URL.
"""

from __future__ import annotations

from sandbox.__main__ import _layout
from sandbox.limits import validate_message
from sandbox.models import IS_COMPONENTS_V2, FakeMessage, FakeUser

V2 = IS_COMPONENTS_V2
AVATAR = "https://cdn.discordapp.com/embed/avatars/3.png"


def _seat(text: str = "1. **alice** ❤️❤️ — ▶ to play", **accessory: object) -> dict:
    thumb = {"type": 11, "media": {"url": AVATAR}, "description": "alice", **accessory}
    return {"type": 9, "components": [{"type": 10, "content": text}], "accessory": thumb}


def _layout_of(*children: dict) -> dict:
    return {"flags": V2, "components": [{"type": 17, "components": [{"type": 10, "content": "### Blitz"}, *children]}]}


def test_a_seat_section_with_an_avatar_thumbnail_is_accepted() -> None:
    """A Section in a Container: one TextDisplay and a Thumbnail of an https URL described by the name."""
    assert validate_message(_layout_of(_seat(), _seat("2. bob"))) is None


def test_a_section_without_accessory_is_refused() -> None:
    """Discord requires the accessory: a Section of texts alone is refused, nested in a Container too."""
    bare = {"type": 9, "components": [{"type": 10, "content": "1. alice"}]}
    errors = validate_message(_layout_of(bare))
    assert errors is not None and "accessory" in str(errors), errors


def test_a_section_holds_only_one_to_three_texts() -> None:
    """No Section without text, none of four texts, and no Separator inside one."""
    for components in ([], [{"type": 10, "content": "x"}] * 4, [{"type": 14}]):
        seat = {**_seat(), "components": components}
        assert validate_message(_layout_of(seat)) is not None, components


def test_a_thumbnail_needs_a_web_or_attachment_url_and_a_short_description() -> None:
    """Not a URL, a missing media, or a description over 1,024 characters: refused; a Thumbnail alone at
    the top of a layout is refused (it is only an accessory)."""
    assert validate_message(_layout_of(_seat(media={"url": "cdn.discordapp.com/x.png"}))) is not None
    assert validate_message(_layout_of(_seat(media={}))) is not None
    assert validate_message(_layout_of(_seat(description="a" * 1025))) is not None
    assert validate_message(_layout_of(_seat(description="a" * 1024))) is None
    top = {"flags": V2, "components": [{"type": 11, "media": {"url": AVATAR}}]}
    assert validate_message(top) is not None


def test_a_sections_text_is_in_the_message_text_and_its_avatar_in_media() -> None:
    """``FakeMessage.text`` holds each seat's line, in order, and ``media`` each avatar with its name."""
    body = _layout_of(_seat(), _seat("2. bob", description="bob"))
    msg = FakeMessage(id=1, channel_id=2, guild_id=3, author=FakeUser(4, "parlor", bot=True),
                      components=body["components"], flags=V2)
    assert msg.text.splitlines() == ["### Blitz", "1. **alice** ❤️❤️ — ▶ to play", "2. bob"]
    assert msg.media == [(AVATAR, "alice"), (AVATAR, "bob")]


def test_the_console_prints_a_seat_on_one_line_with_its_avatars_name() -> None:
    """A Section with a web picture: its text and ``(🖼 name)``, not the CDN URL."""
    lines = _layout(_layout_of(_seat())["components"])
    seat = next(line for line in lines if "alice" in line)
    assert seat.strip() == "│ 1. **alice** ❤️❤️ — ▶ to play  (🖼 alice)", lines
    assert not any("cdn.discordapp.com" in line for line in lines)
