"""The gateway websocket: HELLO, heartbeats, IDENTIFY, READY, RESUME, shards and dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

from aiohttp import WSMsgType, web

from .models import (
    FakeChannel,
    FakeGuild,
)
from .wire import (
    BOT_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    JSON,
    GatewayFrame,
    _Connection,
    _Session,
)

GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


def _intended(event: str, data: Any, intents: int) -> bool:
    """Whether Discord sends *event* to a session identified with *intents*: a message event only
    with the guild messages intent (in a guild) or the direct messages intent (in a DM); others always.
    """
    if not event.startswith("MESSAGE_") or event.startswith("MESSAGE_REACTION"):
        return True
    wanted = GUILD_MESSAGES if isinstance(data, dict) and data.get("guild_id") else DIRECT_MESSAGES
    return bool(intents & wanted)


class GatewayMixin:
    """The gateway side of the loopback Discord."""

    # ------------------------------------------------------------------ internals: gateway

    def _changed(self) -> None:
        self._change.set()
        for listener in self.change_listeners:
            listener()

    def _deny_of(self, channel: FakeChannel) -> int:
        """What a channel (or a thread's parent) denies @everyone."""
        parent = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        return parent.everyone_deny if parent else 0

    def _channel_payload(self, channel: FakeChannel) -> JSON:
        recipient = self.users.get(channel.recipient_id or 0)
        return channel.to_payload(recipient)

    def _guild_payload(self, guild: FakeGuild) -> JSON:
        members = [m.to_payload() for m in guild.members.values()]
        channels = [self.channels[c].to_payload() for c in guild.channel_ids]
        threads = [c.to_payload() for c in self.channels.values()
                   if c.is_thread and c.guild_id == guild.id and not c.archived]
        everyone = {"id": str(guild.id), "name": "@everyone", "permissions": str(DEFAULT_PERMISSIONS), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                    "unicode_emoji": None}
        bot_role = {**everyone, "id": str(guild.bot_role_id), "name": self.bot_user.name, "position": 1,
                    "permissions": str(BOT_PERMISSIONS), "managed": True, "tags": {"bot_id": str(self.bot_user.id)}}
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [everyone, bot_role, *(self._role_payload(guild, r) for r in guild.roles)],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "joined_at": "2024-01-01T00:00:00+00:00", "large": False,
            "unavailable": False, "member_count": len(members), "members": members, "channels": channels,
            "threads": threads, "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "lazy": True,
        }

    def _log_frame(self, conn: int, direction: str, frame: JSON) -> None:
        if frame.get("op") in (1, 11):
            return
        self.gateway_log.append(GatewayFrame(conn, direction, frame.get("op", -1), frame.get("t"), frame.get("s")))

    def _dispatch(self, event: str, data: Any, *, session: _Session | None = None) -> None:
        """Sends a DISPATCH (op 0), buffering it for RESUME replay.

        It goes to ``session`` if given, else to the session of the shard serving the guild the
        event is about (``guild_id``, or ``id`` for GUILD_CREATE); nowhere if no bot serves it.
        """
        if session is None:
            raw = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
            session = self._sessions.get(self.shard_of(int(raw) if raw else None))
        if session is None or not _intended(event, data, session.intents):
            return
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        text = json.dumps(frame)
        session.buffer.append((session.seq, text))
        if session.conn is not None:
            self._log_frame(session.conn.number, "out", frame)
            session.conn.queue.put_nowait(text)
        self._changed()

    def _send_op(self, session: _Session, op: int, data: Any) -> None:
        assert session.conn is not None
        frame = {"op": op, "d": data, "s": None, "t": None}
        self._log_frame(session.conn.number, "out", frame)
        session.conn.queue.put_nowait(json.dumps(frame))

    async def _writer(self, conn: _Connection) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.CancelledError):
            while not conn.ws.closed:
                text = await conn.queue.get()
                await conn.ws.send_str(text)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connection_count += 1
        conn = _Connection(ws=ws, number=self.connection_count)
        self._sockets.add(ws)
        writer = asyncio.create_task(self._writer(conn))
        self._writers.add(writer)
        hello = {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
        self._log_frame(conn.number, "out", hello)
        conn.queue.put_nowait(json.dumps(hello))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self._log_frame(conn.number, "in", frame)
                await self._on_frame(conn, frame)
        finally:
            self._sockets.discard(ws)
            for session in self._sessions.values():
                if session.conn is conn:
                    session.conn = None
            await asyncio.sleep(0)
            writer.cancel()
            self._writers.discard(writer)
            self._changed()
        return ws

    async def _on_frame(self, conn: _Connection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            conn.queue.put_nowait(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
        elif op == 2:
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            self.identify_count += 1
            shard, count = data.get("shard") or (0, 1)
            if count != self.shard_count:
                self._sessions.clear()
                self.shard_count = count
            self._sessions[shard] = session = _Session(id=secrets.token_hex(16), shard=shard,
                                                       intents=int(data.get("intents", -1)))
            session.conn = conn
            self._ready.clear()
            mine = [g for g in self.guilds if self.shard_of(g) == shard]
            ready = {
                "v": 10, "user": self.bot_user.to_payload(), "session_id": session.id,
                "resume_gateway_url": self.gateway_url, "session_type": "normal",
                "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [], "relationships": [], "presences": [], "user_settings": {},
                "geo_ordered_rtc_regions": [], "guild_join_requests": [],
            }
            if data.get("shard"):
                ready["shard"] = data["shard"]
            self._dispatch("READY", ready, session=session)
            for gid in mine:
                self._dispatch("GUILD_CREATE", self._guild_payload(self.guilds[gid]), session=session)
            if all(i in self._sessions for i in range(count)):
                self._ready.set()
        elif op == 6:
            await self._resume_gate.wait()
            session = next((x for x in self._sessions.values() if x.id == data.get("session_id")), None)
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            if session is None:
                conn.queue.put_nowait(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                return
            self.resume_count += 1
            last = int(data.get("seq") or 0)
            if session.conn is not None and session.conn is not conn:
                old = session.conn
                session.conn = None
                await old.ws.close(code=4000)
            for seq, text in session.buffer:
                if seq > last:
                    self.replayed_count += 1
                    self._log_frame(conn.number, "out", json.loads(text))
                    conn.queue.put_nowait(text)
            session.conn = conn
            self._dispatch("RESUMED", {}, session=session)
        elif op == 8:
            gid = int(data.get("guild_id", 0)) if isinstance(data.get("guild_id"), str | int) else 0
            guild = self.guilds.get(gid)
            if guild is not None:
                self._dispatch("GUILD_MEMBERS_CHUNK", {  # routed to the guild's shard by guild_id
                    "guild_id": str(gid), "members": [m.to_payload() for m in guild.members.values()],
                    "chunk_index": 0, "chunk_count": 1, "nonce": data.get("nonce"),
                })
