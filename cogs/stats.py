"""Ratings, statistics, leaderboards and history: ``/stats``, ``/leaderboard``, ``/history``, ``/ratings``.

The numbers come from :mod:`bot.ratings` (``docs/ratings.md``); this cog only asks and renders.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import REGISTRY
from bot.ratings.service import RatingService, registry_bot_orders

if TYPE_CHECKING:
    from bot.client import ParlorBot

PAGE = 10
"""Leaderboard lines per page."""
MIN_GAMES = 3
"""Rated games a player needs to appear on a leaderboard."""
PERIODS = {"all": "all time", "30d": "the last 30 days"}
PERIOD_DAYS: dict[str, int | None] = {"all": None, "30d": 30}
NO_PINGS = discord.AllowedMentions.none()

GAME_CHOICES = [app_commands.Choice(name=e.title or k, value=k) for k, e in sorted(REGISTRY.items())]


def _link(guild_id: int | None, thread_id: int | None) -> str:
    return f"https://discord.com/channels/{guild_id}/{thread_id}" if guild_id and thread_id else ""


def _title(kind: str) -> str:
    engine = REGISTRY.get(kind)
    return (engine.title if engine is not None else "") or kind


async def leaderboard_page(ratings: RatingService, guild_id: int, kind: str, period: str,
                           page: int) -> tuple[str, discord.ui.View | None]:
    """|coro| One page of a leaderboard (text and its paging buttons)."""
    rows = await ratings.leaderboard(guild_id, kind, last_days=PERIOD_DAYS[period], min_games=MIN_GAMES)
    pages = max(1, -(-len(rows) // PAGE))
    page = min(max(page, 0), pages - 1)
    head = f"**{_title(kind)} leaderboard** — {PERIODS[period]} (rating = μ − 3σ; at least {MIN_GAMES} rated games)"
    if not rows:
        return f"{head}\nNobody has played {MIN_GAMES} rated games yet.", None
    lines = [f"{r.place}. <@{r.user_id}> — **{r.rating.ordinal:.1f}** (μ {r.rating.mu:.1f} ± {r.rating.sigma:.1f}, "
             f"{r.rating.games} games)" for r in rows[page * PAGE:(page + 1) * PAGE]]
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardPage(kind, period, page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(LeaderboardPage(kind, period, page + 1, "Next ▶", disabled=page >= pages - 1))
    return "\n".join([head, *lines, f"Page {page + 1} of {pages}"]), view


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"parlor:lb:(?P<kind>[a-z-]{1,30}):(?P<period>all|30d):(?P<page>-?\d{1,4})"):
    """A leaderboard's paging button; its custom id carries the game, the period and the page."""

    def __init__(self, kind: str, period: str, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        self.kind, self.period, self.page = kind, period, page
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"parlor:lb:{kind}:{period}:{page}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardPage:
        """Rebuild the button from its custom id (parse only)."""
        return cls(match["kind"], match["period"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button names, in place."""
        cog = interaction.client.get_cog("StatsCog")  # type: ignore[attr-defined]
        if not isinstance(cog, StatsCog) or interaction.guild_id is None or self.kind not in REGISTRY:
            await interaction.response.send_message("This leaderboard is no longer available.", ephemeral=True)
            return
        text, view = await leaderboard_page(cog.ratings, interaction.guild_id, self.kind, self.period, self.page)
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)


class StatsCog(commands.Cog):
    """Ratings and statistics of the server's finished games."""

    ratings_group = app_commands.Group(name="ratings", description="How this server's ratings work",
                                       guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.ratings = RatingService(bot.storage, registry_bot_orders())

    async def cog_load(self) -> None:
        """Rate every game as its table finishes; register the leaderboard buttons."""
        self.bot.tables.finish_hooks.append(self.ratings.record_game)
        self.bot.add_dynamic_items(LeaderboardPage)

    async def cog_unload(self) -> None:
        """Stop rating and unregister the buttons."""
        if self.ratings.record_game in self.bot.tables.finish_hooks:
            self.bot.tables.finish_hooks.remove(self.ratings.record_game)
        self.bot.remove_dynamic_items(LeaderboardPage)

    @app_commands.command(name="stats")
    @app_commands.describe(user="Whose record (default: yours)", game="One game only (default: all)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: app_commands.Choice[str] | None = None) -> None:
        """A player's games, wins, rating, best streak and last games in this server."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        kind = game.value if game else None
        s = await self.ratings.stats(interaction.guild_id, who.id, kind)
        scope = _title(kind) if kind else "all games"
        if not s.games:
            await interaction.response.send_message(f"{who.mention} has no finished games here ({scope}) yet.",
                                                    ephemeral=True, allowed_mentions=NO_PINGS)
            return
        lines = [f"**{who.display_name}** — {scope}",
                 f"Games {s.games} · wins {s.wins} · win rate {s.win_rate:.0%} · best streak {s.best_streak}"]
        if not kind and s.favourite:
            lines.append(f"Favourite game: {_title(s.favourite)}")
        for k, r in s.ratings.items():
            lines.append(f"{_title(k)} rating: **{r.ordinal:.1f}** (μ {r.mu:.1f} ± {r.sigma:.1f}, {r.games} rated)")
        if not s.ratings:
            lines.append("Not rated yet (games with bots are unrated unless the server rates them).")
        lines.append("Last games:")
        for g, rank in s.recent:
            link = _link(g.guild_id, g.thread_id)
            lines.append(f"• {_title(g.kind)} #{g.id}: {'won' if rank == 1 else f'place {rank}'}"
                         f"{f' — {link}' if link else ''}")
        await interaction.response.send_message("\n".join(lines), ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="leaderboard")
    @app_commands.describe(game="Which game", period="All time, or the last 30 days")
    @app_commands.choices(game=GAME_CHOICES, period=[app_commands.Choice(name=v, value=k) for k, v in PERIODS.items()])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                          period: app_commands.Choice[str] | None = None) -> None:
        """The server's best players of a game by rating, page by page."""
        assert interaction.guild_id is not None
        text, view = await leaderboard_page(self.ratings, interaction.guild_id, game.value,
                                            period.value if period else "all", 0)
        await interaction.response.send_message(text, view=view or discord.utils.MISSING, allowed_mentions=NO_PINGS)

    @app_commands.command(name="history")
    @app_commands.describe(user="Whose games (default: yours)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Recent finished games: result, players and a link to each table."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        s = await self.ratings.stats(interaction.guild_id, who.id, recent=10)
        if not s.recent:
            await interaction.response.send_message(f"{who.mention} has no finished games here yet.", ephemeral=True,
                                                    allowed_mentions=NO_PINGS)
            return
        lines = [f"**{who.display_name}** — last {len(s.recent)} games"]
        for g, rank in s.recent:
            players = ", ".join(f"<@{seat.user_id}>" if seat.user_id else f"bot ({seat.bot_name})" for seat in g.seats)
            link = _link(g.guild_id, g.thread_id)
            lines.append(f"• {_title(g.kind)} #{g.id} <t:{g.finished_at // 1000}:R>: "
                         f"{'won' if rank == 1 else f'place {rank}'} — {players}{f' — {link}' if link else ''}")
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True, allowed_mentions=NO_PINGS)

    @ratings_group.command(name="bots")
    @app_commands.describe(rated="Rate games with bot seats (bots at a fixed rating per strength)")
    async def rate_bots(self, interaction: discord.Interaction, rated: bool) -> None:
        """Rate games with bot seats, or not (Manage Server); ratings are recomputed."""
        assert interaction.guild_id is not None
        settings = await self.bot.storage.guild_settings(interaction.guild_id)
        settings["rate_bots"] = rated
        await self.bot.storage.set_guild_settings(interaction.guild_id, settings)
        games = await self.ratings.rebuild()
        await interaction.response.send_message(
            f"Games with bots are now {'rated' if rated else 'unrated'} here; ratings recomputed from "
            f"{games} rated game(s).", ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    """Load the statistics cog."""
    await bot.add_cog(StatsCog(bot))
