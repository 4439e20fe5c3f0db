"""End to end: tournaments on the production bot through the loopback Discord (docs/tournaments.md §10).

Eight people register on the tournament message, seven check in, and a three-round Swiss of a
two-player game runs itself: every round's tables open in their own threads with exactly their
players seated, the players play them with clicks, and each result is recorded from the finished
game. A no-show forfeits, a player drops, and a restart mid-round keeps the tournament. A Swiss-pods
event of a multiplayer game runs the same way. The game is the test-only "High card" with one trick.
"""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path
from typing import Any

import pytest

from bot.config import TablesConfig, TournamentsConfig
from bot.tournaments.service import result_from_json
from bot.tournaments.standings import standings
from sandbox import FakeDiscord
from sandbox.wire import DEFAULT_PERMISSIONS
from tests.e2e.conftest import COGS, World, parlor_config, seen_alone, settled
from tests.e2e.ui_conformance import mention_problems

TOURNAMENT_COGS = [*COGS, "cogs.tournaments"]
MANAGE_EVENTS = 1 << 33
NO_SHOW_S = 4.0


def _parlor(fake: FakeDiscord, db: Path) -> Any:
    """The production bot with the tournaments cog; a no-show forfeits after about NO_SHOW_S seconds."""
    import contextlib

    from bot.client import ParlorBot
    from bot.storage import Storage
    from sandbox import running_bot

    @contextlib.asynccontextmanager
    async def run() -> Any:
        base = parlor_config(fake, db, TablesConfig(redraw_interval_ms=200))
        config = type(base)(discord=base.discord, database=base.database, tables=base.tables,
                            tournaments=TournamentsConfig(no_show_minutes=1))
        async with Storage.open(db) as storage:
            client = ParlorBot(config, storage, load_cogs=TOURNAMENT_COGS, check_commands=False)
            client.tables.bot_delay_scale = 0.02
            async with running_bot(fake, client):
                service = client.get_cog("TournamentsCog").service
                service.time_scale = NO_SHOW_S / 60
                service.tick_seconds = 0.1
                await client.tree.sync()
                yield client

    return run()


def service_of(bot: Any) -> Any:
    return bot.get_cog("TournamentsCog").service


def people(fake: FakeDiscord, world: World, n: int) -> list[Any]:
    extra = [fake.add_user(name, guild=world.guild) for name in ("dan", "erin", "fay", "gus", "hal")]
    return [world.alice, world.bob, world.carol, *extra][:n]


async def create(fake: FakeDiscord, world: World, organizer: Any, **options: Any) -> Any:
    result = await fake.slash(organizer, world.channel, "tournament create", options=options)
    assert not result.failed and not result.ephemeral, result.text
    return result.message


def table_message(fake: FakeDiscord, thread_id: int) -> Any:
    return next(m for m in reversed(fake.messages(thread_id)) if any(b.label == "Open my hand" for b in m.buttons))


async def show_up(fake: FakeDiscord, bot: Any, game_id: int, users: dict[str, Any],
                  absent: frozenset[str] = frozenset()) -> None:
    """Every seated person but *absent* opens their hand (that is showing up)."""
    table = bot.tables.tables[game_id]
    message = table_message(fake, table.thread_id)
    for seat in table.seats:
        if seat.player_id not in absent and seat.user_id is not None:
            opened = await fake.click(users[seat.player_id], message, "Open my hand")
            assert opened.ephemeral and "Your hand" in opened.text


async def play(fake: FakeDiscord, bot: Any, game_id: int, users: dict[str, Any]) -> None:
    """The players of table *game_id* play it out by clicks: whoever's turn it is opens their hand and plays."""
    table = bot.tables.tables[game_id]
    message = table_message(fake, table.thread_id)
    while table.engine is not None and not table.engine.is_over and table.status == "running":
        player = table.engine.view(None)["turn"]
        board = (await fake.click(users[player], message, "Open my hand")).message
        play_button = next(b for b in board.buttons if b.label.startswith("Play"))
        result = await fake.click(users[player], board, play_button.custom_id)
        assert not result.failed
    if table.engine is not None and table.engine.is_over:  # a match is over for good: no Rematch offered
        await fake.wait_for(lambda: "Final standings" in fake.message(message.id).text, timeout=5)
        assert "Rematch" not in [b.label for b in fake.message(message.id).buttons]


async def current_matches(bot: Any, tid: int) -> list[Any]:
    s = await service_of(bot).load(tid)
    return [m for m in s.current.matches if len(m.players) > 1]


async def wait_round(fake: FakeDiscord, bot: Any, tid: int, number: int) -> None:
    async def ready() -> bool:
        s = await service_of(bot).load(tid)
        return s.t.round == number and all(m.status != "pending" for m in s.current.matches)

    for _ in range(200):
        if await ready():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {number} did not start")


async def test_swiss_with_check_in_no_show_drop_and_restart(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """8 register, 7 check in; three Swiss rounds run themselves from the finished games; a no-show
    forfeits, a player drops, a restart mid-round keeps the tournament; the final standings are right."""
    db = tmp_path / "p.db"
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    players = people(fake, world, 8)
    users = {f"u{u.id}": u for u in players}
    async with _parlor(fake, db) as bot:
        refused = await fake.slash(world.alice, world.channel, "tournament create",
                                   options={"name": "Cup", "game": "high-card", "format": "swiss"})
        assert refused.ephemeral and "Manage Server or Manage Events" in refused.text
        message = await create(fake, world, organizer, name="Spring Cup", game="high-card", format="swiss",
                               rounds=3, options="tricks=1")
        assert {"Register", "Unregister", "Check in"} <= {b.label for b in message.buttons}
        for user in players:
            answer = await fake.click(user, message, "Register")
            assert not answer.failed
        assert "Players (8/128)" in fake.message(message.id).text and "hal" in fake.message(message.id).text
        assert fake.message(message.id).button("Check in").disabled  # not before the check-in opens
        opened = await settled(fake, await fake.slash(organizer, world.channel, "tournament checkin"))
        assert "open" in opened.text
        for user in players[:7]:
            await fake.click(user, message, "Check in")
        assert "✅ alice" in fake.message(message.id).text
        started = await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        assert "has started" in started.text, started.text
        tid = 1
        s = await service_of(bot).load(tid)
        assert s.t.status == "running" and len(s.active) == 7
        assert {e.name: e.status for e in s.entrants}["hal"] == "dropped"
        assert any("Dropped for not checking in: hal" in m.text for m in fake.messages(world.channel))

        # Round 1: three tables (each in its own thread, exactly its players seated) and a bye.
        await wait_round(fake, bot, tid, 1)
        matches = await current_matches(bot, tid)
        assert len(matches) == 3
        for m in matches:
            table = bot.tables.tables[m.game_id]
            assert [seat.player_id for seat in table.seats] == list(m.players)
            assert table.thread_id in {t.id for t in fake.threads(world.channel)}
        no_show = matches[0].players[1]
        await show_up(fake, bot, matches[0].game_id, users, absent=frozenset({no_show}))
        for m in matches[1:]:
            await show_up(fake, bot, m.game_id, users)
        for m in matches[1:]:
            await play(fake, bot, m.game_id, users)
        await wait_round(fake, bot, tid, 2)  # waits for the no-show to forfeit
        s = await service_of(bot).load(tid)
        forfeit = result_from_json(s.rounds[0].matches[0].result)
        assert forfeit.forfeits == {no_show} and forfeit.points(matches[0].players[0]) == 3
        assert any("did not show" in m.text for m in fake.messages(world.channel))
        assert any("Standings after round 1" in m.text for m in fake.messages(world.channel))

        # Round 2: one player drops before playing; the others play.
        matches = await current_matches(bot, tid)
        dropper = matches[0].players[0]
        dropped_name = users[dropper].name
        dropped = await settled(fake, await fake.slash(users[dropper], world.channel, "tournament drop"))
        assert "dropped" in dropped.text and dropped.ephemeral
        await fake.wait_for(lambda: any(f"{dropped_name} is dropped from **Spring Cup**" in m.text
                                        for m in fake.messages(world.channel)), timeout=5, what="the channel told")
        for m in matches[1:]:
            await show_up(fake, bot, m.game_id, users)
        for m in matches[1:]:
            await play(fake, bot, m.game_id, users)
        await wait_round(fake, bot, tid, 3)
        s = await service_of(bot).load(tid)
        assert result_from_json(s.rounds[1].matches[0].result).forfeits == {dropper}
        assert all(dropper not in m.players for m in s.current.matches)
        pairings = await fake.slash(world.carol, world.channel, "tournament pairings", options={"round": 2})
        assert "round 2 pairings" in pairings.text and "dropped and forfeits" not in pairings.text

        # Round 3: one match is played, then the bot restarts mid-round.
        matches = await current_matches(bot, tid)
        for m in matches:
            await show_up(fake, bot, m.game_id, users)
        await play(fake, bot, matches[0].game_id, users)
    async with _parlor(fake, db) as bot:
        for _ in range(100):
            if all(m.game_id in bot.tables.tables for m in matches[1:]):
                break
            await asyncio.sleep(0.05)
        for m in matches[1:]:
            await play(fake, bot, m.game_id, users)
        service = service_of(bot)
        for _ in range(200):
            if (await service.tournament(tid)).status == "finished":
                break
            await asyncio.sleep(0.05)
        s = await service.load(tid)
        assert s.t.status == "finished" and len(s.rounds) == 3
        assert all(m.status == "done" for r in s.rounds for m in r.matches)
        ranked = standings(sorted({p for r in s.model_rounds() for p in r.players}), s.model_rounds())
        names = s.names
        # stored with the end, then posted by the outbox: wait for the post
        final = await fake.wait_for(lambda: next((m.text for m in reversed(fake.messages(world.channel))
                                                  if "Final standings" in m.text), None), timeout=10,
                                    what="the final standings posted")
        lines = [line for line in final.splitlines() if line[:1].isdigit()]
        assert [line.split(". ", 1)[1].split(" ")[0] for line in lines] == [names[r.player] for r in ranked]
        assert f"Winner: **{names[ranked[0].player]}**" in final or ranked[0].rank == ranked[1].rank
        export = await fake.slash(organizer, world.channel, "tournament export")
        (data,) = export.message.files.values()
        rows = list(csv.DictReader(io.StringIO(data.decode())))
        assert [r["player"] for r in rows] == [names[r.player] for r in ranked]
        assert {r["player"]: r["status"] for r in rows}[names[dropper]] == "dropped"


async def test_swiss_pods_of_a_multiplayer_game(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Seven players, tables of 4 (4 + 3), two rounds: every table opens by itself and is played out."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    players = people(fake, world, 7)
    users = {f"u{u.id}": u for u in players}
    async with _parlor(fake, tmp_path / "p.db") as bot:
        message = await create(fake, world, organizer, name="Pods", game="high-card", format="pods", rounds=2,
                               table_size=4, options="tricks=1")
        for user in players:
            await fake.click(user, message, "Register")
        await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        for number in (1, 2):
            await wait_round(fake, bot, 1, number)
            matches = await current_matches(bot, 1)
            assert sorted(len(m.players) for m in matches) == [3, 4]
            for m in matches:
                await show_up(fake, bot, m.game_id, users)
                await play(fake, bot, m.game_id, users)
        service = service_of(bot)
        for _ in range(200):
            if (await service.tournament(1)).status == "finished":
                break
            await asyncio.sleep(0.05)
        s = await service.load(1)
        assert s.t.status == "finished"
        shown = await fake.slash(world.alice, world.channel, "tournament standings")
        assert "Buchholz" in shown.text and "pts" in shown.text


async def test_a_match_table_whose_messages_discord_refuses_is_ended_not_left_running(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A match's table is dealt in its thread, but Discord refuses its first message there (403): the
    half-open table is ended at once (no dealt table the tournament does not know of stays running),
    the match is marked broken and the channel is told how to go on."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    async with _parlor(fake, tmp_path / "p.db") as bot:
        message = await create(fake, world, organizer, name="Cup", game="high-card", format="swiss", rounds=1,
                               options="tricks=1")
        for user in people(fake, world, 2):
            assert not (await fake.click(user, message, "Register")).failed
        fake.fail_route("POST", rf"/channels/(?!{world.channel.id}/)\d+/messages")  # the match's thread
        await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        for _ in range(100):
            s = await service_of(bot).load(1)
            if s.current is not None and s.current.matches[0].status == "broken":
                break
            await asyncio.sleep(0.05)
        assert s.current is not None and s.current.matches[0].status == "broken"
        assert await bot.storage.games_with_status("running") == [], "the half-open table is still running"
        assert not [t for t in bot.tables.tables.values() if t.status == "running"]
        await fake.wait_for(lambda: any("could not be opened" in m.text for m in fake.messages(world.channel)),
                            timeout=5, what="the channel told")


async def test_a_match_table_cut_short_while_its_thread_is_made_is_ended_not_left_for_a_restart(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """The bot stops (its task is cancelled) while a match table's thread is being made: the table,
    whose game is already stored, is ended, so no table the tournament never linked comes back at the
    next start."""
    async with _parlor(fake, tmp_path / "p.db") as bot:
        fake.slow_route("POST", rf"/channels/{world.channel.id}/threads", 3.0)
        seats = [(world.alice.id, "alice"), (world.bob.id, "bob")]
        opening = asyncio.create_task(bot.tables.open_seated(
            "high-card", {"tricks": 1}, {"tournament": 1}, guild_id=world.guild.id, channel_id=world.channel.id,
            seats=seats, host_id=world.alice.id, title="Cup · R1 M1"))
        for _ in range(100):  # until the table's game is stored (its thread is then on its way)
            if await bot.storage.games_with_status("lobby"):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        assert await bot.storage.games_with_status("lobby") and not opening.done()
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opening
        assert await bot.storage.games_with_status("lobby", "running") == [], "a half-made table would come back"
        assert not [t for t in bot.tables.tables.values() if t.status in ("lobby", "running")]


@pytest.mark.parametrize("custom_id", ["parlor:tstand:999999:0", "parlor:tstand:1:0"])
async def test_a_standings_page_of_a_tournament_gone_or_of_another_server_is_answered_privately(
        fake: FakeDiscord, world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture, custom_id: str) -> None:
    """A standings page button of no tournament (forged, or of one since deleted) or of another server's
    tournament is answered ephemerally, with no ERROR logged (issue #31 C: it raised and was never answered)."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    elsewhere = fake.add_guild("Elsewhere")
    there = fake.add_channel(elsewhere, "games")
    fake.add_member(elsewhere, world.bob)
    async with _parlor(fake, tmp_path / "p.db"):
        await create(fake, world, organizer, name="Cup", game="high-card", format="swiss", rounds=1)
        stale = fake.post_bot_message(there, "old standings", buttons=[("Next ▶", custom_id)])
        result = await fake.click(world.bob, stale, custom_id)
        assert not result.failed and result.ephemeral and result.message.visible_to == world.bob.id
        assert ("no longer exists" if "999999" in custom_id else "another server") in result.text
        assert not [r for r in caplog.records if r.levelname == "ERROR"]


def synced_subcommands(fake: FakeDiscord, name: str) -> set[str]:
    """The subcommands of /*name* as synced (so a new one cannot be left out of a walk)."""
    command = next(c for c in fake.commands() if c["name"] == name)
    return {o["name"] for o in command.get("options") or [] if o["type"] == 1}


async def test_every_refusal_of_a_tournament_command_or_button_is_seen_by_its_member_alone(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Bob (no organizer, no moderator) tries every /tournament command and every tournament button: each
    refusal is ephemeral, for Bob alone, and the channel's public messages do not change (issue #31 A:
    drop, disqualify, force and reseat deferred publicly before the organizer check, so the refusal
    filled a public "thinking…" message)."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    bob = world.bob
    async with _parlor(fake, tmp_path / "p.db"):
        message = await create(fake, world, organizer, name="Cup", game="high-card", format="swiss", rounds=1,
                               options="tricks=1")
        assert not (await fake.click(world.alice, message, "Register")).failed
        public_before = [(m.id, m.text) for m in fake.messages(world.channel)]
        tries: dict[str, dict[str, Any]] = {
            "create": {"name": "Mine", "game": "high-card", "format": "swiss"},
            "checkin": {}, "start": {}, "pause": {}, "resume": {}, "end": {}, "force": {},
            "reseat": {"match": 1}, "disqualify": {"user": world.alice}, "drop": {"user": world.alice},
            "standings": {"id": 999}, "pairings": {"id": 999}, "export": {"id": 999},
        }
        assert set(tries) == synced_subcommands(fake, "tournament"), "a /tournament command is not walked"
        problems: list[str] = []
        for sub, options in tries.items():
            result = await settled(fake, await fake.slash(bob, world.channel, f"tournament {sub}", options=options))
            problems += seen_alone(result, bob, f"/tournament {sub}")
        own = await settled(fake, await fake.slash(bob, world.channel, "tournament drop"))  # not registered
        problems += seen_alone(own, bob, "/tournament drop (himself)")
        problems += seen_alone(await fake.click(bob, message, "Unregister"), bob, "Unregister")
        assert not (await fake.click(bob, message, "Register")).failed
        problems += seen_alone(await fake.click(bob, message, "Register"), bob, "Register again")
        await settled(fake, await fake.slash(organizer, world.channel, "tournament checkin"))
        carol = world.carol
        problems += seen_alone(await fake.click(carol, message, "Check in"), carol, "Check in (unregistered)")
        stale = fake.post_bot_message(world.channel, "old standings",
                                      buttons=[("Next ▶", "parlor:tstand:999999:0")])
        problems += seen_alone(await fake.click(bob, stale, "parlor:tstand:999999:0"), bob, "a standings page")
        assert not problems, "\n".join(problems)
        public_now = [(m.id, m.text) for m in fake.messages(world.channel)]
        refusals = [m for m in public_now if m not in public_before and m[0] not in (message.id, stale.id)
                    and "Check-in for" not in m[1]]
        assert not refusals, refusals


async def test_a_name_with_mentions_and_markdown_pings_nobody_and_shows_as_written(
        fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """A player named ``**bold** <@alice> <@1234> @everyone`` plays a whole event: no tournament message
    pings Alice (who is not in it) or anyone the message is not for, none allows @everyone or role
    pings, and the name shows literally (no bold, no mention) wherever it is written. The only pings
    are the player moved up from the waitlist and the winner, each alone (issue #31 B)."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    raw = f"**bold** <@{world.alice.id}> <@1234> @everyone"
    loud = fake.add_user(raw, guild=world.guild)
    users = {f"u{u.id}": u for u in (loud, world.bob, world.carol)}
    async with _parlor(fake, tmp_path / "p.db") as bot:
        message = await create(fake, world, organizer, name="Cup", game="high-card", format="swiss", rounds=1,
                               capacity=2, options="tricks=1")
        for user in (loud, world.bob, world.carol):  # Carol is waitlisted
            assert not (await fake.click(user, message, "Register")).failed
        assert not (await fake.click(world.bob, message, "Unregister")).failed  # Carol moves up
        await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        await wait_round(fake, bot, 1, 1)
        (match,) = await current_matches(bot, 1)
        await show_up(fake, bot, match.game_id, users)
        await play(fake, bot, match.game_id, users)
        await fake.wait_for(lambda: any("Final standings" in m.text for m in fake.messages(world.channel)),
                            timeout=10, what="the final standings")
        s = await service_of(bot).load(1)
        winner = next(r.player for r in standings(["u" + str(loud.id), "u" + str(world.carol.id)],
                                                  s.model_rounds()) if r.rank == 1)
        posted = [m for m in fake.messages(world.channel) if m.author.bot]
        problems: list[str] = []
        for msg in posted:
            meant = (world.carol.id,) if "moves up from the waitlist" in msg.text else \
                (int(winner[1:]),) if "Winner:" in msg.text else ()
            problems += mention_problems(msg, user_pings=meant)
            if meant and msg.allowed_mentions is not None:  # the users allowed are named, never all of them
                if "users" in (msg.allowed_mentions.get("parse") or []):
                    problems.append(f"message {msg.id} allows every user mention: {msg.text[:80]!r}")
        assert not problems, "\n".join(problems)
        assert any("moves up from the waitlist" in m.text and m.pings == {f"user:{world.carol.id}"}
                   for m in posted)
        named = [m for m in posted if "bold" in m.text]
        assert len(named) >= 4, [m.text for m in posted]  # the message, pairings, result, final standings
        for msg in named:
            assert "**bold**" not in msg.text and "\\*\\*bold\\*\\*" in msg.text, msg.text
            assert f"<@{world.alice.id}>" not in msg.text and "<@1234>" not in msg.text, msg.text
            assert "@everyone" not in msg.text, msg.text
        export = await fake.slash(organizer, world.channel, "tournament export")
        (data,) = export.message.files.values()
        assert raw in data.decode(), "the CSV keeps the name as it is"


def pictures_in(fake: FakeDiscord, channel: Any, filename: str) -> list[Any]:
    """The channel's messages carrying an attachment named *filename* (each a V2 picture message)."""
    return [m for m in fake.messages(channel) if any(a["filename"] == filename for a in m.attachments)]


async def test_an_elimination_posts_its_standings_and_bracket_as_pictures(fake: FakeDiscord, world: World,
                                                                          tmp_path: Path) -> None:
    """Four players, single elimination: with each standings post (after round 1, and the final ones) come
    a standings picture and the bracket so far (each match's winner) in the tournament's channel, each
    a Components V2 message with the PNG in its media gallery (docs/art.md §7)."""
    organizer = fake.add_user("org", guild=world.guild, permissions=DEFAULT_PERMISSIONS | MANAGE_EVENTS)
    players = people(fake, world, 4)
    users = {f"u{u.id}": u for u in players}
    async with _parlor(fake, tmp_path / "p.db") as bot:
        message = await create(fake, world, organizer, name="Cup", game="high-card", format="elimination",
                               options="tricks=1")
        for user in players:
            await fake.click(user, message, "Register")
        await settled(fake, await fake.slash(organizer, world.channel, "tournament start"))
        for number in (1, 2):
            await wait_round(fake, bot, 1, number)
            for m in await current_matches(bot, 1):
                await show_up(fake, bot, m.game_id, users)
                await play(fake, bot, m.game_id, users)
        await fake.wait_for(lambda: len(pictures_in(fake, world.channel, "tournament-bracket.png")) == 2
                            and len(pictures_in(fake, world.channel, "tournament-standings.png")) == 2,
                            timeout=30, what="the final standings' and the bracket's pictures")
        s = await service_of(bot).load(1)
        assert s.t.status == "finished"
        after_round_1, final = pictures_in(fake, world.channel, "tournament-standings.png")
        assert "after round 1" in after_round_1.text and "final standings" in final.text
        first_bracket, bracket = pictures_in(fake, world.channel, "tournament-bracket.png")
        for picture in (after_round_1, final, first_bracket, bracket):
            (attachment,) = picture.attachments
            assert picture.is_v2 and picture.media == [(f"attachment://{attachment['filename']}",
                                                        attachment["description"])]
        winner = next(r.player for r in standings(list(users), s.model_rounds()) if r.rank == 1)
        alt = bracket.attachments[0]["description"]
        assert "round 1" in alt and "round 2" in alt and f"({s.names[winner]} won)" in alt
        assert "round 2" not in first_bracket.attachments[0]["description"]
