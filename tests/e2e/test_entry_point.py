"""The real `parlor run` process against the loopback Discord: overrides, login, clean shutdown."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from sandbox import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def test_parlor_run_connects_and_stops_cleanly_on_sigterm(fake: FakeDiscord, world, tmp_path: Path) -> None:
    """`parlor run` with DISCORD_API_BASE/DISCORD_GATEWAY logs in to the fake; SIGTERM ends it with status 0."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY=fake.gateway_url,
               PARLOR_DB=str(tmp_path / "run.db"), PYTHONPATH=str(ROOT))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "run", env=env, cwd=tmp_path,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        await fake.wait_for(lambda: fake.identify_count >= 1 and fake.connected, timeout=30,
                            what="parlor run to identify")
        proc.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, out.decode()
    assert (tmp_path / "run.db").exists()
    assert "SIGTERM" in out.decode()
