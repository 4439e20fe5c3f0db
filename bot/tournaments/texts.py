"""What the tournament messages say: the tournament message, standings, pairings, results, the CSV export.

:class:`TournamentTexts` renders a loaded :class:`~bot.tournaments.state.TournamentState`; it reads
nothing and posts nothing (:mod:`bot.tournaments.announcements` posts). Names are written through
the messenger's :meth:`~bot.tournaments.messenger.TournamentMessenger.shown`, so a name never
formats a message nor pings anyone; the CSV keeps them as they are.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from bot.storage import MatchRow
from bot.tournaments import elimination
from bot.tournaments.core import TournamentCore
from bot.tournaments.messenger import TournamentMessenger
from bot.tournaments.model import Match, Result, Standing
from bot.tournaments.standings import standings
from bot.tournaments.state import FORMATS, TournamentState, multiplayer, pid, plural, result_from_json, uid
from bot.tournaments.statuses import (
    BEFORE_START,
    HOLDING,
    OUT,
    EntrantStatus,
    MatchStatus,
    TournamentStatus,
)

__all__ = ["TournamentTexts"]


def _fmt(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


class TournamentTexts:
    """The texts of the tournament service (see the module's documentation).

    Parameters
    ----------
    core:
        The shared state (the registered games, for a game's title).
    messenger:
        Whose :meth:`~bot.tournaments.messenger.TournamentMessenger.shown` writes names.
    """

    def __init__(self, core: TournamentCore, messenger: TournamentMessenger) -> None:
        self.core = core
        self.shown = messenger.shown

    def names(self, s: TournamentState) -> dict[str, str]:
        """Every entrant's name as the messages write it, by player id."""
        return {p: self.shown(n) for p, n in s.names.items()}

    # ------------------------------------------------------------------ standings

    def standings(self, s: TournamentState) -> list[Standing]:
        """The standings of everyone who played (``docs/tournaments.md`` §6); none before the start."""
        rounds = s.model_rounds()
        seen = {p for r in rounds for p in r.players}
        players = [pid(e.user_id) for e in s.entrants
                   if pid(e.user_id) in seen or e.status == EntrantStatus.CHECKED_IN]
        if s.t.status in BEFORE_START:
            return []
        return standings(players, rounds, pods=multiplayer(s.t))

    def standings_text(self, s: TournamentState, *, title: str = "Standings", page: int = 0,
                       per_page: int = 20) -> str:
        """The standings as a message: rank, name, points and the tie-breaks (one page of *per_page*)."""
        rows = self.standings(s)
        if not rows:
            return f"**{self.shown(s.t.name)}** — no standings before the first round."
        status = {e.user_id: e.status for e in s.entrants}
        pods = multiplayer(s.t)
        opp = "Buchholz" if pods else "OMW"
        names = self.names(s)
        lines = [f"**{self.shown(s.t.name)}** — {title}"]
        for r in rows[page * per_page:(page + 1) * per_page]:
            out = status.get(uid(r.player))
            mark = " (dropped)" if out == EntrantStatus.DROPPED else \
                " (disqualified)" if out == EntrantStatus.DISQUALIFIED else ""
            opp_value = f"{float(r.opponents) * 100:.1f}%" if not pods else _fmt(r.opponents)
            lines.append(f"{r.rank}. {names.get(r.player, r.player)}{mark} — **{_fmt(r.points)}** pts · "
                         f"{opp} {opp_value} · GP {_fmt(r.game_points)}"
                         + (f" · H2H {_fmt(r.head_to_head)}" if r.head_to_head else ""))
        pages = max(1, -(-len(rows) // per_page))
        if pages > 1:
            lines.append(f"Page {page + 1} of {pages}")
        legend = ["Buchholz: the other players' mean points at each of your tables, summed" if pods
                  else "OMW: opponents' match-win %", "GP: game points"]
        if any(r.head_to_head for r in rows[page * per_page:(page + 1) * per_page]):
            legend.append("H2H: points against the players tied with you")
        lines.append("-# " + " · ".join(legend))
        return "\n".join(lines)

    def standings_pages(self, s: TournamentState, per_page: int = 20) -> int:
        """How many pages :meth:`standings_text` has."""
        return max(1, -(-len(self.standings(s)) // per_page))

    def winner(self, s: TournamentState, rows: list[Standing]) -> str | None:
        """The winner's player id: the final's first in an elimination, else the sole leader of *rows*
        (the standings) who played; ``None`` when there is none (nobody played, a tie at the top).
        """
        if s.t.format == "elimination" and s.rounds:
            final = s.rounds[-1]
            if len([m for m in final.matches if m.players]) == 1:
                m = next(m for m in final.matches if m.players)
                if m.result:
                    ahead = elimination.advancers(Match(m.players), result_from_json(m.result))
                    return ahead[0] if ahead else None
        if rows and rows[0].played and (len(rows) < 2 or rows[1].rank != rows[0].rank):
            return rows[0].player
        return None

    # ------------------------------------------------------------------ rounds and results

    def result_words(self, s: TournamentState, m: MatchRow, r: Result) -> str:
        """Match *m*'s result *r* in words: a bye, who beats whom, a draw, or the places."""
        names = self.names(s)
        if len(m.players) == 1:
            return f"{names.get(m.players[0], m.players[0])} has a bye."
        order = sorted(m.players, key=lambda p: (p in r.forfeits, r.places[p]))
        if len(m.players) == 2:
            a, b = order
            if a in r.forfeits:
                return "Both forfeit."
            if r.places[a] == r.places[b]:
                return f"{names.get(a, a)} and {names.get(b, b)} draw."
            return f"{names.get(a, a)} beats {names.get(b, b)}."
        return "Places: " + ", ".join(f"{'—' if p in r.forfeits else r.places[p]}. {names.get(p, p)}" for p in order)

    def pairings_text(self, s: TournamentState, number: int | None = None) -> str:
        """Round *number*'s matches (default the current) with their state or result."""
        rnd = next((r for r in s.rounds if r.number == number), None) if number else s.current
        if rnd is None:
            return f"**{self.shown(s.t.name)}** — no round has been paired yet."
        names = self.names(s)
        states = {MatchStatus.PENDING: "table opening", MatchStatus.PLAYING: "playing",
                  MatchStatus.BROKEN: "table broken"}
        lines = [f"**{self.shown(s.t.name)}** — round {rnd.number} pairings"]
        for m in rnd.matches:
            if not m.players:
                continue
            who = " vs ".join(names.get(p, p) for p in m.players)
            if m.status == MatchStatus.DONE and m.result:
                state = self.result_words(s, m, result_from_json(m.result))
                if m.result.get("forced"):
                    state += " (forced)"
            else:
                state = states.get(MatchStatus(m.status), m.status)
            if len(m.players) == 1:
                lines.append(f"Bye: {who}")
            else:
                lines.append(f"Match {m.number + 1}: {who} — {state}"
                             + (f" (table #{m.game_id})" if m.game_id is not None else ""))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the tournament message

    def message_text(self, s: TournamentState) -> str:
        """The tournament message: what, when, its state and the list of players."""
        t = s.t
        engine = self.core.tables.engines.get(t.kind)
        game = (engine[0].title if engine else "") or t.kind
        rounds = int(t.settings.get("rounds") or 0)
        fmt = FORMATS[t.format] + (f", tables of {t.settings['table_size']}" if multiplayer(t) else "")
        fmt += f", {plural(rounds, 'round')}" if t.format in ("swiss", "pods") and rounds else ""
        state = {TournamentStatus.REGISTRATION: "Registration open", TournamentStatus.CHECKIN: "Check-in open",
                 TournamentStatus.RUNNING: f"Round {t.round} being played",
                 TournamentStatus.PAUSED: f"Paused in round {t.round}", TournamentStatus.FINISHED: "Finished",
                 TournamentStatus.CANCELLED: "Cancelled"}[TournamentStatus(t.status)]
        checkin = t.status == TournamentStatus.CHECKIN
        lines = [f"🏆 **{self.shown(t.name)}** — tournament #{t.id}", f"{game} · {fmt} · organizer <@{t.organizer_id}>",
                 f"**{state}**" + (" — press **Check in**" if checkin else "")]
        if t.settings.get("start_at") and t.status in BEFORE_START:
            lines.append(f"Starts <t:{int(t.settings['start_at']) // 1000}:R>"
                         + (f"; check-in opens {plural(int(t.settings['checkin_minutes']), 'minute')} before."
                            if t.settings.get("checkin_minutes") and t.status == TournamentStatus.REGISTRATION
                            else "."))
        holding = [e for e in s.entrants if e.status in HOLDING]
        lines.append(f"Players ({len(holding)}/{t.settings['capacity']}):")
        shown = holding[:40]
        lines += [f"{'✅' if e.status == EntrantStatus.CHECKED_IN and checkin else '•'} {self.shown(e.name)}"
                  for e in shown]
        if len(holding) > len(shown):
            lines.append(f"… and {len(holding) - len(shown)} more")
        waiting = [self.shown(e.name) for e in s.entrants if e.status == EntrantStatus.WAITLISTED]
        if waiting and t.status in BEFORE_START:
            lines.append(f"Waitlist: {', '.join(waiting[:20])}" + (" …" if len(waiting) > 20 else ""))
        out = [self.shown(e.name) for e in s.entrants if e.status in OUT]
        if out:
            lines.append(f"Out: {', '.join(out[:20])}" + (" …" if len(out) > 20 else ""))
        return "\n".join(lines)

    # ------------------------------------------------------------------ export

    def export_csv(self, s: TournamentState, what: str = "standings") -> str:
        """The standings (or, with *what* ``matches``, every match) as CSV text (``docs/tournaments.md`` §10).

        Names are written as typed (not through :attr:`shown`).
        """
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        names = s.names
        if what == "matches":
            out.writerow(["round", "match", "game_id", "players", "status", "places", "forfeits", "scores", "forced"])
            for rnd in s.rounds:
                for m in rnd.matches:
                    if not m.players:
                        continue
                    res = m.result or {}
                    out.writerow([rnd.number, m.number + 1, m.game_id or "",
                                  " | ".join(names.get(p, p) for p in m.players), m.status,
                                  " | ".join(f"{names.get(p, p)}={v}" for p, v in res.get("places", {}).items()),
                                  " | ".join(names.get(p, p) for p in res.get("forfeits", [])),
                                  " | ".join(f"{names.get(p, p)}={v:g}" for p, v in res.get("scores", {}).items()),
                                  "yes" if res.get("forced") else ""])
            return buf.getvalue()
        status = {e.user_id: e.status for e in s.entrants}
        out.writerow(["rank", "player", "user_id", "status", "points", "omw_or_buchholz", "game_points",
                      "head_to_head", "played", "byes"])
        for r in self.standings(s):
            out.writerow([r.rank, names.get(r.player, r.player), uid(r.player), status.get(uid(r.player), ""),
                          f"{float(r.points):.4g}", f"{float(r.opponents):.4f}", f"{float(r.game_points):.4g}",
                          f"{float(r.head_to_head):.4g}", r.played, r.byes])
        return buf.getvalue()
