"""Pictures at the moments (``bot/art/pictures.py``, ``docs/art.md`` §7): within size, cached by moment, and
hidden stays hidden (issue #29 items 4 and 5).

The leak tests play seeded games of every game that declares pictures, move by move as a table does
(``bot.moments.played_moments``), and check every picture: each card it draws face up is one every
player had seen face up by then, and its alt text names no other card.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import PIL
import pytest
from PIL import Image

from bot.art import KEYS
from bot.art import emojis as art_emojis
from bot.art.pictures import (
    MAX_ALT,
    MAX_BYTES,
    PNG_SIGNATURE,
    Battle,
    Bracket,
    BracketMatch,
    HandEnd,
    HandEndScore,
    Picture,
    Reveal,
    RevealedHand,
    Showdown,
    ShownHand,
    StandingRow,
    Standings,
    render,
    warm,
)
from bot.engine import GAMES
from bot.moments import gallery_pictures, moments_function, played_moments
from cogs._pictures import label_key

ROOT = Path(__file__).resolve().parents[2]
PICTURED = sorted(kind for kind in GAMES if moments_function(kind) is not None)
SEEDS = range(1, 7)

_WORDS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_COLOURS = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}


def words(key: str) -> str:
    """A card key as alt text names it (``standard:QH`` → ``Q♥``, ``dutch-blitz:R8`` → ``red 8``)."""
    deck, _, card = key.partition(":")
    if deck == "dutch-blitz":
        return f"{_COLOURS[card[0]]} {card[1:]}"
    if card in ("X1", "X2"):
        return "red Joker" if card == "X1" else "black Joker"
    return card[:-1] + _WORDS[card[-1]]


def leaks(picture: Picture, public: frozenset[str]) -> list[str]:
    """What *picture* shows of cards outside *public* (card keys every player has seen face up)."""
    out = [f"{key} drawn face up" for key in picture.face_up if key not in public]
    for key in KEYS:
        if key in public or key.endswith("back") or "back-" in key:
            continue
        if re.search(rf"(?<![\w]){re.escape(words(key))}(?![\w])", picture.alt):
            out.append(f"{key} named in the alt text")
    return out


@pytest.mark.parametrize("kind", PICTURED)
def test_every_picture_of_seeded_games_shows_only_public_cards(kind: str) -> None:
    """Every moment of six seeded games draws and names only cards all players had seen face up, and
    fits 150 KB and Discord's alt-text limit; each game makes at least one moment besides its standings."""
    moments = 0
    for seed in SEEDS:
        for played in played_moments(kind, seed=seed):
            picture = render(played.moment)
            assert not leaks(picture, played.public), (kind, seed, played.move, leaks(picture, played.public))
            assert picture.png.startswith(PNG_SIGNATURE) and len(picture.png) <= MAX_BYTES
            assert 0 < len(picture.alt) <= MAX_ALT
            moments += not isinstance(played.moment, Standings)
    assert moments > 0, f"{kind}: no moment in {len(SEEDS)} seeded games"


def test_the_leak_check_catches_a_hidden_card() -> None:
    """A reveal drawn from a hand nobody has seen is caught, both its card and its alt text."""
    picture = render(Reveal(1, (RevealedHand("Ann", ("standard:QH", "standard:2C"), 12),)))
    assert leaks(picture, frozenset({"standard:2C"})) == ["standard:QH drawn face up",
                                                          "standard:QH named in the alt text"]


def test_a_dutch_blitz_hand_end_counts_each_pile_and_the_blitz_pile_penalty() -> None:
    """The hand end shows each Dutch pile's top card face up and names each player's breakdown."""
    moment = HandEnd(2, ("dutch-blitz:R10", "dutch-blitz:G3"),
                     (HandEndScore("Ann", 19, 0, 19, 40, True), HandEndScore("Bo", 16, 3, 10, 22)))
    picture = render(moment)
    assert picture.face_up == ("dutch-blitz:R10", "dutch-blitz:G3")
    assert "Bo 16 on the Dutch piles, 3 left in the Blitz pile, +10 this hand, 22 in all" in picture.alt


def test_an_empty_dutch_position_is_drawn_as_an_outline_not_a_card() -> None:
    """A position emptied by a jump-in draws no card."""
    picture = render(Reveal(3, (RevealedHand("Ann", ("standard:KD", None, "standard:4H"), 17, caller=True),)))
    assert picture.face_up == ("standard:KD", "standard:4H")
    assert "Ann (called Dutch): K♦, 4♥, total 17" in picture.alt


MOMENTS = [
    Reveal(1, tuple(RevealedHand(f"P{i}", tuple(KEYS[i * 8:(i + 1) * 8]), 40 + i, i == 0) for i in range(8)),
           tuple((f"P{i}", 100 + i) for i in range(8))),
    Showdown(2, "showdown", tuple(ShownHand(f"P{i}", tuple(KEYS[i * 3:i * 3 + 3]), str(20 + i), i % 2, i == 0)
                                  for i in range(8)), "P1 has the lowest hand"),
    Battle(7, "Helen of Troy", "The number's player lays that many cards face up. " * 6,
           (("Ann", "standard:QS"), ("Bo", "standard:9S")), "Bo"),
    HandEnd(3, tuple(k for k in KEYS if k.startswith("dutch-blitz:") and "back" not in k)[:16],
            tuple(HandEndScore(f"P{i}", 20, 10, 0, -5 * i) for i in range(8))),
    Standings("Final standings", tuple(StandingRow(i + 1, f"Player number {i}", str(100 - i)) for i in range(8))),
    Standings("Tournament standings", tuple(StandingRow(i + 1, f"P{i}", str(i), (str(i), "9")) for i in range(32)),
              ("points", "wins", "games"), "tournament-standings.png"),
    Bracket("Bracket", (tuple(BracketMatch((f"A{i}", f"B{i}"), f"A{i}") for i in range(16)),
                        tuple(BracketMatch((f"A{i}", f"A{i + 1}")) for i in range(0, 16, 2)))),
]


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: type(m).__name__)
def test_a_crowded_picture_still_fits_150_kb(moment: object) -> None:
    """The largest tables (eight seats, eight-card hands, sixteen Dutch piles, a 32-player field) stay
    within 150 KB and Discord's alt-text limit."""
    picture = render(moment)  # type: ignore[arg-type]
    assert len(picture.png) <= MAX_BYTES and len(picture.alt) <= MAX_ALT


def test_the_same_moment_is_drawn_once() -> None:
    """Pictures are cached by the moment's data: an equal moment gives the very same picture."""
    first = render(Standings("Cached", (StandingRow(1, "Ann", "3"),)))
    again = render(Standings("Cached", (StandingRow(1, "Ann", "3"),)))
    assert again is first
    assert render(Standings("Cached", (StandingRow(1, "Ann", "4"),))) is not first


def test_render_refuses_what_is_no_moment() -> None:
    """Anything else is a TypeError naming the moments."""
    with pytest.raises(TypeError, match="Reveal"):
        render("a reveal")  # type: ignore[arg-type]


def test_a_label_from_a_view_names_its_card() -> None:
    """Blitzkrieg's view shows a battle's cards by label: a label gives the card's key."""
    assert label_key("Q♠") == "standard:QS" and label_key("10♥") == "standard:10H"
    assert label_key("Joker") == "standard:X1"
    with pytest.raises(ValueError):
        label_key("Q")


def test_the_gallery_pictures_are_each_games_moments() -> None:
    """`make gallery` writes each game's moment, the final standings and a tournament's two pictures."""
    names = set(gallery_pictures())
    assert names == {"dutch-reveal.png", "blitz-showdown.png", "blitzkrieg-battle.png", "dutch-blitz-hand-end.png",
                     "standings.png", "tournament-standings.png", "tournament-bracket.png"}


@pytest.mark.parametrize("name", sorted(gallery_pictures()))
def test_committed_moment_pictures_are_what_make_gallery_draws(name: str) -> None:
    """docs/gallery's moment pictures are what `make gallery` draws now from the seeded games (run it
    after changing the art or a moment's drawing)."""
    committed = Image.open(ROOT / "docs" / "gallery" / name).convert("RGB")
    fresh = Image.open(io.BytesIO(gallery_pictures()[name].png)).convert("RGB")
    if committed.tobytes() != fresh.tobytes() and PIL.__version__ != art_emojis.ART_DIGEST_PILLOW:
        pytest.skip(f"the gallery was drawn with Pillow {art_emojis.ART_DIGEST_PILLOW}, this is {PIL.__version__}")
    assert committed.tobytes() == fresh.tobytes(), "run `make gallery` and commit docs/gallery"


def test_python_m_bot_moments_writes_the_pictures_and_refuses_options(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bot.moments DIR` writes every moment picture and names each file; an option is a usage error."""
    from bot.moments import main

    assert main([str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out
    for name in gallery_pictures():
        assert (tmp_path / "g" / name).stat().st_size <= MAX_BYTES and name in out
    assert main(["--help"]) == 2 and main(["a", "b"]) == 2


def test_a_game_whose_pictures_cannot_be_imported_gets_none_and_its_tables_run(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A declaration naming a missing module: logged once, no pictures, nothing raised."""
    import dataclasses

    from bot.tables.messenger import RecordingMessenger
    from bot.tables.pictures import TablePictures

    broken = dataclasses.replace(GAMES["blitz"], pictures="no_such_module:moments")
    monkeypatch.setitem(GAMES, "blitz", broken)
    part = TablePictures(None, RecordingMessenger())  # type: ignore[arg-type]
    assert part.moments_of("blitz") is None
    assert "no_such_module:moments" in caplog.text


@pytest.mark.parametrize("kind", PICTURED)
def test_each_game_declares_the_moments_it_draws_so_their_cards_are_drawn_ahead(kind: str) -> None:
    """Every moment a seeded game of *kind* makes is one its moments function declares (``@draws``),
    or a picture without cards (standings): what the table warms at its start covers its pictures."""
    declared = set(getattr(moments_function(kind), "draws", ()))
    made = {type(played.moment) for seed in SEEDS[:2] for played in played_moments(kind, seed=seed)}
    assert made - declared <= {Standings}, f"{kind} makes {made - declared} without declaring them"
    assert declared, f"{kind} declares no moment to draw ahead"


@pytest.mark.parametrize("kind", PICTURED)
def test_after_warm_a_games_first_picture_draws_no_card(kind: str) -> None:
    """``warm`` draws every card a game's pictures paste, so its first picture only pastes (≤ 50 ms
    then, ``bench/render.py``): rendering any of its moments draws no card anew."""
    from bot.art import deck
    from bot.art import pictures as art_pictures

    art_pictures._card_rgba.cache_clear()
    deck._drawn.cache_clear()
    declared = getattr(moments_function(kind), "draws", ())
    assert warm(declared) > 0
    assert warm(declared) == 0, "a second warm draws nothing"
    before = art_pictures._card_rgba.cache_info().misses
    for played in played_moments(kind, seed=1):
        render.__wrapped__(played.moment)  # drawn anew, past the pictures' LRU
    assert art_pictures._card_rgba.cache_info().misses == before
