"""The /rules summaries say what the rules pages say (issue: wrong winner and missing power rule)."""

from bot.engine import GAMES

SUMMARIES = {kind: game.summary for kind, game in GAMES.items()}


def test_dutch_blitz_summary_says_the_highest_total_wins() -> None:
    """docs/rules/dutch-blitz.md §9: the highest total wins, not the first to the target."""
    text = SUMMARIES["dutch-blitz"]
    assert "highest" in text and "total" in text
    assert "first to the target" not in text.lower()


def test_dutch_summary_says_aggressive_powers_need_a_card_drawn_and_discarded_at_once() -> None:
    """docs/rules/dutch.md §6: in the aggressive set only a J, Q or K drawn and discarded at once gives its power."""
    text = SUMMARIES["dutch"]
    assert "aggressive" in text.lower() and "drawn and discarded at once" in text


def test_every_game_has_a_summary_that_fits_a_discord_message() -> None:
    """Each registered game has a summary, well inside Discord's 2,000 characters."""
    from bot.engine import REGISTRY

    assert {"dutch-blitz", "blitzkrieg", "dutch", "blitz"} <= set(SUMMARIES) == set(REGISTRY)
    assert all(len(text) <= 1500 for text in SUMMARIES.values())
