"""The stall in the first 100/s repetition: the independent bench's schedule, with Parlor's default
settings, and what the bot's event loop was doing when the slowest clicks waited (issue #32, item 6).

Run: ``PYTHONPATH=. .venv/bin/python bench/stall.py [--tables 50] [--rates 10 50 100 200 100 100 100]
[--seconds 20] [--gap 20]``.

The schedule of the bench that saw it: ``--tables`` Dutch Blitz tables × 2 people, boards open
(``bench/click_latency.py``'s people and its stopwatch at the wire), clicks at 10, 50, 100 and 200
per second for 20 s each, then three times 100/s. That bench gave the bare bot a turn after each of
Parlor's, so ``--gap`` seconds without clicks follow each phase (the bare bot's turn): the first
100/s repetition then starts about 3 min after the tables opened, as it did there. Unlike
``click_latency.py`` (``idle_seconds`` = 3600), Parlor runs with the defaults (``tables.idle_seconds``
180, warning 30 s before), as that bench's did.

The bot runs in a child process with a probe (a ``sitecustomize`` module on its ``PYTHONPATH``, bench
only, nothing in ``bot/``): every event-loop callback of ``--slow-ms`` or more is logged with the task it
ran (its coroutine's name) and every garbage collection of 10 ms or more with its generation. Per
phase the bench prints, besides p50 / p99 / max: the seconds since the tables opened, the loop's busy
milliseconds in slow callbacks by task (the top three), the collections, and the idle warnings and
bot takeovers the tables posted. Then it names the cause: what the loop was busy with in the second
before the slowest 1 % of the clicks of the worst phase.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from _children import ROOT, Child, error_kinds, start_parlor  # bench/, beside this file
from click_latency import _ANSWERED, _SENT, Phase, drive, install_stopwatch, open_tables, percentile, world

from sandbox import FakeDiscord

PROBE = r'''
import asyncio, gc, sys, time
_SLOW = float(__import__("os").environ.get("BENCH_SLOW_MS", "5"))
_run = asyncio.events.Handle._run
def _name(cb):
    owner = getattr(cb, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return getattr(coro, "__qualname__", repr(coro))
    return getattr(cb, "__qualname__", type(cb).__name__)
def _timed(self):
    t = time.perf_counter()
    _run(self)
    ms = (time.perf_counter() - t) * 1000
    if ms >= _SLOW:
        sys.stderr.write(f"BENCH-SLOW {time.time() * 1000 - ms:.0f} {ms:.1f} {_name(self._callback)}\n")
asyncio.events.Handle._run = _timed
sys.stderr.write("BENCH-PROBE loaded\n")
_gc = {}
def _watch(phase, info):
    if phase == "start":
        _gc["t"], _gc["cpu"] = time.perf_counter(), time.thread_time()
        if info["generation"] == 2:  # the first after start-up's two keeps what it frees, to count its kinds
            _gc["full"] = _gc.get("full", 0) + 1
            if _gc["full"] == 3 and __import__("os").environ.get("BENCH_CENSUS"):
                gc.set_debug(gc.DEBUG_SAVEALL)
    else:
        ms = (time.perf_counter() - _gc.get("t", time.perf_counter())) * 1000
        cpu = (time.thread_time() - _gc.get("cpu", time.thread_time())) * 1000
        if ms >= 10:
            sys.stderr.write(f"BENCH-GC {time.time() * 1000 - ms:.0f} {ms:.1f} gen{info['generation']}"
                             f"({cpu:.0f}_ms_CPU,{info['collected']}_freed)\n")
        if gc.get_debug() & gc.DEBUG_SAVEALL:  # what the full collection freed: the most numerous kinds
            import collections
            gc.set_debug(0)
            kinds = collections.Counter(type(o).__module__ + "." + type(o).__qualname__ for o in gc.garbage)
            gc.garbage.clear()
            sys.stderr.write(f"BENCH-HEAP {sum(kinds.values())} objects freed, {len(gc.get_objects(2))} kept: "
                             + ", ".join(f"{k} {n}" for k, n in kinds.most_common(14)) + "\n")
gc.callbacks.append(_watch)
def _waits():
    import aiosqlite.core, discord.http
    execute, request = aiosqlite.core.Connection._execute, discord.http.HTTPClient.request
    async def timed_execute(self, fn, *args, **kwargs):
        t = time.perf_counter()
        try:
            return await execute(self, fn, *args, **kwargs)
        finally:
            ms = (time.perf_counter() - t) * 1000
            if ms >= 20:
                name = getattr(fn, "__name__", "?")
                sys.stderr.write(f"BENCH-WAIT {time.time() * 1000 - ms:.0f} {ms:.1f} sqlite.{name}\n")
    async def timed_request(self, route, *args, **kwargs):
        t = time.perf_counter()
        try:
            return await request(self, route, *args, **kwargs)
        finally:
            ms = (time.perf_counter() - t) * 1000
            if ms >= 50:
                what = f"rest:{route.method}:{route.path}"
                sys.stderr.write(f"BENCH-WAIT {time.time() * 1000 - ms:.0f} {ms:.1f} {what}\n")
    aiosqlite.core.Connection._execute = timed_execute
    discord.http.HTTPClient.request = timed_request
_waits()
'''
SLOW = re.compile(r"BENCH-(SLOW|GC|WAIT) (\d+) ([\d.]+) (\S+)")


class Lag:
    """This process's event loop (the loopback Discord: the stopwatch) late by 50 ms or more: (epoch ms, ms)."""

    def __init__(self) -> None:
        self.late: list[tuple[float, float]] = []
        self.task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.01)
            late = (loop.time() - t - 0.01) * 1000
            if late >= 50:
                self.late.append((time.time() * 1000 - late, late))

    def within(self, start_ms: float, end_ms: float) -> str:
        hits = [ms for at, ms in self.late if start_ms <= at < end_ms]
        return f"{len(hits)} x, max {max(hits):.0f} ms" if hits else "-"


def probe_dir(tmp: str) -> str:
    """A directory holding the probe as ``sitecustomize.py`` (put first on the child's ``PYTHONPATH``)."""
    path = Path(tmp) / "probe"
    path.mkdir()
    (path / "sitecustomize.py").write_text(PROBE, encoding="utf-8")
    return str(path)


def slow_events(child: Child, start_ms: float, end_ms: float) -> list[tuple[float, float, str]]:
    """(epoch ms, ms, what) of the probe's lines for callbacks that began in [start_ms, end_ms)."""
    out = []
    for _, line in child.lines:
        m = SLOW.search(line)
        if m and start_ms <= float(m.group(2)) < end_ms:
            kind = {"GC": "gc ", "WAIT": "waited on "}.get(m.group(1), "")
            out.append((float(m.group(2)), float(m.group(3)), kind + m.group(4)))
    return out


def posted(fake: FakeDiscord, start_ms: float, end_ms: float) -> Counter[str]:
    """Idle warnings and bot takeovers the bot posted in [start_ms, end_ms)."""
    kinds: Counter[str] = Counter()
    for message in list(fake._messages.values()):
        if start_ms <= message.created_ms < end_ms and not message.ephemeral:
            if "no move for a while" in message.content:
                kinds["idle warnings"] += 1
            elif "A bot took over" in message.content:
                kinds["bot takeovers"] += 1
    return kinds


GC_INFO = re.compile(r"\((\d+)_ms_CPU,(\d+)_freed\)")


def name_cause(near: list[tuple[float, float, str]]) -> str:
    """What the slowest clicks waited for, in words: the longest thing the bot's loop ran or waited on then."""
    if not near:
        return "nothing the probe saw (the loopback Discord's own process, or the machine)"
    at, ms, what = max(near, key=lambda e: e[1])
    full = [e for e in near if e[2].startswith("gc gen2") and e[1] >= 0.8 * ms]
    if full:  # a collection runs inside some callback, which then lasts as long: the collection is the cause
        at, ms, what = max(full, key=lambda e: e[1])
    info = GC_INFO.search(what)
    if what.startswith("gc gen2") and info:
        return (f"a full garbage collection: {ms:.0f} ms ({info.group(1)} ms of CPU) freeing {info.group(2)} objects "
                f"at once, the clicks' discord.py objects in reference cycles (bot/client.py FULL_COLLECTION_AFTER)")
    if what.startswith("waited on sqlite"):
        return f"a database write waiting {ms:.0f} ms for the disk (the commit's fsync: a loaded machine)"
    if what.startswith("waited on rest"):
        return f"a REST request waiting {ms:.0f} ms ({what[10:]}: a rate limit)"
    return f"the bot's loop running {what} for {ms:.0f} ms"


def top(events: list[tuple[float, float, str]], n: int = 3, *, waits: bool = False) -> str:
    """The *n* kinds of *events* with the most milliseconds: the loop's busy callbacks and collections, or with
    *waits* what the bot waited on (a database call, a REST request)."""
    busy: Counter[str] = Counter()
    for _, ms, what in events:
        if what.startswith("waited on ") == waits:
            busy[what] += ms
    return ", ".join(f"{what} {ms:.0f} ms" for what, ms in busy.most_common(n)) or "-"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rates", type=float, nargs="+", default=[10, 50, 100, 200, 100, 100, 100])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--gap", type=float, default=20.0, help="seconds without clicks after each phase")
    parser.add_argument("--slow-ms", type=float, default=5.0, help="log loop callbacks at least this long")
    parser.add_argument("--config", default="", help="Parlor's configuration file text (default: the defaults)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--census", action="store_true",
                        help="count the kinds of objects the first full collection while clicking frees (that one then "
                             "frees them after its time is taken)")
    parser.add_argument("--trace", metavar="FILE",
                        help="write the probe's lines there (seconds after the tables opened)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="parlor-stall-") as tmp:
        os.environ["PYTHONPATH"] = os.pathsep.join([probe_dir(tmp), *filter(None, [os.environ.get("PYTHONPATH")])])
        os.environ["BENCH_SLOW_MS"] = str(args.slow_ms)
        if args.census:
            os.environ["BENCH_CENSUS"] = "1"
        async with FakeDiscord() as fake:
            install_stopwatch(fake)
            limits = fake.enforce_discord_rate_limits()
            places = world(fake, args.tables, 2)
            parlor = await start_parlor(fake, tmp, args.config.replace("\\n", "\n"))
            opened = time.time() * 1000
            lag: Lag | None = None
            try:
                people = await open_tables(fake, places, 0)
                lag = Lag()
                opened = time.time() * 1000
                print(f"Parlor at {ROOT}: {args.tables} Dutch Blitz tables x 2 people, boards open; config "
                      f"{args.config or '(defaults)'!r}; {os.cpu_count()} cores, load average "
                      f"{os.getloadavg()[0]:.1f}; loop callbacks >= {args.slow_ms:.0f} ms logged", flush=True)
                print(f"{'rate/s':>6} {'at s':>5} {'clicks':>6} {'failed':>6} {'p50 ms':>7} {'p99 ms':>7} "
                      f"{'max ms':>7} {'posted':<28} {'fake late':<16} bot: busy in slow callbacks | waited on (top 3)",
                      flush=True)
                worst: tuple[float, float, float, Phase] | None = None
                for rate in args.rates:
                    start = time.time() * 1000
                    phase = await drive(fake, people, parlor, rate, args.seconds, rng)
                    end = time.time() * 1000
                    lat = phase.latencies_ms()
                    p99 = percentile(lat, 0.99)
                    kinds = posted(fake, start, end)
                    events = slow_events(parlor, start, end)
                    print(f"{rate:>6.0f} {(start - opened) / 1000:>5.0f} {len(phase.results):>6} {phase.failed:>6} "
                          f"{percentile(lat, 0.5):>7.1f} {p99:>7.1f} {max(lat, default=float('nan')):>7.1f} "
                          f"{', '.join(f'{n} {k}' for k, n in kinds.items()) or '-':<28} {lag.within(start, end):<16} "
                          f"{top(events)} | {top(events, waits=True)}", flush=True)
                    if worst is None or p99 > worst[0]:
                        worst = (p99, start, end, phase)
                    await asyncio.sleep(args.gap)
                    kinds = posted(fake, end, time.time() * 1000)
                    if kinds:
                        print(f"{'gap':>6} {(end - opened) / 1000:>5.0f} {'':>6} {'':>6} {'':>7} {'':>7} {'':>7} "
                              f"{', '.join(f'{n} {k}' for k, n in kinds.items()):<28} "
                              f"{top(slow_events(parlor, end, time.time() * 1000))}", flush=True)
                assert worst is not None
                p99, start, end, phase = worst
                # the slowest 1 % of the worst phase's clicks, each at the epoch ms it was sent
                offset = time.time() * 1000 - time.perf_counter() * 1000
                slow = [(_SENT[r.id] * 1000 + offset, (_ANSWERED[r.id] - _SENT[r.id]) * 1000) for r in phase.results
                        if r.id in _SENT and r.id in _ANSWERED]
                slow = sorted(slow, key=lambda s: -s[1])[:max(1, len(slow) // 100)]
                near: list[tuple[float, float, str]] = []
                for ev in slow_events(parlor, start - 1000, end):
                    if any(at - 1000 <= ev[0] <= at + ms for at, ms in slow):
                        near.append(ev)
                near = list(dict.fromkeys(near))
                waits = [s[1] for s in slow]
                print(f"worst phase: p99 {p99:.1f} ms at {(start - opened) / 1000:.0f} s after the tables opened; its "
                      f"{len(slow)} slowest clicks waited {min(waits):.0f}-{max(waits):.0f} ms", flush=True)
                print(f"cause: in the second before and during them the bot's loop ran {top(near, 5)}; the bot "
                      f"waited on {top(near, 5, waits=True)}; the loopback Discord was late "
                      f"{lag.within(start - 1000, end)}", flush=True)
                print(f"named: {name_cause(near)}", flush=True)
                full = [(ms, GC_INFO.search(what)) for _, ms, what in slow_events(parlor, opened, float("inf"))
                        if what.startswith("gc gen2")]
                if full:
                    print(f"full garbage collections while clicking: {len(full)}, each {min(ms for ms, _ in full):.0f}-"
                          f"{max(ms for ms, _ in full):.0f} ms ("
                          + ", ".join(f"{m.group(1)} ms CPU freeing {m.group(2)} objects" for _, m in full if m)
                          + ")", flush=True)
                longest = sorted(near, key=lambda e: -e[1])[:5]
                print("longest callbacks then: " + "; ".join(f"{what} {ms:.0f} ms at {(at - opened) / 1000:.1f} s"
                                                             for at, ms, what in longest), flush=True)
                for _, line in parlor.lines:
                    if "BENCH-HEAP" in line:
                        print("a full collection: " + line.split("BENCH-HEAP ", 1)[1], flush=True)
                print(f"Parlor's 429s: {limits.refused}", flush=True)
                if fake.errors:
                    print(f"the loopback Discord recorded: {error_kinds(fake.errors)}", flush=True)
            finally:
                await parlor.stop()
                if args.trace:
                    with open(args.trace, "w", encoding="utf-8") as fh:
                        for at, ms, what in slow_events(parlor, 0, float("inf")):
                            fh.write(f"{(at - opened) / 1000:9.3f} {ms:8.1f} {what}\n")
                        for at, ms in lag.late if lag else []:
                            fh.write(f"{(at - opened) / 1000:9.3f} {ms:8.1f} loopback Discord late\n")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
