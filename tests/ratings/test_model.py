"""Ratings from results (bot/ratings/model.py): OpenSkill's own numbers, bots, ties (docs/ratings.md)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.ratings.model import BOT_MU, BOT_SIGMA, Entrant, Rating, RatingBook, ordinal


def library(ranks: list[int]) -> list[tuple[float, float]]:
    """What the openskill package itself gives for fresh players with these ranks."""
    model = PlackettLuce()
    teams = [[model.rating()] for _ in ranks]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(r) for r in ranks])]


def test_two_player_win_matches_the_library() -> None:
    """Ann beats Bo: both ratings are exactly the library's."""
    book = RatingBook()
    assert book.record([Entrant("u1", 1), Entrant("u2", 2)])
    (a_mu, a_sigma), (b_mu, b_sigma) = library([1, 2])
    assert (book.rating("u1").mu, book.rating("u1").sigma) == pytest.approx((a_mu, a_sigma))
    assert (book.rating("u2").mu, book.rating("u2").sigma) == pytest.approx((b_mu, b_sigma))
    assert book.rating("u1").mu > 25 > book.rating("u2").mu and book.rating("u1").games == 1


def test_four_player_ranking_matches_the_library() -> None:
    """A four-player finish 1-2-3-4 orders the ratings and equals the library's numbers."""
    book = RatingBook()
    book.record([Entrant(f"u{i}", i) for i in (1, 2, 3, 4)])
    expected = library([1, 2, 3, 4])
    for i, (mu, sigma) in zip((1, 2, 3, 4), expected, strict=True):
        assert (book.rating(f"u{i}").mu, book.rating(f"u{i}").sigma) == pytest.approx((mu, sigma))
    assert [book.rating(f"u{i}").mu for i in (1, 2, 3, 4)] == sorted((m for m, _ in expected), reverse=True)


def test_a_tie_matches_the_library_and_ties_rate_alike() -> None:
    """Two players tied for second get the same rating, the library's."""
    book = RatingBook()
    book.record([Entrant("u1", 1), Entrant("u2", 2), Entrant("u3", 2)])
    expected = library([1, 2, 2])
    assert book.rating("u2") == book.rating("u3")
    assert (book.rating("u2").mu, book.rating("u2").sigma) == pytest.approx(expected[1])


def test_a_person_alone_against_bots_is_unrated_by_default() -> None:
    """With the bots left out (the server does not rate them), one person is not a rated game."""
    book = RatingBook()
    assert not book.record([Entrant("u1", 1), Entrant("bot:greedy", 2, bot_strength=0)])
    assert book.ratings == {}


def test_the_people_of_a_game_with_bots_are_rated_against_each_other() -> None:
    """Two people and a bot (bots unrated): the people are rated by their places among themselves, as a
    two-player game of exactly those places would rate them; the bot gets nothing (issue #30, item 13)."""
    with_bot = RatingBook()
    assert with_bot.record([Entrant("u1", 1), Entrant("bot:greedy", 2, bot_strength=0), Entrant("u2", 3)])
    alone = RatingBook()
    assert alone.record([Entrant("u1", 1), Entrant("u2", 2)])
    assert with_bot.ratings == alone.ratings and "bot:greedy" not in with_bot.ratings


def test_rated_bots_play_at_a_fixed_rating_per_strength() -> None:
    """With rate_bots, beating the strongest bot moves the person as against μ 30, σ 1; the bot never changes."""
    book = RatingBook()
    assert book.record([Entrant("u1", 1), Entrant("bot:greedy", 2, bot_strength=0)], rate_bots=True)
    model = PlackettLuce()
    [[me], [_]] = model.rate([[model.rating()], [model.rating(mu=BOT_MU[0], sigma=BOT_SIGMA)]], ranks=[1.0, 2.0])
    assert book.rating("u1").mu == pytest.approx(me.mu)
    assert "bot:greedy" not in book.ratings


def test_everyone_tied_or_alone_is_unrated() -> None:
    """Nothing to learn: one entrant, or every entrant on the same rank."""
    book = RatingBook()
    assert not book.record([Entrant("u1", 1)])
    assert not book.record([Entrant("u1", 1), Entrant("u2", 1)])


def test_ordinal_is_mu_minus_three_sigma() -> None:
    """The number people see is the conservative μ − 3σ; a newcomer shows 0."""
    assert ordinal(30.0, 2.0) == 24.0
    assert Rating().ordinal == pytest.approx(0.0)
