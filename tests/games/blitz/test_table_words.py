"""Blitz (31) at the table, without Discord: the words of showdowns and 31s (``bot/games/blitz/narrate.py``)
and what ``cogs/_blitz_ui.py`` draws from views and events (``docs/rules/blitz.md``, "On Discord")."""

from __future__ import annotations

from bot.engine import Event
from bot.games.blitz.engine import showdown_losses
from bot.games.blitz.narrate import blitz_reason, showdown_reason
from bot.tables.table import Seat, Table
from bot.tables.text import fit_text
from bot.tables.ui import CONTENT_MAX
from cogs._blitz_ui import BlitzUI
from tests.games.blitz.helpers import position


def value(points: int) -> dict[str, int]:
    return {"half_points": 2 * points, "points": points}


def showdown(knocker: str | None, values: dict[str, int]) -> dict[str, object]:
    low = min(values.values())
    lowest = [p for p, v in values.items() if v == low]
    return {"knocker": knocker, "hands": {p: [] for p in values}, "values": {p: value(v) for p, v in values.items()},
            "lowest": lowest, "losses": showdown_losses(lowest, knocker)}


def test_showdown_words_say_who_loses_lives_and_why() -> None:
    """§7: one lowest loses one; the knocker alone lowest loses two; a tied knocker is safe; a tie loses one each."""
    name = str.upper
    assert showdown_reason(showdown("a", {"a": 25, "b": 12, "c": 20}), name) == \
        "B has the lowest hand (12) and loses 1 life."
    assert showdown_reason(showdown("a", {"a": 12, "b": 25}), name) == \
        "A knocked and has the lowest hand alone (12): a knocker alone lowest loses 2 lives."
    assert showdown_reason(showdown("a", {"a": 12, "b": 12, "c": 20}), name) == \
        "A knocked and ties for the lowest hand (12) with B: the knocker is safe, B loses 1 life."
    assert showdown_reason(showdown("a", {"a": 12, "b": 12, "c": 12}), name) == \
        "A knocked and ties for the lowest hand (12) with B and C: the knocker is safe, B and C each lose 1 life."
    assert showdown_reason(showdown("a", {"a": 30, "b": 12, "c": 12}), name) == \
        "B and C tie for the lowest hand (12): each loses 1 life."


def test_blitz_words_say_who_holds_31_and_who_loses() -> None:
    """§6: everyone without 31 loses one; several dealt 31 are all safe; everyone with 31: nobody loses."""
    name = str.upper
    assert blitz_reason({"players": ["a"], "losses": {"b": 1, "c": 1}, "at_deal": False}, name) == \
        "A holds 31: B and C each lose 1 life."
    assert blitz_reason({"players": ["a", "b"], "losses": {"c": 1}, "at_deal": True}, name) == \
        "A and B hold 31 at the deal: C loses 1 life."
    assert blitz_reason({"players": ["a", "b"], "losses": {}, "at_deal": True}, name) == \
        "A and B hold 31: nobody loses a life."


def table_at(game: object, names: dict[str, str] | None = None) -> Table:
    players = list(game.players)  # type: ignore[attr-defined]
    seats = [Seat(p, i + 1, None, (names or {}).get(p, p)) for i, p in enumerate(players)]
    return Table(id=7, kind="blitz", title="Blitz (31)", guild_id=1, channel_id=1, thread_id=1, host_id=1,
                 options={}, seed=1, min_players=2, max_players=8, status="running", seats=seats,
                 engine=game)  # type: ignore[arg-type]


def test_the_public_table_shows_no_hand_and_the_hand_only_its_own_cards() -> None:
    """§1: the table message names no card of any hand; a player's board shows their own cards and value."""
    game = position(3, hands={"p0": "10S JS AS", "p1": "2C 3D 4H"}, discard="9D",
                    lives={"p0": 4, "p1": 1, "p2": 0})
    table = table_at(game)
    ui = BlitzUI()
    public = ui.public_text(table)
    for card in ("10♠", "J♠", "A♠", "2♣", "3♦", "4♥"):
        assert card not in public
    assert "Discard pile: **9♦**" in public and "1. **p0** ❤️❤️❤️❤️ — ▶ to play" in public
    assert "2. p1 ❤️" in public and "3. ~~p2~~ — 💀 out" in public
    board = ui.board(table, "p0")
    assert "10♠ J♠ A♠ — worth **31**" in board.text and "2♣" not in board.text
    assert [b.label for b in board.buttons] == ["Knock", "Draw from the stock", "Take the 9♦ (discard pile)"]
    waiting = ui.board(table, "p1")
    assert "Waiting for p0." in waiting.text and all(b.disabled for b in waiting.buttons)
    out = ui.board(table, "p2")
    assert "You are out" in out.text and not out.buttons


def test_an_all_out_round_and_a_player_going_out_get_their_own_notice() -> None:
    """§8: a round that would put everyone out is played again, and the thread says why."""
    ui = BlitzUI()
    table = table_at(position(2, hands={"p0": "10S JS AS", "p1": "2C 3D 4H"}))
    replayed = ui.notice(table, Event("round_replayed", {"round": 4, "reason": "everyone left would go out"}))
    assert replayed == ("🔁 Round 4 is played again: everyone left would go out, so nobody loses a life and the "
                        "same dealer deals again.")
    assert ui.notice(table, Event("out", {"players": ["p1"]})) == "💀 p1 is out (no lives left)."
    assert ui.notice(table, Event("game_over", {"winner": "p0"})) == "🏆 Game over: p0 wins!"
    assert {"blitz", "showdown", "round_replayed", "out", "game_over"} == ui.notice_events


def test_eight_players_with_ten_lives_and_long_names_fit_one_message() -> None:
    """The table message and a hand stay inside Discord's 2,000 characters without being cut."""
    game = position(8, hands={f"p{i}": h for i, h in enumerate(
        ["10S JS AS", "2C 3D 4H", "KH QH 5C", "2S 3S 4S", "5D 6D 7D", "8C 9C 10C", "JH 9H 8H", "QC KC AC"])},
        discard="9D", lives={f"p{i}": 10 for i in range(8)})
    table = table_at(game, {f"p{i}": "N" * 32 + str(i) for i in range(8)})
    for i in range(8):
        table.public_events.append(Event("discarded", {"player": f"p{i}", "card": {"id": "9D", "label": "9♦"}}))
    ui = BlitzUI()
    text = ui.public_text(table)
    assert len(text) < CONTENT_MAX and fit_text(text) == text
    assert text.count("\n· N") == 6  # the last six moves
    assert len(ui.board(table, "p0").text) < CONTENT_MAX
