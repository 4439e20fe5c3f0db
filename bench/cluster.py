"""Past one process: one process on SQLite, one on PostgreSQL, two shard processes on PostgreSQL, and
the bare discord.py bot, side by side (issue #32, item 6).

Run: ``PYTHONPATH=. .venv/bin/python bench/cluster.py [--tables 200] [--rate 100] [--seconds 15]
[--setups sqlite-1 postgres-1 postgres-2 bare]`` (PostgreSQL's binaries on the machine: ``initdb``, ``pg_ctl``).

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
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path

from _children import Child, child_env, error_kinds, spawn  # bench/, beside this file
from click_latency import Phase, bare_clickers, drive, install_stopwatch, open_tables, percentile, start_bare

from sandbox import FakeDiscord, FakeUser, InteractionResult
from sandbox.ratelimits import exempt_from_global

SETUPS = ("sqlite-1", "postgres-1", "postgres-2", "bare")
_databases = itertools.count(1)


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
    import asyncpg

    name = f"bench{next(_databases)}"
    conn = await asyncpg.connect(f"{base}/postgres")
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return f"{base}/{name}"


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


async def run_setup(setup: str, args: argparse.Namespace, pg_base: str | None) -> str:
    """|coro| One setup's row of figures."""
    rng = random.Random(args.seed)
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
                clickers = await open_tables(fake, spots, 0)  # type: ignore[arg-type]
            try:
                await asyncio.sleep(2)
                since = time.time() * 1000
                phase: Phase = await drive(fake, clickers, Group(children), args.rate, args.seconds, rng)  # type: ignore[arg-type]
                lat = phase.latencies_ms()
                figures = (f"{setup:<11} {len(phase.results):>6} {phase.failed:>6} {percentile(lat, 0.5):>7.1f} "
                           f"{percentile(lat, 0.99):>7.1f} {phase.answered / phase.seconds:>8.1f} "
                           f"{phase.cpu_s / max(1, phase.answered) * 1000:>8.2f} "
                           f"{global_rate(fake, since, phase.seconds):>7.1f}")
                if setup == "bare":
                    return figures + f" {'-':>8} {'-':>9}"
                people = {}
                for clicker in clickers:  # one person per table: the Person behind each click
                    person = clicker.send.__self__  # type: ignore[attr-defined]
                    people.setdefault(person.table_message, (person.user, person.table_message))
                for child in children:
                    await child.stop()
                children = await start(fake, tmp, setup, url, sync=False)
                failed, until = await storm(fake, list(people.values()), asyncio.get_running_loop().time())
                errors = [e for c in children for e in c.errors(time.monotonic())]
                extra = f"  errors: {error_kinds(errors)}" if errors else ""
                return figures + f" {failed:>8} {until:>9.2f}" + extra + (
                    f"  global 429s: {limits.refused_global}" if limits.refused_global else "")
            finally:
                for child in children:
                    await child.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100, help="clicks per second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setups", nargs="+", default=list(SETUPS), choices=SETUPS)
    args = parser.parse_args()
    from tests.pg_server import postgres_server

    server = postgres_server(durable=True) if any(s.startswith("postgres") for s in args.setups) else None
    with server or contextlib.nullcontext() as pg_base:  # type: ignore[attr-defined]
        print(f"{args.tables} Dutch Blitz tables x 2 people over two guilds (one per shard of 2); clicks at "
              f"{args.rate:.0f}/s for {args.seconds:.0f} s; python {sys.version.split()[0]}", flush=True)
        print(f"{'setup':<11} {'clicks':>6} {'failed':>6} {'p50 ms':>7} {'p99 ms':>7} {'clicks/s':>8} "
              f"{'CPU ms':>8} {'glob/s':>7} {'storm:failed':>8} {'all answer s':>9}", flush=True)
        for setup in args.setups:
            print(await run_setup(setup, args, pg_base), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
