"""Stale clicks: how often a person's Dutch-pile click is refused because their board was behind.

Run: ``PYTHONPATH=. .venv/bin/python bench/stale_boards.py [--live on|off|both] [--tables N] [--clicks N]``.

The production bot runs against the loopback Discord with the default table settings. At each of
*N* tables (played at once, in one process) one simulated person and three bots (the default
strength, ``bot_speed`` relaxed) play Dutch Blitz in real time. The person reads the board *as it
is on their screen* (their ephemeral message in the loopback Discord) for a human while
(log-normal, median 1.5 s), then decides: when it shows a card that fits a Dutch pile (blue), they
reach for it and click it after a human reaction time (log-normal, median 0.9 s), unless they see
it stop fitting at least 250 ms before the click lands (the time a person needs to stop a
movement: a *stopped* reach, not a click); otherwise, half the time they Flip (after the same
reaction time) and half the time they read the board again. A click reaches Discord 150 ms after
it is made.

Two figures per mode. A reach is **stale** when the card the board showed as fitting no longer
fitted a Dutch pile at the moment the person chose it: the board was behind the table. A
Dutch-pile click counts as **refused** when it does not put the person's card on a Dutch pile:
the board was stale, a bot won the race to that pile, or a bot took the pile between the choice
and the click (a person is slower than the table, whatever the board shows). The run is made the
same way with live boards off (a board changes only when its owner clicks: the behaviour before
live boards) and on (``docs/tables.md``, "Live boards"). Prints one line per mode.
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

STOP_S = 0.25
"""Seconds before a click lands within which a person can no longer stop it."""


def look_s(rng: random.Random) -> float:
    """A person's time to read the board and find a card, in seconds (log-normal, median 1.5 s)."""
    return min(5.0, max(0.5, math.exp(rng.gauss(math.log(1.5), 0.4))))


def reaction_s(rng: random.Random) -> float:
    """A person's time from seeing a card to clicking it, in seconds (log-normal, median 0.9 s)."""
    return min(3.0, max(0.4, math.exp(rng.gauss(math.log(0.9), 0.35))))


def source_of(label: str) -> str:
    """The pile a board's card button stands for, from its label (``Post 2 🟥 R5`` → ``post:1``)."""
    word, rest = label.split(" ", 1)
    return f"post:{int(rest.split(' ', 1)[0]) - 1}" if word == "Post" else word.lower()


async def dutch_plays(client: ParlorBot, table, player: str) -> int:
    """The Dutch-pile plays *player* made at *table*, from the stored log (a table's engine keeps none)."""
    actions = await client.storage.actions(table.id)
    return sum(1 for a in actions if a.player_id == player and a.action["type"] == "dutch")


async def person(fake: FakeDiscord, client: ParlorBot, user, channel, clicks: int, rng: random.Random) -> list[int]:
    """One person at their own table: [Dutch-pile clicks, refused, lost a race, reaches stopped, stale choices]."""
    await fake.slash(user, channel, "dutch-blitz new")
    await fake.wait_for(lambda: fake.threads(channel) and fake.messages(fake.threads(channel)[-1]), timeout=10)
    lobby = fake.last_message(fake.threads(channel)[-1])
    for _ in range(3):
        await fake.click(user, lobby, "Add bot")
    await fake.click(user, lobby, "Start")
    table = next(t for t in client.tables.tables.values() if t.seat_of_user(user.id))
    me = table.seat_of_user(user.id).player_id
    board = (await fake.click(user, lobby, "Open my board")).message
    made = refused = lost = aborted = stale = 0
    while made < clicks and not table.engine.is_over:
        if table.engine.view(None)["phase"] != "play":
            await asyncio.sleep(0.5)
            with contextlib.suppress(LookupError, ValueError):
                await fake.click(user, lobby, "Ready")
            board = (await fake.click(user, lobby, "Open my board")).message
            continue
        await asyncio.sleep(look_s(rng))  # reading the board (people read slower than bots play)
        if table.engine.is_over or table.engine.view(None)["phase"] != "play":
            continue
        shown = fake.message(board.id)  # what is on the person's screen now
        fitting = [b for b in shown.buttons if b.label.startswith(("Blitz ", "Wood ", "Post ")) and b.style == 1]
        other = next((b for b in shown.buttons if b.label.startswith(("Flip", "Shift"))), None)
        if fitting:
            pick = fitting[0]
        elif other is not None and rng.random() < 0.5:
            pick = other
        else:
            continue  # nothing to do: read the board again
        token = pick.custom_id.rsplit(":v", 1)[1].split(":", 1)[1]
        if fitting:  # was the board right when the person chose? (the engine's state at that moment)
            source = source_of(pick.label)
            stale += not any(a["type"] == "dutch" and a["from"] == source for a in table.engine.legal_actions(me))
        await asyncio.sleep(max(0.0, reaction_s(rng) - STOP_S))
        if fitting:  # the last moment the person can still stop: does the card still look blue?
            seen = fake.message(board.id)
            still = next((b for b in seen.buttons if b.custom_id and b.custom_id.endswith(f":{token}")), None)
            if still is None or still.style != 1:
                aborted += 1
                continue
        await asyncio.sleep(STOP_S + LAG_S)
        before = await dutch_plays(client, table, me)  # (read first: nothing may wait between look and click)
        current = fake.message(board.id)  # a refresh may have redrawn it meanwhile: same place, same card
        same = next((b for b in current.buttons if b.custom_id and b.custom_id.endswith(f":{token}")), None)
        if same is None:  # the card under the finger is gone
            made, refused = (made + 1, refused + 1) if fitting else (made, refused)
            continue
        edits = len(fake.edits(via="interaction", message=board.id))
        result = await fake.click(user, current, same.custom_id)
        if result.response_type == 4:
            board = result.message
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(lambda n=edits, m=board.id: len(fake.edits(via="interaction",
                                                                           message=m)) > n, timeout=2)
        if fitting:
            made += 1
            if await dutch_plays(client, table, me) == before:
                refused += 1
                lost += "got there first" in fake.message(board.id).text
    return [made, refused, lost, aborted, stale]


async def one_run(live: bool, tables: int, clicks: int, seed: int) -> tuple[list[int], float]:
    """*tables* tables at once, each until its person made *clicks* Dutch-pile clicks; totals and seconds."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        with tempfile.TemporaryDirectory() as tmp:
            config = Config(discord=DiscordConfig(token=fake.token, api_base=fake.api_base,
                                                  gateway=fake.gateway_url),
                            database=DatabaseConfig(path=str(Path(tmp) / "bench.db")), tables=TablesConfig())
            async with Storage.open(config.database.path) as storage:
                client = ParlorBot(config, storage, load_cogs=["cogs.tables", "cogs.games"],
                                   check_commands=False)
                client.tables.live_boards = live
                async with running_bot(fake, client):
                    await client.tree.sync()
                    people = [(fake.add_user(f"p{i}", guild=guild), fake.add_channel(guild, f"games{i}"))
                              for i in range(tables)]
                    start = time.monotonic()
                    results = await asyncio.gather(*(person(fake, client, user, channel, clicks,
                                                            random.Random(seed * 1000 + i))
                                                     for i, (user, channel) in enumerate(people)))
                    return [sum(r[k] for r in results) for k in range(5)], time.monotonic() - start


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", choices=["on", "off", "both"], default="both")
    parser.add_argument("--tables", type=int, default=4, help="tables played at once (default 4)")
    parser.add_argument("--clicks", type=int, default=40, help="Dutch-pile clicks per person (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Stale Dutch-pile clicks: {args.tables} tables of 1 person + 3 bots (relaxed), default table settings")
    for live in {"off": [False], "on": [True], "both": [False, True]}[args.live]:
        (made, refused, lost, aborted, stale), seconds = await one_run(live, args.tables, args.clicks, args.seed)
        reaches = made + aborted
        print(f"live boards {'on ' if live else 'off'}: {stale}/{reaches} reaches for a card the board showed as "
              f"fitting were stale when chosen ({100 * stale / max(1, reaches):.1f} %); {refused}/{made} clicks "
              f"refused ({100 * refused / max(1, made):.1f} %, {lost} lost a race), {aborted} reaches stopped "
              f"in time; {made - refused} cards played in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
