"""Fixtures shared by the tournament tests: ``world`` (a storage, offline tables and a recording
tournament service, from ``test_service``), for the modules that do not define their own."""

from tests.tournaments.test_service import world  # noqa: F401 (a fixture, found by name)
