"""Dutch in words: one line per event (``bot.engine.narrate``; ``docs/rules/dutch.md``).

Face-down cards are named by position (``Bo's card 2``), never by face, unless the event itself
shows the face (a discard, a wrong jump-in, the round's end, or a look in its looker's own view).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core import Event


def _spot(name: Callable[[str], str], player: str, position: int) -> str:
    return f"{name(player)}'s card {position + 1}"


def narrate(event: Event, name: Callable[[str], str]) -> str | None:
    """The line for one Dutch *event*, or ``None`` for one not worded here."""
    d = event.data
    who = name(d["player"]) if isinstance(d.get("player"), str) else ""
    match event.type:
        case "round_started":
            return f"Round {d['round']}: {d['hand_size']} cards each; {name(d['starter'])} starts."
        case "opening_look":
            return f"{who} looks at two of their cards ({', '.join(str(p + 1) for p in d['positions'])})."
        case "saw":
            return f"{who} sees {_spot(name, d['owner'], d['position'])}: {d['card']['label']}."
        case "turn":
            return f"{who}'s turn."
        case "jump_in_window":
            return ""  # every discard opens one: the discard's own line says enough
        case "drew":
            return f"{who} draws ({d['deck']} left in the deck)."
        case "drew_card":
            return f"{who} drew the {d['card']['label']}."
        case "discarded":
            return f"{who} discards the {d['card']['label']}."
        case "swapped":
            return f"{who} keeps the drawn card as card {d['position'] + 1} and discards the {d['card']['label']}."
        case "kept":
            return f"{who} keeps the drawn card as card {d['position'] + 1}."
        case "power":
            return f"{who} may use the {d['rank']}'s power ({d['actions']} action{'s' if d['actions'] > 1 else ''})."
        case "power_look":
            return f"{who} looks at {_spot(name, d['owner'], d['position'])}."
        case "power_swap":
            a, b = d["first"], d["second"]
            first, second = _spot(name, a["player"], a["position"]), _spot(name, b["player"], b["position"])
            return f"{who} swaps {first} with {second}."
        case "power_skipped":
            return f"{who} does not use the rest of the power."
        case "jump_in":
            card = d["card"]["label"]
            spot = _spot(name, d["owner"], d["position"])
            if d.get("late"):
                return f"{who} jumps in with {spot}, a {card}, but too late: it stays, shown to all."
            return f"{who} jumps in with {spot}: {card} — {'right' if d['right'] else 'wrong'}."
        case "penalty":
            return f"{who} draws {len(d['positions'])} penalty card{'s' if len(d['positions']) != 1 else ''}."
        case "reshuffled":
            return "The deck is short: the discard pile, but its top card, is shuffled into a new deck."
        case "dutch":
            return f"{who} calls Dutch! Last turns: {', '.join(name(p) for p in d['last_turns'])}."
        case "round_due":
            return "The round is over: " + ("everyone had their last turn." if d["why"] == "dutch"
                                            else "the deck is exhausted.")
        case "round_over":
            hands = "; ".join(f"{name(p)} {d['values'][p]}" for p in d["hands"])
            totals = ", ".join(f"{name(p)} {t}" for p, t in d.get("totals", {}).items())
            return f"Round {d['round']} ends. Hands: {hands}." + (f" Totals: {totals}." if totals else "")
        case "game_over":
            return f"Game over: {' and '.join(name(p) for p in d['winners'])} won."
    return None
