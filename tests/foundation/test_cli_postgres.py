"""The database commands against PostgreSQL: `parlor db copy` moves a SQLite history into a server, and
`migrate`, `replay`, `ratings rebuild` and `tournament export` given its URL (`--db`) read the same
things from it as from the file; a bad ``database.url`` exits 2 naming the key."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.foundation.test_cli import _store_played_game, run_parlor
from tests.foundation.test_cli_ratings import _all_ratings, _play_history


@pytest.mark.parametrize("url", ["mysql://db/parlor", "postgresql://:99999/x", "sqlite:", "http://x"])
def test_bad_database_url_exits_2_naming_the_key(tmp_path: Path, url: str) -> None:
    """A database.url that is neither a PostgreSQL URL nor a SQLite file stops `parlor` with status 2 and
    names the key, from the environment and from the file alike; nothing is created."""
    proc = run_parlor("migrate", env={"PARLOR_DATABASE_URL": url}, cwd=tmp_path)
    assert proc.returncode == 2 and "database.url" in proc.stderr and url in proc.stderr, proc.stderr
    config = tmp_path / "c.toml"
    config.write_text(f'[database]\nurl = "{url}"\n')
    proc = run_parlor("--config", str(config), "migrate", cwd=tmp_path)
    assert proc.returncode == 2 and "database.url" in proc.stderr, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]


def test_an_unreachable_server_exits_2_naming_the_key_without_the_password(tmp_path: Path) -> None:
    """A server that cannot be reached: status 2, the key named, the password not printed."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run_parlor("migrate", env={"PARLOR_DATABASE_URL": f"postgresql://u:s3cret@127.0.0.1:{port}/p"},
                      cwd=tmp_path)
    assert proc.returncode == 2 and "database.url" in proc.stderr, proc.stderr
    assert "s3cret" not in proc.stderr


async def _add_tournament(db: Path) -> int:
    async with Storage.open(db) as storage:
        tid = await storage.create_tournament(guild_id=1, channel_id=2, organizer_id=3, name="Cup", kind="blitz",
                                              format="swiss", options={}, settings={"rounds": 2}, seed=4)
        for user in (11, 12, 13):
            await storage.set_entrant(tid, user, f"player {user}", "checked_in")
        await storage.start_tournament(tid, {"rounds": 2})
        await storage.add_round(tid, 1, [["u11", "u12"], ["u13"]])
        await storage.finish_match(tid, 1, 0, {"places": {"u11": 1, "u12": 2}, "forfeits": [], "scores": {},
                                               "forced": False})
        await storage.finish_round(tid, 1)
        return tid


def test_db_copy_moves_a_sqlite_history_into_postgresql_and_every_command_reads_the_same(
        tmp_path: Path, pg_url: str) -> None:
    """Forty rated games, a played game and a tournament in SQLite; `parlor db copy` puts every row in an
    empty PostgreSQL database; replay, tournament export and ratings rebuild then print the same over
    `--db URL` as over the file; new ids follow the copied ones; a second copy is refused (status 1)."""
    db = tmp_path / "parlor.db"
    ratings, _ = asyncio.run(_play_history(db))
    game = _store_played_game(db, "blitz", [("p0", 1, None, "Ann"), ("p1", 2, None, "Bo")])
    tid = asyncio.run(_add_tournament(db))

    proc = run_parlor("db", "copy", str(db), pg_url, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "games: 41 row(s)" in proc.stdout and "actions:" in proc.stdout and "tournament_matches: 2" in proc.stdout

    for command in (("replay", str(game)), ("replay", str(game), "--player", "1"),
                    ("tournament", "export", str(tid)), ("tournament", "export", str(tid), "--matches"),
                    ("ratings", "rebuild")):
        from_file = run_parlor(*command, "--db", str(db), cwd=tmp_path)
        from_server = run_parlor(*command, "--db", pg_url, cwd=tmp_path)
        assert from_file.returncode == from_server.returncode == 0, from_server.stderr
        assert from_server.stdout == from_file.stdout and from_file.stdout.strip(), command

    async def after() -> tuple[dict[tuple[int, str, str], tuple[float, float, int, int]], int, int]:
        async with Storage.open(pg_url) as storage:
            new_game = await storage.create_game("dutch", seed=1)
            new_tid = await storage.create_tournament(guild_id=1, channel_id=2, organizer_id=3, name="Next",
                                                      kind="blitz", format="swiss", options={}, settings={}, seed=1)
            return await _all_ratings(storage), new_game, new_tid

    rebuilt, new_game, new_tid = asyncio.run(after())
    assert rebuilt == ratings, "the ratings rebuilt on the server are the ones rated into the file"
    assert (new_game, new_tid) == (game + 1, tid + 1), "the identity counters moved past the copied ids"

    proc = run_parlor("migrate", "--db", pg_url, cwd=tmp_path)
    assert proc.returncode == 0 and "schema version" in proc.stdout, proc.stderr
    again = run_parlor("db", "copy", str(db), pg_url, cwd=tmp_path)
    assert again.returncode == 1 and "already holds rows" in again.stderr, again.stderr
