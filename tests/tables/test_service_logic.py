"""The table service's lobby and move logic, without any Discord (docs/tables.md, "The table service inside").

The Discord-free parts are driven directly, composed as :class:`~bot.tables.service.Tables` over a
:class:`~bot.tables.messenger.RecordingMessenger` that records what would be said in the thread
instead of posting it; the storage is a real SQLite file.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.config import TablesConfig
from bot.engine import SIMULTANEOUS, Action, Engine, Event, IllegalAction, Result
from bot.storage import Storage
from bot.tables.core import Actor
from bot.tables.messenger import RecordingMessenger
from bot.tables.moves import outcome_note
from bot.tables.service import Tables
from bot.tables.table import Table, TableError, TableStatus
from bot.tables.ui import GameUI
from tests.engine.sample_game import BOTS, HighCard, LowestBot

ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")
MOD = Actor(9, "mod", moderator=True)


def offline_tables(storage: Storage, config: TablesConfig) -> Tables:
    """The table service without Discord: its parts over a :class:`RecordingMessenger`."""
    return Tables(storage, config, RecordingMessenger())


def recorded(tables: Tables) -> RecordingMessenger:
    """What *tables* would have posted."""
    assert isinstance(tables.messenger, RecordingMessenger)
    return tables.messenger


@dataclass(frozen=True)
class GrabOptions:
    """No options."""


class Grab(Engine):
    """A test-only race: everyone reaches for one token at once; the first applied takes it."""

    kind = "grab"
    title = "Grab"
    min_players = 2
    max_players = 4
    Options = GrabOptions
    play_mode = SIMULTANEOUS

    def _setup(self) -> list[Event]:
        self.holder: str | None = None
        return []

    def _legal_actions(self, player: str) -> list[Action]:
        return [] if self.holder else [{"type": "grab"}]

    def _apply(self, player: str, action: Action) -> list[Event]:
        if self.holder is not None:
            raise IllegalAction(f"{self.holder} already has the token")
        self.holder = player
        return [Event("grabbed", {"player": player})]

    def contested_resource(self, player: str, action: Action) -> str | None:
        return "token"

    def _view(self, player: str | None) -> dict[str, Any]:
        return {"holder": self.holder}

    def _is_over(self) -> bool:
        return self.holder is not None

    def _result(self) -> Result:
        return Result.from_scores({p: float(p == self.holder) for p in self.players})


def ui_for(kind: str) -> GameUI:
    """The default rendering, registered for game *kind*."""
    return type(f"{kind}UI", (GameUI,), {"kind": kind})()


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    async with Storage.open(str(tmp_path / "t.db")) as storage:
        service = offline_tables(storage, TablesConfig(race_window_ms=50))
        service.register_ui(ui_for("high-card"), engine=HighCard, bots=BOTS)
        service.register_ui(ui_for("grab"), engine=Grab, bots={})
        service.bot_delay_scale = 0.001
        yield service
        await service.shutdown()


async def lobby(tables: Tables, kind: str = "high-card", host: Actor = ALICE) -> Table:
    table = await tables.create(kind, host, {}, None, guild_id=10, channel_id=20)
    tables.tables[table.id] = table
    return table


# ---------------------------------------------------------------------- lobby


async def test_join_seats_a_person_once(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    assert [s.name for s in table.seats] == ["alice", "bob"]
    with pytest.raises(TableError, match="already seated"):
        await tables.join(table, BOB)
    assert [s.user_id for s in await tables.storage.seats(table.id)] == [1, 2], "the seats are stored"


async def test_a_full_table_refuses_another_seat(tables: Tables) -> None:
    table = await lobby(tables)
    for user in range(2, 5):
        await tables.join(table, Actor(user, f"p{user}"))
    with pytest.raises(TableError, match="full"):
        await tables.join(table, Actor(5, "late"))
    assert len(table.seats) == 4


async def test_one_live_table_per_person_per_channel(tables: Tables) -> None:
    await lobby(tables)
    with pytest.raises(TableError, match="already sit at table #1"):
        await tables.create("high-card", ALICE, {}, None, guild_id=10, channel_id=20)
    other = await lobby(tables, host=BOB)
    with pytest.raises(TableError, match="already sit at table #1"):
        await tables.join(other, ALICE)


async def test_every_table_and_its_rematch_get_a_secret_of_their_own(tables: Tables) -> None:
    """The secret that keys board tokens is random per table, stored, and new for a rematch."""
    first, second = await lobby(tables), await lobby(tables, host=BOB)
    assert first.codec_secret and second.codec_secret and first.codec_secret != second.codec_secret
    assert len(first.codec_secret) == 32, "128 bits"
    assert (await tables.storage.game(first.id)).settings["secret"] == first.codec_secret
    await tables.add_bot(first, ALICE)
    await tables.start(first, ALICE)
    assert first.engine is not None
    while not first.engine.is_over:
        player = first.engine.to_act()[0]
        await tables.submit(first, player, first.engine.legal_actions(player)[0], 0)
    again, joined = await tables.rematch(first, ALICE)
    assert not joined
    assert again.codec_secret and again.codec_secret != first.codec_secret


async def test_bad_options_are_refused_with_the_reason(tables: Tables) -> None:
    with pytest.raises(TableError, match="Those options don't work"):
        await tables.create("high-card", ALICE, {"tricks": 99}, None, guild_id=10, channel_id=20)


async def test_only_the_host_or_a_moderator_adds_bots_starts_and_cancels(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    for request in (tables.add_bot(table, BOB), tables.start(table, BOB), tables.cancel(table, BOB)):
        with pytest.raises(TableError, match="Only the host"):
            await request
    await tables.add_bot(table, MOD)
    assert table.seats[-1].is_bot and table.status == "lobby"
    await tables.start(table, MOD)
    assert table.status == "running" and table.engine is not None


async def test_start_needs_the_games_minimum(tables: Tables) -> None:
    table = await lobby(tables)
    with pytest.raises(TableError, match="needs at least 2 players; 1 seated"):
        await tables.start(table, ALICE)
    assert table.engine is None


async def test_a_leaving_host_hands_the_lobby_on_and_the_last_person_cancels_it(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.leave(table, ALICE)
    assert table.host_id == BOB.user_id and (await tables.storage.game(table.id)).host_id == BOB.user_id
    await tables.add_bot(table, BOB)
    await tables.leave(table, BOB)
    assert table.status == "cancelled" and table.id not in tables.tables


async def test_kick_frees_a_lobby_seat_but_never_the_hosts(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    with pytest.raises(TableError, match="host cannot be kicked"):
        await tables.kick_seat(table, ALICE.user_id)
    assert "bob was removed" in await tables.kick_seat(table, BOB.user_id)
    assert [s.name for s in table.seats] == ["alice"]


async def test_kicking_a_player_from_a_running_game_names_them_not_their_bot(tables: Tables) -> None:
    """/table kick in a game: "bob was removed …; a bot plays their seat", not "bob (bot) was removed"."""
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    said = await tables.kick_seat(table, BOB.user_id)
    assert said.startswith("bob was removed from table") and "(bot) was removed" not in said, said


async def test_leaving_a_running_game_hands_the_seat_to_a_bot_and_the_host_role_on(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    await tables.leave_running(table, ALICE)
    seat = table.seat_of_player(f"u{ALICE.user_id}")
    assert seat is not None and seat.is_bot and table.host_id == BOB.user_id
    await asyncio.sleep(0)  # the notice is posted by a task of its own
    assert any("A bot took over alice's seat (they left)" in s for s in recorded(tables).said)


async def test_the_last_person_leaving_ends_the_table(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.add_bot(table, ALICE)
    await tables.start(table, ALICE)
    table.message_id = 1234  # the table has a message, which must say why it ended
    await tables.leave_running(table, ALICE)
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert table.status == "cancelled"
    assert recorded(tables).ended and "no players were left" in recorded(tables).ended[-1]


# ---------------------------------------------------------------------- moves


async def test_a_legal_move_is_applied_and_stored_before_it_is_reported(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    assert table.engine is not None
    player = table.engine.players[0]
    action = table.engine.legal_actions(player)[0]
    outcome = await tables.submit(table, player, action, 1_700_000_000_000)
    assert outcome.accepted
    stored = await tables.storage.actions(table.id)
    assert [(a.player_id, a.action, a.discord_ts_ms) for a in stored] == [(player, action, 1_700_000_000_000)]


async def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing(tables: Tables) -> None:
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    assert table.engine is not None
    before, version = table.engine.snapshot(), table.version
    outcome = await tables.submit(table, table.engine.players[1], {"type": "play", "card": "nope"}, 0)
    assert not outcome.accepted and outcome.reason == "it is not your turn"
    assert table.engine.snapshot() == before and table.version == version
    assert await tables.storage.actions(table.id) == []


async def test_a_race_is_won_by_the_earlier_discord_timestamp_not_the_earlier_arrival(tables: Tables) -> None:
    table = await lobby(tables, "grab")
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    alice, bob = f"u{ALICE.user_id}", f"u{BOB.user_id}"
    deferred: list[str] = []

    async def defer() -> None:
        deferred.append("deferred")

    late_arrival_early_stamp = asyncio.ensure_future(asyncio.sleep(0.01))
    first = asyncio.create_task(tables.submit(table, alice, {"type": "grab"}, 1_000_100, on_contest=defer))
    await late_arrival_early_stamp
    second = asyncio.create_task(tables.submit(table, bob, {"type": "grab"}, 1_000_060, on_contest=defer))
    alice_outcome, bob_outcome = await asyncio.gather(first, second)
    assert bob_outcome.accepted and bob_outcome.beat == [(alice, 40)]
    assert not alice_outcome.accepted and alice_outcome.beaten_by == bob and alice_outcome.margin_ms == 40
    assert deferred == ["deferred", "deferred"], "each contested claim was told it waits for the window"
    assert table.engine is not None and table.engine.view(None)["holder"] == bob
    assert table.status == "finished" and (await tables.storage.game(table.id)).status == "finished"


async def test_a_winner_is_told_each_player_it_beat_once_and_a_crowd_of_clicks_fits_one_line(
        tables: Tables) -> None:
    """Fifty clicks in one race window (people clicking again and again): the winner's note names each
    player it beat once, by the closest claim, at most three by name; its own extra clicks lost nothing."""
    table = await lobby(tables, "grab")
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    alice, bob = f"u{ALICE.user_id}", f"u{BOB.user_id}"

    async def defer() -> None:
        return None

    claims = [asyncio.create_task(tables.submit(table, alice, {"type": "grab"}, 1_000_000, on_contest=defer))]
    claims += [asyncio.create_task(tables.submit(table, (bob, alice)[i % 2], {"type": "grab"}, 1_000_001 + i,
                                                 on_contest=defer)) for i in range(50)]
    outcomes = await asyncio.gather(*claims)
    won = outcomes[0]
    assert won.accepted and {p for p, _ in won.beat} == {bob}, "only bob lost a race to alice"
    assert not any(o.beaten_by == alice for o in outcomes[2::2]), "alice's own extra clicks are not 'beaten'"
    note = outcome_note(table, won)
    assert note.count("\n") == 0 and note.count("ahead of") == 1 and "by 1 ms" in note and len(note) < 200, note


async def test_a_timed_rule_holds_its_action_back_with_the_time_left(tables: Tables) -> None:
    """Dutch Blitz's stuck rule: End hand waits stuck_seconds after the last Dutch-pile play."""
    from bot.games.dutch_blitz import BOTS as DB_BOTS
    from bot.games.dutch_blitz import ENGINE as DutchBlitz

    tables.register_ui(ui_for("dutch-blitz"), engine=DutchBlitz, bots=DB_BOTS)
    table = await tables.create("dutch-blitz", ALICE, {"stuck_seconds": 60}, None, guild_id=10, channel_id=21)
    tables.tables[table.id] = table
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    outcome = await tables.submit(table, f"u{ALICE.user_id}", {"type": "end_hand"}, 0)
    assert not outcome.accepted and outcome.reason.startswith("not yet")
    assert table.engine is not None and table.engine.view(None)["phase"] == "play"


class RecordingBot(LowestBot):
    """The sample game's bot, remembering every event it observes."""

    def __init__(self, player: str, rng: Any) -> None:
        super().__init__(player, rng)
        self.seen: list[Event] = []

    def observe(self, events: Any) -> None:
        self.seen += list(events)


async def test_a_bot_taking_a_seat_knows_what_that_seat_was_shown_and_no_more(tables: Tables) -> None:
    """docs/tables.md, "Bots": rebuilt from the log's events that seat may see (its private deal included)."""
    tables.register_ui(ui_for("high-card"), engine=HighCard, bots={"rec": RecordingBot})
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    assert table.engine is not None
    alice, bob = f"u{ALICE.user_id}", f"u{BOB.user_id}"
    await tables.submit(table, alice, table.engine.legal_actions(alice)[0], 0)
    await tables.leave_running(table, ALICE)
    bot = table.bots[alice]
    assert isinstance(bot, RecordingBot)
    stored = [[a.player_id, a.action] for a in await tables.storage.actions(table.id)]
    log = {"seed": table.seed, "options": table.options, "players": list(table.engine.players), "actions": stored}
    expected = HighCard.seen_by(log, alice)
    assert [e.to_json() for e in bot.seen[:len(expected)]] == [e.to_json() for e in expected]
    assert any(e.type == "dealt" and e.audience == (alice,) for e in bot.seen), "its own private deal"
    assert not any(e.audience == (bob,) for e in bot.seen), "never another seat's private event"


async def test_bots_after_a_restart_remember_their_seats_private_events(tables: Tables) -> None:
    tables.register_ui(ui_for("high-card"), engine=HighCard, bots={"rec": RecordingBot})
    table = await lobby(tables)
    await tables.storage.set_game_thread(table.id, 20)  # the Discord layer gives every table a thread
    await tables.add_bot(table, ALICE, "rec")
    await tables.start(table, ALICE)
    await tables.shutdown()
    tables.tables.clear()
    tables.registry.closing = False
    assert await tables.restore() == 1
    restored = tables.tables[table.id]
    (bot,) = restored.bots.values()
    assert isinstance(bot, RecordingBot)
    assert [e.type for e in bot.seen if e.audience is not None] == ["dealt"], "its deal, rebuilt from the log"


async def test_a_tournament_match_has_no_rematch(tables: Tables) -> None:
    table = await tables.create("high-card", ALICE, {"tricks": 1}, {"tournament": 7}, guild_id=10, channel_id=22)
    tables.tables[table.id] = table
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    assert table.engine is not None
    while not table.engine.is_over:
        player = table.engine.to_act()[0]
        await tables.submit(table, player, table.engine.legal_actions(player)[0], 0)
    with pytest.raises(TableError, match="tournament match"):
        await tables.rematch(table, ALICE)


async def test_a_table_setting_outside_its_declaration_is_refused_and_nothing_runs(tables: Tables) -> None:
    """race_window_ms -1 (or a bot speed no table has) is refused when the table is opened, naming the
    setting; a stored table whose setting breaks its race window never counts as running (issue #31 C)."""
    for settings in ({"race_window_ms": -1}, {"bot_speed": "warp"}, {"pace": "sometimes"}):
        with pytest.raises(TableError, match=next(iter(settings))):
            await tables.create("high-card", ALICE, {}, settings, guild_id=1, channel_id=10)
    assert not tables.tables
    table = await lobby(tables)
    table.settings["race_window_ms"] = -1  # as an older row might hold it
    await tables.join(table, BOB)
    with pytest.raises(ValueError):
        await tables.start(table, ALICE)
    assert table.status == "lobby" and table.engine is None


async def test_a_turn_warning_pings_exactly_the_person_whose_turn_runs_out(tmp_path: Path) -> None:
    """The warning before a turn timer runs out pings the waiting person by id, and nobody else,
    whatever the names at the table hold (a name with a mention pings nobody; issue #31 B)."""
    async with Storage.open(str(tmp_path / "t.db")) as storage:
        tables = offline_tables(storage, TablesConfig(turn_timeout_seconds=60, turn_warning_seconds=30))
        tables.register_ui(ui_for("high-card"), engine=HighCard, bots=BOTS)
        tables.timer_scale = 0.002  # the warning after 60 ms, the timeout after 120 ms
        table = await lobby(tables, host=Actor(1, "<@3> **alice**"))
        await tables.join(table, Actor(2, "bob <@3>"))
        await tables.start(table, Actor(1, "alice"))
        waiting = table.engine.view(None)["turn"]
        said = recorded(tables)
        for _ in range(3000):  # the warning comes after about six of these steps
            if said.pinged:
                break
            await asyncio.sleep(0.01)
        text, pings = said.pinged[0]
        assert pings == (table.seat_of_player(waiting).user_id,) and "⏰" in text, recorded.pinged
        await tables.shutdown()


async def test_a_persons_early_click_is_held_and_made_when_the_timed_rule_allows_it(tables: Tables) -> None:
    """Dutch Blitz's stuck rule: the host's End hand clicked too early is not refused but held, and the
    hand ends when the wait is over, with no second click; the answer says when (issue #30, item 1)."""
    from bot.games.dutch_blitz import BOTS as DB_BOTS
    from bot.games.dutch_blitz import ENGINE as DutchBlitz

    tables.register_ui(ui_for("dutch-blitz"), engine=DutchBlitz, bots=DB_BOTS)
    table = await tables.create("dutch-blitz", ALICE, {"stuck_seconds": 1}, None, guild_id=10, channel_id=21)
    tables.tables[table.id] = table
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    early = await tables.submit(table, ALICE, {"type": "end_hand"}, 0)
    assert not early.accepted and early.plain and not early.reason, early
    assert early.note.startswith("⏳ End hand: made as soon as it is allowed, 1 s after")
    assert table.engine is not None and table.engine.view(None)["phase"] == "play"
    changed = table.changed
    for _ in range(100):  # each step waits for the table to change (it does when the hand ends)
        if table.engine.view(None)["phase"] == "between":
            break
        await asyncio.wait_for(changed.wait(), timeout=30)
        changed = table.changed
    assert table.engine.view(None)["phase"] == "between", "the held End hand was made"


async def test_a_held_move_refused_when_its_time_comes_leaves_a_note_on_the_board(tables: Tables) -> None:
    """Alice's early End hand is held; before its time she hands the host role to Bob, so when the wait
    is over the move is no longer hers: it is not made, and her board says why (issue #30, item 1)."""
    from bot.games.dutch_blitz import BOTS as DB_BOTS
    from bot.games.dutch_blitz import ENGINE as DutchBlitz

    tables.register_ui(ui_for("dutch-blitz"), engine=DutchBlitz, bots=DB_BOTS)
    table = await tables.create("dutch-blitz", ALICE, {"stuck_seconds": 1}, None, guild_id=10, channel_id=21)
    tables.tables[table.id] = table
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    alice = f"u{ALICE.user_id}"
    held = await tables.submit(table, ALICE, {"type": "end_hand"}, 0)
    assert held.note.startswith("⏳") and tables.moves.held.held(table, alice)
    await tables.make_host(table, BOB.user_id)
    for _ in range(100):  # each step waits for a board to be due a refresh (the note marks it)
        if not tables.moves.held.held(table, alice) and table.private_notes.get(alice):
            break
        table.boards_dirty.clear()
        await asyncio.wait_for(table.boards_dirty.wait(), timeout=30)
    assert table.engine is not None and table.engine.view(None)["phase"] == "play", "not made"
    assert any("Your end hand was not made: Only the host" in n.text for n in table.private_notes[alice])


async def test_the_lobby_says_in_words_only_the_options_that_differ_from_the_defaults(tables: Tables) -> None:
    """Not ``variant=aggressive, jokers=True, … undercut_penalty=15``: only what differs, in words
    (issue #30, item 9); a table of the standard rules says so."""
    from bot.games.dutch import BOTS as DUTCH_BOTS
    from bot.games.dutch import ENGINE as Dutch

    tables.register_ui(ui_for("dutch"), engine=Dutch, bots=DUTCH_BOTS)
    table = await tables.create("dutch", ALICE, {"variant": "aggressive", "red_kings": -2, "undercut_penalty": 15},
                                None, guild_id=10, channel_id=22)
    text = tables.lobby_text(table)
    assert "variant aggressive · red kings -2" in text, text
    assert "undercut" not in text and "=" not in text, "a default is not repeated, nothing reads as code"
    plain = await tables.create("high-card", BOB, {}, None, guild_id=10, channel_id=23)
    assert "the standard rules" in tables.lobby_text(plain)


async def test_an_unseated_hosts_held_move_is_not_the_first_seats(tables: Tables) -> None:
    """A moderator who does not play holds End hand for the table: the first seat's own moves neither
    cancel it nor count as the moderator's, and it is made when the wait is over (review of issue #30)."""
    from bot.games.dutch_blitz import BOTS as DB_BOTS
    from bot.games.dutch_blitz import ENGINE as DutchBlitz

    tables.register_ui(ui_for("dutch-blitz"), engine=DutchBlitz, bots=DB_BOTS)
    table = await tables.create("dutch-blitz", ALICE, {"stuck_seconds": 1}, None, guild_id=10, channel_id=21)
    tables.tables[table.id] = table
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    held = await tables.submit(table, MOD, {"type": "end_hand"}, 0)
    assert held.note.startswith("⏳") and tables.moves.held.held(table, f"host:{MOD.user_id}")
    table.timeouts[f"u{ALICE.user_id}"] = 1
    await tables.submit(table, ALICE, {"type": "flip"}, 0)  # the first seat plays on
    assert tables.moves.held.held(table, f"host:{MOD.user_id}"), "her move did not cancel the moderator's"
    changed = table.changed
    for _ in range(100):
        if table.engine is not None and table.engine.view(None)["phase"] == "between":
            break
        await asyncio.wait_for(changed.wait(), timeout=30)
        changed = table.changed
    assert table.engine is not None and table.engine.view(None)["phase"] == "between"


async def test_a_seat_a_bot_took_for_good_has_no_way_back(tables: Tables) -> None:
    """Bob idled, a bot took his seat; the host then removes him: opening his board no longer gives
    the seat back; nor does it after a tournament's ruling (seat_to_bot) (review of issue #30)."""
    table = await lobby(tables)
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    seat = table.seat_of_user(BOB.user_id)
    assert seat is not None
    async with table.lock:
        await tables.loops.replace_with_bot(table, seat, "idle", returnable=True)
    assert table.away_of(BOB.user_id) is seat
    said = await tables.kick_seat(table, BOB.user_id)
    assert "bob was removed" in said and table.away_of(BOB.user_id) is None
    async with table.lock:
        assert not await tables.lobby.take_back(table, BOB)
    assert seat.is_bot


async def test_the_turn_ping_skips_a_move_the_table_makes_by_itself(tables: Tables) -> None:
    """Dutch's reveal is made by the table (the UI's automatic move): the person it waits for is not
    pinged for it; the same person waiting to draw is (review of issue #30, items 2 and 4)."""
    from cogs._dutch_ui import DutchUI
    from tests.games.dutch.helpers import prepared

    tables.register_ui(DutchUI())
    table = await tables.create("dutch", ALICE, {}, None, guild_id=10, channel_id=24)
    await tables.join(table, BOB)
    seat_ids = [s.player_id for s in table.seats]
    table.engine = prepared({seat_ids[0]: ["5H", "KS"], seat_ids[1]: ["5S", "2D"]}, deck=["3C"], turn=0)
    table.status = TableStatus.RUNNING
    bob = table.seats[1]
    said = recorded(tables)
    async def pings_for(seat: Any) -> int:
        await tables.loops._turn_pings(table, [seat])
        if table.tasks:  # the ping is posted by a task of the table's
            await asyncio.wait(table.tasks)
        return len(said.pinged)

    assert await pings_for(table.seats[0]) == 1, "Alice, away since the deal, waiting to draw: pinged"
    table.engine.apply(seat_ids[0], {"type": "draw"})
    table.engine.apply(seat_ids[0], {"type": "discard"})
    assert table.engine.legal_actions(bob.player_id)[0] == {"type": "reveal"}
    assert await pings_for(bob) == 1, "the reveal the table makes itself pings nobody"


async def test_a_race_window_closing_when_the_table_ends_still_answers_its_claims(tables: Tables) -> None:
    """/table end while a closed race window waits for the table lock (another move holds it): the
    window is cut short, and its claim is answered, not left waiting (docs/tables.md, "Playing")."""
    table = await lobby(tables, kind="grab")
    await tables.join(table, BOB)
    await tables.start(table, ALICE)
    claim = asyncio.create_task(tables.submit(table, ALICE, {"type": "grab"}, 1_000))
    for _ in range(1000):  # the claim opens its window
        if table.arbiter is not None and table.arbiter.deadline("token") is not None:
            break
        await asyncio.sleep(0.001)
    async with table.lock:  # another move holds the table while the window closes
        for _ in range(5000):  # the window closes (its claims taken out) and waits for the lock
            if table.arbiter.deadline("token") is None:
                break
            await asyncio.sleep(0.001)
        await asyncio.sleep(0)
        await tables.registry.cancel(table, "ended")
    outcome = await asyncio.wait_for(claim, timeout=5)
    assert not outcome.accepted and outcome.reason == "The table was ended."
