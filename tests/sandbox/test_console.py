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
    assert "New table: 3 seats, normal" in out and "[Join]" in out
    assert "Players: bob" in out
    assert not await console.run_line("quit")


async def test_console_modal_round_trip(fake, world, bot, capsys):
    """A modal is announced with its inputs and answered with 'modal id=value'."""
    console = Console(fake, [world.alice], world.channel)
    await console.run_line("/rename")
    assert "sb:name" in capsys.readouterr().out
    await console.run_line("modal sb:name=Green")
    assert "renamed to Green" in capsys.readouterr().out
