"""Test-wide set-up.

Hypothesis is imported here, at collection, on purpose: its pytest plugin imports it lazily in the
terminal summary otherwise, and on CPython 3.11.7 parsing it that late under pytest's assertion
rewriting can fail with "AST constructor recursion depth mismatch".
"""

import hypothesis  # noqa: F401
