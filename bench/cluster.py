"""Past one process: one process on SQLite, one on PostgreSQL, two shard processes on PostgreSQL, and
the bare discord.py bot, side by side (issue #32, item 6).

Run: ``PYTHONPATH=. .venv/bin/python bench/cluster.py [--tables 200] [--rate 100 | --sweep 50 100 200 400]
[--p99-ms 100] [--seconds 15] [--setups sqlite-1 postgres-1 postgres-2 bare]`` (PostgreSQL's binaries on the
machine: ``initdb``, ``pg_ctl``). The issue's sizes: ``--tables 1000 --sweep 50 100 200 400 --seconds 10``.

Per setup, a new loopback Discord (``sandbox.FakeDiscord``, Discord's rate limits enforced) with two
guilds, one on each shard of two, ``--tables`` channels split between them, two people per channel.
Parlor runs as ``python -m bot.cli run`` in child processes (``bench/_children.py``): one process
over a SQLite file (``sqlite-1``), one over a PostgreSQL database (``postgres-1``), or two processes,
shard 0 and shard 1 of 2, over one PostgreSQL database (``postgres-2``; ``PARLOR_SHARD_COUNT`` /
``PARLOR_SHARD_IDS`` / ``PARLOR_DATABASE_URL``, as ``compose.yaml`` sets them). The PostgreSQL server is
started for the run from the machine's binaries (``tests/pg_server.py``) with durable commits
(``fsync`` on), like SQLite's ``synchronous=FULL``.

1. **Clicks**: a Dutch Blitz table in every channel, every person's board open; clicks at Poisson
   times at ``--rate`` per second for ``--seconds`` (``bench/click_latency.py``'s people and its
   stopwatch at the wire). Printed: clicks, failed, p50 / p99 (ms), clicks answered per second, the
   bots' CPU ms per click, and the global requests per second the bot(s) made (REST requests that
   count against Discord's global limit, per second of the phase).
   With ``--sweep``, one such phase per rate, in turn; at the end the issue's targets are checked:
   0 failed storm clicks over two processes, PostgreSQL's CPU per click / SQLite's (≤ 1.5×), and the
   most clicks/s one and two PostgreSQL processes answered at a rate whose p99 stayed within
   ``--p99-ms`` (two ≥ 1.6× one).
2. **Restart storm**: every process stopped cleanly (SIGTERM) and started again; once ready, one
   person at every table clicks "Open my board", all within one second. Printed: failed clicks and
   the seconds from ready until every table answered.

The bare bot answers each click with an ephemeral "ok" (``click_latency.py --bare-child``); it has no
restart storm. A shared or slow machine makes every figure worse: compare the setups of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _children import Child, child_env, error_kinds, spawn  # bench/, beside this file
from click_latency import Phase, bare_clickers, drive, install_stopwatch, open_tables, percentile, start_bare

from sandbox import FakeDiscord, FakeUser, InteractionResult
from sandbox.ratelimits import exempt_from_global

SETUPS = ("sqlite-1", "postgres-1", "postgres-2", "bare")


class Group:
    """The bot's processes as one, for ``drive`` (CPU seconds of all of them)."""

    def __init__(self, children: list[Child]) -> None:
        self.children = children

    def cpu_seconds(self) -> float:
        return sum(c.cpu_seconds() for c in self.children)


def places(fake: FakeDiscord, tables: int) -> list[tuple[object, list[FakeUser]]]:
    """*tables* channels, half in a guild on shard 0 of 2, half in one on shard 1, two people each."""
    guilds = [fake.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
    out = []
    for i in range(tables):
        guild = guilds[i % 2]
        out.append((fake.add_channel(guild, f"t{i}"), [fake.add_user(f"p{i}-{j}", guild=guild) for j in range(2)]))
    return out


async def new_database(base: str) -> str:
    from tests.pg_server import new_database as create

    return await create(base, prefix="bench")


async def start(fake: FakeDiscord, tmp: str, setup: str, url: str, *, sync: bool) -> list[Child]:
    """|coro| The setup's Parlor processes, each once ready (``parlor sync`` first when *sync*)."""
    config = Path(tmp) / "parlor.toml"
    config.write_text("[tables]\nidle_seconds = 3600\n", encoding="utf-8")
    shards = [("2", "0"), ("2", "1")] if setup == "postgres-2" else [("0", "")]
    envs = [child_env(fake, PARLOR_DATABASE_URL=url, **({"PARLOR_SHARD_COUNT": count, "PARLOR_SHARD_IDS": ids}
                                                      if ids else {})) for count, ids in shards]
    if sync:
        child = await spawn("parlor sync", ["-m", "bot.cli", "--config", str(config), "sync"], envs[0], tmp)
        if await child.proc.wait() != 0:
            raise RuntimeError("parlor sync failed:\n" + child.tail())
        await child.stop()
    children = [await spawn(f"parlor run {n}", ["-m", "bot.cli", "--config", str(config), "run"], env, tmp)
                for n, env in enumerate(envs)]
    await asyncio.gather(*(c.wait_line(r"ready as ", 120) for c in children))
    return children


def global_rate(fake: FakeDiscord, since_ms: float, seconds: float) -> float:
    """REST requests per second that count against Discord's global limit, made since *since_ms*."""
    counted = [r for r in fake.requests if r.at_ms >= since_ms
               and not r.path.startswith(("/interactions/", "/webhooks/")) and not exempt_from_global(r.path)]
    return len(counted) / seconds


async def storm(fake: FakeDiscord, people: list[tuple[FakeUser, int]], ready_at: float) -> tuple[int, float]:
    """|coro| One click on "Open my board" per table, spread over one second: (failed, seconds from ready to
    the last answer)."""
    loop = asyncio.get_running_loop()
    answered: list[float] = []

    async def one(user: FakeUser, message: int, delay: float) -> InteractionResult:
        await asyncio.sleep(delay)
        result = await fake.click(user, message, "Open my board", wait=False)
        with contextlib.suppress(TimeoutError):
            await fake.wait_for_response(result)
        if not result.failed and result.message is not None:
            answered.append(loop.time())
        return result

    results = await asyncio.gather(*(one(u, m, i / len(people)) for i, (u, m) in enumerate(people)))
    failed = sum(1 for r in results if r.failed or r.message is None)
    return failed, (max(answered) - ready_at) if answered else float("nan")


@dataclass
class Row:
    """One setup's figures: a click row per rate, then its restart storm (``None`` for the bare bot)."""

    setup: str
    clicks: list[tuple[float, Phase, float]]
    """(rate asked, the phase, global requests/s during it), one per rate."""
    storm: tuple[int, float, float, str] | None = None
    """(failed clicks, seconds from ready until every table answered, global requests/s, errors seen)."""


def click_line(setup: str, rate: float, phase: Phase, glob: float) -> str:
    lat = phase.latencies_ms()
    return (f"{setup:<11} {rate:>6.0f} {len(phase.results):>6} {phase.failed + phase.not_sent:>6} "
            f"{percentile(lat, 0.5):>7.1f} {percentile(lat, 0.99):>7.1f} {phase.answered / phase.seconds:>8.1f} "
            f"{phase.cpu_s / max(1, phase.answered) * 1000:>8.2f} {glob:>7.1f}")


async def run_setup(setup: str, args: argparse.Namespace, pg_base: str | None) -> Row:
    """|coro| One setup's figures: clicks at every rate of ``--sweep`` (else ``--rate``), then the restart storm."""
    rng = random.Random(args.seed)
    row = Row(setup, [])
    async with FakeDiscord() as fake:
        install_stopwatch(fake)
        limits = fake.enforce_discord_rate_limits()
        spots = places(fake, args.tables)
        with tempfile.TemporaryDirectory(prefix="parlor-cluster-") as tmp:
            if setup == "bare":
                child = await start_bare(fake, tmp)
                children = [child]
                clickers = bare_clickers(fake, spots)  # type: ignore[arg-type]
            else:
                url = str(Path(tmp) / "parlor.db") if setup == "sqlite-1" else await new_database(str(pg_base))
                children = await start(fake, tmp, setup, url, sync=True)
                t = time.monotonic()
                clickers = await open_tables(fake, spots, 0)  # type: ignore[arg-type]
                print(f"  {setup}: {args.tables} tables opened in {time.monotonic() - t:.0f} s", flush=True)
            try:
                await asyncio.sleep(2)
                for rate in args.sweep or [args.rate]:
                    since = time.time() * 1000
                    phase: Phase = await drive(fake, clickers, Group(children), rate, args.seconds, rng)  # type: ignore[arg-type]
                    row.clicks.append((rate, phase, global_rate(fake, since, phase.seconds)))
                    print("  " + click_line(setup, rate, phase, row.clicks[-1][2]), flush=True)
                if setup == "bare":
                    return row
                people = {}
                for clicker in clickers:  # one person per table: the Person behind each click
                    person = clicker.send.__self__  # type: ignore[attr-defined]
                    people.setdefault(person.table_message, (person.user, person.table_message))
                for child in children:
                    await child.stop()
                children = await start(fake, tmp, setup, url, sync=False)
                loop = asyncio.get_running_loop()
                ready, since = loop.time(), time.time() * 1000
                failed, until = await storm(fake, list(people.values()), ready)
                errors = [e for c in children for e in c.errors(time.monotonic())]
                extra = (f"errors: {error_kinds(errors)}" if errors else "") + (
                    f" global 429s: {limits.refused_global}" if limits.refused_global else "")
                row.storm = (failed, until, global_rate(fake, since, max(1.0, loop.time() - ready)), extra)
                print(f"  {setup} restart storm: {failed} failed, every table answered {until:.2f} s after ready "
                      f"{extra}", flush=True)
                return row
            finally:
                for child in children:
                    await child.stop()


def best_rate(row: Row, p99_ms: float) -> float:
    """The most clicks/s answered at any rate of *row* whose p99 stayed within *p99_ms* (0 if none did)."""
    return max((phase.answered / phase.seconds for _, phase, _ in row.clicks
                if percentile(phase.latencies_ms(), 0.99) <= p99_ms), default=0.0)


def report(rows: list[Row], args: argparse.Namespace) -> None:
    """The tables the issue asks for, and its targets checked against them."""
    print(f"\nclicks ({args.seconds:.0f} s per rate; failed includes clicks that found no free person)")
    print(f"{'setup':<11} {'rate/s':>6} {'clicks':>6} {'failed':>6} {'p50 ms':>7} {'p99 ms':>7} {'clicks/s':>8} "
          f"{'CPU ms':>8} {'glob/s':>7}")
    for row in rows:
        for rate, phase, glob in row.clicks:
            print(click_line(row.setup, rate, phase, glob))
    print(f"\nrestart storm: {args.tables} mid-game tables, one click each within 1 s of the restart")
    print(f"{'setup':<11} {'failed':>6} {'all answer s':>12} {'glob/s':>7}")
    for row in rows:
        if row.storm:
            failed, until, glob, extra = row.storm
            print(f"{row.setup:<11} {failed:>6} {until:>12.2f} {glob:>7.1f}  {extra}")
    by = {row.setup: row for row in rows}
    print("\ntargets")
    if "postgres-2" in by and by["postgres-2"].storm:
        print(f"  0 failed storm clicks over two processes: {by['postgres-2'].storm[0]} failed")
    if "sqlite-1" in by and "postgres-1" in by:
        for (rate, lite, _), (_, pg, _) in zip(by["sqlite-1"].clicks, by["postgres-1"].clicks, strict=False):
            ratio = (pg.cpu_s / max(1, pg.answered)) / max(1e-9, lite.cpu_s / max(1, lite.answered))
            print(f"  PostgreSQL CPU per click / SQLite's at {rate:.0f}/s: {ratio:.2f}x (target <= 1.5x)")
    if "postgres-1" in by and "postgres-2" in by:
        one, two = best_rate(by["postgres-1"], args.p99_ms), best_rate(by["postgres-2"], args.p99_ms)
        ratio = f"{two / one:.2f}x" if one else "n/a (one process never within the bound)"
        print(f"  clicks/s with p99 <= {args.p99_ms:.0f} ms: one process {one:.1f}, two processes {two:.1f}: "
              f"{ratio} (target >= 1.6x)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100, help="clicks per second")
    parser.add_argument("--sweep", type=float, nargs="+", metavar="RATE",
                        help="clicks per second, each for --seconds, in turn (instead of --rate)")
    parser.add_argument("--p99-ms", type=float, default=100.0,
                        help="the p99 bound at which the sweep compares one and two processes")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setups", nargs="+", default=list(SETUPS), choices=SETUPS)
    args = parser.parse_args()
    from tests.pg_server import postgres_server

    server = postgres_server(durable=True) if any(s.startswith("postgres") for s in args.setups) else None
    with server or contextlib.nullcontext() as pg_base:  # type: ignore[attr-defined]
        print(f"{args.tables} Dutch Blitz tables x 2 people over two guilds (one per shard of 2); clicks at "
              f"{' '.join(f'{r:.0f}' for r in args.sweep or [args.rate])}/s for {args.seconds:.0f} s each; python "
              f"{sys.version.split()[0]}; {os.cpu_count()} cores ({cpu_model()}), load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        rows = []
        for setup in args.setups:
            rows.append(await run_setup(setup, args, pg_base))
            print(f"  load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        report(rows, args)


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``)."""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


if __name__ == "__main__":
    asyncio.run(main())
