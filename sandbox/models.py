"""Plain data the loopback Discord keeps and hands to tests.

Everything here is a dataclass that tests can assert on directly. Ids are Discord snowflakes
(ints); times are epoch milliseconds (ints) unless a name says ``_s`` (seconds).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
"""Milliseconds since the Unix epoch at Discord's epoch (2015-01-01T00:00:00Z)."""

EPHEMERAL = 1 << 6
"""Message flag: only the interacting user sees the message."""
LOADING = 1 << 7
"""Message flag: a deferred interaction response that still shows "thinking"."""
HAS_THREAD = 1 << 5
"""Message flag: a thread was started from this message."""
IS_COMPONENTS_V2 = 1 << 15
"""Message flag: the message uses the Components V2 layout."""
THREAD_CREATE_PERMISSIONS = (1 << 35) | (1 << 36)
"""Create public threads + create private threads: what a channel with threads refused denies @everyone."""

_counter = itertools.count(1)

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE_MENTION = re.compile(r"@(everyone|here)")


def pinged_by(content: str, allowed_mentions: dict[str, Any] | None) -> frozenset[str]:
    """Whom Discord pings for a new message with *content* and its ``allowed_mentions`` field.

    Returns ``"everyone"`` (for ``@everyone`` or ``@here``), ``"role:<id>"`` and ``"user:<id>"``
    entries. Without an ``allowed_mentions`` field Discord parses every kind of mention in the
    content; with one, a kind is pinged only when ``parse`` names it (``"everyone"``,
    ``"roles"``, ``"users"``) or, for users and roles, when its id is listed.

    >>> sorted(pinged_by("<@1> @everyone <@&2>", None))
    ['everyone', 'role:2', 'user:1']
    >>> sorted(pinged_by("<@1> @everyone <@&2>", {"parse": []}))
    []
    >>> sorted(pinged_by("<@1> <@3> @here", {"parse": ["users"]}))
    ['user:1', 'user:3']
    >>> sorted(pinged_by("<@1> <@3>", {"parse": [], "users": ["3"]}))
    ['user:3']
    """
    parse = {"users", "roles", "everyone"} if allowed_mentions is None else set(allowed_mentions.get("parse") or [])
    listed_users = {str(u) for u in (allowed_mentions or {}).get("users") or []}
    listed_roles = {str(r) for r in (allowed_mentions or {}).get("roles") or []}
    out: set[str] = set()
    if "everyone" in parse and _EVERYONE_MENTION.search(content):
        out.add("everyone")
    out |= {f"user:{u}" for u in _USER_MENTION.findall(content) if "users" in parse or u in listed_users}
    out |= {f"role:{r}" for r in _ROLE_MENTION.findall(content) if "roles" in parse or r in listed_roles}
    return frozenset(out)


def now_ms() -> int:
    """Wall-clock time as integer epoch milliseconds."""
    return int(time.time() * 1000)


def make_snowflake(at_ms: int | None = None) -> int:
    """A unique snowflake whose timestamp part is ``at_ms`` (epoch ms; default now).

    The low 22 bits carry a process-wide counter, so ids made in the same millisecond differ and
    sort in creation order.
    """
    at = now_ms() if at_ms is None else at_ms
    if at < DISCORD_EPOCH_MS:
        raise ValueError(f"snowflake time {at} ms is before Discord's epoch {DISCORD_EPOCH_MS} ms")
    return ((at - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_time_ms(snowflake: int) -> int:
    """The epoch-millisecond timestamp carried by a snowflake."""
    return (snowflake >> 22) + DISCORD_EPOCH_MS


def iso(ms: int | None) -> str | None:
    """ISO-8601 UTC timestamp for epoch ms, as Discord writes it (``None`` stays ``None``)."""
    if ms is None:
        return None
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user (or the bot user when ``bot`` is true)."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    def to_payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"


@dataclass
class FakeMember:
    """A user's membership in a guild with its permission bits (an int, Discord's bitfield)."""

    user: FakeUser
    guild_id: int
    permissions: int
    joined_ms: int = field(default_factory=now_ms)
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)

    def to_payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        """The guild member object (``permissions`` only in interaction payloads, as on Discord)."""
        data: dict[str, Any] = {
            "user": self.user.to_payload(),
            "nick": self.nick,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_ms),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass
class FakeGuild:
    """A guild (server). ``members`` maps user id to member; the bot is a member too, with its own role."""

    id: int
    name: str
    owner_id: int
    bot_role_id: int = 0
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    roles: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Roles besides @everyone and the bot's: id -> (name, permission bits)."""


# Channel types, as Discord numbers them.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


@dataclass
class FakeChannel:
    """A text channel, DM channel or thread.

    ``allow_threads`` false makes thread creation in this channel answer 403 Missing Permissions,
    so tests can check a bot's fallback. ``recipient_id`` is set for DM channels only;
    ``parent_id``/``owner_id``/``archived``/``locked`` for threads only.
    """

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    allow_threads: bool = True
    archived: bool = False
    locked: bool = False
    position: int = 0
    thread_member_ids: set[int] = field(default_factory=set)
    created_ms: int = field(default_factory=now_ms)

    @property
    def everyone_deny(self) -> int:
        """Permission bits this channel denies @everyone (thread creation when threads are refused)."""
        return 0 if self.allow_threads else THREAD_CREATE_PERMISSIONS

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def to_payload(self, recipient: FakeUser | None = None) -> dict[str, Any]:
        """The channel object as Discord sends it (``recipient`` needed for DMs)."""
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [recipient.to_payload()] if recipient else [],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(self.guild_id), "type": 0, "allow": "0", "deny": str(self.everyone_deny)}
            ] if self.everyone_deny else [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=len(self.thread_member_ids),
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(self.created_ms),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": iso(self.created_ms),
                },
            )
        return data


@dataclass(frozen=True)
class ButtonInfo:
    """One button of a message: ``style`` is Discord's number (1 primary … 5 link)."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SelectInfo:
    """One select menu of a message: ``options`` are (label, value) pairs."""

    custom_id: str
    type: int
    options: tuple[tuple[str, str], ...]
    min_values: int
    max_values: int
    disabled: bool
    placeholder: str | None = None


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component dict in a (possibly nested, Components V2) tree, depth first."""
    for comp in components or []:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from walk_components(comp["components"])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


@dataclass
class FakeMessage:
    """A message as the fake stores it.

    ``visible_to`` is the only user id that may see an ephemeral message (``None`` = everyone in
    the channel). ``components`` and ``embeds`` are the raw JSON the bot sent.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    created_ms: int = field(default_factory=now_ms)
    edited_ms: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    deleted: bool = False
    attachments: list[dict[str, Any]] = field(default_factory=list)
    """Uploaded files as Discord describes them (``id``, ``filename``, ``size``, ``url``, ...)."""
    files: dict[str, bytes] = field(default_factory=dict, repr=False)
    """The uploaded bytes by filename, for tests that check an image or a log file."""
    allowed_mentions: dict[str, Any] | None = None
    """The ``allowed_mentions`` field of the request that created the message or last edited its
    content, as the bot sent it (``None``: that request had none, so Discord would parse every
    mention in the content)."""
    allowed_mentions_sent: list[dict[str, Any] | None] = field(default_factory=list)
    """The ``allowed_mentions`` field (or ``None``) of every request that created the message or set its
    content, oldest first."""
    pings: frozenset[str] = frozenset()
    """Whom the message pinged when it was created (:func:`pinged_by`; an edit pings nobody)."""
    nonce: str | None = None
    """The ``nonce`` of the request that created the message (Discord echoes it in the answer)."""

    @property
    def ephemeral(self) -> bool:
        """True when only ``visible_to`` sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred response still "thinks"."""
        return bool(self.flags & LOADING)

    @property
    def buttons(self) -> list[ButtonInfo]:
        """Every button, in order, including ones nested in Components V2 sections."""
        out = []
        for comp in walk_components(self.components):
            if comp.get("type") == 2:
                emoji = comp.get("emoji") or {}
                out.append(
                    ButtonInfo(
                        label=comp.get("label"),
                        custom_id=comp.get("custom_id"),
                        style=int(comp.get("style", 1)),
                        disabled=bool(comp.get("disabled", False)),
                        url=comp.get("url"),
                        emoji=emoji.get("name") if isinstance(emoji, dict) else None,
                    )
                )
        return out

    @property
    def selects(self) -> list[SelectInfo]:
        """Every select menu, in order."""
        out = []
        for comp in walk_components(self.components):
            if comp.get("type") in (3, 5, 6, 7, 8):
                out.append(
                    SelectInfo(
                        custom_id=comp.get("custom_id", ""),
                        type=int(comp["type"]),
                        options=tuple((o.get("label", ""), o.get("value", "")) for o in comp.get("options", [])),
                        min_values=int(comp.get("min_values", 1)),
                        max_values=int(comp.get("max_values", 1)),
                        disabled=bool(comp.get("disabled", False)),
                        placeholder=comp.get("placeholder"),
                    )
                )
        return out

    @property
    def text(self) -> str:
        """The text a person reads: content, embed texts and every Components V2 TextDisplay (nested ones
        too), joined by newlines (for ``in`` checks). A V2 message has no content, so this is its texts.
        """
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        for comp in walk_components(self.components):
            if comp.get("type") == 10:
                parts.append(comp.get("content", ""))
        return "\n".join(p for p in parts if p)

    @property
    def is_v2(self) -> bool:
        """True when the message carries the IS_COMPONENTS_V2 flag (a layout, no content)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def accent(self) -> int | None:
        """The accent colour (an int, 0xRRGGBB) of the message's first Container, if any."""
        return next((c.get("accent_color") for c in walk_components(self.components) if c.get("type") == 17), None)

    @property
    def media(self) -> list[tuple[str, str | None]]:
        """Every MediaGallery item and Thumbnail as ``(url, description)``, in order
        (``attachment://name`` URLs as the bot sent them).
        """
        out: list[tuple[str, str | None]] = []
        for comp in walk_components(self.components):
            if comp.get("type") == 12:
                out += [((i.get("media") or {}).get("url", ""), i.get("description")) for i in comp.get("items", [])]
            elif comp.get("type") == 11:
                out.append(((comp.get("media") or {}).get("url", ""), comp.get("description")))
        return out

    def button(self, label_or_custom_id: str) -> ButtonInfo:
        """The button whose custom_id equals, or else whose label equals, the argument.

        Raises ``LookupError`` naming the buttons there are.
        """
        buttons = self.buttons
        for b in buttons:
            if b.custom_id == label_or_custom_id:
                return b
        for b in buttons:
            if b.label == label_or_custom_id:
                return b
        names = [(b.label, b.custom_id) for b in buttons]
        raise LookupError(f"no button {label_or_custom_id!r} on message {self.id}; buttons: {names}")

    def to_payload(self) -> dict[str, Any]:
        """The message object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(self.created_ms),
            "edited_timestamp": iso(self.edited_ms),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_type == 2 else 0,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": {"id": str(self.interaction_user_id), "username": "user", "discriminator": "0",
                         "avatar": None, "global_name": None},
                "authorizing_integration_owners": {},
            }
        return data


@dataclass(frozen=True)
class EditRecord:
    """One edit of a message: when (epoch ms), which message/channel, and through which door.

    ``via`` is ``"channel"`` for ``PATCH /channels/{c}/messages/{m}`` (subject to Discord's
    per-channel edit rate) or ``"interaction"`` for a type-7 callback or a webhook-token edit.
    """

    at_ms: int
    channel_id: int
    message_id: int
    via: str


@dataclass(frozen=True)
class RequestRecord:
    """One REST request the bot made: method, path below ``/api/v10``, status answered, time (epoch ms)."""

    method: str
    path: str
    status: int
    at_ms: int


@dataclass
class InteractionResult:
    """What became of one interaction a test sent.

    ``response_type`` is the first callback's type (4 message, 5 deferred message, 6 deferred
    update, 7 update message, 8 autocomplete choices, 9 modal) or ``None`` if the bot never answered in time, in which
    case ``failed`` is true and ``errors`` says why, as the user would see "This interaction
    failed". ``message`` is the message the response created or updated (refreshed by later
    edits); ``followups`` the messages sent through the interaction's webhook token; ``modal``
    the modal payload for a type-9 response; ``choices`` the suggestions of a type-8 one.
    ``created_at_ms`` is the snowflake time of the
    interaction id.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    created_at_ms: int
    sent_at_monotonic: float
    source_message_id: int | None = None
    response_type: int | None = None
    response_at_ms: int | None = None
    message: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    failed: bool = False
    errors: list[str] = field(default_factory=list)
    _answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def responded(self) -> bool:
        """True once the bot's first callback was accepted."""
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        """True when the response message is ephemeral."""
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        """The response message's content ('' if none)."""
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        """The text a person reads in the response message (:attr:`FakeMessage.text`; '' if none)."""
        return self.message.text if self.message else ""
