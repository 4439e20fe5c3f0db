"""Replays and ``/table log`` name no card a spectator could not see (issue 15; ``docs/design.md`` §6).

Real hidden-information games, Dutch and Dutch Blitz, are played by their bots (with some random
moves) and told by the public play-by-play (``bot.engine.narrate.play_by_play``, which
``parlor replay`` and ``/table log`` print). In lockstep, the game is replayed action by action
and the public view (``engine.view(None)``) is sampled before and after each one. Every card the
public telling of an action names, by its label in the text or by its id in a public event, must
be in the public view just before or just after that action (or be shown to all by that action's
rule, :data:`REVEALS`): a card a spectator could see then.
"""

from __future__ import annotations

import asyncio
import re
from random import Random
from typing import Any

import pytest

from bot.engine import REGISTRY, get_game
from bot.engine.cards import BlitzCard, Card
from bot.engine.narrate import play_by_play
from tests.e2e.ui_conformance import card_ids, engine_cards

GAMES = {
    "dutch": [{"target": 1}, {"target": 1, "variant": "aggressive"}],
    "dutch-blitz": [{"target": 15}],
}
SEEDS = range(1, 6)
REVEALS = {"dutch": {"jump_in"}}
"""Public events that show a face-down card to everyone by rule, though it is face down before and may
be face down again after: a Dutch jump-in shows its card to all, right, wrong or late
(``docs/rules/dutch.md`` §7.2, §7.6). Their cards count as seen by a spectator at that action."""
LINE = re.compile(r"^\s*(\d+)\. (.*)$")


def played_log(kind: str, options: dict[str, Any], seed: int, players: int = 3) -> dict[str, Any]:
    """A whole game's log: the game's bots choose (seven moves in ten), random legal moves otherwise."""
    engine_cls = REGISTRY[kind]
    names = [f"p{i}" for i in range(players)]
    engine = engine_cls.new(names, seed=seed, options=options)
    bots_by_name = get_game(kind).bots
    bots = {p: next(iter(bots_by_name.values()))(p, Random(seed * 10 + i)) for i, p in enumerate(names)}
    rng = Random(seed)
    for _ in range(30_000):
        if engine.is_over:
            break
        moves = [(p, a) for p in names for a in engine.legal_actions(p) if a["type"] not in engine.table_actions]
        moves = moves or [(p, a) for p in names for a in engine.legal_actions(p)]
        player = rng.choice(sorted({p for p, _ in moves}))
        legal = [a for p, a in moves if p == player]
        choice = bots[player].choose(engine.view(player), legal) if rng.random() < 0.7 else None
        engine.apply(player, choice if choice is not None else rng.choice(legal))
    assert engine.is_over
    return engine.log()


def cards_of(engine: Any) -> dict[str, str]:
    """Every card object in the engine's state: id → label."""
    return engine_cards(engine)


def card_labels(engine: Any) -> dict[str, str]:
    """Every card of the game, id → label: card objects in the state, and the ids an engine that keeps
    its cards as ids (Dutch) names as hidden or shows in its public view."""
    out = cards_of(engine)
    ids = set(engine.hidden_cards(None)) | card_ids(engine.view(None))
    for card_id in ids - set(out):
        try:
            out[card_id] = Card.from_id(card_id).label
        except ValueError:
            out[card_id] = BlitzCard.from_id(card_id).label
    return out


def labels_named(text: str, labels: set[str]) -> set[str]:
    """The card labels *text* names (a label followed by a digit is another card: 🟥1 is not 🟥10)."""
    return {label for label in labels if re.search(re.escape(label) + r"(?!\d)", text)}


def leaks(kind: str, log: dict[str, Any], told: list[str]) -> list[str]:
    """Cards the public telling *told* of *log* names that the public view did not show around that action."""
    by_action: dict[int, list[str]] = {}
    for line in told:
        m = LINE.match(line)
        by_action.setdefault(int(m.group(1)) if m else 0, []).append(m.group(2) if m else line)
    engine_cls = REGISTRY[kind]
    engine = engine_cls.replay(dict(log, actions=[]))
    labels = card_labels(engine)
    everything = set(labels.values())
    assert len(labels) >= 40, f"only {len(labels)} cards found in a {kind} game"
    public_events = [e for e in engine.setup_events if e.audience is None]
    before = card_ids(engine.view(None))
    out: list[str] = []
    for number, (player, action) in enumerate([[None, None], *log["actions"]]):
        if number:
            public_events = [e for e in engine.apply(player, action) if e.audience is None]
        after = card_ids(engine.view(None))
        labels.update(card_labels(engine))
        revealed = set().union(*[card_ids(e.data) for e in public_events if e.type in REVEALS.get(kind, ())])
        visible = before | after | revealed
        visible_labels = {labels[c] for c in visible if c in labels}
        text = "\n".join(by_action.get(number, []))
        for label in sorted(labels_named(text, everything) - visible_labels):
            out.append(f"action {number} ({player} {action}): the telling names {label}, which the public view "
                       f"did not show: {text!r}")
        for event in public_events:
            for card in sorted(card_ids(event.data) - visible):
                out.append(f"action {number}: public event {event.type} carries card {card} the public view "
                           f"did not show")
        before = after
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("kind", "options"), [(k, o) for k, opts in GAMES.items() for o in opts])
def test_the_public_replay_names_no_card_a_spectator_could_not_see(kind: str, options: dict[str, Any],
                                                                    seed: int) -> None:
    """Dutch (both rule sets) and Dutch Blitz: every card named by the public telling was in the public view."""
    log = played_log(kind, options, seed)
    told = list(play_by_play(REGISTRY[kind], log, name=str.upper))
    assert len(told) > len(log["actions"]) / 2, "the game was told"
    named = labels_named("\n".join(told), set(card_labels(REGISTRY[kind].replay(dict(log, actions=[]))).values()))
    assert len(named) >= 10, f"the telling names only {sorted(named)}: is the label search blind?"
    problems = leaks(kind, log, told)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_leak_check_catches_a_players_private_telling(kind: str) -> None:
    """The check can fail: told as one player saw it (their own looks, drawn cards, hand), cards leak."""
    for seed in SEEDS:
        log = played_log(kind, GAMES[kind][0], seed)
        told = list(play_by_play(REGISTRY[kind], log, viewer="p0", name=str.upper))
        if leaks(kind, log, told):
            return
    if kind == "dutch-blitz":  # a Dutch Blitz player sees nothing a spectator does not (rules §12)
        return
    pytest.fail(f"{kind}: a player's private telling never named a card hidden from spectators")


def test_the_leak_check_catches_a_hidden_card_in_the_text() -> None:
    """A line naming a card that lies face down in a hand is reported."""
    log = played_log("dutch", {"target": 1}, 1)
    engine = REGISTRY["dutch"].replay(dict(log, actions=[]))
    hidden = sorted(engine.hidden_cards(None))
    label = card_labels(engine)[hidden[0]]
    told = [f"   1. P0 whispers: the {label} is in P1's hand."]
    assert any(label in p for p in leaks("dutch", {**log, "actions": log["actions"][:1]}, told))


E2E_OPTIONS = {
    "dutch": {"target": 1, "jump_in_grace_seconds": 0, "peek_seconds": 1, "bot_speed": "fast"},
    "dutch-blitz": {"target": 1, "max_hands": 1, "stuck_seconds": 1, "bot_speed": "fast", "race_window_ms": 30},
}


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_table_log_of_a_finished_game_names_no_card_a_spectator_could_not_see(kind: str, tmp_path) -> None:
    """Through the loopback Discord: people and a bot play a whole game, then ``/table log`` in its thread
    gives the public telling of the stored log, in which no card was hidden from spectators."""
    from bot.client import cog_extensions
    from bot.config import TablesConfig
    from sandbox import FakeDiscord
    from tests.e2e.conftest import parlor, settled, stored_log
    from tests.e2e.ui_conformance import TableDriver

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Parlor Test")
        channel = fake.add_channel(guild, "games")
        people = [fake.add_user("alice", guild=guild), fake.add_user("bob", guild=guild)]
        async with parlor(fake, tmp_path / "p.db", cog_extensions(),
                          tables=TablesConfig(redraw_interval_ms=200, board_refresh_ms=250), timer_scale=0.2) as bot:
            bot.tables.bot_delay_scale = 0.06
            driver = TableDriver(fake, bot, channel, people, None, kind, dict(E2E_OPTIONS[kind]), 3,
                                 reachability=False)
            table = await driver.open_and_start()
            await driver.play()
            log = await stored_log(bot, table)
            for _ in range(100):  # the result is stored right after the last move
                if await bot.storage.result(table.id):
                    break
                await asyncio.sleep(0.05)
            told = await settled(fake, await fake.slash(people[1], driver.thread, "table log"))
            assert told.ephemeral and told.message.attachments, told.content
            text = told.message.files[f"table-{table.id}.txt"].decode()
        fake.check_clean()
    lines = [line for line in text.splitlines() if LINE.match(line)]
    assert len(lines) >= len(log["actions"]) / 2, text[:500]
    expected = [line for line in play_by_play(REGISTRY[kind], log, name=lambda p: p) if LINE.match(line)]
    assert len(lines) == len(expected), "the log tells every move the replay tells"
    problems = leaks(kind, log, lines)
    assert not problems, "\n".join(problems[:20])


# ---------------------------------------------------------------------------------------------- card emojis

RENDERED = {"dutch": {"target": 1}, "dutch-blitz": {"target": 15}, "blitz": None, "blitzkrieg": None}
"""The games whose every state is rendered with the card emojis (``None``: the game's quick options)."""


def rendered_emoji_problems(kind: str, options: dict[str, Any], seed: int) -> tuple[list[str], int]:
    """Replay a bot-played game state by state and render, with every card emoji synced, the public table
    text and each player's board (text and buttons) and private notes through the game's real UI; return
    each emoji that shows a face its viewer was never shown (``docs/art.md`` §4), and how many were checked.

    A viewer has been shown: the cards of their view and of the public view (now or before), the cards
    of public events, and those of private events addressed to them (a look).
    """
    from bot.art.emojis import EMOJI_KEYS, emoji_name
    from bot.tables.faces import CardFaces
    from bot.tables.table import Table, TableStatus
    from cogs.games import load_ui
    from tests.e2e.ui_conformance import EMOJI_MARKUP, HiddenCards

    log = played_log(kind, options, seed, players=2 if REGISTRY[kind].max_players == 2 else 3)
    ui = load_ui(get_game(kind))
    ui.faces = CardFaces()
    ui.faces.load((1_300_000_000_000_000_000 + i, emoji_name(k)) for i, k in enumerate(EMOJI_KEYS))
    engine = REGISTRY[kind].replay(dict(log, actions=[]))
    table = Table(id=1, kind=kind, title=kind, guild_id=1, channel_id=2, thread_id=3, host_id=4, options=log["options"],
                  seed=log["seed"], min_players=2, max_players=8, status=TableStatus.RUNNING, engine=engine,
                  settings={"secret": "0" * 32})
    hidden = HiddenCards()
    problems: list[str] = []
    for number, (player, action) in enumerate([[None, None], *log["actions"]]):
        events = list(engine.setup_events) if not number else engine.apply(player, action)
        table.public_events.extend(e for e in events if e.audience is None)
        hidden.observe(engine)
        hidden.told_everyone(e for e in events if e.audience is None)
        shown: list[tuple[str | None, list[str], str]] = [(None, EMOJI_MARKUP.findall(ui.public_text(table)), "table")]
        for event in events:
            for viewer in event.audience or ():
                hidden.shown(viewer, event.data)
                note = ui.private_note(table, viewer, event) or ""
                shown.append((viewer, EMOJI_MARKUP.findall(note), f"note of {event.type}"))
        if not engine.is_over:
            for viewer in engine.players:
                board = ui.board(table, viewer)
                names = EMOJI_MARKUP.findall(board.text)
                names += [EMOJI_MARKUP.fullmatch(b.emoji)[1] for b in board.buttons  # type: ignore[index]
                          if getattr(b, "emoji", None)]
                shown.append((viewer, names, "board"))
        for viewer, names, where in shown:
            problems += hidden.emoji_name_problems(viewer, names, f"action {number} ({player} {action}): {where}")
    return problems, hidden.emojis_checked


@pytest.mark.parametrize("kind", sorted(RENDERED))
def test_no_rendered_card_emoji_shows_a_face_its_viewer_was_not_shown(kind: str) -> None:
    """Every state of bot-played games of every game, rendered with the emojis synced: each card emoji on the
    table text, a board or a private note shows a face its viewer was shown, or a card's back."""
    options = RENDERED[kind] if RENDERED[kind] is not None else dict(get_game(kind).quick_options)
    checked = 0
    for seed in SEEDS[:2]:
        problems, count = rendered_emoji_problems(kind, options, seed)
        assert not problems, "\n".join(problems[:20])
        checked += count
    assert checked > 20, f"only {checked} card emojis were rendered: is the check blind?"
