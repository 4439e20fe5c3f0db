"""The scenarios of Blitzkrieg as named rule objects, and the battlefield that resolves them.

Every special battle of the rule text is one small :class:`Scenario` object: a predicate
(:meth:`Scenario.applies`) over the two battle cards and the battle :class:`Context`, and a
resolution (:meth:`Scenario.resolve`) that plays it out on a :class:`Battlefield` and names the
winning seat. :data:`SCENARIOS` lists them in precedence order, so the first one whose predicate
holds is the one played (``docs/rules/blitzkrieg.md`` §7); Battalion is the exception, applied
last as a follow-up (§6.3, §7). A new house rule is one more object in that list.

Seats are 0 and 1; a *pair* is ``(seat 0's card, seat 1's card)``.

Sources: ``docs/rules/blitzkrieg.md`` (cited per object) and the Blitzkrieg rulings in
``docs/rules/blitzkrieg.md`` §7.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from bot.engine.cards import Card
from bot.engine.core import Event

if TYPE_CHECKING:  # pragma: no cover
    from bot.games.blitzkrieg.engine import Blitzkrieg

__all__ = [
    "Context",
    "Scenario",
    "SCENARIOS",
    "SCENARIO_KEYS",
    "Battlefield",
    "NeedChoice",
    "GameOver",
    "is_numbered",
    "strength",
    "beats",
    "colour",
]

Pair = tuple[Card, Card]

SUIT_WORDS: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""Suit letter to the suit's name, whose letters count in 10 against 4 (§6.20)."""

CLOCK_HOURS: tuple[int, ...] = (1, 3, 4, 5, 6, 7, 8, 9, 11, 12)
"""The clock's hours left to fill after the 10 and the 2 (§6.17)."""


# ---------------------------------------------------------------------------------- card facts


def is_numbered(card: Card) -> bool:
    """Whether *card* is a numbered card, 2 to 10 (Aces, faces and Diplomats are not; §2)."""
    return not card.is_joker and 2 <= card.rank <= 10


def strength(card: Card) -> int:
    """Plain-battle strength (§2): the Ace beats everything (14), J 11, Q 12, K 13, Diplomat 0."""
    return 14 if card.rank == 1 else card.rank


def beats(card: Card, other: Card) -> bool:
    """Whether *card* strictly beats *other* in a plain battle (§2, §5.4)."""
    return strength(card) > strength(other)


def colour(card: Card) -> str:
    """``"red"`` or ``"black"`` (a Diplomat never reaches this: it is put aside when drawn)."""
    return "red" if card.is_red else "black"


def total(cards: list[Card]) -> int:
    """The numerical value of *cards* (§2: Ace 1, J 11, Q 12, K 13)."""
    return sum(c.rank for c in cards)


def labels(cards: list[Card]) -> str:
    """Readable labels of *cards*, comma separated."""
    return ", ".join(c.label for c in cards)


def _seat(pair: Pair, test: Callable[[Card], bool]) -> int:
    """The seat whose card passes *test* (seat 0 when both do)."""
    return 0 if test(pair[0]) else 1


def _cyclic_next(a: int, b: int) -> bool:
    """Whether ranks *a* and *b* are neighbours in the cyclic straight A-2-…-K-A (§6.4)."""
    return (a - b) % 13 in (1, 12)


# ---------------------------------------------------------------------------------- control flow


class NeedChoice(Exception):
    """Raised inside a resolution when a player's choice is needed and not yet made.

    Attributes
    ----------
    spec:
        ``{"kind": "cold-war"|"napoleon"|"clock", "seat": int, "options": [...]}``.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__(spec["kind"])
        self.spec = spec


class GameOver(Exception):
    """Raised inside a resolution when the game ends at once (§4).

    Attributes
    ----------
    winner:
        The winning seat.
    reason:
        ``"out-of-cards"`` (the other seat could not complete a battle) or ``"a-bomb"``.
    """

    def __init__(self, winner: int, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Context:
    """What a scenario's predicate may consult besides the two cards.

    Attributes
    ----------
    depth:
        0 for a battle of the game (a "Battle!"), 1 and more for battles nested inside a scenario.
    previous:
        The previous battle of the game when it was a regular battle (no scenario):
        ``(ranks by seat, card ids by seat)``; else ``None`` (and always ``None`` inside a
        scenario or after a peace treaty, §6.11).
    deck_sizes:
        Cards left in each seat's deck once the two battle cards are turned.
    """

    depth: int = 0
    previous: tuple[tuple[int, int], tuple[str, str]] | None = None
    deck_sizes: tuple[int, int] = (27, 27)


# ---------------------------------------------------------------------------------- the battlefield


class Battlefield:
    """Resolves one battle of the game on the engine's state, narrating it as events.

    The battlefield draws from the engine's decks (:meth:`draw`), keeps the cards in play in
    *pots* (the outermost pot is the battle's; a peace treaty and each of the repeated battle's
    four battles have their own), asks players for choices (:meth:`choose`) and gives won cards
    to the bottom of a deck in an order mixed by the engine's RNG (:meth:`give`).

    Parameters
    ----------
    game:
        The engine whose ``decks``, ``table``, ``aside`` and ``rng`` are played on.
    choices:
        The choices already made in this battle, in the order they were asked.
    """

    def __init__(self, game: Blitzkrieg, choices: list[Any]) -> None:
        self.game = game
        self.choices = choices
        self.asked = 0
        self.events: list[Event] = []
        self.pots: list[list[Card]] = []
        self.regular = True
        self.switches = 0
        self.depth = 0

    # -- narration

    def name(self, seat: int) -> str:
        """The player id of *seat*."""
        return self.game.players[seat]

    def say(self, kind: str, text: str, **data: Any) -> None:
        """Add a public event *kind* with narration *text* and JSON-ready *data*.

        Every event carries a ``depth``: how deeply the battle it belongs to is nested (0 for the
        battle of the game, 1 for a battle inside a scenario or a peace treaty, …), unless given.
        """
        self.events.append(Event(kind, {"text": text, "depth": self.depth, **data}))

    def tell(self, seat: int, kind: str, text: str, **data: Any) -> None:
        """Add an event only the player of *seat* may see."""
        self.events.append(Event(kind, {"text": text, **data}, (self.name(seat),)))

    # -- cards

    def draw(self, seat: int, face: str = "up") -> Card:
        """Take the top card of *seat*'s deck onto the table, into the current pot.

        *face* is ``"up"``, ``"down"`` (hidden from both) or ``"hand"`` (seen by its holder
        only). A Diplomat drawn anywhere interrupts: it is put aside, a peace treaty is held
        and the draw is made again (§6.12).

        Raises
        ------
        GameOver
            *seat* has no card left to draw: they cannot complete the battle and lose (§4).
        """
        while True:
            deck = self.game.decks[seat]
            if not deck:
                self.say("out-of-cards", f"{self.name(seat)} has no card left to complete the battle.",
                         player=self.name(seat))
                raise GameOver(1 - seat, "out-of-cards")
            card = deck.pop(0)
            if card.is_joker:
                PEACE_TREATY.interrupt(self, seat, card)
                continue
            self.game.table.append([card, face if face != "hand" else f"hand{seat}"])
            if self.pots:
                self.pots[-1].append(card)
            return card

    def draw_many(self, seat: int, n: int, face: str = "up") -> list[Card]:
        """Draw *n* cards for *seat* (see :meth:`draw`)."""
        return [self.draw(seat, face) for _ in range(n)]

    def reveal(self, cards: list[Card]) -> None:
        """Turn *cards* on the table face up."""
        wanted = set(cards)
        for entry in self.game.table:
            if entry[0] in wanted:
                entry[1] = "up"

    def lift(self, cards: list[Card]) -> None:
        """Take *cards* off the table and out of every pot (they are about to go elsewhere)."""
        gone = set(cards)
        self.game.table[:] = [e for e in self.game.table if e[0] not in gone]
        for pot in self.pots:
            pot[:] = [c for c in pot if c not in gone]

    def give(self, cards: list[Card], seat: int) -> None:
        """Put *cards* at the bottom of *seat*'s deck, in an order mixed by the game's RNG (§3)."""
        cards = list(cards)
        self.lift(cards)
        self.game.rng.shuffle(cards)
        self.game.decks[seat].extend(cards)

    # -- choices

    def choose(self, seat: int, kind: str, options: list[Any], text: str) -> Any:
        """The choice of *seat* among *options*, made earlier in this battle or asked now.

        Raises
        ------
        NeedChoice
            The choice has not been made yet; the engine waits for the player's action.
        """
        index = self.asked
        self.asked += 1
        self.say("choice", text, player=self.name(seat), choice=kind)
        if index < len(self.choices):
            return self.choices[index]
        raise NeedChoice({"kind": kind, "seat": seat, "options": list(options)})

    # -- battles

    def matching(self, pair: Pair, ctx: Context) -> list[Scenario]:
        """Every scenario whose predicate holds for *pair*, in precedence order (§7)."""
        return [s for s in SCENARIOS if s.applies(pair, ctx)]

    def fight(self, pair: Pair, ctx: Context) -> int | None:
        """Resolve the battle of *pair* (already on the table) and return the winning seat.

        The first matching scenario in :data:`SCENARIOS` is played; when Battalion also matches
        and the player of the lower card lost, Battalion is played after it and decides (§6.3,
        §7). No scenario: the higher card wins, the Ace beating everything (§3). ``None``: the
        battle had no winner (a disarmed Cold War, the repeated battle; §6.9, §6.11).
        """
        outer, self.depth = self.depth, ctx.depth
        try:
            return self._fight(pair, ctx)
        finally:
            self.depth = outer

    def _fight(self, pair: Pair, ctx: Context) -> int | None:
        found = self.matching(pair, ctx)
        if ctx.depth == 0 and found:
            self.regular = False
        if not found:
            winner = 0 if beats(pair[0], pair[1]) else 1
            self.say("battle", f"{pair[0].label} against {pair[1].label}: {self.name(winner)}'s "
                     f"{pair[winner].label} wins.", cards=[c.to_json() for c in pair],
                     winner=self.name(winner), depth=ctx.depth)
            return winner
        first = found[0]
        self.announce(first, pair, ctx)
        outcome = first.resolve(self, pair, ctx)
        if first is not BATTALION and BATTALION in found and outcome is not None \
                and outcome != BATTALION.lower_seat(pair):
            self.announce(BATTALION, pair, ctx, follow_up=True)
            outcome = BATTALION.resolve(self, pair, ctx)
        return outcome

    def fight_to_a_winner(self, pair: Pair, ctx: Context) -> int:
        """Like :meth:`fight`, but a battle without a winner is fought again with new cards."""
        winner = self.fight(pair, ctx)
        while winner is None:
            pair = (self.draw(0), self.draw(1))
            winner = self.fight(pair, replace(ctx, deck_sizes=self.sizes()))
        return winner

    def sizes(self) -> tuple[int, int]:
        """Cards left in each deck."""
        return (len(self.game.decks[0]), len(self.game.decks[1]))

    def announce(self, scenario: Scenario, pair: Pair, ctx: Context, *, follow_up: bool = False) -> None:
        """Narrate that *scenario* begins for *pair*."""
        text = scenario.headline(self, pair)
        if follow_up:
            text = f"Battalion after all! {self.name(BATTALION.lower_seat(pair))} calls for troops."
        self.say("scenario", text, scenario=scenario.key, name=scenario.name, meaning=scenario.meaning,
                 cards=[c.to_json() for c in pair], depth=ctx.depth, follow_up=follow_up)

    def won(self, seat: int, text: str) -> int:
        """Narrate that *seat* wins the scenario with *text*; return *seat*."""
        self.say("scenario-won", text, winner=self.name(seat))
        return seat

    def own_card_battle(self, defender: Card, challenger: Card) -> bool:
        """Whether *challenger* beats *defender* in a battle of a player against their own card.

        No scenario applies, the Ace beats everything and a tie is a loss for the challenger
        (§5.4).
        """
        return beats(challenger, defender)


# ---------------------------------------------------------------------------------- the rule objects


class Scenario:
    """One special battle of the rule text.

    Class attributes
    ----------------
    key:
        Stable short name (events, figures): ``"halfsies"``.
    name:
        Display name.
    meaning:
        What the scenario means, in one line for the table (the ``scenario`` event carries it).
    section:
        Its section of ``docs/rules/blitzkrieg.md``.
    """

    key: ClassVar[str] = ""
    name: ClassVar[str] = ""
    meaning: ClassVar[str] = ""
    section: ClassVar[str] = ""

    def applies(self, pair: Pair, ctx: Context) -> bool:
        """Whether this scenario matches the battle of *pair* in *ctx*."""
        raise NotImplementedError

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        """Play the scenario out on *field* and return the winning seat (``None``: no winner)."""
        raise NotImplementedError

    def headline(self, field: Battlefield, pair: Pair) -> str:
        """The narration that opens the scenario: ``"Halfsies! 4♥ against 8♣"``."""
        return f"{self.name}! {pair[0].label} against {pair[1].label}."

    def __repr__(self) -> str:
        return f"<{self.name}>"


class PeaceTreaty(Scenario):
    """The Diplomat's peace treaty (``docs/rules/blitzkrieg.md`` §6.12).

    A Diplomat (Joker) turned in battle is put aside for good; the card it faced waits. Each
    player turns three cards: normally each gives their three to the other; if a card matches
    the rank of an opponent's card turned earlier, its player takes all six (a match made at the
    same moment by both leaves the normal exchange). Then the waiting card meets a new card from
    the Diplomat's side. A Diplomat drawn anywhere else interrupts the same way, and the draw is
    made again (§6.12, ruling "the Diplomat interrupts anything").
    """

    key = "peace-treaty"
    name = "The Diplomat's peace treaty"
    meaning = ("A Diplomat stops everything: three cards each change hands (a matching rank takes all six), "
               "then the battle goes on.")
    section = "§6.12"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        return pair[0].is_joker or pair[1].is_joker

    def headline(self, field: Battlefield, pair: Pair) -> str:
        return f"A Diplomat! {pair[0].label} against {pair[1].label}: peace talks before the battle goes on."

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        cards = list(pair)
        for seat in (0, 1):
            if cards[seat].is_joker:
                field.lift([cards[seat]])
                self.treaty(field, seat, cards[seat])
        for seat in (0, 1):
            if cards[seat].is_joker:
                cards[seat] = field.draw(seat)
        new_pair = (cards[0], cards[1])
        field.say("battle-resumes", f"Back to the battle: {new_pair[0].label} against {new_pair[1].label}.",
                  cards=[c.to_json() for c in new_pair])
        # A battle with a treaty in it is no regular battle: the repeat (§6.11) cannot follow it.
        return field.fight(new_pair, replace(ctx, previous=None, deck_sizes=field.sizes()))

    def interrupt(self, field: Battlefield, seat: int, diplomat: Card) -> None:
        """A Diplomat drawn in the middle of anything: narrate, hold the treaty, carry on."""
        field.say("scenario", f"A Diplomat turns up in {field.name(seat)}'s draw: everything stops "
                  "for a peace treaty.", scenario=self.key, name=self.name, meaning=self.meaning,
                  cards=[diplomat.to_json()], depth=field.depth + 1, follow_up=False)
        self.treaty(field, seat, diplomat)
        field.say("treaty-over", f"The treaty is settled: back to the battle, {field.name(seat)} draws again.",
                  depth=field.depth + 1, player=field.name(seat))

    def treaty(self, field: Battlefield, seat: int, diplomat: Card) -> None:
        """Put *diplomat* aside, then play the three-card exchange of §6.12 (narrated one level deeper)."""
        field.depth += 1
        try:
            self._treaty(field, seat, diplomat)
        finally:
            field.depth -= 1

    def _treaty(self, field: Battlefield, seat: int, diplomat: Card) -> None:
        field.game.aside.append(diplomat)
        field.pots.append([])
        groups: list[list[Card]] = [[], []]
        for _ in range(3):
            for s in (0, 1):
                groups[s].append(field.draw(s))
        claimant = self.claimant(groups)
        field.pots.pop()
        if claimant is None:
            field.say("treaty", f"Peace: {field.name(0)} hands over {labels(groups[0])} and "
                      f"{field.name(1)} hands over {labels(groups[1])}.")
            field.give(groups[0], 1)
            field.give(groups[1], 0)
        else:
            field.say("treaty", f"A match in the treaty ({labels(groups[0])} / {labels(groups[1])}): "
                      f"{field.name(claimant)} takes all six cards.", winner=field.name(claimant))
            field.give(groups[0] + groups[1], claimant)

    @staticmethod
    def claimant(groups: list[list[Card]]) -> int | None:
        """Who takes all six: the player whose card matches an opponent's card turned earlier.

        The cards are turned in three rounds, one card each per round. ``None`` when there is
        no match, or when both players match in the same round (the normal exchange stands).

        >>> from bot.engine.cards import Card
        >>> PeaceTreaty.claimant([[Card(5, "S"), Card(7, "S"), Card(3, "S")],
        ...                       [Card(9, "H"), Card(3, "H"), Card(8, "H")]])
        0
        """
        for k in range(3):
            answering = [s for s in (0, 1)
                         if groups[s][k].rank in {c.rank for c in groups[1 - s][:k + 1]}]
            if len(answering) == 1:
                return answering[0]
            if answering:
                return None
        return None


class ABomb(Scenario):
    """The A-Bomb (§6.21): an Ace against a numbered card of the same suit.

    The Ace's holder turns the top card of the opponent's deck: an Ace there wins the whole
    game. Otherwise the Ace wins the battle as in a plain battle and the turned card joins the
    pot. Not applied when either player has one card or none left in their deck (ruling).
    """

    key = "a-bomb"
    name = "A-Bomb"
    meaning = "The Ace turns the top of the other deck: another Ace there wins the whole war."
    section = "§6.21"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        aces = (a.rank == 1 and is_numbered(b)) or (b.rank == 1 and is_numbered(a))
        return aces and a.suit == b.suit and min(ctx.deck_sizes) >= 2

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        ace = _seat(pair, lambda c: c.rank == 1)
        turned = field.draw(1 - ace)
        if turned.rank == 1:
            field.say("a-bomb", f"{field.name(ace)} turns {turned.label} from {field.name(1 - ace)}'s deck: "
                      "the A-Bomb detonates and wins the whole game!", winner=field.name(ace),
                      card=turned.to_json())
            raise GameOver(ace, "a-bomb")
        return field.won(ace, f"{field.name(ace)} turns {turned.label}: a dud. The Ace still wins the battle.")


class QueenOfHearts(Scenario):
    """The Queen of Hearts (§6.8) against any numbered card; trumps Helen of Troy (§7).

    Her player takes as many cards from the opponent's deck as the number faced: the red ones
    join the pot, the black ones go back to the bottom of the opponent's deck. She wins.
    """

    key = "queen-of-hearts"
    name = "The Queen of Hearts"
    meaning = "She takes as many cards off the other deck as the number faced: keeps the red, hands back the black."
    section = "§6.8"

    @staticmethod
    def _is_qh(card: Card) -> bool:
        return card.rank == 12 and card.suit == "H"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return (self._is_qh(a) and is_numbered(b)) or (self._is_qh(b) and is_numbered(a))

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        queen = _seat(pair, self._is_qh)
        taken = field.draw_many(1 - queen, pair[1 - queen].rank)
        black = [c for c in taken if c.is_black]
        field.give(black, 1 - queen)
        red = [c for c in taken if c.is_red]
        return field.won(queen, f"The Queen of Hearts takes {len(taken)} cards: keeps the red "
                         f"({labels(red) or 'none'}) and hands back {len(black)} black.")


class ColdWar(Scenario):
    """Cold War (§6.9): a red Queen against a black Queen; overrides Classic War (§7).

    Each player takes five cards as a hidden hand. The red Queen's player challenges (both
    hands are shown; the higher total wins, a tie is settled as a disarm) or disarms (each player
    takes back their own Queen and hand; the battle has no winner).
    """

    key = "cold-war"
    name = "Cold War"
    meaning = "Five hidden cards each; the red Queen challenges (higher total wins) or disarms (no winner)."
    section = "§6.9"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return a.rank == b.rank == 12 and a.is_red != b.is_red

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        red = _seat(pair, lambda c: c.is_red)
        hands = [field.draw_many(0, 5, "hand"), field.draw_many(1, 5, "hand")]
        for s in (0, 1):
            field.tell(s, "hand", f"Your Cold War hand: {labels(hands[s])} (total {total(hands[s])}).",
                       cards=[c.to_json() for c in hands[s]], total=total(hands[s]))
        choice = field.choose(red, "cold-war", ["challenge", "disarm"],
                              f"{field.name(red)} holds the red Queen: challenge or disarm?")
        sums = [total(hands[0]), total(hands[1])]
        if choice == "challenge":
            field.reveal(hands[0] + hands[1])
            field.say("cold-war", f"{field.name(red)} challenges: {labels(hands[0])} ({sums[0]}) against "
                      f"{labels(hands[1])} ({sums[1]}).", totals=sums)
            if sums[0] != sums[1]:
                winner = 0 if sums[0] > sums[1] else 1
                return field.won(winner, f"{field.name(winner)} wins the Cold War.")
        field.say("cold-war", f"{field.name(red)} {'disarms' if choice == 'disarm' else 'ties'}: "
                  "each side takes back its Queen and its hand.")
        for s in (0, 1):
            field.give([pair[s], *hands[s]], s)
        return None


class ClassicWar(Scenario):
    """Classic War, revised (§6.1): the same rank on both sides.

    Three further battles, each under every rule, decide the advantage (two wins of three).
    Three wins by one player end it at once; otherwise the advantaged player draws two cards and
    adds them, the other draws one, and the higher total wins (a tie draws again). The cards of
    the inner battles stay in the pot for the winner of this one (§5.1).
    """

    key = "classic-war"
    name = "Classic War"
    meaning = "Same rank: three battles decide the advantage, then two cards against one."
    section = "§6.1"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        return pair[0].rank == pair[1].rank

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        wins = [0, 0]
        for n in range(3):
            inner = (field.draw(0), field.draw(1))
            field.say("sub-battle", f"Battle {n + 1} of 3 for the advantage: {inner[0].label} against "
                      f"{inner[1].label}.", cards=[c.to_json() for c in inner], depth=ctx.depth + 1)
            winner = field.fight_to_a_winner(inner, Context(ctx.depth + 1, None, field.sizes()))
            wins[winner] += 1
        leader = 0 if wins[0] > wins[1] else 1
        if wins[leader] == 3:
            return field.won(leader, f"{field.name(leader)} wins all three battles: no fourth needed.")
        while True:
            two = field.draw_many(leader, 2)
            one = field.draw(1 - leader)
            field.say("advantage", f"{field.name(leader)} has the advantage: {labels(two)} ({total(two)}) "
                      f"against {one.label} ({one.rank}).")
            if total(two) != one.rank:
                winner = leader if total(two) > one.rank else 1 - leader
                return field.won(winner, f"{field.name(winner)} wins the Classic War.")
            field.say("advantage", "Equal totals: the fourth battle is drawn again.")


class KingsAssassination(Scenario):
    """The King's assassination (§6.6): a King against a numbered card of the same suit.

    The number's player draws up to that many cards hunting an Ace: an Ace assassinates the
    King and wins; otherwise the King wins.
    """

    key = "kings-assassination"
    name = "The King's assassination"
    meaning = "The number's player gets that many draws to find an Ace and kill the King."
    section = "§6.6"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return a.suit == b.suit and ((a.rank == 13 and is_numbered(b)) or (b.rank == 13 and is_numbered(a)))

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        king = _seat(pair, lambda c: c.rank == 13)
        chances = pair[1 - king].rank
        drawn = []
        for _ in range(chances):
            card = field.draw(1 - king)
            drawn.append(card)
            if card.rank == 1:
                return field.won(1 - king, f"{field.name(1 - king)} draws {labels(drawn)}: "
                                 f"{card.label} assassinates the King!")
        return field.won(king, f"{field.name(1 - king)} draws {labels(drawn)}: no Ace in {chances} "
                         "chances, the King survives.")


class Napoleon(Scenario):
    """Napoleon (§6.5): a Jack against a numbered card of the same suit; before Crossing the Delaware (§7).

    The number's player lays that many cards face down and chooses one to turn: the Jack's
    suit defends and wins, any other suit loses to the Jack.
    """

    key = "napoleon"
    name = "Napoleon"
    meaning = "The number's player lays that many cards face down and turns one: the Jack's suit defends."
    section = "§6.5"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return a.suit == b.suit and ((a.rank == 11 and is_numbered(b)) or (b.rank == 11 and is_numbered(a)))

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        jack = _seat(pair, lambda c: c.rank == 11)
        defender = 1 - jack
        down = field.draw_many(defender, pair[defender].rank, "down")
        positions = list(range(1, len(down) + 1))
        pick = field.choose(defender, "napoleon", positions,
                            f"{field.name(defender)} lays {len(down)} cards face down: which one to turn?")
        card = down[pick - 1]
        field.reveal([card])
        if card.suit == pair[jack].suit:
            return field.won(defender, f"{field.name(defender)} turns card {pick}: {card.label}, the Jack's "
                             "suit. Napoleon is beaten back!")
        return field.won(jack, f"{field.name(defender)} turns card {pick}: {card.label}. Napoleon wins.")


class HelenOfTroy(Scenario):
    """Helen of Troy (§6.7): a Queen against a numbered card of the same suit.

    The number's player lays that many cards face up; the highest (Ace highest) is pitted
    against one more card from the same deck, an own-card battle (§5.4): only a higher card
    wins it for the defender; otherwise the Queen wins.
    """

    key = "helen-of-troy"
    name = "Helen of Troy"
    meaning = "The number's player lays that many cards face up; their best must beat one more of their own."
    section = "§6.7"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return a.suit == b.suit and ((a.rank == 12 and is_numbered(b)) or (b.rank == 12 and is_numbered(a)))

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        queen = _seat(pair, lambda c: c.rank == 12)
        defender = 1 - queen
        laid = field.draw_many(defender, pair[defender].rank)
        best = max(laid, key=strength)
        final = field.draw(defender)
        text = f"{field.name(defender)} lays {labels(laid)}; the best, {best.label}, meets {final.label}"
        if field.own_card_battle(best, final):
            return field.won(defender, f"{text}: higher, Troy holds!")
        return field.won(queen, f"{text}: not higher, the Queen's side wins.")


class RoyalQuarrel(Scenario):
    """The royal quarrel (§6.10): a King against a Queen of the other colour; before Crossing the Delaware (§7).

    Each player draws two cards; three or four of one colour win for the player whose King or
    Queen has that colour. Two and two: both draw two more, until a majority is found.
    """

    key = "royal-quarrel"
    name = "The royal quarrel"
    meaning = "Two cards each: the royal whose colour has the majority wins."
    section = "§6.10"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return {a.rank, b.rank} == {12, 13} and a.is_red != b.is_red

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        while True:
            four = field.draw_many(0, 2) + field.draw_many(1, 2)
            red = sum(1 for c in four if c.is_red)
            if red != 2:
                majority = "red" if red > 2 else "black"
                winner = 0 if colour(pair[0]) == majority else 1  # a King and a Queen of differing colours
                return field.won(winner, f"{labels(four)}: {majority} has it, {field.name(winner)} wins.")
            field.say("royal-quarrel", f"{labels(four)}: two and two, four more.")


class Foxhole(Scenario):
    """Foxhole (§6.14): Jack against King, or Queen against Ace, of differing suits.

    The higher card (King; Ace) wins and draws one more card: the missing royal (a Queen for
    Jack-King, a King for Queen-Ace) fills the hole and wins ten bonus cards from the loser.
    """

    key = "foxhole"
    name = "Foxhole"
    meaning = "The higher royal wins; drawing the missing royal in between wins ten bonus cards."
    section = "§6.14"
    royal: ClassVar[bool] = False

    @staticmethod
    def _ranks(pair: Pair) -> set[int]:
        return {pair[0].rank, pair[1].rank}

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return self._ranks(pair) in ({11, 13}, {12, 1}) and (a.suit == b.suit) == self.royal

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        winner = 0 if beats(pair[0], pair[1]) else 1
        hole = 12 if self._ranks(pair) == {11, 13} else 13
        filler = field.draw(winner)
        bonus = 0
        if filler.rank == hole:
            bonus = 20 if self.royal and filler.suit == pair[0].suit else 10
        text = f"{field.name(winner)} wins and turns {filler.label}"
        if bonus:
            field.draw_many(1 - winner, bonus)
            return field.won(winner, f"{text}: the hole is filled, {bonus} bonus cards!")
        return field.won(winner, f"{text}: no bonus.")


class RoyalFoxhole(Foxhole):
    """Royal Foxhole (§6.15): Foxhole with both cards of the same suit.

    The hole filled by the missing royal of that same suit wins twenty bonus cards; filled by
    that royal of another suit, ten, as in Foxhole (ruling).
    """

    key = "royal-foxhole"
    name = "Royal Foxhole"
    meaning = "As Foxhole, all one suit: the missing royal of that suit wins twenty bonus cards."
    section = "§6.15"
    royal = True


class Halfsies(Scenario):
    """Halfsies (§6.2): two numbered cards, one exactly half the other.

    The lower card wins and its player also wins the top card of the opponent's deck.
    """

    key = "halfsies"
    name = "Halfsies"
    meaning = "One card is half the other: the lower wins, plus the top card of the other deck."
    section = "§6.2"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return is_numbered(a) and is_numbered(b) and (a.rank * 2 == b.rank or b.rank * 2 == a.rank)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        low = 0 if pair[0].rank < pair[1].rank else 1
        bonus = field.draw(1 - low)
        return field.won(low, f"{field.name(low)} calls Halfsies and wins, plus {bonus.label} as a bonus.")


class _NumberPair(Scenario):
    """A scenario fixed on two numbers (3 against 9, 10 against 2, …); subclasses set ``ranks``."""

    ranks: ClassVar[tuple[int, int]] = (0, 0)

    def applies(self, pair: Pair, ctx: Context) -> bool:
        return (pair[0].rank, pair[1].rank) in (self.ranks, self.ranks[::-1])

    def seat_of(self, pair: Pair, rank: int) -> int:
        """The seat holding *rank*."""
        return _seat(pair, lambda c: c.rank == rank)


class EastGermany(_NumberPair):
    """East Germany (§6.13): 3 against 9.

    The 3's player has three draws to find a 3 (any suit) and win; each 9 drawn on the way
    grants three more draws. No 3: the 9 wins.
    """

    key = "east-germany"
    name = "East Germany"
    meaning = "The 3 has three draws to find a 3; each 9 drawn gives three more."
    section = "§6.13"
    ranks = (3, 9)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        three = self.seat_of(pair, 3)
        chances = 3
        drawn = []
        while chances:
            card = field.draw(three)
            drawn.append(card)
            chances -= 1
            if card.rank == 3:
                return field.won(three, f"{field.name(three)} draws {labels(drawn)}: over the wall!")
            if card.rank == 9:
                chances += 3
        return field.won(1 - three, f"{field.name(three)} draws {labels(drawn)}: no 3, stuck in East Germany.")


class TheClock(_NumberPair):
    """The clock (§6.17): 10 against 2.

    The 2's player fills the other ten hours of the clock face down, draws a final card, then
    chooses an hour to turn: an own-card battle (§5.4), the final card must beat it to win.
    """

    key = "the-clock"
    name = "The clock"
    meaning = "The 2 fills ten hours face down, draws a final card and turns one hour: the final card must beat it."
    section = "§6.17"
    ranks = (10, 2)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        two = self.seat_of(pair, 2)
        hours = dict(zip(CLOCK_HOURS, field.draw_many(two, len(CLOCK_HOURS), "down"), strict=True))
        final = field.draw(two)
        hour = field.choose(two, "clock", list(CLOCK_HOURS),
                            f"{field.name(two)} fills the clock and draws {final.label}: which hour to turn?")
        card = hours[hour]
        field.reveal([card])
        text = f"{field.name(two)} turns {hour} o'clock: {card.label} against {final.label}"
        if field.own_card_battle(card, final):
            return field.won(two, f"{text}: defended!")
        return field.won(1 - two, f"{text}: the clock runs out, {field.name(1 - two)} wins.")


class Forty(_NumberPair):
    """Forty (§6.18): 9 against 5.

    The 5's player draws five cards: a total of exactly 40 wins; anything else loses to the 9,
    and a total over 40 also costs the 5's player that many cards over 40 from their deck.
    """

    key = "forty"
    name = "Forty"
    meaning = "The 5's player draws five cards: exactly 40 wins, over 40 costs cards."
    section = "§6.18"
    ranks = (9, 5)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        five = self.seat_of(pair, 5)
        drawn = field.draw_many(five, 5)
        points = total(drawn)
        text = f"{field.name(five)} draws {labels(drawn)}: {points}"
        if points == 40:
            return field.won(five, f"{text}, exactly forty!")
        if points > 40:
            field.draw_many(five, points - 40)
            return field.won(1 - five, f"{text}, {points - 40} over: {field.name(1 - five)} wins "
                             f"{points - 40} extra cards.")
        return field.won(1 - five, f"{text}, not forty: {field.name(1 - five)} wins.")


class Reinforcements(_NumberPair):
    """Eight reinforcements (§6.19): 7 against 10.

    The 7's player adds eight cards from their deck to the pot, then a final card meets the 10
    with no scenario: a Jack or higher (the Ace too) wins, anything else loses.
    """

    key = "reinforcements"
    name = "Eight reinforcements"
    meaning = "The 7 adds eight cards, then draws one: a Jack or better beats the 10."
    section = "§6.19"
    ranks = (7, 10)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        seven = self.seat_of(pair, 7)
        field.draw_many(seven, 8, "down")
        final = field.draw(seven)
        if beats(final, pair[1 - seven]):
            return field.won(seven, f"{field.name(seven)} adds eight cards and turns {final.label}: "
                             "the 10 falls!")
        return field.won(1 - seven, f"{field.name(seven)} adds eight cards and turns {final.label}: "
                         "the 10 holds.")


class SwitchingSides(_NumberPair):
    """Switching sides (§6.16): 6 against 9.

    The 9 wins as in a plain battle; when the battle in progress is over and its cards are
    collected, the players switch decks (winnings included). Every such battle switches again.
    """

    key = "switching-sides"
    name = "Switching sides"
    meaning = "The 9 wins, then the players switch decks."
    section = "§6.16"
    ranks = (6, 9)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        nine = self.seat_of(pair, 9)
        field.switches += 1
        return field.won(nine, "The 9 wins, and the players will switch decks once this battle is over.")


class SpellingTheSuit(_NumberPair):
    """Spelling the suit (§6.20): 10 against 4.

    Each player draws one card per letter of their card's suit name (spades 6, hearts 6,
    diamonds 8, clubs 5); the larger total wins; equal totals draw again.
    """

    key = "spelling-the-suit"
    name = "Spelling the suit"
    meaning = "Each side draws one card per letter of its suit: the larger total wins."
    section = "§6.20"
    ranks = (10, 4)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        words = [SUIT_WORDS[str(card.suit)] for card in pair]  # a 10 and a 4: both have a suit
        while True:
            hands = [field.draw_many(s, len(words[s])) for s in (0, 1)]
            sums = [total(h) for h in hands]
            field.say("spelling", f"{words[0]}: {labels(hands[0])} ({sums[0]}) against "
                      f"{words[1]}: {labels(hands[1])} ({sums[1]}).", totals=sums)
            if sums[0] != sums[1]:
                winner = 0 if sums[0] > sums[1] else 1
                return field.won(winner, f"{field.name(winner)} spells the larger total.")


class CrossingTheDelaware(Scenario):
    """Crossing the Delaware (§6.4): the two cards in sequence (cyclic: K-A-2 counts).

    The higher card's player (:meth:`advantaged`: the 2 above the Ace, the Ace above the King)
    draws two: unless one is a rank in play, one extends
    the straight at either end, or the two are in sequence themselves, the lower card wins.
    Otherwise the advantaged player wins, and the loser keeps drawing into the pot while the
    cards play (a rank present or extending the straight), stopping after two misses in a row
    or a complete straight Ace to King. Before Battalion (§7).
    """

    key = "crossing-the-delaware"
    name = "Crossing the Delaware"
    meaning = "Cards in sequence: the higher one's player draws to extend the straight and take it all."
    section = "§6.4"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return not a.is_joker and not b.is_joker and _cyclic_next(a.rank, b.rank)

    @staticmethod
    def plays(rank: int, straight: set[int]) -> bool:
        """Whether *rank* is already present in *straight* or extends it at an end."""
        return rank in straight or any(_cyclic_next(rank, r) for r in straight)

    @staticmethod
    def advantaged(pair: Pair) -> int:
        """The side whose card is higher in the sequence (``docs/rules/blitzkrieg.md`` §6.4).

        A crossing is not a plain battle: next to a 2 the Ace counts 1, so the 2 is higher; next
        to a King the Ace sits above it. Otherwise the higher rank.

        >>> from bot.engine.cards import Card
        >>> CrossingTheDelaware.advantaged((Card(1, "S"), Card(2, "H")))
        1
        >>> CrossingTheDelaware.advantaged((Card(1, "S"), Card(13, "H")))
        0
        """
        a, b = pair[0].rank, pair[1].rank
        if {a, b} == {1, 13}:
            return 0 if a == 1 else 1
        return 0 if a > b else 1

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        high = self.advantaged(pair)
        low = 1 - high
        straight = {pair[0].rank, pair[1].rank}
        two = field.draw_many(high, 2)
        good = any(self.plays(c.rank, straight) for c in two) or _cyclic_next(two[0].rank, two[1].rank)
        if not good:
            return field.won(low, f"{field.name(high)} draws {labels(two)}: nothing plays, "
                             f"{field.name(low)} wins.")
        for _ in range(2):  # twice, so that a card joining through the other one is added too
            for c in two:
                if self.plays(c.rank, straight):
                    straight.add(c.rank)
        if _cyclic_next(two[0].rank, two[1].rank):
            straight.update(c.rank for c in two)
        misses = 0
        drawn = []
        while misses < 2 and len(straight) < 13:
            card = field.draw(low)
            drawn.append(card)
            if self.plays(card.rank, straight):
                straight.add(card.rank)
                misses = 0
            else:
                misses += 1
        how = "the straight is complete" if len(straight) == 13 else "two misses in a row"
        return field.won(high, f"{field.name(high)} draws {labels(two)} and crosses the Delaware: "
                         f"{field.name(low)} gives up {labels(drawn)} ({how}).")


class RepeatedBattle(Scenario):
    """The repeated battle (§6.11): two regular battles of the game in a row with the same ranks.

    The four cards are picked up (the earlier two from the decks); each player puts one card of
    each rank on the table; each player draws two cards and plays them against the opponent's
    two: four separate battles, each won for its own winner. Only when no other scenario
    applies, and only between battles of the game, not inside a scenario (ruling).
    """

    key = "repeated-battle"
    name = "The repeated battle"
    meaning = "The same two ranks twice in a row: four battles, each won for its own winner."
    section = "§6.11"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        if ctx.depth != 0 or ctx.previous is None or pair[0].is_joker or pair[1].is_joker:
            return False
        ranks, ids = ctx.previous
        if sorted(ranks) != sorted((pair[0].rank, pair[1].rank)) or {pair[0].id, pair[1].id} & set(ids):
            return False
        return not any(s.applies(pair, ctx) for s in SCENARIOS if s is not self)

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        _, ids = ctx.previous  # type: ignore[misc]
        earlier = []
        for deck in field.game.decks:
            for card in list(deck):
                if card.id in ids:
                    deck.remove(card)
                    earlier.append(card)
        field.game.table.extend([c, "up"] for c in earlier)
        # Each player keeps the card they just turned and takes the earlier card of the other rank.
        mine = [[pair[s], next(c for c in earlier if c.rank == pair[1 - s].rank)] for s in (0, 1)]
        field.say("repeated", f"The same battle again! {field.name(0)} lines up {labels(mine[0])}, "
                  f"{field.name(1)} lines up {labels(mine[1])}.")
        field.pots.append([])
        fresh = [field.draw_many(0, 2), field.draw_many(1, 2)]
        field.pots.pop()
        fights = [(fresh[0][k], mine[1][k]) for k in range(2)] + [(mine[0][k], fresh[1][k]) for k in range(2)]
        results = []
        for n, inner in enumerate(fights, start=1):
            field.say("sub-battle", f"Battle {n} of 4: {inner[0].label} against {inner[1].label}.",
                      cards=[c.to_json() for c in inner], depth=ctx.depth + 1)
            field.pots.append(list(inner))
            winner = field.fight(inner, Context(ctx.depth + 1, None, field.sizes()))
            results.append((field.pots.pop(), winner))
        for pot, winner in results:
            if winner is not None:
                field.give(pot, winner)
        return None


class Battalion(Scenario):
    """Battalion (§6.3): two numbered cards of the same suit; always applied last (§7).

    The lower number calls for troops: a card of the other colour loses; a card of the same
    suit adds its number (an Ace one troop); any other card of the same colour (faces included)
    gains nothing but draws again. Once their total exceeds the opponent's, the opponent calls in
    turn, back and forth, until someone draws the other colour and loses.
    """

    key = "battalion"
    name = "Battalion"
    meaning = "Same suit: the lower number calls for troops until someone draws the other colour."
    section = "§6.3"

    def applies(self, pair: Pair, ctx: Context) -> bool:
        a, b = pair
        return is_numbered(a) and is_numbered(b) and a.suit == b.suit

    @staticmethod
    def lower_seat(pair: Pair) -> int:
        """The seat of the lower number."""
        return 0 if pair[0].rank < pair[1].rank else 1

    def resolve(self, field: Battlefield, pair: Pair, ctx: Context) -> int | None:
        suit = pair[0].suit
        red = pair[0].is_red
        troops = [pair[0].rank, pair[1].rank]
        caller = self.lower_seat(pair)
        while True:
            while troops[caller] <= troops[1 - caller]:
                card = field.draw(caller)
                if card.is_red != red:
                    field.say("troops", f"{field.name(caller)} draws {card.label}, the wrong colour.")
                    return field.won(1 - caller, f"{field.name(1 - caller)} wins the Battalion "
                                     f"({troops[0]} against {troops[1]}).")
                if card.suit == suit and (is_numbered(card) or card.rank == 1):
                    troops[caller] += card.rank
            field.say("troops", f"{field.name(caller)} musters {troops[caller]} troops against "
                      f"{troops[1 - caller]}.", troops=list(troops))
            caller = 1 - caller


PEACE_TREATY = PeaceTreaty()
BATTALION = Battalion()

SCENARIOS: tuple[Scenario, ...] = (
    PEACE_TREATY,
    ABomb(),
    QueenOfHearts(),
    ColdWar(),
    ClassicWar(),
    KingsAssassination(),
    Napoleon(),
    HelenOfTroy(),
    RoyalQuarrel(),
    Foxhole(),
    RoyalFoxhole(),
    Halfsies(),
    EastGermany(),
    TheClock(),
    Forty(),
    Reinforcements(),
    SwitchingSides(),
    SpellingTheSuit(),
    CrossingTheDelaware(),
    RepeatedBattle(),
    BATTALION,
)
"""Every scenario, in precedence order (``docs/rules/blitzkrieg.md`` §7): the first that applies is played."""

SCENARIO_KEYS: tuple[str, ...] = tuple(s.key for s in SCENARIOS)
"""The scenarios' keys, in precedence order."""
