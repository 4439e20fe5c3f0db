"""Dutch Blitz (kind ``dutch-blitz``): the engine, its bots and its simulator figures.

The rules are the project's own page, ``docs/rules/dutch-blitz.md``; the rulings that settle what
the rule texts leave open are in ``docs/rules/dutch-blitz.md``.

Exports
-------
``ENGINE``
    :class:`~bot.games.dutch_blitz.engine.DutchBlitz`.
``BOTS``
    ``{"greedy": GreedyBot, "steady": SteadyBot, "easy": EasyBot}``: hard, normal (the default) and
    easy (``GAME.strengths``).
``figures(engine, events)``
    Per-game numbers for the simulator (:func:`~bot.games.dutch_blitz.figures.figures`).
``DutchBlitzOptions``
    ``target=75``, ``move_post_stacks=False``, ``stuck_seconds=60``.

Actions (``docs/rules/dutch-blitz.md`` §13)
--------------------------------------------
Small JSON objects; every one fits a Discord ``custom_id`` with room to spare. A *source* is
``"blitz"``, ``"wood"`` or ``"post:<i>"`` (the player's own Post pile *i*, 0-based). Dutch piles
are numbered 0, 1, … in the order they were started; a pile keeps its number for the hand.

``{"type": "dutch", "from": source, "pile": <n> | null}``
    Play the top card of *source* onto Dutch pile *n*; ``"pile": null`` starts a new pile with a 1
    (§3). Contests ``"dutch-pile:<n>"`` (nothing when it starts a pile).
``{"type": "post", "from": source, "to": "post:<j>"}``
    Build the top card of *source* onto the player's Post pile *j* (§4).
``{"type": "stack", "from": "post:<i>", "to": "post:<j>"}``
    Move the whole Post pile *i* onto Post pile *j* (only with ``move_post_stacks``, §5).
``{"type": "flip"}``
    Three cards (or fewer) from the hand onto the Wood pile; with the hand empty, the Wood pile
    is first turned back over as the hand (§7).
``{"type": "shift"}``
    The Wood pile's top card goes to the bottom of the hand; only while none of the player's
    visible cards can go on a Dutch pile (§7).
``{"type": "end_hand"}``
    The stuck rule (§8). The engine cannot see the clock nor who hosts: it lists ``end_hand`` for
    every player while a hand is played (with ``stuck_seconds`` > 0). The table offers it only to
    the host, only after ``stuck_seconds`` seconds since the last ``dutch`` event (or the deal),
    and applies it as the host. The hand is scored as usual.
``{"type": "ready"}`` / ``{"type": "next_hand"}``
    Between hands (§11): each player sends ``ready``; the last one deals the next hand.
    ``next_hand`` deals it at once; the table offers it only to the host.

Moves that contest nothing (everything but ``dutch`` onto an existing pile) are applied at once.
A move applied after the position changed under it is refused with a reason that says so, e.g.
"the red pile you aimed at is already at 5: your 5 no longer fits".

View (``docs/rules/dutch-blitz.md`` §12)
----------------------------------------
``view(player)`` equals ``view(None)`` except ``"me"`` (the viewer's seat index, ``None`` for
spectators): ``{"phase": "play"|"between"|"over", "hand": n, "target", "move_post_stacks",
"stuck_seconds", "dutch_piles": [{"pile", "colour", "top": card, "size", "complete"}], "seats":
[{"player", "seat", "blitz_top": card|null, "blitz_count", "posts": [[card, …bottom to top]],
"wood_top": card|null, "wood_count", "hand_count", "total", "ready"}], "hand_scores": [{player:
points}], "hand_endings": [{"hand", "reason": "blitz"|"stuck"|"dead", "blitzer", "by"}], "me"}``.
A *card* is ``BlitzCard.to_json()``: ``{"id", "owner", "colour", "value", "label"}``.

Events (all public)
-------------------
``hand_started {hand, forced_by}`` (also the deal's ``setup_events``), ``dutch {player, card,
from, pile, size, started, complete}``, ``post {player, card, from, to}``, ``stack {player, from,
to, cards}``, ``refill {player, post, card}``, ``flip {player, count, turned_over, wood_top,
hand}``, ``shift {player, card, wood_top}``, ``blitz {player}``, ``hand_end {hand, reason,
blitzer, by, scores: {player: {dutch, blitz_left, points}}, totals}``, ``tie_at_top {players,
total}``, ``ready {player, ready}``, ``game_over {winners, totals}``.

>>> from bot.games.dutch_blitz import ENGINE
>>> game = ENGINE.new(["ann", "bo"], seed=3)
>>> len(game.view("ann")["seats"][0]["posts"])
5
"""

from __future__ import annotations

from bot.engine.game import BotChoice, Game, Measure
from bot.games.dutch_blitz.bots import BOTS, EasyBot, GreedyBot, RandomBot, SteadyBot
from bot.games.dutch_blitz.engine import DutchBlitz
from bot.games.dutch_blitz.figures import figures
from bot.games.dutch_blitz.narrate import narrate
from bot.games.dutch_blitz.options import DutchBlitzOptions

__all__ = ["GAME", "SUMMARY", "narrate", "ENGINE", "BOTS", "figures", "DutchBlitz", "DutchBlitzOptions", "GreedyBot",
           "SteadyBot", "EasyBot"]

ENGINE = DutchBlitz
"""The engine class the registry discovers."""

SUMMARY = (
    "Everyone plays at once. Race your cards onto shared **Dutch piles**: a pile starts with a 1 and "
    "grows by one in the same colour up to 10. Only the tops of your **Blitz pile**, **Post piles** and "
    "**Wood pile** are playable. Build your Post piles downward, alternating boys (🟥🟦) and girls "
    "(🟨🟩); an emptied Post pile is refilled from your Blitz pile. **Flip** turns three cards from your "
    "hand onto the Wood pile. The hand ends the moment someone empties their Blitz pile (**Blitz!**): "
    "+1 for each of your cards on the Dutch piles, −2 for each card left in your Blitz pile. The game "
    "ends after the hand in which someone reaches the target (75), or after 30 hands: the **highest "
    "total** wins; a tie at the top plays another hand. Two players on one pile: the earlier "
    "Discord timestamp wins, the other keeps their card."
)
"""What ``/rules`` and the table's "How to play" say first (``docs/rules/dutch-blitz.md`` has every rule)."""

GAME = Game(
    engine=ENGINE,
    bots=BOTS,
    summary=SUMMARY,
    ui="cogs._dutch_blitz_ui:DutchBlitzUI",
    pictures="cogs._pictures:dutch_blitz_moments",
    command="Play Dutch Blitz",
    tagline="everyone plays at once, racing cards onto shared Dutch piles; hands to 75 points",
    # One hand decides; the host's End hand works after 1 s without a Dutch-pile play; whole Post piles may move.
    quick_options={"target": 1, "max_hands": 1, "stuck_seconds": 1, "move_post_stacks": True},
    table_settings=("race_window_ms", "bot_speed"),
    figures=figures,
    narrate=narrate,
    coach="bot.games.dutch_blitz.coach:coach",
    baseline=RandomBot,  # random play that leaves the host's moves alone (§11)
    measures=(Measure({"target": 30}, games=24),),
    strengths={
        "easy": BotChoice("easy", "Slower; always plays its Blitz card, overlooks some plays, no clever Post moves"),
        "normal": BotChoice("steady", "Plays the hard bot's move half the time and the easy bot's otherwise"),
        "hard": BotChoice("greedy", "Quick: every play it sees, Blitz pile first, and clever Post-pile moves"),
    },
    accent=0xE74C3C,  # red: Dutch Blitz (docs/tables.md, "Message layouts")
)
"""The game's one declaration (``bot.engine.game``), registered through the ``parlor.games`` entry point."""
