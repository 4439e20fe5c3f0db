"""Rendering of Blitzkrieg tables: the public table message and each player's private board.

Only :meth:`Engine.view <bot.engine.core.Engine.view>` is read; every rule stays in
``bot/games/blitzkrieg``. The public message shows both players' card counts, the latest battle
told step by step (the table kit's :meth:`~bot.tables.ui.GameUI.story_steps`: the two cards, then
each line of the engine's narration, nested battles indented under the one they interrupt, each
scenario with its one-line meaning), the next battle's card already turned, the choice the table
waits for, and the tally of scenarios seen. The board is the kit's picker over the player's legal
actions (**Battle!**, Cold War's **Challenge**/**Disarm**, the face-down card or hour to turn),
with the player's own Cold War hand, which only its holder's view contains.

At the automatic pace (the table setting ``pace`` = ``auto``) the table turns each person's card
itself once the last battle has been told (:meth:`BlitzkriegUI.auto_action`); choices stay theirs.
"""

from __future__ import annotations

from typing import Any

from bot.engine import GAMES, Action, Event
from bot.games.blitzkrieg.scenarios import SCENARIOS
from bot.tables import GameUI, Table
from bot.tables.seats import PublicParts, SeatPanel
from bot.tables.settings import PACES
from bot.tables.ui import CONTENT_MAX, fit_label

__all__ = ["BlitzkriegUI", "PACES"]

NAMES = {s.key: s.name for s in SCENARIOS}
"""Scenario key to its name, in precedence order (``docs/rules/blitzkrieg.md`` §7)."""

BEFORE_ROOM = 300
"""Characters of Discord's 2,000 that the earlier battles' line leaves for what the table adds to
the message (a notice above it, the final standings below): the line goes first when room is short."""

STORY_CHARS = 1500
"""At most this many characters of a battle's steps are on the table message (the first step and the
latest ones; the steps left out between them are counted), within Discord's 2,000."""

MARKS = {"battle-won": "🏆", "switch": "🔄", "choice": "❓", "game-over": "🏁", "a-bomb": "💥", "treaty": "🕊️",
         "treaty-over": "↩️", "battle-resumes": "↩️", "out-of-cards": "🪫", "cold-war": "🧊", "sub-battle": "⚔️"}
"""A mark in front of some lines of the narration, by event type."""

CHOICE_WORDS = {"cold-war": "Cold War: challenge or disarm", "napoleon": "Napoleon: which face-down card to turn",
                "clock": "the clock: which hour to turn"}


class BlitzkriegUI(GameUI):
    """How a Blitzkrieg table looks on Discord (``docs/rules/blitzkrieg.md``)."""

    kind = "blitzkrieg"
    board_label = "Open my board"
    reveal_ms = 900
    notice_events = frozenset({"game-over", "choice"})

    # ------------------------------------------------------------------ names

    @staticmethod
    def named(table: Table, text: str) -> str:
        """*text* of the engine's narration with each player id replaced by that player's display name."""
        assert table.engine is not None
        for player in sorted(table.engine.players, key=len, reverse=True):
            text = text.replace(player, table.display_name(player))
        return text

    def how_to_play(self, table: Table) -> str:
        """The rules in short and how the table works (the "How to play" button)."""
        return (f"**How to play Blitzkrieg**\n{GAMES['blitzkrieg'].summary}\n\n**On Discord**: press **Open my board** "
                "for your private board and click **Battle!** to turn your top card; the battle is told on the "
                "table message step by step. When a battle asks you to choose (Cold War, Napoleon, the clock) the "
                "buttons appear on your board, for you only; your Cold War hand is shown there and nowhere else. "
                "With pace `auto` the table turns your card for you once the last battle is told. Alone? Add the "
                "house bot — playing it by yourself is fun as well.")

    # ------------------------------------------------------------------ the public message

    def story_steps(self, table: Table) -> tuple[str, int]:
        """The latest battle: its two cards, then one step per line of its narration."""
        assert table.engine is not None
        battle = table.engine.view(None)["battle"]
        if battle is None:
            return ("", 0)
        return (f"battle-{battle['number']}", 1 + len(battle["lines"]))

    def public_text(self, table: Table) -> str:
        """Counts, the latest battle as told so far, the next battle, the awaited choice, the tally."""
        return "\n".join(self._public_lines(table, seats=True))

    def public_parts(self, table: Table) -> PublicParts:
        """The header, a seat each (:meth:`seat_panels`), and the battles, the awaited choice and the tally."""
        header, *rest = self._public_lines(table, seats=False)
        return PublicParts(header, tuple(self.seat_panels(table)), "\n".join(rest).strip("\n"))

    def seat_panels(self, table: Table) -> list[SeatPanel]:
        """Each player's card count (``▶ **alice**: 26 cards``; the counts as the battle began while it
        is told). Both turn their cards at once, so ▶ marks a player only when the table waits for
        that one alone: the other has turned, or a choice is theirs (``docs/rules/blitzkrieg.md``).
        """
        engine = table.engine
        assert engine is not None
        view = engine.view(None)
        battle = view["battle"]
        telling = battle is not None and self.shown_steps(table) < 1 + len(battle["lines"])
        decks = battle["decks"] if telling else view["decks"]
        awaited = [] if telling or engine.is_over else [p for p in engine.players if engine.legal_actions(p)]
        panels = []
        for p in engine.players:
            turn = awaited == [p]
            text = f"{'▶ ' if turn else ''}**{table.display_name(p)}**: {decks[p]} card{'' if decks[p] == 1 else 's'}"
            panels.append(SeatPanel(p, text, turn=turn))
        return panels

    def _public_lines(self, table: Table, *, seats: bool) -> list[str]:
        engine = table.engine
        assert engine is not None
        view = engine.view(None)
        players = list(engine.players)
        pace = " · automatic pace" if table.settings.get("pace") == "auto" else ""
        lines = [f"**Blitzkrieg** — table #{table.id} · {view['battles']} of {view['max_battles']} battles{pace}"]
        battle = view["battle"]
        shown = self.shown_steps(table)
        telling = battle is not None and shown < 1 + len(battle["lines"])
        cards = self.cards(table)
        if seats:
            lines.append(" · ".join(seat.text for seat in self.seat_panels(table)) + (" (as the battle began)"
                                                                                  if telling else ""))
        elif telling:
            lines.append("Card counts above (as the battle began).")
        if battle is not None:
            lines.append("")
            lines += self._battle_lines(table, battle, shown)
        earlier = view["earlier"][-2:]
        before = len(lines)  # a battle's outcome stays readable after the next Battle! (rules §11)
        summaries = [self._summary_line(table, b) for b in reversed(earlier)]
        turned = {p: c for p, c in view["turned"].items() if c is not None}
        if turned and not view["pending"]:
            p = next(iter(turned))
            other = next(q for q in players if q != p)
            lines.append(f"\n**Battle {view['battles'] + 1}**: {table.display_name(p)} has turned "
                         f"{cards.label(turned[p]['label'], turned[p])} — waiting for {table.display_name(other)}.")
        pending = view["pending"]
        if pending and not engine.is_over and not telling:
            lines.append(f"⏳ Waiting for **{table.display_name(pending['player'])}** — "
                         f"{CHOICE_WORDS.get(pending['kind'], pending['kind'])} (on their board).")
        elif battle is None and not turned:
            lines.append("Press **Open my board**, then **Battle!** to turn your top card.")
        if view["tally"]:
            seen = " · ".join(f"{name} ×{view['tally'][key]}" for key, name in NAMES.items() if key in view["tally"])
            lines.append(f"\nScenarios seen: {seen}")
        while summaries:  # as many earlier battles as there is room for (the table adds a notice, the result)
            line = "Before: " + " · ".join(summaries)
            if len("\n".join(lines)) + len(line) + 1 <= CONTENT_MAX - BEFORE_ROOM:
                lines.insert(before, line)
                break
            summaries.pop()
        return lines

    def _summary_line(self, table: Table, battle: dict[str, Any]) -> str:
        """A finished battle in one short line: ``Battle 11 (The clock): alice wins 4 cards.``"""
        names = ", ".join(battle["scenarios"])
        return f"Battle {battle['number']}{f' ({names})' if names else ''}: {self.named(table, battle['outcome'])}"

    def _battle_lines(self, table: Table, battle: dict[str, Any], shown: int) -> list[str]:
        """The steps of *battle* shown so far: the two cards, then each narrated line, indented by depth."""
        cards = battle["cards"]
        a, b = list(cards)
        label = self.cards(table).label
        steps = [f"**Battle {battle['number']}**: {table.display_name(a)} {label(cards[a])} ⚔️ "
                 f"{label(cards[b])} {table.display_name(b)}"]
        for line in battle["lines"]:
            indent = "\u2003" * line["depth"] + ("↳ " if line["depth"] else "")
            text = self.named(table, line["text"])
            if line["type"] == "scenario":
                step = f"{indent}**{text}**"
                if line.get("meaning"):
                    step += f"\n{indent}\u2003*{line['meaning']}*"
            else:
                mark = MARKS.get(line["type"])
                step = f"{indent}{mark + ' ' if mark else ''}{text}"
            steps.append(step)
        steps = steps[:shown]
        kept = [steps[0]]
        budget = STORY_CHARS - len(steps[0])
        latest: list[str] = []
        for step in reversed(steps[1:]):
            budget -= len(step) + 1
            if budget < 0:
                break
            latest.insert(0, step)
        if len(latest) < len(steps) - 1:
            kept.append(f"… {len(steps) - 1 - len(latest)} earlier steps …")
        return kept + latest

    def standings_title(self, table: Table) -> str:
        """The final standings, in cards, and how the war ended."""
        result = table.engine.result() if table.engine is not None else None
        detail = result.detail if result is not None else {}
        how = {"a-bomb": "won by A-Bomb", "out-of-cards": "a player ran out of cards",
               "max-battles": f"after {detail.get('battles')} battles"}.get(str(detail.get("reason")), "")
        return f"**Final standings**{f' ({how})' if how else ''}"

    def score_text(self, table: Table, player: str, score: float) -> str:
        """A player's cards at the end."""
        return f"{int(score)} cards"

    def notice(self, table: Table, event: Event) -> str | None:
        """A new message for the end of the war, and for a choice a person must make (bots choose at once)."""
        text = self.named(table, str(event.data.get("text", "")))
        if event.type == "choice":
            seat = table.seat_of_player(str(event.data.get("player")))
            if seat is None or seat.is_bot:
                return None
            return f"❓ {text} — **{seat.name}**, your buttons are on your board (**Open my board**)."
        return f"🏁 {text}" if text else None

    # ------------------------------------------------------------------ the private board

    def private_text(self, table: Table, player: str) -> str:
        """Where the battle stands for *player*, and their own Cold War hand while it is on the table."""
        engine = table.engine
        assert engine is not None
        view = engine.view(player)
        other = next(p for p in engine.players if p != player)
        lines = [f"**Blitzkrieg** — battle {view['battles']} of {view['max_battles']}"]
        cards = self.cards(table)
        mine = view["turned"].get(player)
        last = view["battle"]
        if last is not None and last["lines"] and not view["pending"] and self.shown_steps(table) > len(last["lines"]):
            a, b = list(last["cards"])  # the last battle, once told on the table, stays on the board
            lines.append(f"Last battle ({last['number']}): {cards.label(last['cards'][a])} ⚔️ "
                         f"{cards.label(last['cards'][b])} — "
                         f"{self.named(table, last['lines'][-1]['text'])}")
        if mine is not None and view["turned"].get(other) is None:
            lines.append(f"You turned {cards.label(mine['label'], mine)}; waiting for {table.display_name(other)}.")
        hand = [e["card"] for e in view["table"] if e["face"] == "hand" and e["card"] is not None]
        if hand:
            total = sum(c["rank"] for c in hand)
            shown = ", ".join(cards.label(c["label"], c) for c in hand)
            lines.append(f"🔒 Your Cold War hand (only you see it): {shown} — total {total}")
        pending = view["pending"]
        if pending and pending["player"] == player:
            if pending["kind"] == "napoleon":
                lines.append(f"Napoleon: {len(pending['options'])} cards lie face down. Turn one: a card of the "
                             "Jack's suit defends and wins for you.")
            elif pending["kind"] == "clock":
                lines.append("The clock: ten hours lie face down. Turn one: your final card must beat it.")
            else:
                lines.append("Cold War: you hold the red Queen. **Challenge** shows both hands (the higher total "
                             "wins); **Disarm** ends the battle with no winner.")
        elif pending:
            lines.append(f"Waiting for {table.display_name(pending['player'])} to choose.")
        return "\n".join(lines)

    def private_note(self, table: Table, player: str, event: Event) -> str | None:
        """None: the Cold War hand (the only private event) is shown from the view while it is on the table."""
        return None

    def step_label(self, table: Table, player: str, path: str, value: Any) -> str:
        """Battle!, Challenge, Disarm; a face-down card (Napoleon) or an hour (the clock) to turn."""
        if path == "type":
            words = {"battle": "Battle!", "challenge": "Challenge (show both hands)", "disarm": "Disarm (no winner)",
                     "turn": "Turn a card"}
            return words.get(str(value), super().step_label(table, player, path, value))
        if path == "position":
            assert table.engine is not None
            pending = table.engine.view(player)["pending"]
            if pending is not None and pending["kind"] == "clock":
                return f"{value} o'clock"
            return fit_label(f"Card {value}")
        return super().step_label(table, player, path, value)

    def action_label(self, table: Table, player: str, action: Action) -> str:
        """A one-click move is worded as its choice: **Battle!**, a card, an hour."""
        if set(action) == {"type"}:
            return self.step_label(table, player, "type", action["type"])
        if action.get("type") == "turn":
            return self.step_label(table, player, "position", action.get("position"))
        return super().action_label(table, player, action)

    def path_label(self, table: Table, player: str, path: str) -> str:
        """The "Pick the …" line: the face-down card or the hour to turn."""
        if path == "position":
            assert table.engine is not None
            pending = table.engine.view(player)["pending"]
            return "hour to turn" if pending is not None and pending["kind"] == "clock" else "face-down card to turn"
        return super().path_label(table, player, path)

    # ------------------------------------------------------------------ the automatic pace

    def auto_action(self, table: Table, player: str) -> Action | None:
        """At the automatic pace, *player*'s card is turned for them (never a choice)."""
        if table.settings.get("pace") != "auto" or table.engine is None:
            return None
        battle: Action = {"type": "battle"}
        return battle if battle in table.engine.legal_actions(player) else None
