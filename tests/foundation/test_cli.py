"""The parlor command line: exit statuses and messages, migrate, and the generic simulator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import cli

ROOT = Path(__file__).resolve().parents[2]


def run_parlor(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    base["PYTHONPATH"] = str(ROOT)
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=base,
                          cwd=cwd, timeout=60)


def test_run_without_token_exits_2_fast_and_says_how(tmp_path: Path) -> None:
    """`parlor run` with no token stops with status 2 within seconds, naming DISCORD_TOKEN."""
    start = time.monotonic()
    proc = run_parlor("run", env={"PARLOR_DB": str(tmp_path / "x.db")}, cwd=tmp_path)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "developers/applications" in proc.stderr
    assert time.monotonic() - start < 30
    assert not (tmp_path / "x.db").exists(), "nothing may start before the configuration is valid"


def test_bad_config_value_exits_2_naming_the_key(tmp_path: Path) -> None:
    """An invalid value in the file stops the bot with status 2 and names the key."""
    bad = tmp_path / "c.toml"
    bad.write_text("[tables]\nrace_window_ms = 99999\n")
    proc = run_parlor("--config", str(bad), "run", env={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert proc.returncode == 2
    assert "tables.race_window_ms" in proc.stderr and "99999" in proc.stderr


def test_unknown_command_exits_2() -> None:
    """A wrong subcommand is an argument error (status 2)."""
    assert run_parlor("dance").returncode == 2


def test_sync_guild_must_be_a_snowflake() -> None:
    """`parlor sync --guild abc` is refused with status 2."""
    proc = run_parlor("sync", "--guild", "abc")
    assert proc.returncode == 2 and "snowflake" in proc.stderr


def test_migrate_creates_the_database(tmp_path: Path) -> None:
    """`parlor migrate` creates the file and reports the schema version."""
    db = tmp_path / "p.db"
    proc = run_parlor("migrate", env={"PARLOR_DB": str(db)}, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert db.exists() and "schema version" in proc.stdout


def test_simulate_unknown_game_exits_2() -> None:
    """`parlor simulate chess` lists the known games and exits 2."""
    proc = run_parlor("simulate", "chess")
    assert proc.returncode == 2 and "unknown game" in proc.stderr


@pytest.fixture
def sample_registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only sample game for the simulator."""
    import types

    import bot.engine as engine
    from tests.engine import sample_game

    module = types.SimpleNamespace(ENGINE=sample_game.HighCard, BOTS=sample_game.BOTS,
                                   figures=lambda e, events: {"tricks": e.tricks_done})
    monkeypatch.setitem(engine._MODULES, "high-card", module)
    monkeypatch.setitem(engine.REGISTRY, "high-card", sample_game.HighCard)
    return "high-card"


def test_simulate_prints_figures_and_writes_replayable_logs(sample_registered: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The generic simulator plays games, prints per-game JSON and totals, and writes logs replay accepts."""
    from tests.engine.sample_game import HighCard

    replay = tmp_path / "games.jsonl"
    status = cli.main(["simulate", sample_registered, "--players", "3", "--games", "4", "--seed", "5",
                       "--tricks", "2", "--json", "--replay", str(replay)])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, summary = lines[:-1], lines[-1]["summary"]
    assert [g["seed"] for g in games] == [5, 6, 7, 8]
    assert all(g["tricks"] == 2 for g in games)
    assert summary["games"] == 4 and summary["options"] == {"tricks": 2}
    assert sum(summary["wins_per_seat"].values()) >= 4
    logs = [json.loads(line) for line in replay.read_text().splitlines()]
    assert len(logs) == 4 and HighCard.replay(logs[0]).is_over


def test_simulate_same_seed_same_games(sample_registered: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs with one seed print the same games."""
    cli.main(["simulate", sample_registered, "--games", "3", "--json"])
    first = capsys.readouterr().out
    cli.main(["simulate", sample_registered, "--games", "3", "--json"])
    assert capsys.readouterr().out == first


def test_simulate_bad_option_exits_2(sample_registered: str) -> None:
    """A game option outside its range is an argument error naming it."""
    with pytest.raises(SystemExit) as info:
        cli.main(["simulate", sample_registered, "--tricks", "99"])
    assert info.value.code == 2


def test_registry_lists_every_game_whatever_is_imported_first() -> None:
    """Importing a game package before bot.engine still registers every landed game."""
    code = ("import bot.games.blitzkrieg, bot.engine, pkgutil, bot.games; "
            "pkgs = sorted(m.name for m in pkgutil.iter_modules(bot.games.__path__) if m.ispkg); "
            "print(len(bot.engine.REGISTRY), len(pkgs))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    registered, packages = out.stdout.split()
    assert registered == packages and int(registered) >= 1, out.stderr


def test_unusable_database_path_exits_2_naming_the_key(tmp_path: Path) -> None:
    """A database path that cannot be opened stops `parlor migrate` with status 2 naming database.path."""
    proc = run_parlor("migrate", env={"PARLOR_DB": "/dev/null/x.db"}, cwd=tmp_path)
    assert proc.returncode == 2 and "database.path" in proc.stderr and "Traceback" not in proc.stderr


def test_section_that_is_not_a_table_exits_2(tmp_path: Path) -> None:
    """`discord = 5` is refused with status 2, even with DISCORD_TOKEN set."""
    bad = tmp_path / "c.toml"
    bad.write_text("discord = 5\n")
    proc = run_parlor("--config", str(bad), "run", env={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert proc.returncode == 2 and "expected a table [discord]" in proc.stderr
