"""Stale clicks: how often a person's Dutch-pile click is refused because their board was behind.

Run: ``PYTHONPATH=. .venv/bin/python bench/stale_boards.py [--clicks N] [--seeds K]``.

The production bot runs against the loopback Discord with the default table settings: one
simulated person and three bots (the default strength, ``bot_speed`` relaxed) play Dutch Blitz in
real time. The person reads the board *as it is on their screen* (the ephemeral message in the
loopback Discord), thinks for a human while (log-normal, median 1.2 s), then clicks a card the
board shows as fitting a Dutch pile (blue), else Flip; the click reaches Discord 150 ms later.
A Dutch-pile click counts as **refused** when it does not put the person's card on a Dutch pile:
the engine refused it, a bot won the race to that pile, or the card no longer fitted. The run is
made twice, the same way: with live boards off (the board changes only when its owner clicks: the
behaviour before live boards) and on (``docs/tables.md``, "Live boards"). Prints one line per mode.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import tempfile
import time
from pathlib import Path

from bot.client import ParlorBot
from bot.config import Config, DatabaseConfig, DiscordConfig, TablesConfig
from bot.storage import Storage
from sandbox import FakeDiscord, running_bot

LAG_S = 0.15
"""Seconds between the person's click and Discord receiving it."""


def think_s(rng: random.Random) -> float:
    """A person's time to read the board and click, in seconds (log-normal, median 1.2 s)."""
    return min(4.0, max(0.5, math.exp(rng.gauss(math.log(1.2), 0.35))))


def dutch_plays(table, player: str) -> int:
    return sum(1 for who, action in table.engine.log()["actions"] if who == player and action["type"] == "dutch")


async def one_run(live: bool, clicks: int, seed: int) -> tuple[int, int, int, float]:
    """Play until the person made *clicks* Dutch-pile clicks; returns (clicks, refused, race losses, seconds)."""
    rng = random.Random(seed)
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        channel = fake.add_channel(guild, "games")
        alice = fake.add_user("alice", guild=guild)
        with tempfile.TemporaryDirectory() as tmp:
            config = Config(discord=DiscordConfig(token=fake.token, api_base=fake.api_base,
                                                  gateway=fake.gateway_url),
                            database=DatabaseConfig(path=str(Path(tmp) / "bench.db")), tables=TablesConfig())
            async with Storage.open(config.database.path) as storage:
                client = ParlorBot(config, storage, load_cogs=["cogs.tables", "cogs.dutch_blitz"],
                                   check_commands=False)
                client.tables.live_boards = live
                async with running_bot(fake, client):
                    await client.tree.sync()
                    await fake.slash(alice, channel, "dutch-blitz new")
                    await fake.wait_for(lambda: fake.threads(channel), timeout=5)
                    thread = fake.threads(channel)[-1]
                    await fake.wait_for(lambda: fake.messages(thread), timeout=5)
                    lobby = fake.last_message(thread)
                    for _ in range(3):
                        await fake.click(alice, lobby, "Add bot")
                    await fake.click(alice, lobby, "Start")
                    table = next(iter(client.tables.tables.values()))
                    me = table.seat_of_user(alice.id).player_id
                    board = (await fake.click(alice, lobby, "Open my board")).message
                    made = refused = lost = 0
                    start = time.monotonic()
                    while made < clicks and not table.engine.is_over:
                        await asyncio.sleep(think_s(rng))
                        if table.engine.view(None)["phase"] != "play":
                            with contextlib.suppress(LookupError, ValueError):
                                await fake.click(alice, lobby, "Ready")
                            board = (await fake.click(alice, lobby, "Open my board")).message
                            continue
                        shown = fake.message(board.id)  # what is on the person's screen now
                        fitting = [b for b in shown.buttons if b.custom_id and ":c:" in b.custom_id and b.style == 1]
                        pick = fitting[0] if fitting else next(
                            (b for b in shown.buttons if b.label.startswith(("Flip", "Shift"))), None)
                        if pick is None:
                            board = (await fake.click(alice, lobby, "Open my board")).message
                            continue
                        token = pick.custom_id.rsplit(":v", 1)[1].split(":", 1)[1]
                        await asyncio.sleep(LAG_S)
                        current = fake.message(board.id)  # a refresh may have redrawn it meanwhile
                        same = next((b for b in current.buttons if b.custom_id
                                     and b.custom_id.endswith(f":{token}")), None)
                        before = dutch_plays(table, me)
                        if same is None:  # the card under the finger is gone
                            made, refused = (made + 1, refused + 1) if fitting else (made, refused)
                            continue
                        edits = len(fake.edits(via="interaction", message=board.id))
                        result = await fake.click(alice, current, same.custom_id)
                        if result.response_type == 4:
                            board = result.message
                        with contextlib.suppress(TimeoutError):
                            await fake.wait_for(lambda n=edits, m=board.id: len(fake.edits(via="interaction",
                                                                                           message=m)) > n, timeout=2)
                        if fitting:
                            made += 1
                            if dutch_plays(table, me) == before:
                                refused += 1
                                lost += "got there first" in fake.message(board.id).content
                    return made, refused, lost, time.monotonic() - start


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=40, help="Dutch-pile clicks per run (default 40)")
    parser.add_argument("--seeds", type=int, default=2, help="runs per mode (default 2)")
    args = parser.parse_args()
    print("Stale Dutch-pile clicks, 1 person + 3 bots (relaxed), Dutch Blitz, default table settings")
    for live in (False, True):
        totals = [0, 0, 0, 0.0]
        for seed in range(args.seeds):
            for i, value in enumerate(await one_run(live, args.clicks, seed)):
                totals[i] += value
        made, refused, lost, seconds = totals
        share = 100 * refused / made if made else 0.0
        print(f"live boards {'on ' if live else 'off'}: {int(refused)}/{int(made)} Dutch-pile clicks refused "
              f"({share:.1f} %), of which {int(lost)} lost a race; {seconds:.0f} s of play")


if __name__ == "__main__":
    asyncio.run(main())
