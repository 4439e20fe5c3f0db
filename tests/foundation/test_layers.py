"""The layer rules of docs/design.md §1, checked on the imports of every module (parsed with ``ast``).

- Engines (``bot/engine``, ``bot/games``) import no Discord, asyncio, aiohttp, storage, tables,
  client, cogs or sandbox, never the clock (``time``, ``datetime``) and never the global
  ``random`` (only ``from random import Random``).
- The tournament logic (``bot/tournaments``) is pure like the engines, under the same rules; the
  modules of its service (``bot/tournaments/service.py`` and the parts it composes, named in
  ``TOURNAMENT_SERVICE``) may use asyncio, the clock, storage and the table service's Discord-free
  layers, but no Discord, no client and no global ``random``.
- Storage (``bot/storage``) knows no tables, client, cogs, Discord or sandbox.
- The table service's logic (every ``bot/tables`` module but its Discord parts: ``boards``,
  ``messages``, ``interactions``, ``components``, ``commands`` and the ``service`` façade) imports no
  Discord and no client, so the lobby and move logic run without Discord (``docs/tables.md``, "The
  table service inside").
- The card art (``bot/art``) is pure like the engines, under the same rules: Pillow and the engine's
  cards, no Discord (``bot/emoji_sync.py`` uploads it), no asyncio, no clock (``docs/art.md``).
- Production code (``bot``, ``cogs``) never imports the loopback Discord (``sandbox``).
- Cogs are thin: they read no clock (``time``, ``datetime``); timed rules are the engines' data and
  the table's clock measures them (``docs/design.md`` §1).
- The core (``bot/engine``, ``bot/tables``, ``bot/storage``, ``bot/client.py``, ``bot/cli.py``,
  ``bot/config.py``) does not import a game, not even the registry: games declare themselves in the
  ``parlor.games`` entry points (``bot/engine/game.py``).
- No file of the project points at the design reference folder outside the repository.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ENGINE_FORBIDDEN = ("discord", "asyncio", "aiohttp", "aiosqlite", "asyncpg", "bot.storage", "bot.tables", "bot.client",
                    "bot.cli", "cogs", "sandbox", "time", "datetime")
STORAGE_FORBIDDEN = ("discord", "bot.tables", "bot.client", "bot.cli", "cogs", "sandbox", "bot.games")
PRODUCTION_FORBIDDEN = ("sandbox", "tests")
TABLE_LOGIC_FORBIDDEN = ("discord", "aiohttp", "bot.client", "bot.cli")
TOURNAMENT_SERVICE = tuple(f"bot/tournaments/{name}.py" for name in (
    "service", "core", "state", "messenger", "texts", "announcements", "registration", "results", "noshow",
    "scheduler", "controls", "ticker"))
"""The tournament service's modules: the façade and its parts (``docs/tournaments.md``, "The service inside")."""
TOURNAMENT_SERVICE_FORBIDDEN = ("discord", "aiohttp", "bot.client", "bot.cli", "cogs", "sandbox",
                                "bot.tables.boards", "bot.tables.messages", "bot.tables.interactions",
                                "bot.tables.service", "bot.tables.components")
TABLE_DISCORD_LAYER = ("bot/tables/boards.py", "bot/tables/messages.py", "bot/tables/interactions.py",
                       "bot/tables/components.py", "bot/tables/commands.py", "bot/tables/service.py",
                       "bot/tables/__init__.py", "bot/tables/layout.py")
ART_FORBIDDEN = (*ENGINE_FORBIDDEN, "bot.emoji_sync", "bot.games")
CORE_FORBIDDEN = ("bot.games.",)


def imports(source: str) -> list[tuple[int, str, bool]]:
    """Every imported module name of *source*: ``(line, name, whole module?)``.

    ``import a`` gives ``(n, "a", True)``; ``from a import b`` gives ``a`` and ``a.b``, not whole.
    """
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, True) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, False))
            found += [(node.lineno, f"{node.module}.{alias.name}", False) for alias in node.names]
    return found


def _hits(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == f.rstrip(".") or name.startswith(f if f.endswith(".") else f + ".") for f in forbidden)


def violations(path: str, source: str) -> list[str]:
    """The layer rules *source* (the module at repository-relative *path*) breaks, one line each."""
    out: list[str] = []
    engine = path.startswith(("bot/engine/", "bot/games/"))
    tournament = path.startswith("bot/tournaments/") and path not in TOURNAMENT_SERVICE
    tournament_service = path in TOURNAMENT_SERVICE
    art = path.startswith("bot/art/")
    storage = path.startswith("bot/storage/")
    production = path.startswith(("bot/", "cogs/"))
    table_logic = path.startswith("bot/tables/") and path not in TABLE_DISCORD_LAYER
    core = path.startswith(("bot/engine/", "bot/tables/", "bot/storage/")) or path in (
        "bot/client.py", "bot/cli.py", "bot/config.py")
    for line, name, whole in imports(source):
        if engine and _hits(name, ENGINE_FORBIDDEN):
            out.append(f"{path}:{line}: an engine imports {name}")
        if engine and name == "random" and whole:
            out.append(f"{path}:{line}: an engine imports the global random (use random.Random)")
        if tournament and _hits(name, ENGINE_FORBIDDEN):
            out.append(f"{path}:{line}: the tournament logic imports {name}")
        if tournament and (name == "random" and whole or name.startswith("random.") and name != "random.Random"):
            out.append(f"{path}:{line}: the tournament logic imports the global random (use random.Random)")
        if tournament_service and _hits(name, TOURNAMENT_SERVICE_FORBIDDEN):
            out.append(f"{path}:{line}: the tournament service imports {name} (Discord belongs to its cog)")
        if tournament_service and (name == "random" and whole or name.startswith("random.")
                                   and name != "random.Random"):
            out.append(f"{path}:{line}: the tournament service imports the global random (use random.Random)")
        if art and _hits(name, ART_FORBIDDEN):
            out.append(f"{path}:{line}: the card art imports {name}")
        if art and name == "random" and whole:
            out.append(f"{path}:{line}: the card art imports the global random (it draws the same every time)")
        if storage and _hits(name, STORAGE_FORBIDDEN):
            out.append(f"{path}:{line}: storage imports {name}")
        if table_logic and _hits(name, TABLE_LOGIC_FORBIDDEN):
            out.append(f"{path}:{line}: the table logic imports {name} (only its Discord layer may)")
        if path.startswith("cogs/") and _hits(name, ("time", "datetime")):
            out.append(f"{path}:{line}: a cog reads the clock ({name}); the table service keeps time")
        if production and _hits(name, PRODUCTION_FORBIDDEN):
            out.append(f"{path}:{line}: production code imports {name}")
        if core and _hits(name, CORE_FORBIDDEN):
            out.append(f"{path}:{line}: the core imports a game ({name}); use bot.engine.GAMES")
    return out


def project_modules() -> list[Path]:
    return sorted(p for top in ("bot", "cogs") for p in (ROOT / top).rglob("*.py"))


def test_the_layer_rules_hold() -> None:
    """Every module of bot/ and cogs/ keeps to the layers of docs/design.md §1."""
    broken = [v for p in project_modules()
              for v in violations(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize(("path", "source", "expected"), [
    ("bot/games/x/engine.py", "import discord", "an engine imports discord"),
    ("bot/games/x/engine.py", "import random", "global random"),
    ("bot/engine/core.py", "from time import monotonic", "an engine imports time"),
    ("bot/games/x/engine.py", "from bot.tables.table import Table", "an engine imports bot.tables"),
    ("bot/storage/repository.py", "from bot.tables import TableService", "storage imports bot.tables"),
    ("bot/client.py", "from sandbox import FakeDiscord", "production code imports sandbox"),
    ("cogs/dutch.py", "import sandbox.server", "production code imports sandbox"),
    ("bot/engine/__init__.py", "import bot.games", "the core imports a game"),
    ("bot/tables/service.py", "from bot.games.dutch import DutchEngine", "the core imports a game"),
    ("bot/tables/lobby.py", "import discord", "the table logic imports discord"),
    ("bot/tables/moves.py", "from bot.client import ParlorBot", "the table logic imports bot.client"),
    ("bot/tournaments/swiss.py", "import discord", "the tournament logic imports discord"),
    ("bot/tournaments/swiss.py", "import asyncio", "the tournament logic imports asyncio"),
    ("bot/tournaments/pods.py", "import aiohttp", "the tournament logic imports aiohttp"),
    ("bot/tournaments/model.py", "import aiosqlite", "the tournament logic imports aiosqlite"),
    ("bot/tournaments/model.py", "from bot.storage import Storage", "the tournament logic imports bot.storage"),
    ("bot/tournaments/model.py", "from bot.tables.table import Table", "the tournament logic imports bot.tables"),
    ("bot/tournaments/model.py", "from bot.client import ParlorBot", "the tournament logic imports bot.client"),
    ("bot/tournaments/model.py", "import cogs.dutch_blitz", "the tournament logic imports cogs"),
    ("bot/tournaments/model.py", "from sandbox import FakeDiscord", "the tournament logic imports sandbox"),
    ("bot/tournaments/standings.py", "import time", "the tournament logic imports time"),
    ("cogs/_dutch_ui.py", "import time", "a cog reads the clock"),
    ("cogs/stats.py", "from datetime import datetime", "a cog reads the clock"),
    ("bot/tournaments/standings.py", "from datetime import datetime", "the tournament logic imports datetime"),
    ("bot/tournaments/swiss.py", "import random", "the tournament logic imports the global random"),
    ("bot/tournaments/swiss.py", "from random import shuffle", "the tournament logic imports the global random"),
    ("bot/tournaments/service.py", "import discord", "the tournament service imports discord"),
    ("bot/tournaments/service.py", "from bot.tables.service import TableService",
     "the tournament service imports bot.tables.service"),
    ("bot/tournaments/service.py", "import random", "the tournament service imports the global random"),
    ("bot/tournaments/scheduler.py", "import discord", "the tournament service imports discord"),
    ("bot/tournaments/results.py", "from bot.client import ParlorBot", "the tournament service imports bot.client"),
    ("bot/tournaments/statuses.py", "import asyncio", "the tournament logic imports asyncio"),
    ("bot/art/deck.py", "import discord", "the card art imports discord"),
    ("bot/art/emojis.py", "from discord import Client", "the card art imports discord"),
    ("bot/art/sheet.py", "import asyncio", "the card art imports asyncio"),
    ("bot/art/draw.py", "from time import perf_counter", "the card art imports time"),
    ("bot/art/emojis.py", "from bot.emoji_sync import sync_card_emojis", "the card art imports bot.emoji_sync"),
    ("bot/art/draw.py", "import random", "the card art imports the global random"),
])
def test_a_planted_violation_is_caught(path: str, source: str, expected: str) -> None:
    """The check fails on each kind of planted violation (so it is not a test that cannot fail)."""
    assert any(expected in v for v in violations(path, source))


def test_allowed_imports_pass() -> None:
    """Seeded generators and a game's own modules are allowed."""
    assert violations("bot/games/x/engine.py", "from random import Random\nfrom bot.games.x.options import O") == []
    assert violations("cogs/dutch_blitz.py", "from bot.games.dutch_blitz import ENGINE") == []
    assert violations("bot/tournaments/swiss.py", "from random import Random\nimport networkx as nx\n"
                      "from bot.tournaments.model import Match") == []
    assert violations("bot/tournaments/service.py", "import asyncio\nimport time\nfrom bot.storage import Storage\n"
                      "from bot.tables.core import Actor") == []
    assert violations("bot/art/emojis.py", "from PIL import Image\nfrom bot.engine.cards import Card\n"
                      "from bot.art.deck import KEYS") == []
    assert violations("bot/emoji_sync.py", "import discord\nfrom bot.art.emojis import plan_sync") == []


def test_nothing_points_at_the_reference_folder() -> None:
    """No file points outside the repository at the reference folder, which a clone does not have."""
    needle = "../" + "shared"
    files = [p for top in ("bot", "cogs", "docs", "tests", "sandbox", "bench") for p in (ROOT / top).rglob("*")
             if p.is_file() and p.suffix in (".py", ".md", ".toml", ".txt")]
    files += [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "config.example.toml"]
    offenders = [str(p.relative_to(ROOT)) for p in files if needle in p.read_text(encoding="utf-8")]
    assert not offenders, offenders
