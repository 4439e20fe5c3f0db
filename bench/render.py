"""Speed and size of the card art (prints figures, asserts nothing).

Run: ``PYTHONPATH=. python bench/render.py [repeats]`` from the repository root. For each deck's
sheet and a sample of single cards it prints the time to draw (cold: caches emptied; warm: cards
already drawn), the time to write the PNG and its size; then every emoji's time and size.
Targets (``docs/art.md`` §3): a picture within 50 ms and 150 KB, an emoji within 256 KB (Discord's limit).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from bot.art import CARD_HEIGHT, DECKS, EMOJI_KEYS, art_sheet, card_image, emoji_png, picture_png
from bot.art import deck as art_deck

SAMPLE = ("standard:AS", "standard:10H", "standard:QD", "standard:X1", "standard:back",
          "dutch-blitz:R8", "dutch-blitz:G10", "dutch-blitz:Y6", "dutch-blitz:back-plow")


def timed(call: Callable[[], object], repeats: int, *, cold: bool) -> tuple[float, object]:
    """The median ms of *repeats* calls (caches emptied before each when *cold*) and the last result."""
    times, result = [], None
    for _ in range(repeats):
        if cold:
            art_deck._drawn.cache_clear()
            emoji_png.cache_clear()
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def main(repeats: int = 5) -> None:
    print(f"card art: median of {repeats} runs; targets: a picture <= 50 ms and <= 150 KB, an emoji <= 256 KB")
    print(f"{'picture':<28} {'cold ms':>8} {'warm ms':>8} {'png ms':>7} {'png KB':>7}")
    for deck in DECKS:
        cold, _ = timed(lambda d=deck: art_sheet(d), repeats, cold=True)
        warm, sheet = timed(lambda d=deck: art_sheet(d), repeats, cold=False)
        encode, data = timed(lambda s=sheet: picture_png(s), repeats, cold=False)
        size = f"{sheet.size[0]}x{sheet.size[1]}"
        print(f"{'sheet ' + deck + ' ' + size:<28} {cold:8.1f} {warm:8.1f} {encode:7.1f} {len(data) / 1024:7.1f}")
    for key in SAMPLE:
        cold, _ = timed(lambda k=key: card_image(k), repeats, cold=True)
        warm, image = timed(lambda k=key: card_image(k), repeats, cold=False)
        encode, data = timed(lambda i=image: picture_png(i), repeats, cold=False)
        print(f"{key + f' ({CARD_HEIGHT} px)':<28} {cold:8.1f} {warm:8.1f} {encode:7.1f} {len(data) / 1024:7.1f}")
    art_deck._drawn.cache_clear()
    emoji_png.cache_clear()
    start = time.perf_counter()
    sizes = [len(emoji_png(key)) for key in EMOJI_KEYS]
    total = (time.perf_counter() - start) * 1000
    print(f"emojis: {len(sizes)} drawn and written in {total:.0f} ms ({total / len(sizes):.1f} ms each); "
          f"PNG {min(sizes) / 1024:.1f}-{max(sizes) / 1024:.1f} KB, {sum(sizes) / 1024:.0f} KB in all")


def pictures(repeats: int) -> None:
    """Each moment's picture (``bot/art/pictures.py``) from the gallery's seeded games: ms to render cold
    (card and picture caches emptied), warm (cards cached, the picture drawn anew), cached (the same
    moment again: the LRU) and its PNG's KB."""
    from bot.art import pictures as art_pictures
    from bot.moments import gallery_moments

    print(f"moments' pictures: median of {repeats} runs; targets <= 50 ms to render, <= 150 KB")
    print(f"{'picture':<28} {'cold ms':>8} {'warm ms':>8} {'cached ms':>9} {'png KB':>7}")
    for name, moment in gallery_moments().items():
        cold_times: list[float] = []
        for _ in range(repeats):
            art_deck._drawn.cache_clear()
            art_pictures._card_rgba.cache_clear()
            art_pictures.render.cache_clear()
            start = time.perf_counter()
            art_pictures.render(moment)
            cold_times.append((time.perf_counter() - start) * 1000)
        warm_times: list[float] = []
        cached_times: list[float] = []
        for _ in range(repeats):
            art_pictures.render.cache_clear()
            start = time.perf_counter()
            picture = art_pictures.render(moment)
            warm_times.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            art_pictures.render(moment)
            cached_times.append((time.perf_counter() - start) * 1000)
        print(f"{name:<28} {statistics.median(cold_times):8.1f} {statistics.median(warm_times):8.1f} "
              f"{statistics.median(cached_times):9.3f} {len(picture.png) / 1024:7.1f}")


def warmed(repeats: int) -> None:
    """What a table's start draws ahead (``bot.art.pictures.warm``, once per game and process): ms per
    deck and size, then each moment's first picture after it (cards cached, the picture never drawn)."""
    from bot.art import pictures as art_pictures
    from bot.moments import gallery_moments

    print("drawn ahead when a game's first table starts (a worker thread; once per process):")
    for moment_type, sizes in art_pictures.CARD_SIZES.items():
        art_deck._drawn.cache_clear()
        art_pictures._card_rgba.cache_clear()
        start = time.perf_counter()
        count = art_pictures.warm([moment_type])
        took = (time.perf_counter() - start) * 1000
        print(f"  {moment_type.__name__:<10} {', '.join(f'{d} {h} px' for d, h in sizes):<22} "
              f"{count} cards in {took:.0f} ms")
    art_deck._drawn.cache_clear()
    art_pictures._card_rgba.cache_clear()
    art_pictures.warm(art_pictures.CARD_SIZES)
    print(f"{'first picture after warm':<28} {'ms':>8}   (target <= 50 ms)")
    for name, moment in gallery_moments().items():
        times = []
        for _ in range(repeats):
            art_pictures.render.cache_clear()
            start = time.perf_counter()
            art_pictures.render(moment)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{name:<28} {statistics.median(times):8.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    pictures(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    warmed(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
