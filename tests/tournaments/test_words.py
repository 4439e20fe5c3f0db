"""What the tournament messages say (issue #31 D): counts with their right plural, a check-in
mentioned only when one is planned, markdown that renders as meant, and the tie-breaks explained.
The game is the test-only "High card"."""

from __future__ import annotations

import re

import pytest

from bot.tournaments.service import plural
from tests.tournaments.test_service import CHANNEL, GUILD, ORGANIZER, PLAYERS, new_swiss, play_round


def balanced_bold(text: str) -> bool:
    """Whether every line's ``**`` pairs open and close around some text (none nested, none empty)."""
    return all(line.count("**") % 2 == 0 and "****" not in line and not re.search(r"\*\*\s*\*\*", line)
               for line in text.splitlines())


def test_plural() -> None:
    assert [plural(n, "round") for n in (0, 1, 2)] == ["0 rounds", "1 round", "2 rounds"]
    assert plural(1, "match", "matches") == "1 match" and plural(3, "match", "matches") == "3 matches"


@pytest.mark.parametrize(("rounds", "words"), [(1, "Swiss, 1 round ·"), (3, "Swiss, 3 rounds ·")])
async def test_the_tournament_message_counts_its_rounds_right(world, rounds: int, words: str) -> None:
    storage, tables, service = world
    tid = await new_swiss(service, 2, rounds=rounds)
    assert words in service.message_text(await service.load(tid))


async def test_a_timed_start_with_one_minute_of_check_in_says_minute(world) -> None:
    storage, tables, service = world
    tid = await new_swiss(service, 2, start_in_minutes=60, checkin_minutes=1)
    text = service.message_text(await service.load(tid))
    assert "check-in opens 1 minute before." in text


@pytest.mark.parametrize(("timed", "checkin", "says"), [(False, 15, False), (False, 0, False), (True, 0, False),
                                                          (True, 15, True)])
async def test_registering_mentions_the_check_in_only_when_one_is_planned(world, timed: bool, checkin: int,
                                                                         says: bool) -> None:
    """Without a timed start the organizer starts whenever they like, with no check-in unless they open
    one: "Check in when the check-in opens" is said only for a timed start with a check-in window."""
    storage, tables, service = world
    t = await service.create(ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, name="Cup", kind="high-card",
                             format="swiss", checkin_minutes=checkin, start_in_minutes=60 if timed else None)
    answer = await service.register(t.id, PLAYERS[0])
    assert answer.startswith("You are registered.")
    assert ("check-in opens" in answer.lower()) is says, answer


async def test_the_check_in_state_of_the_message_is_bold_as_meant(world) -> None:
    storage, tables, service = world
    tid = await new_swiss(service, 2)
    await service.open_checkin(tid, ORGANIZER)
    text = service.message_text(await service.load(tid))
    assert "Check-in open" in text and "**Check in**" in text and balanced_bold(text), text


async def test_the_standings_explain_their_columns(world) -> None:
    """The standings end with a legend of their abbreviations (OMW, GP; Buchholz for pods)."""
    storage, tables, service = world
    tid = await new_swiss(service, 4, rounds=2)
    await service.start(tid, ORGANIZER)
    await play_round(tables, service, tid)
    text = service.standings_text(await service.load(tid))
    assert "OMW 33.3%" in text or "OMW" in text
    assert "OMW: opponents' match-win %" in text and "GP: game points" in text, text
    assert balanced_bold(text)
