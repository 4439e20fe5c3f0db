"""`parlor sync` uploads the card emojis: the real command in its own process, against the loopback Discord."""

from __future__ import annotations

from pathlib import Path

from bot.art import ART_VERSION, EMOJI_KEYS, emoji_name, emoji_png
from sandbox import FakeDiscord
from tests.foundation.test_cli import run_parlor_async

ROOT = Path(__file__).resolve().parents[2]
WANTED = {emoji_name(k) for k in EMOJI_KEYS}


async def parlor_sync(fake: FakeDiscord, tmp_path: Path) -> tuple[int, str, str]:
    """Runs `parlor sync --guild ID` pointed at *fake*; returns its exit status, stdout and stderr."""
    guild = next(iter(fake.guilds.values())) if fake.guilds else fake.add_guild("Parlor Test")
    return await run_parlor_async("sync", "--guild", str(guild.id), cwd=tmp_path,
                                  env={"DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
                                       "DISCORD_GATEWAY": fake.gateway_url, "PARLOR_DB": str(tmp_path / "sync.db")})


def names(fake: FakeDiscord) -> list[str]:
    return sorted(e.name for e in fake.application_emojis.values())


async def test_first_sync_uploads_every_card_emoji(fake: FakeDiscord, tmp_path: Path) -> None:
    """A first sync creates one emoji per card picture, with its name and PNG, and says so."""
    status, out, err = await parlor_sync(fake, tmp_path)
    assert status == 0, err
    assert names(fake) == sorted(WANTED)
    by_name = {e.name: e.image for e in fake.application_emojis.values()}
    assert by_name[emoji_name("dutch-blitz:R8")] == emoji_png("dutch-blitz:R8")
    assert f"card emojis (art version {ART_VERSION}): {len(WANTED)} created, 0 kept, 0 deleted" in out


async def test_second_sync_creates_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    """Run again, the sync keeps every emoji and uploads none."""
    assert (await parlor_sync(fake, tmp_path))[0] == 0
    ids = set(fake.application_emojis)
    posts = sum(1 for r in fake.requests if r.method == "POST" and r.path.endswith("/emojis"))
    status, out, err = await parlor_sync(fake, tmp_path)
    assert status == 0, err
    assert set(fake.application_emojis) == ids
    assert sum(1 for r in fake.requests if r.method == "POST" and r.path.endswith("/emojis")) == posts
    assert f"0 created, {len(WANTED)} kept, 0 deleted" in out


async def test_older_art_version_is_deleted_and_the_owners_emojis_stay(fake: FakeDiscord, tmp_path: Path) -> None:
    """Our emojis of another art version go; an emoji not of our scheme is left alone."""
    old = fake.add_application_emoji(f"p{ART_VERSION - 1}_std_qh")
    older = fake.add_application_emoji(f"p{ART_VERSION + 7}_db_back_pump")
    theirs = fake.add_application_emoji("party_parrot")
    kept = fake.add_application_emoji(emoji_name("standard:QH"))
    status, out, err = await parlor_sync(fake, tmp_path)
    assert status == 0, err
    assert old.id not in fake.application_emojis and older.id not in fake.application_emojis
    assert theirs.id in fake.application_emojis and kept.id in fake.application_emojis
    assert names(fake) == sorted(WANTED | {"party_parrot"})
    assert f"{len(WANTED) - 1} created, 1 kept, 2 deleted" in out


async def test_refused_upload_exits_2_with_one_clear_line(fake: FakeDiscord, tmp_path: Path) -> None:
    """A 403 on the upload: exit status 2, one `parlor sync:` line naming the emoji and the refusal, no traceback."""
    fake.fail_route("POST", r"/applications/\d+/emojis", status=403, code=50013, message="Missing Permissions")
    status, out, err = await parlor_sync(fake, tmp_path)
    assert status == 2
    lines = [line for line in err.splitlines() if line.startswith("parlor sync:")]
    assert len(lines) == 1, err
    first = emoji_name(EMOJI_KEYS[0])
    assert f"uploading the emoji {first}" in lines[0] and "403" in lines[0] and "Missing Permissions" in lines[0]
    assert "Traceback" not in err
    assert "synced" in out  # the slash commands were synced before the emojis


async def test_refusal_while_deleting_says_what_was_done(fake: FakeDiscord) -> None:
    """In process: a refused delete raises EmojiSyncRefused naming the old emoji, with nothing created yet."""
    import discord

    from bot.emoji_sync import EmojiSyncRefused, sync_card_emojis
    from sandbox import pointed_at

    stale = fake.add_application_emoji(f"p{ART_VERSION + 1}_std_qh")
    fake.fail_route("DELETE", rf"/applications/\d+/emojis/{stale.id}", status=403, code=50013,
                    message="Missing Permissions")
    with pointed_at(fake):
        client = discord.Client(intents=discord.Intents.none())
        async with client:
            await client.login(fake.token)
            try:
                await sync_card_emojis(client)
            except EmojiSyncRefused as exc:
                refused = exc
            else:
                raise AssertionError("the sync went on past a refused delete")
    assert f"deleting the old emoji p{ART_VERSION + 1}_std_qh" in str(refused) and "403" in str(refused)
    assert (refused.done.created, refused.done.kept, refused.done.deleted) == (0, 0, 0)
    assert "\n" not in str(refused)
    assert [e.name for e in fake.application_emojis.values()] == [stale.name]
