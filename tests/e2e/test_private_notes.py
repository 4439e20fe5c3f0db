"""End to end: a private note shown for a while (a peek) is hidden again on its player's open board."""

from __future__ import annotations

from pathlib import Path

from sandbox import FakeDiscord
from tests.e2e._sample_cog import HighCardUI
from tests.e2e.conftest import World, parlor
from tests.e2e.test_tables import open_table


class PeekingHighCardUI(HighCardUI):
    """The sample game, its deal shown like a peek: for 0.4 s only."""

    def private_note_seconds(self, table, player, event) -> float | None:
        return 0.4 if event.type == "dealt" else None


async def test_a_peek_is_shown_to_its_player_only_and_hidden_again_after_its_time(fake: FakeDiscord, world: World,
                                                                                 tmp_path: Path) -> None:
    async with parlor(fake, tmp_path / "p.db") as bot:
        bot.tables.uis["high-card"] = PeekingHighCardUI()
        thread, lobby = await open_table(fake, world)
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.alice, lobby, "Start")
        table = bot.tables.tables[1]
        alice = table.seat_of_user(world.alice.id).player_id
        dealt = table.private_notes[alice][0].text
        assert dealt.startswith("You were dealt")
        board = (await fake.click(world.alice, lobby, "Open my hand")).message
        assert dealt in board.text, "the player sees the peek"
        await fake.wait_for(lambda: dealt not in fake.message(board.id).text, timeout=3,
                            what="the peek to be hidden again")
        assert fake.edits(via="interaction", message=board.id), "by editing the player's own ephemeral board"
        seen_by_bob = [m.text for m in fake.messages(thread, visible_to=world.bob)]
        assert not any(dealt in text for text in seen_by_bob), "nobody else ever sees it"
        again = (await fake.click(world.alice, lobby, "Open my hand")).message
        assert dealt not in again.text, "a fresh board does not show it either"
