"""Test-wide set-up.

Hypothesis is imported here, at collection, on purpose: its pytest plugin imports it lazily in the
terminal summary otherwise, and on CPython 3.11.7 parsing it that late under pytest's assertion
rewriting can fail with "AST constructor recursion depth mismatch".

Hypothesis's ``ci`` profile is loaded when the environment variable ``CI`` is set (CI runs with
``CI=true``; CONTRIBUTING.md): every property test then draws the same examples on every run
(``derandomize``), so CI never fails on an example a local run did not meet, and no example has a
deadline, so a slow or loaded machine fails no test for its speed. Registered here rather than left
to Hypothesis (recent versions have a ``ci`` profile of their own) so that every version the project
allows behaves the same.
"""

import os

import hypothesis
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

__all__ = ["hypothesis"]


# ---------------------------------------------------------------- PostgreSQL (tests/pg_server.py)

from collections.abc import AsyncIterator, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from tests.pg_server import new_database, postgres_server  # noqa: E402


@pytest.fixture(scope="session")
def postgres_base() -> Iterator[str | None]:
    """One real PostgreSQL server for the whole run, started on first use: its base URL, or ``None``
    (with the reason kept in :data:`POSTGRES_MISSING`) when it cannot be started."""
    try:
        with postgres_server() as base:
            yield base
    except RuntimeError as exc:
        POSTGRES_MISSING.append(str(exc))
        yield None


POSTGRES_MISSING: list[str] = []


async def new_postgres_database(base: str) -> str:
    """A new, empty database on the test server; returns its URL."""
    return await new_database(base)


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database for one test, on each backend in turn: a SQLite file's path, then the URL of
    a new database on the session's PostgreSQL server (skipped, with the reason, without one)."""
    if request.param == "sqlite":
        yield str(tmp_path / "parlor.db")
        return
    base = request.getfixturevalue("postgres_base")
    if base is None:
        pytest.skip(f"PostgreSQL tests skipped: {POSTGRES_MISSING[0]}")
    yield await new_postgres_database(base)


@pytest.fixture
async def pg_url(postgres_base: str | None) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server (skipped, with the reason, without one)."""
    if postgres_base is None:
        pytest.skip(f"PostgreSQL tests skipped: {POSTGRES_MISSING[0]}")
    return await new_postgres_database(postgres_base)
