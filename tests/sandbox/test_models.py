"""Unit tests of the sandbox's data and limit checks (no server, no client)."""

from __future__ import annotations

import discord.gateway
import discord.http
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import FakeDiscord, FakeMessage, FakeUser, make_snowflake, pointed_at
from sandbox.limits import validate_message, validate_modal
from sandbox.models import DISCORD_EPOCH_MS, snowflake_time_ms


@given(st.integers(min_value=DISCORD_EPOCH_MS, max_value=DISCORD_EPOCH_MS + (1 << 41)))
def test_snowflake_carries_its_time(at_ms):
    """Any time after Discord's epoch survives the trip into a snowflake and back."""
    assert snowflake_time_ms(make_snowflake(at_ms)) == at_ms


def test_snowflakes_in_one_millisecond_differ_and_increase():
    """Ids made in the same millisecond are distinct and sort in creation order."""
    ids = [make_snowflake(1_700_000_000_000) for _ in range(50)]
    assert ids == sorted(set(ids))


def test_snowflake_before_epoch_refused():
    """A time before 2015 cannot be a snowflake."""
    with pytest.raises(ValueError, match="before Discord's epoch"):
        make_snowflake(DISCORD_EPOCH_MS - 1)


def _row(*components):
    return {"type": 1, "components": list(components)}


def _select(n_options, **extra):
    options = [{"label": f"o{i}", "value": str(i)} for i in range(n_options)]
    return {"type": 3, "custom_id": "pick", "options": options, **extra}


def test_26_select_options_refused():
    """A string select takes at most 25 options."""
    assert validate_message({"components": [_row(_select(25))]}) is None
    errors = validate_message({"components": [_row(_select(26))]})
    assert errors["components"]["0"]["components"]["0"]["options"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"


def test_81_char_label_refused():
    """A button label of 81 characters is refused; 80 passes."""
    ok = {"type": 2, "style": 1, "custom_id": "b", "label": "L" * 80}
    assert validate_message({"components": [_row(ok)]}) is None
    assert validate_message({"components": [_row({**ok, "label": "L" * 81})]}) is not None


def test_select_shares_no_row():
    """A select fills its action row alone."""
    button = {"type": 2, "style": 1, "custom_id": "b", "label": "b"}
    assert validate_message({"components": [_row(_select(2), button)]}) is not None


def test_link_button_needs_url_not_custom_id():
    """Link buttons (style 5) carry a url and no custom_id."""
    assert validate_message({"components": [_row({"type": 2, "style": 5, "label": "x", "url": "https://x"})]}) is None
    assert validate_message({"components": [_row({"type": 2, "style": 5, "label": "x"})]}) is not None


def test_embed_field_limits():
    """Embeds: 25 fields, field value 1024 characters, title 256."""
    assert validate_message({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}) is not None
    assert validate_message({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}) is not None
    assert validate_message({"embeds": [{"title": "t" * 257}]}) is not None


def test_components_v2_total_and_legacy_fields():
    """A V2 message holds at most 40 components and no content."""
    v2 = 1 << 15
    texts = [{"type": 10, "content": "x"} for _ in range(40)]
    assert validate_message({"flags": v2, "components": texts}) is None
    assert validate_message({"flags": v2, "components": [*texts, {"type": 10, "content": "y"}]}) is not None
    assert validate_message({"flags": v2, "content": "hi", "components": texts[:1]}) is not None


def test_modal_limits():
    """Modal titles stop at 45 characters and text-input custom_ids must be unique."""
    field = {"type": 4, "custom_id": "a", "label": "A", "style": 1}
    assert validate_modal({"title": "T", "custom_id": "m", "components": [_row(field)]}) is None
    assert validate_modal({"title": "T" * 46, "custom_id": "m", "components": [_row(field)]}) is not None
    assert validate_modal({"title": "T", "custom_id": "m", "components": [_row(field), _row(dict(field))]})


def test_message_helpers_find_buttons_and_text():
    """FakeMessage finds buttons by custom_id or label and gathers text from content and embeds."""
    msg = FakeMessage(id=1, channel_id=2, guild_id=3, author=FakeUser(4, "bot", bot=True), content="hi",
                      embeds=[{"title": "Table", "fields": [{"name": "Seats", "value": "4"}]}],
                      components=[_row({"type": 2, "style": 1, "custom_id": "j", "label": "Join"})])
    assert msg.button("Join") == msg.button("j")
    assert msg.text.split("\n") == ["hi", "Table", "Seats", "4"]
    with pytest.raises(LookupError, match="Join"):
        msg.button("Leave")


def test_pointed_at_points_discord_py_and_restores_it():
    """pointed_at aims discord.py's REST base and gateway at the fake and puts the real ones back."""
    fake = FakeDiscord(port=9)
    with pointed_at(fake):
        assert discord.http.Route.BASE == fake.api_base
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fake.gateway_url
    assert discord.http.Route.BASE == "https://discord.com/api/v10"


def test_discord_deadlines_are_the_defaults():
    """Unless a test shortens them, the first response has 3 s and a token lives 15 minutes."""
    fake = FakeDiscord()
    assert (fake.interaction_deadline_s, fake.token_lifetime_s) == (3.0, 900.0)


def test_check_clean_reports_unexpected_errors_only():
    """check_clean passes over allowed errors and fails on the rest, listing them."""
    fake = FakeDiscord()
    fake.errors += ["403 POST /channels/1/threads: 50013", "400 POST /channels/1/messages: 50035"]
    with pytest.raises(AssertionError, match="50035"):
        fake.check_clean("50013")
    fake.check_clean("50013", "50035")
