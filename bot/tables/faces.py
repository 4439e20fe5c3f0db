"""Cards as pictures: the application's card emojis, and how one message draws its cards.

The bot's application emojis (uploaded by ``parlor sync``, ``docs/art.md`` §6) are fetched at
start-up into one :class:`CardFaces` per client, held by the table registry: card key to emoji,
only the current art version's names. A game UI asks it for the :class:`CardStyle` of the table's
channel (:meth:`GameUI.cards <bot.tables.ui.GameUI.cards>`) and draws every card through it:

* in a message, a card is its emoji with its name in text beside it, for screen readers and for
  a message read as text: ``<:p1_std_qh:123> Q♥``, ``<:p1_db_r7:124> R7`` (the emoji shows the
  colour; the letter still names it);
* on a button, the emoji goes in the button's ``emoji`` and the label names the card in words;
* without emojis (none synced, or the channel does not let the bot use them: the Discord side
  answers :attr:`CardFaces.usable`) every card is today's text: ``Q♥``, ``🟥 R7``
  (:mod:`bot.tables.cards`).

A face-down card is always its back's emoji (:meth:`CardStyle.back`): an emoji's name is public,
so a hidden card never goes through :meth:`CardStyle.card` (``docs/design.md`` §6). No Discord
import: the client fills the map and says which channels may use it.

>>> faces = CardFaces()
>>> faces.load([(11, "p1_std_qh"), (12, "p1_db_r7"), (13, "p0_std_qh"), (14, "party_parrot")])
2
>>> style = faces.style(1)
>>> style.card("QH"), style.card("2R7"), style.back("standard")
('<:p1_std_qh:11> Q♥', '<:p1_db_r7:12> R7', '🂠')
>>> style.button("2R7"), PLAIN.button("2R7")
(('red 7', '<:p1_db_r7:12>'), ('🟥 R7', None))
>>> CardFaces().style(1).card("2R7")
'🟥 R7'
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.art.emojis import back_key, card_key, key_of_name
from bot.engine.cards import BlitzCard, Card
from bot.tables.cards import BLITZ_INITIALS, NO_CARD, blitz_card, card_text, playing_card

__all__ = ["CardEmoji", "CardStyle", "CardFaces", "PLAIN", "HIDDEN_TEXT"]

HIDDEN_TEXT = "🂠"
"""A face-down card as text (no emoji)."""


@dataclass(frozen=True)
class CardEmoji:
    """One application emoji of a card.

    Attributes
    ----------
    key:
        The card's key (``docs/art.md`` §4), e.g. ``"standard:QH"``, ``"dutch-blitz:back-pump"``.
    name, id:
        The emoji's name (``p1_std_qh``) and snowflake.
    """

    key: str
    name: str
    id: int

    @property
    def markup(self) -> str:
        """The emoji in a message or a button's ``emoji``: ``<:p1_std_qh:123>``."""
        return f"<:{self.name}:{self.id}>"


CardLike = Card | BlitzCard | str | Mapping[str, Any]
"""A card as the UIs hold it: the engine's card, its id, or a view's JSON dict of it."""

_LABELS: dict[str, str] = {Card(rank, suit).label: f"standard:{Card(rank, suit).id}"
                           for rank in range(1, 14) for suit in "SHDC"}
"""A standard card's label (``Q♥``) to its key: Blitzkrieg's battles name their cards by label."""


class CardStyle:
    """How one message draws its cards: as emojis with their text beside, or as text alone.

    Parameters
    ----------
    emojis:
        Card key to its emoji; empty draws every card as text (:data:`PLAIN`).
    drawn:
        A cache of :meth:`card`'s answers by card id, shared by the styles of one map (a table is
        drawn many times a second; a card's markup never changes while the map does not).
    """

    def __init__(self, emojis: Mapping[str, CardEmoji], drawn: dict[Any, str] | None = None) -> None:
        self._emojis = emojis
        self._drawn: dict[Any, str] = {} if drawn is None else drawn

    @property
    def uses_emojis(self) -> bool:
        """Whether this style draws cards as emojis (some are synced and the channel may use them)."""
        return bool(self._emojis)

    def emoji(self, card: CardLike | None) -> CardEmoji | None:
        """The emoji of a face-up *card* (for a button's ``emoji``), or ``None`` (no card, no emoji).

        Never call it for a card the viewer may not see: use :meth:`back_emoji`.
        """
        if card is None or not self._emojis:
            return None
        try:
            return self._emojis.get(card_key(card))
        except ValueError:
            return None

    def back_emoji(self, deck: str, owner: int | None = None) -> CardEmoji | None:
        """The emoji of a face-down card of *deck* (``"standard"`` or ``"dutch-blitz"``, seat *owner*), or ``None``."""
        return self._emojis.get(back_key(deck, owner)) if self._emojis else None

    def card(self, card: CardLike | None) -> str:
        """A face-up *card* in a message: ``<:p1_std_qh:ID> Q♥`` or ``<:p1_db_r7:ID> R7``; as text without
        its emoji (``Q♥``, ``🟥 R7``); ``—`` for no card.

        Raises
        ------
        ValueError
            *card* is no card of either deck.
        """
        if card is None:
            return NO_CARD
        if not self._emojis:
            return _text(card)
        ident = _ident(card)
        found = self._drawn.get(ident) if ident is not None else None
        if found is None:
            found = self._card(card)
            if ident is not None:
                self._drawn[ident] = found
        return found

    def _card(self, card: CardLike) -> str:
        text = _text(card)
        emoji = self.emoji(card)
        if emoji is None:
            return text
        if emoji.key.startswith("dutch-blitz:"):  # the emoji shows the colour; its letter still names it
            text = text.split(" ", 1)[1]
        elif text == "🃏 Joker":
            text = "Joker"
        return f"{emoji.markup} {text}"

    def button(self, card: CardLike | None) -> tuple[str, str | None]:
        """What a button naming a face-up *card* shows: ``(words, emoji markup)`` with its emoji, where the
        words name the card for a screen reader (``"yellow 8"``, ``"Q♥"``, ``"Joker"``); ``(text, None)``
        without (``"🟨 Y8"``, ``"Q♥"``; ``"—"`` for no card).

        Raises
        ------
        ValueError
            *card* is no card of either deck.
        """
        emoji = self.emoji(card)
        if card is None or emoji is None:
            return self.card(card), None
        deck, _, face = emoji.key.partition(":")
        if deck == "dutch-blitz":
            colour = next(c for c, letter in BLITZ_INITIALS.items() if letter == face[0])
            return f"{colour} {face[1:]}", emoji.markup
        text = _text(card)
        return ("Joker" if text == "🃏 Joker" else text), emoji.markup

    def label(self, label: str, card: CardLike | None = None) -> str:
        """A face-up card that a game names by its own *label* (Blitzkrieg: ``Q♥``, ``Joker``): its emoji and
        the label beside it, or the label alone without an emoji.

        Parameters
        ----------
        label:
            The game's text for the card.
        card:
            The card itself; default: the standard card whose label is *label* (a Joker's label does
            not say which Joker, so it stays text).
        """
        key = card_key(card) if card is not None else _LABELS.get(label)
        emoji = self._emojis.get(key) if key is not None and self._emojis else None
        return f"{emoji.markup} {label}" if emoji is not None else label

    def back(self, deck: str, owner: int | None = None, text: str = HIDDEN_TEXT) -> str:
        """A face-down card in a message: its back's emoji alone, or *text* (``🂠``) without it.

        Parameters
        ----------
        deck, owner:
            As :func:`bot.art.emojis.back_key`: the standard back, or Dutch Blitz seat *owner*'s back.
        text:
            What a face-down card reads as without emojis.
        """
        emoji = self.back_emoji(deck, owner)
        return emoji.markup if emoji is not None else text


def _ident(card: CardLike) -> Any:
    """What identifies *card*'s face for the cache: its id (``QH1``, ``2R7``), or a view's colour and value."""
    if isinstance(card, str):
        return card
    if isinstance(card, Card | BlitzCard):
        return card.id
    ident = card.get("id")
    if isinstance(ident, str):
        return ident
    return (card.get("colour"), card.get("value")) if "colour" in card else None


def _text(card: CardLike) -> str:
    """The text of *card* in its own deck (:mod:`bot.tables.cards`)."""
    if isinstance(card, BlitzCard) or (isinstance(card, Mapping) and card.get("colour") in BLITZ_INITIALS):
        return blitz_card(card)
    if isinstance(card, Card):
        return playing_card(card)
    text = card_text(str(card.get("id", "")) if isinstance(card, Mapping) else card)
    if text is None:
        raise ValueError(f"{card!r} is no card")
    return text


PLAIN = CardStyle({})
"""Every card as text: no emoji synced, or the channel may not use them (immutable)."""


class CardFaces:
    """The card emojis of one client: loaded at start-up, asked for the style of a channel.

    Parameters
    ----------
    usable:
        Whether messages in a channel (by its snowflake) may use the application's emojis; the
        Discord side checks the channel's permissions (``docs/art.md`` §8). Default: everywhere.
    """

    def __init__(self, usable: Callable[[int], bool] | None = None) -> None:
        self._emojis: dict[str, CardEmoji] = {}
        self._drawn: dict[Any, str] = {}
        self.usable: Callable[[int], bool] = usable or (lambda channel_id: True)
        self._plain = 0

    @property
    def loaded(self) -> int:
        """How many card emojis are known (0: every card is text)."""
        return len(self._emojis)

    def load(self, emojis: Iterable[tuple[int, str]]) -> int:
        """Replace the map with the card emojis among *emojis*; returns how many are cards of this art version.

        Parameters
        ----------
        emojis:
            ``(id, name)`` of every application emoji (``Client.fetch_application_emojis``). Names of
            another art version and emojis not of ours are left out.
        """
        found: dict[str, CardEmoji] = {}
        for emoji_id, name in emojis:
            key = key_of_name(name)
            if key is not None and key not in found:
                found[key] = CardEmoji(key, name, int(emoji_id))
        self._emojis = found
        self._drawn = {}
        return len(found)

    def style(self, channel_id: int | None) -> CardStyle:
        """The style of a message in channel *channel_id*: emojis when loaded and usable there, else :data:`PLAIN`."""
        if not self._emojis or self._plain or channel_id is None or not self.usable(channel_id):
            return PLAIN
        return CardStyle(self._emojis, self._drawn)

    @contextlib.contextmanager
    def plain(self) -> Iterator[None]:
        """Within it, every style is :data:`PLAIN`: for a message that does not fit 2,000 characters with
        emojis and is drawn again as text (synchronous: no ``await`` may run inside).
        """
        self._plain += 1
        try:
            yield
        finally:
            self._plain -= 1
