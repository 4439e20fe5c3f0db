"""What the benchmarks share: a bot in a child process, and the machine's CPU (not a benchmark itself).

``bench/click_latency.py`` and ``bench/restore.py`` run the bot under test as a child process
pointed at a loopback Discord, so the loopback's CPU stays out of the bot's figures. Imported by
the scripts from their own folder (``from _children import …``), so a "before" run with
``PYTHONPATH`` set to an older checkout still finds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from pathlib import Path

import bot
from sandbox import FakeDiscord

__all__ = ["ROOT", "CLK_TCK", "Child", "child_env", "spawn", "start_parlor", "host_cpu", "error_kinds"]

ROOT = Path(bot.__file__).resolve().parent.parent
"""The checkout whose ``bot`` package is imported (``PYTHONPATH`` decides: a before run names another)."""

CLK_TCK = os.sysconf("SC_CLK_TCK")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Child:
    """A bot in a child process: its output lines (kept draining), CPU time and memory from /proc.

    Times it reports are seconds after :attr:`started` (monotonic, just before the process was made).
    """

    def __init__(self, name: str, proc: asyncio.subprocess.Process, started: float) -> None:
        self.name = name
        self.proc = proc
        self.started = started
        self.lines: list[tuple[float, str]] = []
        self._seen = asyncio.Event()
        self._pumps = [asyncio.create_task(self._pump(s)) for s in (proc.stdout, proc.stderr) if s is not None]

    async def _pump(self, stream: asyncio.StreamReader) -> None:
        while True:
            raw = await stream.readline()
            if not raw:
                return
            self.lines.append((time.monotonic(), raw.decode(errors="replace").rstrip()))
            self._seen.set()

    def first(self, pattern: str) -> tuple[float, re.Match[str]] | None:
        """When (seconds after the start) the first line matching *pattern* was read, and the match."""
        regex = re.compile(pattern)
        for at, line in self.lines:
            match = regex.search(line)
            if match:
                return at - self.started, match
        return None

    async def wait_line(self, pattern: str, timeout: float) -> tuple[float, re.Match[str]]:
        """|coro| :meth:`first`, waiting for it up to *timeout* seconds.

        Raises ``RuntimeError`` if the child exits first, ``TimeoutError`` after *timeout*.
        """
        end = time.monotonic() + timeout
        while True:
            found = self.first(pattern)
            if found:
                return found
            if self.proc.returncode is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}):\n" + self.tail())
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no line matching {pattern!r} in {timeout} s:\n" + self.tail())
            self._seen.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._seen.wait(), min(left, 0.5))

    def tail(self, n: int = 20) -> str:
        """The last *n* output lines."""
        return "\n".join(line for _, line in self.lines[-n:])

    def errors(self, before: float) -> list[str]:
        """The ERROR log records read before *before* (monotonic), each with its exception's last line."""
        out: list[str] = []
        lines = [ANSI.sub("", line) for at, line in self.lines if at < before]
        for i, line in enumerate(lines):
            if " ERROR " in line:
                cause = next((x for x in lines[i + 1:i + 60] if x and not x.startswith((" ", "Traceback"))), "")
                out.append(f"{line.split(' ERROR ', 1)[1].strip()} -> {cause.strip()}")
        return out

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the child so far (``/proc/<pid>/stat``)."""
        with open(f"/proc/{self.proc.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def memory_mb(self, key: str = "VmRSS") -> float:
        """``/proc/<pid>/status`` *key* (VmRSS, VmHWM) in MB."""
        with open(f"/proc/{self.proc.pid}/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    async def stop(self, kill_after_s: float = 30) -> float:
        """|coro| SIGTERM (Parlor shuts down cleanly), SIGKILL after *kill_after_s* seconds; seconds it took."""
        t = time.monotonic()
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), kill_after_s)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        for pump in self._pumps:  # the pipes end with the process: the last lines are read
            with contextlib.suppress(asyncio.CancelledError):
                await pump
        return time.monotonic() - t


def child_env(fake: FakeDiscord, **extra: str) -> dict[str, str]:
    """The environment of a bot child: no Parlor or Discord settings of ours, pointed at *fake*, plus *extra*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "DISCORD_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY=fake.gateway_url, **extra)
    return env


async def spawn(name: str, args: list[str], env: dict[str, str], cwd: str) -> Child:
    """|coro| ``python *args*`` as a :class:`Child` named *name*, its output piped."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(sys.executable, *args, env=env, cwd=cwd,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    return Child(name, proc, started)


async def start_parlor(fake: FakeDiscord, tmp: str, config_text: str, profile: str | None = None) -> Child:
    """|coro| ``parlor sync`` then ``parlor run`` against *fake*, in children, with *config_text* as the
    configuration file and a database in *tmp*; returns the running one once it is ready.

    With *profile* (a file name) the bot runs under ``cProfile``, which writes its statistics there
    when the bot stops (SIGTERM: a clean shutdown).
    """
    config = Path(tmp) / "parlor.toml"
    config.write_text(config_text, encoding="utf-8")
    env = child_env(fake, PARLOR_DB=str(Path(tmp) / "parlor.db"))
    sync = await spawn("parlor sync", ["-m", "bot.cli", "--config", str(config), "sync"], env, tmp)
    if await sync.proc.wait() != 0:
        await asyncio.sleep(0.1)
        raise RuntimeError("parlor sync failed:\n" + sync.tail())
    await sync.stop()
    profiler = ["-m", "cProfile", "-o", str(Path(profile).resolve())] if profile else []
    child = await spawn("parlor run", [*profiler, "-m", "bot.cli", "--config", str(config), "run"], env, tmp)
    await child.wait_line(r"ready as ", 60)
    return child


def host_cpu() -> tuple[float, float]:
    """CPU seconds of the whole machine so far: (busy, all), from ``/proc/stat``."""
    with open("/proc/stat") as fh:
        ticks = [int(x) for x in fh.readline().split()[1:]]
    idle = ticks[3] + ticks[4]
    return (sum(ticks) - idle) / CLK_TCK, sum(ticks) / CLK_TCK


def error_kinds(errors: list[str]) -> str:
    """The errors a loopback Discord recorded, counted by kind (Discord's error code, or what happened)."""
    counts: dict[str, int] = {}
    for error in errors:
        code = re.search(r'"code": (\d+)', error)
        kind = (f"{error.split(' ', 1)[0]} code {code.group(1)}" if code
                else "no answer within the deadline" if "got no response" in error
                else "late first response" if error.startswith("late first response") else error[:60])
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} x {kind}" for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]))
