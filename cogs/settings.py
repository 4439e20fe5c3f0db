"""``/settings``: a server's own defaults for its tables and tournaments (``docs/tables.md``, "Server settings").

Thin: the table registry's :class:`~bot.tables.server.ServerSettings` checks, stores and resolves every
value; this cog reads the command, checks who asks (Manage Server or administrators change; anyone
the server lets use the command views) and answers privately.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.options import describe_options
from bot.tables.server import ROLE_LISTS, SERVER_KEYS, ServerSettings, SettingError

if TYPE_CHECKING:
    from bot.client import ParlorBot

NO_PINGS = discord.AllowedMentions.none()
"""Settings answers name roles and never ping them."""

REFUSED = "Only members with Manage Server (or administrators) can change this server's settings; anyone may view them."
"""The answer to a member who may not change the settings."""


def worded(value: Any) -> str:
    """A setting's value in words: ``on``/``off`` for a switch, roles as role mentions, ``none`` for no roles."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " ".join(f"<@&{r}>" for r in value) or "none"
    return str(value)


class SettingsCog(commands.Cog):
    """``/settings show|set|option|role|reset`` (see the module's documentation)."""

    settings = app_commands.Group(name="settings", description="This server's defaults for tables (Manage Server)",
                                  guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @property
    def server(self) -> ServerSettings:
        """The resolver of every server's settings (the table registry's)."""
        return self.bot.tables.registry.server

    async def cog_load(self) -> None:
        """Read every server's stored settings, so that the first table of each finds them."""
        await self.server.load_all()

    # ------------------------------------------------------------------ who asks, and the answers

    @staticmethod
    def may_change(interaction: discord.Interaction) -> bool:
        """Whether the member of *interaction* may change the settings: Manage Server or administrator."""
        perms = getattr(interaction, "permissions", None)
        return perms is not None and (perms.manage_guild or perms.administrator)

    async def _answer(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text[:2000], ephemeral=True, allowed_mentions=NO_PINGS)

    async def _change(self, interaction: discord.Interaction, change: Any, done: Any) -> None:
        """Run coroutine function *change* for a member who may, answering ``done(result)`` or the refusal."""
        if interaction.guild_id is None:
            await self._answer(interaction, "Settings belong to a server: use this in one.")
            return
        if not self.may_change(interaction):
            await self._answer(interaction, REFUSED)
            return
        try:
            result = await change(interaction.guild_id)
        except SettingError as exc:
            await self._answer(interaction, f"Not changed: {exc}")
            return
        await self._answer(interaction, done(result))

    # ------------------------------------------------------------------ autocomplete

    async def value_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The values the chosen setting (or game option) takes, matching what is typed."""
        ns = interaction.namespace
        spec = SERVER_KEYS.get(str(getattr(ns, "key", "") or ""))
        kind, name = getattr(ns, "game", None), getattr(ns, "option", None)
        if kind and name and kind in self.bot.tables.engines:
            specs = describe_options(self.bot.tables.registry.engine_cls(kind).Options)
            spec = next((s for s in specs if s.name == name), None)
        if spec is None:
            return []
        if spec.type is bool:
            words = ["on", "off"]
        elif spec.choices is not None:
            words = [str(c) for c in spec.choices]
        else:
            words = [current] if current else [str(v) for v in (spec.min, spec.default, spec.max) if v is not None]
        return [app_commands.Choice(name=w, value=w) for w in words if current.lower() in w.lower()][:25]

    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """The games with a table here, matching what is typed."""
        engines = self.bot.tables.engines
        return [app_commands.Choice(name=engines[k][0].title or k, value=k) for k in sorted(engines)
                if current.lower() in k or current.lower() in (engines[k][0].title or k).lower()][:25]

    async def option_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The chosen game's options, matching what is typed."""
        kind = getattr(interaction.namespace, "game", None)
        if kind not in self.bot.tables.engines:
            return []
        specs = describe_options(self.bot.tables.registry.engine_cls(kind).Options)
        return [app_commands.Choice(name=f"{s.name}: {s.help}"[:100], value=s.name) for s in specs
                if current.lower() in s.name][:25]

    async def reset_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """What this server has set (each returns to the config's), and ``all``."""
        keys = [*self.server.of(interaction.guild_id).set_keys(), "all"]
        return [app_commands.Choice(name=k, value=k) for k in keys if current.lower() in k][:25]

    # ------------------------------------------------------------------ commands

    @settings.command(name="show")
    async def show(self, interaction: discord.Interaction) -> None:
        """Show this server's settings: its own, and the config's where it set none."""
        guild_id = interaction.guild_id
        own = self.server.of(guild_id)
        lines = ["**Server settings** (✎ set here; the rest come from the bot's config)"]
        for key, spec in SERVER_KEYS.items():
            mark = " ✎" if getattr(own, key) is not None else ""
            lines.append(f"• `{key}`: **{worded(self.server.value(guild_id, key))}**{mark} — {spec.help}")
        for key, attr in ROLE_LISTS.items():
            mark = " ✎" if getattr(own, attr) is not None else ""
            lines.append(f"• `{key}`: {worded(tuple(self.server.value(guild_id, key)))}{mark}")
        games = [f"{kind}: " + ", ".join(f"{k}={worded(v)}" for k, v in sorted(opts.items()))
                 for kind, opts in sorted(own.game_options.items())]
        lines.append("• game options ✎: " + ("; ".join(games) if games else "the rules' defaults"))
        lines.append("Change with `/settings set`, `/settings option`, `/settings role`; `/settings reset` returns "
                     "one to the config's value.")
        await self._answer(interaction, "\n".join(lines))

    @settings.command(name="set")
    @app_commands.describe(key="Which setting", value="Its value for this server's tables")
    @app_commands.choices(key=[app_commands.Choice(name=f"{k}: {s.help}"[:100], value=k)
                               for k, s in SERVER_KEYS.items()])
    @app_commands.autocomplete(value=value_autocomplete)
    async def set_value(self, interaction: discord.Interaction, key: app_commands.Choice[str],
                        value: app_commands.Range[str, 1, 20]) -> None:
        """Set one of this server's defaults (bot speed and strength, times, pings)."""
        await self._change(interaction, lambda guild: self.server.set_value(guild, key.value, value),
                           lambda stored: f"`{key.value}` is now **{worded(stored)}** for this server's new tables.")

    @settings.command(name="option")
    @app_commands.describe(game="Which game", option="Which of its options", value="The value a new table starts from")
    @app_commands.autocomplete(game=game_autocomplete, option=option_autocomplete, value=value_autocomplete)
    async def set_option(self, interaction: discord.Interaction, game: str, option: str,
                         value: app_commands.Range[str, 1, 20]) -> None:
        """Set the value of a game option that this server's new tables start from."""
        await self._change(interaction, lambda guild: self.server.set_option(guild, game, option, value),
                           lambda stored: f"New {game} tables here start with `{option}` **{worded(stored)}** "
                                          "(the host may still choose another in `/" + game + " new`).")

    @settings.command(name="role")
    @app_commands.rename(which="list")
    @app_commands.describe(which="Moderators run every table; organizers create tournaments", role="The role",
                           action="Add it to the list, or take it off")
    @app_commands.choices(which=[app_commands.Choice(name="moderator roles", value="moderator_roles"),
                                app_commands.Choice(name="organizer roles", value="organizer_roles")],
                          action=[app_commands.Choice(name="add", value="add"),
                                  app_commands.Choice(name="remove", value="remove")])
    async def role(self, interaction: discord.Interaction, which: app_commands.Choice[str], role: discord.Role,
                   action: app_commands.Choice[str] | None = None) -> None:
        """Add a role to this server's moderator or organizer roles, or take it off."""
        add = action is None or action.value == "add"
        await self._change(interaction, lambda guild: self.server.set_role(guild, which.value, role.id, add=add),
                           lambda roles: f"The {which.name} here are now {worded(tuple(roles))}.")

    @settings.command(name="reset")
    @app_commands.describe(key="What to return to the config's value (all: everything)")
    @app_commands.autocomplete(key=reset_autocomplete)
    async def reset(self, interaction: discord.Interaction, key: app_commands.Range[str, 1, 100]) -> None:
        """Return one of this server's settings (or all) to the bot's config."""
        await self._change(interaction, lambda guild: self.server.reset(guild, key),
                           lambda had: f"`{key}` now follows the bot's config." if had else
                           f"`{key}` was not set here; it already follows the bot's config.")


async def setup(bot: ParlorBot) -> None:
    """Load the settings cog."""
    await bot.add_cog(SettingsCog(bot))
