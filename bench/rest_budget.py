"""Discord's global limit: how many requests busy tables send, how many 429s, how far behind tables fall.

Run: ``PYTHONPATH=. .venv/bin/python bench/rest_budget.py [--tables 50 200] [--seconds 60] [--open-rate N]``.

The production bot (``python -m bot.cli run``, its commands registered first with ``sync``) runs in a
child process against the loopback Discord in this one, with Discord's rate limits enforced
(``FakeDiscord.enforce_discord_rate_limits``: 50 requests per second outside interactions, per
route buckets), so the loopback's CPU stays out of the bot's (the machine has 2 cores). For each
count, that many Dutch Blitz tables are opened (one channel each), every one with a person who
watches (Ready between hands times out after 5 s) and three bots at ``bot_speed`` normal, and
played for ``--seconds``. ``--open-rate``: open them N per second, as people would arrive (default
0: all at once).

Printed per count: the opening (seconds until every table runs, failed openings, failed
interactions, and why the first ones failed), non-interaction requests per second (mean, and the
busiest second), edits per second made through interaction tokens (the person's Start click
gives one that edits the table message for 15 minutes, outside the global limit), the 429s
(global and per route), how far behind a public table falls (the longest gap between two edits of
a running table's message, through either route: median and worst, seconds), and the bot's CPU
(% of a core) while the tables play. Targets (issue "Scale and speed"): 0 global 429s at 1,000
busy tables, no public table more than about 10 s out of date.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass

from _children import start_parlor  # bench/, beside this file

from sandbox import FakeDiscord
from sandbox.models import FakeChannel, FakeUser

CONFIG = "[tables]\nidle_seconds = 3600\nidle_warning_seconds = 60\nready_timeout_seconds = 5\n"


@dataclass
class Opened:
    """A table the bench opened: its thread and its table message (the lobby, then the game)."""

    thread_id: int
    message_id: int


async def open_table(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, delay_s: float = 0.0) -> Opened:
    """|coro| ``/dutch-blitz new`` by *user* in *channel* after *delay_s* seconds, three bots, Start.

    Raises ``TimeoutError`` (no thread or lobby within 120 s) or ``RuntimeError`` (a click failed).
    """
    await asyncio.sleep(delay_s)
    await fake.slash(user, channel, "dutch-blitz new", options={"bot_speed": "normal"}, wait=False)
    await fake.wait_for(lambda: fake.threads(channel) and fake.messages(fake.threads(channel)[-1]), timeout=120,
                        what="the table's thread and lobby")
    thread = fake.threads(channel)[-1]
    lobby = fake.last_message(thread)
    for label in ("Add bot", "Add bot", "Add bot", "Start"):
        clicked = await fake.click(user, lobby, label)
        if clicked.failed:
            raise RuntimeError(f"{label}: the interaction failed")
    return Opened(thread.id, lobby.id)


async def one_run(count: int, seconds: float, open_rate: float = 0.0, extra_config: str = "") -> str:
    """|coro| Open *count* tables, let them play *seconds*; one line of figures."""
    async with FakeDiscord() as fake:
        limits = fake.enforce_discord_rate_limits()
        guild = fake.add_guild("Bench")
        with tempfile.TemporaryDirectory(prefix="parlor-rest-bench-") as tmp:
            child = await start_parlor(fake, tmp, CONFIG + extra_config)
            try:
                people = [(fake.add_user(f"p{i}", guild=guild), fake.add_channel(guild, f"t{i}"))
                          for i in range(count)]
                start = time.monotonic()
                opened = await asyncio.gather(*(open_table(fake, u, c, i / open_rate if open_rate else 0.0)
                                                for i, (u, c) in enumerate(people)),
                                              return_exceptions=True)
                open_s = time.monotonic() - start
                tables = [o for o in opened if isinstance(o, Opened)]
                why = Counter(f"{type(r).__name__}: {str(r)[:90]}" for r in opened if isinstance(r, BaseException))
                failed_clicks = sum(1 for r in fake.interactions if r.failed)
                first = len(fake.requests)
                t0, cpu0 = fake.now_ms(), child.cpu_seconds()
                global_before, refused_before = limits.refused_global, limits.refused
                await asyncio.sleep(seconds)
                t1, cpu1 = fake.now_ms(), child.cpu_seconds()
            finally:
                await child.stop()
        played_s = (t1 - t0) / 1000
        window = [r for r in fake.requests[first:] if not r.path.startswith(("/interactions/", "/webhooks/"))]
        token_edits = sum(1 for r in fake.requests[first:] if r.method == "PATCH" and r.path.startswith("/webhooks/"))
        per_second: dict[int, int] = {}
        for r in window:
            per_second[int(r.at_ms // 1000)] = per_second.get(int(r.at_ms // 1000), 0) + 1
        gaps = []
        for table in tables:
            times = [e.at_ms for e in fake.edits(table.thread_id, message=table.message_id)  # either route
                     if t0 <= e.at_ms <= t1]
            times = [t0, *times, t1]
            gaps.append(max(b - a for a, b in zip(times, times[1:], strict=False)) / 1000)
        return (f"{count:>5} tables: opened in {open_s:.1f} s ({count - len(tables)} failed, {failed_clicks} "
                f"failed interactions); {len(window) / played_s:.1f} requests/s (busiest second "
                f"{max(per_second.values(), default=0)}), {token_edits / played_s:.1f} edits/s through tokens; "
                f"429s: {limits.refused_global - global_before} global, "
                f"{limits.refused - refused_before - (limits.refused_global - global_before)} per route; "
                f"table behind: median {statistics.median(gaps) if gaps else 0:.1f} s, "
                f"worst {max(gaps, default=0):.1f} s; bot CPU {(cpu1 - cpu0) / played_s * 100:.0f}% of a core"
                + "".join(f"\n       failed opening x{n}: {reason}" for reason, n in why.most_common(3)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--open-rate", type=float, default=0.0,
                        help="tables opened per second (default 0: all at once)")
    parser.add_argument("--token-redraws", type=int, default=None,
                        help="tables.token_redraws_per_second for the bot (default: its default)")
    args = parser.parse_args()
    extra = "" if args.token_redraws is None else f"token_redraws_per_second = {args.token_redraws}\n"
    print(f"Busy Dutch Blitz tables (a person and 3 bots at normal speed), the bot in a child process, "
          f"Discord's rate limits, {args.seconds:.0f} s each")
    for count in args.tables:
        print(await one_run(count, args.seconds, args.open_rate, extra), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
