"""The action codec (bot/tables/codec.py): short, opaque, version-independent tokens (docs/tables.md)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import BlitzCard, blitz_deck, standard_deck
from bot.tables.cards import blitz_card, playing_card
from bot.tables.codec import ActionCodec, canonical_json, codec_for, derive_key, is_action_token
from bot.tables.table import TableError
from bot.tables.ui import TOKEN_PATTERN
from tests.tables.states import KINDS, new_engine, player_counts, random_states, table_for

CARD_IDS = sorted({c.id for c in standard_deck(2)} | {f"{c.id}1" for c in standard_deck()}
                  | {c.id for owner in range(8) for c in blitz_deck(owner)})
CARD_TEXTS = sorted({playing_card(i) for i in CARD_IDS if not i[0].isdigit() or i.startswith("10")}
                    | {blitz_card(c) for c in blitz_deck(0)})


def _no_card_in(token: str) -> None:
    assert re.fullmatch(r"k\.[a-z2-7]{12}", token), token  # no upper-case letter: no card id can hide in it
    assert not any(card_id in token for card_id in CARD_IDS)
    assert not any(text in token for text in CARD_TEXTS)


@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_action_round_trips_at_many_random_states(kind: str) -> None:
    """Every legal action of every player gets a distinct token ≤ 60 that decodes back to it; none names a card."""
    checked = 0
    for players in player_counts(kind):
        for seed in (1, 2, 3):
            engine = new_engine(kind, players, seed)
            table = table_for(engine, seed=1000 + seed)
            codecs = {p: codec_for(table, p) for p in engine.players}
            for state in random_states(engine, seed, every=3, limit=150):
                for player in state.players:
                    legal = state.legal_actions(player)
                    tokens = [codecs[player].token(a) for a in legal]
                    assert len(set(tokens)) == len(tokens), "two legal actions share a token"
                    for i, (action, token) in enumerate(zip(legal, tokens, strict=True)):
                        assert len(token) <= 60 and re.fullmatch(TOKEN_PATTERN, token)
                        _no_card_in(token)
                        if i % max(1, len(legal) // 12) == 0:  # decoding is linear: a dozen per state
                            assert codecs[player].decode(token, legal) == action
                        checked += 1
    assert checked > 60


def test_tokens_differ_between_tables_and_between_players() -> None:
    """The same action has another token at a table with another seed, and for another player."""
    action = {"type": "discard", "card": "QH"}
    engine = new_engine("blitz", 2, 1)
    one, other = table_for(engine, seed=11), table_for(engine, seed=12)
    assert codec_for(one, "u0").token(action) != codec_for(other, "u0").token(action)
    assert codec_for(one, "u0").token(action) != codec_for(one, "u1").token(action)
    assert codec_for(one, "u0").token(action) == codec_for(table_for(engine, seed=11), "u0").token(action)


def test_a_table_secret_takes_the_place_of_the_seed() -> None:
    """A table carrying a codec_secret keys its tokens with it rather than with its seed."""
    table = table_for(new_engine("blitz", 2, 1), seed=11)
    before = codec_for(table, "u0").token({"type": "knock"})
    assert codec_for(table, "u0").key == derive_key("11", "u0"), "an old table without a secret uses its seed"
    table.settings["secret"] = "5f0c3a9e8d7b6a5f4e3d2c1b0a998877"
    assert codec_for(table, "u0").token({"type": "knock"}) != before
    other = table_for(new_engine("blitz", 2, 1), seed=11)
    other.settings["secret"] = "00112233445566778899aabbccddeeff"
    assert codec_for(other, "u0").token({"type": "knock"}) != codec_for(table, "u0").token({"type": "knock"}), \
        "the same seed with another secret gives other tokens: the seed alone decides nothing"


def test_a_token_of_an_action_no_longer_legal_is_refused_with_a_reason() -> None:
    """Once the move is played (or the turn passed), its token matches nothing: TableError says why."""
    engine = new_engine("blitz", 2, 5)
    table = table_for(engine, seed=5)
    player = engine.to_act()[0]
    codec = codec_for(table, player)
    action = engine.legal_actions(player)[0]
    token = codec.token(action)
    engine.apply(player, action)
    with pytest.raises(TableError, match="no longer possible"):
        codec.decode(token, engine.legal_actions(player))
    with pytest.raises(TableError, match="no move to make right now"):
        codec.decode(token, [])
    with pytest.raises(TableError, match="not one of this game's moves"):
        codec.decode("a0", engine.legal_actions(player))


def test_a_token_survives_other_players_moves() -> None:
    """Dutch Blitz (everyone at once): a token drawn before another player moved still plays its move."""
    engine = new_engine("dutch-blitz", 4, 3)
    table = table_for(engine, seed=3)
    me, other = engine.players[0], engine.players[1]
    flip = {"type": "flip"}
    assert flip in engine.legal_actions(me)
    token = codec_for(table, me).token(flip)
    for _ in range(3):
        engine.apply(other, next(a for a in engine.legal_actions(other) if a["type"] == "flip"))
    assert codec_for(table, me).decode(token, engine.legal_actions(me)) == flip


def test_a_codec_key_must_be_long_enough() -> None:
    """A key shorter than 16 bytes is refused."""
    with pytest.raises(ValueError, match="16 bytes"):
        ActionCodec(b"short")


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
ACTIONS = st.builds(lambda t, rest: {"type": t, **rest}, st.text(min_size=1, max_size=10),
                    st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: k != "type"), JSON, max_size=4))


@settings(max_examples=150, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=12, unique_by=canonical_json), st.binary(min_size=16, max_size=40))
def test_any_json_action_round_trips(actions: list[dict], key: bytes) -> None:
    """Whatever JSON an action holds, its token has the codec's shape and decodes back; key order is irrelevant."""
    codec = ActionCodec(key)
    for action in actions:
        token = codec.token(action)
        assert is_action_token(token) and re.fullmatch(TOKEN_PATTERN, token)
        assert codec.decode(token, actions) == action
        assert codec.token(dict(reversed(list(action.items())))) == token


def test_blitz_card_ids_are_upper_case_so_tokens_cannot_hold_them() -> None:
    """The structural guarantee the shape check relies on: every card id holds an upper-case letter."""
    assert all(any(ch.isupper() for ch in card_id) for card_id in CARD_IDS)
    assert BlitzCard(7, "green", 10).id == "7G10"


def test_an_intent_round_trips_and_an_unknown_one_is_refused() -> None:
    """A game UI's own button meanings (intents) get opaque, keyed tokens decoded against its vocabulary."""
    from bot.tables.codec import is_intent_token

    table = table_for(new_engine("dutch-blitz", 2, 1), seed=3)
    codec = codec_for(table, "u0")
    vocabulary = [{"card": "wood"}, {"card": "post:0"}, {"post": "blitz", "to": 2}, {"do": "flip"}]
    tokens = [codec.intent_token(i) for i in vocabulary]
    assert len(set(tokens)) == len(tokens) and all(is_intent_token(t) and len(t) == 14 for t in tokens)
    assert all(re.fullmatch(TOKEN_PATTERN, t) for t in tokens)
    assert [codec.decode_intent(t, vocabulary) for t in tokens] == vocabulary
    assert codec_for(table, "u1").intent_token({"card": "wood"}) != tokens[0], "each player's tokens differ"
    assert codec.intent_token({"to": 2, "post": "blitz"}) == tokens[2], "key order does not matter"
    with pytest.raises(TableError, match="older board"):
        codec.decode_intent(tokens[0], vocabulary[1:])
    with pytest.raises(TableError, match="older board"):
        codec.decode_intent("c:wood", vocabulary)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.one_of(st.booleans(), st.integers(), st.text(max_size=5),
                                                                 st.none(), st.lists(st.integers(), max_size=2)),
                                max_size=4), max_size=8))
def test_remembered_tokens_are_the_tokens_made_afresh(values: list[dict]) -> None:
    """The codec remembers tokens (a board redraws the same buttons); a remembered one is the same
    token as a fresh codec makes, and True and 1 (equal in Python, not in JSON) keep their own."""
    remembering = ActionCodec(b"m" * 32)
    for value in values * 2:
        assert remembering.token(value) == ActionCodec(b"m" * 32).token(value)
        assert remembering.intent_token(value) == ActionCodec(b"m" * 32).intent_token(value)
    assert remembering.token({"x": True}) != remembering.token({"x": 1})
    assert remembering.token({"x": 1.0}) != remembering.token({"x": 1})
