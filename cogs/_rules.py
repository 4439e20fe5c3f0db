"""Short rule summaries for ``/rules``, in the project's own words.

The full rules are the pages under ``docs/rules/`` (linked from the README); these are the few
lines a player reads in Discord before sitting down.
"""

from __future__ import annotations

SUMMARIES: dict[str, str] = {
    "dutch-blitz": (
        "Everyone plays at once. Race your cards onto shared **Dutch piles**: a pile starts with a 1 and "
        "grows by one in the same colour up to 10. Only the tops of your **Blitz pile**, **Post piles** and "
        "**Wood pile** are playable. Build your Post piles downward, alternating boys (🟥🟦) and girls "
        "(🟨🟩); an emptied Post pile is refilled from your Blitz pile. **Flip** turns three cards from your "
        "hand onto the Wood pile. The hand ends the moment someone empties their Blitz pile (**Blitz!**): "
        "+1 for each of your cards on the Dutch piles, −2 for each card left in your Blitz pile. The game "
        "ends after the hand in which someone reaches the target (75), or after 30 hands: the **highest "
        "total** wins; a tie at the top plays another hand. Two players on one pile: the earlier "
        "Discord timestamp wins, the other keeps their card."
    ),
    "blitzkrieg": (
        "War for two, with twenty named special battles. Both players press **Battle!** to turn their top "
        "card; the higher card wins both (the Ace beats everything in a plain battle) unless a special "
        "battle applies: Classic War, Halfsies, Battalion, Crossing the Delaware, Napoleon, the King's "
        "assassination, Helen of Troy, the Queen of Hearts, Cold War, the Diplomat's peace treaty, the "
        "clock, the A-Bomb and more. A few of them let you choose (challenge or disarm, which face-down card "
        "to turn). A player who runs out of cards, or cannot finish a battle, loses; an A-Bomb wins at once; "
        "after `max_battles` the larger deck wins. On Discord: `/blitzkrieg new` (against a friend, or **Add bot** "
        "for the house); each battle is told step by step on the table message; your choices and your Cold War "
        "hand are on your own board. `pace:auto` turns the cards for you at a readable pace."
    ),
    "dutch": (
        "A memory game. Everyone holds face-down cards and looks at two of them once at the start; after "
        "that you must remember. On your turn draw a card, then discard it or swap it blind into your hand. "
        "Discarded powers: **J** look at any card, **Q** swap any two cards unseen, **K** two looks or swaps "
        "(passive rules: any discarded J, Q or K; aggressive rules: only one drawn and discarded at once). "
        "After any discard anyone may **jump in** with a card of the same rank (right: it is gone; wrong: "
        "it is shown and you draw two). Aggressive rules: only the fastest jump-in counts, and you may jump "
        "in with an adversary's card; play ends with the deck. Passive rules: call **Dutch** when you think "
        "you are lowest; everyone else gets one more turn. Lowest hand wins (Ace 1, faces 10, Joker −1); "
        "rounds add up to 100. On Discord: `/dutch new`, then **Open my hand** (a look hides itself again)."
    ),
    "blitz": (
        "Thirty-one. Each player holds three cards; a hand is worth its best one-suit total (Ace 11, faces "
        "10), three of a kind 30. On your turn draw from the stock or the discard pile and discard one, or "
        "**knock** instead of drawing: everyone else gets one more turn, then the lowest hand loses a life "
        "(a knocker alone lowest loses two). Hitting 31 (**blitz**) ends the round at once and everyone "
        "else loses a life. Four lives each; the last player with a life wins. On Discord: `/blitz new`, "
        "then **Open my hand** for your cards, their value and your moves (Knock, Draw from the stock, Take "
        "the discard, then Discard)."
    ),
}
