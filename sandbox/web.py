"""``python -m sandbox --web``: the loopback Discord as a web page (issue #33).

:class:`WebSandbox` serves, on 127.0.0.1 with aiohttp, the static page in ``sandbox/web/`` (plain
HTML/CSS/JS, no build step, no CDN) and a small JSON API over what :class:`~sandbox.server.FakeDiscord`
holds. The page draws Discord's own wire JSON (``FakeMessage.to_payload``): content, embeds, classic
components, Components V2 layouts, custom emojis, attachments and select menus. Each pane of the page
acts as one member in one channel; what that member sees (ephemeral messages only their own) is
pushed over a WebSocket whenever the fake changes (new messages, edits, deletions, threads).

Routes (JSON bodies; ``user``/``channel``/``message`` are snowflakes as strings or ints):

- ``GET /``: the page; ``GET /static/{file}``: its files.
- ``GET /api/world``: ``{"guild", "channels": [...], "members": [...], "commands": [...]}``.
- ``GET /ws``: the push socket; the page sends ``{"user", "channel"}`` and gets
  ``{"type": "world", ...}`` and ``{"type": "messages", "channel", "order": [ids], "upsert": [...],
  "delete": [ids]}`` frames.
- ``POST /api/slash`` ``{"user", "channel", "text": "/dutch new target:30"}``,
  ``POST /api/suggest`` (same body: completions of the text), ``POST /api/click``
  ``{"user", "message", "custom_id"}``, ``POST /api/select`` (``+ "values"``),
  ``POST /api/modal`` ``{"user", "interaction", "values": {custom_id: text}}``, ``POST /api/say``,
  ``POST /api/member`` ``{"user", "manage_guild": bool}`` or ``{"name"}`` (a new member).
- ``GET /files/{message}/{filename}``: an attachment's bytes; ``GET /emojis/{id}``: an application emoji.

An action the loopback refuses (``ValueError``, ``LookupError``, ``PermissionError``) answers 400
``{"error": text}``; an interaction answers ``{"failed", "errors", "modal", "interaction"}``.
Source: docs/design.md §8 (the loopback Discord) and Discord's message/component wire format.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from .models import FakeChannel, FakeGuild, FakeMessage, FakeUser, InteractionResult
from .server import FakeDiscord
from .wire import ADMINISTRATOR, MANAGE_GUILD

STATIC = Path(__file__).with_name("web")
"""The page's files (index.html, app.js, style.css)."""

SUB = (1, 2)
"""Option types that are a subcommand (1) or a subcommand group (2)."""

_OPTION = re.compile(r"(?:^|\s)([\w-]+):")

JSON = dict[str, Any]


def command_tree(fake: FakeDiscord, guild: FakeGuild) -> list[JSON]:
    """The synced slash commands a member of *guild* can type: global ones, then the guild's."""
    return [c for c in fake.commands() + fake.commands(guild) if c.get("type", 1) == 1]


def parse_slash(commands: list[JSON], text: str) -> tuple[str, list[JSON], dict[str, str], str]:
    """Splits Discord's typed form ``/name [group] [sub] opt:value opt:value`` into parts.

    Returns ``(path, option_defs, values, tail)``: *path* is the command with its subcommands
    (``"dutch new"``), *option_defs* the options it takes, *values* the typed ``name: text`` pairs
    (a value runs to the next ``known-option:``; ``opt=value`` is accepted too), *tail* any
    trailing text that is neither (a word being typed). Raises ``ValueError`` for an unknown command.
    """
    body = text.strip().lstrip("/")
    words = body.split(" ")
    cmd = next((c for c in commands if c["name"] == words[0]), None)
    if cmd is None:
        raise ValueError(f"no command /{words[0]}; try one of {sorted(c['name'] for c in commands)}")
    path, defs, i = [cmd["name"]], cmd.get("options") or [], 1
    while i < len(words):
        sub = next((o for o in defs if o["type"] in SUB and o["name"] == words[i]), None)
        if sub is None:
            break
        path.append(sub["name"])
        defs, i = sub.get("options") or [], i + 1
    rest = " ".join(words[i:])
    names = {o["name"] for o in defs if o["type"] not in SUB}
    rest = re.sub(r"(?:^|(?<=\s))([\w-]+)=", lambda m: f"{m[1]}:" if m[1] in names else m[0], rest)
    marks = [m for m in _OPTION.finditer(rest) if m[1] in names]
    values: dict[str, str] = {}
    tail = rest[:marks[0].start()].strip() if marks else rest.strip()
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(rest)
        values[m[1]] = rest[m.end():end].strip()
    return " ".join(path), defs, values, tail


def option_value(fake: FakeDiscord, guild: FakeGuild, opt: JSON, text: str) -> Any:
    """*text* as the value of option *opt* (Discord's option types: 3 string, 4 integer, 5 boolean,
    6 user, 7 channel, 10 number); a choice may be typed by its name. Raises ``ValueError``.
    """
    for choice in opt.get("choices") or []:
        if text in (choice["name"], str(choice["value"])):
            return choice["value"]
    kind = opt["type"]
    if kind == 4:
        return int(text)
    if kind == 10:
        return float(text)
    if kind == 5:
        if text.lower() not in ("true", "false", "yes", "no"):
            raise ValueError(f"{opt['name']}: true or false, not {text!r}")
        return text.lower() in ("true", "yes")
    if kind in (6, 9):
        name = text.lstrip("@")
        found = [m.user for m in guild.members.values() if name in (m.user.name, str(m.user.id))]
        if not found:
            raise ValueError(f"{opt['name']}: no member {text!r}")
        return found[0]
    if kind == 7:
        found_c = [c for c in fake.channels.values() if c.guild_id == guild.id and c.name == text.lstrip("#")]
        if not found_c:
            raise ValueError(f"{opt['name']}: no channel {text!r}")
        return found_c[0]
    return text


def _emoji_ids_as_strings(value: Any) -> Any:
    """*value* with every component emoji's ``id`` as a string, as Discord sends snowflakes: discord.py
    sends it as a number, which a JavaScript number cannot hold exactly (the image would be another id's).
    """
    if isinstance(value, dict):
        return {k: (dict(v, id=str(v["id"])) if k == "emoji" and isinstance(v, dict) and v.get("id") is not None
                    else _emoji_ids_as_strings(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_emoji_ids_as_strings(v) for v in value]
    return value


def page_message(msg: FakeMessage) -> JSON:
    """A message as the page draws it: Discord's payload plus who may see it, where its files are and a
    ``version`` (a digest of all of it: the page marks each drawn message with it, so a test can tell
    that the page shows exactly what the loopback holds).
    """
    data = _emoji_ids_as_strings(msg.to_payload())
    data["author_name"] = msg.author.global_name or msg.author.name
    data["author_bot"] = msg.author.bot
    data["ephemeral"] = msg.ephemeral
    data["loading"] = msg.loading
    data["files"] = {name: f"/files/{msg.id}/{name}" for name in msg.files}
    data["version"] = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    return data


class WebSandbox:
    """The web page over a running :class:`FakeDiscord` and one of its guilds.

    ``async with WebSandbox(fake, guild) as web: web.url`` serves it on *host*:*port* (0: a free port).
    """

    def __init__(self, fake: FakeDiscord, guild: FakeGuild, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.fake, self.guild, self.host, self.port = fake, guild, host, port
        self.interactions: dict[str, InteractionResult] = {}
        self._runner: web.AppRunner | None = None
        self._sockets: set[asyncio.Event] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._open: set[web.WebSocketResponse] = set()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/``, the page's address (after start)."""
        return f"http://{self.host}:{self.port}/"

    async def __aenter__(self) -> WebSandbox:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/api/world", self._world_route)
        app.router.add_get("/files/{message}/{filename}", self._file)
        app.router.add_get("/emojis/{emoji}", self._emoji)
        for name, handler in (("slash", self._slash), ("suggest", self._suggest), ("click", self._click),
                              ("select", self._select), ("modal", self._modal), ("say", self._say),
                              ("member", self._member)):
            app.router.add_post(f"/api/{name}", self._guarded(handler))
        self.fake.change_listeners.append(self._changed)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(ValueError):
            self.fake.change_listeners.remove(self._changed)
        for task in list(self._tasks):
            task.cancel()
        for ws in list(self._open):  # else the runner waits out its shutdown timeout for each open page
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the sandbox stops")
        if self._runner is not None:
            await self._runner.cleanup()

    def _changed(self) -> None:
        for event in self._sockets:
            event.set()

    # ------------------------------------------------------------------ reading

    def world(self) -> JSON:
        """The guild's channels (threads after their parent), members (with ``manage_guild``) and commands."""
        chans = [c for c in self.fake.channels.values() if c.guild_id == self.guild.id and not c.is_thread]
        out = []
        for c in sorted(chans, key=lambda c: c.position):
            out.append({"id": str(c.id), "name": c.name, "thread": False})
            out += [{"id": str(t.id), "name": t.name, "thread": True, "parent": str(c.id), "archived": t.archived}
                    for t in self.fake.threads(c)]
        members = [{"id": str(m.user.id), "name": m.user.name, "owner": m.user.id == self.guild.owner_id,
                    "manage_guild": bool(m.permissions & (MANAGE_GUILD | ADMINISTRATOR))}
                   for m in sorted(self.guild.members.values(), key=lambda m: m.user.id == self.guild.owner_id)
                   if not m.user.bot]
        return {"guild": self.guild.name, "channels": out, "members": members,
                "commands": [{"name": c["name"], "description": c.get("description", "")}
                             for c in command_tree(self.fake, self.guild)]}

    async def _world_route(self, request: web.Request) -> web.Response:
        return web.json_response(self.world())

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _file(self, request: web.Request) -> web.Response:
        msg = self.fake._messages.get(int(request.match_info["message"]))
        name = request.match_info["filename"]
        if msg is None or name not in msg.files:
            raise web.HTTPNotFound()
        kind = next((a.get("content_type") for a in msg.attachments if a.get("filename") == name), None)
        return web.Response(body=msg.files[name], content_type=kind or "application/octet-stream")

    async def _emoji(self, request: web.Request) -> web.Response:
        emoji = self.fake.application_emojis.get(int(request.match_info["emoji"].split(".")[0]))
        if emoji is None:
            raise web.HTTPNotFound()
        return web.Response(body=emoji.image, content_type=emoji.content_type)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self._open.add(ws)
        wake = asyncio.Event()
        view: dict[str, int] = {}
        sent: dict[int, str] = {}
        world = ""

        async def push() -> None:
            nonlocal world
            while not ws.closed:
                await wake.wait()
                wake.clear()
                now = json.dumps(self.world())
                if now != world:
                    world = now
                    await ws.send_json({"type": "world", **json.loads(now)})
                if "user" not in view:
                    continue
                msgs = self.fake.messages(view["channel"], visible_to=view["user"])
                shown = {m.id: json.dumps(page_message(m)) for m in msgs}
                upsert = [json.loads(v) for k, v in shown.items() if sent.get(k) != v]
                gone = [str(k) for k in sent if k not in shown]
                if upsert or gone or not sent:
                    await ws.send_json({"type": "messages", "channel": str(view["channel"]),
                                        "order": [str(m.id) for m in msgs], "upsert": upsert, "delete": gone})
                sent.clear()
                sent.update(shown)

        self._sockets.add(wake)
        task = asyncio.create_task(push())
        self._tasks.add(task)
        wake.set()
        try:
            async for frame in ws:
                if frame.type == WSMsgType.TEXT:
                    ask = json.loads(frame.data)
                    view.update(user=int(ask["user"]), channel=int(ask["channel"]))
                    sent.clear()
                    wake.set()
        finally:
            self._open.discard(ws)
            self._sockets.discard(wake)
            task.cancel()
            self._tasks.discard(task)
        return ws

    # ------------------------------------------------------------------ acting

    def _guarded(self, handler: Callable[[JSON], Awaitable[JSON]]) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def route(request: web.Request) -> web.Response:
            body = await request.json()
            try:
                return web.json_response(await handler(body))
            except (ValueError, LookupError, PermissionError, KeyError) as exc:
                return web.json_response({"error": str(exc)}, status=400)
        return route

    def _user(self, body: JSON) -> FakeUser:
        return self.fake.users[int(body["user"])]

    def _channel(self, body: JSON) -> FakeChannel:
        return self.fake.channels[int(body["channel"])]

    def _answer(self, result: InteractionResult) -> JSON:
        self.interactions[str(result.id)] = result
        return {"interaction": str(result.id), "failed": result.failed, "errors": result.errors,
                "modal": result.modal, "choices": result.choices}

    async def _slash(self, body: JSON) -> JSON:
        path, defs, typed, tail = parse_slash(command_tree(self.fake, self.guild), body["text"])
        if tail:
            raise ValueError(f"/{path}: {tail!r} is not an option; type name:value "
                             f"({', '.join(o['name'] for o in defs) or 'none'})")
        by_name = {o["name"]: o for o in defs}
        options = {k: option_value(self.fake, self.guild, by_name[k], v) for k, v in typed.items()}
        return self._answer(await self.fake.slash(self._user(body), self._channel(body), path, options=options))

    async def _suggest(self, body: JSON) -> JSON:
        return {"suggestions": await self.suggest(self._user(body), self._channel(body), body["text"])}

    async def suggest(self, user: FakeUser, channel: FakeChannel, text: str) -> list[JSON]:
        """Completions of a half-typed slash command, each ``{"label", "text"}`` (*text* replaces the
        whole input): command and subcommand names, option names, choices and the bot's own
        autocomplete answers (an autocomplete interaction, as Discord's client sends while typing).
        """
        commands = command_tree(self.fake, self.guild)
        words = text.lstrip("/").split(" ")
        if len(words) == 1:
            return [{"label": f"/{c['name']} — {c.get('description', '')}", "text": f"/{c['name']} "}
                    for c in commands if c["name"].startswith(words[0])][:25]
        try:
            path, defs, typed, tail = parse_slash(commands, text)
        except ValueError:
            return []
        subs = [o for o in defs if o["type"] in SUB]
        base = text[: len(text) - len(tail)] if tail and text.endswith(tail) else text
        if subs and not typed:
            return [{"label": f"{o['name']} — {o.get('description', '')}", "text": f"/{path} {o['name']} "}
                    for o in subs if o["name"].startswith(tail)]
        last = next(reversed(typed), None) if typed and not text.endswith(" ") and not tail else None
        if last is not None:
            opt = next(o for o in defs if o["name"] == last)
            head = text[: text.rindex(f"{last}:") + len(last) + 1]
            return [{"label": name, "text": f"{head}{value} "}
                    for name, value in await self._values(user, channel, path, opt, typed)]
        return [{"label": f"{o['name']}:{' (required)' if o.get('required') else ''} {o.get('description', '')}",
                 "text": f"{base.rstrip()} {o['name']}:"}
                for o in sorted(defs, key=lambda o: not o.get("required"))
                if o["name"] not in typed and o["name"].startswith(tail)]

    async def _values(self, user: FakeUser, channel: FakeChannel, path: str, opt: JSON,
                      typed: dict[str, str]) -> list[tuple[str, str]]:
        partial = typed[opt["name"]]
        if opt.get("choices"):
            return [(c["name"], c["name"]) for c in opt["choices"] if partial.lower() in c["name"].lower()]
        if opt["type"] == 5:
            return [(v, v) for v in ("true", "false") if v.startswith(partial.lower())]
        if opt["type"] == 6:
            return [(f"@{m.user.name}", f"@{m.user.name}") for m in self.guild.members.values()
                    if m.user.name.startswith(partial.lstrip("@"))]
        if opt.get("autocomplete"):
            result = await self.fake.autocomplete(user, channel, path, opt["name"], partial)
            return [(c["name"], str(c["value"])) for c in result.choices or []]
        return []

    async def _click(self, body: JSON) -> JSON:
        user = self._user(body)
        return self._answer(await self.fake.click(user, int(body["message"]), body["custom_id"]))

    async def _select(self, body: JSON) -> JSON:
        user = self._user(body)
        return self._answer(await self.fake.select(user, int(body["message"]), body["custom_id"],
                                                   [str(v) for v in body["values"]]))

    async def _modal(self, body: JSON) -> JSON:
        opened = self.interactions[str(body["interaction"])]
        return self._answer(await self.fake.submit_modal(self._user(body), opened, dict(body["values"])))

    async def _say(self, body: JSON) -> JSON:
        msg = self.fake.post_message(self._user(body), self._channel(body), str(body["text"]))
        return {"message": str(msg.id)}

    async def _member(self, body: JSON) -> JSON:
        if "name" in body:
            name = str(body["name"]).strip()
            if not re.fullmatch(r"[\w.-]{2,32}", name):
                raise ValueError("a member's name: 2 to 32 letters, digits, '.', '-' or '_'")
            if any(u.name == name for u in self.fake.users.values()):
                raise ValueError(f"there is already a member named {name}")
            user = self.fake.add_user(name, guild=self.guild)
        else:
            user = self._user(body)
            member = self.guild.members[user.id]
            if body.get("manage_guild"):
                member.permissions |= MANAGE_GUILD
            else:
                member.permissions &= ~MANAGE_GUILD
            self.fake._dispatch("GUILD_MEMBER_UPDATE", {**member.to_payload(), "guild_id": str(self.guild.id)})
        self._changed()
        return {"user": str(user.id)}
