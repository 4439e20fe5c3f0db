"""Every section and named ruling the code cites exists on the page it cites (issue 16: the design
decisions and rulings the code relies on are in the project's ``docs/``).

What counts as a citation, in any ``.py`` file under ``bot/`` and ``cogs/`` (docstrings and comments):

* ``docs/<page>.md`` followed by section references — ``docs/rules/blitz.md`` §2, §6 and §8 —
  names sections of that page. ``§N`` must be a heading of the page (``## §N …``); ``§N.M`` a
  heading ``### §N.M`` or item ``M.`` of the numbered list in section ``§N``.
* A bare ``§N`` in a game's package (``bot/games/<game>/``) or UI (``cogs/_<game>_ui.py``,
  ``cogs/<game>.py``) cites that game's rules page, ``docs/rules/<game>.md`` (underscores become
  hyphens), unless a ``docs/…md`` page is named earlier on the same line.
* ``docs/<page>.md``, "Name" (pages without numbered sections, such as ``docs/tables.md``) names a
  heading, or a paragraph labelled in bold (``- **Bots** …``), that starts with that name.
* ``ruling "Name"`` or ``rulings "A", "B"`` names rulings of the game's page (or of the rules page
  named last before it in the same file). The page must mark it ``Ruling "Name"`` (any case), or,
  for a phrase of three words or more, contain the phrase itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SOURCES = sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").glob("*.py")])

PAGE = re.compile(r"docs/((?:rules/)?[a-z0-9_-]+\.md)")
PAGE_SECTIONS = re.compile(r"docs/((?:rules/)?[a-z0-9_-]+\.md)`{0,2}\)?((?:[ ,;]+(?:and |or )?§\d+(?:\.\d+)?)+)")
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
RULINGS = re.compile(r"\brulings? ((?:\*?\"[^\"\n]+\"\*?(?:,\s*|\s+and\s+)?)+)", re.IGNORECASE)
"""``ruling "A"`` / ``rulings "A", "B" and "C"``; the list may run on over the next line of a docstring."""
PAGE_NAMED = re.compile(r"docs/([a-z0-9_-]+\.md)`{0,2},? \"([^\"\n]+)\"")
"""A page without numbered sections cited by a section's name: ``docs/tables.md``, "Restarts"."""
QUOTED = re.compile(r"\"([^\"\n]+)\"")
GAMES = {p.name: p.name.replace("_", "-") for p in ROOT.joinpath("bot", "games").iterdir()
         if p.is_dir() and (p / "__init__.py").exists()}


@dataclass(frozen=True)
class Citation:
    """One cited section or ruling: where the code cites it, the page, and what."""

    where: str
    page: str
    section: str | None = None
    ruling: str | None = None


def game_of(path: Path) -> str | None:
    """The game (rules page stem) a source file belongs to, or ``None``."""
    rel = path.relative_to(ROOT).parts
    if rel[:2] == ("bot", "games") and len(rel) > 3:
        return GAMES.get(rel[2])
    if rel[0] == "cogs":
        stem = path.stem.lstrip("_").removesuffix("_ui")
        return GAMES.get(stem)
    return None


def citations(path: Path, text: str) -> list[Citation]:
    """Every section and ruling *text* (the file at *path*) cites."""
    out: list[Citation] = []
    game = game_of(path)
    rules_page = f"rules/{game}.md" if game else None
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{path.relative_to(ROOT)}:{n}"
        explicit: list[tuple[int, int]] = []
        for m in PAGE_SECTIONS.finditer(line):
            explicit.append(m.span())
            out += [Citation(where, m.group(1), section=s) for s in SECTION.findall(m.group(2))]
        for m in SECTION.finditer(line):
            if any(a <= m.start() < b for a, b in explicit):
                continue
            if rules_page and not PAGE.search(line[:m.start()]):
                out.append(Citation(where, rules_page, section=m.group(1)))
        for m in PAGE_NAMED.finditer(line):
            out.append(Citation(where, m.group(1), section=m.group(2)))
    for m in RULINGS.finditer(text):
        before = text[:m.start()]
        named = [p for p in PAGE.findall(before) if p.startswith("rules/")]
        page = named[-1] if named else (f"rules/{game}.md" if game else None)
        if page is None:
            continue
        where = f"{path.relative_to(ROOT)}:{before.count(chr(10)) + 1}"
        out += [Citation(where, page, ruling=name) for name in QUOTED.findall(m.group(1))]
    return out


def all_citations() -> list[Citation]:
    out: list[Citation] = []
    for path in SOURCES:
        out += citations(path, path.read_text(encoding="utf-8"))
    return out


def section_exists(page: str, section: str) -> bool:
    """``§N`` is a heading of *page*; ``§N.M`` a heading or item ``M.`` of section ``§N``'s numbered list; a
    name (``"Restarts"``) the start of a heading or of a bold-labelled paragraph (``- **Bots** play …``)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    if re.search(rf"^#+ §{re.escape(section)}(?:\s|$)", text, re.MULTILINE):
        return True
    if not re.fullmatch(r"\d+(?:\.\d+)?", section):  # a named section: a heading that starts with the name
        return re.search(rf"^(?:#+ (?:§[\d.]+ )?|- \*\*|\*\*){re.escape(section)}", text,
                         re.MULTILINE | re.IGNORECASE) is not None
    if "." not in section:
        return False
    major, item = section.split(".", 1)
    body = re.search(rf"^## §{major}\s.*?(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return body is not None and re.search(rf"^{item}\. ", body.group(0), re.MULTILINE) is not None


def ruling_exists(page: str, name: str) -> bool:
    """*page* marks the ruling ``Ruling "Name"``, or (a phrase of three words or more) states it."""
    text = (DOCS / page).read_text(encoding="utf-8")
    if re.search(rf"Ruling\W{{0,4}}\"{re.escape(name)}\"", text, re.IGNORECASE):
        return True
    return len(name.split()) >= 3 and name.lower() in " ".join(text.split()).lower()


CITED = all_citations()


def test_citations_are_found() -> None:
    """The scan sees the citations it is meant to (a broken pattern would make the checks below vacuous)."""
    pages = {c.page for c in CITED}
    assert {"design.md", "tables.md", "rules/dutch-blitz.md", "rules/dutch.md", "rules/blitz.md",
            "rules/blitzkrieg.md"} <= pages, pages
    rulings = {(c.page, c.ruling) for c in CITED if c.ruling}
    assert ("rules/dutch-blitz.md", "Scoring per hand") in rulings, rulings
    assert len([c for c in CITED if c.section]) > 100


def test_every_cited_page_exists() -> None:
    missing = sorted({f"{c.where}: docs/{c.page}" for c in CITED if not (DOCS / c.page).is_file()})
    assert not missing, "\n".join(missing)


def test_every_cited_section_exists_on_its_page() -> None:
    """Each ``§N`` / ``§N.M`` the code cites is a section (or a numbered item of one) of the cited page."""
    missing = sorted({f"{c.where}: docs/{c.page} has no §{c.section}" for c in CITED
                      if c.section and (DOCS / c.page).is_file() and not section_exists(c.page, c.section)})
    assert not missing, "\n".join(missing)


def test_every_cited_ruling_is_stated_on_its_page() -> None:
    """Each named ruling the code cites is stated on the game's rules page."""
    missing = sorted({f"{c.where}: docs/{c.page} states no ruling {c.ruling!r}" for c in CITED
                      if c.ruling and (DOCS / c.page).is_file() and not ruling_exists(c.page, c.ruling)})
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize(("line", "expected"), [
    ('(``docs/rules/blitz.md`` §2, §6 and §8; ruling "The deal")',
     {("rules/blitz.md", "2", None), ("rules/blitz.md", "6", None), ("rules/blitz.md", "8", None),
      ("rules/blitz.md", None, "The deal")}),
    ('See docs/design.md §4 and §6.', {("design.md", "4", None), ("design.md", "6", None)}),
    ('rulings "Flip", "Shift";', set()),  # outside a game and with no rules page named: nothing to check
])
def test_the_scanner_reads_citations(line: str, expected: set[tuple[str, str | None, str | None]]) -> None:
    found = {(c.page, c.section, c.ruling) for c in citations(ROOT / "bot" / "x.py", line)}
    assert found == expected


def test_a_missing_ruling_and_section_are_caught() -> None:
    """The checks can fail: an invented ruling and section of a real page are reported missing."""
    assert section_exists("rules/dutch.md", "7.3") and not section_exists("rules/dutch.md", "7.99")
    assert not section_exists("rules/dutch-blitz.md", "99")
    assert not ruling_exists("rules/dutch-blitz.md", "Nobody ever wrote this")
    assert not ruling_exists("rules/dutch-blitz.md", "Flip") or "Ruling \"Flip\"" in \
        (DOCS / "rules/dutch-blitz.md").read_text(encoding="utf-8")


def test_the_readmes_table_of_games_is_built_from_the_declarations() -> None:
    """README.md's table of games is exactly `parlor games --markdown` (bot.engine.game.games_markdown)."""
    from bot.engine import GAMES
    from bot.engine.game import games_markdown

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = games_markdown(GAMES)
    assert table in readme, f"README.md's table of games is not the declared one; paste `parlor games --markdown`:\n" \
                            f"{table}"
