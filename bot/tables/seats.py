"""The seats of a table message as data: one :class:`SeatPanel` per seat (``docs/tables.md``, "Message layouts").

A game UI describes its public message as :class:`PublicParts` (:meth:`GameUI.public_parts
<bot.tables.ui.GameUI.public_parts>`): the header line, the seats, and the rest of the text
without the seat lines. The layout (:func:`bot.tables.layout.render`) draws each seat as a
Components V2 Section with the player's avatar; the text of the message
(:meth:`GameUI.public_text <bot.tables.ui.GameUI.public_text>`, used for fallbacks, ``/table log``
and the sandboxes) writes the same :attr:`SeatPanel.text` as a line, so a seat's line has one source.

No Discord here: the avatar is filled in by the message layer (:mod:`bot.tables.messages`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatPanel", "PublicParts"]


@dataclass(frozen=True)
class SeatPanel:
    """One seat as the table message shows it.

    Attributes
    ----------
    player:
        The engine's player id (``u<snowflake>`` or ``bot<n>``, :class:`~bot.tables.table.Seat`).
    text:
        The seat's line in Discord markdown, exactly as the message's text writes it: name, counts,
        lives or points, whose-turn mark. Only public facts (a card count, never a hidden card).
    turn:
        Whether the table waits for this seat now (its turn; a simultaneous game marks nobody).
    name:
        The seat's display name (the avatar's alt text); ``""`` until the message layer fills it in.
    avatar:
        The avatar's URL (``https://cdn.discordapp.com/…``), filled in by the message layer;
        ``None``: not known, and the layout writes the seats as text.
    """

    player: str
    text: str
    turn: bool = False
    name: str = ""
    avatar: str | None = None


@dataclass(frozen=True)
class PublicParts:
    """A public table message in parts: ``header`` (its first line: game, table, hand or round,
    target), ``seats`` (:class:`SeatPanel`, in seat order) and ``body`` (the rest, without the seat
    lines; Discord markdown, paragraphs separated by blank lines).
    """

    header: str
    seats: tuple[SeatPanel, ...] = ()
    body: str = ""

    @classmethod
    def of_text(cls, text: str) -> PublicParts:
        """A text without seats as parts: its first line the header, the rest the body."""
        header, _, body = text.partition("\n")
        return cls(header, (), body)
