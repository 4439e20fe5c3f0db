"""The shape docs/design.md §1 holds the code to, checked on the source (parsed with ``ast``).

"Composed, not chained": no class of a service package inherits from a class of another module of
its package, no hook is left for a subclass to fill (``raise NotImplementedError``), no class grows
past a size a reader can hold, and the Discord edge of a move stays a decoder (``on_move``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

COMPOSED = ("bot/tables", "bot/storage", "bot/tournaments")
"""Packages built as composed parts."""

LARGEST_CLASS = 350
"""The most lines one class of a composed package may have."""


def classes(package: str) -> list[tuple[str, ast.ClassDef, ast.Module]]:
    """Every top-level class of *package*'s modules: ``(module path, class, module)``."""
    out = []
    for path in sorted((ROOT / package).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [(str(path.relative_to(ROOT)), node, tree) for node in tree.body if isinstance(node, ast.ClassDef)]
    return out


def imported_from_package(tree: ast.Module, package: str, own: str) -> set[str]:
    """Names *tree* imports from another module of *package* (not from *own*)."""
    dotted = package.replace("/", ".")
    return {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and node.module and node.module.startswith(dotted + ".") and node.module != own
            for alias in node.names}


@pytest.mark.parametrize("package", COMPOSED)
def test_no_class_inherits_from_a_class_of_another_module_of_its_package(package: str) -> None:
    """Parts are composed (given what they need), never stacked into a chain of subclasses."""
    chained = []
    for path, cls, tree in classes(package):
        own = path[:-3].replace("/", ".")
        others = imported_from_package(tree, package, own)
        chained += [f"{path}: {cls.name}({ast.unparse(b)})" for b in cls.bases
                    if ast.unparse(b).split(".")[0].split("[")[0] in others]
    assert not chained, chained


@pytest.mark.parametrize("package", COMPOSED)
def test_no_hook_is_left_for_a_subclass_to_fill(package: str) -> None:
    """No ``raise NotImplementedError``: what a part needs it is given (a Messenger, storage), not inherited."""
    hooks = [f"{p.relative_to(ROOT)}:{n.lineno}" for p in sorted((ROOT / package).glob("*.py"))
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.Raise) and n.exc is not None and "NotImplementedError" in ast.unparse(n.exc)]
    assert not hooks, hooks


@pytest.mark.parametrize("package", COMPOSED)
def test_every_class_stays_readable(package: str) -> None:
    """No class of a composed package is longer than LARGEST_CLASS (350) lines."""
    long = {f"{path}: {cls.name}": cls.end_lineno - cls.lineno + 1 for path, cls, _ in classes(package)
            if cls.end_lineno is not None and cls.end_lineno - cls.lineno + 1 > LARGEST_CLASS}
    assert not long, long


def test_the_discord_edge_of_a_move_only_decodes_and_answers() -> None:
    """``Interactions.on_move`` stays short (≤ 30 lines): Moves.submit decides, the edge answers."""
    (_, cls, _), = [c for c in classes("bot/tables") if c[1].name == "Interactions"]
    (on_move,) = [n for n in cls.body if isinstance(n, ast.AsyncFunctionDef) and n.name == "on_move"]
    assert on_move.end_lineno is not None and on_move.end_lineno - on_move.lineno + 1 <= 30


def test_no_cog_imports_the_storage() -> None:
    """Cogs are thin: they reach the database through the bot's services, never by importing bot.storage."""
    found = [f"{p.relative_to(ROOT)}:{n.lineno}" for p in sorted((ROOT / "cogs").glob("*.py"))
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.ImportFrom | ast.Import)
             and any((getattr(n, "module", None) or a.name or "").startswith("bot.storage") for a in n.names)]
    assert not found, found
