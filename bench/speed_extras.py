"""discord.py's ``speed`` extra and uvloop, each measured side by side with and without (issue #32, item 4).

Run (the extras installed: ``.venv/bin/pip install 'discord.py[speed]' uvloop``):
``PYTHONPATH=. .venv/bin/python bench/speed_extras.py [--rate 100] [--tables 50] [--seconds 10] [--rounds 2]``.

Two measurements:

1. **JSON** (what orjson replaces in discord.py: ``discord.utils._from_json`` / ``_to_json``): the gateway
   payloads a click brings (an INTERACTION_CREATE as the loopback Discord sends it) and the bodies
   the bot sends back (an interaction callback with a board), decoded/encoded by the standard
   library's :mod:`json` and by orjson; µs per payload, best of 5.
2. **Clicks** (``bench/click_latency.py``'s set-up and stopwatch): Parlor as ``python -m bot.cli run`` in a
   child process, ``--tables`` Dutch Blitz tables with two people and their boards open, clicked at
   ``--rate`` per second for ``--seconds``, in four variants taking turns (``--rounds`` times each, so
   all see the same machine): *plain* (the speed extra's modules hidden from the child: orjson,
   zstandard, aiodns, Brotli; the standard asyncio loop), *speed* (the extra), *uvloop* (uvloop's
   event loop policy), *both*. The variant is set by a ``sitecustomize`` module put first on the child's
   ``PYTHONPATH``, so the bot's code is the same in all four. Printed per variant: clicks, answered,
   failed, p50 / p99 / max (ms, at the wire, in the loopback Discord) and the bot's CPU ms per click.

The machine is shared (2 cores, other work): compare the variants of one run, never runs of two days.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import timeit
from pathlib import Path

from _children import child_env, host_cpu, spawn  # bench/, beside this file
from click_latency import Phase, drive, install_stopwatch, open_tables, percentile, world

from sandbox import FakeDiscord

VARIANTS = {
    "plain": {"PARLOR_BENCH_SPEED": "0", "PARLOR_BENCH_UVLOOP": "0"},
    "speed": {"PARLOR_BENCH_SPEED": "1", "PARLOR_BENCH_UVLOOP": "0"},
    "uvloop": {"PARLOR_BENCH_SPEED": "0", "PARLOR_BENCH_UVLOOP": "1"},
    "both": {"PARLOR_BENCH_SPEED": "1", "PARLOR_BENCH_UVLOOP": "1"},
}

SITECUSTOMIZE = '''\
import os, sys
if os.environ.get("PARLOR_BENCH_SPEED") == "0":
    for name in ("orjson", "zstandard", "aiodns", "brotli", "brotlicffi"):
        sys.modules[name] = None  # import fails: discord.py and aiohttp fall back to the standard library
if os.environ.get("PARLOR_BENCH_UVLOOP") == "1":
    import asyncio, uvloop
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
'''


def json_figures() -> list[str]:
    """µs per payload: json vs orjson, decoding a click's INTERACTION_CREATE and encoding a board's callback."""
    import orjson

    payload = {"op": 0, "t": "INTERACTION_CREATE", "s": 1234, "d": {
        "id": "1300000000000000001", "application_id": "1200000000000000000", "type": 3, "token": "x" * 160,
        "version": 1, "guild_id": "1100000000000000000", "channel_id": "1100000000000000001", "locale": "en-US",
        "member": {"user": {"id": "1000000000000000001", "username": "alice", "global_name": "Alice",
                            "discriminator": "0", "avatar": None}, "roles": [], "permissions": "2248473465835073",
                   "joined_at": "2026-01-01T00:00:00+00:00", "nick": None},
        "message": {"id": "1300000000000000000", "channel_id": "1100000000000000001", "content": "Your board " * 20,
                    "components": [{"type": 1, "components": [
                        {"type": 2, "style": 2, "label": f"Card {i}", "custom_id": f"parlor:db:1:{i}:abcdef"}
                        for i in range(5)]} for _ in range(5)], "flags": 64, "embeds": [], "attachments": []},
        "data": {"custom_id": "parlor:db:1:flip:abcdef", "component_type": 2}}}
    text = json.dumps(payload)
    answer = {"type": 7, "data": {"content": "Your board " * 40, "components": payload["d"]["message"]["components"],
                                  "allowed_mentions": {"parse": []}}}
    out = []
    for what, std, fast in (
            ("decode INTERACTION_CREATE", lambda: json.loads(text), lambda: orjson.loads(text)),
            ("encode a board's callback", lambda: json.dumps(answer, separators=(",", ":"), ensure_ascii=True),
             lambda: orjson.dumps(answer).decode()),
    ):
        a = min(timeit.repeat(std, number=2000, repeat=5)) / 2000 * 1e6
        b = min(timeit.repeat(fast, number=2000, repeat=5)) / 2000 * 1e6
        out.append(f"  {what:<28} json {a:6.1f} µs   orjson {b:6.1f} µs   ({a / b:.1f}x)")
    return out


async def one_variant(name: str, args: argparse.Namespace, custom: Path, rng: random.Random) -> Phase:
    """|coro| Start Parlor in *name*'s variant against a new loopback Discord, open the tables, click; its phase."""
    async with FakeDiscord() as fake:
        install_stopwatch(fake)
        places = world(fake, args.tables, 2)
        with tempfile.TemporaryDirectory(prefix="parlor-speed-") as tmp:
            config = Path(tmp) / "config.toml"
            config.write_text(f'[tables]\nidle_seconds = 3600\n[database]\npath = "{tmp}/p.db"\n')
            env = child_env(fake, **VARIANTS[name])
            env["PYTHONPATH"] = f"{custom}:{env['PYTHONPATH']}"
            sync = await spawn("parlor sync", ["-m", "bot.cli", "--config", str(config), "sync"], env, tmp)
            if await sync.proc.wait() != 0:
                raise RuntimeError("parlor sync failed:\n" + sync.tail())
            await sync.stop()
            child = await spawn("parlor run", ["-m", "bot.cli", "--config", str(config), "run"], env, tmp)
            try:
                await child.wait_line(r"ready as ", 60)
                clickers = await open_tables(fake, places, 0)
                await asyncio.sleep(1)
                return await drive(fake, clickers, child, args.rate, args.seconds, rng)
            finally:
                await child.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=100, help="clicks per second")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of clicking per variant and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; host busy {host_cpu()[0]:.0f} s so far")
    print("JSON (best of 5, 2,000 each):")
    for line in json_figures():
        print(line)
    rng = random.Random(1)
    phases = {name: Phase() for name in args.variants}
    with tempfile.TemporaryDirectory(prefix="parlor-sitecustomize-") as custom:
        (Path(custom) / "sitecustomize.py").write_text(SITECUSTOMIZE)
        for round_ in range(args.rounds):
            for name in args.variants if round_ % 2 == 0 else reversed(args.variants):
                t = time.monotonic()
                phases[name].add(await one_variant(name, args, Path(custom), rng))
                print(f"  round {round_ + 1} {name}: {time.monotonic() - t:.0f} s", flush=True)
    print(f"\nClicks: {args.tables} Dutch Blitz tables x 2 people, {args.rate:.0f} clicks/s, "
          f"{args.seconds:.0f} s x {args.rounds} rounds per variant")
    print(f"{'variant':<8} {'clicks':>6} {'answered':>8} {'failed':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'CPU ms/click':>12}")
    for name, phase in phases.items():
        lat = phase.latencies_ms()
        cpu = phase.cpu_s / phase.answered * 1000 if phase.answered else float("nan")
        print(f"{name:<8} {len(phase.results):>6} {phase.answered:>8} {phase.failed:>6} {percentile(lat, 0.5):>7.2f} "
              f"{percentile(lat, 0.99):>7.2f} {max(lat, default=float('nan')):>7.1f} {cpu:>12.2f}")


if __name__ == "__main__":
    asyncio.run(main())
