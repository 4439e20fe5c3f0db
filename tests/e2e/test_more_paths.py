"""End to end through the loopback Discord: paths of tournaments, stats and tables that had no test.

Who may create a tournament (Manage Server, Manage Events, the configured organizer role; not an
ordinary member), the ◀/▶ paging of ``/tournament standings``, the thread links of ``/stats`` and
``/history``, and ``/table end`` by a member whose only power is Manage Threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

from bot.client import ParlorBot
from bot.config import TablesConfig, TournamentsConfig
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot
from sandbox.wire import DEFAULT_PERMISSIONS, MANAGE_THREADS
from tests.e2e.conftest import COGS, World, parlor, parlor_config, settled
from tests.e2e.test_tables import open_table, play_out

TOURNAMENT_COGS = [*COGS, "cogs.tournaments"]
STATS_COGS = [*COGS, "cogs.stats"]
MANAGE_EVENTS = 1 << 33


@contextlib.asynccontextmanager
async def tournament_bot(fake: FakeDiscord, db: Path, tournaments: TournamentsConfig) -> AsyncIterator[ParlorBot]:
    """The production bot with the tournaments cog and the given ``[tournaments]`` settings."""
    base = parlor_config(fake, db, TablesConfig(redraw_interval_ms=200))
    config = type(base)(discord=base.discord, database=base.database, tables=base.tables, tournaments=tournaments)
    async with Storage.open(db) as storage:
        client = ParlorBot(config, storage, load_cogs=TOURNAMENT_COGS, check_commands=False)
        client.tables.bot_delay_scale = 0.02
        async with running_bot(fake, client):
            await client.tree.sync()
            yield client


async def test_tournament_create_is_for_manage_server_manage_events_or_the_organizer_role(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """/tournament create: a member with Manage Server, one with Manage Events and one with (only) the
    configured organizer role each create a tournament; an ordinary member is refused and nothing is stored."""
    role = fake.add_role(world.guild, "Organizers")
    other_role = fake.add_role(world.guild, "Regulars")
    server_manager = fake.add_user("sam", guild=world.guild, manage_guild=True)
    events_manager = fake.add_user("eve", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    organizer = fake.add_user("oli", guild=world.guild, roles=[role])
    regular = fake.add_user("reg", guild=world.guild, roles=[other_role])
    async with tournament_bot(fake, tmp_path / "p.db", TournamentsConfig(organizer_role_ids=(role,))) as bot:
        for user in (world.alice, regular):
            refused = await fake.slash(user, world.channel, "tournament create",
                                       options={"name": f"By {user.name}", "game": "high-card", "format": "swiss"})
            assert refused.ephemeral and "Manage Server or Manage Events" in refused.text, refused.text
        assert await bot.storage.tournaments(guild_id=world.guild.id) == []
        service = bot.get_cog("TournamentsCog").service
        created = []
        for user in (server_manager, events_manager, organizer):
            answer = await fake.slash(user, world.channel, "tournament create",
                                      options={"name": f"Cup of {user.name}", "game": "high-card", "format": "swiss"})
            assert not answer.failed and not answer.ephemeral, answer.text
            assert f"Cup of {user.name}" in answer.message.text
            created.append(user)
        for tid, user in enumerate(created, start=1):
            t = await service.tournament(tid)
            assert t.name == f"Cup of {user.name}" and t.organizer_id == user.id and t.guild_id == world.guild.id
        assert [t.name for t in await bot.storage.tournaments(guild_id=world.guild.id)] == \
            [f"Cup of {u.name}" for u in created]
        assert not any("By alice" in m.text or "By reg" in m.text for m in fake.messages(world.channel))


def _names(text: str) -> list[str]:
    """The player names of the standings lines of a message ("3. name — **0** pts …")."""
    return [m.group(1) for m in re.finditer(r"^\d+\. (\S+?)(?: \(\w+\))? — ", text, re.M)]


async def test_tournament_standings_pages_with_previous_and_next_buttons(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """21 players (20 a page): /tournament standings shows page 1 of 2 with ◀ disabled; Next ▶ shows the
    21st in place with Next disabled; ◀ Previous goes back. The pages list the service's standings in order."""
    organizer = fake.add_user("org", guild=world.guild, manage_guild=True)
    players = [fake.add_user(f"pl{i:02d}", guild=world.guild) for i in range(21)]
    async with tournament_bot(fake, tmp_path / "p.db", TournamentsConfig()) as bot:
        answer = await fake.slash(organizer, world.channel, "tournament create",
                                  options={"name": "Big", "game": "high-card", "format": "swiss", "rounds": 1,
                                           "options": "tricks=1"})
        message = answer.message
        for user in players:
            assert not (await fake.click(user, message, "Register")).failed
        started = await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        assert "has started" in started.text, started.text
        service = bot.get_cog("TournamentsCog").service
        s = await service.load(1)
        order = [s.names[r.player] for r in service.standings(s)]
        assert len(order) == 21

        shown = await fake.slash(world.alice, world.channel, "tournament standings")
        page = shown.message
        assert "Page 1 of 2" in page.text and _names(page.text) == order[:20]
        assert page.button("◀ Previous").disabled and not page.button("Next ▶").disabled
        assert not (await fake.click(world.bob, page, "Next ▶")).failed
        page = fake.message(page.id)
        assert "Page 2 of 2" in page.text and _names(page.text) == order[20:]
        assert page.button("Next ▶").disabled and not page.button("◀ Previous").disabled
        assert not (await fake.click(world.bob, page, "◀ Previous")).failed
        page = fake.message(page.id)
        assert "Page 1 of 2" in page.text and _names(page.text) == order[:20]


async def test_stats_and_history_link_to_the_games_thread(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """After a finished game, /stats and /history list it with a link to its thread
    (https://discord.com/channels/<guild>/<thread>), the thread the table was played in."""
    async with parlor(fake, tmp_path / "p.db", STATS_COGS) as bot:
        thread, lobby = await open_table(fake, world, tricks=1)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        await play_out(fake, lobby, [world.alice, world.bob], table)
        for _ in range(100):  # the last move may be the table's own: its result is stored right after
            if await bot.storage.result(1):
                break
            await asyncio.sleep(0.05)
        link = f"https://discord.com/channels/{world.guild.id}/{thread.id}"
        stats = await fake.slash(world.alice, world.channel, "stats")
        assert stats.ephemeral and "#1" in stats.text
        line = next(x for x in stats.text.splitlines() if "#1" in x)
        assert line.endswith(f"— {link}"), line
        history = await fake.slash(world.bob, world.channel, "history", options={"user": world.alice})
        line = next(x for x in history.text.splitlines() if "#1" in x)
        assert history.ephemeral and line.endswith(f"— {link}"), line


async def test_table_end_by_a_member_with_only_manage_threads(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Carol (no host, no Manage Threads) is refused /table end and the table plays on; Tess, who has
    Manage Threads and nothing else (not seated, not an administrator, no moderator role), ends it."""
    tess = fake.add_user("tess", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_THREADS)
    async with parlor(fake, tmp_path / "p.db") as bot:
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        refused = await fake.slash(world.carol, world.channel, "table end", options={"id": 1})
        assert refused.ephemeral and "Only the host" in refused.text, refused.text
        assert bot.tables.tables[1].status == "running"
        ended = await fake.slash(tess, world.channel, "table end", options={"id": 1})
        assert "was ended" in ended.text, ended.text
        assert 1 not in bot.tables.tables
        await fake.wait_for(lambda: "ended by tess" in fake.messages(thread)[0].text, timeout=5,
                            what="the ended mark")
