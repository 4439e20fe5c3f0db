"""Discord's global limit: how many requests busy tables send, how many 429s, how far behind tables fall.

Run: ``PYTHONPATH=. .venv/bin/python bench/rest_budget.py [--tables 50 200] [--seconds 60] [--open-rate N]``.

The production bot runs against the loopback Discord with Discord's rate limits enforced
(``FakeDiscord.enforce_discord_rate_limits``: 50 requests per second outside interactions, per
channel buckets). For each count, that many Dutch Blitz tables are opened at once (one channel
each), every one with a person who watches (Ready between hands times out after 5 s) and three
bots at ``bot_speed`` normal, and played for ``--seconds`` (``--open-rate``: open them N per second
instead, as 1,000 people would arrive; the loopback shares the bot's process and CPU, so 1,000
slash commands in one instant are not a fair load). Printed per count: the opening
(seconds until every table runs, failed openings and interactions), non-interaction requests per
second (mean, and the busiest second), edits per second made through interaction tokens (the
person's Start click gives one that edits the table message for 15 minutes, outside the global
limit), the 429s (global and per route), and how far behind a public table falls (the longest gap
between two edits of a busy table's message, through either route: median and worst, seconds).
Targets (issue "Scale and speed"): 0 global 429s at 1,000 busy tables, no public table more than
about 10 s out of date.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.client import ParlorBot
from bot.config import Config, DatabaseConfig, DiscordConfig, TablesConfig
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot


async def open_table(fake: FakeDiscord, user, channel, delay_s: float = 0.0) -> None:
    await asyncio.sleep(delay_s)
    await fake.slash(user, channel, "dutch-blitz new", options={"bot_speed": "normal"}, wait=False)
    await fake.wait_for(lambda: fake.threads(channel) and fake.messages(fake.threads(channel)[-1]), timeout=120,
                        what="the table's thread and lobby")
    lobby = fake.last_message(fake.threads(channel)[-1])
    for _ in range(3):
        await fake.click(user, lobby, "Add bot")
    await fake.click(user, lobby, "Start")


async def one_run(count: int, seconds: float, open_rate: float = 0.0) -> str:
    async with FakeDiscord() as fake:
        limits = fake.enforce_discord_rate_limits()
        guild = fake.add_guild("Bench")
        with tempfile.TemporaryDirectory() as tmp:
            config = Config(discord=DiscordConfig(token=fake.token, api_base=fake.api_base, gateway=fake.gateway_url),
                            database=DatabaseConfig(path=str(Path(tmp) / "bench.db")),
                            tables=TablesConfig(idle_seconds=3600, idle_warning_seconds=60,
                                                                ready_timeout_seconds=5))
            async with Storage.open(config.database.path) as storage:
                client = ParlorBot(config, storage, load_cogs=["cogs.tables", "cogs.dutch_blitz"],
                                   check_commands=False)
                async with running_bot(fake, client):
                    await client.tree.sync()
                    people = [(fake.add_user(f"p{i}", guild=guild), fake.add_channel(guild, f"t{i}"))
                              for i in range(count)]
                    start = time.monotonic()
                    opened = await asyncio.gather(*(open_table(fake, u, c, i / open_rate if open_rate else 0.0)
                                                    for i, (u, c) in enumerate(people)),
                                                  return_exceptions=True)
                    open_s = time.monotonic() - start
                    failed_open = sum(isinstance(r, BaseException) for r in opened)
                    why = Counter(f"{type(r).__name__}: {str(r)[:90]}" for r in opened if isinstance(r, BaseException))
                    failed_clicks = sum(1 for r in fake.interactions if r.failed)
                    first = len(fake.requests)
                    t0 = fake.now_ms()
                    global_before, refused_before = limits.refused_global, limits.refused
                    await asyncio.sleep(seconds)
                    t1 = fake.now_ms()
                    window = [r for r in fake.requests[first:]
                              if not r.path.startswith(("/interactions/", "/webhooks/"))]
                    token_edits = sum(1 for r in fake.requests[first:]
                                      if r.method == "PATCH" and r.path.startswith("/webhooks/"))
                    per_second: dict[int, int] = {}
                    for r in window:
                        per_second[int(r.at_ms // 1000)] = per_second.get(int(r.at_ms // 1000), 0) + 1
                    gaps = []
                    for table in client.tables.tables.values():
                        if table.message_id is None or table.status != "running":
                            continue
                        times = [e.at_ms for e in fake.edits(table.thread_id)  # the bot's route or a token
                                 if e.message_id == table.message_id and t0 <= e.at_ms <= t1]
                        times = [t0, *times, t1]
                        gaps.append(max(b - a for a, b in zip(times, times[1:], strict=False)) / 1000)
                    running = sum(1 for t in client.tables.tables.values() if t.status == "running")
                    return (f"{count:>5} tables: opened in {open_s:.1f} s ({failed_open} failed, {failed_clicks} "
                            f"failed interactions); {running} running; {len(window) / ((t1 - t0) / 1000):.1f} "
                            f"requests/s (busiest second {max(per_second.values(), default=0)}), "
                            f"{token_edits / ((t1 - t0) / 1000):.1f} edits/s through tokens; 429s: "
                            f"{limits.refused_global - global_before} global, "
                            f"{limits.refused - refused_before - (limits.refused_global - global_before)} per route; "
                            f"table behind: median {statistics.median(gaps) if gaps else 0:.1f} s, "
                            f"worst {max(gaps, default=0):.1f} s"
                            + "".join(f"\n       failed opening ×{n}: {reason}" for reason, n in why.most_common(3)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--open-rate", type=float, default=0.0,
                        help="tables opened per second (default 0: all at once)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the figures below say what went wrong, in numbers
    print(f"Busy Dutch Blitz tables (a person and 3 bots at normal speed), Discord's rate limits, "
          f"{args.seconds:.0f} s each")
    for count in args.tables:
        print(await one_run(count, args.seconds, args.open_rate), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
