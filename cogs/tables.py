"""Shared commands and the persistent table components: /games, /rules, /help, /table board|end|kick|host."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import GAMES, REGISTRY, get_game
from bot.engine.options import describe_options
from bot.tables import TableError
from bot.tables.components import COMPONENTS
from bot.tables.table import TableStatus
from bot.tables.text import fit_text

if TYPE_CHECKING:
    from bot.client import ParlorBot

ENDED = (TableStatus.FINISHED, TableStatus.CANCELLED)
"""The statuses of a game whose log ``/table log`` may show."""


class TablesCog(commands.Cog):
    """Commands that are not about one game: the game list, help, and moderating tables."""

    # Open to every member: hosts end, kick and hand over their own tables and players open their
    # boards; the table service checks who may do what (docs/tables.md, "Who may do what").
    table = app_commands.Group(name="table", description="Your board, and managing game tables", guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the persistent table buttons so they work after a restart."""
        self.bot.add_dynamic_items(*COMPONENTS)

    async def cog_unload(self) -> None:
        """Unregister the persistent table buttons."""
        self.bot.remove_dynamic_items(*COMPONENTS)

    @app_commands.command(name="games")
    async def games(self, interaction: discord.Interaction) -> None:
        """List the games Parlor can host."""
        lines = []
        for kind, game in sorted(GAMES.items()):
            how = (f"`/{kind} new`" if kind in self.bot.tables.uis
                   else f"its Discord table is coming; try it offline with `parlor simulate {kind}`")
            lines.append(f"**{game.title}** — {game.players_text} players · {how}")
        await interaction.response.send_message("\n".join(lines) or "No games are installed.", ephemeral=True)

    @app_commands.command(name="rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[app_commands.Choice(name=g.title, value=k) for k, g in sorted(GAMES.items())])
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """A short summary of a game's rules and its table options."""
        await interaction.response.send_message(rules_text(game.value), ephemeral=True)

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How to play with Parlor."""
        labels = sorted({ui.board_label for ui in self.bot.tables.uis.values()}) or ["Open my board"]
        opener = " (or ".join(f"**{label}**" for label in labels) + ")" * (len(labels) - 1)
        commands_ = ", ".join(f"`/{kind} new`" for kind in sorted(self.bot.tables.uis)) or "none yet"
        await interaction.response.send_message(
            "**Parlor** hosts card games in threads.\n"
            f"• `/games` lists the games; these open a table in a new thread: {commands_}.\n"
            "• Press **Join** to take a seat, **Add bot** (host) to fill one, **Start** (host) to deal.\n"
            f"• Press {opener} on the table for your private board: only you "
            "see it, and it follows the table. `/table board` in the table's thread does the same.\n"
            "• **How to play** on every table explains its game; `/learn` opens a private practice table "
            "against a slow bot that explains each step.\n"
            "• Hosts and moderators: `/table end`, `/table kick`, `/table host` in the table's thread.\n"
            "• The table pings you once when it waits for you and you are away; `/table pings` turns that off.\n"
            "• `/stats`, `/leaderboard`, `/history`; `/table log` tells a finished table move by move.\n"
            "• Tournaments: organizers `/tournament create`; players register with the button on its message; "
            "`/tournament standings` and `/tournament pairings` show where it stands.\n"
            "• Server managers set this server's defaults with `/settings set` (`/settings show` lists them).",
            ephemeral=True,
        )

    @table.command(name="board")
    async def board(self, interaction: discord.Interaction) -> None:
        """Open your private board at this thread's table (only you see it)."""
        await self.bot.tables.open_board(interaction)

    @table.command(name="pings")
    @app_commands.describe(enabled="Whether the tables of this server may ping you (your turn, a warning)")
    async def pings(self, interaction: discord.Interaction, enabled: bool) -> None:
        """Turn the tables' pings on or off for yourself in this server (they still name you)."""
        if interaction.guild_id is None:
            await interaction.response.send_message("Pings are set per server: use this in a server.", ephemeral=True)
            return
        await self.bot.tables.registry.set_pings(interaction.guild_id, interaction.user.id, on=enabled)
        await interaction.response.send_message(
            "The tables here will ping you when they wait for you." if enabled else
            "The tables here will no longer ping you; they still name you when they wait for you.", ephemeral=True)

    @table.command(name="log")
    @app_commands.describe(id="The table number (default: this thread's last finished table)")
    async def log(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """A finished game of this server told move by move, as a text file (what spectators saw)."""
        from bot.ratings.replays import load_game, tell

        if id is None:
            rows = [g for g in await self.bot.storage.games_with_status(*ENDED)
                    if g.thread_id == interaction.channel_id]
            if not rows:
                raise TableError("Give the table number, or use this in the thread of a finished table.")
            id = rows[-1].id
        row = await self.bot.storage.game(id)
        if row is None or row.guild_id != interaction.guild_id or row.status not in ENDED:
            raise TableError(f"There is no finished table #{id} in this server.")
        engines = {**REGISTRY, **{kind: cls for kind, (cls, _) in self.bot.tables.engines.items()}}
        game = await load_game(self.bot.storage, id, engines)
        text = "\n".join(tell(game)) + "\n"
        await interaction.response.send_message(
            f"Table #{id} ({row.kind}), move by move:", ephemeral=True,
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"table-{id}.txt"))

    @table.command(name="end")
    @app_commands.describe(id="The table number shown on its message (default: this thread's table)")
    async def end(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """End a table at once (its host, or moderators)."""
        if id is None:
            here = self.bot.tables.table_in(interaction.channel_id)
            if here is None:
                raise TableError("Give the table number, or use this inside the table's thread.")
            id = here.id
        table = await self.bot.tables.end(interaction, id)
        await interaction.response.send_message(f"Table #{table.id} ({table.title}) was ended by "
                                                f"{interaction.user.mention}.")

    @table.command(name="kick")
    @app_commands.describe(user="The player to remove")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        """Remove a player from this thread's table (host or moderators); a bot takes a running seat."""
        await interaction.response.send_message(await self.bot.tables.kick(interaction, user.id))

    @table.command(name="host")
    @app_commands.describe(user="The seated player who becomes the host")
    async def host(self, interaction: discord.Interaction, user: discord.User) -> None:
        """Hand the host role of this thread's table to another player (host or moderators)."""
        await interaction.response.send_message(await self.bot.tables.hand_host(interaction, user.id))


def rules_text(kind: str) -> str:
    """The /rules answer for *kind*: its declared summary and its options with defaults."""
    game = get_game(kind)
    options = "\n".join(f"• `{s.name}` — {s.help}; {s.allowed} (default {s.default!r})"
                        for s in describe_options(game.engine.Options))
    text = (f"**{game.title}** ({game.players_text} players)\n{game.summary}\n\n"
            f"**Table options**:\n{options or 'none'}")
    return fit_text(text)


async def setup(bot: ParlorBot) -> None:
    """Load the tables cog."""
    await bot.add_cog(TablesCog(bot))
