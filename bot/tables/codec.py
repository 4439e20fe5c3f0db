"""The action codec: one short, opaque, version-independent token per legal action.

A board button carries a token in its custom id (``docs/tables.md``, "Custom ids"); the token of
an action is a keyed hash of the action's canonical JSON, so it

* names no card, not even the player's own (custom ids must never carry a card face,
  ``docs/design.md`` §6): it is ``k.`` and 12 characters of lowercase base32 (``a``–``z``,
  ``2``–``7``), which no card id (they all hold an upper-case letter) or card text can match;
* means the same move whatever the table's version: it is decoded by hashing the player's
  *current* legal actions and finding the match, so a board is never stale just because
  someone else moved, and a move that is no longer possible is refused with a reason;
* cannot be turned back into its action by the player: the hash is keyed with a key derived
  from the table's secret seed and the player's id. The derivation is a deliberately slow,
  memory-hard KDF (scrypt, about 50 ms once per table and player, then cached), because the
  seed also drives the shuffle: a fast hash of a 31-bit seed would let a player who knows one
  of their own tokens search every seed and learn the deck.

The picker's selection tokens (``s.`` and 12 characters) are made by the same keyed hash over a
different domain, so the two never collide.

>>> codec = ActionCodec(b"k" * 32)
>>> token = codec.token({"type": "discard", "card": "QH"})
>>> token.startswith("k.") and len(token) == 14 and "QH" not in token
True
>>> codec.token({"card": "QH", "type": "discard"}) == token   # key order does not matter
True
>>> codec.decode(token, [{"type": "knock"}, {"type": "discard", "card": "QH"}])
{'type': 'discard', 'card': 'QH'}
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bot.tables.table import TableError

if TYPE_CHECKING:
    from bot.engine import Action
    from bot.tables.table import Table

__all__ = ["ActionCodec", "codec_for", "derive_key", "canonical_json", "is_action_token", "is_selection_token",
           "is_intent_token", "ACTION_PREFIX", "SELECTION_PREFIX", "INTENT_PREFIX", "TOKEN_CHARS"]

ACTION_PREFIX = "k."
"""The prefix of an action token."""
SELECTION_PREFIX = "s."
"""The prefix of a picker selection token."""
INTENT_PREFIX = "i."
"""The prefix of an intent token (a game UI's own button meaning, see :meth:`ActionCodec.intent_token`)."""
TOKEN_CHARS = 12
"""Base32 characters after the prefix: 60 bits, so two of one player's actions never share one."""

_TOKEN_RE = re.compile(f"[a-z2-7]{{{TOKEN_CHARS}}}")
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1  # ≈ 50 ms and 16 MiB per derivation


def canonical_json(value: Any) -> str:
    """The canonical JSON text of *value*: sorted keys, no spaces, ASCII only.

    Two actions that are equal as JSON (whatever their key order) have the same text.

    Raises
    ------
    TypeError
        *value* holds something JSON cannot carry.

    >>> canonical_json({"type": "swap", "position": 2})
    '{"position":2,"type":"swap"}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@lru_cache(maxsize=4096)
def derive_key(secret: str, player: str) -> bytes:
    """The 32-byte codec key of *player* at a table whose secret is *secret* (scrypt, cached).

    Parameters
    ----------
    secret:
        The table's secret as text (its seed, ``str(table.seed)``, unless the table carries a
        ``codec_secret``).
    player:
        The engine's player id; each player's tokens differ.

    Returns
    -------
    bytes
        32 bytes. Slow on purpose (≈ 50 ms, memory-hard) so that a player cannot search the
        seeds; cached, so a table pays it once per player.
    """
    return hashlib.scrypt(f"parlor-codec:{secret}".encode(), salt=f"player:{player}".encode(),
                          n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P, dklen=32)


def is_action_token(token: str) -> bool:
    """Whether *token* has the shape of an action token (``k.`` + 12 base32 characters).

    >>> is_action_token("k.abcdefgh2345"), is_action_token("a3")
    (True, False)
    """
    return token.startswith(ACTION_PREFIX) and _TOKEN_RE.fullmatch(token[len(ACTION_PREFIX):]) is not None


def is_selection_token(token: str) -> bool:
    """Whether *token* has the shape of a picker selection token (``s.`` + 12 base32 characters)."""
    return token.startswith(SELECTION_PREFIX) and _TOKEN_RE.fullmatch(token[len(SELECTION_PREFIX):]) is not None


def is_intent_token(token: str) -> bool:
    """Whether *token* has the shape of an intent token (``i.`` + 12 base32 characters)."""
    return token.startswith(INTENT_PREFIX) and _TOKEN_RE.fullmatch(token[len(INTENT_PREFIX):]) is not None


class ActionCodec:
    """Tokens of one player's actions at one table (see the module docstring).

    Parameters
    ----------
    key:
        The keyed hash's key (at least 16 bytes): :func:`derive_key` of the table's secret and
        the player, as :func:`codec_for` gives it.

    Raises
    ------
    ValueError
        *key* is shorter than 16 bytes.
    """

    __slots__ = ("key", "_memo")

    MEMO_SIZE = 2048
    """Tokens one codec remembers (a board draws the same few dozen on every redraw)."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError(f"a codec key must have at least 16 bytes, got {len(key)}")
        self.key = key[:64]  # blake2b takes keys of at most 64 bytes
        self._memo: dict[Any, str] = {}

    def _hash(self, domain: str, text: str) -> str:
        digest = hashlib.blake2b(f"{domain}\x00{text}".encode(), key=self.key, digest_size=8).digest()
        return base64.b32encode(digest).decode("ascii").lower()[:TOKEN_CHARS]

    def _memo_hash(self, domain: str, value: Mapping[str, Any]) -> str:
        """``_hash(domain, canonical_json(value))``, remembered for flat dicts of plain values."""
        try:
            key = (domain, *sorted((k, type(v), v) for k, v in value.items()))
            token = self._memo.get(key)
        except TypeError:  # a list or dict inside, or keys that do not sort: no memo
            return self._hash(domain, canonical_json(value))
        if token is None:
            token = self._hash(domain, canonical_json(value))
            if len(self._memo) >= self.MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = token
        return token

    def token(self, action: Action) -> str:
        """The token of *action* (``k.`` + 12 base32 characters, 14 in all, within ``TOKEN_PATTERN``).

        Raises
        ------
        TypeError
            *action* holds something JSON cannot carry.
        """
        return ACTION_PREFIX + self._memo_hash("action", action)

    def selection_token(self, selection_id: str) -> str:
        """The token of a picker step, *selection_id* being its canonical description (``s.`` + 12)."""
        return SELECTION_PREFIX + self._hash("selection", selection_id)

    def intent_token(self, intent: Mapping[str, Any]) -> str:
        """The token of *intent*, a game UI's own meaning of a button (``i.`` + 12 base32 characters).

        An intent is a small JSON-ready dict that says what a click means to the UI rather than
        which engine action it is, e.g. Dutch Blitz's ``{"card": "wood"}`` ("my Wood card: onto
        the Dutch pile it fits, whichever that is when the click arrives"). Like an action token
        it is keyed, version-independent and names nothing.

        Raises
        ------
        TypeError
            *intent* holds something JSON cannot carry.
        """
        return INTENT_PREFIX + self._memo_hash("intent", intent)

    def decode_intent(self, token: str, vocabulary: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        """The intent among *vocabulary* (every intent the UI's boards may carry) whose token is *token*.

        Raises
        ------
        TableError
            No intent of the vocabulary has that token (a board of an older layout).
        """
        if is_intent_token(token):
            for intent in vocabulary:
                if self.intent_token(intent) == token:
                    return intent
        raise TableError("That button is from an older board — here is your fresh board.")

    def decode(self, token: str, legal: Sequence[Action]) -> Action:
        """The action among *legal* (the player's current legal actions) whose token is *token*.

        Returns
        -------
        Action
            That action, as ``legal`` holds it.

        Raises
        ------
        TableError
            *token* is not an action token, or no current legal action has it ("that move is no
            longer possible: …", with why). ``docs/tables.md``, "Custom ids".
        """
        if is_action_token(token):
            for action in legal:
                if self.token(action) == token:
                    return action
        raise self.refusal(token, legal)

    @staticmethod
    def refusal(token: str, legal: Sequence[Action]) -> TableError:
        """The :class:`TableError` for *token* matching none of *legal*, with the reason a player reads."""
        if not is_action_token(token):
            return TableError("That button is not one of this game's moves — here is your fresh board.")
        reason = ("you have no move to make right now" if not legal
                  else "the table moved on since this board was drawn")
        return TableError(f"That move is no longer possible: {reason} — here is your fresh board.")


def codec_for(table: Table, player: str) -> ActionCodec:
    """The :class:`ActionCodec` of *player* at *table*.

    A table opened today has a random secret of its own (``table.codec_secret``, 128 bits): the
    key is a keyed BLAKE2b of the player id under it, instant and out of any player's reach. A
    table stored before tables had one falls back to its seed through the slow
    :func:`derive_key`, so its boards keep working after an upgrade.
    """
    secret = table.codec_secret
    if secret is not None:
        return _codec(_fast_key(secret, player))
    return _codec(derive_key(str(table.seed), player))


@lru_cache(maxsize=4096)
def _codec(key: bytes) -> ActionCodec:
    """One codec per key, so that its token memo lasts from one board to the next."""
    return ActionCodec(key)


@lru_cache(maxsize=4096)
def _fast_key(secret: str, player: str) -> bytes:
    return hashlib.blake2b(f"player:{player}".encode(), key=secret.encode()[:64], digest_size=32,
                           person=b"parlor-codec").digest()
