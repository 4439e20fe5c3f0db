"""The Docker image pins its dependencies and checks its health; the package leaves the tooling out."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def test_lock_file_pins_every_runtime_dependency() -> None:
    """requirements.lock pins (==) each runtime dependency of pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[_name(name)] = version
    for requirement in project["dependencies"]:
        assert _name(requirement) in pins, f"{requirement} is not pinned in requirements.lock"


def test_dockerfile_installs_with_the_lock_and_has_a_health_check() -> None:
    """The image installs under the constraints, copies no tooling and runs `parlor health` as its HEALTHCHECK."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "--constraint requirements.lock" in dockerfile
    assert re.search(r'^HEALTHCHECK .*CMD \["parlor", "health"\]', dockerfile, re.M)
    assert "PARLOR_HEARTBEAT_FILE" in dockerfile
    assert not re.search(r"^COPY .*(sandbox|tests)", dockerfile, re.M)


def test_the_installed_package_leaves_out_the_sandbox_and_tests() -> None:
    """Only bot* and cogs* are packaged: the loopback Discord is not installed with Parlor."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["packages"]["find"]["include"] == ["bot*", "cogs*"]


def test_compose_runs_postgresql_and_one_process_per_shard_with_health_checks() -> None:
    """compose.yaml: a PostgreSQL service with a health check the bots wait for, and shard processes whose
    PARLOR_SHARD_IDS cover 0 … PARLOR_SHARD_COUNT-1 once each, all over one database.url, each checked
    by `parlor health`."""
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  postgres:\n(    .*\n)*    healthcheck:\n      test: .*pg_isready", text, re.M)
    assert "condition: service_healthy" in text and 'test: ["CMD", "parlor", "health"]' in text
    [count] = re.findall(r'PARLOR_SHARD_COUNT: "(\d+)"', text)
    ids = sorted(int(i) for i in re.findall(r'PARLOR_SHARD_IDS: "(\d+)"', text))
    assert ids == list(range(int(count))) and len(ids) >= 2
    assert re.search(r"PARLOR_DATABASE_URL: postgresql://.+@postgres:5432/", text)
