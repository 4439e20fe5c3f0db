"""Message text within Discord's limits (``docs/tables.md``, "Robustness"); no Discord import."""

from __future__ import annotations

__all__ = ["CONTENT_MAX", "fit_text"]


CONTENT_MAX = 2000
"""Discord's limit on a message's content, in characters."""


def fit_text(text: str, limit: int = CONTENT_MAX) -> str:
    r"""*text* within Discord's *limit* (characters), shortened by whole lines, never cut mid-word.

    Lines are dropped from the middle (the head says what the table is; the tail holds standings
    and what to do next) and replaced by one line saying how many were left out. A single line
    longer than the limit ends in an ellipsis at a word boundary.

    >>> fit_text("a\nb\nc", 100)
    'a\nb\nc'
    >>> fit_text("\n".join(f"line {i}" for i in range(10)), 40)
    'line 0\n… 8 lines left out …\nline 9'
    """
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    head, tail = lines[: len(lines) // 2], lines[len(lines) // 2:]
    while head or tail:
        if len(head) >= len(tail) and head:
            head.pop()
        elif tail:
            tail.pop(0)
        dropped = len(lines) - len(head) - len(tail)
        candidate = "\n".join([*head, f"… {dropped} lines left out …", *tail])
        if len(candidate) <= limit:
            return candidate
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"
