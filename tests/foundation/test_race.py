"""The race arbiter, with a fake clock: windows, Discord-timestamp order, seeded tie-breaks."""

from __future__ import annotations

import random

from bot.tables.race import Claim, RaceArbiter


def claim(player: str, ts: int, resource: str = "dutch-pile:0") -> Claim:
    return Claim(resource, player, {"type": "dutch"}, ts)


def test_claims_in_one_window_are_ordered_by_discord_timestamp_not_arrival() -> None:
    """A later-arriving claim with an earlier Discord timestamp comes first."""
    arb = RaceArbiter(150, 0, random.Random(1))
    assert arb.submit(claim("bob", 1_000_080), now_ms=0) is True
    assert arb.submit(claim("alice", 1_000_020), now_ms=90) is False
    assert arb.close_due(now_ms=149) == []
    (batch,) = arb.close_due(now_ms=150)
    assert [c.player for c in batch] == ["alice", "bob"]


def test_claim_after_a_closed_window_opens_a_new_one() -> None:
    """Once a window is closed, the next claim on that resource opens a new one."""
    arb = RaceArbiter(150, 0, random.Random(1))
    arb.submit(claim("a", 10), now_ms=0)
    assert [c.player for c in arb.close_due(now_ms=150)[0]] == ["a"]
    assert arb.submit(claim("b", 5), now_ms=200) is True
    assert [c.player for c in arb.close("dutch-pile:0")] == ["b"]


def test_late_claim_joins_a_window_not_yet_closed() -> None:
    """A claim arriving past the deadline, before the window was closed, joins it and is not lost."""
    arb = RaceArbiter(150, 0, random.Random(1))
    arb.submit(claim("a", 10), now_ms=0)
    assert arb.submit(claim("b", 5), now_ms=170) is False
    assert [c.player for c in arb.close_due(now_ms=171)[0]] == ["b", "a"]


def test_different_resources_do_not_share_a_window() -> None:
    """Claims on two piles race separately."""
    arb = RaceArbiter(150, 0, random.Random(1))
    assert arb.submit(claim("a", 10, "dutch-pile:0"), now_ms=0)
    assert arb.submit(claim("b", 5, "dutch-pile:1"), now_ms=10)
    batches = arb.close_due(now_ms=500)
    assert sorted(len(b) for b in batches) == [1, 1]


def test_ties_are_broken_by_the_seeded_rng_not_arrival() -> None:
    """Equal timestamps: the order depends on the seed, never on which arrived first."""
    def winner(seed: int, arrival: list[str]) -> str:
        arb = RaceArbiter(150, 0, random.Random(seed))
        for i, p in enumerate(arrival):
            arb.submit(claim(p, 500), now_ms=i)
        return arb.close("dutch-pile:0")[0].player

    for seed in range(20):
        assert winner(seed, ["a", "b", "c"]) == winner(seed, ["c", "a", "b"])
    assert len({winner(seed, ["a", "b", "c"]) for seed in range(20)}) > 1


def test_tie_ms_widens_what_counts_as_a_tie() -> None:
    """With tie_ms=10, claims 5 ms apart are tied; 10 ms apart are not."""
    firsts = set()
    for seed in range(30):
        arb = RaceArbiter(150, 10, random.Random(seed))
        arb.submit(claim("late", 105), 0)
        arb.submit(claim("early", 100), 1)
        firsts.add(arb.close("dutch-pile:0")[0].player)
    assert firsts == {"late", "early"}
    arb = RaceArbiter(150, 10, random.Random(0))
    arb.submit(claim("late", 110), 0)
    arb.submit(claim("early", 100), 1)
    assert arb.close("dutch-pile:0")[0].player == "early"


def test_a_seed_gives_the_same_tie_breaks_as_its_generator() -> None:
    """Given the table's seed instead of a generator, the arbiter breaks ties exactly as
    ``random.Random(seed)`` would (the generator is made at the first tie)."""
    claims = [claim(p, 1_000) for p in ("a", "b", "c", "d")]
    for seed in range(5):
        assert RaceArbiter(150, 0, seed).order(claims) == RaceArbiter(150, 0, random.Random(seed)).order(claims)
