"""The loopback Discord accepts and validates Components V2 messages as Discord does.

Each rule of Discord's V2 validation is a named test: the IS_COMPONENTS_V2 flag (1 << 15) excludes
``content`` and ``embeds``; 40 components in all, nested ones counted; 4,000 characters of
TextDisplay text; component types by place; rows of <= 5 buttons or 1 select; unique custom ids;
``attachment://`` media naming an uploaded file; the flag cannot be removed by an edit. The REST
tests go through the real discord.py HTTP client against the running fake.
"""

from __future__ import annotations

import discord
import pytest
from discord.http import Route

from sandbox.limits import validate_message
from sandbox.models import IS_COMPONENTS_V2, FakeMessage, FakeUser

V2 = IS_COMPONENTS_V2


def _text(s: str = "x") -> dict:
    return {"type": 10, "content": s}


def _button(cid: str, label: str = "b") -> dict:
    return {"type": 2, "style": 2, "label": label, "custom_id": cid}


def _row(*children: dict) -> dict:
    return {"type": 1, "components": list(children)}


def _container(*children: dict, accent: object = 0x3366CC) -> dict:
    return {"type": 17, "accent_color": accent, "components": list(children)}


def _select(cid: str) -> dict:
    return {"type": 3, "custom_id": cid, "options": [{"label": "a", "value": "a"}]}


def test_v2_flag_refuses_content_and_embeds():
    """With the flag, ``content`` and ``embeds`` must be absent or empty."""
    body = {"flags": V2, "components": [_text()]}
    assert validate_message(body) is None
    assert validate_message({**body, "content": ""}) is None
    assert "content" in validate_message({**body, "content": "hi"})
    assert validate_message({**body, "embeds": [{"title": "t"}]}) is not None


def test_v2_counts_nested_components_up_to_40():
    """40 components in all, counting the container, rows and buttons inside it."""
    rows = [_row(*[_button(f"b{r}-{i}") for i in range(5)]) for r in range(6)]  # 6 rows + 30 buttons
    fits = _container(*rows, _text(), _text(), _text())  # 1 + 36 + 3 = 40
    assert validate_message({"flags": V2, "components": [fits]}) is None
    over = _container(*rows, _text(), _text(), _text(), _text())
    assert validate_message({"flags": V2, "components": [over]}) is not None


def test_v2_text_displays_total_4000_characters():
    """Every TextDisplay's text together stays within 4,000 characters."""
    assert validate_message({"flags": V2, "components": [_container(_text("a" * 2000), _text("b" * 2000))]}) is None
    assert validate_message({"flags": V2, "components": [_container(_text("a" * 2000), _text("b" * 2001))]})


def test_v2_component_types_by_place():
    """Top level: rows, sections, texts, galleries, files, separators, containers; no bare buttons or
    thumbnails; no container in a container; a section holds 1-3 texts and a button or thumbnail accessory.
    """
    assert validate_message({"flags": V2, "components": [_button("a")]}) is not None
    assert validate_message({"flags": V2, "components": [{"type": 11, "media": {"url": "https://x/y.png"}}]})
    assert validate_message({"flags": V2, "components": [_container(_container(_text()))]}) is not None
    section = {"type": 9, "components": [_text()], "accessory": _button("s")}
    assert validate_message({"flags": V2, "components": [_container(section)]}) is None
    thumb = {"type": 9, "components": [_text()], "accessory": {"type": 11, "media": {"url": "https://x/y.png"}}}
    assert validate_message({"flags": V2, "components": [thumb]}) is None
    too_many = {"type": 9, "components": [_text()] * 4, "accessory": _button("s")}
    assert validate_message({"flags": V2, "components": [too_many]}) is not None
    no_accessory = {"type": 9, "components": [_text()]}
    assert validate_message({"flags": V2, "components": [no_accessory]}) is not None
    assert validate_message({"flags": V2, "components": [_row(_text())]}) is not None


def test_v2_separator_and_accent_values():
    """A separator's spacing is 1 or 2; a container's accent colour is an int within 0xFFFFFF."""
    assert validate_message({"flags": V2, "components": [{"type": 14, "divider": True, "spacing": 2}]}) is None
    assert validate_message({"flags": V2, "components": [{"type": 14, "spacing": 3}]}) is not None
    assert validate_message({"flags": V2, "components": [_container(_text(), accent=None)]}) is None
    assert validate_message({"flags": V2, "components": [_container(_text(), accent="#ff0000")]}) is not None
    assert validate_message({"flags": V2, "components": [_container(_text(), accent=0x1000000)]}) is not None


def test_v2_rows_hold_five_buttons_or_one_select():
    """An action row inside a container holds 1-5 buttons, or one select alone."""
    assert validate_message({"flags": V2, "components": [_container(_row(*[_button(f"b{i}") for i in range(5)]))]}) \
        is None
    assert validate_message({"flags": V2, "components": [_container(_row(*[_button(f"b{i}") for i in range(6)]))]})
    assert validate_message({"flags": V2, "components": [_container(_row(_select("s")))]}) is None
    assert validate_message({"flags": V2, "components": [_container(_row(_select("s"), _button("b")))]})


def test_v2_custom_ids_unique_across_nesting():
    """A custom id may appear once in a message, wherever it is nested."""
    section = {"type": 9, "components": [_text()], "accessory": _button("same")}
    assert validate_message({"flags": V2, "components": [_container(section, _row(_button("other")))]}) is None
    assert validate_message({"flags": V2, "components": [_container(section, _row(_button("same")))]}) is not None


def test_v2_media_must_name_an_uploaded_file():
    """A gallery item's ``attachment://name`` must match a file the request uploads; a File (13)
    component takes attachment URLs only.
    """
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://reveal.png"}, "description": "the reveal"}]}
    assert validate_message({"flags": V2, "components": [gallery]}, files={"reveal.png"}) is None
    assert validate_message({"flags": V2, "components": [gallery]}, files={"other.png"}) is not None
    assert validate_message({"flags": V2, "components": [{"type": 12, "items": []}]}, files=set()) is not None
    file = {"type": 13, "file": {"url": "https://example.com/x.txt"}}
    assert validate_message({"flags": V2, "components": [file]}, files=set()) is not None


def test_text_reads_content_or_text_displays():
    """``FakeMessage.text`` is what a person reads: the content, or every TextDisplay joined by newlines."""
    section = {"type": 9, "components": [_text("## Dutch · table 3")], "accessory": _button("go", "Go")}
    msg = FakeMessage(id=1, channel_id=2, guild_id=3, author=FakeUser(4, "bot", bot=True), flags=V2,
                      components=[_container(section, {"type": 14}, _text("Alice 3 cards"), _row(_button("x", "X")))])
    assert msg.text == "## Dutch · table 3\nAlice 3 cards"
    assert [b.label for b in msg.buttons] == ["Go", "X"]
    assert msg.button("Go").custom_id == "go"


async def _bot_channel(bot, world) -> discord.abc.Messageable:
    channel = bot.get_channel(world.channel.id)
    assert channel is not None
    return channel


async def test_v2_create_and_edit_through_rest(fake, world, bot):
    """A LayoutView sent to a channel is stored with the flag; a channel edit with content is refused
    (400, 50035), and an edit removing the flag is refused too.
    """
    channel = await _bot_channel(bot, world)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay("Table 1"), accent_colour=0x22AA55))
    sent = await channel.send(view=view)
    stored = fake.message(sent.id)
    assert stored.flags & V2 and stored.text == "Table 1" and stored.components[0]["accent_color"] == 0x22AA55
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=world.channel.id,
                  message_id=sent.id)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"content": "plain text again"})
    assert refused.value.status == 400 and refused.value.code == 50035
    with pytest.raises(discord.HTTPException) as removed:
        await bot.http.request(route, json={"flags": 0, "components": []})
    assert removed.value.code == 50035 and "flag" in str(removed.value).lower()
    assert fake.message(sent.id).flags & V2


async def test_v1_message_edited_to_v2_must_drop_content(fake, world, bot):
    """Adding the flag to a text message is refused unless the same edit clears its content."""
    channel = await _bot_channel(bot, world)
    sent = await channel.send("old table text")
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=world.channel.id,
                  message_id=sent.id)
    body = {"flags": V2, "components": [_container(_text("new"))]}
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)
    assert refused.value.code == 50035
    await bot.http.request(route, json={**body, "content": ""})
    assert fake.message(sent.id).text == "new" and fake.message(sent.id).flags & V2


async def test_v2_gallery_upload_matches_attachment(fake, world, bot):
    """A MediaGallery pointing at ``attachment://pic.png`` is accepted with that file uploaded, refused without."""
    channel = await _bot_channel(bot, world)

    def gallery_view() -> discord.ui.LayoutView:
        view = discord.ui.LayoutView(timeout=None)
        gallery = discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://pic.png", description="a picture"))
        view.add_item(discord.ui.Container(discord.ui.TextDisplay("pictured"), gallery))
        return view

    sent = await channel.send(view=gallery_view(), file=discord.File(__file__, filename="pic.png"))
    assert fake.message(sent.id).attachments[0]["filename"] == "pic.png"
    assert fake.message(sent.id).media == [("attachment://pic.png", "a picture")]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=gallery_view())
    assert refused.value.code == 50035


async def test_v2_ephemeral_board_button_routes_and_edits_with_flag(fake, world, bot):
    """A button in a section of an ephemeral V2 message reaches the bot; its type-7 answer keeps the flag."""
    board = await fake.slash(world.alice, world.channel, "v2board")
    assert board.message.ephemeral and board.message.flags & V2 and board.message.text == "flipped 0"
    flipped = await fake.click(world.alice, board.message, "Flip")
    assert flipped.response_type == 7 and not flipped.failed
    assert fake.message(board.message.id).text == "flipped 1" and fake.message(board.message.id).flags & V2


async def test_v2_original_response_edit_and_followup(fake, world, bot):
    """A deferred answer edited to a layout through the webhook token, and a V2 follow-up, both carry the flag."""
    result = await fake.slash(world.alice, world.channel, "v2later")
    await fake.wait_for(lambda: result.followups, what="the follow-up")
    original, followup = fake.message(result.message.id), fake.message(result.followups[0].id)
    assert original.flags & V2 and original.text == "flipped 10" and not original.loading
    assert followup.flags & V2 and followup.text == "flipped 20" and followup.ephemeral
    assert fake.errors == []
