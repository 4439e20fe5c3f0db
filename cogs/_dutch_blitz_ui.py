"""Rendering of Dutch Blitz tables: the public table message and each player's private board.

Only :meth:`Engine.view <bot.engine.core.Engine.view>` is read; every rule stays in
``bot/games/dutch_blitz``. Colours are shown with coloured squares (🟥🟦🟨🟩), which read the same
on desktop and mobile. Board buttons carry intents (see :meth:`DutchBlitzUI.intents`), which the
table kit's codec turns into opaque tokens: they name the player's own piles, never a card, and
mean the same move whatever the table's version (everyone plays at once, so a board is nearly
always a version behind). The engine refuses a move that no longer fits, with its reason.

Cards are drawn through the table kit's :class:`~bot.tables.faces.CardStyle` (:meth:`GameUI.cards
<bot.tables.ui.GameUI.cards>`): as the card emojis with their colour's letter beside
(``<:p1_db_r7:…> R7``) where the emojis are synced and usable, else as text with each colour shown
and named (``🟥 R7``), so colour-blind players can play; a card button has the emoji and names the
card in words ("Wood red 7", ``docs/art.md`` §8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import GAMES, Action
from bot.tables import GameUI, Table, TableError
from bot.tables.faces import CardStyle
from bot.tables.seats import PublicParts, SeatPanel
from bot.tables.ui import Board, BoardButton, Click

__all__ = ["DutchBlitzUI"]

COLOURS = ("red", "blue", "yellow", "green")

PICK = "pick"
"""The board's selection while the player picks a card for a Post pile (the Pick… button)."""


def _source_name(source: str) -> str:
    if source.startswith("post:"):
        return f"Post {int(source[5:]) + 1}"
    return source.capitalize()


class DutchBlitzUI(GameUI):
    """How a Dutch Blitz table looks on Discord (``docs/rules/dutch-blitz.md``)."""

    kind = "dutch-blitz"
    board_label = "Open my board"
    notice_events = frozenset({"hand_end", "tie_at_top", "game_over"})

    def how_to_play(self, table: Table) -> str:
        """The rules in short and how the board works (the "How to play" button)."""
        summary = GAMES["dutch-blitz"].summary
        return (f"**How to play Dutch Blitz**\n{summary}\n\n**On Discord**: press **Open my board** "
                "for your private board (only you see it). A card that fits a Dutch pile is blue: click it to play "
                "it there. Click any other card to pick it, then the Post pile it goes on. **Flip** turns three "
                "cards from your hand onto your Wood pile; **Shift** helps when you are stuck. Two players on one "
                "pile: the earlier Discord timestamp wins. Between hands press **Ready**.")

    # ------------------------------------------------------------------ public message

    def public_text(self, table: Table) -> str:
        """Dutch piles grouped by colour, each seat's Blitz/Post/Wood tops, scores; the hand summary between hands."""
        return "\n".join(self._public_lines(table, seats=True))

    def public_parts(self, table: Table) -> PublicParts:
        """The header, a seat each (:meth:`seat_panels`), and the Dutch piles or the hand summary."""
        header, *rest = self._public_lines(table, seats=False)
        return PublicParts(header, tuple(self.seat_panels(table)), "\n".join(rest))

    def seat_panels(self, table: Table) -> list[SeatPanel]:
        """Each seat: ``• **name** — Blitz 7 (top R9) · Post … · Wood … · total 12`` while a hand is
        played (its face-up piles only, ``docs/rules/dutch-blitz.md``), else the total and ✅ ready.
        Everybody plays at once, so no seat is marked as having the turn.
        """
        view = table.engine.view(None)  # type: ignore[union-attr]
        _card = self.cards(table).card
        panels = []
        for seat in view["seats"]:
            name = table.display_name(seat["player"])
            if view["phase"] == "play":
                posts = " ".join(_card(p[-1] if p else None) for p in seat["posts"])
                text = (f"• **{name}** — Blitz {seat['blitz_count']} (top {_card(seat['blitz_top'])}) · "
                        f"Post {posts} · Wood {_card(seat['wood_top'])} · total {seat['total']}")
            else:
                text = f"• **{name}** — total {seat['total']}{' ✅ ready' if seat.get('ready') else ''}"
            panels.append(SeatPanel(seat["player"], text))
        return panels

    def _public_lines(self, table: Table, *, seats: bool) -> list[str]:
        view = table.engine.view(None)  # type: ignore[union-attr]
        cards = self.cards(table)
        lines = [f"**Dutch Blitz** — table #{table.id} · hand {view['hand']} · playing to {view['target']}"]
        if view["phase"] == "play":
            lines.append(self._piles_line(view, cards))
            played = sum(p["size"] for p in view["dutch_piles"])
            lines.append(f"Cards on Dutch piles this hand: {played}")
        if seats:
            lines += [seat.text for seat in self.seat_panels(table)]
        if view["phase"] != "play" and view["hand_scores"]:
            lines.append(self._hand_summary(table, view))
            if view["phase"] == "between":
                lines.append("Press **Ready** for the next hand (bots are always ready; the host may start it).")
        return lines

    def _piles_line(self, view: dict[str, Any], cards: CardStyle) -> str:
        groups = []
        for colour in COLOURS:
            tops = [f"{cards.card(p['top'])}{'✓' if p['complete'] else ''}" for p in view["dutch_piles"]
                    if p["colour"] == colour]
            if tops:
                groups.append(" · ".join(tops))
        return "Dutch piles: " + (" | ".join(groups) if groups else "none yet — play a 1!")

    def _hand_summary(self, table: Table, view: dict[str, Any]) -> str:
        ending = view["hand_endings"][-1] if view["hand_endings"] else {}
        scores = view["hand_scores"][-1]
        who = ending.get("blitzer")
        head = (f"**Blitz!** {table.display_name(who)} emptied their Blitz pile." if who
                else "The hand was ended (no Dutch-pile play for a while).")
        lines = [f"Hand {ending.get('hand', len(view['hand_scores']))}: {head}"]
        detail = ending.get("scores") or {}
        for player, points in scores.items():
            d = detail.get(player) if isinstance(detail, dict) else None
            extra = f" ({d['dutch']} on Dutch piles, {d['blitz_left']} Blitz left)" if d else ""
            lines.append(f"  {table.display_name(player)}: {points:+d}{extra}")
        return "\n".join(lines)

    def public_buttons(self, table: Table) -> list[BoardButton]:
        """Between hands: Ready and Next hand (host); while playing: End hand (host, when stuck)."""
        view = table.engine.view(None)  # type: ignore[union-attr]
        if view["phase"] == "between":
            return [BoardButton("Ready", "ready", "success"), BoardButton("Next hand (host)", "next")]
        if view["phase"] == "play" and view.get("stuck_seconds", 0) > 0:
            return [BoardButton("End hand (host)", "end", "danger")]
        return []

    def on_public_click(self, table: Table, player: str, token: str, *, is_host: bool) -> Action:
        """Ready, Next hand and End hand (the table's own actions: the table lets only its host or a
        moderator take them, and End hand only once the hand is stuck).
        """
        if token == "ready":
            return {"type": "ready"}
        if token == "next":
            return {"type": "next_hand"}
        if token == "end":  # the table holds it back until the stuck rule's time has passed
            return {"type": "end_hand"}
        raise TableError("That button is not in use.")

    # ------------------------------------------------------------------ private board

    def board(self, table: Table, player: str, selection: str | None = None) -> Board:
        """Card buttons (Blitz, Post, Wood tops), targets for a selected card, Flip and Shift.

        Rows: 0 Blitz, Wood, Flip, Shift; 1 the Post piles (up to 5); 2 the targets of a selected
        card; 3 Cancel — within Discord's 5 × 5.
        """
        engine = table.engine
        assert engine is not None
        view = engine.view(player)
        me = view["seats"][view["me"]]
        legal = engine.legal_actions(player)
        if view["phase"] != "play":
            ready = ([BoardButton("Ready", self.intent(table, player, {"do": "ready"}), "success")]
                     if {"type": "ready"} in legal else [])
            return Board(f"Hand {view['hand']} is over. Your total: {me['total']}.", ready)
        cards = self.cards(table)
        _card = cards.card
        lines = [self._piles_line(view, cards),
                 f"Your Blitz pile: {me['blitz_count']} left · hand {me['hand_count']} · Wood {me['wood_count']}"]
        buttons: list[BoardButton] = []
        sources = [("blitz", me["blitz_top"])] + [(f"post:{i}", p[-1] if p else None)
                                                   for i, p in enumerate(me["posts"])] + [("wood", me["wood_top"])]
        to_post = {a["from"] for a in legal if a["type"] in ("post", "stack")}
        picking = selection == PICK
        for source, card in sources:
            if card is None:
                continue
            fits = any(a["type"] == "dutch" and a["from"] == source for a in legal)
            row = 1 if source.startswith("post:") else 0
            shown, emoji = cards.button(card)
            if picking:  # every card goes to a Post pile now, even one that fits a Dutch pile
                buttons.append(BoardButton(f"{_source_name(source)} {shown}",
                                           self.intent(table, player, {"pick": source}),
                                           "primary" if source in to_post else "secondary",
                                           disabled=source not in to_post, row=row, group="cards", emoji=emoji))
                continue
            style = "success" if selection == source else ("primary" if fits else "secondary")
            buttons.append(BoardButton(f"{_source_name(source)} {shown}",
                                       self.intent(table, player, {"card": source}), style, row=row, group="cards",
                                       emoji=emoji))
        if picking:
            lines.append("Pick the card to put on a Post pile, or Cancel.")
            buttons.append(BoardButton("Cancel", self.intent(table, player, {"do": "cancel"}), "secondary", row=3))
        elif selection is None and any(any(a["type"] == "dutch" and a["from"] == source for a in legal)
                                       for source in to_post):
            # A blue card plays onto its Dutch pile on a click; this is the way to build with it instead.
            buttons.append(BoardButton("Pick… (to a Post pile)", self.intent(table, player, {"do": "pick"}),
                                       "secondary", row=3))
        if selection is not None and not picking:
            card = dict(sources).get(selection)
            lines.append(f"Selected: {_source_name(selection)} {_card(card)} — pick a Post pile, or Cancel.")
            for action in legal:
                if action["type"] in ("post", "stack") and action["from"] == selection:
                    j = int(action["to"][5:])
                    top = me["posts"][j][-1] if me["posts"][j] else None
                    shown, emoji = cards.button(top)
                    if action["type"] == "stack":
                        label, intent = f"→ Post {j + 1} {shown} (whole pile)", {"stack": selection, "to": j}
                    else:
                        label, intent = f"→ Post {j + 1} {shown}", {"post": selection, "to": j}
                    buttons.append(BoardButton(label, self.intent(table, player, intent), "primary", row=2,
                                               group="piles", emoji=emoji))
            buttons.append(BoardButton("Cancel", self.intent(table, player, {"do": "cancel"}), "secondary", row=3))
        if {"type": "flip"} in legal:
            buttons.append(BoardButton(f"Flip ({me['hand_count']} in hand)", self.intent(table, player, {"do": "flip"}),
                                       "secondary", row=0))
        if {"type": "shift"} in legal:
            buttons.append(BoardButton("Shift (stuck)", self.intent(table, player, {"do": "shift"}), "secondary",
                                       row=0))
        return Board("\n".join(lines), buttons)

    def intents(self, table: Table, player: str) -> list[dict[str, Any]]:
        """Every meaning a board button may have for *player* (the kit turns each into a token).

        ``{"card": s}`` (a card clicked: onto the Dutch pile it fits, else select it),
        ``{"pick": s}`` (a card picked in Pick… mode, for a Post pile), ``{"post": s, "to": j}``
        (onto Post pile *j*), ``{"stack": "post:i", "to": j}`` (the whole Post pile *i* onto *j*)
        and ``{"do": "flip" | "shift" | "ready" | "pick" | "cancel"}``; a source *s* is ``blitz``,
        ``wood`` or ``post:<i>``.
        """
        engine = table.engine
        assert engine is not None
        view = engine.view(player)
        posts = len(view["seats"][view["me"]]["posts"]) if "me" in view else 0
        sources = ["blitz", "wood", *(f"post:{i}" for i in range(posts))]
        out: list[dict[str, Any]] = [{"do": verb} for verb in ("flip", "shift", "ready", "pick", "cancel")]
        out += [{kind: s} for kind in ("card", "pick") for s in sources]
        out += [{"post": s, "to": j} for s in sources for j in range(posts)]
        out += [{"stack": f"post:{i}", "to": j} for i in range(posts) for j in range(posts)]
        return out

    def on_intent(self, table: Table, player: str, intent: Mapping[str, Any]) -> Click:
        """A card plays onto the Dutch pile it fits; otherwise it is selected and its Post targets shown."""
        engine = table.engine
        assert engine is not None
        legal = engine.legal_actions(player)
        verb = intent.get("do")
        if verb == "cancel":
            return Click(selection=None)
        if verb == "pick":
            return Click(selection=PICK)
        if verb in ("flip", "shift", "ready"):
            return Click({"type": verb})
        if "pick" in intent:  # picked in Pick… mode: select it for a Post pile
            source = intent["pick"]
            if any(a["type"] in ("post", "stack") and a["from"] == source for a in legal):
                return Click(selection=source)
            return Click(note=f"Your {_source_name(source)} card fits no Post pile right now.")
        if "post" in intent:
            return Click({"type": "post", "from": intent["post"], "to": f"post:{intent['to']}"})
        if "stack" in intent:
            return Click({"type": "stack", "from": intent["stack"], "to": f"post:{intent['to']}"})
        source = intent["card"]
        dutch = [a for a in legal if a["type"] == "dutch" and a["from"] == source]
        if dutch:
            # Equivalent piles (same colour, same top): prefer one nobody is racing for right now.
            free = [a for a in dutch if table.arbiter is None
                    or (resource := engine.contested_resource(player, a)) is None
                    or table.arbiter.deadline(resource) is None]
            return Click((free or dutch)[0])
        if any(a["type"] in ("post", "stack") and a["from"] == source for a in legal):
            return Click(selection=source)
        return Click(note=f"Your {_source_name(source)} card fits no Dutch pile and no Post pile right now.")
