"""Every game's coach (``Game.coach``, ``/learn``): each kind of legal move explained with its rule, the
others' moves told, and no hidden card named (``docs/tables.md``, "Learning a game").

Played on seeded random games of every registered game, the coach asked at every state for every seat.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.engine import GAMES, Event
from bot.engine.coach import Lesson, Moment, load_coach, plain_coach, said_by_others
from bot.engine.game import Game
from tests.e2e.ui_conformance import engine_cards

SEEDS = range(4)
STEPS = 250
RULE = re.compile(r"§\d+")


def labels_in(node: Any) -> set[str]:
    """Every card label (``"10♠"``, ``"🟩3"``) in a view or an event's data."""
    out: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("label"), str) and "id" in item:
                out.add(item["label"])
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            out.add(item)  # a line a battle wrote (Blitzkrieg): the cards it names are shown to all
    return out


def named(label: str, text: str) -> bool:
    """Whether *text* names the card *label* (``"10♠"`` is not the ``"0♠"``, ``"🟩10"`` not the ``"🟩1"``)."""
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(label) + r"(?!\d)", text) is not None


def played(game: Game, seed: int, players: int):
    """Yield ``(engine, told)`` at every state of a seeded random game, *told* the moves so far as
    ``(player, public events)``."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    engine = game.engine.new(ids, seed=seed, options=game.engine.Options(**game.quick_options))
    told: list[tuple[str, tuple[Event, ...]]] = []
    for _ in range(STEPS):
        yield engine, told
        movers = [p for p in ids if engine.legal_actions(p)]
        if engine.is_over or not movers:
            return
        player = rng.choice(movers)
        events = engine.apply(player, rng.choice(engine.legal_actions(player)))
        told.append((player, tuple(e for e in events if e.audience is None)))


def since(told: list[tuple[str, tuple[Event, ...]]], me: str) -> list[tuple[str, tuple[Event, ...]]]:
    out = []
    for who, events in reversed(told):
        if who == me:
            break
        out.append((who, events))
    return out[::-1]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_game_declares_a_coach(kind: str) -> None:
    """A practice table of every registered game is coached by a coach of its own."""
    assert GAMES[kind].coach, f"{kind} declares no coach"
    assert callable(load_coach(GAMES[kind].coach))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_coach_explains_every_kind_of_legal_move_with_its_rule_and_names_no_hidden_card(kind: str) -> None:
    """At every state, for every seat: each kind of legal move has an explanation citing a rule section;
    the others' moves since the seat's last are told; every card the lesson names is one the seat
    sees in its own view or in those public events."""
    game = GAMES[kind]
    coach = load_coach(game.coach)
    kinds: set[str] = set()
    told_lines = 0
    for seed in SEEDS:
        for engine, told in played(game, seed, players=2):
            cards = engine_cards(engine)
            for me in engine.players:
                legal = engine.legal_actions(me)
                moves = since(told, me)
                view = engine.view(me)
                lesson = coach(Moment(me, view, legal, moves, str))
                assert isinstance(lesson, Lesson)
                explained = dict(lesson.options)
                for action in legal:
                    kinds.add(action["type"])
                    words = explained.get(action["type"])
                    assert words, f"{kind}: no explanation of {action['type']!r} for {me}"
                    assert RULE.search(words) or "docs/rules" in words, f"{kind}: {words!r} cites no rule"
                told_lines += len(lesson.others)
                text = "\n".join(lesson.lines())
                shown = labels_in(view) | {x for _, events in moves for e in events for x in labels_in(e.data)}
                hidden = [label for label in set(cards.values()) - shown if named(label, text)
                          and not any(named(label, line) for line in shown)]  # a public line names it
                assert not hidden, f"{kind} seed {seed}: the coach names {hidden} to {me}:\n{text}"
    assert kinds, f"{kind}: no legal move was ever offered"
    assert told_lines, f"{kind}: the coach never told a move of the others"


def test_the_plain_coach_names_each_kind_of_move_once() -> None:
    """A game that declares no coach still gets one line per kind of legal move."""
    lesson = plain_coach(Moment("p0", {}, [{"type": "play", "card": 1}, {"type": "play", "card": 2},
                                           {"type": "pass"}]))
    assert [kind for kind, _ in lesson.options] == ["play", "pass"]
    assert lesson.lines()[0] == "**You may now:**"


def test_the_others_part_tells_only_the_others_newest_moves() -> None:
    """``said_by_others``: the learner's own moves are left out, and only the newest lines kept."""
    moves = [("bot1", (Event("a", {"n": 1}),)), ("me", (Event("a", {"n": 2}),)),
             ("bot1", (Event("a", {"n": 3}), Event("a", {"n": 4})))]
    lines = said_by_others(moves, "me", lambda _player, event: f"move {event.data['n']}", most=2)
    assert lines == ("move 3", "move 4")


def test_a_declared_coach_must_be_module_and_function() -> None:
    """A declaration naming its coach otherwise is refused when the game is declared."""
    game = GAMES["blitz"]
    with pytest.raises(ValueError, match="coach must be 'module:function'"):
        Game(engine=game.engine, bots=game.bots, summary="s", ui=game.ui, command="c", coach="no_colon")
    with pytest.raises(TypeError):
        load_coach("bot.engine.coach:nothing_here")
