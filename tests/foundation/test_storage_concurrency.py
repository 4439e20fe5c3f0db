"""Storage under many tables at once: one connection, writes that never interleave (bot/storage/repository.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import Storage


async def test_fifty_tables_writing_their_seats_and_moves_at_once_lose_nothing(tmp_path: Path) -> None:
    """Fifty tables opening at once used to make sqlite3 refuse set_seats ("bad parameter or other API misuse")."""
    async with Storage.open(str(tmp_path / "p.db")) as storage:
        games = [await storage.create_game("dutch-blitz", seed=i) for i in range(50)]

        async def table(game: int) -> None:
            for n in range(1, 5):
                await storage.set_seats(game, [(f"p{k}", k, None, f"person {k}") for k in range(n)])
                await storage.seats(game)
                await storage.update_game(game, host_id=n)
                await storage.game(game)
            await storage.append_action(game, 1, "p0", {"type": "flip"})
            await storage.update_game(game, status="running")

        for _ in range(3):
            await asyncio.gather(*(table(g) for g in games))
            for game in games:
                await storage.delete_actions(game)
        await asyncio.gather(*(table(g) for g in games))
        for game in games:
            assert [s.player_id for s in await storage.seats(game)] == ["p0", "p1", "p2", "p3"]
            assert [a.action for a in await storage.actions(game)] == [{"type": "flip"}]
            assert (await storage.game(game)).status == "running"
