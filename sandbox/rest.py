"""The REST v10 routes: users, application commands, guilds, channels, messages, threads, callbacks."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from aiohttp import web

from .limits import is_empty_message, validate_message, validate_modal
from .models import (
    DM,
    EPHEMERAL,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    RequestRecord,
    make_snowflake,
    pinged_by,
    walk_components,
)
from .wire import (
    API_PREFIX,
    JSON,
    DiscordHTTPError,
    _Interaction,
    _json_response,
    _not_found,
    invalid_form_body,
    log,
)

NONCE_WINDOW_MS = 5 * 60_000
"""How long Discord keeps a message's ``nonce`` for ``enforce_nonce`` (it says "a few minutes")."""


class RestMixin:
    """The REST side of the loopback Discord."""

    # ------------------------------------------------------------------ internals: REST

    @web.middleware
    async def _middleware(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        path = request.path[len(API_PREFIX):]
        method = request.method
        for slow in self._slow:
            if slow.matches(method, path):
                if slow.remaining is not None:
                    slow.remaining -= 1
                await asyncio.sleep(slow.seconds)
        for fault in self._faults:
            if fault.matches(method, path):
                assert fault.remaining is not None
                fault.remaining -= 1
                self._record(method, path, fault.status)
                if fault.status != 429:
                    self._changed()
                    return _json_response({"message": fault.message, "code": fault.code}, fault.status)
                return self._too_many(fault.retry_after, fault.is_global)
        verdict = self.rate_limits.check(method, path, self.now_ms()) if self.rate_limits is not None else None
        if verdict is not None and not verdict.allowed:
            self._record(method, path, 429)
            limited = self._too_many(verdict.retry_after, verdict.is_global)
            limited.headers.update(verdict.headers)
            return limited
        try:
            response = await handler(request)
            if verdict is not None:
                response.headers.update(verdict.headers)
            for held in self._held:
                if held.matches(method, path):  # done, but its answer is late (a bot may stop meanwhile)
                    if held.remaining is not None:
                        held.remaining -= 1
                    await asyncio.sleep(held.seconds)
        except DiscordHTTPError as exc:
            self._record(method, path, exc.status)
            if exc.status != 429 or exc.body.get("code"):
                self.errors.append(f"{exc.status} {method} {path}: {json.dumps(exc.body)}")
                log.info("sandbox answered %s %s with %s: %s", method, path, exc.status, exc.body)
            self._changed()
            return _json_response(exc.body, exc.status, exc.headers)
        self._record(method, path, response.status)
        self._changed()
        return response

    def _record(self, method: str, path: str, status: int) -> None:
        self.requests.append(RequestRecord(method, path, status, self.now_ms()))

    @staticmethod
    def _too_many(retry_after: float, is_global: bool = False) -> web.Response:
        headers = {
            "Retry-After": f"{retry_after:.3f}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": "sandbox-injected",
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return _json_response(body, 429, headers)

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    async def _body(self, request: web.Request) -> Any:
        """The JSON body; for multipart uploads the ``payload_json`` part, with the files under ``_files``."""
        if not request.can_read_body:
            return {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            body = json.loads(raw) if isinstance(raw, str) else {}
            files = {}
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = (value.filename, value.content_type, value.file.read())
            if isinstance(body, dict) and files:
                body["_files"] = files
            return body
        text = await request.text()
        return json.loads(text) if text else {}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX):]
        method = request.method
        if self._route_table is None:
            self._route_table = self._routes()
        for route_method, pattern, handler, auth in self._route_table:
            if route_method != method:
                continue
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if auth:
                self._check_auth(request)
            body = await self._body(request) if method in ("POST", "PUT", "PATCH") else {}
            result = await handler(request, body, *match.groups())
            if isinstance(result, web.StreamResponse):
                return result
            if result is None:
                return web.Response(status=204)
            return _json_response(result)
        raise DiscordHTTPError(404, 0, f"404: Not Found (the sandbox has no route {method} {path})")

    def _routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]]:
        r = re.compile
        return [
            ("GET", r(r"/users/@me"), self._get_me, True),
            ("GET", r(r"/users/(\d+)"), self._get_user, True),
            ("GET", r(r"/oauth2/applications/@me"), self._get_application, True),
            ("GET", r(r"/applications/@me"), self._get_application, True),
            ("GET", r(r"/gateway(?:/bot)?"), self._get_gateway, False),
            ("PUT", r(r"/applications/(\d+)/commands"), self._put_commands, True),
            ("GET", r(r"/applications/(\d+)/commands"), self._get_commands, True),
            ("PUT", r(r"/applications/(\d+)/guilds/(\d+)/commands"), self._put_commands, True),
            ("GET", r(r"/applications/(\d+)/guilds/(\d+)/commands"), self._get_commands, True),
            ("GET", r(r"/channels/(\d+)"), self._get_channel, True),
            ("PATCH", r(r"/channels/(\d+)"), self._patch_channel, True),
            ("DELETE", r(r"/channels/(\d+)"), self._delete_channel, True),
            ("GET", r(r"/guilds/(\d+)"), self._get_guild, True),
            ("GET", r(r"/guilds/(\d+)/channels"), self._get_guild_channels, True),
            ("GET", r(r"/guilds/(\d+)/members/(\d+)"), self._get_member, True),
            ("GET", r(r"/guilds/(\d+)/threads/active"), self._get_active_threads, True),
            ("POST", r(r"/channels/(\d+)/messages"), self._post_message, True),
            ("GET", r(r"/channels/(\d+)/messages"), self._get_history, True),
            ("GET", r(r"/channels/(\d+)/messages/(\d+)"), self._get_message, True),
            ("PATCH", r(r"/channels/(\d+)/messages/(\d+)"), self._patch_message, True),
            ("DELETE", r(r"/channels/(\d+)/messages/(\d+)"), self._delete_message, True),
            ("POST", r(r"/channels/(\d+)/typing"), self._typing, True),
            ("POST", r(r"/channels/(\d+)/messages/(\d+)/threads"), self._thread_from_message, True),
            ("POST", r(r"/channels/(\d+)/threads"), self._thread_standalone, True),
            ("PUT", r(r"/channels/(\d+)/thread-members/(@me|\d+)"), self._add_thread_member, True),
            ("DELETE", r(r"/channels/(\d+)/thread-members/(@me|\d+)"), self._remove_thread_member, True),
            ("POST", r(r"/users/@me/channels"), self._open_dm, True),
            ("POST", r(r"/interactions/(\d+)/([^/]+)/callback"), self._callback, False),
            ("POST", r(r"/webhooks/(\d+)/([^/]+)"), self._followup, False),
            ("GET", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_get, False),
            ("PATCH", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_patch, False),
            ("DELETE", r(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"), self._webhook_delete, False),
        ]

    # --- users, application, gateway, commands

    async def _get_me(self, request: web.Request, body: JSON) -> JSON:
        return {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False, "email": None,
                "locale": "en-US"}

    async def _get_user(self, request: web.Request, body: JSON, uid: str) -> JSON:
        user = self.users.get(int(uid))
        if user is None:
            raise _not_found("User", 10013)
        return user.to_payload()

    async def _get_application(self, request: web.Request, body: JSON) -> JSON:
        owner = FakeUser(id=self.application_id - 1, name="sandbox-owner")
        return {
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None,
            "description": "Parlor in the sandbox", "rpc_origins": [], "bot_public": True,
            "bot_require_code_grant": False, "owner": owner.to_payload(), "summary": "",
            "verify_key": "0" * 64, "team": None, "flags": 0, "tags": [], "install_params": None,
            "custom_install_url": None, "terms_of_service_url": None, "privacy_policy_url": None,
            "interactions_endpoint_url": None, "redirect_uris": [], "approximate_guild_count": len(self.guilds),
            "bot": self.bot_user.to_payload(), "integration_types_config": {},
        }

    async def _get_gateway(self, request: web.Request, body: JSON) -> JSON:
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}

    async def _put_commands(self, request: web.Request, body: Any, app_id: str, guild_id: str | None = None) -> Any:
        if int(app_id) != self.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if not isinstance(body, list):
            raise invalid_form_body({"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "Only iterables may be used"
                                                  " in a ListType"}]})
        errors: JSON = {}
        for i, cmd in enumerate(body):
            name = cmd.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                errors.setdefault(str(i), {})["name"] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME",
                                                                     "message": "Command name is invalid"}]}
            if cmd.get("type", 1) == 1 and not 1 <= len(cmd.get("description", "")) <= 100:
                errors.setdefault(str(i), {})["description"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                                            "message": "Must be between 1 and 100 in"
                                                                                       " length."}]}
            if len(cmd.get("options") or []) > 25:
                errors.setdefault(str(i), {})["options"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                                        "message": "Must be 25 or fewer in length."}]}
        if errors:
            raise invalid_form_body(errors)
        old = self.global_commands if guild_id is None else self.guild_commands.get(int(guild_id), [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored = []
        for cmd in body:
            full = {
                "type": 1, "description": "", "options": [], "default_member_permissions": None,
                "dm_permission": True, "nsfw": False, **cmd,
                "id": old_ids.get((cmd["name"], cmd.get("type", 1))) or str(make_snowflake()),
                "application_id": str(self.application_id), "version": str(make_snowflake()),
            }
            if guild_id is not None:
                full["guild_id"] = guild_id
            stored.append(full)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[int(guild_id)] = stored
        return stored

    async def _get_commands(self, request: web.Request, body: JSON, app_id: str, guild_id: str | None = None) -> Any:
        return self.global_commands if guild_id is None else self.guild_commands.get(int(guild_id), [])

    # --- guilds and channels

    def _channel(self, cid: str | int) -> FakeChannel:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise _not_found("Channel", 10003)
        return channel

    async def _get_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        return self._channel_payload(self._channel(cid))

    async def _patch_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        if "name" in body:
            channel.name = body["name"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        payload = self._channel_payload(channel)
        self._dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
        return payload

    async def _delete_channel(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        payload = self._channel_payload(channel)
        del self.channels[channel.id]
        if channel.is_thread:
            self._dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                             "parent_id": str(channel.parent_id), "type": channel.type})
        else:
            self._dispatch("CHANNEL_DELETE", payload)
        return payload

    def _guild(self, gid: str) -> FakeGuild:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise _not_found("Guild", 10004)
        return guild

    async def _get_guild(self, request: web.Request, body: JSON, gid: str) -> JSON:
        payload = self._guild_payload(self._guild(gid))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return payload

    async def _get_guild_channels(self, request: web.Request, body: JSON, gid: str) -> list[JSON]:
        return [self.channels[c].to_payload() for c in self._guild(gid).channel_ids]

    async def _get_member(self, request: web.Request, body: JSON, gid: str, uid: str) -> JSON:
        member = self._guild(gid).members.get(int(uid))
        if member is None:
            raise _not_found("Member", 10007)
        return member.to_payload()

    async def _get_active_threads(self, request: web.Request, body: JSON, gid: str) -> JSON:
        guild = self._guild(gid)
        threads = [c.to_payload() for c in self.channels.values()
                   if c.is_thread and c.guild_id == guild.id and not c.archived]
        return {"threads": threads, "members": []}

    async def _typing(self, request: web.Request, body: JSON, cid: str) -> None:
        self._channel(cid)
        return None

    # --- messages

    def _store(self, msg: FakeMessage) -> FakeMessage:
        self._messages[msg.id] = msg
        self._channel_messages.setdefault(msg.channel_id, []).append(msg.id)
        return msg

    @staticmethod
    def _assign_component_ids(components: list[JSON]) -> list[JSON]:
        """Numbers components 1, 2, … depth first where the bot gave no ``id``, as Discord does."""
        comps = json.loads(json.dumps(components or []))
        used = {c["id"] for c in walk_components(comps) if isinstance(c.get("id"), int)}
        n = 0
        for comp in walk_components(comps):
            if not isinstance(comp.get("id"), int):
                n += 1
                while n in used:
                    n += 1
                comp["id"] = n
        return comps

    @staticmethod
    def _uploaded(body: JSON) -> set[str]:
        """File names of the files a multipart body uploads."""
        return {filename for filename, _, _ in (body.get("_files") or {}).values()}

    def _check_message_body(self, body: JSON, *, partial: bool = False, flags: int = 0,
                            files: set[str] | None = None) -> None:
        files = self._uploaded(body) | (files or set())
        errors = validate_message(body, partial=partial, flags=flags, files=files)
        if errors:
            raise invalid_form_body(errors)
        if not partial and is_empty_message(body):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")

    def _create_message(self, channel: FakeChannel, author: FakeUser, body: JSON, *, visible_to: int | None = None,
                        interaction: _Interaction | None = None, extra_flags: int = 0,
                        validate: bool = True) -> FakeMessage:
        if validate:
            self._check_message_body(body)
        flags = int(body.get("flags") or 0) | extra_flags
        embeds = list(body.get("embeds") or [])
        if body.get("embed"):
            embeds.append(body["embed"])
        msg = FakeMessage(
            id=make_snowflake(self.now_ms()), channel_id=channel.id, guild_id=channel.guild_id, author=author,
            content=body.get("content") or "", embeds=embeds,
            components=self._assign_component_ids(body.get("components") or []), flags=flags,
            visible_to=visible_to if flags & EPHEMERAL else None, created_ms=self.now_ms(),
        )
        self._attach(msg, body)
        if "content" in body or "allowed_mentions" in body:
            self._record_mentions(msg, body)
            msg.pings = pinged_by(msg.content, msg.allowed_mentions)
        if interaction is not None:
            msg.interaction_id = interaction.result.id
            msg.interaction_user_id = interaction.result.user.id
            msg.interaction_type = interaction.result.type
            msg.webhook_id = self.application_id
        self._store(msg)
        if not msg.ephemeral:
            self._dispatch("MESSAGE_CREATE", self._message_event(msg))
        self._changed()
        return msg

    def _attach(self, msg: FakeMessage, body: JSON) -> None:
        """Stores the files of a multipart upload on ``msg`` as Discord attachments."""
        files = body.get("_files") or {}
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        for field_name, (filename, content_type, data) in files.items():
            index = re.search(r"\d+", field_name)
            meta = described.get(index.group() if index else "", {})
            aid = make_snowflake(self.now_ms())
            url = f"http://{self.host}:{self._port}/attachments/{msg.channel_id}/{aid}/{filename}"
            msg.attachments.append({"id": str(aid), "filename": filename, "size": len(data), "url": url,
                                    "proxy_url": url, "content_type": content_type,
                                    "description": meta.get("description")})
            msg.files[filename] = data

    def _message_event(self, msg: FakeMessage) -> JSON:
        payload = msg.to_payload()
        guild = self.guilds.get(msg.guild_id or 0)
        if guild is not None and msg.author.id in guild.members:
            member = guild.members[msg.author.id].to_payload()
            member.pop("user")
            payload["member"] = member
        return payload

    @staticmethod
    def _record_mentions(msg: FakeMessage, body: JSON) -> None:
        """Keeps the ``allowed_mentions`` field of a request that creates *msg* or sets its content."""
        allowed = body.get("allowed_mentions")
        msg.allowed_mentions = dict(allowed) if isinstance(allowed, dict) else None
        msg.allowed_mentions_sent.append(msg.allowed_mentions)

    def _apply_edit(self, msg: FakeMessage, body: JSON, via: str) -> FakeMessage:
        kept = {a["filename"] for a in msg.attachments}
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = {a["filename"] for a in msg.attachments if a["id"] in keep}
        self._check_message_body(body, partial=True, flags=msg.flags & IS_COMPONENTS_V2, files=kept)
        self._check_v2_edit(msg, body)
        if "content" in body:
            msg.content = body["content"] or ""
            self._record_mentions(msg, body)
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = self._assign_component_ids(body["components"] or [])
        if "attachments" in body or "_files" in body:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            msg.attachments = [a for a in msg.attachments if a["id"] in keep]
            self._attach(msg, body)
        if body.get("flags") is not None:  # ephemerality is fixed when a message is created
            msg.flags = (msg.flags & (EPHEMERAL | HAS_THREAD)) | (int(body["flags"]) & ~EPHEMERAL)
        msg.flags &= ~LOADING
        msg.edited_ms = self.now_ms()
        self.edit_log.append(EditRecord(msg.edited_ms, msg.channel_id, msg.id, via))
        if not msg.ephemeral:
            self._dispatch("MESSAGE_UPDATE", self._message_event(msg))
        self._changed()
        return msg

    @staticmethod
    def _check_v2_edit(msg: FakeMessage, body: JSON) -> None:
        """Discord's rules for the IS_COMPONENTS_V2 flag (1 << 15) on an edit: it cannot be removed,
        and a message it is added to must lose its content and embeds in the same edit (else 400, 50035).
        """
        if body.get("flags") is None:
            return
        new_flags = int(body["flags"])
        if msg.flags & IS_COMPONENTS_V2 and not new_flags & IS_COMPONENTS_V2:
            raise invalid_form_body({"flags": {"_errors": [{"code": "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                                                            "message": "The IS_COMPONENTS_V2 flag cannot be "
                                                                       "removed"}]}})
        if new_flags & IS_COMPONENTS_V2 and not msg.flags & IS_COMPONENTS_V2:
            content = body["content"] if "content" in body else msg.content
            embeds = body["embeds"] if "embeds" in body else msg.embeds
            if content or embeds:
                raise invalid_form_body({"content": {"_errors": [
                    {"code": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                     "message": "The 'content' and 'embeds' fields cannot be used with components v2"}]}})

    def post_bot_message(self, channel: FakeChannel, content: str, *,
                         buttons: Sequence[tuple[str, str]] = ()) -> FakeMessage:
        """A message from the bot with buttons ``(label, custom_id)`` the bot may not know, e.g. a board
        of an older version still in a channel's history (for tests of stale or garbled custom ids).
        """
        row = {"type": 1, "components": [{"type": 2, "style": 2, "label": label, "custom_id": cid}
                                          for label, cid in buttons]}
        body = {"content": content, "components": [row] if buttons else []}
        return self._create_message(channel, self.bot_user, body)

    def delete_message(self, message: FakeMessage | int) -> None:
        """Deletes a message as a user or moderator would (dispatches MESSAGE_DELETE); later edits of
        it answer 404 Unknown Message (10008), as on Discord.
        """
        self._delete(self.message(message if isinstance(message, int) else message.id))

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch("MESSAGE_DELETE", data)
        self._changed()

    def _channel_message(self, cid: str, mid: str) -> FakeMessage:
        channel = self._channel(cid)
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise _not_found("Message", 10008)
        return msg

    async def _post_message(self, request: web.Request, body: JSON, cid: str) -> JSON:
        channel = self._channel(cid)
        if channel.type == DM and channel.recipient_id in self.closed_dms:
            raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived and channel.locked:
            raise DiscordHTTPError(400, 50083, "Thread is archived")
        if body.get("flags", 0) & EPHEMERAL:
            body = {**body, "flags": body["flags"] & ~EPHEMERAL}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: the same nonce from the same author within a few minutes returns the message
            # that nonce already created, and creates none.
            since = self.now_ms() - NONCE_WINDOW_MS
            for earlier in reversed(self.messages(channel)):
                if (earlier.nonce == str(nonce) and earlier.author.id == self.bot_user.id
                        and earlier.created_ms >= since):
                    return earlier.to_payload()
        msg = self._create_message(channel, self.bot_user, body)
        if nonce is not None:
            msg.nonce = str(nonce)
        return msg.to_payload()

    async def _get_history(self, request: web.Request, body: JSON, cid: str) -> list[JSON]:
        channel = self._channel(cid)
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = [m for m in self.messages(channel) if not m.ephemeral]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])][:limit]
        if "around" in request.query:
            around = int(request.query["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + limit % 2):]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        return [m.to_payload() for m in reversed(msgs[-limit:])]

    async def _get_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        return self._channel_message(cid, mid).to_payload()

    async def _patch_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        msg = self._channel_message(cid, mid)
        if msg.author.id != self.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        if self.edit_rate_limit is not None:
            limit, window = self.edit_rate_limit
            now = self.now_ms()
            recent = [e.at_ms for e in self.edits(msg.channel_id, via="channel") if now - e.at_ms < window * 1000]
            if len(recent) >= limit:
                retry = max(0.001, (recent[-limit] + window * 1000 - now) / 1000)
                return self._too_many(round(retry, 3))
        self._count_old_edit(msg)
        return self._apply_edit(msg, body, "channel").to_payload()

    def _count_old_edit(self, msg: FakeMessage) -> None:
        """Count an edit of *msg* against the cap on edits of messages older than an hour
        (:meth:`cap_old_message_edits`); beyond it, Discord's 30046.
        """
        if self.old_message_edit_cap is not None and self.now_ms() - msg.created_ms > 3600 * 1000:
            used = self._old_edits.get(msg.channel_id, 0)
            if used >= self.old_message_edit_cap:
                raise DiscordHTTPError(429, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                       "Try again later.", extra={"retry_after": 60.0, "global": False})
            self._old_edits[msg.channel_id] = used + 1

    async def _delete_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> None:
        self._delete(self._channel_message(cid, mid))
        return None

    # --- threads

    def _new_thread(self, parent: FakeChannel, name: str, ttype: int, thread_id: int | None = None) -> FakeChannel:
        if parent.is_thread or parent.type == DM:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        if not parent.allow_threads:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        if not 1 <= len(name or "") <= 100:
            raise invalid_form_body({"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                          "message": "Must be between 1 and 100 in length."}]}})
        thread = FakeChannel(id=thread_id or make_snowflake(self.now_ms()), name=name, type=ttype,
                             guild_id=parent.guild_id, parent_id=parent.id, owner_id=self.bot_user.id,
                             thread_member_ids={self.bot_user.id}, created_ms=self.now_ms())
        self.channels[thread.id] = thread
        self._dispatch("THREAD_CREATE", {**thread.to_payload(), "newly_created": True})
        return thread

    async def _thread_from_message(self, request: web.Request, body: JSON, cid: str, mid: str) -> JSON:
        parent = self._channel(cid)
        msg = self._channel_message(cid, mid)
        if msg.thread_id is not None:
            raise DiscordHTTPError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(parent, body.get("name", ""), PUBLIC_THREAD, thread_id=msg.id)
        msg.thread_id = thread.id
        msg.flags |= HAS_THREAD
        return thread.to_payload()

    async def _thread_standalone(self, request: web.Request, body: JSON, cid: str) -> JSON:
        parent = self._channel(cid)
        ttype = int(body.get("type") or PRIVATE_THREAD)
        return self._new_thread(parent, body.get("name", ""), ttype).to_payload()

    def _member_id(self, uid: str) -> int:
        return self.bot_user.id if uid == "@me" else int(uid)

    async def _add_thread_member(self, request: web.Request, body: JSON, cid: str, uid: str) -> None:
        thread = self._channel(cid)
        if not thread.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        thread.thread_member_ids.add(self._member_id(uid))
        self._changed()
        return None

    async def _remove_thread_member(self, request: web.Request, body: JSON, cid: str, uid: str) -> None:
        thread = self._channel(cid)
        thread.thread_member_ids.discard(self._member_id(uid))
        self._changed()
        return None

    async def _open_dm(self, request: web.Request, body: JSON) -> JSON:
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise _not_found("User", 10013)
        return self._channel_payload(self.open_dm(user))

    # --- interaction callbacks and webhooks

    def _interaction_for(self, iid: str, token: str) -> _Interaction:
        rec = self._interactions.get(int(iid))
        if rec is None or rec.result.token != token:
            raise _not_found("interaction", 10062)
        return rec

    def _token_rec(self, app_id: str, token: str) -> _Interaction:
        rec = self._by_token.get(token)
        if rec is None or int(app_id) != self.application_id:
            raise _not_found("Webhook", 10015)
        if self.now_ms() - rec.sent_ms > self.token_lifetime_s * 1000:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        return rec

    async def _callback(self, request: web.Request, body: JSON, iid: str, token: str) -> Any:
        rec = self._interaction_for(iid, token)
        result = rec.result
        loop = asyncio.get_running_loop()
        late = loop.time() - rec.sent_loop_time
        if result.response_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if late > self.interaction_deadline_s or self.now_ms() - rec.sent_ms > self.token_lifetime_s * 1000:
            note = (f"late first response to interaction {result.id}: {late:.3f} s after it was sent "
                    f"(deadline {self.interaction_deadline_s} s)")
            result.errors.append(note)
            result.failed = True
            self.errors.append(note)
            raise _not_found("interaction", 10062)
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        if body.get("_files"):  # a multipart answer: its files become the message's attachments
            data = {**data, "_files": body["_files"]}
        channel = self.channels[result.channel_id]
        source = self._messages.get(result.source_message_id or 0)
        message: FakeMessage | None = None
        if ctype == 4:
            message = self._create_message(channel, self.bot_user, data, visible_to=result.user.id, interaction=rec)
            rec.original_message_id = message.id
        elif ctype == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            message = self._create_message(channel, self.bot_user, {}, visible_to=result.user.id, interaction=rec,
                                           extra_flags=flags | LOADING, validate=False)
            rec.original_message_id = message.id
        elif ctype in (6, 7):
            if source is None:
                raise DiscordHTTPError(400, 50035, "Invalid Form Body", {
                    "type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                          "message": "Interaction response type is invalid for this interaction"}]}})
            rec.original_message_id = source.id
            message = source
            if ctype == 7:
                message = self._apply_edit(source, data, "interaction")
        elif ctype == 8:
            if result.type != 4:
                raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                               "message": "Only autocomplete takes choices"}]}})
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise invalid_form_body({"data": {"choices": {"_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}})
            result.choices = choices
        elif ctype == 9:
            if result.type == 5:
                raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                               "message": "A modal cannot answer a modal submit"}]}})
            errors = validate_modal(data)
            if errors:
                raise invalid_form_body(errors)
            result.modal = data
        else:
            raise invalid_form_body({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                           "message": f"Unsupported response type {ctype}"}]}})
        if rec.deadline_handle is not None:
            rec.deadline_handle.cancel()
        result.response_type = ctype
        result.response_at_ms = self.now_ms()
        result.message = message
        result._answered.set()
        self._changed()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        info: JSON = {"id": str(result.id), "type": result.type}
        answer: JSON = {"interaction": info}
        if message is not None:
            info.update(response_message_id=str(message.id), response_message_loading=message.loading,
                        response_message_ephemeral=message.ephemeral)
            if ctype in (4, 5, 7):
                answer["resource"] = {"type": ctype, "message": message.to_payload()}
        return answer

    async def _followup(self, request: web.Request, body: JSON, app_id: str, token: str) -> Any:
        rec = self._token_rec(app_id, token)
        result = rec.result
        if result.response_type is None:
            raise _not_found("Webhook", 10015)
        original = self._messages.get(rec.original_message_id or 0)
        if result.response_type == 5 and original is not None and original.loading and not rec.followup_ids:
            self._check_message_body(body)
            msg = self._apply_edit(original, body, "interaction")
        else:
            channel = self.channels[result.channel_id]
            msg = self._create_message(channel, self.bot_user, body, visible_to=result.user.id, interaction=rec)
        rec.followup_ids.append(msg.id)
        result.followups.append(msg)
        self._changed()
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.to_payload()
        return None

    def _webhook_message(self, rec: _Interaction, which: str) -> FakeMessage:
        mid = rec.original_message_id if which == "@original" else int(which)
        if mid is None or (which != "@original" and mid not in rec.followup_ids and mid != rec.original_message_id):
            raise _not_found("Message", 10008)
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise _not_found("Message", 10008)
        return msg

    async def _webhook_get(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> JSON:
        return self._webhook_message(self._token_rec(app_id, token), which).to_payload()

    async def _webhook_patch(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> JSON:
        rec = self._token_rec(app_id, token)
        msg = self._webhook_message(rec, which)
        if not msg.ephemeral:  # a public message (a table's, through a click's token) counts like any edit
            self._count_old_edit(msg)
        msg = self._apply_edit(msg, body, "interaction")
        if rec.result.message is None and which == "@original":
            rec.result.message = msg
        return msg.to_payload()

    async def _webhook_delete(self, request: web.Request, body: JSON, app_id: str, token: str, which: str) -> None:
        rec = self._token_rec(app_id, token)
        self._delete(self._webhook_message(rec, which))
        return None
