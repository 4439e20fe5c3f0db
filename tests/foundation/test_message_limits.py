"""Table and board messages fit Discord's 2,000 characters (issue 17 item 15).

The renderer must fit by itself, without the service's last-resort shortening: whole simulated
games with eight players and the longest display names Discord allows (32 characters).
"""

from __future__ import annotations

from random import Random

import pytest

from bot.games import dutch_blitz
from bot.tables.table import Seat, Table
from bot.tables.text import CONTENT_MAX, fit_text
from cogs._dutch_blitz_ui import DutchBlitzUI


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dutch_blitz_messages_fit_with_eight_players_and_long_names(seed: int) -> None:
    """Every public table text (with the final standings) and every board of a whole 8-player game fits."""
    ui = DutchBlitzUI()
    players = [f"bot{i}" for i in range(8)]
    engine = dutch_blitz.ENGINE.new(players, seed=seed, options={"target": 15})
    table = Table(id=10**9, kind="dutch-blitz", title="Dutch Blitz", guild_id=1, channel_id=1, thread_id=1,
                  host_id=1, options={}, seed=seed, min_players=2, max_players=8,
                  seats=[Seat(p, None, "greedy", "W" * 32) for p in players])
    table.engine = engine
    bots = {p: dutch_blitz.BOTS["greedy"](p, Random(i)) for i, p in enumerate(players)}
    rng = Random(seed)
    for _ in range(30_000):
        if engine.is_over:
            break
        player = rng.choice(players)
        legal = [a for a in engine.legal_actions(player) if a["type"] not in engine.table_actions]
        choice = bots[player].choose(engine.view(player), legal) if legal else None
        if choice is not None:
            engine.apply(player, choice)
        text = ui.public_text(table) + ("\n\n" + ui.result_text(table) if engine.is_over else "")
        assert len(text) <= CONTENT_MAX - 200, len(text)  # room for a notice line
        for p in players:
            assert len(ui.board(table, p).text) <= CONTENT_MAX - 1000  # room for three private notes
    assert engine.is_over


def test_fit_text_keeps_head_and_tail_and_never_exceeds() -> None:
    """An over-long text loses whole lines from its middle and says so; the last line (standings) stays."""
    text = "\n".join(["**Table #1**", *[f"line {i} " + "x" * 60 for i in range(60)], "1. Ana — 80"])
    fitted = fit_text(text)
    assert len(fitted) <= CONTENT_MAX
    assert fitted.startswith("**Table #1**") and fitted.endswith("1. Ana — 80")
    assert "lines left out" in fitted
    assert all(line in text.split("\n") or "left out" in line for line in fitted.split("\n"))
