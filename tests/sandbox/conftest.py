"""Fixtures for the sandbox's own tests: a started FakeDiscord, a small world, and a real test bot.

The bot (``SandboxTestBot``) is a plain discord.py ``commands.Bot`` with an app-command Group,
a persistent view, a ``DynamicItem`` button, a select, a modal and commands that misbehave on
purpose (answer late, never, twice), so each test drives one Discord behaviour end to end.
"""

from __future__ import annotations

import asyncio
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from sandbox import FakeDiscord, World, build_world, running_bot

DEADLINE_S = 0.4
"""The first-response deadline the tests use (Discord's is 3 s; the fake lets a test shorten it)."""


class OpenBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sb:open:(?P<table>\d+):v(?P<ver>\d+)"):
    """A restart-proof button: its custom_id carries the table id and state version."""

    def __init__(self, table: int, ver: int) -> None:
        self.table, self.ver = table, ver
        super().__init__(discord.ui.Button(label="Open my board", custom_id=f"sb:open:{table}:v{ver}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["table"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(RefreshBoardButton(self.table, self.ver))
        await interaction.response.send_message(f"board of table {self.table} v{self.ver}", ephemeral=True, view=view)


class RefreshBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sb:ref:(?P<table>\d+):v(?P<ver>\d+)"):
    """A button on the ephemeral board that redraws it (type 7 on an ephemeral message)."""

    def __init__(self, table: int, ver: int) -> None:
        self.table, self.ver = table, ver
        super().__init__(discord.ui.Button(label="Refresh", custom_id=f"sb:ref:{table}:v{ver}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["table"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(RefreshBoardButton(self.table, self.ver + 1))
        await interaction.response.edit_message(content=f"board of table {self.table} v{self.ver + 1}", view=view)


class FlipLayout(discord.ui.LayoutView):
    """A Components V2 board: a container with a section whose accessory button flips a counter
    (answered with type 7, so the V2 flag rides on an interaction response edit).
    """

    def __init__(self, count: int) -> None:
        super().__init__(timeout=None)
        self.count = count
        flip: discord.ui.Button[FlipLayout] = discord.ui.Button(label="Flip", custom_id=f"sb:flip:{count}")
        flip.callback = self.flip  # type: ignore[method-assign]
        section = discord.ui.Section(discord.ui.TextDisplay(f"flipped {count}"), accessory=flip)
        self.add_item(discord.ui.Container(section, discord.ui.Separator(), accent_colour=0x3366CC))

    async def flip(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=FlipLayout(self.count + 1))


class TableView(discord.ui.View):
    """The persistent lobby view: Join, a colour select, and the dynamic Open-board button."""

    def __init__(self, players: tuple[str, ...] = ()) -> None:
        super().__init__(timeout=None)
        self.players = players
        self.add_item(OpenBoardButton(7, 1))

    @discord.ui.button(label="Join", custom_id="sb:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        players = (*self.players, interaction.user.name)
        await interaction.response.edit_message(content=f"Players: {', '.join(players)}", view=TableView(players))

    @discord.ui.button(label="Deal", custom_id="sb:deal")
    async def deal(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="dealt")

    @discord.ui.select(custom_id="sb:colour", options=[discord.SelectOption(label=c, value=c)
                                                      for c in ("red", "blue", "green")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"Colour: {select.values[0]}")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    """A one-field modal."""

    name = discord.ui.TextInput(label="New name", custom_id="sb:name", max_length=30)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


class SandboxTestBot(commands.Bot):
    """The test bot. ``seen`` collects every interaction; ``received`` every MESSAGE_CREATE."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.seen: list[discord.Interaction] = []
        self.received: list[discord.Message] = []
        self.failures: list[Exception] = []
        group = app_commands.Group(name="dutch-blitz", description="Dutch Blitz tables")

        @group.command(name="new", description="Open a table")
        @app_commands.describe(seats="How many seats", speed="Pace")
        async def new(interaction: discord.Interaction, seats: app_commands.Range[int, 2, 4],
                      speed: str = "normal") -> None:
            await interaction.response.send_message(f"New table: {seats} seats, {speed}", view=TableView())

        admin = app_commands.Group(name="admin", description="Table admin", parent=group)

        @admin.command(name="close", description="Close a table")
        async def close(interaction: discord.Interaction, table: int) -> None:
            await interaction.response.send_message(f"closed {table}", ephemeral=True)

        self.tree.add_command(group)
        self._add_misc_commands()

    def _add_misc_commands(self) -> None:
        tree = self.tree

        @tree.command(name="ping", description="Pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(name="slow", description="Answers after a delay")
        async def slow(interaction: discord.Interaction, delay: float) -> None:
            await asyncio.sleep(delay)
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as exc:
                self.failures.append(exc)

        @tree.command(name="silent", description="Never answers")
        async def silent(interaction: discord.Interaction) -> None:
            return None

        @tree.command(name="twice", description="Answers twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            try:
                await interaction.client.http.request(
                    discord.http.Route("POST", "/interactions/{i}/{t}/callback", i=interaction.id,
                                       t=interaction.token), json={"type": 4, "data": {"content": "two"}})
            except discord.HTTPException as exc:
                self.failures.append(exc)

        @tree.command(name="work", description="Defers, then edits and follows up")
        async def work(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(content="work done")
            await interaction.followup.send("details for you", ephemeral=True)
            await interaction.followup.send("public note")

        @tree.command(name="loudwork", description="Defers publicly, then asks its follow-ups to be private")
        async def loudwork(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("meant for you alone", ephemeral=True)
            await interaction.followup.send("the second is private", ephemeral=True)

        @tree.command(name="quietwork", description="Defers privately, then answers with a follow-up")
        async def quietwork(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("secret result")

        @tree.command(name="table", description="Opens a table thread")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Table lobby")
            message = await interaction.original_response()
            try:
                thread = await message.create_thread(name="table-1")
            except discord.Forbidden:
                await interaction.followup.send("threads are not allowed here; playing in the channel")
                return
            await thread.send("welcome to the table")

        @tree.command(name="long", description="Answers with too much text")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.failures.append(exc)

        @tree.command(name="layout", description="Answers with a Components V2 layout")
        async def layout(interaction: discord.Interaction) -> None:
            view = discord.ui.LayoutView(timeout=None)
            container = discord.ui.Container(discord.ui.TextDisplay("## Table 7"))
            container.add_item(discord.ui.ActionRow(discord.ui.Button(label="Sit", custom_id="sb:sit")))
            view.add_item(container)
            await interaction.response.send_message(view=view)

        @tree.command(name="v2board", description="Answers with an ephemeral Components V2 board")
        async def v2board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(view=FlipLayout(0), ephemeral=True)

        @tree.command(name="v2later", description="Defers, then answers and follows up with V2 layouts")
        async def v2later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(view=FlipLayout(10))
            await interaction.followup.send(view=FlipLayout(20), ephemeral=True)

        @tree.command(name="play", description="Pick a game")
        async def play(interaction: discord.Interaction, kind: str) -> None:
            await interaction.response.send_message(f"playing {kind}")

        @play.autocomplete("kind")
        async def play_kind(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
            kinds = ("dutch-blitz", "blitzkrieg", "dutch", "blitz")
            return [app_commands.Choice(name=k, value=k) for k in kinds if k.startswith(typed)]

        @tree.command(name="pace", description="Pick a pace among fixed choices")
        @app_commands.choices(speed=[app_commands.Choice(name="Normal", value="normal"),
                                     app_commands.Choice(name="Fast", value="fast")])
        async def pace(interaction: discord.Interaction, speed: app_commands.Choice[str]) -> None:
            await interaction.response.send_message(f"pace {speed.value}")

        @tree.command(name="moderate", description="Needs Manage Threads")
        async def moderate(interaction: discord.Interaction) -> None:
            allowed = interaction.permissions.manage_threads
            await interaction.response.send_message("moderating" if allowed else "not allowed", ephemeral=True)

        @tree.command(name="rename", description="Opens a modal")
        async def rename(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(RenameModal())

    async def setup_hook(self) -> None:
        self.add_view(TableView())
        self.add_dynamic_items(OpenBoardButton, RefreshBoardButton)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY; the test bot skips that wait to stay fast."""
        return None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)

    async def on_message(self, message: discord.Message) -> None:
        self.received.append(message)


@pytest.fixture
async def fake():
    """A started FakeDiscord with a short interaction deadline; stopped after the test."""
    async with FakeDiscord(interaction_deadline_s=DEADLINE_S) as server:
        yield server


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    """The standard small world in ``fake``: guild, #games, #quiet (no threads), alice and bob."""
    return build_world(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, world: World):
    """The test bot, logged in to ``fake``, ready, with its commands synced globally."""
    client = SandboxTestBot()
    async with running_bot(fake, client):
        await client.tree.sync()
        yield client
