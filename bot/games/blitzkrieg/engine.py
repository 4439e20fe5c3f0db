"""The Blitzkrieg engine: War with twenty special battles, for two players.

Rules: ``docs/rules/blitzkrieg.md`` (the project's own page) and the Blitzkrieg rulings in
``docs/rules/blitzkrieg.md``. The scenarios themselves are the rule objects of
:mod:`bot.games.blitzkrieg.scenarios`; this module deals, takes the players' actions, resolves
each battle on a :class:`~bot.games.blitzkrieg.scenarios.Battlefield` and shows the table.

Actions (§3, §8)
----------------
``{"type": "battle"}``
    The player turns the top card of their deck. When both cards are turned the battle is
    resolved at once, automatically, up to its end or up to a player's choice.
``{"type": "challenge"}`` / ``{"type": "disarm"}``
    Cold War: the red Queen's player decides (§6.9).
``{"type": "turn", "position": n}``
    Napoleon (positions 1..N) or the clock (hours 1, 3-9, 11, 12): which face-down card to
    turn (§6.5, §6.17).

A choice in the middle of a battle is handled by replay: the state at the start of the battle
is kept, and each choice replays the battle from there with all the choices made so far, which
gives the same draws (the same RNG state) up to the next choice or the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from bot.engine.cards import Card, shuffled, standard_deck
from bot.engine.core import Action, Engine, Event, IllegalAction, Result
from bot.engine.options import check_options, option
from bot.games.blitzkrieg.bots import COLD_WAR_CHALLENGE_AT
from bot.games.blitzkrieg.scenarios import Battlefield, Context, GameOver, NeedChoice

__all__ = ["BlitzkriegOptions", "Blitzkrieg", "DECK_SIZE"]

DECK_SIZE = 54
"""52 cards and two Diplomats (Jokers), §2."""


@dataclass(frozen=True)
class BlitzkriegOptions:
    """Table options of Blitzkrieg (``docs/rules/blitzkrieg.md`` §4).

    Attributes
    ----------
    max_battles:
        After this many battles the player holding more cards wins (ruling *option*, default
        1000, ``docs/rules/blitzkrieg.md``). 1 to 100000.

    Raises
    ------
    ValueError
        *max_battles* is not an integer from 1 to 100000.
    """

    max_battles: int = option(1000, help="Battles after which the player holding more cards wins",
                              min=1, max=100_000)

    def __post_init__(self) -> None:
        check_options(self)


EARLIER_KEPT = 3
"""Finished battles a view keeps besides the latest (``earlier``), so an outcome stays readable."""


def _summary(fought: dict[str, Any]) -> dict[str, Any]:
    """A finished battle in short, for ``view["earlier"]``: its number, the two cards, the scenarios it
    met and its outcome (the last line it told), e.g. ``{"number": 4, "cards": {...},
    "scenarios": ["The clock"], "outcome": "ann wins 4 cards."}``.
    """
    lines = fought["lines"]
    return {"number": fought["number"], "cards": dict(fought["cards"]),
            "scenarios": [x["name"] for x in lines if x["type"] == "scenario"],
            "outcome": lines[-1]["text"] if lines else ""}


class Blitzkrieg(Engine):
    """Blitzkrieg for exactly two players (``docs/rules/blitzkrieg.md``).

    State: ``decks`` (seat -> list of :class:`Card`, top first), ``table`` (cards in play as
    ``[card, face]`` with face ``"up"``, ``"down"``, ``"hand0"`` or ``"hand1"``), ``aside`` (the
    Diplomats put aside, §6.12), ``turned`` (each seat's battle card once turned), ``battles``
    (battles begun), ``pending`` (the choice awaited, or ``None``), ``fought`` (the latest
    battle whose two cards were turned: its number, the two cards' labels, the deck sizes once they
    were turned, and its public narration
    as lines ``{"type", "text", "depth", …}``; a scenario's line also has ``scenario``, ``name`` and
    ``meaning``), ``earlier`` (the finished battles before it, at most :data:`EARLIER_KEPT`, each
    in short: number, cards, scenarios, outcome) and ``tally`` (scenario key -> how often it was
    played this game). The view shows the last three as ``battle``, ``earlier`` and ``tally`` (§9).
    """

    kind = "blitzkrieg"
    title = "Blitzkrieg"
    min_players = 2
    max_players = 2
    Options = BlitzkriegOptions
    max_actions = 30_000
    conformance_options = {"max_battles": 60}

    decks: list[list[Card]]
    table: list[list[Any]]

    # ------------------------------------------------------------------ set-up

    def _setup(self) -> None:
        deck = shuffled(standard_deck(jokers=2), self.rng)
        self._deal(deck[:27], deck[27:])

    def _deal(self, first: list[Card], second: list[Card], boxed: Sequence[Card] = ()) -> None:
        self.decks = [list(first), list(second)]
        self.boxed = list(boxed)
        self.table = []
        self.aside: list[Card] = []
        self.turned: list[Card | None] = [None, None]
        self.battles = 0
        self.previous: tuple[tuple[int, int], tuple[str, str]] | None = None
        self.pending: dict[str, Any] | None = None
        self.story: list[str] = []
        self.winner: int | None = None
        self.draw_game = False
        self.end_reason = ""
        self._choices: list[Any] = []
        self._start: tuple[Any, ...] | None = None
        self._emitted = 0
        self._story_before: list[str] = []
        self.fought: dict[str, Any] | None = None
        self.earlier: list[dict[str, Any]] = []  # the battles before ``fought``, newest last (EARLIER_KEPT)
        self.tally: dict[str, int] = {}
        self._tally_before: dict[str, int] = {}

    @classmethod
    def stacked(cls, players: Sequence[str], first: Sequence[str], second: Sequence[str], *,
                seed: int = 0, options: Any = None) -> Blitzkrieg:
        """A game with prepared decks, for tests (§9): *first* and *second* are card ids, top first.

        Cards named in neither deck are boxed: out of play for the whole game (they still count
        in card conservation). The game is not replayable from its log.

        Raises
        ------
        ValueError
            An id is not a card of the 54, or a card is named twice.
        """
        game = cls.new(players, seed=seed, options=options)
        if not first or not second:
            raise ValueError("each prepared deck needs at least one card")
        every = {c.id: c for c in standard_deck(jokers=2)}
        named = [*first, *second]
        unknown = [i for i in named if i not in every]
        if unknown or len(set(named)) != len(named):
            raise ValueError(f"prepared decks must name distinct cards of the 54, got unknown {unknown} "
                             f"in {named}")
        boxed = [c for i, c in every.items() if i not in set(named)]
        game._deal([every[i] for i in first], [every[i] for i in second], boxed)
        return game

    # ------------------------------------------------------------------ protocol hooks

    def _legal_actions(self, player: str) -> list[Action]:
        seat = self.seat_of(player)
        if self.pending is not None:
            if self.pending["seat"] != seat:
                return []
            if self.pending["kind"] == "cold-war":
                return [{"type": option} for option in self.pending["options"]]
            return [{"type": "turn", "position": n} for n in self.pending["options"]]
        if self.turned[seat] is None:
            return [{"type": "battle"}]
        return []

    def _apply(self, player: str, action: Action) -> list[Event]:
        seat = self.seat_of(player)
        kind = action["type"]
        if kind == "battle":
            self._check_keys(action, {"type"})
            if self.pending is not None:
                raise IllegalAction(f"the battle is waiting for {self.players[self.pending['seat']]}'s "
                                    f"{self.pending['kind']} choice")
            if self.turned[seat] is not None:
                raise IllegalAction("you have already turned your card; waiting for the other player")
            return self._turn(seat)
        if kind in ("challenge", "disarm", "turn"):
            choice = self._check_choice(seat, action)
            self._restore()
            self._choices.append(choice)
            self.pending = None
            return self._resolve()
        raise IllegalAction(f"unknown move {kind!r}: Blitzkrieg knows battle, challenge, disarm and turn")

    @staticmethod
    def _check_keys(action: Action, allowed: set[str]) -> None:
        extra = sorted(set(action) - allowed)
        if extra:
            raise IllegalAction(f"unexpected field(s) {extra} in a {action['type']!r} move")

    def _check_choice(self, seat: int, action: Action) -> Any:
        pending = self.pending
        if pending is None:
            raise IllegalAction(f"there is nothing to choose now; {action['type']!r} is not a move at this point")
        if pending["seat"] != seat:
            raise IllegalAction(f"it is {self.players[pending['seat']]}'s choice, not yours")
        if pending["kind"] == "cold-war":
            self._check_keys(action, {"type"})
            if action["type"] not in ("challenge", "disarm"):
                raise IllegalAction("Cold War: choose challenge or disarm")
            return action["type"]
        self._check_keys(action, {"type", "position"})
        position = action.get("position")
        if action["type"] != "turn" or type(position) is not int or position not in pending["options"]:
            raise IllegalAction(f"{pending['kind']}: turn one of the face-down cards at "
                                f"{pending['options']}, got {position!r}")
        return position

    def _view(self, player: str | None) -> dict[str, Any]:
        seat = None if player is None else self.seat_of(player)
        table = []
        for card, face in self.table:
            if face == "up" or face == f"hand{seat}":
                table.append({"card": card.to_json(), "face": face if face == "up" else "hand"})
            else:
                table.append({"card": None, "face": "down" if face == "down" else "hand"})
        pending = None
        if self.pending is not None:
            pending = {"kind": self.pending["kind"], "player": self.players[self.pending["seat"]],
                       "options": list(self.pending["options"])}
        return {
            "decks": {p: len(self.decks[i]) for i, p in enumerate(self.players)},
            "turned": {p: None if self.turned[i] is None else self.turned[i].to_json()  # type: ignore[union-attr]
                       for i, p in enumerate(self.players)},
            "table": table,
            "aside": [c.to_json() for c in self.aside],
            "pending": pending,
            "battles": self.battles,
            "max_battles": self.options.max_battles,
            "story": list(self.story),
            "battle": None if self.fought is None else {
                **self.fought, "cards": dict(self.fought["cards"]), "decks": dict(self.fought["decks"]),
                "lines": [dict(x) for x in self.fought["lines"]]},
            "earlier": [{**b, "cards": dict(b["cards"]), "scenarios": list(b["scenarios"])} for b in self.earlier],
            "tally": dict(self.tally),
            "over": self.is_over,
            "winner": None if self.winner is None else self.players[self.winner],
        }

    def _is_over(self) -> bool:
        return self.winner is not None or self.draw_game

    def _result(self) -> Result:
        scores = {p: float(len(self.decks[i])) for i, p in enumerate(self.players)}
        detail = {"reason": self.end_reason, "battles": self.battles}
        if self.draw_game:
            return Result(scores, {p: 1 for p in self.players}, tuple(self.players), detail)
        winner = self.players[self.winner]  # type: ignore[index]
        ranks = {p: 1 if p == winner else 2 for p in self.players}
        return Result(scores, ranks, (winner,), detail)

    def _standing(self) -> Result:
        """An unfinished game placed by the cards each player holds (``docs/rules/blitzkrieg.md`` §4).

        As at ``max_battles``: more cards ahead, equal counts level. A battle under way does not
        count: each player holds the cards of their deck as it was before it (the turned card
        included), as in ``fought["decks"]`` once both cards are turned.
        """
        held: dict[str, float] = {}
        for i, p in enumerate(self.players):
            if self.pending is not None and self.fought is not None:
                held[p] = float(self.fought["decks"][p] + 1)  # the battle awaits a choice, undecided
            else:
                held[p] = float(len(self.decks[i]) + (self.turned[i] is not None))
        return self._provisional(held)

    def hidden_cards(self, player: str | None) -> set[str]:
        """Every card in either deck (their order is secret, §3), face-down cards on the table, and
        the opponent's Cold War hand (§6.9).
        """
        seat = None if player is None else self.seat_of(player)
        hidden = {c.id for deck in self.decks for c in deck}
        hidden |= {c.id for c, face in self.table if face != "up" and face != f"hand{seat}"}
        return hidden

    def timeout_action(self, player: str) -> Action | None:
        """A timed-out player's move, as the house bot would make it (§8, §10).

        They turn their card; in Cold War they challenge on a hand totalling at least
        :data:`~bot.games.blitzkrieg.bots.COLD_WAR_CHALLENGE_AT` and disarm otherwise; a face-down
        card (Napoleon, the clock) is picked by a copy of ``self.rng``, so asking does not change
        the game.
        """
        legal = self.legal_actions(player)
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        if self.pending is not None and self.pending["kind"] == "cold-war":
            seat = self.seat_of(player)
            hand = sum(card.rank for card, face in self.table if face == f"hand{seat}")
            return {"type": "challenge" if hand >= COLD_WAR_CHALLENGE_AT else "disarm"}
        pick = Random()
        pick.setstate(self.rng.getstate())
        return pick.choice(legal)

    # ------------------------------------------------------------------ battles

    def card_count(self) -> int:
        """Every card of the game: decks, table, aside and boxed (always 54, §5.5)."""
        return sum(len(d) for d in self.decks) + len(self.table) + len(self.aside) + len(self.boxed)

    def _turn(self, seat: int) -> list[Event]:
        card = self.decks[seat].pop(0)
        self.table.append([card, "up"])
        self.turned[seat] = card
        text = f"{self.players[seat]} turns {card.label}."
        self.story = [*self.story, text] if self.turned[1 - seat] is not None else [text]
        events = [Event("turned", {"text": text, "player": self.players[seat], "card": card.to_json()})]
        if self.turned[1 - seat] is not None:
            self.battles += 1
            self._choices = []
            self._emitted = 0
            self._start = ([list(d) for d in self.decks], [list(e) for e in self.table], list(self.aside),
                           self.rng.getstate(), self.previous)
            self._story_before = list(self.story)
            self._tally_before = dict(self.tally)
            if self.fought is not None:
                self.earlier = [*self.earlier, _summary(self.fought)][-EARLIER_KEPT:]
            self.fought = {"number": self.battles,
                           "cards": {p: self.turned[i].label for i, p in enumerate(self.players)},  # type: ignore[union-attr]
                           "decks": {p: len(self.decks[i]) for i, p in enumerate(self.players)}, "lines": []}
            events += self._resolve()
        return events

    def _restore(self) -> None:
        decks, table, aside, rng_state, previous = self._start  # type: ignore[misc]
        self.decks = [list(d) for d in decks]
        self.table = [list(e) for e in table]
        self.aside = list(aside)
        self.rng.setstate(rng_state)
        self.previous = previous

    def _resolve(self) -> list[Event]:
        """Resolve the battle of the two turned cards, from its start, with the choices made so far."""
        field = Battlefield(self, self._choices)
        pair: tuple[Card, Card] = (self.turned[0], self.turned[1])  # type: ignore[assignment]
        previous = self.previous
        ctx = Context(0, previous, (len(self.decks[0]), len(self.decks[1])))
        field.pots.append([pair[0], pair[1]])
        try:
            winner = field.fight(pair, ctx)
            if winner is not None:
                field.say("battle-won", f"{self.players[winner]} takes the {len(field.pots[0])} cards of "
                          f"battle {self.battles}.", winner=self.players[winner], cards=len(field.pots[0]))
                field.give(field.pots[0], winner)
            self.previous = ((pair[0].rank, pair[1].rank), (pair[0].id, pair[1].id)) if field.regular else None
            if field.switches % 2:
                self.decks.reverse()
                field.say("switch", "The players switch decks.")
            self._finish(field)
        except NeedChoice as wait:
            self.pending = wait.spec
        except GameOver as over:
            self._end(field, over.winner, over.reason)
        events = field.events[self._emitted:]
        self._emitted = len(field.events)
        public = [e for e in field.events if e.is_public]
        self.story = [*self._story_before, *(e.data["text"] for e in public)]
        self._tell(public)
        return events

    def _tell(self, public: list[Event]) -> None:
        """Keep the battle's public narration as lines for the table, and the tally of scenarios (§9)."""
        tally = dict(self._tally_before)
        lines = []
        for event in public:
            line = {"type": event.type, "text": event.data["text"], "depth": max(0, int(event.data.get("depth", 0)))}
            if event.type == "scenario":
                key = event.data["scenario"]
                tally[key] = tally.get(key, 0) + 1
                line.update(scenario=key, name=event.data["name"], meaning=event.data.get("meaning", ""),
                            follow_up=bool(event.data.get("follow_up")))
            lines.append(line)
        self.tally = tally
        if self.fought is not None:
            self.fought = {**self.fought, "lines": lines}

    def _finish(self, field: Battlefield) -> None:
        """After a battle: clear it, then end the game on an empty deck or at ``max_battles`` (§4)."""
        self.turned = [None, None]
        self._choices = []
        self._start = None
        for seat in (0, 1):
            if not self.decks[seat]:
                field.say("out-of-cards", f"{self.players[seat]} has no cards left.", player=self.players[seat])
                self._end(field, 1 - seat, "out-of-cards")
                return
        if self.battles >= self.options.max_battles:
            sizes = [len(d) for d in self.decks]
            if sizes[0] == sizes[1]:
                self.draw_game = True
                self.end_reason = "max-battles"
                field.say("game-over", f"{self.battles} battles fought and {sizes[0]} cards each: a draw.",
                          reason="max-battles", winner=None)
                return
            self._end(field, 0 if sizes[0] > sizes[1] else 1, "max-battles")

    def _end(self, field: Battlefield, winner: int, reason: str) -> None:
        """End the game: *winner* takes the cards still on the table (and everything after an A-Bomb)."""
        loot = [c for c, _ in self.table]
        if reason == "a-bomb":
            loot += self.decks[1 - winner]
            self.decks[1 - winner] = []
        self.table = []
        field.pots = []
        self.rng.shuffle(loot)
        self.decks[winner].extend(loot)
        self.turned = [None, None]
        self.pending = None
        self._choices = []
        self._start = None
        self.winner = winner
        self.end_reason = reason
        how = {"a-bomb": "by A-Bomb", "out-of-cards": "the other side ran out of cards",
               "max-battles": f"holding more cards after {self.battles} battles"}[reason]
        field.say("game-over", f"{self.players[winner]} wins the war ({how}).", reason=reason,
                  winner=self.players[winner])
