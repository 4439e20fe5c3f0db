"""Each rules page documents exactly the options its game declares, with the same defaults and ranges
(issue 11 item 3: one declaration feeds the slash command, ``parlor simulate`` and the docs; the
docs' tables are written by hand, so this test keeps them honest).

A page documents an option as a row of its options table (``| `name` | default | values | meaning |``,
in the section whose heading names "Options"), or, for a game with a single option, as a bullet
``*Option* `name` (default **X**, low–high)``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine import REGISTRY
from bot.engine.options import OptionSpec, describe_options

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
ROW = re.compile(r"^\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|(.*)$", re.MULTILINE)
BULLET = re.compile(r"\*Option\*\s*`(\w+)`\s*\(default\s*\*\*([^*]+)\*\*(.*?)\)", re.DOTALL)


def documented(kind: str) -> dict[str, tuple[str, str]]:
    """Options the rules page of *kind* documents: name → (default as written, the rest of the row)."""
    text = (DOCS / f"{kind}.md").read_text(encoding="utf-8")
    out: dict[str, tuple[str, str]] = {}
    section = re.search(r"^## [^\n]*Options[^\n]*\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if section is not None:
        out |= {m.group(1): (m.group(2), m.group(3)) for m in ROW.finditer(section.group(1))}
    out |= {m.group(1): (m.group(2), m.group(3)) for m in BULLET.finditer(text)}
    return out


def numbers(text: str) -> set[str]:
    """The numbers written in *text* (a Unicode minus read as "-", thousands separators dropped)."""
    return set(re.findall(r"-?\d+(?:\.\d+)?", text.replace("−", "-").replace(",", "")))


def written(value: object) -> str:
    """How a page writes a value: on/off for a switch, ``30`` for ``30.0``, else the number or word itself."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def written_default(spec: OptionSpec) -> str:
    """How a page writes *spec*'s default."""
    return written(spec.default)


def mismatches(kind: str) -> list[str]:
    """Where the rules page of *kind* disagrees with the game's option declarations."""
    specs = {s.name: s for s in describe_options(REGISTRY[kind].Options)}
    docs = documented(kind)
    out = [f"docs/rules/{kind}.md does not document the option `{n}`" for n in sorted(set(specs) - set(docs))]
    out += [f"docs/rules/{kind}.md documents `{n}`, which the game does not declare"
            for n in sorted(set(docs) - set(specs))]
    for name in sorted(set(specs) & set(docs)):
        spec, (default, rest) = specs[name], docs[name]
        default = default.strip("`* ").replace("−", "-")
        if default != written_default(spec):
            out.append(f"`{name}`: the page's default is {default!r}, the declaration's {written_default(spec)!r}")
        if spec.type is int and spec.choices is None:
            for bound in (spec.min, spec.max):
                if bound is not None and str(bound) not in numbers(rest):
                    out.append(f"`{name}`: the page's values ({rest.strip()!r}) do not name the bound {bound}")
        if spec.choices is not None:
            for choice in spec.choices:
                shown = written(choice)
                if shown not in numbers(rest) and shown not in rest.replace("−", "-"):
                    out.append(f"`{name}`: the page's values ({rest.strip()!r}) do not name the choice {choice!r}")
    return out


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_the_rules_page_documents_exactly_the_declared_options(kind: str) -> None:
    """Names, defaults, ranges and choices of every option agree between the page and the declaration."""
    assert documented(kind), f"docs/rules/{kind}.md documents no option at all?"
    problems = mismatches(kind)
    assert not problems, "\n".join(problems)


def test_a_wrong_default_or_a_missing_option_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a page whose default differs, or that leaves an option out, is reported."""
    real = documented("dutch-blitz")
    wrong = {**real, "target": ("80", real["target"][1])}
    monkeypatch.setattr(__import__(__name__, fromlist=["documented"]), "documented", lambda kind: wrong)
    assert any("default is '80'" in p for p in mismatches("dutch-blitz"))
    missing = {k: v for k, v in real.items() if k != "max_hands"}
    monkeypatch.setattr(__import__(__name__, fromlist=["documented"]), "documented", lambda kind: missing)
    assert any("`max_hands`" in p for p in mismatches("dutch-blitz"))
