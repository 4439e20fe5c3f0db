"""Tournament, match and entrant statuses are string enums (docs/tournaments.md §10), stored as their
values: exactly the ones the storage allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.rows import MATCH_STATUSES, TOURNAMENT_STATUSES
from bot.tournaments.statuses import EntrantStatus, MatchStatus, TournamentStatus


def test_the_statuses_are_the_ones_storage_allows() -> None:
    assert tuple(TournamentStatus) == TOURNAMENT_STATUSES
    assert tuple(MatchStatus) == MATCH_STATUSES
    assert TournamentStatus.RUNNING == "running" and f"{MatchStatus.DONE}" == "done"


@pytest.mark.parametrize("status", list(EntrantStatus))
async def test_every_entrant_status_is_stored_as_its_value(tmp_path: Path, status: EntrantStatus) -> None:
    async with Storage.open(tmp_path / "e.db") as storage:
        tid = await storage.create_tournament(guild_id=1, channel_id=2, organizer_id=3, name="Cup", kind="blitz",
                                              format="swiss", options={}, settings={}, seed=4)
        await storage.set_entrant(tid, 5, "ann", status)
        await storage.set_tournament_status(tid, TournamentStatus.CHECKIN)
        (entrant,) = await storage.entrants(tid)
        assert type(entrant.status) is str and entrant.status == status.value
        assert [t.id for t in await storage.tournaments(TournamentStatus.CHECKIN)] == [tid]
