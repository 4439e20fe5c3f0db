"""Write the gallery: every card of each deck on one picture (``make gallery``, ``docs/gallery/``).

Run: ``python -m bot.art.gallery [DIRECTORY]`` (default ``docs/gallery``). Writes
``cards-standard.png`` and ``cards-dutch-blitz.png`` and prints each file's name and size.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from bot.art.sheet import art_sheet, picture_png

__all__ = ["GALLERY_FILES", "write_gallery", "main"]

GALLERY_FILES: dict[str, str] = {"standard": "cards-standard.png", "dutch-blitz": "cards-dutch-blitz.png"}
"""Each deck's file in the gallery directory."""


def write_gallery(directory: Path) -> list[Path]:
    """Writes each deck's sheet (:func:`~bot.art.sheet.art_sheet`) as a PNG into *directory* (created if need be).

    Returns
    -------
    list[pathlib.Path]
        The files written, in :data:`GALLERY_FILES` order.
    """
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for deck, name in GALLERY_FILES.items():
        path = directory / name
        path.write_bytes(picture_png(art_sheet(deck)))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m bot.art.gallery [DIRECTORY]``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: python -m bot.art.gallery [DIRECTORY]   (default docs/gallery)", file=sys.stderr)
        return 2
    for path in write_gallery(Path(args[0] if args else "docs/gallery")):
        print(f"{path} {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
