"""The parlor command line: exit statuses and messages, migrate, and the generic simulator."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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


def test_run_without_token_exits_2_at_once_and_says_how(tmp_path: Path) -> None:
    """`parlor run` with no token stops with status 2 before anything starts, naming DISCORD_TOKEN (no
    timed assertion: that nothing started, not even the database, is what proves it stopped at once)."""
    proc = run_parlor("run", env={"PARLOR_DB": str(tmp_path / "x.db")}, cwd=tmp_path)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "developers/applications" in proc.stderr
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
    import bot.engine as engine
    from tests.engine import sample_game

    # Fill both lazy registries before patching: REGISTRY is built from GAMES on first use, so
    # building it after the patch would take the sample game in for good (a later cog test then
    # sees a game no cog serves).
    assert "high-card" not in engine.REGISTRY
    monkeypatch.setitem(engine.GAMES, "high-card", sample_game.GAME)
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


def test_version_prints_the_package_version() -> None:
    """`parlor --version` prints the installed version and exits 0."""
    proc = run_parlor("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("parlor ")


def test_run_help_names_token_config_and_environment() -> None:
    """`parlor run --help` names the token, the config file and every environment variable."""
    proc = run_parlor("run", "--help")
    assert proc.returncode == 0
    for word in ("DISCORD_TOKEN", "PARLOR_CONFIG", "PARLOR_DB", "PARLOR_LOG_LEVEL", "DISCORD_API_BASE",
                 "DISCORD_GATEWAY", "--config", "parlor sync"):
        assert word in proc.stdout, word


def test_simulate_help_without_a_game_lists_the_games() -> None:
    """`parlor simulate --help` lists every game and exits 0; without anything it exits 2."""
    proc = run_parlor("simulate", "--help")
    assert proc.returncode == 0
    assert all(kind in proc.stdout for kind in ("dutch-blitz", "blitzkrieg", "dutch", "blitz"))
    assert run_parlor("simulate").returncode == 2


def test_simulate_option_help_says_meaning_values_and_default() -> None:
    """Per-game option help comes from the one declaration: meaning, allowed values, default."""
    proc = run_parlor("simulate", "dutch-blitz", "--help")
    text = " ".join(proc.stdout.split())
    assert proc.returncode == 0
    assert "--stuck-seconds" in text and "a whole number from 0 to 3600 (default 60)" in text
    assert "--max-hands" in text and "Hands after which the highest total wins" in text


def test_simulate_into_a_closed_pipe_ends_quietly() -> None:
    """`parlor simulate … | head -1` ends without a BrokenPipeError traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(f"{sys.executable} -m bot.cli simulate blitzkrieg --games 200 | head -1", shell=True,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.stdout.startswith("game") and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`parlor replay N | head -1` ends without a BrokenPipeError traceback (its telling is longer than a pipe
    buffer, so the reader is gone before it is written)."""
    import asyncio

    from bot.engine import REGISTRY, get_game
    from bot.engine.simulate import bot_classes_for, play_game
    from bot.storage import Storage

    kind = "dutch"
    record = play_game(REGISTRY[kind], ["p0", "p1"], seed=5, bot_classes=bot_classes_for(get_game(kind), "hard", 2))
    db = tmp_path / "p.db"

    async def store() -> int:
        async with Storage.open(db) as storage:
            game = await storage.create_game(kind, seed=5, guild_id=1)
            await storage.set_seats(game, [("p0", 1, None), ("p1", 2, None)])
            for seq, (player, action) in enumerate(record.engine.log()["actions"], start=1):
                await storage.append_action(game, seq, player, action)
            await storage.save_result(game, record.engine.result().to_json())
            return game

    game = asyncio.run(store())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    env.update(PYTHONPATH=str(ROOT), PARLOR_DB=str(db))
    full = run_parlor("replay", str(game), env={"PARLOR_DB": str(db)}, cwd=tmp_path)
    assert full.returncode == 0 and len(full.stdout.encode()) > 3 * 8192, "the telling must outlast the first write"
    proc = subprocess.run(f"{sys.executable} -m bot.cli replay {game} | head -1", shell=True,
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.stdout.startswith(f"{kind} game {game}") and "Traceback" not in proc.stderr
    assert "BrokenPipe" not in proc.stderr and proc.stderr == ""


def test_config_path_that_is_a_directory_is_reported_as_such(tmp_path: Path) -> None:
    """--config DIR exits 2 saying it is a directory."""
    proc = run_parlor("--config", str(tmp_path), "migrate", cwd=tmp_path)
    assert proc.returncode == 2 and "is a directory" in proc.stderr


@pytest.mark.parametrize(("db", "says"), [
    ("{tmp}", "is a directory"),
    ("{tmp}/missing/parlor.db", "does not exist"),
])
def test_unusable_database_paths_exit_2_with_the_message_only(tmp_path: Path, db: str, says: str) -> None:
    """A directory, or a file in a directory that does not exist: status 2, one message, no traceback."""
    path = db.format(tmp=tmp_path)
    proc = run_parlor("migrate", env={"PARLOR_DB": path}, cwd=tmp_path)
    assert proc.returncode == 2 and says in proc.stderr and "database.path" in proc.stderr
    assert "Traceback" not in proc.stderr and "Event loop is closed" not in proc.stderr
    assert not Path(path).parent.exists() or path == str(tmp_path) or Path(path).parent.is_dir()
    assert not (tmp_path / "missing").exists(), "no directory is created"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere (the next test covers root)")
def test_unwritable_database_directory_exits_2(tmp_path: Path) -> None:
    """A database in a directory this user cannot write: status 2 naming database.path."""
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    proc = run_parlor("migrate", env={"PARLOR_DB": str(locked / "p.db")}, cwd=tmp_path)
    assert proc.returncode == 2 and "not writable" in proc.stderr


def _access_by_owner_bits(path: str | os.PathLike[str], mode: int, *args: object, **kwargs: object) -> bool:
    """``os.access`` as an ordinary user who owns *path* sees it: only the owner's permission bits count
    (root's ``access`` ignores them). A path that does not exist is not accessible."""
    try:
        bits = (os.stat(path).st_mode >> 6) & 0o7
    except OSError:
        return False
    return all(not mode & want or bits & have for want, have in ((os.R_OK, 4), (os.W_OK, 2), (os.X_OK, 1)))


@pytest.mark.parametrize("case", ["read-only directory", "read-only file"])
def test_unwritable_database_exits_2_with_the_message_only_even_as_root(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`parlor migrate` with a database path this user may not write exits 2 with one message naming
    database.path, writes nothing and prints no traceback. It runs as root too (this machine and CI):
    ``os.access`` is made to judge by the owner's permission bits, as it does for everyone but root."""
    monkeypatch.setattr(os, "access", _access_by_owner_bits)
    for key in [k for k in os.environ if k.startswith(("DISCORD_", "PARLOR_"))]:
        monkeypatch.delenv(key)
    locked = tmp_path / "locked"
    locked.mkdir()
    db = locked / "p.db"
    if case == "read-only file":
        db.write_bytes(b"")
        db.chmod(0o444)
    locked.chmod(0o555)
    monkeypatch.setenv("PARLOR_DB", str(db))
    try:
        assert cli.main(["migrate"]) == 2
    finally:
        locked.chmod(0o755)
    err = capsys.readouterr().err
    assert err.startswith("parlor: configuration error:") and "database.path" in err, err
    assert ("not writable" if case == "read-only directory" else "not readable and writable") in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert db.stat().st_size == 0 if db.exists() else case == "read-only directory", "nothing is written"


def test_unreachable_api_base_exits_2_with_one_line(tmp_path: Path) -> None:
    """`parlor run` against a closed local port: status 2 and one line naming DISCORD_API_BASE."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = run_parlor("run", env={"DISCORD_TOKEN": "x", "PARLOR_DB": str(tmp_path / "p.db"),
                                  "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
                                  "DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway"}, cwd=tmp_path)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("parlor:")]
    assert proc.returncode == 2 and len(errors) == 1 and "DISCORD_API_BASE" in errors[0]
    assert "Traceback" not in proc.stderr


def test_simulate_verbose_tells_each_game_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """`parlor simulate blitz --verbose` prints a numbered play-by-play in words before each game's line."""
    assert cli.main(["simulate", "blitz", "--games", "1", "--players", "2", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "--- game 1 (seed 1) ---" in out and "deals;" in out and "   1. seat" in out
    assert out.index("--- game 1") < out.index("game    1 seed 1:")


def _closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_parlor_async(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """`parlor ARGS` in its own process without blocking the event loop (the loopback Discord serves on it)."""
    import asyncio

    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PARLOR_"))}
    full.update(env, PYTHONPATH=str(ROOT))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", *args, env=full, cwd=cwd,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _said(stderr: str) -> list[str]:
    """The lines Parlor itself wrote to stderr (not the libraries' log lines)."""
    return [line for line in stderr.splitlines() if line.startswith("parlor")]


def test_sync_with_discord_unreachable_exits_1_with_one_line(tmp_path: Path) -> None:
    """`parlor sync` against a closed local port: status 1 and one line saying it cannot reach Discord at
    that address; no traceback."""
    port = _closed_port()
    base = f"http://127.0.0.1:{port}/api/v10"
    proc = run_parlor("sync", "--guild", "42", env={"DISCORD_TOKEN": "x", "PARLOR_DB": str(tmp_path / "p.db"),
                                                    "DISCORD_API_BASE": base,
                                                    "DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway"},
                      cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    said = _said(proc.stderr)
    assert len(said) == 1 and said[0].startswith("parlor sync: cannot reach Discord at " + base), proc.stderr
    assert "Traceback" not in proc.stderr


async def test_sync_with_a_refused_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """The loopback Discord refuses the token: status 2 and one line naming DISCORD_TOKEN; no traceback (as
    `parlor run` says it)."""
    from sandbox import FakeDiscord

    async with FakeDiscord() as fake:
        status, out, err = await run_parlor_async(
            "sync", env={"DISCORD_TOKEN": "not-the-token", "PARLOR_DB": str(tmp_path / "p.db"),
                         "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY": fake.gateway_url}, cwd=tmp_path)
        fake.check_clean("401")
    assert status == 2, err
    said = _said(err)
    assert len(said) == 1 and "DISCORD_TOKEN" in said[0] and "rejected the token" in said[0], err
    assert "Traceback" not in err and "synced" not in out


async def test_sync_refused_by_the_guild_exits_2_with_one_line(tmp_path: Path) -> None:
    """Discord refuses the guild's commands (403 Missing Access: the bot is not in that server): status 2 and
    one line naming the guild, the refusal and what to check; no traceback."""
    from sandbox import FakeDiscord

    async with FakeDiscord() as fake:
        fake.fail_route("PUT", r"/applications/\d+/guilds/\d+/commands", status=403, code=50001,
                        message="Missing Access")
        status, out, err = await run_parlor_async(
            "sync", "--guild", "4242", env={"DISCORD_TOKEN": fake.token, "PARLOR_DB": str(tmp_path / "p.db"),
                                            "DISCORD_API_BASE": fake.api_base,
                                            "DISCORD_GATEWAY": fake.gateway_url}, cwd=tmp_path)
        fake.check_clean("50001")
    assert status == 2, err
    said = _said(err)
    assert len(said) == 1 and "4242" in said[0] and "Missing Access" in said[0], err
    assert "applications.commands" in said[0] and "Traceback" not in err and "synced" not in out


def test_sync_help_says_the_exit_statuses() -> None:
    """`parlor sync --help` says which exit status means what."""
    proc = run_parlor("sync", "--help")
    text = " ".join(proc.stdout.split())
    assert proc.returncode == 0
    assert "Exit status" in text and "DISCORD_TOKEN" in text, text
    assert "1 Discord cannot be reached" in text and "2 the token or the configuration is bad" in text, text


def _store_played_game(db: Path, kind: str, seats: list[tuple[str, int | None, str | None, str | None]],
                       seed: int = 5) -> int:
    """A whole bot-played game of *kind* stored in *db* as a finished table stores it (its seats as given:
    ``(player id, user id, bot name, display name)``); returns its id."""
    import asyncio

    from bot.engine import REGISTRY, get_game
    from bot.engine.simulate import bot_classes_for, play_game
    from bot.storage import Storage

    players = [s[0] for s in seats]
    record = play_game(REGISTRY[kind], players, seed=seed,
                       bot_classes=bot_classes_for(get_game(kind), None, len(players)))

    async def store() -> int:
        async with Storage.open(db) as storage:
            game = await storage.create_game(kind, seed=seed, guild_id=1, options=record.engine.log()["options"])
            await storage.set_seats(game, seats)
            for seq, (player, action) in enumerate(record.engine.log()["actions"], start=1):
                await storage.append_action(game, seq, player, action)
            await storage.save_result(game, record.engine.result().to_json())
            return game

    return asyncio.run(store())


def test_replay_reads_the_database_given_with_db(tmp_path: Path) -> None:
    """`parlor replay N --db PATH` reads PATH, whatever PARLOR_DB says."""
    db = tmp_path / "elsewhere.db"
    game = _store_played_game(db, "blitz", [("p0", 1, None, "Ann"), ("p1", 2, None, "Bo")])
    proc = run_parlor("replay", str(game), "--db", str(db), env={"PARLOR_DB": str(tmp_path / "other.db")},
                      cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"blitz game {game}") and "deals" in proc.stdout
    assert not (tmp_path / "other.db").exists() and not (tmp_path / "parlor.db").exists()


@pytest.mark.parametrize("command", [("replay", "1"), ("tournament", "export", "1"), ("ratings", "rebuild")])
@pytest.mark.parametrize("given", ["default", "PARLOR_DB", "--db"])
def test_a_missing_database_exits_2_with_one_line_and_creates_nothing(tmp_path: Path, command: tuple[str, ...],
                                                                      given: str) -> None:
    """`parlor replay`, `tournament export` and `ratings rebuild` read an existing database: with none at the
    path (the default ./parlor.db, PARLOR_DB or --db) they exit 2 with one line naming the path and where it
    came from, and create no file."""
    missing = tmp_path / "missing.db"
    env = {"PARLOR_DB": str(missing)} if given == "PARLOR_DB" else {}
    args = [*command, "--db", str(missing)] if given == "--db" else list(command)
    proc = run_parlor(*args, env=env, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    said = proc.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"parlor {command[0]}:") and "no database" in said[0], proc.stderr
    assert ("parlor.db" if given == "default" else str(missing)) in said[0]
    assert given in said[0] if given != "default" else "default" in said[0]
    assert list(tmp_path.iterdir()) == [], "nothing is created"


@pytest.mark.parametrize("command", [("replay",), ("tournament",), ("ratings",)])
def test_database_commands_help_names_db_parlor_db_and_the_default(command: tuple[str, ...]) -> None:
    """`--help` of the commands that read the database names --db, PARLOR_DB and the default ./parlor.db."""
    proc = run_parlor(*command, "--help")
    text = " ".join(proc.stdout.split())
    assert proc.returncode == 0
    assert "--db PATH" in text and "PARLOR_DB" in text and "./parlor.db" in text, text


@pytest.mark.parametrize("kind", ["blitzkrieg", "blitz"])
def test_replay_names_the_players_never_their_ids(kind: str, tmp_path: Path) -> None:
    """`parlor replay` names each seat by the name it had at the table (as typed, not escaped), and a seat
    stored without a name as "Seat N"; no player id and no mention appears, in Blitzkrieg's battle lines too.
    `--player` tells it as that player saw it, naming them."""
    alice, bob = 1575919088788570120, 1575919088788570121
    db = tmp_path / "p.db"
    game = _store_played_game(db, kind, [(f"u{alice}", alice, None, "ali\\_ce"), (f"u{bob}", bob, None, None)])
    proc = run_parlor("replay", str(game), "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "ali_ce" in text and "Seat 2" in text, text[:800]
    assert "<@" not in text and not re.search(r"\bu\d{5,}", text), text[:800]
    mine = run_parlor("replay", str(game), "--db", str(db), "--player", "1", cwd=tmp_path)
    assert mine.returncode == 0 and mine.stdout.startswith(f"{kind} game {game} (finished), seen by ali_ce:")
    assert "<@" not in mine.stdout and not re.search(r"\bu\d{5,}", mine.stdout)


def test_simulate_summary_means_averages_and_numbers_seats_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    """`parlor simulate dutch`: a figure that is a mean per game (avg_final_hand, as Dutch's figures declare)
    is summarized as its mean over the games, never a total; a count has both. Seats are numbered from 1:
    each game's winning seats, the wins per seat, the players' names in the scores, in JSON and in text."""
    assert cli.main(["simulate", "dutch", "--players", "3", "--games", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games, summary = lines[:-1], lines[-1]["summary"]
    hands = [g["avg_final_hand"] for g in games]
    assert summary["figures"]["avg_final_hand"] == {"mean": round(sum(hands) / 3, 3)}
    assert summary["figures"]["rounds"]["total"] == sum(g["rounds"] for g in games)
    assert list(summary["wins_per_seat"]) == ["1", "2", "3"]
    assert all(1 <= seat <= 3 for g in games for seat in g["winning_seats"]) and games[0]["winning_seats"]
    assert all(sorted(g["scores"]) == ["seat1", "seat2", "seat3"] for g in games)
    assert cli.main(["simulate", "dutch", "--players", "3", "--games", "3"]) == 0
    text = capsys.readouterr().out
    assert "avg_final_hand: mean " in text and "avg_final_hand: total" not in text, text
    assert "rounds: total " in text and "wins per seat: seat 1: " in text and "seat 0" not in text, text
    winners = re.findall(r"winner seat\(s\) \[([\d, ]+)\]", text)
    assert len(winners) == 3 and all(1 <= int(s) <= 3 for w in winners for s in w.split(",")), text


def test_simulate_verbose_numbers_seats_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    """`parlor simulate blitzkrieg --verbose` tells the war with seats 1 and 2, never a seat 0."""
    assert cli.main(["simulate", "blitzkrieg", "--games", "1", "--max-battles", "5", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "seat1 turns " in out and "seat2 turns " in out and "seat0" not in out, out[:500]
