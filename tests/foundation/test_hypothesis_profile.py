"""Hypothesis in CI (tests/conftest.py, CONTRIBUTING.md): derandomized, with no deadline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import tests.conftest; from hypothesis import settings; d = settings.default; "
         "print(d.derandomize, d.deadline, d.database)")


def _settings_with(ci: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120, check=True)
    return out.stdout.strip()


def test_with_ci_set_every_property_test_is_derandomized_and_has_no_deadline() -> None:
    assert _settings_with("true") == "True None None"


def test_without_ci_hypothesis_keeps_its_defaults() -> None:
    derandomize, deadline, _ = _settings_with(None).split(" ", 2)
    assert derandomize == "False" and deadline != "None"

