"""The quick answers games and bots give the simulator agree with the slow ones they stand for.

* :meth:`Engine.can_act <bot.engine.core.Engine.can_act>` equals ``bool(legal_actions(player))`` for
  every seat in every state reached in seeded bot games and random games of every registered game
  (both Dutch rule sets, Dutch Blitz with and without the stuck rule).
* :meth:`Bot.chooses_nothing <bot.engine.bots.Bot.chooses_nothing>` answers ``True`` only when
  :meth:`~bot.engine.bots.Bot.choose` returns ``None`` for that view and those actions, without
  drawing from the bot's RNG or changing its memory.
* :meth:`Bot.is_idle <bot.engine.bots.Bot.is_idle>` answers ``True`` only when the seat has no legal action
  or :meth:`~bot.engine.bots.Bot.choose_lazily` returns ``None`` for its legal actions, without drawing from
  the bot's RNG or changing its memory.
* :meth:`Bot.choose_lazily <bot.engine.bots.Bot.choose_lazily>` (what the simulator asks) gives the
  same action as :meth:`~bot.engine.bots.Bot.choose` with the view, and leaves the bot's RNG and
  memory as :meth:`~bot.engine.bots.Bot.choose` does, whether it asked for the view or not.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.engine import REGISTRY, get_game
from bot.engine.bots import Bot
from bot.engine.core import Action, Engine, Event
from bot.engine.simulate import play_game
from tests.engine import conformance

# (kind, options) of the bot games: every game with its defaults, and the other rule sets.
BOT_GAMES: list[tuple[str, dict[str, Any] | None]] = [
    *((kind, None) for kind in sorted(REGISTRY)),
    ("dutch", {"variant": "aggressive"}),
    ("dutch-blitz", {"stuck_seconds": 0}),
]
SEEDS = range(1, 4)


def _check_can_act(engine: Engine) -> None:
    for player in engine.players:
        assert engine.can_act(player) == bool(engine.legal_actions(player)), (
            f"{engine.kind}: can_act({player!r}) disagrees with legal_actions after "
            f"{engine.action_count} actions")


def _checking_engine(engine_cls: type[Engine]) -> type[Engine]:
    """*engine_cls*, checking :func:`_check_can_act` after the deal and after every move, refused or not."""

    class Checked(engine_cls):  # type: ignore[misc,valid-type]
        def _setup(self) -> Any:
            events = super()._setup()
            _check_can_act(self)
            return events

        def apply(self, player: str, action: Action) -> list[Event]:
            try:
                return super().apply(player, action)
            finally:
                _check_can_act(self)

    return Checked


def _checking_bot(bot_cls: type[Bot]) -> type[Bot]:
    """*bot_cls*, proving each ``True`` of :meth:`~bot.engine.bots.Bot.chooses_nothing` on a copy of itself."""

    class Checked(bot_cls):  # type: ignore[misc,valid-type]
        engine: Engine | None = None
        proved = 0

        def chooses_nothing(self, legal: Sequence[Action]) -> bool:
            answer = super().chooses_nothing(legal)
            if answer:
                assert self.engine is not None
                twin = copy.deepcopy(self)
                before = pickle.dumps(twin.__dict__)
                choice = bot_cls.choose(twin, self.engine.view(self.player), legal)
                assert choice is None, f"{bot_cls.__name__} chose {choice} after answering it chooses nothing"
                assert pickle.dumps(twin.__dict__) == before, f"{bot_cls.__name__}: choose changed its RNG or memory"
                type(self).proved += 1
            return answer

    return Checked


def _idle_checking_bot(bot_cls: type[Bot], plain: type[Bot] | None = None) -> type[Bot]:
    """*bot_cls*, proving each ``True`` of :meth:`~bot.engine.bots.Bot.is_idle` on a copy of itself: the seat
    has no legal action, or the plain bot (*plain*, default *bot_cls*) chooses nothing for them.
    """
    plain_cls = plain or bot_cls

    class Checked(bot_cls):  # type: ignore[misc,valid-type]
        engine: Engine | None = None
        idled = 0

        def is_idle(self) -> bool:
            answer = super().is_idle()
            if answer:
                engine = self.engine
                assert engine is not None
                legal = engine.legal_actions(self.player)
                if legal:
                    twin = copy.deepcopy(self)
                    twin.__class__ = plain_cls
                    before = pickle.dumps(twin.__dict__)
                    choice = twin.choose_lazily(legal, lambda: engine.view(self.player))
                    assert choice is None, f"{plain_cls.__name__} chose {choice} after answering it is idle"
                    assert pickle.dumps(twin.__dict__) == before, (
                        f"{plain_cls.__name__}: choose_lazily changed its RNG or memory after is_idle")
                    plain_choice = plain_cls.choose(twin, engine.view(self.player), legal)
                    assert plain_choice is None, f"{plain_cls.__name__}: choose chose {plain_choice} while idle"
                    assert pickle.dumps(twin.__dict__) == before, (
                        f"{plain_cls.__name__}: choose changed its RNG or memory after is_idle")
                type(self).idled += 1
            return answer

    return Checked


def _handing_engine(engine_cls: type[Engine], checked: type[Bot]) -> type[Engine]:
    """*engine_cls*, handing each new game to the checking bot class *checked* (it proves on that game's views)."""

    class Handing(engine_cls):  # type: ignore[misc,valid-type]
        def _setup(self) -> Any:
            checked.engine = self  # type: ignore[attr-defined]
            return super()._setup()

    return Handing


@pytest.mark.parametrize(("kind", "options"), BOT_GAMES)
def test_can_act_agrees_with_legal_actions_in_bot_games(kind: str, options: dict[str, Any] | None) -> None:
    """Every state of a few seeded games between each of the game's bots."""
    game = get_game(kind)
    engine_cls = _checking_engine(REGISTRY[kind])
    seats = min(4, engine_cls.max_players)
    players = [f"p{i}" for i in range(seats)]
    for name, bot_cls in game.bots.items():
        for seed in SEEDS:
            record = play_game(engine_cls, players, seed=seed, bot_classes=[bot_cls] * seats, options=options)
            assert record.stopped is None, f"{kind}/{name} seed {seed}: {record.stopped}"
            _check_can_act(record.engine)  # over: nobody may act
            assert not any(record.engine.can_act(p) for p in players)


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_can_act_agrees_with_legal_actions_in_random_games(kind: str) -> None:
    """Every state of the conformance suite's random play, for each player count it tries."""
    engine_cls = REGISTRY[kind]
    for n in conformance.player_counts(engine_cls):
        for seed in range(2):
            conformance.random_playthrough(engine_cls, conformance.player_ids(n), seed,
                                           check_each_step=lambda engine, pool: _check_can_act(engine))


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_can_act_refuses_a_player_who_is_not_seated(kind: str) -> None:
    """Like legal_actions, can_act raises ValueError for an id that is not seated."""
    engine_cls = REGISTRY[kind]
    engine = engine_cls.new(conformance.player_ids(engine_cls.min_players), seed=1)
    with pytest.raises(ValueError):
        engine.can_act("nobody")


@pytest.mark.parametrize(("kind", "options"), BOT_GAMES)
def test_chooses_nothing_is_only_said_when_choose_would_say_none(kind: str, options: dict[str, Any] | None) -> None:
    """Each ``True`` is proved by asking a copy of the bot, in seeded games; the games stay the same."""
    _plays_the_same_games(kind, options, _checking_bot)


def _plays_the_same_games(kind: str, options: dict[str, Any] | None,
                          checking: Callable[[type[Bot]], type[Bot]]) -> None:
    """Every bot of *kind*, wrapped by *checking* (which proves its answers as it plays), plays the
    seeded games exactly as the plain bot does."""
    game = get_game(kind)
    engine_cls = REGISTRY[kind]
    seats = min(4, engine_cls.max_players)
    players = [f"p{i}" for i in range(seats)]
    for name, bot_cls in game.bots.items():
        checked = checking(bot_cls)
        recorded = _handing_engine(engine_cls, checked)
        for seed in SEEDS:
            record = play_game(recorded, players, seed=seed, bot_classes=[checked] * seats, options=options)
            plain = play_game(engine_cls, players, seed=seed, bot_classes=[bot_cls] * seats, options=options)
            assert record.engine.log()["actions"] == plain.engine.log()["actions"], f"{kind}/{name} seed {seed}"


@pytest.mark.parametrize(("kind", "options"), BOT_GAMES)
def test_is_idle_is_only_said_when_the_bot_would_choose_nothing(kind: str, options: dict[str, Any] | None) -> None:
    """Each ``True`` is proved against the seat's legal actions and a copy of the bot, in seeded games; the
    games stay the same (a bot that keeps the default ``False`` is asked as before).
    """
    _plays_the_same_games(kind, options, _idle_checking_bot)


def test_the_dutch_bots_skip_most_asks_out_of_turn() -> None:
    """The Dutch bots wait without their view for most of a game's asks out of turn (the point of the hooks):
    the simulator does not even ask an idle bot (:meth:`~bot.engine.bots.Bot.is_idle`), and of the asks left,
    :meth:`~bot.engine.bots.Bot.chooses_nothing` answers some; each answer is proved.
    """
    game = get_game("dutch")
    plain = game.bots["perfect"]
    checked = _idle_checking_bot(_checking_bot(plain), plain)
    play_game(_handing_engine(REGISTRY["dutch"], checked), ["a", "b", "c", "d"], seed=1, bot_classes=[checked] * 4)
    assert checked.proved + checked.idled > 1000  # type: ignore[attr-defined]
    assert checked.idled > 1000  # type: ignore[attr-defined]


def _lazy_checking_bot(bot_cls: type[Bot]) -> type[Bot]:
    """*bot_cls*, proving each answer of :meth:`~bot.engine.bots.Bot.choose_lazily` against
    :meth:`~bot.engine.bots.Bot.choose` on a copy of itself; it counts the answers given without the view.
    """

    class Checked(bot_cls):  # type: ignore[misc,valid-type]
        engine: Engine | None = None
        blind = 0

        def choose_lazily(self, legal: Sequence[Action], view: Callable[[], dict[str, Any]]) -> Action | None:
            assert self.engine is not None
            twin = copy.deepcopy(self)
            twin.__class__ = bot_cls  # the plain bot (its choose may ask its own choose_lazily)
            asked: list[bool] = []

            def counted() -> dict[str, Any]:
                asked.append(True)
                return view()

            choice = super().choose_lazily(legal, counted)
            expected = twin.choose(self.engine.view(self.player), legal)
            assert choice == expected, f"{bot_cls.__name__}: choose_lazily chose {choice}, choose {expected}"
            assert pickle.dumps(self.__dict__) == pickle.dumps(twin.__dict__), (
                f"{bot_cls.__name__}: choose_lazily left its RNG or memory unlike choose")
            if not asked:
                type(self).blind += 1
            return choice

    return Checked


@pytest.mark.parametrize(("kind", "options"), BOT_GAMES)
def test_choose_lazily_chooses_as_choose_does(kind: str, options: dict[str, Any] | None) -> None:
    """Each answer is proved against ``choose`` with the view on a copy of the bot, in seeded games; the
    games stay the same as with the plain bots.
    """
    _plays_the_same_games(kind, options, _lazy_checking_bot)


def test_the_dutch_blitz_bots_choose_most_moves_without_the_view() -> None:
    """The greedy Dutch Blitz bot makes most of its choices from its legal actions alone (the point of the hook)."""
    game = get_game("dutch-blitz")
    checked = _lazy_checking_bot(game.bots["greedy"])
    play_game(_handing_engine(REGISTRY["dutch-blitz"], checked), ["a", "b", "c", "d"], seed=1,
              bot_classes=[checked] * 4)
    assert checked.blind > 500  # type: ignore[attr-defined]
