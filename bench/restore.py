"""Restore after a restart: seconds to ready, seconds until every table answers a click, and memory.

Run: ``PYTHONPATH=. .venv/bin/python bench/restore.py [--tables 100 500 1000] [--moves 400]
[--states fresh mid-game] [--persons 4] [--seats 4] [--no-restart]``.

For each count and state a database of that many running 4-seat Dutch Blitz tables is written
through the storage API (``bot.storage.Storage``) the way ``/dutch-blitz new`` → Join → Start
leaves one: the game row (the options and settings the command stores, a table secret), its
thread (created in the loopback Discord through its REST API, spread over 20 channels) and table
message (the bot's, with an **Open my board** button, ``parlor:board:<id>``), the seats, status
``running`` and, mid-game, ``--moves`` accepted actions each, played from the table's seed by the
game's greedy bot in every seat (``bot.engine``; a 4-player game is about 1,300 moves). The action
logs are cached in the temp directory per (count, moves, seats, engine code); the database is
written anew each run (on /dev/shm when there is one, then copied next to the bot), since its
guild, channel, thread, message and user ids are this run's loopback Discord's.

Every seat is a person by default (``--persons``): the tables are quiet after the restart, so the
figures are the restore's and the clicks'. With bots seated (``--persons 1``: three greedy bots at
the default relaxed speed) the bots start playing at once, about 1,000 moves per second at 1,000
tables, which no single process keeps up with: that is ``bench/rest_budget.py``'s subject.

Then the production bot starts in a child process, ``python -m bot.cli run`` pointed at the
loopback Discord (``DISCORD_API_BASE`` / ``DISCORD_GATEWAY``; default settings, Discord's rate
limits enforced), and, as soon as the bot's gateway session is up, the first person of every table
clicks Open my board on the table message, all at once; a click that fails ("This interaction
failed": no answer within 3 s) or is refused is clicked again a second later, until it shows the
person's board. Seconds are counted from the start of the process: ``restored`` when it logs
"restored N table(s)", ``READY`` when the loopback Discord sent it READY (it identified, so it is
connected and serving), ``on_ready`` when it logs "ready as" (discord.py waits 2 s after the last
GUILD_CREATE for that), ``answered`` when the last table's board arrived, and the median table's.
``never``: tables that did not answer within ``--timeout``. Memory: the child's VmRSS at
``on_ready`` and once every table answered, and its peak (VmHWM). Unless ``--no-restart``, the bot
is then stopped with SIGTERM (a clean shutdown: Parlor stores what a restart needs; ``stop s`` is
how long that took, "killed" after 120 s) and started again on the same database: the second row
of each pair. A first row with no tables shows what starting the process costs by itself.

Issue #18 ("Scale and speed"), baseline: 1,000 tables in mid-game (about 400 moves each) take 26 s
to ready and 35 s until all answer a click, and use 333 MB. Targets for 1,000 mid-game tables:
restore to ready <= 2 s, every table answers a click <= 5 s after start, RSS <= 150 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import hashlib
import json
import os
import random
import secrets
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from _children import ROOT, Child, child_env, error_kinds, host_cpu, spawn  # bench/, beside this file

from bot.engine import IllegalAction, get_game
from bot.storage import Storage
from sandbox import FakeChannel, FakeDiscord, FakeUser, InteractionResult

"""The source tree whose ``bot`` package this process imported: the child runs the same one."""

KIND = "dutch-blitz"
OPTIONS = {"target": 75, "move_post_stacks": False, "stuck_seconds": 60, "max_hands": 30}
"""The options ``/dutch-blitz new`` stores when none is given."""
CHANNELS = 20
"""Channels the tables' threads are spread over."""

Log = list[tuple[int, dict[str, Any]]]
"""An action log: (seat index, action)."""


# ------------------------------------------------------------------ the action logs (cached)


def simulate(seed: int, seats: int, moves: int) -> Log | None:
    """*moves* accepted actions of a game dealt from *seed*, every seat played by the greedy bot;
    ``None`` when the game ends or stalls first.
    """
    game = get_game(KIND)
    players = [f"s{i}" for i in range(seats)]
    engine = game.engine.new(players, seed=seed, options=OPTIONS)
    bot_cls = next(iter(game.bots.values()))
    bots = {p: bot_cls(p, random.Random(seed * 31 + i)) for i, p in enumerate(players)}
    for p, b in bots.items():
        b.observe([e for e in engine.setup_events if e.visible_to(p)])
    rng = random.Random(seed)
    log: Log = []
    while len(log) < moves:
        if engine.is_over:
            return None
        order = list(range(seats))
        rng.shuffle(order)
        for i in order:
            player = players[i]
            legal = engine.legal_actions(player)
            choice = bots[player].choose(engine.view(player), legal) if legal else None
            if choice is None:
                continue
            try:
                events = engine.apply(player, choice)
            except IllegalAction:
                continue
            log.append((i, choice))
            for p, b in bots.items():
                seen = [e for e in events if e.visible_to(p)]
                if seen:
                    b.observe(seen)
            break
        else:
            return None  # nobody moves: a stuck hand the table would end after stuck_seconds
    return None if engine.is_over else log


def engine_fingerprint() -> str:
    digest = hashlib.blake2b(digest_size=8)
    for folder in (ROOT / "bot" / "engine", ROOT / "bot" / "games" / "dutch_blitz"):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def action_logs(count: int, seats: int, moves: int) -> list[tuple[int, Log]]:
    """*count* games (seed, log), from the cache when this engine code made them before."""
    if moves == 0:
        rng = random.Random(count)
        return [(rng.randrange(2**31), []) for _ in range(count)]
    cache = Path(tempfile.gettempdir()) / "parlor-bench-restore"
    cache.mkdir(exist_ok=True)
    path = cache / f"logs-{count}x{moves}-{seats}seats-{engine_fingerprint()}.json"
    if path.exists():
        return [(seed, [(i, a) for i, a in log]) for seed, log in json.loads(path.read_text())]
    rng = random.Random(count * 1000 + moves)
    games: list[tuple[int, Log]] = []
    while len(games) < count:
        seed = rng.randrange(2**31)
        log = simulate(seed, seats, moves)
        if log is not None:
            games.append((seed, log))
    path.write_text(json.dumps(games))
    return games


# ------------------------------------------------------------------ the database and the Discord side


@dataclass
class Place:
    """One stored table as the loopback Discord shows it: its first person, thread and table message."""

    game_id: int
    person: FakeUser
    thread: FakeChannel
    message_id: int


async def build(fake: FakeDiscord, path: Path, games: list[tuple[int, Log]], persons: int, seats: int) -> list[Place]:
    """|coro| The world (guild, channels, people, threads, table messages) and the database of *games*."""
    guild = fake.add_guild("Bench")
    channels = [fake.add_channel(guild, f"games-{i}") for i in range(CHANNELS)]
    bot_name = next(iter(get_game(KIND).bots))
    places = []
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http, \
            Storage.open(path) as storage:
        for n, (seed, log) in enumerate(games):
            channel = channels[n % CHANNELS]
            people = [fake.add_user(f"p{n}-{j}", guild=guild) for j in range(persons)]
            host = people[0]
            game_id = await storage.create_game(KIND, seed=seed, options=OPTIONS, guild_id=guild.id,
                                                channel_id=channel.id, host_id=host.id,
                                                settings={"bot_speed": "relaxed", "secret": secrets.token_hex(16)})
            async with http.post(f"{fake.api_base}/channels/{channel.id}/threads",
                                 json={"name": f"Dutch Blitz #{game_id}", "type": 11,
                                       "auto_archive_duration": 1440}) as answer:
                answer.raise_for_status()
                thread = fake.channels[int((await answer.json())["id"])]
            await storage.set_game_thread(game_id, thread.id)
            message = fake.post_bot_message(thread, f"**Dutch Blitz** — table #{game_id}",
                                            buttons=[("Open my board", f"parlor:board:{game_id}")])
            await storage.set_game_message(game_id, message.id)
            player_ids = [f"u{p.id}" for p in people] + [f"bot{k}" for k in range(1, seats - persons + 1)]
            await storage.set_seats(game_id, [(f"u{p.id}", p.id, None, p.name) for p in people]
                                    + [(f"bot{k}", None, bot_name, f"Bot {k} ({bot_name})")
                                       for k in range(1, seats - persons + 1)])
            await storage.set_game_status(game_id, "running")
            for seq, (i, action) in enumerate(log, 1):
                await storage.append_action(game_id, seq, player_ids[i], action,
                                            discord_ts_ms=int(time.time() * 1000) if i < persons else None)
            places.append(Place(game_id, host, thread, message.id))
    return places


# ------------------------------------------------------------------ the bot in a child process


async def start_bot(fake: FakeDiscord, db: Path, tmp: str, profile: Path | None = None) -> Child:
    """|coro| ``python -m bot.cli run`` on *db* against *fake* (under ``cProfile``, writing *profile*, if given)."""
    config = Path(tmp) / "parlor.toml"
    config.write_text("# the defaults\n", encoding="utf-8")
    profiler = ["-m", "cProfile", "-o", str(profile)] if profile else []
    return await spawn("the bot", [*profiler, "-m", "bot.cli", "--config", str(config), "run"],
                       child_env(fake, PARLOR_DB=str(db)), tmp)


# ------------------------------------------------------------------ one start


@dataclass
class Start:
    """The figures of one start of the bot."""

    restored: float | None = None
    restored_count: int | None = None
    gateway: float = float("nan")
    on_ready: float = float("nan")
    answered: list[float] = field(default_factory=list)
    unanswered: int = 0
    clicks: int = 0
    failed: int = 0
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    rss_ready: float = float("nan")
    rss_answered: float = float("nan")
    peak: float = float("nan")
    shutdown: float = float("nan")
    errors: list[str] = field(default_factory=list)
    host_load: float = float("nan")


def board_text(result: InteractionResult) -> str:
    """What the click's answer shows: the response message, or after a deferral the first follow-up."""
    shown = result.followups[0] if result.followups else result.message if result.response_type == 4 else None
    return shown.text if shown is not None else ""


async def click_until_board(fake: FakeDiscord, place: Place, start: Start, child: Child, deadline: float) -> None:
    """|coro| The person clicks Open my board until their board shows (or *deadline*, monotonic)."""
    while time.monotonic() < deadline:
        try:
            result = await fake.click(place.person, place.message_id, f"parlor:board:{place.game_id}", wait=False)
        except (LookupError, ValueError, PermissionError) as exc:  # the table message changed under us
            start.refusals.append(f"cannot click: {exc}")
            break
        start.clicks += 1
        await fake.wait_for_response(result)
        if result.response_type in (5, 6):  # deferred (the watchdog): the board comes as a follow-up
            with contextlib.suppress(TimeoutError):
                await fake.wait_for(functools.partial(getattr, result, "followups"), 30)
        text = board_text(result)
        if not result.failed and ("Your Blitz pile" in text or " is over" in text):
            start.answered.append(time.monotonic() - child.started)
            return
        if result.failed:
            start.failed += 1
        else:
            start.refused += 1
            start.refusals.append(text[:120])
        await asyncio.sleep(1.0)  # a person clicks again
    start.unanswered += 1


async def one_start(fake: FakeDiscord, db: Path, places: list[Place], tmp: str, timeout: float,
                    profile: Path | None = None) -> Start:
    """|coro| Start the bot on *db*, click every table until it answers, stop it; the figures."""
    start = Start()
    identified = fake.identify_count
    busy0, all0 = host_cpu()
    child = await start_bot(fake, db, tmp, profile)
    try:
        await fake.wait_for(lambda: fake.identify_count > identified or child.proc.returncode is not None,
                            timeout=timeout)
        if child.proc.returncode is not None:
            raise RuntimeError(f"the bot exited ({child.proc.returncode}):\n" + child.tail())
        start.gateway = time.monotonic() - child.started
        deadline = time.monotonic() + timeout
        clicks = asyncio.gather(*(click_until_board(fake, p, start, child, deadline) for p in places))
        start.on_ready = (await child.wait_line(r"ready as ", timeout))[0]
        start.rss_ready = child.memory_mb()
        await clicks
        start.rss_answered = child.memory_mb()
        start.peak = child.memory_mb("VmHWM")
        found = child.first(r"restored (\d+) table")
        if found:
            start.restored, start.restored_count = found[0], int(found[1].group(1))
    except BaseException:
        await child.stop()
        raise
    start.errors = child.errors(before=time.monotonic())
    busy, every = host_cpu()
    start.host_load = (busy - busy0) / max(1e-9, every - all0)
    start.shutdown = await child.stop(kill_after_s=120)
    return start


def fmt(seconds: float | None) -> str:
    return "-" if seconds is None or seconds != seconds else f"{seconds:.1f}"


def row(count: int, state: str, which: str, moves: float, s: Start) -> str:
    answered = sorted(s.answered)
    restored = "-" if s.restored is None else f"{s.restored:.1f} ({s.restored_count})"
    return (f"{count:>6} {state:<8} {which:<8} {moves:>6.0f} {restored:>12} {fmt(s.gateway):>6} {fmt(s.on_ready):>8} "
            f"{fmt(answered[-1] if answered else None):>8} {fmt(statistics.median(answered) if answered else None):>6} "
            f"{s.unanswered:>5} {s.clicks:>6} {s.failed:>6} {s.refused:>7} {s.rss_ready:>7.0f} {s.rss_answered:>8.0f} "
            f"{s.peak:>6.0f} {'killed' if s.shutdown >= 120 else fmt(s.shutdown):>6} {s.host_load * 100:>5.0f}%")


HEADER = (f"{'tables':>6} {'state':<8} {'start':<8} {'moves':>6} {'restored s':>12} {'READY':>6} {'on_ready':>8} "
          f"{'answered':>8} {'median':>6} {'never':>5} {'clicks':>6} {'failed':>6} {'refused':>7} {'RSS MB':>7} "
          f"{'after MB':>8} {'peak':>6} {'stop s':>6} {'host':>6}")


def profile_file(args: argparse.Namespace, count: int, state: str, which: str) -> Path | None:
    """Where the bot's profile of this start goes (``--profile DIR``), or ``None``."""
    if not args.profile or not count:
        return None
    folder = Path(args.profile).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{count}-{state}-{which}.prof"


def notes(start: Start) -> None:
    """What went wrong in a start, if anything: the first refusal a person read, the bot's logged errors."""
    if start.refusals:
        print(f"  first refusal: {start.refusals[0]!r} ({len(start.refusals)} in all)")
    if start.errors:
        print(f"  the bot logged {len(start.errors)} error(s), the first: {start.errors[0]}")


async def one_count(count: int, state: str, args: argparse.Namespace) -> list[str]:
    moves = args.moves if state == "mid-game" else 0
    t = time.monotonic()
    games = action_logs(count, args.seats, moves)
    simulated = time.monotonic() - t
    rows = []
    with tempfile.TemporaryDirectory(prefix="parlor-restore-bench-") as tmp:
        async with FakeDiscord() as fake:
            shm = Path("/dev/shm")
            in_memory = shm if shm.is_dir() and os.access(shm, os.W_OK) else None  # quick commits while building
            with tempfile.TemporaryDirectory(prefix="parlor-restore-build-", dir=in_memory) as build_dir:
                t = time.monotonic()
                built = Path(build_dir) / "parlor.db"
                places = await build(fake, built, games, args.persons, args.seats)
                db = Path(tmp) / "parlor.db"
                shutil.copyfile(built, db)
                wrote = time.monotonic() - t
            fake.enforce_discord_rate_limits()
            size = db.stat().st_size / 2**20
            if count:
                print(f"  ({count} {state} tables: logs {simulated:.0f} s, database written in {wrote:.0f} s, "
                      f"{size:.0f} MB)", flush=True)
            first = await one_start(fake, db, places, tmp, args.timeout, profile_file(args, count, state, "1st"))
            rows.append(row(count, state, "1st", moves, first))
            print(rows[-1], flush=True)
            notes(first)
            if args.restart and count:
                again = await one_start(fake, db, places, tmp, args.timeout,
                                        profile_file(args, count, state, "restart"))
                rows.append(row(count, state, "restart", moves, again))
                print(rows[-1], flush=True)
                notes(again)
            kinds = error_kinds(fake.errors)
            if kinds:
                print(f"  the loopback Discord recorded: {kinds}")
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--moves", type=int, default=400, help="accepted moves per mid-game table")
    parser.add_argument("--states", nargs="+", choices=["fresh", "mid-game"], default=["fresh", "mid-game"])
    parser.add_argument("--persons", type=int, default=4, help="people seated per table")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (the seats after the people's: bots)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to give up waiting")
    parser.add_argument("--profile", metavar="DIR", help="run the bot under cProfile, one statistics file per start "
                                                          "in DIR (COUNT-STATE-START.prof; python -m pstats FILE)")
    parser.add_argument("--no-restart", dest="restart", action="store_false",
                        help="do not restart the bot after the first start")
    args = parser.parse_args()
    print(f"Parlor at {ROOT}: running Dutch Blitz tables ({args.persons} person(s), {args.seats} seats), "
          f"seconds from the start of the process; load average {os.getloadavg()[0]:.1f}; host: the machine's CPU "
          f"use (all {os.cpu_count()} cores) from the start until every table answered")
    print(HEADER, flush=True)
    await one_count(0, "empty", args)
    for count in args.tables:
        for state in args.states:
            await one_count(count, state, args)


if __name__ == "__main__":
    asyncio.run(main())
