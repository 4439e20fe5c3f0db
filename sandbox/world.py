"""World state: building guilds, channels, users and roles, and the queries tests assert on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable
from typing import Any

from .models import (
    DM,
    GUILD_TEXT,
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeUser,
    make_snowflake,
    snowflake_time_ms,
)
from .wire import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    JSON,
    MANAGE_GUILD,
    MANAGE_THREADS,
)

PATIENCE = float(os.environ.get("SANDBOX_PATIENCE", "6"))
"""How many times longer than a test's own ``timeout`` :meth:`WorldMixin.wait_for` waits before it fails
(environment ``SANDBOX_PATIENCE``, default 6). A passing test never waits for its timeout, so this
costs nothing; it keeps a loaded machine (several test workers on two cores) from failing a test
whose event is merely late."""


class WorldMixin:
    """Guilds, channels, users, roles and messages: building them and reading them."""

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str = "Test Guild", *, owner: FakeUser | None = None,
                  shard: tuple[int, int] | None = None) -> FakeGuild:
        """Creates a guild the bot is in (dispatches GUILD_CREATE if a bot is connected).

        ``shard=(shard_id, shard_count)`` picks an id that Discord's formula puts on that shard.
        """
        gid = make_snowflake()
        if shard is not None:
            while (gid >> 22) % shard[1] != shard[0]:
                gid = make_snowflake(snowflake_time_ms(gid) + 1)
        owner = owner or self.add_user("owner")
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id, bot_role_id=make_snowflake())
        self.guilds[gid] = guild
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, BOT_PERMISSIONS, role_ids=[guild.bot_role_id])
        guild.members[owner.id] = FakeMember(owner, gid, ALL_PERMISSIONS)
        self._dispatch("GUILD_CREATE", self._guild_payload(guild))
        return guild

    def add_channel(self, guild: FakeGuild, name: str = "general", *, allow_threads: bool = True,
                    allow_external_emojis: bool = True) -> FakeChannel:
        """Creates a text channel in ``guild`` (dispatches CHANNEL_CREATE if connected).

        ``allow_threads=False`` makes thread creation there answer 403 Missing Permissions;
        ``allow_external_emojis=False`` denies @everyone Use External Emojis there (and so its threads).
        """
        channel = FakeChannel(id=make_snowflake(), name=name, type=GUILD_TEXT, guild_id=guild.id,
                              allow_threads=allow_threads, allow_external_emojis=allow_external_emojis,
                              position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._dispatch("CHANNEL_CREATE", channel.to_payload())
        return channel

    def add_user(self, name: str, *, guild: FakeGuild | None = None, permissions: int | None = None,
                 manage_threads: bool = False, manage_guild: bool = False, administrator: bool = False,
                 dms_open: bool = True, roles: list[int] | None = None) -> FakeUser:
        """Creates a user; with ``guild`` also a member there.

        ``permissions`` (Discord's bitfield; default: what @everyone has) is extended by the
        ``manage_threads`` / ``manage_guild`` / ``administrator`` switches. ``dms_open=False``
        makes DMs to this user answer 403 Cannot send messages to this user (50007).
        """
        user = FakeUser(id=make_snowflake(), name=name)
        self.users[user.id] = user
        if not dms_open:
            self.closed_dms.add(user.id)
        if guild is not None:
            self.add_member(guild, user, permissions=permissions, manage_threads=manage_threads,
                            manage_guild=manage_guild, administrator=administrator, roles=roles)
        return user

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> int:
        """Creates a role in ``guild`` (dispatches GUILD_ROLE_CREATE if connected); returns its id.

        Give it to members with ``add_user(..., roles=[id])`` / ``add_member(..., roles=[id])``;
        its permission bits are added to theirs.
        """
        rid = make_snowflake()
        guild.roles[rid] = (name, permissions)
        self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": self._role_payload(guild, rid)})
        return rid

    def _role_payload(self, guild: FakeGuild, rid: int) -> JSON:
        name, perms = guild.roles[rid]
        return {"id": str(rid), "name": name, "permissions": str(perms), "position": 2 + list(guild.roles).index(rid),
                "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None}

    def add_member(self, guild: FakeGuild, user: FakeUser, *, permissions: int | None = None,
                   manage_threads: bool = False, manage_guild: bool = False,
                   administrator: bool = False, roles: list[int] | None = None) -> FakeMember:
        """Makes ``user`` a member of ``guild`` with the given permissions and roles (see ``add_user``)."""
        perms = DEFAULT_PERMISSIONS if permissions is None else permissions
        perms |= (MANAGE_THREADS if manage_threads else 0) | (MANAGE_GUILD if manage_guild else 0)
        perms |= ADMINISTRATOR if administrator else 0
        for rid in roles or []:
            perms |= guild.roles[rid][1]
        member = FakeMember(user, guild.id, perms, role_ids=list(roles or []))
        guild.members[user.id] = member
        self._dispatch("GUILD_MEMBER_ADD", {**member.to_payload(), "guild_id": str(guild.id)})
        return member

    def open_dm(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user``, created on first use (as ``POST /users/@me/channels``)."""
        cid = self._dm_channels.get(user.id)
        if cid is None:
            channel = FakeChannel(id=make_snowflake(), name=f"dm-{user.name}", type=DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self._dm_channels[user.id] = cid = channel.id
        return self.channels[cid]

    def post_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A user writes a plain message in ``channel`` (dispatches MESSAGE_CREATE)."""
        return self._create_message(channel, user, {"content": content})

    # ------------------------------------------------------------------ queries for tests

    def message(self, message_id: int) -> FakeMessage:
        """The stored message with that id (``KeyError`` if none)."""
        return self._messages[message_id]

    def messages(self, channel: FakeChannel | int, *, visible_to: FakeUser | int | None = None,
                 include_deleted: bool = False) -> list[FakeMessage]:
        """Messages of a channel, oldest first.

        With ``visible_to`` the list is what that user sees: public messages plus the ephemeral
        ones addressed to them. Without it, public messages only.
        """
        cid = channel if isinstance(channel, int) else channel.id
        uid = visible_to.id if isinstance(visible_to, FakeUser) else visible_to
        out = []
        for mid in self._channel_messages.get(cid, []):
            msg = self._messages[mid]
            if msg.deleted and not include_deleted:
                continue
            if msg.visible_to is not None and msg.visible_to != uid:
                continue
            out.append(msg)
        return out

    def last_message(self, channel: FakeChannel | int, *, visible_to: FakeUser | int | None = None) -> FakeMessage:
        """The newest message ``visible_to`` sees in the channel (``LookupError`` if none)."""
        msgs = self.messages(channel, visible_to=visible_to)
        if not msgs:
            raise LookupError("no messages in that channel")
        return msgs[-1]

    def threads(self, channel: FakeChannel | int) -> list[FakeChannel]:
        """Threads created under a channel, oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == cid]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the bot's DM channel with ``user`` (empty if none was opened)."""
        cid = self._dm_channels.get(user.id)
        return self.messages(cid, visible_to=user) if cid else []

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The synced command payloads: global ones, or those of ``guild``."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def edits(self, channel: FakeChannel | int | None = None, *, via: str | None = None,
              message: FakeMessage | int | None = None) -> list[EditRecord]:
        """Recorded message edits, optionally of one channel, one door (``"channel"``/``"interaction"``)
        and one message.
        """
        cid = channel if isinstance(channel, int) or channel is None else channel.id
        mid = message if isinstance(message, int) or message is None else message.id
        return [e for e in self.edit_log if (cid is None or e.channel_id == cid) and (via is None or e.via == via)
                and (mid is None or e.message_id == mid)]

    def max_edits_in_window(self, channel: FakeChannel | int, window_s: float = 5.0, *,
                            via: str | None = "channel") -> int:
        """The largest number of edits in the channel within any ``window_s`` span (for rate asserts)."""
        times = [e.at_ms for e in self.edits(channel, via=via)]
        best, lo = 0, 0
        for hi in range(len(times)):
            while times[hi] - times[lo] >= window_s * 1000:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    def check_clean(self, *allowed: str) -> None:
        """Raises ``AssertionError`` listing recorded ``errors`` that match none of the ``allowed`` regexes.

        For fixture teardown: a test that expects, say, a refused thread passes ``r"50013"``.
        """
        unexpected = [e for e in self.errors if not any(re.search(a, e) for a in allowed)]
        if unexpected:
            raise AssertionError("the sandbox recorded errors:\n" + "\n".join(unexpected))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, *, what: str = "") -> Any:
        """|coro| Waits until ``predicate()`` is truthy and returns its value.

        Re-checks after every change the fake sees (and every 20 ms). Raises ``TimeoutError``
        naming ``what`` (or the predicate) after ``timeout`` × :data:`PATIENCE` seconds: a test names
        how long its event takes on a quiet machine, and a loaded one gets more time, never a failure.
        """
        loop = asyncio.get_running_loop()
        timeout *= PATIENCE
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what or predicate}")
            self._change.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(left, 0.02))

    async def wait_for_ready(self, timeout: float = 10.0) -> None:
        """|coro| Waits until a bot has identified and been sent READY and every GUILD_CREATE.

        discord.py fires ``on_ready`` after its ``guild_ready_timeout`` more (``sandbox.running_bot``
        waits for that too).
        """
        await asyncio.wait_for(self._ready.wait(), timeout * PATIENCE)

    @property
    def connected(self) -> bool:
        """True while every shard's session has a gateway connection attached."""
        return bool(self._sessions) and all(s.conn is not None for s in self._sessions.values())

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that serves a guild (DMs: shard 0), by Discord's formula."""
        return (guild_id >> 22) % self.shard_count if guild_id else 0
