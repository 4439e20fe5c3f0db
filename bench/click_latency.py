"""Click latency, bot-side: the production bot against a bare discord.py bot that only answers each click.

Run: ``PYTHONPATH=. .venv/bin/python bench/click_latency.py [--rates 10 50 100 200] [--tables 50]
[--seconds 15] [--persons 2] [--bots 0]``.

Two loopback Discords (``sandbox.FakeDiscord``, Discord's rate limits enforced) run in this
process; each bot runs in its own child process, so the fake's CPU stays out of the bot's figures
(the machine has 2 cores): Parlor as ``python -m bot.cli run`` (its commands registered first with
``python -m bot.cli sync``; ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY`` point it at the fake; default
settings except ``tables.idle_seconds`` = 3600, so no seat goes to a bot between two phases), and
the bare bot as this file with ``--bare-child`` (a ``discord.Client`` whose ``on_interaction``
answers every click with ``response.send_message("ok", ephemeral=True)``).

Parlor: ``--tables`` Dutch Blitz tables are opened through ``/dutch-blitz new`` (one channel each,
``--persons`` people seated, ``--bots`` bots at the default relaxed speed) and started; every person
opens their board (Open my board). A click is a person's click on their own private board, on
the board as the loopback Discord shows it now: Flip (a move that is legal all hand long and
contests nothing, so it takes the real move path: lock, engine, stored in the database, the
board redrawn and answered; other boards and the table message then follow), Ready between hands,
or Open my board again when the board has neither. Bare bot: the same number of channels and
people, one message with one button per channel; a click is a click on it.

Per rate, Parlor and then the bare bot take turns (``--rounds``, 3 by default, so that both see
the same machine: it may be shared) for ``--seconds`` each in all: clicks are sent at Poisson
times, each by a random person with no click of their own waiting for an answer (this process
makes no garbage collection meanwhile, so that its pauses stay out of the figures). The latency of
a click is measured in the loopback Discord: from the moment it writes the INTERACTION_CREATE to
the bot's gateway socket to the moment it receives the bot's interaction callback (the first
response). Printed per rate and bot: clicks sent, answered, failed ("This interaction failed": no
answer within 3 s), p50 / p99 / max in ms, the CPU seconds of the bot's process per answered click
(its whole CPU over the phase: with Parlor that includes the board refreshes and table redraws
the clicks cause, and the bots' moves), the CPU use of this process (the loopback Discords and the
people, % of a core: ``fake``) and of the whole machine (% of all its cores: ``host``) during the
bot's turns, and the p99 ratio Parlor / bare. A busy host (other work on the machine) makes every
figure worse. The idle CPU of each bot (no clicks, 3 s) is printed first.

Issue #18 ("Scale and speed"), baseline: at 100 clicks/s over 50 tables p50 4 ms, p99 21 ms
against 2.3 / 3.8 ms for the bare bot (5.4x at p99); CPU per click 4.5 ms vs 2.1 ms.
Targets: p50 <= 3 ms, p99 <= 10 ms bot-side, p99 <= 2x the bare bot's in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _children import ROOT, Child, child_env, error_kinds, host_cpu, spawn, start_parlor  # bench/, beside this file
from aiohttp import web

from sandbox import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult

"""The source tree whose ``bot`` package this process imported: the children run the same one."""


# ------------------------------------------------------------------ the stopwatch (in the loopback Discord)

_SENT: dict[int, float] = {}
"""Interaction id -> ``perf_counter()`` when the loopback wrote its INTERACTION_CREATE to the socket."""
_ANSWERED: dict[int, float] = {}
"""Interaction id -> ``perf_counter()`` when the loopback received the first interaction callback."""
_PREFIX = '{"op": 0, "t": "INTERACTION_CREATE"'
_ID = re.compile(r'"d": \{"id": "(\d+)"')


def install_stopwatch(fake: FakeDiscord) -> None:
    """Time every interaction of *fake* at the wire, without changing the sandbox.

    The gateway writes each dispatch with ``WebSocketResponse.send_str`` (wrapped once, process
    wide: the INTERACTION_CREATE frames are recognised by their first bytes), and the REST routes
    call the fake's ``_callback`` for ``POST /interactions/{id}/{token}/callback`` (wrapped on the
    instance before its route table is built, i.e. before the first request).
    """
    if not getattr(web.WebSocketResponse.send_str, "_bench", False):
        original_send = web.WebSocketResponse.send_str

        async def send_str(self: web.WebSocketResponse, data: str, compress: int | None = None) -> None:
            if data.startswith(_PREFIX):
                match = _ID.search(data, 0, 300)
                if match:
                    _SENT[int(match.group(1))] = time.perf_counter()
            await original_send(self, data, compress)

        send_str._bench = True  # type: ignore[attr-defined]
        web.WebSocketResponse.send_str = send_str  # type: ignore[method-assign,assignment]
    callback = fake._callback  # observed, not changed

    async def timed_callback(request: web.Request, body: Any, iid: str, token: str) -> Any:
        _ANSWERED.setdefault(int(iid), time.perf_counter())
        return await callback(request, body, iid, token)

    fake._callback = timed_callback  # type: ignore[method-assign]


# ------------------------------------------------------------------ child processes


async def start_bare(fake: FakeDiscord, tmp: str) -> Child:
    child = await spawn("bare bot", [str(Path(__file__).resolve()), "--bare-child"], child_env(fake), tmp)
    await child.wait_line(r"^bare ready$", 60)
    return child


def bare_child() -> None:
    """The bare bot (``--bare-child``): discord.py alone, answering every click with an ephemeral "ok"."""
    import discord
    import yarl

    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY"])
    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.Client(intents=intents)

    @client.event
    async def on_ready() -> None:
        print("bare ready", flush=True)

    @client.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.send_message("ok", ephemeral=True)

    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)


# ------------------------------------------------------------------ the people clicking


Place = tuple[FakeChannel, list[FakeUser]]
"""A channel and the people who play there."""


@dataclass
class Clicker:
    """One person, and how they click: *send* starts their next click and returns it (not yet answered)."""

    user: FakeUser
    send: Callable[[], Awaitable[InteractionResult]]
    busy: bool = False


def own_cpu() -> float:
    """CPU seconds of this process (the loopback Discords and the people clicking)."""
    t = os.times()
    return t.user + t.system


@dataclass
class Phase:
    """The clicks of one phase, the bot's CPU seconds, and the share of a core used by the loopback
    Discord's process and by the whole machine (all its cores) meanwhile.
    """

    results: list[InteractionResult] = field(default_factory=list)
    not_sent: int = 0
    cpu_s: float = 0.0
    fake_load: float = 0.0
    host_load: float = 0.0
    seconds: float = 0.0

    def add(self, other: Phase) -> None:
        """Take in the clicks and CPU of *other* (another round at the same rate)."""
        total = self.seconds + other.seconds
        self.fake_load = (self.fake_load * self.seconds + other.fake_load * other.seconds) / total
        self.host_load = (self.host_load * self.seconds + other.host_load * other.seconds) / total
        self.seconds = total
        self.results += other.results
        self.not_sent += other.not_sent
        self.cpu_s += other.cpu_s

    def latencies_ms(self) -> list[float]:
        return sorted((_ANSWERED[r.id] - _SENT[r.id]) * 1000 for r in self.results
                      if r.id in _ANSWERED and r.id in _SENT and not r.failed)

    @property
    def answered(self) -> int:
        return sum(1 for r in self.results if r.responded and not r.failed)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if r.failed)


def percentile(values: list[float], q: float) -> float:
    """The *q*-quantile (0..1) of sorted *values*, nearest rank; NaN when empty."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, int(q * len(values) + 0.5) - 1))]


async def drive(fake: FakeDiscord, clickers: list[Clicker], child: Child, rate: float, seconds: float,
                rng: random.Random) -> Phase:
    """|coro| Clicks at Poisson times at *rate* per second for *seconds*; the phase's clicks and the child's CPU."""
    phase = Phase()
    pending: set[asyncio.Task[None]] = set()

    async def one(clicker: Clicker) -> None:
        clicker.busy = True
        try:
            result = await clicker.send()
            phase.results.append(result)
            await fake.wait_for_response(result)
        except (LookupError, ValueError, PermissionError, TimeoutError):
            phase.not_sent += 1
        finally:
            clicker.busy = False

    gc.collect()
    gc.disable()  # the loopback Discord is the stopwatch: no collection pauses in it while clicks are timed
    cpu0, own0, (busy0, all0) = child.cpu_seconds(), own_cpu(), host_cpu()
    loop = asyncio.get_running_loop()
    start = loop.time()
    due = start
    while True:
        due += rng.expovariate(rate)
        if due - start >= seconds:
            break
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        free = [c for c in rng.sample(clickers, min(len(clickers), 8)) if not c.busy]
        if not free:
            free = [c for c in clickers if not c.busy]
        if not free:
            phase.not_sent += 1
            continue
        task = asyncio.create_task(one(free[0]))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await asyncio.gather(*pending)
    gc.enable()
    await asyncio.sleep(0.5)  # the work the last clicks caused (board refreshes, redraws)
    phase.cpu_s = child.cpu_seconds() - cpu0
    busy, every = host_cpu()
    phase.seconds = loop.time() - start
    phase.fake_load = (own_cpu() - own0) / phase.seconds
    phase.host_load = (busy - busy0) / max(1e-9, every - all0)
    return phase


class Person:
    """A person at a Parlor table: clicks Flip on their board (Ready between hands, else reopens the board)."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, table_message: int, board: int) -> None:
        self.fake, self.user, self.table_message, self.board = fake, user, table_message, board

    async def send(self) -> InteractionResult:
        fake = self.fake
        board = fake.message(self.board)
        button = next((b for b in board.buttons if b.label and b.label.startswith(("Flip", "Ready", "Shift"))
                       and not b.disabled and b.custom_id), None)
        if button is None or board.deleted:
            result = await fake.click(self.user, self.table_message, "Open my board", wait=False)
            asyncio.get_running_loop().create_task(self._adopt(result))
            return result
        assert button.custom_id is not None
        return await fake.click(self.user, board, button.custom_id, wait=False)

    async def _adopt(self, result: InteractionResult) -> None:
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for_response(result)
        if result.message is not None:
            self.board = result.message.id


async def open_tables(fake: FakeDiscord, places: list[Place], bots: int) -> list[Clicker]:
    """|coro| A running Dutch Blitz table in each place, each person with their board open."""
    limit = asyncio.Semaphore(8)
    clickers: list[Clicker] = []

    async def one(i: int, channel: FakeChannel, people: list[FakeUser]) -> None:
        host = people[0]
        async with limit:
            await fake.slash(host, channel, "dutch-blitz new")
            thread = await fake.wait_for(lambda: fake.threads(channel) and fake.messages(fake.threads(channel)[-1])
                                         and fake.threads(channel)[-1], timeout=30)
            lobby = fake.last_message(thread)
            for other in people[1:]:
                await fake.click(other, lobby, "Join")
            for _ in range(bots):
                await fake.click(host, lobby, "Add bot")
            await fake.click(host, lobby, "Start")
            for person in people:
                result = await fake.click(person, lobby, "Open my board")
                if result.message is None:
                    raise RuntimeError(f"table {i}: no board for {person.name}: {result.errors}")
                p = Person(fake, person, lobby.id, result.message.id)
                clickers.append(Clicker(person, p.send))

    await asyncio.gather(*(one(i, channel, people) for i, (channel, people) in enumerate(places)))
    return clickers


def bare_clickers(fake: FakeDiscord, places: list[Place]) -> list[Clicker]:
    """One message with one button in each place; its people click it."""
    clickers = []
    for channel, people in places:
        message = fake.post_bot_message(channel, "Click me", buttons=[("Click", f"bare:{channel.id}")])
        for user in people:

            async def send(user: FakeUser = user, message: FakeMessage = message) -> InteractionResult:
                return await fake.click(user, message, "Click", wait=False)

            clickers.append(Clicker(user, send))
    return clickers


def world(fake: FakeDiscord, tables: int, persons: int) -> list[Place]:
    """A guild with *tables* channels and *persons* members for each (made before the bot connects)."""
    guild = fake.add_guild("Bench")
    return [(fake.add_channel(guild, f"t{i}"), [fake.add_user(f"p{i}-{j}", guild=guild) for j in range(persons)])
            for i in range(tables)]


def row(name: str, rate: float, phase: Phase) -> tuple[str, float]:
    lat = phase.latencies_ms()
    p99 = percentile(lat, 0.99)
    cpu = phase.cpu_s / phase.answered * 1000 if phase.answered else float("nan")
    line = (f"{rate:>6.0f} {name:<7} {len(phase.results):>6} {phase.answered:>8} {phase.failed:>6} "
            f"{phase.not_sent:>8} {percentile(lat, 0.5):>7.1f} {p99:>7.1f} {max(lat, default=float('nan')):>7.1f} "
            f"{cpu:>12.2f} {phase.fake_load * 100:>6.0f}% {phase.host_load * 100:>6.0f}%")
    return line, p99


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[10, 50, 100, 200], help="clicks per second")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of clicking per rate and bot")
    parser.add_argument("--rounds", type=int, default=3,
                        help="the seconds of each rate are split in this many turns of Parlor then the bare bot")
    parser.add_argument("--persons", type=int, default=2, help="people seated per table (2-8 with --bots)")
    parser.add_argument("--bots", type=int, default=0, help="bots seated per table (relaxed speed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE",
                        help="run Parlor under cProfile and write its statistics to FILE (python -m pstats FILE)")
    parser.add_argument("--bare-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_child:
        bare_child()
        return
    rng = random.Random(args.seed)
    parlor_fake, bare_fake = FakeDiscord(), FakeDiscord()
    for fake in (parlor_fake, bare_fake):
        install_stopwatch(fake)
    with tempfile.TemporaryDirectory(prefix="parlor-click-bench-") as tmp:
        async with parlor_fake, bare_fake:
            limits = parlor_fake.enforce_discord_rate_limits()
            bare_fake.enforce_discord_rate_limits()
            places = world(parlor_fake, args.tables, args.persons)
            bare_places = world(bare_fake, args.tables, args.persons)
            parlor = await start_parlor(parlor_fake, tmp, "[tables]\nidle_seconds = 3600\n", args.profile)
            bare = await start_bare(bare_fake, tmp)
            try:
                t = time.monotonic()
                parlor_people = await open_tables(parlor_fake, places, args.bots)
                print(f"Parlor at {ROOT}: {args.tables} Dutch Blitz tables ({args.persons} people, {args.bots} "
                      f"bots each) opened in {time.monotonic() - t:.1f} s; bare discord.py bot: {args.tables} "
                      f"channels x {args.persons} people, one button each; {os.cpu_count()} cores, load average "
                      f"{os.getloadavg()[0]:.1f}. Columns fake / host: CPU of the loopback Discord's process (% of a "
                      f"core) / of the whole machine (% of all cores) during the phase", flush=True)
                bare_people = bare_clickers(bare_fake, bare_places)
                for name, fake, people, child in (("parlor", parlor_fake, parlor_people, parlor),
                                                  ("bare", bare_fake, bare_people, bare)):
                    await drive(fake, people, child, 20, 2.0, rng)  # warm-up, not counted
                    cpu0 = child.cpu_seconds()
                    await asyncio.sleep(3)
                    print(f"idle CPU of the {name} bot: {(child.cpu_seconds() - cpu0) / 3 * 100:.0f}% of a core")
                print(f"{'rate/s':>6} {'bot':<7} {'sent':>6} {'answered':>8} {'failed':>6} {'not sent':>8} "
                      f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'CPU ms/click':>12} {'fake':>7} {'host':>7}",
                      flush=True)
                for rate in args.rates:
                    refused = limits.refused
                    phases = (Phase(), Phase())
                    for _ in range(args.rounds):  # in turns, so both bots see the same machine
                        phases[0].add(await drive(parlor_fake, parlor_people, parlor, rate,
                                                  args.seconds / args.rounds, rng))
                        phases[1].add(await drive(bare_fake, bare_people, bare, rate, args.seconds / args.rounds, rng))
                    line, parlor_p99 = row("parlor", rate, phases[0])
                    print(line, flush=True)
                    line, bare_p99 = row("bare", rate, phases[1])
                    print(line, flush=True)
                    print(f"{'':>6} p99 parlor / bare: {parlor_p99 / bare_p99:.1f}x; Parlor's 429s: "
                          f"{limits.refused - refused}", flush=True)
                for name, fake in (("Parlor", parlor_fake), ("the bare bot", bare_fake)):
                    if fake.errors:
                        print(f"the loopback Discord recorded for {name}: {error_kinds(fake.errors)}")
            finally:
                await parlor.stop()
                await bare.stop()


if __name__ == "__main__":
    if "--bare-child" in sys.argv:
        bare_child()
    else:
        asyncio.run(main())
