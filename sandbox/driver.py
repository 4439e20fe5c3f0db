"""The users' side: slash commands, clicks, selects and modals sent as interactions, and their results."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from .models import (
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionResult,
    make_snowflake,
    walk_components,
)
from .wire import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    JSON,
    _Interaction,
)


class DriverMixin:
    """Users acting: interactions sent to the bot, and how they were answered."""

    # ------------------------------------------------------------------ interactions (the users' side)

    async def slash(self, user: FakeUser, channel: FakeChannel, command: str, *, created_at_ms: int | None = None,
                    wait: bool = True, options: JSON | None = None, forged: bool = False,
                    **kwargs: Any) -> InteractionResult:
        """|coro| ``user`` runs a synced slash command in ``channel``.

        ``command`` is the full name with subcommand group / subcommand (``"dutch-blitz new"``);
        options come as keywords or ``options`` (values: str, int, float, bool, FakeUser,
        FakeChannel). The option types are taken from the synced command, so unknown names,
        missing required options and values outside ``choices`` raise ``ValueError`` as
        Discord's client would not send them. ``forged=True`` sends the values as given, outside
        their ranges, lengths and ``choices`` (a modified client, or a request made by hand: a bot
        must refuse them itself); option names and required options are still checked.
        ``created_at_ms`` sets the interaction id's timestamp (default now); the 3 s deadline runs
        from it, as Discord's does. With ``wait`` it returns after the first response or the
        deadline; otherwise at once.
        """
        opts = {**(options or {}), **kwargs}
        data = self._command_data(command, channel.guild_id, opts, checked=not forged)
        self._check_command_permissions(user, channel, command)
        return await self._send_interaction(2, user, channel, data, created_at_ms=created_at_ms, wait=wait)

    def _check_command_permissions(self, user: FakeUser, channel: FakeChannel, command: str) -> None:
        """As Discord does (when :attr:`enforce_command_permissions`): a member lacking a command's
        ``default_member_permissions`` cannot run it — Discord's client does not even offer it —
        except administrators and the guild owner; ``"0"`` means administrators only.

        Raises
        ------
        PermissionError
            The member may not use the command.
        """
        guild = self.guilds.get(channel.guild_id or 0)
        if not self.enforce_command_permissions or guild is None:
            return
        cmd = self._find_command(command.split()[0], guild.id)
        needed = cmd.get("default_member_permissions")
        if needed is None:
            return
        member = guild.members[user.id]
        if member.permissions & ADMINISTRATOR or user.id == guild.owner_id:
            return
        bits = int(needed)
        if bits == 0 or member.permissions & bits != bits:
            raise PermissionError(f"{user.name} may not use /{command}: it needs permissions {bits} "
                                  f"(default_member_permissions), the member has {member.permissions}")

    async def autocomplete(self, user: FakeUser, channel: FakeChannel, command: str, focused: str, typed: str, *,
                           created_at_ms: int | None = None, **kwargs: Any) -> InteractionResult:
        """|coro| ``user`` is typing ``typed`` into option ``focused`` of a slash command.

        Sends an autocomplete interaction (type 4) with the other options given as keywords
        (required ones may be missing, as while typing). Returns after the bot's type-8 answer;
        its suggestions are ``result.choices`` (list of ``{"name", "value"}``).
        """
        data = self._command_data(command, channel.guild_id, {**kwargs, focused: typed}, focused=focused)
        return await self._send_interaction(4, user, channel, data, created_at_ms=created_at_ms, wait=True)

    def _command_data(self, command: str, guild_id: int | None, opts: JSON, focused: str | None = None, *,
                      checked: bool = True) -> JSON:
        """The ``data`` of an application-command interaction for ``command`` with option values ``opts``."""
        words = command.split()
        cmd = self._find_command(words[0], guild_id)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        resolved: JSON = {}
        defs = cmd.get("options") or []
        holder = data
        for word in words[1:]:
            sub = next((o for o in defs if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: {word!r} is not a subcommand; have {[o['name'] for o in defs]}")
            node: JSON = {"type": sub["type"], "name": word, "options": []}
            holder["options"] = [node]
            holder, defs = node, sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{command} needs a subcommand: one of {[o['name'] for o in defs]}")
        holder["options"] = self._build_options(command, defs, opts, guild_id, resolved, focused=focused,
                                                checked=checked)
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(self, user: FakeUser, message: FakeMessage | int, button: str, *,
                    created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` clicks the button (by custom_id, else label) on the message's current version.

        Raises ``LookupError`` for no such button, ``PermissionError`` for an ephemeral message of
        someone else, ``ValueError`` for a disabled or link button (Discord's client cannot click
        those). Other arguments as in ``slash``.
        """
        msg = self._current(message, user)
        info = msg.button(button)
        if info.disabled:
            raise ValueError(f"button {button!r} is disabled")
        if info.custom_id is None:
            raise ValueError(f"button {button!r} is a link button")
        comp = next(c for c in walk_components(msg.components) if c.get("custom_id") == info.custom_id)
        data = {"custom_id": info.custom_id, "component_type": 2, "id": comp.get("id")}
        return await self._component_interaction(user, msg, data, created_at_ms, wait)

    async def select(self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[str], *,
                     created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` picks ``values`` in the select menu ``custom_id`` of the message.

        Values must be among the menu's options (string selects) and their count within
        ``min_values``..``max_values``, else ``ValueError``.
        """
        msg = self._current(message, user)
        menu = next((s for s in msg.selects if s.custom_id == custom_id), None)
        if menu is None:
            raise LookupError(f"no select {custom_id!r} on message {msg.id}; have {[s.custom_id for s in msg.selects]}")
        if menu.disabled:
            raise ValueError(f"select {custom_id!r} is disabled")
        if not menu.min_values <= len(values) <= menu.max_values:
            raise ValueError(f"select {custom_id!r} takes {menu.min_values}..{menu.max_values} values, got {values}")
        if menu.type == 3:
            allowed = [v for _, v in menu.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {allowed}")
        data = {"custom_id": custom_id, "component_type": menu.type, "values": list(values)}
        return await self._component_interaction(user, msg, data, created_at_ms, wait)

    async def submit_modal(self, user: FakeUser, opened_by: InteractionResult, values: dict[str, str], *,
                           created_at_ms: int | None = None, wait: bool = True) -> InteractionResult:
        """|coro| ``user`` fills in and submits the modal the bot answered ``opened_by`` with.

        ``values`` maps each text input's custom_id to its text; inputs left out send their
        pre-filled value (or ''). Raises ``ValueError`` if ``opened_by`` did not open a modal or
        a required input is empty.
        """
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"interaction {opened_by.id} was answered with type {opened_by.response_type}, "
                             "not a modal")
        known = {c.get("custom_id") for c in walk_components(modal.get("components", [])) if c.get("type") == 4}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; has {sorted(known)}")

        def fill(comp: JSON) -> JSON:
            if comp.get("type") == 1:
                return {"type": 1, "components": [fill(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "component": fill(comp["component"])}
            if comp.get("type") == 4:
                value = values.get(comp["custom_id"], comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal input {comp['custom_id']!r} is required")
                return {"type": 4, "custom_id": comp["custom_id"], "value": value}
            return {"type": comp.get("type"), "id": comp.get("id")}

        data = {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal.get("components", [])]}
        channel = self.channels[opened_by.channel_id]
        source = self._messages.get(opened_by.source_message_id or 0)
        return await self._send_interaction(5, user, channel, data, message=source, created_at_ms=created_at_ms,
                                            wait=wait)

    async def wait_for_response(self, result: InteractionResult, timeout: float | None = None) -> InteractionResult:
        """|coro| Waits until the interaction was answered or failed (for ``wait=False`` sends)."""
        await asyncio.wait_for(result._answered.wait(), timeout or self.interaction_deadline_s + 1.0)
        return result

    # ------------------------------------------------------------------ internals: interactions

    def _current(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        mid = message if isinstance(message, int) else message.id
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        if msg.visible_to is not None and msg.visible_to != user.id:
            raise PermissionError(f"message {msg.id} is ephemeral for another user")
        return msg

    async def _component_interaction(self, user: FakeUser, msg: FakeMessage, data: JSON,
                                     created_at_ms: int | None, wait: bool) -> InteractionResult:
        channel = self.channels[msg.channel_id]
        return await self._send_interaction(3, user, channel, data, message=msg, created_at_ms=created_at_ms,
                                            wait=wait)

    def _find_command(self, name: str, guild_id: int | None) -> JSON:
        for cmd in self.guild_commands.get(guild_id or 0, []) + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        have = [c["name"] for c in self.guild_commands.get(guild_id or 0, []) + self.global_commands]
        raise LookupError(f"no synced slash command {name!r}; synced: {have}")

    def _build_options(self, command: str, defs: list[JSON], opts: JSON, guild_id: int | None,
                       resolved: JSON, focused: str | None = None, *, checked: bool = True) -> list[JSON]:
        by_name = {o["name"]: o for o in defs}
        unknown = set(opts) - set(by_name)
        if unknown:
            raise ValueError(f"/{command} has no options {sorted(unknown)}; options: {sorted(by_name)}")
        out = []
        for d in defs:
            name = d["name"]
            if name == focused:
                out.append({"type": d["type"], "name": name, "value": str(opts[name]), "focused": True})
                continue
            if name not in opts:
                if d.get("required") and focused is None:
                    raise ValueError(f"/{command} needs option {name!r}")
                continue
            value = opts[name]
            otype = d["type"]
            if otype == 6:
                user = value if isinstance(value, FakeUser) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
                guild = self.guilds.get(guild_id or 0)
                if guild and user.id in guild.members:
                    member = guild.members[user.id].to_payload(with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[str(user.id)] = member
                value = str(user.id)
            elif otype == 7:
                chan = value if isinstance(value, FakeChannel) else self.channels[int(value)]
                resolved.setdefault("channels", {})[str(chan.id)] = {**chan.to_payload(),
                                                                      "permissions": str(ALL_PERMISSIONS)}
                value = str(chan.id)
            elif otype in (8, 9):
                value = str(value)
            elif otype == 4:
                value = int(value)
            elif otype == 10:
                value = float(value)
            elif otype == 5:
                value = bool(value)
            else:
                value = str(value)
            if not checked:
                out.append({"type": otype, "name": name, "value": value})
                continue
            low, high = d.get("min_value"), d.get("max_value")
            if otype in (4, 10) and ((low is not None and value < low) or (high is not None and value > high)):
                raise ValueError(f"/{command} option {name!r}: {value!r} is outside {low}..{high}")
            short, long_ = d.get("min_length"), d.get("max_length")
            too_short = short is not None and len(str(value)) < short
            if otype == 3 and (too_short or (long_ is not None and len(str(value)) > long_)):
                raise ValueError(f"/{command} option {name!r}: {len(value)} characters, outside {short}..{long_}")
            choices = d.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"/{command} option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
            out.append({"type": otype, "name": name, "value": value})
        return out

    async def _send_interaction(self, itype: int, user: FakeUser, channel: FakeChannel, data: JSON, *,
                                message: FakeMessage | None = None, created_at_ms: int | None,
                                wait: bool) -> InteractionResult:
        if self.shard_of(channel.guild_id) not in self._sessions:
            raise RuntimeError(f"no bot session serves shard {self.shard_of(channel.guild_id)} of the fake gateway")
        loop = asyncio.get_running_loop()
        iid = make_snowflake(created_at_ms if created_at_ms is not None else self.now_ms())
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        result = InteractionResult(id=iid, token=token, type=itype, user=user, channel_id=channel.id,
                                   created_at_ms=(iid >> 22) + 1420070400000, sent_at_monotonic=loop.time(),
                                   source_message_id=message.id if message else None)
        guild = self.guilds.get(channel.guild_id or 0)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel": self._channel_payload(channel),
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": "en-US",
            "app_permissions": str(BOT_PERMISSIONS & ~self._deny_of(channel) if channel.guild_id else ALL_PERMISSIONS),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise PermissionError(f"{user.name} is not a member of guild {guild.name}")
            perms = member.permissions
            payload.update(guild_id=str(guild.id), guild_locale="en-US", context=0,
                           guild={"id": str(guild.id), "locale": "en-US", "features": []},
                           member=member.to_payload(with_permissions=True),
                           authorizing_integration_owners={"0": str(guild.id)})
            owner = perms & ADMINISTRATOR or user.id == guild.owner_id
            payload["member"]["permissions"] = str(ALL_PERMISSIONS if owner else perms & ~self._deny_of(channel))
        else:
            payload.update(user=user.to_payload(), context=1,
                           authorizing_integration_owners={"0": str(self.bot_user.id)})
        if message is not None:
            payload["message"] = message.to_payload()
        rec = _Interaction(result=result, payload=payload, sent_loop_time=loop.time(), sent_ms=self.now_ms(),
                           guild_id=channel.guild_id)
        self._interactions[iid] = rec
        self._by_token[token] = rec
        self.interactions.append(result)
        # Discord's 3 s run from the interaction's creation (its snowflake): one created in the past
        # (``created_at_ms``, a click that took long to reach the bot) has less time left.
        late_s = max(0.0, (self.now_ms() - result.created_at_ms) / 1000)
        rec.deadline_handle = loop.call_later(max(0.0, self.interaction_deadline_s - late_s), self._deadline_passed,
                                              rec)
        self._dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.wait_for_response(result)
        return result

    def _deadline_passed(self, rec: _Interaction) -> None:
        result = rec.result
        if result.response_type is None:
            result.failed = True
            msg = (f"This interaction failed: interaction {result.id} (type {result.type}) got no response "
                   f"within {self.interaction_deadline_s} s")
            result.errors.append(msg)
            self.errors.append(msg)
            result._answered.set()
            self._changed()
