"""Rendering of Blitz (31) tables: the public table message and each player's private hand.

Only :meth:`Engine.view <bot.engine.core.Engine.view>` and the table's public events are read;
every rule stays in ``bot/games/blitz`` (``docs/rules/blitz.md``), the words of each event in
``bot/games/blitz/narrate.py``. A hand is shown only on its holder's ephemeral board; the public
message shows the discard pile, the stock count, lives (❤️), who knocked and who still has a
last turn, and the last moves in words.

The board's buttons are the player's legal actions, one button each (``Knock``, ``Draw from the
stock``, ``Take the 9♠ (discard pile)``; then ``Discard K♦ (keep 21)``), carrying the kit's action
tokens (:mod:`bot.tables.codec`): opaque, checked against the table as it is when clicked, naming
no card; the default :meth:`GameUI.on_board_click <bot.tables.ui.GameUI.on_board_click>` plays
them. While someone else plays, the two draws are shown greyed out. Cards are drawn through the
kit's :class:`~bot.tables.faces.CardStyle` (:meth:`GameUI.cards <bot.tables.ui.GameUI.cards>`):
the card emojis with the card's name beside them where synced and usable, else ``Q♠`` as text;
a button that names a card carries its emoji (``docs/art.md`` §8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engine import GAMES, Action, Event
from bot.games.blitz.narrate import blitz_reason, showdown_reason
from bot.tables import GameUI, Table
from bot.tables.codec import codec_for
from bot.tables.faces import PLAIN, CardStyle
from bot.tables.seats import PublicParts, SeatPanel
from bot.tables.ui import Board, BoardButton, fit_label

__all__ = ["BlitzUI", "LAST_MOVES"]

LAST_MOVES = 6
"""How many of the latest public events the table message tells in words."""

HEART = "❤️"
QUIET_EVENTS = frozenset({"lives"})
"""Public events left out of the last moves (the lives are on the table message anyway)."""


def _cards(cards: Sequence[Mapping[str, Any]], style: CardStyle = PLAIN) -> str:
    return " ".join(style.card(c) for c in cards)


def _points(value: Mapping[str, Any] | None) -> str:
    return "—" if value is None else str(value["points"])


def _hearts(lives: int) -> str:
    return HEART * lives if lives > 0 else "no lives"



GROUP_OF = {"discard": "cards", "draw": "piles", "knock": "actions"}
"""Which group of the board's layout a move's button goes in (``docs/tables.md``, "Message layouts"):
a discard is one of the player's cards, a draw takes from the table's piles, a knock is an action."""

class BlitzUI(GameUI):
    """How a Blitz (31) table looks on Discord (``docs/rules/blitz.md``)."""

    kind = "blitz"
    quiet_events = QUIET_EVENTS
    board_label = "Open my hand"
    notice_events: ClassVar[frozenset[str]] = frozenset({"blitz", "showdown", "round_replayed", "out", "game_over"})

    def how_to_play(self, table: Table) -> str:
        """The rules in short and how the hand works (the "How to play" button)."""
        return (f"**How to play Blitz (31)**\n{GAMES['blitz'].summary}\n\n**On Discord**: press **Open my hand** for "
                "your private hand (only you see it) with its value. On your turn it offers **Knock** (when you "
                "may), **Draw from the stock** and **Take** the card on top of the discard pile; after drawing, "
                "**Discard** one of your four cards (each button says what your hand is worth without it). The "
                "table message shows the discard pile, everyone's lives ❤️, who knocked, who still has a last "
                "turn, and the last moves. Showdowns and 31s are posted in the thread with every hand.")

    # ------------------------------------------------------------------ public message

    def public_text(self, table: Table) -> str:
        """Seats in order with lives and turn, the discard pile and stock, then the last moves in words."""
        return "\n".join(self._public_lines(table, seats=True))

    def public_parts(self, table: Table) -> PublicParts:
        """The header, a seat each (:meth:`seat_panels`), and the discard pile and last moves."""
        header, *rest = self._public_lines(table, seats=False)
        return PublicParts(header, tuple(self.seat_panels(table)), "\n".join(rest))

    def seat_panels(self, table: Table) -> list[SeatPanel]:
        """Each seat in order: ``1. name ❤️❤️ — ▶ to play``, turn marked (one line each in the text)."""
        engine = table.engine
        assert engine is not None
        view = engine.view(None)
        return [SeatPanel(player, f"{i}. {self._seat_line(table, view, player)}", turn=player == view["turn"])
                for i, player in enumerate(view["players"], start=1)]

    def _public_lines(self, table: Table, *, seats: bool) -> list[str]:
        engine = table.engine
        assert engine is not None
        view = engine.view(None)
        name = table.display_name
        _card = self.cards(table).card
        lines = [f"**Blitz (31)** — table #{table.id} · round {view['round']} · {name(view['dealer'])} deals"]
        if view["winner"] is None and view["turn"] is not None:
            lines.append(f"Discard pile: **{_card(view['discard_top'])}** · stock: {view['stock_count']} cards")
        if seats:
            lines += [seat.text for seat in self.seat_panels(table)]
        lines += self.last_moves_block(table, LAST_MOVES)
        return lines

    def _seat_line(self, table: Table, view: Mapping[str, Any], player: str) -> str:
        name = table.display_name(player)
        lives = view["lives"][player]
        if player not in view["in"]:
            return f"~~{name}~~ — 💀 out"
        marks = []
        if player == view["turn"]:
            marks.append("▶ to discard" if view["phase"] == "discard" else "▶ to play")
        if player == view["knocker"]:
            marks.append("🔔 knocked")
        elif player in view["last_turns"]:
            marks.append("⏳ last turn to come")
        if player == view["winner"]:
            marks.append("🏆 winner")
        head = f"**{name}**" if player == view["turn"] else name
        return f"{head} {_hearts(lives)}" + (f" — {' · '.join(marks)}" if marks else "")

    def notice(self, table: Table, event: Event) -> str | None:
        """A new message in the thread for a 31, a showdown (every hand, who loses lives and why), an
        all-out replay, a player going out and the end of the game.
        """
        d = event.data
        name = table.display_name
        if event.type in ("blitz", "showdown"):  # every hand is shown face up (rules §5)
            style = self.cards(table)
            hands = [f"• {name(p)}: {_cards(cards, style)} — **{_points(d['values'].get(p))}**"
                     for p, cards in d["hands"].items()]
            if event.type == "blitz":
                head = "🎯 **31!** " + blitz_reason(d, name)
            else:
                knocker = d.get("knocker")
                head = "🃏 **Showdown**" + (f" after {name(knocker)}'s knock" if knocker else "") + ": " \
                       + showdown_reason(d, name)
            return "\n".join([head, *hands])
        if event.type == "round_replayed":
            return (f"🔁 Round {d['round']} is played again: {d['reason']}, so nobody loses a life and the same "
                    "dealer deals again.")
        if event.type == "out":
            players = list(d["players"])
            return f"💀 {' and '.join(name(p) for p in players)} {'is' if len(players) == 1 else 'are'} out " \
                   "(no lives left)."
        if event.type == "game_over":
            winner = d.get("winner")
            return f"🏆 Game over: {name(winner)} wins!" if winner else "Game over."
        return super().notice(table, event)

    def score_text(self, table: Table, player: str, score: float) -> str:
        """The winner's lives left; the others are out (in the order they went out, by rank)."""
        lives = int(score)
        return f"{_hearts(lives)} left" if lives > 0 else "out"

    # ------------------------------------------------------------------ private hand

    def private_text(self, table: Table, player: str) -> str:
        """The player's cards and their value as the rules count it (§5), the table in short, whose turn."""
        engine = table.engine
        assert engine is not None
        view = engine.view(player)
        name = table.display_name
        lives = view["lives"][player]
        lines = [f"**Your hand** — round {view['round']} · {_hearts(lives)}"]
        if player not in view["in"]:
            lines.append("💀 You are out of this game: you have no lives left. Watch the table message.")
            return "\n".join(lines)
        hand = view["hand"]
        style = self.cards(table)
        _card = style.card
        value = _points(view["hand_value"])
        top = _card(view["discard_top"])
        mine = player == view["turn"]
        if mine and view["phase"] == "discard":
            drawn = hand[-1]  # the engine adds a drawn card at the end of the hand
            where = "from the discard pile — keep it this turn" if view["must_keep"] else (
                "from the discard pile" if view["drew_from"] == "discard" else "from the stock")
            best = view["best_discard"]
            lines.append(f"{_cards(hand[:-1], style)} + **{_card(drawn)}** (drawn {where})")
            lines.append(f"Discard one: the best you can keep is **{value}**"
                         + (f" (discard the {_card(best)})." if best else "."))
        else:
            lines.append(f"{_cards(hand, style)} — worth **{value}**")
            lines.append(f"Discard pile: **{top}** · stock: {view['stock_count']} cards")
        knocker = view["knocker"]
        if knocker == player:
            lines.append("🔔 You knocked: the others play their last turns.")
        elif knocker is not None:
            last = "your last turn" if player in view["last_turns"] else "you have had your last turn"
            lines.append(f"🔔 {name(knocker)} knocked: {last}.")
        if mine and view["phase"] == "draw":
            options = "draw from the stock or take the discard" if knocker is not None else \
                "knock, draw from the stock or take the discard"
            lines.append(f"**Your turn**: {options}.")
        elif not mine and view["turn"] is not None:
            lines.append(f"Waiting for {name(view['turn'])}.")
        return "\n".join(lines)

    def board(self, table: Table, player: str, selection: str | None = None) -> Board:
        """The hand and one button per legal move (row 0): Knock, Draw, Take; or Discard one of four."""
        engine = table.engine
        assert engine is not None
        codec = codec_for(table, player)
        buttons = []
        legal = engine.legal_actions(player)
        view = engine.view(player)
        cards = self.cards(table)

        def emoji(action: Action) -> str | None:
            """The emoji of the card a move names: the discard pile's top (seen by all) or one's own card."""
            card = view["discard_top"] if action.get("source") == "discard" else action.get("card")
            found = cards.emoji(card) if action["type"] in ("draw", "discard") else None
            return found.markup if found is not None else None

        for action in legal:
            style = "danger" if action["type"] == "knock" else "primary"
            buttons.append(BoardButton(self.action_label(table, player, action), codec.token(action), style, row=0,
                                       group=GROUP_OF.get(action["type"], "actions"), emoji=emoji(action)))
        view = engine.view(player)
        if not legal and player in view["in"] and view["turn"] is not None:
            # Someone else's turn: the draws, greyed out until it is this player's (a steady layout).
            for action in ({"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}):
                buttons.append(BoardButton(self.action_label(table, player, action), codec.token(action),
                                           disabled=True, row=0, group="piles", emoji=emoji(action)))
        return Board(self.private_text(table, player), buttons)

    def action_label(self, table: Table, player: str, action: Action) -> str:
        """``Knock``, ``Draw from the stock``, ``Take the 9♠ (discard pile)``, ``Discard K♦ (keep 21)``."""
        engine = table.engine
        assert engine is not None
        kind = action.get("type")
        if kind == "knock":
            return "Knock"
        if kind == "draw" and action.get("source") == "stock":
            return "Draw from the stock"
        if kind == "draw":
            return f"Take the {PLAIN.card(engine.view(player)['discard_top'])} (discard pile)"
        if kind == "discard":
            after = engine.view(player).get("after_discard") or {}
            keep = after.get(action["card"])
            return fit_label(f"Discard {PLAIN.card(action['card'])}" + (f" (keep {keep['points']})" if keep else ""))
        return super().action_label(table, player, action)

    def private_note(self, table: Table, player: str, event: Event) -> str | None:
        """None: the hand dealt and the card drawn are on the board itself."""
        return None
