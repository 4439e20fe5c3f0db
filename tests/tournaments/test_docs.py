"""docs/tournaments.md states what the code does: its tables of sizes and points are checked here."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from bot.tournaments.elimination import bracket_order
from bot.tournaments.pods import place_points, table_sizes

DOC = (Path(__file__).resolve().parents[2] / "docs" / "tournaments.md").read_text(encoding="utf-8")


def table_after(header: str) -> list[list[str]]:
    """The rows of the markdown table whose header line starts with *header*."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_table_sizes_in_the_docs() -> None:
    rows = table_after("| players | size | minimum | tables | byes |")
    assert len(rows) >= 5
    for players, size, minimum, tables, byes in rows:
        sizes, resting = table_sizes(int(players), int(size), int(minimum))
        assert (" + ".join(map(str, sizes)), resting) == (tables, int(byes))


def test_the_points_by_place_in_the_docs() -> None:
    rows = table_after("| table | 1st | 2nd | 3rd | 4th | 5th |")
    assert [int(r[0]) for r in rows] == [2, 3, 4, 5]
    for row in rows:
        assert [Fraction(c) for c in row[1:] if c] == place_points(int(row[0]))


def test_the_bracket_order_in_the_docs() -> None:
    order = bracket_order(16)
    pairs = ", ".join(f"{min(order[i:i + 2])} v {max(order[i:i + 2])}" for i in range(0, 16, 2))
    assert pairs in DOC.replace("\n", " ")


def test_the_organizer_reference_names_every_command() -> None:
    """§10 is the reference: every /tournament subcommand of the cog appears in it."""
    from cogs.tournaments import TournamentsCog

    assert "## §10 Organizer's commands\n" in DOC and "(plan)" not in DOC
    for command in TournamentsCog.tournament.commands:
        assert f"/tournament {command.name}" in DOC, command.name
    assert "parlor tournament export ID" in DOC
