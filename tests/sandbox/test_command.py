"""``python -m sandbox`` itself: the one-command try-out, run as a user runs it, with typed lines on stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ending", ["quit\n", ""], ids=["quit", "end-of-input"])
def test_python_m_sandbox_opens_a_table_and_shows_its_lobby(tmp_path: Path, ending: str) -> None:
    """Started with piped stdin, the sandbox runs the bot, opens a Dutch Blitz table, lists the channels,
    shows the table's lobby in its thread, and exits 0 at `quit` or at the end of input."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    env["PYTHONPATH"] = str(ROOT)
    typed = "/dutch-blitz new\nchannels\nchannel Dutch Blitz #1\nshow\n" + ending
    proc = subprocess.run([sys.executable, "-m", "sandbox"], input=typed, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert out.startswith("Parlor is running against the loopback Discord.")
    assert "Dutch Blitz table #1 is open" in out
    assert "#Dutch Blitz #1 (thread)" in out
    lobby = out[out.index("alice@#Dutch Blitz #1> "):]
    assert "**Dutch Blitz** — table #1 · Waiting for players" in lobby and "1. alice — host" in lobby
    assert "[Join](blue)" in lobby and "[Start](green)" in lobby
    assert out.endswith("alice@#Dutch Blitz #1> "), "the prompt is the last thing printed: it exits at once"
    assert list(tmp_path.iterdir()) == [], "the sandbox leaves no database behind without --db"
