"""Slash commands, buttons, selects, modals and interaction responses through the real client."""

from __future__ import annotations

import asyncio
import datetime as dt

import discord
import pytest

from sandbox import snowflake_time_ms

from .conftest import DEADLINE_S


async def test_sync_stores_group_with_subcommand_options(fake, world, bot):
    """The synced tree is kept: the Group, its subcommand and the subcommand's options with types."""
    (cmd,) = [c for c in fake.commands() if c["name"] == "dutch-blitz"]
    new = next(o for o in cmd["options"] if o["name"] == "new")
    assert new["type"] == 1
    seats = next(o for o in new["options"] if o["name"] == "seats")
    assert (seats["type"], seats["required"], seats["min_value"], seats["max_value"]) == (4, True, 2, 4)


async def test_slash_subcommand_answers_with_view(fake, world, bot):
    """/dutch-blitz new seats:4 reaches the subcommand; its reply carries the persistent view's buttons."""
    result = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=4, speed="fast")
    assert result.response_type == 4 and not result.failed
    assert result.content == "New table: 4 seats, fast"
    labels = [b.label for b in result.message.buttons]
    assert labels == ["Join", "Deal", "Open my board"]
    assert result.message.selects[0].options == (("red", "red"), ("blue", "blue"), ("green", "green"))


async def test_slash_nested_group_subcommand(fake, world, bot):
    """A subcommand inside a nested group (/dutch-blitz admin close) is routed with its option."""
    result = await fake.slash(world.alice, world.channel, "dutch-blitz admin close", table=12)
    assert result.content == "closed 12" and result.ephemeral


async def test_slash_refuses_unknown_option_and_missing_required(fake, world, bot):
    """Options the synced command does not have, or a missing required one, are refused before sending."""
    with pytest.raises(ValueError, match="no options"):
        await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2, colour="red")
    with pytest.raises(ValueError, match="needs option 'seats'"):
        await fake.slash(world.alice, world.channel, "dutch-blitz new")


async def test_click_updates_message_in_place(fake, world, bot):
    """Clicking Join answers with type 7 and the same message now shows the player."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    click = await fake.click(world.bob, table.message, "Join")
    assert click.response_type == 7
    assert click.message.id == table.message.id
    assert fake.message(table.message.id).content == "Players: bob"
    assert fake.edits(world.channel, via="interaction")[-1].message_id == table.message.id
    assert len(fake.edits(message=table.message)) == 1 and fake.edits(message=click.message.id + 1) == []


async def test_dynamic_item_button_reply_is_ephemeral_to_clicker_only(fake, world, bot):
    """The DynamicItem's ephemeral board is visible to its clicker only, and others cannot click it."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    board = await fake.click(world.alice, table.message, "sb:open:7:v1")
    assert board.ephemeral and board.content == "board of table 7 v1"
    assert board.message in fake.messages(world.channel, visible_to=world.alice)
    assert board.message not in fake.messages(world.channel, visible_to=world.bob)
    assert board.message not in fake.messages(world.channel)
    with pytest.raises(PermissionError):
        await fake.click(world.bob, board.message, "anything")


async def test_select_menu_value_reaches_bot(fake, world, bot):
    """Picking a select option arrives as the select's values and the bot edits the message."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    picked = await fake.select(world.alice, table.message, "sb:colour", ["blue"])
    assert picked.response_type == 7
    assert fake.message(table.message.id).content == "Colour: blue"


async def test_select_refuses_value_not_offered(fake, world, bot):
    """A value the menu does not offer cannot be picked."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    with pytest.raises(ValueError, match="no options"):
        await fake.select(world.alice, table.message, "sb:colour", ["purple"])


async def test_modal_round_trip(fake, world, bot):
    """A type-9 modal is recorded; submitting it delivers the typed text to the modal's on_submit."""
    opened = await fake.slash(world.alice, world.channel, "rename")
    assert opened.response_type == 9 and opened.modal["title"] == "Rename the table"
    submitted = await fake.submit_modal(world.alice, opened, {"sb:name": "Blue room"})
    assert submitted.content == "renamed to Blue room"


async def test_deferred_response_then_original_edit_and_followups(fake, world, bot):
    """defer(thinking) shows a loading message; the @original edit fills it; follow-ups keep their visibility."""
    result = await fake.slash(world.alice, world.channel, "work")
    assert result.response_type == 5
    await fake.wait_for(lambda: len(result.followups) == 2, what="two follow-ups")
    original = fake.message(result.message.id)
    assert original.content == "work done" and not original.loading
    private, public = result.followups
    assert private.ephemeral and private in fake.messages(world.channel, visible_to=world.alice)
    assert private not in fake.messages(world.channel, visible_to=world.bob)
    assert not public.ephemeral and public.content == "public note"


async def test_first_followup_fills_private_thinking_message(fake, world, bot):
    """After defer(ephemeral, thinking) the first follow-up replaces the loading message and stays private."""
    result = await fake.slash(world.alice, world.channel, "quietwork")
    assert result.response_type == 5 and result.message.loading and result.ephemeral
    await fake.wait_for(lambda: result.followups, what="the follow-up")
    assert result.followups[0].id == result.message.id
    assert result.message.content == "secret result" and not result.message.loading and result.ephemeral
    assert result.message not in fake.messages(world.channel, visible_to=world.bob)


async def test_first_followup_after_a_public_deferral_is_public_whatever_it_asks(fake, world, bot):
    """As on Discord: the first follow-up after defer(thinking) fills the deferral's loading message and so
    takes its visibility: public after a public deferral even with ephemeral=True. Later follow-ups are
    new messages with their own flags."""
    result = await fake.slash(world.alice, world.channel, "loudwork")
    assert result.response_type == 5 and result.message.loading and not result.ephemeral
    await fake.wait_for(lambda: len(result.followups) == 2, what="the follow-ups")
    first, second = result.followups
    assert first.id == result.message.id and first.content == "meant for you alone"
    assert not first.ephemeral and first in fake.messages(world.channel, visible_to=world.bob)
    assert second.ephemeral and second not in fake.messages(world.channel, visible_to=world.bob)


async def test_interaction_id_carries_chosen_timestamp(fake, world, bot):
    """The interaction id's snowflake time is the test's created_at_ms, and discord.py reads it back."""
    at_ms = fake.now_ms() - 100  # (a time long past would leave no time before Discord's deadline)
    result = await fake.slash(world.alice, world.channel, "ping", created_at_ms=at_ms)
    assert snowflake_time_ms(result.id) == at_ms == result.created_at_ms
    seen = next(i for i in bot.seen if i.id == result.id)
    assert seen.created_at == dt.datetime.fromtimestamp(at_ms / 1000, dt.UTC)


async def test_the_deadline_runs_from_the_interactions_creation(fake, world, bot):
    """An interaction created before it is sent has less time left: an answer in time for a fresh one
    (0.4 of the deadline) is too late for one created 0.8 of the deadline earlier."""
    created = fake.now_ms() - int(DEADLINE_S * 800)
    result = await fake.slash(world.alice, world.channel, "slow", delay=DEADLINE_S * 0.4, created_at_ms=created)
    assert result.failed and result.response_type is None
    fresh = await fake.slash(world.alice, world.channel, "slow", delay=DEADLINE_S * 0.4)
    assert not fresh.failed


async def test_late_first_response_is_failed(fake, world, bot):
    """An answer after the deadline is refused with 404 Unknown interaction and the interaction failed."""
    result = await fake.slash(world.alice, world.channel, "slow", delay=DEADLINE_S + 0.2)
    assert result.failed and result.response_type is None
    await fake.wait_for(lambda: bot.failures, what="the bot's late callback")
    assert isinstance(bot.failures[0], discord.NotFound) and bot.failures[0].code == 10062
    assert any("late first response" in e for e in result.errors)


async def test_unanswered_interaction_shows_as_failed(fake, world, bot):
    """A command that never answers is recorded as 'This interaction failed' after the deadline."""
    result = await fake.slash(world.alice, world.channel, "silent")
    assert result.failed
    assert result.errors[0].startswith("This interaction failed")
    assert result.errors[0] in fake.errors


async def test_answer_within_deadline_is_not_failed(fake, world, bot):
    """A response a little after sending but inside the deadline counts."""
    result = await fake.slash(world.alice, world.channel, "slow", delay=DEADLINE_S / 4)
    assert result.response_type == 4 and not result.failed and result.content == "finally"


async def test_second_response_is_already_acknowledged(fake, world, bot):
    """A second callback for one interaction gets Discord's 400 (40060)."""
    await fake.slash(world.alice, world.channel, "twice")
    await fake.wait_for(lambda: bot.failures, what="the second callback's error")
    assert bot.failures[0].status == 400 and bot.failures[0].code == 40060


async def test_expired_token_refuses_original_edit(fake, world, bot):
    """After 15 minutes the interaction token no longer edits @original (401 Invalid Webhook Token)."""
    result = await fake.slash(world.alice, world.channel, "ping")
    interaction = next(i for i in bot.seen if i.id == result.id)
    await interaction.edit_original_response(content="still fresh")
    assert fake.message(result.message.id).content == "still fresh"
    fake.advance_clock(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(content="too late")
    assert caught.value.status == 401 and caught.value.code == 50027


async def test_race_staged_with_lag_keeps_discord_order(fake, world, bot):
    """Two clicks sent in one order but stamped in the other reach the bot with the stamped times."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    late, early = await asyncio.gather(
        fake.click(world.alice, table.message, "sb:open:7:v1", created_at_ms=fake.now_ms()),
        fake.click(world.bob, table.message, "sb:open:7:v1", created_at_ms=fake.now_ms() - 120),
    )
    stamps = {i.id: i.created_at for i in bot.seen}
    assert stamps[early.id] < stamps[late.id]
    assert early.id < late.id


async def test_ephemeral_board_redrawn_by_its_own_button(fake, world, bot):
    """A button on an ephemeral board edits that board (type 7); it stays private to its user."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    board = await fake.click(world.alice, table.message, "Open my board")
    redraw = await fake.click(world.alice, board.message, "Refresh")
    assert redraw.response_type == 7 and redraw.message.id == board.message.id
    assert fake.message(board.message.id).content == "board of table 7 v2"
    assert fake.message(board.message.id).button("Refresh").custom_id == "sb:ref:7:v2"
    assert board.message not in fake.messages(world.channel, visible_to=world.bob)


async def test_too_long_response_is_400_and_interaction_fails(fake, world, bot):
    """A 2001-character response is refused with 400; the interaction stays unanswered and fails."""
    result = await fake.slash(world.alice, world.channel, "long")
    assert result.failed
    assert bot.failures[0].status == 400 and bot.failures[0].code == 50035


async def test_components_v2_layout_is_stored_and_clickable(fake, world, bot):
    """A LayoutView reply keeps its nested components; its button is found and clicked."""
    result = await fake.slash(world.alice, world.channel, "layout")
    assert result.message.flags & (1 << 15)
    assert "## Table 7" in result.message.text
    assert result.message.button("Sit").custom_id == "sb:sit"


async def test_slash_in_dm(fake, world, bot):
    """A slash command used in the bot's DM reaches the bot without a guild."""
    dm = fake.open_dm(world.alice)
    result = await fake.slash(world.alice, dm, "ping")
    assert result.content == "pong"
    seen = next(i for i in bot.seen if i.id == result.id)
    assert seen.guild_id is None and seen.user.id == world.alice.id


async def test_deferred_update_then_original_edit(fake, world, bot):
    """A button answered with defer() (type 6) and then @original edited changes the clicked message."""
    table = await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=2)
    deal = await fake.click(world.alice, table.message, "Deal")
    assert deal.response_type == 6
    await fake.wait_for(lambda: fake.message(table.message.id).content == "dealt", what="the @original edit")


async def test_autocomplete_suggestions(fake, world, bot):
    """Typing into an autocomplete option returns the bot's filtered choices (type 8)."""
    result = await fake.autocomplete(world.alice, world.channel, "play", "kind", "dutch")
    assert result.response_type == 8
    assert [c["value"] for c in result.choices] == ["dutch-blitz", "dutch"]


async def test_member_permissions_reach_the_bot(fake, world, bot):
    """A member's permissions (Manage Threads here) arrive with the interaction."""
    mod = fake.add_user("mod", guild=world.guild, manage_threads=True)
    assert (await fake.slash(mod, world.channel, "moderate")).content == "moderating"
    assert (await fake.slash(world.alice, world.channel, "moderate")).content == "not allowed"


async def test_slash_in_thread(fake, world, bot):
    """A command used inside a thread the bot created is answered in that thread."""
    await fake.slash(world.alice, world.channel, "table")
    thread = await fake.wait_for(lambda: fake.threads(world.channel) and fake.threads(world.channel)[0])
    await fake.wait_for(lambda: bot.get_channel(thread.id) is not None, what="THREAD_CREATE at the bot")
    result = await fake.slash(world.bob, thread, "ping")
    assert result.content == "pong" and result.message.channel_id == thread.id


async def test_command_permissions_are_enforced_as_discord_does(fake, world, bot):
    """A command with default_member_permissions is refused to members without them, not to admins or owners."""
    manage_threads = 1 << 34
    (cmd,) = [c for c in fake.commands() if c["name"] == "dutch-blitz"]
    cmd["default_member_permissions"] = str(manage_threads)  # as Discord stores a group synced with it
    with pytest.raises(PermissionError, match="dutch-blitz"):
        await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=4, speed="fast")
    mod = fake.add_user("mod", guild=world.guild, manage_threads=True)
    admin = fake.add_user("admin", guild=world.guild, administrator=True)
    role = fake.add_role(world.guild, "Table mods", permissions=manage_threads)
    by_role = fake.add_user("carol", guild=world.guild, roles=[role])
    for user in (mod, admin, by_role):
        result = await fake.slash(user, world.channel, "dutch-blitz new", seats=4, speed="fast")
        assert not result.failed
    cmd["default_member_permissions"] = "0"  # administrators only
    with pytest.raises(PermissionError):
        await fake.slash(mod, world.channel, "dutch-blitz new", seats=4, speed="fast")
    fake.enforce_command_permissions = False
    assert not (await fake.slash(world.alice, world.channel, "dutch-blitz new", seats=4, speed="fast")).failed
