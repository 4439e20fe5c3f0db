"""Application emojis in the loopback Discord, through discord.py's own API (sandbox/emojis.py)."""

from __future__ import annotations

import base64

import discord
import pytest
from discord.http import Route

from sandbox import emojis as sandbox_emojis

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def _create_raw(bot, body: dict):
    """POST a raw emoji body through the client's HTTP layer (bypassing discord.py's own encoding)."""
    return bot.http.request(Route("POST", "/applications/{app}/emojis", app=bot.application_id), json=body)


async def test_created_emoji_is_listed_with_its_image(fake, world, bot):
    """create_application_emoji stores the name and decoded image; fetch_application_emojis lists it."""
    made = await bot.create_application_emoji(name="p1_std_qh", image=PNG)
    listed = await bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "p1_std_qh")]
    assert listed[0].is_application_owned()
    assert fake.application_emojis[made.id].image == PNG


async def test_deleted_emoji_is_gone(fake, world, bot):
    """Emoji.delete() on an application emoji removes it; a second delete is 404 Unknown Emoji."""
    made = await bot.create_application_emoji(name="gone", image=PNG)
    await made.delete()
    assert await bot.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound):
        await made.delete()


@pytest.mark.parametrize(("name", "says"), [
    ("x", "between 2 and 32"),
    ("a" * 33, "between 2 and 32"),
    ("queen-of-hearts", "validation regex"),
    ("königin", "validation regex"),
])
async def test_bad_name_is_400(fake, world, bot, name, says):
    """A name outside 2-32 characters of [A-Za-z0-9_] is Invalid Form Body on name; nothing is stored."""
    with pytest.raises(discord.HTTPException) as caught:
        await bot.create_application_emoji(name=name, image=PNG)
    assert caught.value.status == 400 and caught.value.code == 50035
    assert "name" in caught.value.text and says in caught.value.text
    assert fake.application_emojis == {}


async def test_name_taken_is_400(fake, world, bot):
    """A second emoji of one name is refused."""
    await bot.create_application_emoji(name="twice", image=PNG)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.create_application_emoji(name="twice", image=PNG)
    assert caught.value.code == 50035 and "already taken" in caught.value.text
    assert len(fake.application_emojis) == 1


async def test_image_over_256_kb_is_400_and_256_kb_is_accepted(fake, world, bot):
    """An image of 256 KB + 1 byte is refused on image; exactly 256 KB is stored."""
    limit = sandbox_emojis.MAX_EMOJI_BYTES
    with pytest.raises(discord.HTTPException) as caught:
        await bot.create_application_emoji(name="big", image=PNG + b"\0" * (limit + 1 - len(PNG)))
    assert caught.value.code == 50035 and "image" in caught.value.text and "256" in caught.value.text
    await bot.create_application_emoji(name="big", image=PNG + b"\0" * (limit - len(PNG)))


async def test_image_that_is_not_a_data_uri_is_400(fake, world, bot):
    """The image must be a base64 data URI of an image type."""
    for image in ("https://example.invalid/x.png", "data:text/plain;base64,aGk=",
                  "data:image/png;base64,###"):
        with pytest.raises(discord.HTTPException) as caught:
            await _create_raw(bot, {"name": "raw", "image": image})
        assert caught.value.code == 50035 and "image" in caught.value.text
    await _create_raw(bot, {"name": "raw", "image": "data:image/png;base64," + base64.b64encode(PNG).decode()})


async def test_two_thousand_emojis_is_the_limit(fake, world, bot, monkeypatch):
    """Past the application's limit (2,000; lowered to 2 here) a new emoji is 400 code 30008."""
    monkeypatch.setattr(sandbox_emojis, "MAX_APPLICATION_EMOJIS", 2)
    await bot.create_application_emoji(name="one", image=PNG)
    await bot.create_application_emoji(name="two", image=PNG)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.create_application_emoji(name="three", image=PNG)
    assert caught.value.status == 400 and caught.value.code == 30008
    assert sorted(e.name for e in fake.application_emojis.values()) == ["one", "two"]


async def test_another_applications_emojis_are_403(fake, world, bot):
    """Listing another application's emojis is 403 Missing Access."""
    with pytest.raises(discord.Forbidden):
        await bot.http.request(Route("GET", "/applications/{app}/emojis", app=bot.application_id + 1))


async def test_planted_emoji_is_listed(fake, world, bot):
    """add_application_emoji stores an emoji the application has from before."""
    planted = fake.add_application_emoji("p0_std_qh")
    assert [(e.id, e.name) for e in await bot.fetch_application_emojis()] == [(planted.id, "p0_std_qh")]
