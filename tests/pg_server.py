"""A real PostgreSQL server for the tests: ``initdb`` into a temporary directory, a free port, ``pg_ctl``.

Run as root (CI), the server runs as an unprivileged user (PostgreSQL refuses root): the user named
by ``PARLOR_PG_USER``, else ``nobody``, through ``runuser``. The binaries are looked up on ``PATH``,
then in ``/usr/lib/postgresql/<version>/bin`` (Debian's place). :func:`find_binaries` says why when
they are missing, so the tests that need the server are skipped with that reason, never silently.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SUPERUSER = "parlor"


def find_binaries() -> tuple[Path | None, str]:
    """The directory holding ``initdb`` and ``pg_ctl``, or ``None`` and the reason it was not found."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent, ""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate), ""
    return None, ("PostgreSQL's initdb/pg_ctl were not found on PATH nor in /usr/lib/postgresql/*/bin "
                  "(install the `postgresql` package; .ci/run does)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_server(*, durable: bool = False) -> Iterator[str]:
    """Start a throwaway server; yield its base URL (``postgresql://parlor@127.0.0.1:<port>``); stop it
    and remove its files at the end. *durable*: flush commits to disk as a production server does
    (benchmarks); otherwise ``fsync`` is off, which tests never notice and which keeps them fast.

    Raises
    ------
    RuntimeError
        The binaries are missing or the server did not start (with its log).
    """
    bindir, why = find_binaries()
    if bindir is None:
        raise RuntimeError(why)
    prefix: list[str] = []
    owner: tuple[int, int] | None = None
    if os.geteuid() == 0:
        name = os.environ.get("PARLOR_PG_USER", "nobody")
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            raise RuntimeError(f"running as root, and there is no user {name!r} to run PostgreSQL as "
                               "(set PARLOR_PG_USER)") from None
        owner = (entry.pw_uid, entry.pw_gid)
        prefix = ["runuser", "-u", name, "--"]
    root = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
    data, log = root / "data", root / "server.log"
    if owner is not None:
        os.chown(root, *owner)
        os.chmod(root, 0o700)
    port = _free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    try:
        try:
            run(str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                "--no-instructions", "--no-sync")
        except (subprocess.CalledProcessError, OSError) as exc:
            output = getattr(exc, "stdout", b"") or b""
            raise RuntimeError(f"initdb failed: {exc} {output.decode(errors='replace')}") from exc
        # fsync off: a test server never outlives a crash, and CREATE DATABASE per test stays fast.
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c full_page_writes=off"
        try:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60", "start")
        except subprocess.CalledProcessError as exc:
            why = log.read_text(errors="replace") if log.exists() else exc
            raise RuntimeError(f"PostgreSQL did not start: {why}") from exc
        try:
            yield f"postgresql://{SUPERUSER}@127.0.0.1:{port}"
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):
                run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)


_databases = itertools.count(1)


async def new_database(base: str, prefix: str = "t") -> str:
    """|coro| A new, empty database on the server at *base* (a ``postgresql://`` URL without a
    database), named *prefix* and a number; returns its URL."""
    import asyncpg

    name = f"{prefix}{next(_databases)}"
    conn = await asyncpg.connect(f"{base}/postgres")
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return f"{base}/{name}"
