"""Tournaments on Discord: ``/tournament …``, the tournament message and its buttons (``docs/tournaments.md`` §10).

The rules live in :mod:`bot.tournaments` (pure) and its service (:mod:`bot.tournaments.service`,
no Discord); this cog gives the service a :class:`DiscordTournamentMessenger` (its announcements in
the channel, its tournament message redrawn) and turns interactions into service calls and the
service's texts into messages. The tournament message's **Register**, **Unregister** and **Check in** buttons and the
standings' paging buttons are :class:`discord.ui.DynamicItem` components, so they work after a restart.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_error
from bot.art.pictures import Picture
from bot.engine.options import describe_options
from bot.outbox import Notice, announcement
from bot.ratings.service import RatingService, registry_bot_orders
from bot.tables.core import Actor
from bot.tables.messages import picture_message
from bot.tables.text import fit_text
from bot.tournaments.messenger import TournamentRow  # the row the messenger speaks of
from bot.tournaments.service import FORMATS, TournamentError, TournamentService, plural
from bot.tournaments.statuses import BEFORE_START, TournamentStatus

if TYPE_CHECKING:
    from bot.client import ParlorBot

log = logging.getLogger("parlor.tournaments")

NO_PINGS = discord.AllowedMentions.none()
STANDINGS_PAGE = 20
"""Standings lines per page."""

VERBS = {"reg": ("Register", discord.ButtonStyle.success), "unreg": ("Unregister", discord.ButtonStyle.secondary),
         "checkin": ("Check in", discord.ButtonStyle.primary)}


MENTION_LIKE = re.compile(r"<(?=[@#:/]|a:|t:)")
"""The start of anything Discord renders inside ``<…>``: a user, role or channel mention (short ids too),
an emoji, a timestamp, a command."""


def literal(text: str) -> str:
    r"""*text* (a name someone chose) as a message must write it: shown as typed, never formatting the
    message (``**``, ``_``, ``||``, links…) and never mentioning anyone (``@everyone``, ``<@id>``).

    >>> literal("**bold** <@1234> @everyone")
    '\\*\\*bold\\*\\* <\u200b@1234> @\u200beveryone'
    """
    return discord.utils.escape_markdown(MENTION_LIKE.sub("<\u200b", discord.utils.escape_mentions(text)))


def pinging(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly *user_ids* (when the message mentions them) and nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


def parse_options(kind_engine: Any, text: str | None) -> dict[str, Any]:
    """A game's table options from ``key=value`` words (``tricks=1 target=20``), typed by its declarations.

    Raises
    ------
    TournamentError
        An unknown key or a value of the wrong type.
    """
    specs = {s.name: s for s in describe_options(kind_engine.Options)}
    out: dict[str, Any] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in specs:
            raise TournamentError(f"Game options are key=value words; the keys are: {', '.join(specs) or 'none'}.")
        spec = specs[key]
        try:
            out[key] = spec.parse(value)
        except ValueError:
            raise TournamentError(f"{key} takes {spec.allowed}, not {value!r}.") from None
    return out


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"parlor:tour:(?P<verb>reg|unreg|checkin):(?P<id>\d{1,12})"):
    """A button of the tournament message; its custom id carries the verb and the tournament."""

    def __init__(self, verb: str, tid: int, *, disabled: bool = False) -> None:
        self.verb, self.tid = verb, tid
        label, style = VERBS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=f"parlor:tour:{verb}:{tid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TournamentButton:
        """Rebuild the button from its custom id (parse only)."""
        return cls(match["verb"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Register, unregister or check in; the message shows the new list, the answer is private."""
        cog = interaction.client.get_cog("TournamentsCog")  # type: ignore[attr-defined]
        if not isinstance(cog, TournamentsCog):
            await answer_error(interaction, "Tournaments are not available right now.")
            return
        await cog.on_button(interaction, self.verb, self.tid)


class StandingsPage(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"parlor:tstand:(?P<id>\d{1,12}):(?P<page>-?\d{1,4})"):
    """A paging button of ``/tournament standings``."""

    def __init__(self, tid: int, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        self.tid, self.page = tid, page
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"parlor:tstand:{tid}:{page}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StandingsPage:
        """Rebuild the button from its custom id (parse only)."""
        return cls(int(match["id"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button names, in place."""
        cog = interaction.client.get_cog("TournamentsCog")  # type: ignore[attr-defined]
        if not isinstance(cog, TournamentsCog):
            await answer_error(interaction, "Tournaments are not available right now.")
            return
        t = await cog.bot.storage.tournament(self.tid)
        if t is None or t.guild_id != interaction.guild_id:  # a forged button, or one of a tournament gone
            await answer_error(interaction, "That tournament no longer exists." if t is None
                               else "This tournament belongs to another server.")
            return
        text, view = await cog.standings_page(self.tid, self.page)
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)


def tournament_view(t: TournamentRow) -> discord.ui.View | None:
    """The tournament message's buttons: Register, Unregister and Check in (enabled during check-in)
    before the start; none once it started.
    """
    if t.status not in BEFORE_START:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("reg", t.id))
    view.add_item(TournamentButton("unreg", t.id))
    view.add_item(TournamentButton("checkin", t.id, disabled=t.status != TournamentStatus.CHECKIN))
    return view


class DiscordTournamentMessenger:
    """The tournament service's :class:`~bot.tournaments.messenger.TournamentMessenger` on Discord:
    announcements in the tournament's channel, and its tournament message redrawn.

    Parameters
    ----------
    bot:
        The client whose channels the tournaments live in.
    """

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    async def ready(self) -> None:
        """|coro| Wait for the gateway."""
        await self.bot.wait_until_ready()

    def shown(self, text: str) -> str:
        """A name as the tournament's messages write it: :func:`literal`."""
        return literal(text)

    async def _channel(self, t: TournamentRow) -> Any:
        channel = self.bot.get_channel(t.channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(t.channel_id)

    def notice(self, t: TournamentRow, text: str, *, pings: Sequence[int] = (),
               dedup: str | None = None) -> Notice | None:
        """The outbox row that posts *text* in *t*'s channel, pinging only *pings* (``docs/design.md``
        §3, "The outbox").
        """
        return announcement(t.channel_id, fit_text(text), pings, dedup, guild_id=t.guild_id)

    async def say(self, t: TournamentRow, text: str, *, pings: Sequence[int] = ()) -> None:
        """|coro| Post *text* in *t*'s channel through the outbox (stored on its own, then posted in
        order and retried), pinging only *pings*; a notice that cannot be stored is logged.
        """
        notice = self.notice(t, text, pings=pings)
        assert notice is not None
        try:
            await self.bot.tables.outbox.enqueue(notice)
        except Exception:
            log.exception("could not store an announcement of tournament %s", t.id)

    async def redraw(self, t: TournamentRow, text: str) -> None:
        """|coro| Edit *t*'s tournament message to *text* and the buttons of its status; a refusal is logged."""
        if t.message_id is None:
            return
        try:
            await (await self._channel(t)).get_partial_message(t.message_id).edit(
                content=fit_text(text), view=tournament_view(t), allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not redraw tournament %s", t.id, exc_info=True)

    async def show_picture(self, t: TournamentRow, picture: Picture) -> None:
        """|coro| Post *picture* (standings, a bracket) in *t*'s channel as a Components V2 message
        (``bot.tables.messages.picture_message``); a refusal is logged.
        """
        try:
            layout, file = picture_message(picture)
            await (await self._channel(t)).send(view=layout, file=file, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not post a picture for tournament %s", t.id, exc_info=True)


class TournamentsCog(commands.Cog):
    """``/tournament``: create, register, check in, run and follow community tournaments."""

    tournament = app_commands.Group(name="tournament", description="Community tournaments run by Parlor",
                                    guild_only=True)

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.storage, bot.config.tournaments, bot.tables,
                                         RatingService(bot.storage, registry_bot_orders()),
                                         messenger=DiscordTournamentMessenger(bot))

    async def cog_load(self) -> None:
        """Register the buttons, hear the tables, start the tournaments' loop (it resumes every live one)."""
        self.bot.add_dynamic_items(TournamentButton, StandingsPage)
        self.service.attach()

    async def cog_unload(self) -> None:
        """Stop the loop and unregister the buttons."""
        await self.service.detach()
        self.bot.remove_dynamic_items(TournamentButton, StandingsPage)

    # ------------------------------------------------------------------ who asks

    def may_create(self, interaction: discord.Interaction) -> bool:
        """Manage Server, Manage Events, administrators, or one of the server's organizer roles
        (``/settings role``, else ``tournaments.organizer_role_ids``).
        """
        perms = getattr(interaction, "permissions", None)
        if perms is not None and (perms.manage_guild or perms.manage_events or perms.administrator):
            return True
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        return bool(roles & set(self.bot.tables.server.organizer_role_ids(interaction.guild_id)))

    def actor(self, interaction: discord.Interaction) -> Actor:
        """Who asks: a moderator (who may step in for any organizer) creates tournaments or moderates tables."""
        user = interaction.user
        moderator = self.may_create(interaction) or self.bot.tables.is_moderator(interaction)
        return Actor(user.id, getattr(user, "display_name", None) or str(user), moderator)

    async def _find(self, interaction: discord.Interaction, tid: int | None) -> TournamentRow:
        return await self.service.find(interaction.guild_id, interaction.channel_id, tid)

    # ------------------------------------------------------------------ the message's buttons

    async def on_button(self, interaction: discord.Interaction, verb: str, tid: int) -> None:
        """|coro| A tournament message button: the message is redrawn, the answer is ephemeral."""
        actor = self.actor(interaction)
        try:
            t = await self.service.tournament(tid)
            if t.guild_id != interaction.guild_id:
                raise TournamentError("This tournament belongs to another server.")
            if verb == "reg":
                answer = await self.service.register(tid, actor)
            elif verb == "unreg":
                answer = await self.service.unregister(tid, actor)
            else:
                answer = await self.service.check_in(tid, actor)
        except TournamentError as exc:
            await answer_error(interaction, str(exc))
            return
        text, view = await self.message(tid)
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)
        await interaction.followup.send(answer, ephemeral=True)

    async def message(self, tid: int) -> tuple[str, discord.ui.View | None]:
        """|coro| The tournament message of *tid*: its text and its buttons (none once it started)."""
        s = await self.service.load(tid)
        return fit_text(self.service.message_text(s)), tournament_view(s.t)

    async def standings_page(self, tid: int, page: int) -> tuple[str, discord.ui.View | None]:
        """|coro| One page of a tournament's standings and its paging buttons."""
        s = await self.service.load(tid)
        pages = self.service.standings_pages(s, STANDINGS_PAGE)
        page = min(max(page, 0), pages - 1)
        text = fit_text(self.service.standings_text(s, page=page, per_page=STANDINGS_PAGE))
        if pages == 1:
            return text, None
        view = discord.ui.View(timeout=None)
        view.add_item(StandingsPage(tid, page - 1, "◀ Previous", disabled=page == 0))
        view.add_item(StandingsPage(tid, page + 1, "Next ▶", disabled=page >= pages - 1))
        return text, view

    # ------------------------------------------------------------------ commands

    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The games that have a table, matching what is typed."""
        kinds = sorted(self.bot.tables.uis)
        return [app_commands.Choice(name=(self.bot.tables.engines[k][0].title or k), value=k)
                for k in kinds if current.lower() in k or current.lower() in (self.bot.tables.engines[k][0].title
                                                                              or k).lower()][:25]

    @tournament.command(name="create")
    @app_commands.describe(name="The tournament's name", game="Which game", format="How rounds are paired",
                           rounds="Swiss and pods: rounds (0 for Swiss: about log2 of the players)",
                           table_size="Pods, and elimination of a multiplayer game: players a table (3-5)",
                           advance="Elimination with tables: how many of each table advance",
                           capacity="Most players; later registrations are waitlisted",
                           options="The game's table options as key=value words, e.g. target=20",
                           start_in_minutes="Registration closes and the event starts in this many minutes "
                                            "(default: when you run /tournament start)",
                           checkin_minutes="Check-in window before the start, in minutes (0: no check-in)")
    @app_commands.choices(format=[app_commands.Choice(name=v, value=k) for k, v in FORMATS.items()])
    @app_commands.autocomplete(game=game_autocomplete)
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100], game: str,
                     format: app_commands.Choice[str], rounds: app_commands.Range[int, 0, 20] = 0,
                     table_size: app_commands.Range[int, 3, 5] | None = None,
                     advance: app_commands.Range[int, 1, 4] = 1,
                     capacity: app_commands.Range[int, 2, 1024] | None = None, options: str | None = None,
                     start_in_minutes: app_commands.Range[int, 0, 10080] | None = None,
                     checkin_minutes: app_commands.Range[int, 0, 1440] | None = None) -> None:
        """Create a tournament here (Manage Server, Manage Events or an organizer role)."""
        if not self.may_create(interaction):
            raise TournamentError("Creating a tournament needs Manage Server or Manage Events, or an organizer role.")
        if game not in self.bot.tables.engines:
            raise TournamentError(f"There is no table for {game!r}; pick a game from the list.")
        assert interaction.guild_id is not None and interaction.channel_id is not None
        t = await self.service.create(
            self.actor(interaction), guild_id=interaction.guild_id, channel_id=interaction.channel_id, name=name,
            kind=game, format=format.value, options=parse_options(self.bot.tables.engines[game][0], options),
            rounds=rounds, table_size=table_size or 0, advance=advance, capacity=capacity or 0,
            start_in_minutes=start_in_minutes, checkin_minutes=checkin_minutes)
        text, view = await self.message(t.id)
        await interaction.response.send_message(text, view=view or discord.utils.MISSING, allowed_mentions=NO_PINGS)
        message = await interaction.original_response()
        await self.bot.storage.set_tournament_message(t.id, message.id)

    @tournament.command(name="checkin")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def checkin(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """Open the check-in now (organizer)."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.open_checkin(t.id, self.actor(interaction))
        await interaction.followup.send(f"Check-in for **{literal(t.name)}** is open.", ephemeral=True)

    @tournament.command(name="start")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def start(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """Close registration and start round 1 (organizer); during check-in the unchecked are dropped."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # opening every table takes a while
        try:
            await self.service.start(t.id, self.actor(interaction))
        except TournamentError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        await interaction.followup.send(f"**{literal(t.name)}** has started.", ephemeral=True)

    @tournament.command(name="standings")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def standings(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """The standings: points, then the tie-breaks."""
        t = await self._find(interaction, id)
        text, view = await self.standings_page(t.id, 0)
        await interaction.response.send_message(text, view=view or discord.utils.MISSING, allowed_mentions=NO_PINGS)

    @tournament.command(name="pairings")
    @app_commands.describe(id="The tournament (default: this channel's)", round="Which round (default: the current)")
    async def pairings(self, interaction: discord.Interaction, id: int | None = None,
                       round: app_commands.Range[int, 1, 100] | None = None) -> None:
        """A round's matches, their tables and results."""
        t = await self._find(interaction, id)
        s = await self.service.load(t.id)
        await interaction.response.send_message(fit_text(self.service.pairings_text(s, round)),
                                                allowed_mentions=NO_PINGS)

    @tournament.command(name="export")
    @app_commands.describe(id="The tournament (default: this channel's)", what="The standings, or every match")
    @app_commands.choices(what=[app_commands.Choice(name="standings", value="standings"),
                                app_commands.Choice(name="matches", value="matches")])
    async def export(self, interaction: discord.Interaction, id: int | None = None,
                     what: app_commands.Choice[str] | None = None) -> None:
        """The standings (or every match) as a CSV file."""
        t = await self._find(interaction, id)
        kind = what.value if what else "standings"
        text = self.service.export_csv(await self.service.load(t.id), kind)
        await interaction.response.send_message(
            f"**{literal(t.name)}** — {kind} as CSV", ephemeral=True,
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"tournament-{t.id}-{kind}.csv"))

    @tournament.command(name="drop")
    @app_commands.describe(id="The tournament (default: this channel's)",
                           user="Who drops (default: you; someone else: organizer)")
    async def drop(self, interaction: discord.Interaction, id: int | None = None,
                   user: discord.User | None = None) -> None:
        """Leave a tournament (or, organizer: drop a player); a match being played is forfeited."""
        t = await self._find(interaction, id)
        # Private deferral: the first follow-up takes the deferral's visibility, so a refusal after a
        # public one would be read by the whole channel. The channel hears the outcome from the service.
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.service.drop(t.id, self.actor(interaction), (user or interaction.user).id)
        await interaction.followup.send(answer, ephemeral=True, allowed_mentions=NO_PINGS)

    @tournament.command(name="disqualify")
    @app_commands.describe(user="The player", id="The tournament (default: this channel's)")
    async def disqualify(self, interaction: discord.Interaction, user: discord.User, id: int | None = None) -> None:
        """Disqualify a player (organizer); their past results keep counting for their opponents."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a refusal stays private (see drop)
        answer = await self.service.drop(t.id, self.actor(interaction), user.id, disqualify=True)
        await interaction.followup.send(answer, ephemeral=True, allowed_mentions=NO_PINGS)

    @tournament.command(name="force")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def force(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """Decide the unfinished matches by the games' current standings and go on (organizer)."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a refusal stays private (see drop)
        n = await self.service.force(t.id, self.actor(interaction))
        await interaction.followup.send(f"Forced: {plural(n, 'unfinished match', 'unfinished matches')} decided by "
                                        "the current standings.", ephemeral=True)

    @tournament.command(name="reseat")
    @app_commands.describe(match="The match number of the current round", id="The tournament (default: this "
                                                                              "channel's)")
    async def reseat(self, interaction: discord.Interaction, match: app_commands.Range[int, 1, 512],
                     id: int | None = None) -> None:
        """Open a new table for a broken match of the current round (organizer)."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a refusal stays private (see drop)
        answer = await self.service.reseat(t.id, self.actor(interaction), match)
        await interaction.followup.send(answer, ephemeral=True, allowed_mentions=NO_PINGS)

    @tournament.command(name="pause")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def pause(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """Pause: tables play on, but no-shows wait and the next round is not paired (organizer)."""
        t = await self._find(interaction, id)
        await self.service.pause(t.id, self.actor(interaction))
        await interaction.response.send_message(f"**{literal(t.name)}** is paused.", ephemeral=True)

    @tournament.command(name="resume")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def resume(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """Resume a paused tournament (organizer)."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.resume(t.id, self.actor(interaction))
        await interaction.followup.send(f"**{literal(t.name)}** resumes.", ephemeral=True)

    @tournament.command(name="end")
    @app_commands.describe(id="The tournament (default: this channel's)")
    async def end(self, interaction: discord.Interaction, id: int | None = None) -> None:
        """End early with the standings so far, or cancel before the start (organizer)."""
        t = await self._find(interaction, id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.end(t.id, self.actor(interaction))
        await interaction.followup.send(f"**{literal(t.name)}** is over.", ephemeral=True)


async def setup(bot: ParlorBot) -> None:
    """Load the tournaments cog."""
    await bot.add_cog(TournamentsCog(bot))
