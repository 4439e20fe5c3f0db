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
