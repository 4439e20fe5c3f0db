"""``python -m sandbox``: try Parlor without Discord — the loopback Discord and the bot, one command.

It starts the loopback Discord and Parlor's production bot in the same process (the bot's
commands synced, a temporary database unless ``--db``), then takes typed commands as a user
(``help`` lists them). ``--no-bot`` runs the loopback Discord alone and prints the environment
variables (``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY``) that point a bot started
elsewhere at it. Everything but the database is in memory and gone when it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import sys
from collections.abc import AsyncIterator
from typing import Any

from .models import FakeChannel, FakeMessage, FakeUser, InteractionResult, walk_components
from .server import FakeDiscord
from .web import command_tree, option_value, parse_slash

HELP = """commands (the acting user and channel are shown in the prompt):
  /name sub opt:value ...    run a slash command as Discord writes it (opt:@user for a member;
                             opt=value works too; a value runs to the next option)
  click LABEL|CUSTOM_ID      click a button on the newest message showing it
  select CUSTOM_ID v1,v2     pick values in a select menu
  modal id=value ...         submit the last modal you were shown
  say TEXT                   post a plain message
  as USER                    act as another user (created if new)
  channel NAME               switch channel (threads too; names may have spaces)
  channels                   the channels and threads, and which one you are in
  show                       the last messages you can see here (new ones and edits print
                             by themselves as they happen)
  commands                   the synced slash commands
  wait SECONDS               let time pass (timers, coalesced edits)
  quit"""


STYLES = {1: "blue", 2: "grey", 3: "green", 4: "red", 5: "link"}
"""Discord's button styles as the colours a player sees (primary is blurple)."""


def _button(b: dict[str, Any]) -> str:
    emoji = (b.get("emoji") or {}).get("name") if isinstance(b.get("emoji"), dict) else None
    label = " ".join(x for x in (emoji, b.get("label")) if x) or "?"
    return f"[{label}]({STYLES.get(int(b.get('style', 1)), '?')}{', disabled' if b.get('disabled') else ''})"


def _row(row: dict[str, Any]) -> str:
    """One action row as one line: its buttons, or its select menu and options."""
    parts = []
    for c in row.get("components") or []:
        if c.get("type") == 2:
            parts.append(_button(c))
        else:
            options = ", ".join(o.get("label") or o.get("value", "") for o in c.get("options") or [])
            parts.append(f"<{c.get('placeholder') or c.get('custom_id')}: {options}>")
    return " ".join(parts)


def _layout(components: list[dict[str, Any]], indent: str = "    ") -> list[str]:
    """A Components V2 tree as text: texts, separators as a rule, pictures by file name, a row of
    buttons per line, a container's accent colour on its first line.
    """
    lines: list[str] = []
    for c in components:
        kind = c.get("type")
        if kind == 17:
            accent = c.get("accent_color")
            lines.append(f"{indent}┌ #{accent:06x}" if isinstance(accent, int) else f"{indent}┌")
            lines += _layout(c.get("components") or [], indent + "│ ")
            lines.append(f"{indent}└")
        elif kind == 10:
            lines += [f"{indent}{line}" for line in (c.get("content") or "").splitlines()]
        elif kind == 14:
            lines.append(f"{indent}{'─' * 24 if c.get('divider', True) else ''}")
        elif kind == 1:
            lines.append(f"{indent}{_row(c)}")
        elif kind == 9:
            texts = _layout(c.get("components") or [], indent)
            accessory = c.get("accessory") or {}
            url = (accessory.get("media") or {}).get("url", "")
            if accessory.get("type") == 11 and not url.startswith("attachment://") and texts:
                # a picture from the web (a seat's avatar): its description beside the first line
                texts[0] += f"  (🖼 {accessory.get('description') or url.rsplit('/', 1)[-1]})"
                lines += texts
            else:
                lines += texts
                lines.append(f"{indent}  → {_button(accessory) if accessory.get('type') == 2 else _media([accessory])}")
        elif kind == 12:
            lines.append(f"{indent}{_media(c.get('items') or [])}")
        elif kind == 13:
            lines.append(f"{indent}📎 {(c.get('file') or {}).get('url', '?').removeprefix('attachment://')}")
    return lines


def _media(items: list[dict[str, Any]]) -> str:
    return " ".join(f"🖼 {(i.get('media') or {}).get('url', '?').removeprefix('attachment://')}"
                    + (f" ({i['description']})" if i.get("description") else "") for i in items)


def _render(msg: FakeMessage) -> str:
    """A message as a few lines of text: author, flags, then its text and buttons (a Components V2
    layout in its order: texts, rules, pictures by file, a row of buttons per line).
    """
    head = f"[{msg.id}] {msg.author.name}{' (only you)' if msg.ephemeral else ''}{' (edited)' if msg.edited_ms else ''}"
    if msg.is_v2:
        return "\n".join([head, *_layout(msg.components)])
    lines = [head] + [f"    {line}" for line in msg.text.splitlines()]
    lines += [f"    {_row(row)}" for row in msg.components if row.get("type") == 1]
    for a in msg.attachments:
        lines.append(f"    📎 {a['filename']} ({a.get('size', 0)} bytes)")
    return "\n".join(lines)


class Console:
    """The text prompt: one acting user in one channel of one guild."""

    def __init__(self, fake: FakeDiscord, users: list[FakeUser], channel: FakeChannel) -> None:
        self.fake, self.user, self.channel = fake, users[0], channel
        self.last_modal: InteractionResult | None = None
        self.busy = False
        self._seen: dict[int, tuple[Any, ...]] = {}
        self._fresh()

    def _fresh(self) -> list[tuple[FakeMessage, bool]]:
        """Messages here that are new or changed since last printed, each with True if it is an edit."""
        out = []
        for m in self.fake.messages(self.channel, visible_to=self.user):
            mark = (m.edited_ms, m.loading, len(m.attachments), m.content, repr(m.components))
            old = self._seen.get(m.id)
            if old != mark:
                out.append((m, old is not None))
                self._seen[m.id] = mark
        return out

    async def follow(self) -> None:
        """|coro| Prints new messages and edits (a board redrawn by a bot's move) as they happen, between
        commands; runs until cancelled.
        """
        wake = asyncio.Event()
        self.fake.change_listeners.append(wake.set)
        try:
            while True:
                await wake.wait()
                await asyncio.sleep(0.2)  # a burst of edits prints once
                wake.clear()
                if self.busy:
                    continue
                fresh = self._fresh()
                for msg, edited in fresh:
                    print(("\n(edited) " if edited else "\n") + _render(msg))
                if fresh:
                    print(f"{self.user.name}@#{self.channel.name}> ", end="", flush=True)
        finally:
            self.fake.change_listeners.remove(wake.set)

    def _newest_with(self, predicate: Any) -> FakeMessage:
        for msg in reversed(self.fake.messages(self.channel, visible_to=self.user)):
            if predicate(msg):
                return msg
        raise LookupError("no message here has that")

    async def run_line(self, line: str) -> bool:
        """Runs one typed line; returns False on quit."""
        self.busy = True
        try:
            return await self._run_line(line)
        finally:
            self.busy = False

    async def _run_line(self, line: str) -> bool:
        fake = self.fake
        if line.startswith("/"):
            guild = fake.guilds[self.channel.guild_id or 0]
            path, defs, typed, tail = parse_slash(command_tree(fake, guild), line)
            if tail:
                raise ValueError(f"/{path}: {tail!r} is not an option; type name:value "
                                 f"({', '.join(o['name'] for o in defs) or 'none'})")
            by_name = {o["name"]: o for o in defs}
            options = {k: option_value(fake, guild, by_name[k], v) for k, v in typed.items()}
            result = await fake.slash(self.user, self.channel, path, options=options)
            return await self._answered(result)
        words = shlex.split(line)
        if not words:
            return True
        cmd, args = words[0], words[1:]
        result: InteractionResult | None = None
        if cmd in ("quit", "exit"):
            return False
        if cmd == "help":
            print(HELP)
        elif cmd == "click":
            target = " ".join(args)

            def has(m: FakeMessage) -> bool:
                return any(target in (b.label, b.custom_id) for b in m.buttons)

            result = await fake.click(self.user, self._newest_with(has), target)
        elif cmd == "select":
            msg = self._newest_with(lambda m: any(s.custom_id == args[0] for s in m.selects))
            result = await fake.select(self.user, msg, args[0], args[1].split(","))
        elif cmd == "modal":
            if self.last_modal is None:
                raise LookupError("no modal is open")
            result = await fake.submit_modal(self.user, self.last_modal, dict(a.split("=", 1) for a in args))
        elif cmd == "say":
            fake.post_message(self.user, self.channel, " ".join(args))
        elif cmd == "as":
            found = [u for u in fake.users.values() if u.name == args[0]]
            guild = fake.guilds[self.channel.guild_id or 0]
            self.user = found[0] if found else fake.add_user(args[0], guild=guild)
            self._seen.clear()
            self._fresh()
        elif cmd == "channel":
            name = " ".join(args).lstrip("#")
            found = [c for c in fake.channels.values() if c.name == name]
            if not found:
                raise LookupError(f"no channel or thread named {name!r}; type channels")
            self.channel = found[0]
            self._seen.clear()
            self._fresh()
        elif cmd == "channels":
            for c in fake.channels.values():
                if c.guild_id is None:
                    continue
                kind = "thread" if c.is_thread else "channel"
                here = "  <- you are here" if c is self.channel else ""
                print(f"  {'  ' if c.is_thread else ''}#{c.name} ({kind}){here}")
        elif cmd == "show":
            for msg in fake.messages(self.channel, visible_to=self.user)[-8:]:
                print(_render(msg))
        elif cmd == "commands":
            for c in fake.commands() + [c for cs in fake.guild_commands.values() for c in cs]:
                print(f"/{c['name']}: {c.get('description', '')}")
        elif cmd == "wait":
            await asyncio.sleep(float(args[0]))
        else:
            print(f"unknown command {cmd!r}; type help")
        return await self._answered(result)

    async def _answered(self, result: InteractionResult | None) -> bool:
        """Prints what an interaction led to: its modal, its failure, then every new or changed message."""
        if result is not None:
            answer = result
            with contextlib.suppress(TimeoutError):  # a deferred answer ("thinking"): wait for its follow-up
                await self.fake.wait_for(lambda: answer.failed or answer.message is None or not answer.message.loading,
                                    timeout=10, what="the deferred answer")
            await asyncio.sleep(0.3)  # let follow-ups and table edits land
            if result.modal is not None:
                self.last_modal = result
                print(f"modal {result.modal.get('title')!r}: inputs "
                      f"{[c.get('custom_id') for c in _inputs(result.modal)]} (answer with: modal id=value)")
            if result.failed:
                print("This interaction failed: " + "; ".join(result.errors))
            for msg, edited in self._fresh():
                print(("(edited) " if edited else "") + _render(msg))
        return True


@contextlib.asynccontextmanager
async def _parlor(fake: FakeDiscord, db: str | None, log_level: str, *,
                  card_emojis: bool = False) -> AsyncIterator[Any]:
    """The production bot, in this process, connected to *fake* with its commands synced (and, with
    *card_emojis*, the cards uploaded as application emojis, as ``parlor sync`` does).
    """
    import logging
    import tempfile

    from bot.client import ParlorBot
    from bot.config import Config, DatabaseConfig, DiscordConfig
    from bot.storage import Storage

    from .client import running_bot

    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="parlor-sandbox-") as tmp:
        path = db or f"{tmp}/parlor.db"
        config = Config(discord=DiscordConfig(token=fake.token, api_base=fake.api_base, gateway=fake.gateway_url),
                        database=DatabaseConfig(path=path))
        async with Storage.open(path) as storage:
            bot = ParlorBot(config, storage, check_commands=False)
            async with running_bot(fake, bot):
                await bot.tree.sync()
                if card_emojis:
                    from bot.emoji_sync import sync_card_emojis

                    await sync_card_emojis(bot)
                    await bot.load_card_emojis()
                yield bot


def _inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]


async def main(argv: list[str] | None = None) -> None:
    """Starts the fake, prints the env vars, then reads commands from stdin until quit/EOF."""
    parser = argparse.ArgumentParser(prog="python -m sandbox", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--token", default="parlor-sandbox-token")
    parser.add_argument("--users", default="alice,bob,carol", help="comma-separated user names")
    parser.add_argument("--deadline", type=float, default=3.0, help="first-response deadline in seconds")
    parser.add_argument("--no-bot", action="store_true",
                        help="run the loopback Discord alone and print how to point a bot at it")
    parser.add_argument("--db", metavar="PATH", help="the bot's database (default: a temporary file)")
    parser.add_argument("--log-level", default="WARNING", help="the bot's log level on stderr (default WARNING)")
    parser.add_argument("--heartbeat-ms", type=int, default=41250, help="the gateway's heartbeat interval")
    parser.add_argument("--web", action="store_true",
                        help="serve the loopback Discord as a web page (prints its address) instead of the prompt")
    parser.add_argument("--web-port", type=int, default=8080, help="the web page's port (0 picks a free one)")
    parser.add_argument("--text-cards", action="store_true",
                        help="with --web, leave the card emojis unsynced (cards as text, as on a server without them)")
    args = parser.parse_args(argv)
    fake = FakeDiscord(token=args.token, host=args.host, port=args.port, interaction_deadline_s=args.deadline,
                       heartbeat_interval_ms=args.heartbeat_ms)
    async with fake, contextlib.AsyncExitStack() as stack:
        guild = fake.add_guild("Parlor Sandbox")
        channel = fake.add_channel(guild, "games")
        fake.add_channel(guild, "no-threads", allow_threads=False)
        users = [fake.add_user(name, guild=guild) for name in args.users.split(",")]
        if args.no_bot:
            print(f"export DISCORD_TOKEN={fake.token}")
            print(f"export DISCORD_API_BASE={fake.api_base}")
            print(f"export DISCORD_GATEWAY={fake.gateway_url}")
            print("# start the bot with these, sync its commands, then type 'help'.", flush=True)
        else:
            await stack.enter_async_context(_parlor(fake, args.db, args.log_level,
                                                    card_emojis=args.web and not args.text_cards))
            if not args.web:
                print("Parlor is running against the loopback Discord. Try: /games, /dutch-blitz new, "
                      "click Join, as bob, channels, show — or help.", flush=True)
        if args.web:
            from .web import WebSandbox

            async with WebSandbox(fake, guild, host=args.host, port=args.web_port) as page:
                print(f"Open {page.url} in a browser (two members side by side). Ctrl-C stops.", flush=True)
                await asyncio.Event().wait()
        console = Console(fake, users, channel)
        follower = asyncio.create_task(console.follow())
        stack.callback(follower.cancel)
        loop = asyncio.get_running_loop()
        while True:
            print(f"{console.user.name}@#{console.channel.name}> ", end="", flush=True)
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                break
            try:
                if not await console.run_line(line.strip()):
                    break
            except (LookupError, ValueError, PermissionError, RuntimeError, StopIteration) as exc:
                print(f"! {exc}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
