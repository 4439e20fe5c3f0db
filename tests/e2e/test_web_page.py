"""End to end in a real browser: the web sandbox (``python -m sandbox --web``, sandbox/web.py) in headless
Chromium driven by Selenium, the production bot behind the loopback Discord (issue #33).

For each game, Alice (left pane) types ``/<game> new`` with the game's short options as Discord writes
them (``opt:value``), Bob (right pane) joins from the page, Alice adds a bot (where a third seat is
allowed) and starts; then both play by clicking random enabled buttons and menus of their own boards
in the page until the game ends.
Each step, the page is checked against what the loopback Discord holds: every message either member
sees, in the same order and the same version (a digest of its wire JSON), and none of the other's
ephemeral ones. The finished table's text and buttons are compared with the loopback's.

The browser is the machine's (Debian's ``chromium`` and ``chromium-driver``; ``.ci/run`` installs
them); where none is found the test is skipped with the reason. ``PARLOR_GALLERY=docs/gallery``
(``make gallery``) saves a screenshot of each game's table and boards there.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.emoji_sync import sync_card_emojis
from bot.engine import GAMES
from sandbox import FakeDiscord, FakeMessage, FakeUser
from sandbox.web import WebSandbox, page_message
from tests.e2e.conftest import COGS, World, parlor

STEPS = 1500
"""Clicks (or waits for the bots) a game may take: a budget in steps, never in seconds."""

SYNC_STEPS = 200
"""Page changes awaited for the page to catch up with the loopback before the test fails."""

QUIET_STEPS = 5
"""Quiet spells (2 s without a page change) in a row after which a page that still differs fails."""

GALLERY = os.environ.get("PARLOR_GALLERY")
"""Where ``make gallery`` wants the screenshots (unset: none are taken)."""



def _browser() -> tuple[str, str] | str:
    """``(chromium, chromedriver)`` paths, or the reason there are none."""
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver") if Path(p).exists()), None)
    if chromium is None or driver is None:
        return ("no Chromium and chromedriver on this machine (Debian: apt-get install chromium "
                "chromium-driver; .ci/run installs them as root)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return chromium, driver


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium (a fresh profile, no background connections) under Selenium's chromedriver."""
    found = _browser()
    if isinstance(found, str):
        pytest.skip(found)
    from selenium import webdriver

    chromium, driver_path = found
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    with tempfile.TemporaryDirectory(prefix="parlor-chromium-") as profile:
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    f"--user-data-dir={profile}", "--window-size=1600,1000"):
            opts.add_argument(arg)
        driver = webdriver.Chrome(options=opts, service=webdriver.ChromeService(executable_path=driver_path))
        driver.set_script_timeout(30)
        try:
            yield driver
        finally:
            driver.quit()


class Page:
    """The page in the browser, one pane per member; Selenium's blocking calls run in a worker thread."""

    def __init__(self, driver: Any, fake: FakeDiscord, users: list[FakeUser]) -> None:
        self.driver, self.fake, self.users = driver, fake, users

    async def run(self, fn: Any, *args: Any) -> Any:
        """Runs a Selenium call in a worker thread; an element redrawn under it (stale) is found again."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(20):
            try:
                return await asyncio.to_thread(fn, *args)
            except StaleElementReferenceException:
                continue
        raise AssertionError("the page kept redrawing the element under the click")

    def _pane(self, i: int) -> str:
        return f".pane[data-pane='{i}']"

    _READ = """const p = document.querySelector(arguments[0]);
        const read = () => ({user: p.dataset.user, channel: p.dataset.channel,
                             msgs: Array.from(p.querySelectorAll('.messages > .msg')).map(
                                 (m) => [m.dataset.id, m.dataset.version])});"""

    def _read(self, i: int) -> dict[str, Any]:
        return self.driver.execute_script(self._READ + "return read();", self._pane(i))

    def _changed(self, i: int, seen: dict[str, Any] | None = None) -> bool:
        """Waits (in the browser) for the pane's next DOM change; False after 2 s without one. With
        *seen* (what :meth:`_read` gave), a pane that already differs from it counts as changed at
        once: a change between the read and this call is not waited for again."""
        return self.driver.execute_async_script(
            self._READ + """
            const done = arguments[arguments.length - 1];
            if (arguments[1] !== null && JSON.stringify(read()) !== arguments[1]) { done(true); return; }
            const obs = new MutationObserver(() => { obs.disconnect(); done(true); });
            obs.observe(p, {subtree: true, childList: true, attributes: true});
            setTimeout(() => { obs.disconnect(); done(false); }, 2000);""", self._pane(i),
            None if seen is None else json.dumps(seen, separators=(",", ":")))

    async def synced(self, i: int, channel: int) -> list[FakeMessage]:
        """Waits until pane *i* shows exactly what its member sees in *channel* (ids, order, versions)."""
        user = self.users[i]
        quiet = 0
        for _ in range(SYNC_STEPS):
            shown = await self.run(self._read, i)
            held = self.fake.messages(channel, visible_to=user)
            if shown["user"] == str(user.id) and shown["channel"] == str(channel) and \
                    shown["msgs"] == [[str(m.id), page_message(m)["version"]] for m in held]:
                return held
            quiet = 0 if await self.run(self._changed, i, shown) else quiet + 1
            if quiet >= QUIET_STEPS:
                break
        raise AssertionError(f"pane {i} never caught up with the loopback: {shown} vs {[m.id for m in held]}")

    async def wait_css(self, i: int, css: str) -> None:
        """Waits for an element in pane *i* (a budget of page changes)."""
        for _ in range(SYNC_STEPS):
            if await self.run(lambda: self.driver.find_elements("css selector", f"{self._pane(i)} {css}")):
                return
            await self.run(self._changed, i)
        raise AssertionError(f"pane {i} never showed {css}")

    async def click(self, i: int, css: str) -> bool:
        """Clicks the element of pane *i*; False when the page no longer has it (a real-time board moved on)."""
        def go() -> bool:
            found = self.driver.find_elements("css selector", f"{self._pane(i)} {css}")
            if found:
                found[0].click()
            return bool(found)
        return bool(await self.run(go))

    async def type(self, i: int, text: str) -> None:
        from selenium.webdriver.common.keys import Keys

        def go() -> None:
            box = self.driver.find_element("css selector", f"{self._pane(i)} .command")
            box.clear()
            box.send_keys(text + Keys.ENTER)
        await self.run(go)

    async def select(self, i: int, message: int, custom_id: str, values: list[str]) -> None:
        from selenium.webdriver.support.select import Select

        def go() -> None:
            css = f"{self._pane(i)} .msg[data-id='{message}'] select[data-custom-id='{custom_id}']"
            found = self.driver.find_elements("css selector", css)
            if not found:
                return
            menu = Select(found[0])
            for v in values:
                menu.select_by_value(v)
            if menu.is_multiple:
                send = f"{self._pane(i)} .msg[data-id='{message}'] [data-select-send='{custom_id}']"
                self.driver.find_element("css selector", send).click()
        await self.run(go)

    async def text_of(self, i: int, message: int) -> str:
        return await self.run(lambda: self.driver.find_element(
            "css selector", f"{self._pane(i)} .msg[data-id='{message}']").text)

    async def show(self, i: int, message: int) -> None:
        """Scrolls pane *i* to the top of a message."""
        await self.run(self.driver.execute_script, "const m = document.querySelector(arguments[0]);"
                       "if (m) m.scrollIntoView({block: 'start'});", f"{self._pane(i)} .msg[data-id='{message}']")

    async def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        await self.run(self.driver.save_screenshot, str(path))


async def gallery(page: Page, thread: int, table_message: int, kind: str) -> bool:
    """Saves ``web-<kind>-table.png`` (both panes at the table message) and ``web-<kind>-board.png`` (each
    pane at its member's board) into :data:`GALLERY`; True once taken."""
    assert GALLERY is not None
    boards = []
    for i in (0, 1):
        held = await page.synced(i, thread)
        boards.append(next((m.id for m in reversed(held) if m.ephemeral and m.buttons), None))
        await page.show(i, table_message)
    await page.screenshot(Path(GALLERY) / f"web-{kind}-table.png")
    for i, board in enumerate(boards):
        if board is not None:
            await page.show(i, board)
    await page.screenshot(Path(GALLERY) / f"web-{kind}-board.png")
    return True


def held_by(fake: FakeDiscord, thread: Any, user: FakeUser) -> list[FakeMessage]:
    """The ephemeral messages of *thread* only *user* sees (their boards), oldest first."""
    return [m for m in fake.messages(thread, visible_to=user) if m.ephemeral and m.visible_to == user.id]


def usable(msg: FakeMessage) -> list[tuple[str, str, Any]]:
    """The enabled buttons and menus of *msg*: ``("button", custom id, None)`` or ``("select", id, menu)``."""
    out: list[tuple[str, str, Any]] = [("button", b.custom_id, None) for b in msg.buttons
                                       if b.custom_id and not b.disabled]
    return out + [("select", s.custom_id, s) for s in msg.selects if not s.disabled and s.options]


def plain(text: str) -> str:
    """Text with markdown, emojis, mentions and white space taken out (to compare with what a page shows)."""
    text = re.sub(r"<a?:\w+:\d+>|<[@#t][^>]*>", "", text)
    return re.sub(r"[\s*_~`|>#-]", "", text)


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_a_game_played_to_its_end_in_the_browser(fake: FakeDiscord, world: World, tmp_path: Path,
                                                       browser: Any, kind: str) -> None:
    """Each game through the page: opened by a typed command with its short options, joined, started,
    played by clicks in two panes until it ends, the page matching the loopback at every step."""
    game = GAMES[kind]
    users = [world.alice, world.bob]
    rng = random.Random(kind)
    async with parlor(fake, tmp_path / "p.db", [*COGS, "cogs.games"]) as bot, WebSandbox(fake, world.guild) as web:
        await sync_card_emojis(bot)  # the cards as pictures, as `parlor sync` leaves them (docs/art.md §8)
        assert await bot.load_card_emojis() > 0
        page = Page(browser, fake, users)
        await page.run(browser.get, web.url)
        for i in (0, 1):
            await page.synced(i, world.channel.id)
        options = " ".join(f"{k}:{str(v).lower() if isinstance(v, bool) else v}"
                           for k, v in game.quick_options.items())
        await page.type(0, f"/{kind} new {options} bot_speed:fast")
        thread = await fake.wait_for(lambda: next(iter(fake.threads(world.channel)), None), timeout=10,
                                     what="the table's thread")
        table = await fake.wait_for(lambda: bot.tables.table_in(thread.id), timeout=10, what="the table")
        assert table.kind == kind
        assert {k: table.options[k] for k in game.quick_options} == dict(game.quick_options), table.options
        for i in (0, 1):
            await page.wait_css(i, f".channels li[data-id='{thread.id}']")
            assert await page.click(i, f".channels li[data-id='{thread.id}']")
            await page.synced(i, thread.id)
        lobby = table.message_id
        assert await page.click(1, f".msg[data-id='{lobby}'] button[data-label='Join']")
        await fake.wait_for(lambda: len(table.seats) == 2, timeout=5, what="Bob's seat")
        if table.max_players > 2:  # Blitzkrieg is a duel
            await page.synced(0, thread.id)
            assert await page.click(0, f".msg[data-id='{lobby}'] button[data-label='Add bot']")
            await fake.wait_for(lambda: len(table.seats) == 3, timeout=5, what="the bot's seat")
        await page.synced(0, thread.id)
        assert await page.click(0, f".msg[data-id='{lobby}'] button[data-label='Start']")
        await fake.wait_for(lambda: table.status == "running", timeout=10, what="the game to start")

        board_label = bot.tables.uis[kind].board_label
        opened: set[int] = set()
        shot = False
        for step in range(STEPS):
            if table.status != "running" or table.engine is None or table.engine.is_over:
                break
            i = step % 2
            held = await page.synced(i, thread.id)
            mine = [m for m in held if m.ephemeral and m.visible_to == users[i].id and usable(m)]
            heard = len(fake.requests)
            if i not in opened:
                opened.add(i)
                assert await page.click(i, f".msg[data-id='{table.message_id}'] button[data-label='{board_label}']")
                await fake.wait_for(lambda i=i: any(m.ephemeral for m in fake.messages(thread, visible_to=users[i])),
                                    timeout=5, what="the board")
                continue
            if GALLERY and not shot and len(opened) == 2 and mine and step > 4:
                shot = await gallery(page, thread.id, table.message_id, kind)
            public = [c for c in usable(fake.message(table.message_id)) if c[1].startswith("parlor:pub:")]
            if mine and rng.random() < 0.93:
                board = mine[-1]
                what, custom_id, menu = rng.choice(usable(board))
                if what == "button":
                    if not await page.click(i, f".msg[data-id='{board.id}'] button[data-custom-id='{custom_id}']"):
                        continue
                else:
                    values = rng.sample([v for _, v in menu.options], menu.min_values or 1)
                    await page.select(i, board.id, custom_id, values)
            elif public and rng.random() < 0.5:
                custom_id = rng.choice(public)[1]
                await page.click(i, f".msg[data-id='{table.message_id}'] button[data-custom-id='{custom_id}']")
            else:
                theirs = [m for m in held_by(fake, thread, users[1 - i]) if usable(m)]
                if mine or theirs:  # a member may move: nothing to wait for (the table waits on them)
                    continue
                await fake.wait_for(lambda heard=heard: len(fake.requests) > heard or table.status != "running",
                                    timeout=30, what="the table to move on")
                continue
            await fake.wait_for(lambda heard=heard: len(fake.requests) > heard or table.status != "running",
                                timeout=30, what="the bot to answer the click")
        else:
            pytest.fail(f"{kind}: the game went on past {STEPS} steps")

        await fake.wait_for(lambda: table.status == "finished", timeout=10, what="the game to finish")
        final = await fake.wait_for(lambda: (m := fake.message(table.message_id)) and "Rematch" in
                                    [b.label for b in m.buttons] and m, timeout=10, what="the final table")
        for i in (0, 1):
            held = await page.synced(i, thread.id)
            others = {m.id for m in fake.messages(thread, visible_to=users[1 - i]) if m.ephemeral}
            assert not others & {m.id for m in held}, "a member's page shows another's ephemeral message"
            shown = plain(await page.text_of(i, final.id))
            for line in final.text.splitlines():
                assert plain(line) in shown, f"{line!r} is not on the page"
            for b in final.buttons:
                assert b.label in await page.text_of(i, final.id)
            # A Section per seat: Discord's CDN avatars (no internet here) drawn as round initials, no broken image.
            drawn = await page.run(browser.execute_script, """return Array.from(document.querySelectorAll(arguments[0]))
                .map((a) => a.textContent);""", f"{page._pane(i)} .msg[data-id='{final.id}'] .thumbnail .avatar")
            seats = [alt or "" for url, alt in final.media if url.startswith("https://cdn.discordapp.com/")]
            assert drawn == [name[:1].upper() for name in seats] and (seats or kind == "dutch"), (drawn, seats)
            broken = await page.run(browser.execute_script, """return Array.from(document.querySelectorAll('img'))
                .filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src);""")
            assert not broken, broken
