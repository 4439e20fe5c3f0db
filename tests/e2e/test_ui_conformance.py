"""UI conformance of every game that has a table (issue 11, item 4); the driver is in ``ui_conformance.py``.

Parametrised over every declared game (``bot.engine.GAMES``; its table UI is the class its
declaration names). A new game's table is picked up by itself from its declaration (its short game's options
are the declaration's, ``tests/quick.py``); only a UI that merges equivalent actions needs an entry
in :data:`ACTION_KEYS`.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.client import cog_extensions
from bot.config import TablesConfig
from bot.engine import REGISTRY
from bot.tables.table import Seat, Table
from bot.tables.ui import Board
from sandbox import FakeDiscord
from tests.e2e.conftest import World, parlor
from tests.e2e.ui_conformance import (
    HiddenCards,
    TableDriver,
    action_key,
    board_problems,
    explore_board,
    message_problems,
    production_uis,
    reachability_problems,
)
from tests.quick import table_options, variant_cases

PRODUCTION_COGS = cog_extensions()


UIS = production_uis()
KINDS = sorted(UIS)

VARIANTS = variant_cases()
"""Further rule sets of a kind that change its board, each a case of its own (from the declarations):
``"<kind>-<variant>"`` to ``(kind, variant)``."""

CASES = [*KINDS, *sorted(VARIANTS)]
"""What the game-playing tests run: every declared game with a short game's options (``tests/quick.py``),
and every declared variant."""


def case_options(case: str) -> tuple[str, dict[str, object]]:
    """The kind and the ``/<kind> new`` options of a case of :data:`CASES`."""
    if case in VARIANTS:
        kind, variant = VARIANTS[case]
        return kind, table_options(kind, variant)
    return case, table_options(case)


def dutch_blitz_key(action: dict) -> object:
    """Dutch Blitz: a Dutch-pile play is known by the card's source, not by the pile.

    A card fits a Dutch pile when the pile has the card's colour and the value just below it, so
    every pile one card fits shows the same colour and the same top; the board therefore has one
    button per card (``c:<source>``), which plays it onto one of those piles, preferring one
    nobody is racing for (``cogs/_dutch_blitz_ui.py``, ``on_board_click``). Which of the
    equivalent piles it is does not matter to the player, so it does not matter here.
    """
    if action.get("type") == "dutch":
        return ("dutch", action.get("from"))
    return action_key(action)


ACTION_KEYS = {"dutch-blitz": dutch_blitz_key}
"""Per kind, which legal actions the UI may merge into one button (default: none, every action counts)."""

KNOWN_GAPS: dict = {}  # none today; the Pick… button closed Dutch Blitz's (a blue card onto a Post pile)
"""Per kind, legal actions its UI is known not to reach yet (each one a bug with its own note)."""


SEEDS = (1, 2, 3)
"""Seeds of the driver's random clicks; each plays one whole game (2 or 3 people and a bot)."""

BOT_DELAY_SCALE = 0.06
"""Bots' reaction times × this (with bot_speed fast, a greedy bot moves about every 30 ms): slow
enough that the people's boards see many states, fast enough that a game takes a few seconds."""


def fast_tables() -> TablesConfig:
    """The table service's timing for the test: quick redraws, quick live boards where there are."""
    fields = {f.name for f in dataclasses.fields(TablesConfig)}
    wanted = {"redraw_interval_ms": 200, "board_refresh_ms": 250}
    return TablesConfig(**{k: v for k, v in wanted.items() if k in fields})


# ---------------------------------------------------------------------------------------------- through Discord


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES)
async def test_random_clicks_play_a_whole_game_within_discord_limits(case: str, seed: int, fake: FakeDiscord,
                                                                     world: World, tmp_path: Path) -> None:
    """People click random enabled components until the game ends; every click is answered, every
    message fits Discord, every legal action is reachable at every state sampled, and no custom id
    names a card its viewer has not seen."""
    kind, options = case_options(case)
    spectator = fake.add_user("spectator", guild=world.guild)
    async with parlor(fake, tmp_path / "parlor.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
        unknown = set(bot.tables.uis) - set(KINDS)
        assert not unknown, f"cogs registered table UIs of games this test did not find declared: {unknown}"
        assert kind in bot.tables.uis, f"no cog registered a table UI for {kind!r}"
        bot.tables.bot_delay_scale = BOT_DELAY_SCALE
        people = [world.alice, world.bob, world.carol][:2 + seed % 2]  # 3, 2, 3 people
        people = people[:max(1, min(len(people), REGISTRY[kind].max_players - 1))]
        driver = TableDriver(fake, bot, world.channel, people, spectator, kind, options, seed,
                             key=ACTION_KEYS.get(kind, action_key), excuse=KNOWN_GAPS.get(kind))
        await driver.open_and_start()
        run = await driver.play()
        for _ in range(4):  # a game can end after a few moves (a war lost in three battles): play another
            if run.states_checked >= 10 and run.board_clicks > 0 and run.public_clicks > 0:
                break
            await driver.open_and_start()
            run = await driver.play()
        print(run.summary())
        assert run.over
        assert run.states_checked >= 10, "too few states were checked for reachability"
        assert run.board_clicks > 0 and run.public_clicks > 0


async def test_a_driven_game_has_a_budget_in_steps_not_seconds(fake: FakeDiscord, world: World, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine so loaded that every step seems to take a minute (the driver's clock jumps a minute
    at each reading), the driver still plays the game out and checks it all: its budget is in steps,
    never in seconds (issue #31 E: ``dutch-3`` went past a 60 s budget on a loaded machine)."""
    import types

    from tests.e2e import ui_conformance

    readings = iter(range(0, 10**9, 60))
    monkeypatch.setattr(ui_conformance, "time", types.SimpleNamespace(monotonic=lambda: float(next(readings))))
    kind, options = case_options("blitz")
    async with parlor(fake, tmp_path / "parlor.db", PRODUCTION_COGS, tables=fast_tables(), timer_scale=0.2) as bot:
        bot.tables.bot_delay_scale = BOT_DELAY_SCALE
        driver = TableDriver(fake, bot, world.channel, [world.alice, world.bob], None, kind, options, 2,
                             key=ACTION_KEYS.get(kind, action_key), reachability=False)
        await driver.open_and_start()
        run = await driver.play()
    assert run.over and run.steps > 1 and run.messages_checked > 0, run.summary()


async def test_every_table_ui_is_found(fake: FakeDiscord, world: World, tmp_path: Path) -> None:
    """The kinds this test is parametrised over are exactly the table UIs the production cogs register."""
    async with parlor(fake, tmp_path / "parlor.db", PRODUCTION_COGS) as bot:
        assert sorted(bot.tables.uis) == KINDS
    assert KINDS, "no game has a table UI?"


# ---------------------------------------------------------------------------------------------- without Discord


def offline_table(kind: str, seed: int, people: int = 3, case: str | None = None) -> Table:
    """A running table of *kind* without a bot or Discord: the engine options of its short game (of the
    variant *case*, if given), *people* seats."""
    engine_cls = REGISTRY[kind]
    fields = {f.name for f in dataclasses.fields(engine_cls.Options)}
    options = {k: v for k, v in case_options(case or kind)[1].items() if k in fields}
    people = max(engine_cls.min_players, min(people, engine_cls.max_players))  # Blitzkrieg seats exactly two
    seats = [Seat(f"u{i}", i, None, f"person{i}") for i in range(1, people + 1)]
    return Table(id=1, kind=kind, title=engine_cls.title, guild_id=1, channel_id=1, thread_id=1, host_id=1,
                 options=options, seed=seed, min_players=engine_cls.min_players, max_players=engine_cls.max_players,
                 status="running", seats=seats,
                 engine=engine_cls.new([s.player_id for s in seats], seed=seed, options=options))


def random_states(kind: str, count: int, seed: int = 0, case: str | None = None):
    """Tables at *count* states of random games (random legal moves; table actions only when nothing else is left)."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < count:
        game += 1
        table = offline_table(kind, seed * 1000 + game, people=rng.choice([2, 3]), case=case)
        engine = table.engine
        while made < count and not engine.is_over:
            yield table
            made += 1
            moves = [(p, a) for p in engine.players for a in engine.legal_actions(p)
                     if a["type"] not in engine.table_actions]
            if not moves:
                moves = [(p, a) for p in engine.players for a in engine.legal_actions(p)]
            if not moves:
                break
            player, action = rng.choice(moves)
            engine.apply(player, action)
            table.bump()


@pytest.mark.parametrize("case", CASES)
def test_every_legal_action_is_reachable_at_many_states(case: str) -> None:
    """Pure, on random states of random games: every legal action of every seat is reachable by clicks."""
    kind = case_options(case)[0]
    ui = UIS[kind]()
    key = ACTION_KEYS.get(kind, action_key)
    problems: list[str] = []
    for table in random_states(kind, 400, case=case):
        for player in table.engine.players:
            problems += reachability_problems(ui, table, player, key=key, excuse=KNOWN_GAPS.get(kind))
        assert not problems, "\n".join(dict.fromkeys(problems))


@pytest.mark.parametrize("kind", sorted(KNOWN_GAPS))
def test_known_gaps_are_still_real(kind: str) -> None:
    """Each excused gap still happens (else its KNOWN_GAPS entry must go): some legal action it excuses
    is truly out of reach by clicks at some random state."""
    ui = UIS[kind]()
    key = ACTION_KEYS.get(kind, action_key)
    for table in random_states(kind, 400, seed=3):
        for player in table.engine.players:
            excused: list[dict] = []
            reachability_problems(ui, table, player, key=key, excuse=KNOWN_GAPS[kind], excused=excused)
            if excused:
                return
    pytest.fail(f"KNOWN_GAPS[{kind!r}] excuses nothing any more: the UI reaches those actions now; remove the entry")


@pytest.mark.parametrize("kind", KINDS)
def test_the_reachability_check_catches_a_dropped_button(kind: str) -> None:
    """A UI that drops one button that leads to a unique action is caught (the check can fail)."""
    good = UIS[kind]()
    key = ACTION_KEYS.get(kind, action_key)
    for table in random_states(kind, 400, seed=7):
        player = table.engine.players[0]
        reached = explore_board(good, table, player).actions
        keys = [key(a) for _, a in reached]
        root = [(path, a) for path, a in reached if " > " not in path and keys.count(key(a)) == 1]
        legal = {key(a) for a in table.engine.legal_actions(player)}
        root = [(path, a) for path, a in root if key(a) in legal]
        if root:
            break
    else:
        pytest.fail(f"no state of {kind} had a board button leading straight to a unique action")
    dropped_token, dropped = root[0]

    class DropsOneButton(UIS[kind]):  # type: ignore[misc, valid-type]
        """The game's UI with one button (or menu option) fewer."""

        def board(self, table, player, selection=None):
            board = super().board(table, player, selection)
            items = []
            for item in board.buttons:
                if hasattr(item, "options"):
                    options = [o for o in item.options if o.token != dropped_token]
                    if options:
                        items.append(dataclasses.replace(item, options=options))
                elif item.token != dropped_token:
                    items.append(item)
            return dataclasses.replace(board, buttons=items)

    assert not reachability_problems(good, table, player, key=key, excuse=KNOWN_GAPS.get(kind))
    problems = reachability_problems(DropsOneButton(), table, player, key=key, excuse=KNOWN_GAPS.get(kind))
    assert any("not reachable" in p and str(dropped) in p for p in problems), problems


@dataclasses.dataclass
class FakeBoard:
    """A board-like object the production ``Board`` would refuse to build (it checks limits itself)."""

    text: str
    buttons: list


@pytest.mark.parametrize("kind", KINDS)
def test_the_board_check_catches_a_board_beyond_discord_limits(kind: str) -> None:
    """26 buttons, or an 81-character label, are caught before the table would render them (or ``Board`` refuses)."""
    table = next(iter(random_states(kind, 1)))
    player = table.engine.players[0]
    board = UIS[kind]().board(table, player)
    assert not board_problems(board, "board")
    button = next(b for b in board.buttons if not hasattr(b, "options"))
    assert not board_problems(FakeBoard(board.text, [button]), "board")
    crowded = [dataclasses.replace(button, token=f"t{i}", row=None) for i in range(26)]
    assert any("26 components" in p for p in board_problems(FakeBoard(board.text, crowded), "board"))
    wordy = dataclasses.replace(button, label="x")
    object.__setattr__(wordy, "label", "x" * 81)  # past BoardButton's own check, as an older kit allowed
    assert any("81 characters" in p for p in board_problems(FakeBoard(board.text, [wordy]), "board"))
    with pytest.raises(ValueError):  # and the kit refuses such boards loudly itself
        Board(board.text, crowded)


def test_the_message_check_catches_what_discord_refuses() -> None:
    """Content, rows, buttons per row, labels, custom ids and select options over Discord's limits are named."""
    def button(i: int, label: str = "ok", cid: str | None = None) -> dict:
        return {"type": 2, "style": 1, "label": label, "custom_id": cid or f"b{i}"}

    assert message_problems("x" * 2000, [{"type": 1, "components": [button(i) for i in range(5)]}]) == []
    problems = message_problems("x" * 2001, [{"type": 1, "components": [button(i + 10 * r) for i in range(6)]}
                                             for r in range(6)])
    assert any("2001 characters" in p for p in problems)
    assert any("6 action rows" in p for p in problems)
    assert any("6 buttons" in p for p in problems)
    problems = message_problems("", [{"type": 1, "components": [button(0, "y" * 81, "c" * 101)]},
                                     {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
                                         {"label": str(i), "value": str(i)} for i in range(26)]}]}])
    assert any("label of 81" in p for p in problems)
    assert any("custom id of 101" in p for p in problems)
    assert any("26 options" in p for p in problems)


def test_the_message_check_catches_what_discord_refuses_in_a_v2_layout() -> None:
    """A V2 layout: content, more than 40 components (nested ones counted), more than 4,000
    characters of text, and a crowded row inside a container are named.
    """
    def button(i: int) -> dict:
        return {"type": 2, "style": 1, "label": "ok", "custom_id": f"b{i}"}

    def container(*children: dict) -> list[dict]:
        return [{"type": 17, "accent_color": 1, "components": list(children)}]

    rows = [{"type": 1, "components": [button(i + 5 * r) for i in range(5)]} for r in range(6)]  # 36
    assert message_problems(None, container(*rows, {"type": 10, "content": "x" * 4000}), v2=True) == []
    problems = message_problems("hi", container(*rows, *[{"type": 10, "content": "x" * 1001}] * 4), v2=True)
    assert any("content" in p for p in problems)
    assert any("41 components" in p for p in problems)
    assert any("4004 characters" in p for p in problems)
    crowded = {"type": 1, "components": [button(i) for i in range(6)]}
    assert any("6 buttons" in p for p in message_problems(None, container(crowded), v2=True))


@pytest.mark.parametrize("kind", KINDS)
def test_the_hidden_card_check_catches_a_card_in_a_custom_id(kind: str) -> None:
    """A custom id naming a card the viewer has not seen (one in a hand) is caught; a card in their view is not."""
    table = offline_table(kind, 5, people=2)
    hidden = HiddenCards()
    hidden.observe(table.engine)
    me = table.engine.players[0]
    while not hidden.seen[me] and not table.engine.is_over:  # everything dealt face down (Blitzkrieg): play on
        player = table.engine.to_act()[0]
        table.engine.apply(player, table.engine.legal_actions(player)[0])
        hidden.observe(table.engine)
    unseen = sorted(hidden.cards - hidden.seen[me])
    seen = sorted(hidden.seen[me])
    assert unseen and seen, "no hidden card, or no card in view, at the start of a game?"
    assert hidden.problems(me, [f"parlor:move:1:v2:c:{seen[0]}"], "board") == []
    assert hidden.problems(me, [f"parlor:move:1:v2:c:{unseen[0]}"], "board")
    assert hidden.problems(None, [f"parlor:pub:1:{unseen[-1]}"], "table")


def _labelled(board: Board, label: str) -> str:
    """The token of the board's button (or menu option) labelled *label*."""
    for item in board.buttons:
        options = getattr(item, "options", None)
        for choice in options if options is not None else [item]:
            if choice.label == label:
                return choice.token
    raise AssertionError(f"no {label!r} on the board: {[getattr(i, 'label', None) for i in board.buttons]}")


def test_a_swap_may_name_its_two_cards_in_either_order() -> None:
    """Dutch's Q swap (issue #30, item 10): Bob, after "my cards, card 2" as the first card, is offered
    Ann's cards too (her seat is before his) as the second; the swap made is the engine's (its two cards
    in seat order), the same as naming them the other way round."""
    from tests.games.dutch.helpers import prepared

    game = prepared({"ann": ["5H", "KS", "9D", "AC"], "bob": ["5S", "2D", "QH", "7C"],
                     "cat": ["3H", "JD", "10S", "X1"]}, deck=["QC"], turn=1)
    game.apply("bob", {"type": "draw"})
    game.apply("bob", {"type": "discard"})
    table = offline_table("dutch", 1)
    table.seats = [Seat(p, i, None, p) for i, p in enumerate(game.players, start=1)]
    table.engine = game
    ui = UIS["dutch"]()
    board = ui.board(table, "bob")
    for label in ("Swap two cards", "my cards", "card 2", "ann's cards"):  # ann is offered after bob's card
        click = ui.on_board_click(table, "bob", _labelled(board, label))
        board = ui.board(table, "bob", click.selection)
    click = ui.on_board_click(table, "bob", _labelled(board, "card 4"))
    assert click.action == {"type": "power_swap", "first": {"player": "ann", "position": 3},
                            "second": {"player": "bob", "position": 1}}, click.action
    events = game.apply("bob", click.action)
    assert game.hands["ann"][3] == "2D" and game.hands["bob"][1] == "AC" and events
