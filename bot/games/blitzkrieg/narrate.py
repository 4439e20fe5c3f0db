"""Blitzkrieg in words (``bot.engine.narrate``; ``docs/rules/blitzkrieg.md``): its events carry their own line."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core import Event


def narrate(event: Event, name: Callable[[str], str]) -> str | None:
    """The narration the battle itself wrote (every Blitzkrieg event has a ``text``), indented by depth."""
    text = event.data.get("text")
    if not isinstance(text, str):
        return None
    return "  " * int(event.data.get("depth") or 0) + text
