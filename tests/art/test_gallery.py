"""The gallery (`make gallery`, `python -m bot.art.gallery`): one picture per deck, small, and up to date."""

from __future__ import annotations

import io
from pathlib import Path

import PIL
import pytest
from PIL import Image

from bot.art import art_sheet, picture_png
from bot.art import emojis as art_emojis
from bot.art.gallery import GALLERY_FILES, main, write_gallery

ROOT = Path(__file__).resolve().parents[2]
MAX_GALLERY_BYTES = 300 * 1024


def test_gallery_writes_one_small_png_per_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bot.art.gallery DIR` writes cards-standard.png and cards-dutch-blitz.png, each under 300 KB."""
    assert main([str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out
    for deck, name in GALLERY_FILES.items():
        path = tmp_path / "g" / name
        assert path.stat().st_size < MAX_GALLERY_BYTES, name
        assert Image.open(path).size == art_sheet(deck).size
        assert name in out


def test_gallery_refuses_options() -> None:
    """An option or a second directory is a usage error (status 2)."""
    assert main(["--help"]) == 2 and main(["a", "b"]) == 2


def test_sheet_has_every_card_of_its_deck_in_a_grid() -> None:
    """The standard sheet is 13 cards by 5 rows, the Dutch Blitz one 10 by 5, cards 126 x 168 with 10 px gaps."""
    assert art_sheet("standard").size == (10 + 13 * 136, 10 + 5 * 178)
    assert art_sheet("dutch-blitz").size == (10 + 10 * 136, 10 + 5 * 178)
    with pytest.raises(ValueError):
        art_sheet("standard", gap=-1)


@pytest.mark.parametrize("deck", list(GALLERY_FILES))
def test_committed_gallery_shows_the_current_art(deck: str, tmp_path: Path) -> None:
    """docs/gallery's picture of each deck is what `make gallery` writes now (run it after changing the art)."""
    committed = Image.open(ROOT / "docs" / "gallery" / GALLERY_FILES[deck]).convert("RGB")
    fresh = Image.open(io.BytesIO(picture_png(art_sheet(deck)))).convert("RGB")
    if committed.tobytes() != fresh.tobytes() and PIL.__version__ != art_emojis.ART_DIGEST_PILLOW:
        pytest.skip(f"the gallery was drawn with Pillow {art_emojis.ART_DIGEST_PILLOW}, this is {PIL.__version__}")
    assert committed.tobytes() == fresh.tobytes(), "the art changed: run `make gallery` and commit docs/gallery"


def test_write_gallery_creates_the_directory(tmp_path: Path) -> None:
    """The directory is created when missing; the files come back in deck order."""
    written = write_gallery(tmp_path / "new" / "dir")
    assert [p.name for p in written] == list(GALLERY_FILES.values())
