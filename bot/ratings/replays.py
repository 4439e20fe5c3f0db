"""Stored games told again: the action log of a game, replayed and narrated (``docs/ratings.md``).

``parlor replay GAME_ID`` and ``/table log`` use it. The public telling names no card a
spectator could not see; a player's telling adds what that player was shown (for a moderator
reviewing a dispute). Players are named as their seats were at the table (:func:`seat_name`), never
by a player id or a mention.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import REGISTRY, Engine
from bot.engine.narrate import play_by_play
from bot.storage import GameRow, SeatRow, Storage

__all__ = ["StoredGame", "load_game", "seat_name", "tell"]


def seat_name(seat: SeatRow) -> str:
    r"""The name *seat* had at its table, as it was typed, or ``Seat N`` (N from 1) for a seat stored
    without one.

    A table stores a person's display name with Discord's markdown escaped (``bot.tables``'
    ``shown_name``); a told game is plain text, so the escapes are taken out again (a mention stays
    broken by its zero-width space).

    >>> seat_name(SeatRow(1, 0, "u7", 7, None, 0, "mr\\_\\*x\\*"))
    'mr_*x*'
    >>> seat_name(SeatRow(1, 1, "u8", 8, None, 0))
    'Seat 2'
    """
    if seat.name:
        return re.sub(r"\\(.)", r"\1", seat.name, flags=re.DOTALL)
    return f"Seat {seat.seat + 1}"


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its row, seats, the engine log (``Engine.log()`` shape) and its engine class."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    log: dict[str, Any]
    engine: type[Engine]

    def player(self, who: str) -> str:
        """The player id a ``--player`` value names: a seat number (1 = first), a user id or a player id.

        Raises
        ------
        ValueError
            No seat of this game matches.
        """
        for seat in self.seats:
            if who in (seat.player_id, str(seat.user_id)) or (who.isdigit() and int(who) == seat.seat + 1):
                return seat.player_id
        raise ValueError(f"game {self.row.id} has no seat {who!r}; seats: "
                         f"{', '.join(f'{s.seat + 1} ({seat_name(s)})' for s in self.seats)}")

    def name(self, player_id: str) -> str:
        """The name of the seat of *player_id* (:func:`seat_name`); ``Seat ?`` for a player with no stored seat."""
        seat = next((s for s in self.seats if s.player_id == player_id), None)
        return seat_name(seat) if seat is not None else "Seat ?"


async def load_game(storage: Storage, game_id: int,
                    engines: Mapping[str, type[Engine]] | None = None) -> StoredGame:
    """|coro| The stored game *game_id* with its log.

    *engines* maps kinds to engine classes (default: the registry); the game's kind must be there.

    Raises
    ------
    LookupError
        No such game, or its kind is not a known game.
    """
    engines = REGISTRY if engines is None else engines
    row = await storage.game(game_id)
    if row is None:
        raise LookupError(f"there is no game {game_id}")
    if row.kind not in engines:
        raise LookupError(f"game {game_id} is of kind {row.kind!r}, which this version does not have")
    seats = tuple(await storage.seats(game_id))
    actions = [[player, action] for player, action in await storage.action_log(game_id)]
    log = {"kind": row.kind, "seed": row.seed, "options": row.options, "players": [s.player_id for s in seats],
           "actions": actions}
    return StoredGame(row, seats, log, engines[row.kind])


def tell(game: StoredGame, *, viewer: str | None = None, name: Callable[[str], str] | None = None) -> list[str]:
    """The game move by move in words, as a spectator (*viewer* ``None``) or one player saw it.

    Players are named by *name* (a player id to the name shown), by default their seats' names
    (:meth:`StoredGame.name`), in every line (``bot.engine.narrate.play_by_play``).
    """
    return list(play_by_play(game.engine, game.log, viewer=viewer, name=name or game.name))
