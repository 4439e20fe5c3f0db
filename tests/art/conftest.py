"""Fixtures of the art tests: the loopback Discord for the emoji sync."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sandbox import FakeDiscord


@pytest.fixture
def expected_errors() -> list[str]:
    """Regexes of loopback errors a test provokes on purpose (append to it in the test)."""
    return []


@pytest.fixture
async def fake(expected_errors: list[str]) -> AsyncIterator[FakeDiscord]:
    """The loopback Discord; at teardown it must have seen no error but those the test expects."""
    async with FakeDiscord() as server:
        yield server
        server.check_clean(*expected_errors)
