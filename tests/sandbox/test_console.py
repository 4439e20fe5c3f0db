"""The standalone sandbox's text prompt (python -m sandbox), driven in-process."""

from __future__ import annotations

from sandbox.__main__ import Console


async def test_console_runs_slash_click_and_show(fake, world, bot, capsys):
    """Typed lines run a slash command, click its button and show the result as text."""
    console = Console(fake, [world.alice, world.bob], world.channel)
    assert await console.run_line("/dutch-blitz new seats=3")
    assert await console.run_line("as bob")
    assert await console.run_line("click Join")
    out = capsys.readouterr().out
    assert "New table: 3 seats, normal" in out and "[Join](" in out
    assert "Players: bob" in out
    assert not await console.run_line("quit")


async def test_console_modal_round_trip(fake, world, bot, capsys):
    """A modal is announced with its inputs and answered with 'modal id=value'."""
    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/rename")
    assert "sb:name" in capsys.readouterr().out
    await console.run_line("modal sb:name=Green")
    assert "renamed to Green" in capsys.readouterr().out


async def test_console_lists_channels_and_threads_and_takes_names_with_spaces(fake, world, bot, capsys):
    """'channels' lists channels and threads; 'channel NAME' takes a thread name with spaces, unquoted."""
    thread = fake.add_channel(world.guild, "Dutch Blitz #1")
    console = Console(fake, [world.alice], world.channel)
    await console.run_line("channels")
    out = capsys.readouterr().out
    assert "#games (channel)  <- you are here" in out and "#Dutch Blitz #1" in out
    await console.run_line("channel Dutch Blitz #1")
    assert console.channel is thread


async def test_console_shows_button_styles(fake, world, bot, capsys):
    """Buttons show their style as a colour, so the board's 'fits a pile' hint is visible."""
    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/dutch-blitz new seats=3")
    out = capsys.readouterr().out
    assert "[Join](" in out and any(f"({c}" in out for c in ("blue", "grey", "green", "red"))


async def test_slash_option_ranges_are_enforced_as_discord_does(fake, world, bot):
    """A value outside an option's min_value..max_value is refused, as Discord's client refuses it."""
    import pytest

    with pytest.raises(ValueError, match="outside 2..4"):
        await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=9)


async def test_slash_option_choices_are_enforced_as_discord_does(fake, world, bot):
    """A value that is not one of an option's choices is refused before it reaches the bot, as Discord's
    client refuses it; one of the choices goes through."""
    import pytest

    assert (await fake.slash(world.alice, world.channel, "pace", speed="fast")).content == "pace fast"
    seen = len(bot.seen)
    with pytest.raises(ValueError, match=r"'turbo' is not one of \['normal', 'fast'\]"):
        await fake.slash(world.alice, world.channel, "pace", speed="turbo")
    assert len(bot.seen) == seen, "the refused command sent no interaction"


async def test_a_forged_slash_command_sends_values_discord_s_client_would_not(fake, world, bot):
    """``forged=True`` sends option values outside their range and choices as given (a modified client):
    the bot receives them and must refuse them itself; unknown option names are still refused."""
    import pytest

    seen = len(bot.seen)
    await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=9, forged=True)
    turbo = await fake.slash(world.alice, world.channel, "pace", speed="turbo", forged=True)
    assert turbo.failed, "the test bot does not refuse it: discord.py finds no such choice and answers nothing"
    sent = [i.data["options"] for i in bot.seen[seen:]]
    assert sent[0][0]["options"] == [{"type": 4, "name": "seats", "value": 9}]
    assert sent[1] == [{"type": 3, "name": "speed", "value": "turbo"}]
    with pytest.raises(ValueError, match="has no options"):
        await fake.slash(world.alice, world.channel, "pace", pace="fast", forged=True)


async def test_console_shows_a_v2_layout_readably(fake, world, bot, capsys):
    """A Components V2 message prints its accent colour, texts, a rule for a separator and its buttons."""
    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/v2board")
    out = capsys.readouterr().out
    assert "┌ #3366cc" in out and "flipped 0" in out and "[Flip](grey)" in out and "─" * 24 in out
    await console.run_line("click Flip")
    assert "flipped 1" in capsys.readouterr().out


async def test_console_takes_options_as_discord_writes_them(fake, world, bot, capsys):
    """``/name opt:value`` as Discord writes it (a value may hold spaces up to the next option); the old
    ``opt=value`` still works; an unknown option is refused by name."""
    import pytest

    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/dutch-blitz new seats:4 speed:fast")
    assert "New table: 4 seats, fast" in capsys.readouterr().out
    await console.run_line("/dutch-blitz new seats=2")
    assert "New table: 2 seats, normal" in capsys.readouterr().out
    with pytest.raises(ValueError, match="'colour:red' is not an option"):
        await console.run_line("/dutch-blitz new colour:red")


async def test_console_prints_edits_as_they_happen(fake, world, bot, capsys):
    """Another member's click edits the table: the console prints the edited message without a command."""
    import asyncio

    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/dutch-blitz new seats=3")
    capsys.readouterr()
    follower = asyncio.create_task(console.follow())
    try:
        await fake.click(world.bob, fake.last_message(world.channel), "Join")
        out = ""

        def printed() -> bool:
            nonlocal out
            out += capsys.readouterr().out
            return "Players: bob" in out

        await fake.wait_for(printed, timeout=5, what="the edit printed")
        assert "(edited)" in out and "alice@#games> " in out
    finally:
        follower.cancel()


def test_console_shows_attachments_by_name(fake, world):
    """A message's attachments are listed by file name and size."""
    from sandbox.__main__ import _render
    from sandbox.models import FakeMessage

    msg = FakeMessage(id=1, channel_id=world.channel.id, guild_id=world.guild.id, author=fake.bot_user,
                      content="the log", attachments=[{"id": "1", "filename": "table-1.json", "size": 42}])
    assert "📎 table-1.json (42 bytes)" in _render(msg)
