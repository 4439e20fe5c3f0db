"""Rendering of Dutch tables: the public table message and each player's private hand.

Only :meth:`Engine.view <bot.engine.core.Engine.view>`, the table's public events and the private
events of one player are read; every rule stays in ``bot/games/dutch`` (``docs/rules/dutch.md``),
the words of each event in ``bot/games/dutch/narrate.py``.

What each one sees (``docs/design.md`` §6):

* the **public message** (everyone, spectators included): seat order and whose turn, the discard
  pile's top, the deck, each hand as card backs by position, a Dutch call and the last turns
  left, the jump-in window, totals, the last moves in words; at the round's end every hand face up;
* a player's **private hand** (ephemeral): the same, their own cards face down as well (a card is
  seen only when a rule shows it), the card they drew, their moves as buttons; a look (the opening
  look, a J's or K's look) is a private note shown for ``peek_seconds`` and then hidden again by
  the table kit (the engine states how long: :meth:`DutchEngine.shown_for_ms`).

The buttons are the player's legal actions, one button each while they fit (Draw, Discard the
drawn card, Swap it into card 1..n, Jump in with a card, Call Dutch, …), carrying the kit's opaque
action tokens (:mod:`bot.tables.codec`); when they do not fit (a power's look and swap over every
player's cards, many jump-ins) the kit's picker takes over, worded by :meth:`DutchUI.step_label`
and :meth:`DutchUI.path_label`. Positions are shown counting from 1 ("card 3"), as the narration
does. Cards are drawn through the kit's :class:`~bot.tables.faces.CardStyle` (:meth:`GameUI.cards
<bot.tables.ui.GameUI.cards>`): the card emojis (a face-down card is always the back's emoji) where
synced and usable, else text (``Q♥``, ``🂠``); the Discard button carries the drawn card's emoji
(``docs/art.md`` §8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engine import GAMES, Action, Event
from bot.engine.narrate import narrate
from bot.tables import GameUI, Table, TableError
from bot.tables.codec import codec_for
from bot.tables.faces import PLAIN, CardStyle
from bot.tables.picker import BUTTONS_MAX, Picker
from bot.tables.seats import PublicParts, SeatPanel
from bot.tables.ui import Board, BoardButton, Click, fit_label

__all__ = ["DutchUI", "LAST_MOVES", "BACK"]

LAST_MOVES = 6
"""How many of the latest public events the table message tells in words."""

BACK = "🂠"
"""A face-down card."""

QUIET_EVENTS = frozenset({"jump_in_window", "turn", "round_over"})
"""Public events left out of the last moves: every discard opens a window and every turn passes
(the table says whose turn it is), and a round's end has its own lines (and its own notice)."""

POWERS = {"J": "look at any one card", "Q": "swap any two cards, unseen", "K": "two actions, each a look or a swap"}
"""What each power allows (``docs/rules/dutch.md`` §6), in words."""

PRIMARY_MOVES = ("look", "draw", "discard", "keep", "reveal", "next_round", "skip_power")
GROUP_OF = {"look": "cards", "swap": "cards", "jump_in": "cards", "draw": "piles", "discard": "piles",
            "keep": "cards"}
"""Which group of the board's layout a move's button goes in (``docs/tables.md``, "Message layouts"):
the player's own cards (look, swap, keep, jump in), the table's piles (draw, discard the drawn card),
else actions (Dutch, reveal, next round, skip a power)."""
"""Action types shown first on a flat board, as primary buttons."""


def _slots(slots: Sequence[Any], style: CardStyle = PLAIN, *, faces: bool = False) -> str:
    """A hand by position: ``1:🂠 2:🂠 4:🂠`` (face down) or ``1:5♥ 2:🃏 Joker`` (turned over).

    Face down, every card is the back (its emoji, or 🂠), whatever the view holds: the face is
    never drawn. Positions are stable (``docs/rules/dutch.md`` §2.3): an empty one is left out, so
    the numbers of the others never change.
    """
    back = style.back("standard", text=BACK)
    out = [f"{i}:{style.card(slot) if faces else back}" for i, slot in enumerate(slots, start=1) if slot is not None]
    return " ".join(out) if out else "no cards"


class DutchUI(GameUI):
    """How a Dutch table looks on Discord (``docs/rules/dutch.md``)."""

    kind = "dutch"
    quiet_events = QUIET_EVENTS
    board_label = "Open my hand"
    notice_events: ClassVar[frozenset[str]] = frozenset({"dutch", "round_over", "game_over"})
    PICKERS_KEPT: ClassVar[int] = 16
    """How many pickers (one per table state and player) :meth:`picker` keeps."""

    def __init__(self) -> None:
        self._pickers: dict[tuple[Any, ...], Picker] = {}

    def picker(self, table: Table, player: str) -> Picker:
        """The kit's picker, kept per table state and player: a power's swaps over every player's cards
        run to hundreds of actions, and a board and each click on it would list them again.

        Each swap of a Q's or K's power is offered in both orders: a player may name either card
        first ("my card 3", then Bo's card 1, as well as the other way round); a swap picked in the
        other order is the same move, made the engine's way round (:meth:`on_board_click`;
        ``docs/rules/dutch.md`` §6).

        The state is the engine object, its accepted actions and the table's version (a staged
        change bumps it), so a kept picker always lists the current legal actions.
        """
        engine = table.engine
        assert engine is not None
        key = (table.id, table.seed, id(engine), engine.action_count, table.version, player)
        found = self._pickers.get(key)
        if found is None:
            legal = engine.legal_actions(player)
            mirrored = [{"type": "power_swap", "first": a["second"], "second": a["first"]}
                        for a in legal if a["type"] == "power_swap"]
            found = self._pickers[key] = Picker(
                [*legal, *mirrored], codec_for(table, player),
                step_label=lambda path, value: self.step_label(table, player, path, value),
                action_label=lambda action: self.action_label(table, player, action))
            while len(self._pickers) > self.PICKERS_KEPT:
                del self._pickers[next(iter(self._pickers))]
        return found

    def how_to_play(self, table: Table) -> str:
        """The rules in short and how the table works (the "How to play" button)."""
        return (f"**How to play Dutch**\n{GAMES['dutch'].summary}\n\n**On Discord**: press **Open my hand** for your "
                "private hand (only you see it). Your cards lie face down, yours too: a look shows a card to you "
                "alone for a few seconds, then it is hidden again, so remember it. On your turn press **Draw**; "
                "the drawn card shows on your hand only: **Discard** it or **Swap** it into one of your cards. "
                "After each discard, **Jump in** with a card by its position. Powers (J, Q, K) offer their "
                "looks and swaps as buttons over every player's cards. The table message shows every hand as "
                "card backs by position, the discard pile and the last moves in words.")

    # ------------------------------------------------------------------ shared pieces

    @staticmethod
    def _view(table: Table, player: str | None) -> dict[str, Any]:
        engine = table.engine
        assert engine is not None
        return engine.view(player)

    def _head(self, table: Table, view: Mapping[str, Any]) -> str:
        passive = view["variant"] == "passive"
        rules = f"passive, to {view['options']['target']}" if passive else "aggressive"
        return f"**Dutch** ({rules}) — table #{table.id} · round {view['round']}"

    def _status(self, table: Table, view: Mapping[str, Any], me: str | None) -> list[str]:
        """Whose turn and what they do, the jump-in window and a Dutch call, in words."""
        name = table.display_name
        lines: list[str] = []

        def who(p: str) -> str:
            return "you" if p == me else name(p)

        phase = view["phase"]
        if phase == "look":
            waiting = [p for p, done in view["looked"].items() if not done]
            lines.append("👀 Opening look: everyone looks at two of their own cards. Waiting for "
                         + ", ".join(who(p) for p in waiting) + ".")
            return lines
        if phase != "play":
            return lines
        top = view["discard"][-1] if view["discard"] else None
        lines.append(f"Discard pile: **{self.cards(table).card(top)}** · deck: {view['deck']} cards")
        power = view["power"]
        turn = view["turn"]
        if power is not None:
            left = power["actions_left"]
            lines.append(f"⚡ {who(power['player'])} {'use' if power['player'] == me else 'uses'} the "
                         f"{power['rank']}'s power ({POWERS.get(power['rank'], 'a power')}; {left} action"
                         f"{'s' if left != 1 else ''} left).")
        elif view["due_to_end"]:
            lines.append(f"🏁 The round is over: {who(turn)} {'turn' if turn == me else 'turns'} the hands over.")
        elif view["step"] == "decide":
            lines.append(f"▶ {who(turn)} {'hold' if turn == me else 'holds'} a drawn card: discard it or swap it "
                         "into a hand position.")
        else:
            lines.append("▶ Your turn: draw." if turn == me else f"▶ {who(turn)} to draw.")
        window = view["jump_in"]
        if window is not None and window["open"]:
            grace = view["options"]["jump_in_grace_seconds"]
            if view["variant"] == "aggressive":
                taken = " (taken: a later right one stays, shown to all)" if window["taken"] else ""
                rule = f"the first one counts, any player's card{taken}"
            else:
                rule = "each with their own cards"
            ends = table.rule_ends_unix_ms("jump_in_grace") if grace else None
            wait = (f"; the next draw waits until <t:{ends // 1000}:R>" if ends is not None
                    else f"; the next draw waits {grace} s after the discard" if grace else "")
            lines.append(f"🙋 Jump in on the **{window['rank']}** (discard #{window['discard']}): {rule}{wait}.")
        if view["dutch"] is not None:
            # The turn being played counts (a call before a draw makes it that player's last one);
            # the caller never has a last turn, and someone who was mid-turn gets one more.
            playing = turn is not None and turn != view["dutch"] and not view["due_to_end"]
            now = [f"{who(turn)} (now)"] if playing else []
            last = now + [who(p) for p in view["last_turns"] or []]
            rest = ("last turns: " + ", ".join(last)) if last else "every last turn is taken"
            lines.append(f"🔔 {who(view['dutch'])} called **Dutch** — {rest}.")
        return lines

    def _round_lines(self, table: Table, view: Mapping[str, Any]) -> list[str]:
        """Every hand face up with its value, the caller's penalty and the totals (a round's end)."""
        detail = view["last_round"]
        if not detail:
            return []
        name = table.display_name
        why = "everyone had their last turn" if detail["why"] == "dutch" else "the deck is exhausted"
        lines = [f"**Round {detail['round']} is over** ({why}): every hand is turned face up."]
        style = self.cards(table)
        for p, slots in detail["hands"].items():
            extra = ""
            modifier = detail["modifiers"].get(p, 0)
            if p == detail["caller"]:
                if detail["outcome"] == "outright":
                    extra = " 🔔 called Dutch and is lowest" + (f" ({modifier:+d})" if modifier else "")
                else:
                    extra = f" 🔔 called Dutch but was {detail['outcome']}: undercut penalty {modifier:+d}"
            total = f" → total {detail['totals'][p]}" if "totals" in detail else ""
            lines.append(f"• {name(p)}: {_slots(slots, style, faces=True)} = **{detail['values'][p]}**"
                         f"{extra}{' · round ' + str(detail['scores'][p]) if modifier else ''}{total}")
        return lines

    # ------------------------------------------------------------------ public message

    def public_text(self, table: Table) -> str:
        """Seats in order (whose turn, card backs by position, totals), the discard pile, the deck, the
        jump-in window, a Dutch call and the last turns, then the last moves; at a round's end every
        hand face up with its value and total instead of the seats (eight players of long names fit
        Discord's 2,000 characters uncut).
        """
        return "\n".join(self._public_lines(table, seats=True))

    def public_parts(self, table: Table) -> PublicParts:
        """The header, a seat each (:meth:`seat_panels`), and the rest of :meth:`public_text`."""
        header, *rest = self._public_lines(table, seats=False)
        return PublicParts(header, tuple(self.seat_panels(table)), "\n".join(rest))

    def seat_panels(self, table: Table) -> list[SeatPanel]:
        """Each seat while a round is played: ``1. ▶ **name** 🔔 — 1:🂠 2:🂠 3:🂠 (3 cards) · total 12``, the
        cards face down (a back per position, ``docs/rules/dutch.md`` §4); none once the hands are face up.
        """
        view = self._view(table, None)
        if view["phase"] in ("round_over", "over"):  # revealed: the hands below say it
            return []
        name = table.display_name
        passive = view["variant"] == "passive"
        style = self.cards(table)
        active = view["power"]["player"] if view["power"] else view["turn"]
        panels = []
        for i, hand in enumerate(view["hands"], start=1):
            p = hand["player"]
            turn = p == active and view["phase"] == "play"
            bell = " 🔔" if p == view["dutch"] else ""
            total = f" · total {view['totals'][p]}" if passive else ""
            cards = f"{hand['cards']} card{'s' if hand['cards'] != 1 else ''}"
            text = f"{i}. {'▶ ' if turn else ''}**{name(p)}**{bell} — {_slots(hand['slots'], style)} ({cards}){total}"
            panels.append(SeatPanel(p, text, turn=turn))
        return panels

    def _public_lines(self, table: Table, *, seats: bool) -> list[str]:
        view = self._view(table, None)
        name = table.display_name
        passive = view["variant"] == "passive"
        revealed = view["phase"] in ("round_over", "over")
        lines = [self._head(table, view)]
        if seats:
            lines += [seat.text for seat in self.seat_panels(table)]
        lines += self._status(table, view, None)
        if revealed:
            lines += self._round_lines(table, view)
            if view["phase"] == "round_over":
                lines.append("Press **Next round** to deal the next round.")
        elif passive and view["round_scores"]:
            scores = view["round_scores"][-1]
            told = ", ".join(f"{name(p)} {s:+d}" for p, s in scores.items())
            lines.append(f"Round {view['round'] - 1} scored: {told}")
        lines += self.last_moves_block(table, LAST_MOVES)
        return lines

    def public_buttons(self, table: Table) -> list[BoardButton]:
        """Between rounds (passive): **Next round**."""
        if self._view(table, None)["phase"] == "round_over":
            return [BoardButton("Next round", "next", "success")]
        return []

    def on_public_click(self, table: Table, player: str, token: str, *, is_host: bool) -> Action:
        """**Next round** deals the next round (any seated player may)."""
        if token == "next":
            return {"type": "next_round"}
        raise TableError("That button is not in use.")

    def auto_action(self, table: Table, player: str) -> Action | None:
        """The hands are turned over by themselves once the round is due to end (``docs/rules/dutch.md``
        §8, §9): when *player*, a person, is the one to ``reveal``, the table makes it for them after
        the jump-in grace on the last discard (§7.1). Nobody has to press anything, or be pinged to.
        """
        reveal: Action = {"type": "reveal"}
        engine = table.engine
        return reveal if engine is not None and reveal in engine.legal_actions(player) else None

    def notice(self, table: Table, event: Event) -> str | None:
        """A new message in the thread for a Dutch call, a round's end (every hand face up) and the game's end."""
        if event.type == "round_over":
            d = event.data
            view = {"last_round": dict(d)}
            return "\n".join(self._round_lines(table, view))
        if event.type == "dutch":
            return "🔔 " + (narrate(table.kind, event, table.display_name) or "Dutch!")
        if event.type == "game_over":
            return "🏆 " + (narrate(table.kind, event, table.display_name) or "Game over.")
        return super().notice(table, event)

    def standings_title(self, table: Table) -> str:
        """Lowest wins in Dutch."""
        return "**Final standings** (lowest wins)"

    def score_text(self, table: Table, player: str, score: float) -> str:
        """Points (totals, or the last hands in the aggressive set)."""
        return f"{int(score)} points"

    # ------------------------------------------------------------------ private hand

    def private_text(self, table: Table, player: str) -> str:
        """The player's own cards face down by position, the drawn card (theirs only), the table in short."""
        view = self._view(table, player)
        revealed = view["phase"] in ("round_over", "over")
        mine = next(h for h in view["hands"] if h["player"] == player)
        total = f" · your total {view['totals'][player]}" if view["variant"] == "passive" else ""
        lines = [f"**Your hand** — Dutch · round {view['round']}{total}"]
        if revealed:
            lines += self._round_lines(table, view)
            return "\n".join(lines)
        style = self.cards(table)
        lines.append(f"Your cards: {_slots(mine['slots'], style)} (face down: remember what you saw)")
        others = [f"{table.display_name(h['player'])} {_slots(h['slots'], style)}" for h in view["hands"]
                  if h["player"] != player]
        lines.append("Others: " + " · ".join(others))
        drawn = view["drawn"]
        if drawn is not None and drawn.get("card") is not None:
            lines.append(f"🃏 You drew **{style.card(drawn['card'])}**: discard it, or swap it into one of your "
                         "cards (that card goes face up onto the discard pile).")
        lines += self._status(table, view, player)
        last = self.last_moves(table, 3)
        if last:
            lines.append("Last moves: " + " ".join(last))
        return "\n".join(lines)

    def private_note(self, table: Table, player: str, event: Event) -> str | None:
        """A look (``saw``): the card and where it lies. The drawn card is on the hand itself (``None``)."""
        if event.type != "saw":
            return None
        d = event.data
        whose = "Your" if d["owner"] == player else f"{table.display_name(d['owner'])}'s"
        card = self.cards(table).card(d["card"])  # the look's card: this note is its player's alone
        return f"👁 {whose} card {d['position'] + 1} is the **{card}** (shown for a few seconds)."

    def board(self, table: Table, player: str, selection: str | None = None) -> Board:
        """One button per legal move while they fit (20, within rows 0–3); else the kit's picker.

        During a power the picker always leads (look: whose card, which; swap: first card's owner,
        first card, second card's owner, second card), so that the board keeps one shape.
        """
        engine = table.engine
        assert engine is not None
        legal = engine.legal_actions(player)
        picking = selection is not None or any(a["type"] in ("power_look", "power_swap") for a in legal)
        if picking or len(legal) > BUTTONS_MAX:
            return super().board(table, player, selection)
        codec = codec_for(table, player)
        ordered = sorted(legal, key=lambda a: (a["type"] not in PRIMARY_MOVES, a["type"] == "dutch"))
        buttons = []
        drawn = self._view(table, player)["drawn"]  # the drawn card, seen by its player only
        drawn_emoji = self.cards(table).emoji(drawn.get("card") if drawn else None)
        for action in ordered:
            kind = action["type"]
            style = ("primary" if kind in PRIMARY_MOVES else
                     "danger" if kind == "dutch" else "success" if kind == "jump_in" else "secondary")
            emoji = drawn_emoji.markup if kind == "discard" and drawn_emoji is not None else None
            buttons.append(BoardButton(self.action_label(table, player, action), codec.token(action), style,
                                       group=GROUP_OF.get(kind, "actions"), emoji=emoji))
        text = self.private_text(table, player)
        if not legal:
            text += "\nNothing to do right now."
        return Board(text, buttons)

    def on_board_click(self, table: Table, player: str, token: str) -> Click:
        """The kit's reading of a click, a swap named in the other order made the engine's way round."""
        click = super().on_board_click(table, player, token)
        action = click.action
        if action is not None and action.get("type") == "power_swap" and table.engine is not None:
            order = {spot: i for i, spot in enumerate(table.engine.players)}
            a, b = action["first"], action["second"]
            if (order[b["player"]], b["position"]) < (order[a["player"]], a["position"]):
                click = Click({"type": "power_swap", "first": b, "second": a}, click.selection, click.note)
        return click

    # ------------------------------------------------------------------ labels

    def _spot(self, table: Table, player: str, owner: str, position: int) -> str:
        return f"my card {position + 1}" if owner == player else f"{table.display_name(owner)}'s card {position + 1}"

    def action_label(self, table: Table, player: str, action: Action) -> str:
        """``Draw``, ``Discard the Q♥``, ``Swap into card 3``, ``Jump in: my card 2``, ``Call Dutch``, …"""
        kind = action.get("type")
        if kind == "look":
            a, b = action["positions"]
            return f"Look at my cards {a + 1} and {b + 1}"
        if kind == "draw":
            return "Draw"
        if kind == "discard":
            drawn = self._view(table, player)["drawn"]
            card = drawn.get("card") if drawn else None
            return f"Discard the {PLAIN.card(card)}" if card else "Discard the drawn card"
        if kind == "swap":
            return f"Swap into card {action['position'] + 1}"
        if kind == "keep":
            return "Keep it (a new card)"
        if kind == "jump_in":
            return fit_label("Jump in: " + self._spot(table, player, action["player"], action["position"]))
        if kind == "dutch":
            return "Call Dutch"
        if kind == "reveal":
            return "Turn the hands over"
        if kind == "next_round":
            return "Next round"
        if kind == "skip_power":
            return "Skip the power"
        if kind == "power_look":
            return fit_label("Look at " + self._spot(table, player, action["player"], action["position"]))
        if kind == "power_swap":
            a, b = action["first"], action["second"]
            return fit_label(f"Swap {self._spot(table, player, a['player'], a['position'])} with "
                             f"{self._spot(table, player, b['player'], b['position'])}")
        return super().action_label(table, player, action)

    def step_label(self, table: Table, player: str, path: str, value: Any) -> str:
        """A picker choice in words: the move, whose cards (``my cards``), which card (``card 3``)."""
        key = path.rpartition(".")[2]
        if path == "type":
            return {"power_look": "Look at a card", "power_swap": "Swap two cards", "skip_power": "Skip the power",
                    "jump_in": "Jump in", "dutch": "Call Dutch", "draw": "Draw", "discard": "Discard",
                    "swap": "Swap into my hand", "keep": "Keep it", "reveal": "Turn the hands over",
                    "next_round": "Next round", "look": "Look at two cards"}.get(str(value), str(value))
        if key == "player" and isinstance(value, str):
            return "my cards" if value == player else fit_label(f"{table.display_name(value)}'s cards")
        if key == "position" and isinstance(value, int):
            return f"card {value + 1}"
        if key == "positions" and isinstance(value, list):
            return "cards " + " and ".join(str(v + 1) for v in value)
        if key == "discard" and isinstance(value, int):
            return f"discard #{value}"
        return super().step_label(table, player, path, value)

    def path_label(self, table: Table, player: str, path: str) -> str:
        """``first.player`` → ``first card's owner``, ``second.position`` → ``second card``, …"""
        words = {"type": "move", "player": "player whose card it is", "position": "card",
                 "first.player": "first card's owner", "first.position": "first card",
                 "second.player": "second card's owner", "second.position": "second card",
                 "positions": "two cards", "discard": "discard"}
        return words.get(path, super().path_label(table, player, path))
