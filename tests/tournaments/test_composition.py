"""The tournament service is composed, not chained (docs/tournaments.md, "The service inside"):
no class of bot/tournaments inherits from a class of another of its modules, none is a hook to
fill, none is long; it reaches the tables only through public members of the table service."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.tables.service import Tables, TableService
from bot.tournaments.core import TableHost

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bot" / "tournaments"
MODULES = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.glob("*.py"))}
LARGEST = 350
"""The most lines a class of bot/tournaments may have."""


def classes() -> list[tuple[str, ast.ClassDef]]:
    return [(name, node) for name, tree in MODULES.items() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def test_no_class_inherits_from_a_class_of_another_tournament_module() -> None:
    defined = {node.name: name for name, node in classes()}
    chained = [f"{name}.{node.name}({ast.unparse(base)})" for name, node in classes() for base in node.bases
               if defined.get(ast.unparse(base).rsplit(".", 1)[-1], name) != name]
    assert {"TournamentService", "Scheduler", "Registration", "Results", "NoShowWatch"} <= set(defined)
    assert not chained, chained


def test_nothing_subclasses_the_tournament_service() -> None:
    """The Discord side gives the service a messenger; it does not fill hooks of a subclass."""
    cog = ast.parse((ROOT / "cogs" / "tournaments.py").read_text(encoding="utf-8"))
    bases = [ast.unparse(b) for node in ast.walk(cog) if isinstance(node, ast.ClassDef) for b in node.bases]
    assert not [b for b in bases if "Tournament" in b and "Button" not in b], bases


def test_no_hook_is_left_to_fill_and_no_class_is_long() -> None:
    hooks = [name for name, tree in MODULES.items() for node in ast.walk(tree)
             if isinstance(node, ast.Name) and node.id == "NotImplementedError"]
    assert not hooks, hooks
    sizes = {f"{name}.{node.name}": (node.end_lineno or node.lineno) - node.lineno + 1 for name, node in classes()}
    assert max(sizes.values()) <= LARGEST, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]


def host_members() -> set[str]:
    return {name for name in vars(TableHost) if not name.startswith("_")} | set(TableHost.__annotations__)


def test_the_table_host_is_public_members_of_the_table_service(world) -> None:
    """Every member the tournament service uses of the table service is public on its façade:
    ``Tables`` (the Discord-free service) has all but ``open_seated``, which ``TableService`` adds."""
    storage, tables, service = world
    members = host_members()
    assert members == {"tables", "engines", "finish_hooks", "seen_hooks", "open_seated", "close_table",
                       "seat_to_bot", "live", "on_this_shard"}
    plain = Tables(storage, tables.config, tables.recorded)
    assert all(hasattr(plain, m) for m in members - {"open_seated"})
    assert callable(TableService.open_seated)


def beyond_the_host(tree: ast.AST) -> list[str]:
    """Every ``core.tables.<name>`` (the parts hold the table service as their core's ``tables``) read
    in *tree* whose name is no member of :class:`TableHost`."""
    members = host_members()
    return [ast.unparse(node) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "tables" and ast.unparse(node.value.value).rsplit(".", 1)[-1] == "core"
            and node.attr not in members]


def test_the_parts_reach_the_tables_only_through_the_host() -> None:
    """Every ``….tables.<name>`` the parts read is a member of :class:`TableHost` (mypy checks the
    types; this catches a reach into the table service's parts, e.g. ``tables.registry``)."""
    reached = {name: found for name, tree in MODULES.items() if (found := beyond_the_host(tree))}
    assert not reached, reached
    planted = ast.parse("self.core.tables.registry.tables.get(1)\nself.core.tables.lobby.note_seen(t, 1)\n"
                        "self.core.tables.tables.get(1)\nawait self.core.tables.live(1)")
    assert sorted(beyond_the_host(planted)) == ["self.core.tables.lobby", "self.core.tables.registry"]
