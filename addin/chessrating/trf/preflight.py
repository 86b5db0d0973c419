"""The pre-flight check of a FIDE rating report: what a federation's rating officer
would send back, by player and field.

FIDE B.02 §9.1 has the chief arbiter send the report to the federation's rating officer,
who may reject it; FIDE's 2024 letter to rating officers
(https://qc.fide.com/2024/02/26/letter-to-federation-ratings-officers/) asks them to
return submissions lacking a new player's birth date and sex. Records 022 (city), 032
(federation), 102 (chief arbiter) and, in TRF-2026, 042/052 (dates), 132 (round dates)
and 222 (time control) are mandatory for rating (C.04 Annex 2, TRF26).

:func:`preflight` lists: missing event fields; a player without FIDE ID lacking birth
date or sex; a game whose two sides disagree (opponent, result, colour); a game of a
finished round blank on both rows; a player paired twice in a round; in a Swiss, two
players who played each other twice; points that do not equal the sum of the results;
and whatever reading the workbook found wrong (:class:`WorkbookEvent.issues`: a colour
that is not W or B, a result that is not one …). :func:`write_check` writes the
list as the sheet ``Pre-flight`` of a workbook of its own.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..tournament import PLAYED_CODES, Player, Tournament

__all__ = ["Issue", "WorkbookEvent", "preflight", "preflight_output", "write_check"]

# The results the other row of a game may hold: "-" against "-" is a double forfeit, "0"
# against "0" a game lost by both (docs/RULES.md §1.3).
_COMPLEMENT = {"1": "0", "0": "10", "=": "=", "+": "-", "-": "+-"}
_FED = re.compile(r"[A-Z]{3}")
ENCODED_TIME = re.compile(r"[0-9/+:*\-WB]+")


@dataclass(frozen=True)
class Issue:
    """One line of the pre-flight check: a player (0 = the event), a field, a problem."""

    player: int
    name: str
    field: str
    problem: str

    def __str__(self) -> str:
        who = "event" if self.player == 0 else f"player {self.player} {self.name}".rstrip()
        return f"{who}: {self.field}: {self.problem}"


@dataclass
class WorkbookEvent:
    """A workbook read into a tournament, with what reading it found wrong."""

    tournament: Tournament
    layout: str
    issues: list[Issue] = field(default_factory=list)
    stated_points: dict[int, float | None] = field(default_factory=dict)
    ranks: dict[int, int] = field(default_factory=dict)
    tiebreaks: list[str] = field(default_factory=list)  # the codes that ranked them, in order
    # a workbook made from a TRF file: the file's ranks and 202 record, and the ranks the
    # crosstable gave then (sheet File ranks, :mod:`chessrating.workbooks.file_ranks`)
    file_ranks: dict[int, int] = field(default_factory=dict)
    import_ranks: dict[int, int] = field(default_factory=dict)
    file_tiebreaks: str = ""
    # (round, player, opponent) of each row naming an opponent without a result
    unplayed: list[tuple[int, int, int]] = field(default_factory=list)
    refused_colours: dict[tuple[int, int], str] = field(default_factory=dict)  # (player, round): as typed
    max_meetings: int = 1  # how often two players may meet in a Swiss (the workbook's setting)


def preflight(read: WorkbookEvent, *, trf_format: str = "trf16") -> list[Issue]:
    """What a rating officer would return, by player and field (the event's first)."""
    t = read.tournament
    out: list[Issue] = []
    for label, value in (("city", t.city), ("federation", t.federation), ("chief arbiter", t.chief_arbiter),
                         ("start date", t.start_date), ("end date", t.end_date),
                         ("time control", t.time_control)):
        if not value:
            out.append(Issue(0, "", label, "missing (Report sheet)"))
    if t.federation and not _FED.fullmatch(t.federation.upper()):
        out.append(Issue(0, "", "federation", f"{t.federation!r} is not a three-letter code"))
    if t.start_date and t.end_date and t.end_date < t.start_date:
        out.append(Issue(0, "", "end date", "before the start date"))
    played_rounds = sorted({g.round for p in t.players for g in p.games if not g.is_blank})
    missing = [r for r in played_rounds if r > len(t.round_dates) or t.round_dates[r - 1] is None]
    if missing:
        out.append(Issue(0, "", "round dates", "missing for round(s) " + ", ".join(map(str, missing))))
    if trf_format == "trf26" and t.time_control and not ENCODED_TIME.fullmatch(t.time_control.replace(" ", "")):
        out.append(Issue(0, "", "time control", f"{t.time_control!r} is not encoded as TRF-2026 "
                         "record 222 wants (e.g. 5400+30); written as 122 only"))
    out += [i for i in read.issues if i.player == 0]
    by_number = {p.number: p for p in t.players}
    unplayed = set(read.unplayed)
    without_result = _without_result(read, by_number)
    for p in t.players:
        mine = [i for i in read.issues if i.player == p.number] + without_result.get(p.number, [])
        if p.fide_id is None:
            if not p.birth_date:
                mine.append(Issue(p.number, p.name, "birth date", "missing for a player without FIDE ID"))
            if not p.sex:
                mine.append(Issue(p.number, p.name, "sex", "missing for a player without FIDE ID"))
        seen: Counter[int] = Counter()
        for g in p.games:
            if g.opponent is None:
                continue
            other = by_number[g.opponent]
            back = other.game(g.round)
            if (g.round, other.number, p.number) in unplayed:
                mine.append(Issue(p.number, p.name, f"round {g.round}",
                                  f"result {g.code!r} against player {other.number}, whose row gives "
                                  "no result: the two sides disagree"))
            elif back.opponent != p.number:
                gives = "no opponent" if back.opponent is None else f"player {back.opponent}"
                mine.append(Issue(p.number, p.name, f"round {g.round}",
                                  f"paired with player {other.number}, whose row gives {gives}"))
            elif p.number < other.number:
                if g.code in _COMPLEMENT and back.code not in _COMPLEMENT[g.code]:
                    mine.append(Issue(p.number, p.name, f"round {g.round}",
                                      f"result {g.code!r} against player {other.number}, whose row "
                                      f"gives {back.code.strip() or 'no result'!r}: the two sides disagree"))
                if g.colour is not None and g.colour == back.colour:
                    mine.append(Issue(p.number, p.name, f"round {g.round}",
                                      f"same colour as player {other.number}"))
            seen[g.opponent] += 1
        stated = read.stated_points.get(p.number)
        computed = p.computed_points(t.scoring)
        if stated is not None and abs(stated - computed) > 1e-9:
            mine.append(Issue(p.number, p.name, "points",
                              f"the workbook gives {stated:g}, the results add up to {computed:g}"))
        out += mine
    if read.layout == "swiss":
        out += _met_too_often(read)
    for rnd in range(1, t.rounds + 1):
        named: Counter[int] = Counter(n for p in t.players if (n := p.game(rnd).opponent) is not None)
        for opponent, count in sorted(named.items()):
            if count > 1:
                o = by_number[opponent]
                out.append(Issue(o.number, o.name, f"round {rnd}",
                                 f"paired {count} times (by players "
                                 + ", ".join(str(p.number) for p in t.players
                                             if p.game(rnd).opponent == opponent) + ")"))
    return out


def _without_result(read: WorkbookEvent, by_number: dict[int, Player]) -> dict[int, list[Issue]]:
    """Rows naming an opponent but no result, by player: the game of a finished round (one
    up to the last with a result) blank on both rows, or a row naming an opponent whose row
    names someone else or no one. (A blank row against a result: the other row's issue.)"""
    last = max((g.round for p in read.tournament.players for g in p.games if g.code != " "), default=0)
    pairs = set(read.unplayed)
    out: dict[int, list[Issue]] = {}
    for rnd, number, opponent in read.unplayed:
        p, back = by_number[number], by_number[opponent].game(rnd)
        if (rnd, opponent, number) in pairs:
            if number < opponent and rnd <= last:
                problem = (f"paired with player {opponent}, and neither row holds a result while "
                           + (f"round {rnd} has results" if any(g.round == rnd and g.code != " " for q in
                                                              read.tournament.players for g in q.games)
                              else "later rounds have results")
                           + ": enter it (+ and - for a forfeit)")
                out.setdefault(number, []).append(Issue(number, p.name, f"round {rnd}", problem))
        elif back.opponent != number:
            gives = "no opponent" if back.opponent is None else f"player {back.opponent}"
            out.setdefault(number, []).append(Issue(number, p.name, f"round {rnd}",
                                                    f"paired with player {opponent} (no result), whose row "
                                                    f"gives {gives}"))
    return out


def _met_too_often(read: WorkbookEvent) -> list[Issue]:
    """Two players who played each other more often than a Swiss allows: once (C.04.1:
    two players do not meet twice), or the workbook's setting. As FIDE's pairing engine
    counts meetings, a game not played over the board (a forfeit) is no meeting."""
    rounds: dict[tuple[int, int], list[int]] = {}
    names = {p.number: p.name for p in read.tournament.players}
    for p in read.tournament.players:
        for g in p.games:
            if g.opponent is not None and p.number < g.opponent and g.code in PLAYED_CODES:
                rounds.setdefault((p.number, g.opponent), []).append(g.round)
    allowed = read.max_meetings
    return [Issue(a, names[a], f"round {met[-1]}",
                  f"played player {b} again (rounds {', '.join(map(str, met))}): "
                  + ("in a Swiss two players meet once (C.04.1)" if allowed == 1
                     else f"more than the {allowed} meetings the workbook allows"))
            for (a, b), met in sorted(rounds.items()) if len(met) > allowed]


def preflight_output(trf: Path) -> Path:
    """The check's workbook beside the TRF file.

    >>> preflight_output(Path("events/open.trf")).as_posix()
    'events/open-preflight.xlsx'
    """
    return trf.with_name(f"{trf.stem}-preflight.xlsx")


def write_check(issues: list[Issue], path: Path, book: Path) -> None:
    import xlsxwriter

    # built in memory (a few rows) and written at once: no temporary file of XlsxWriter's
    # own, and no half-closed zip, is left behind when the disk is full
    packed = io.BytesIO()
    workbook = xlsxwriter.Workbook(packed, {"strings_to_numbers": False, "strings_to_formulas": False,
                                            "in_memory": True})
    sheet = workbook.add_worksheet("Pre-flight")
    bold = workbook.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1})
    sheet.write_string(0, 0, f"Pre-flight check of {book.name}: what a rating officer would return", bold)
    for c, text in enumerate(("Player", "Name", "Field", "Problem")):
        sheet.write_string(2, c, text, bold)
    for r, issue in enumerate(issues or [Issue(0, "", "", "no problems found")], start=3):
        sheet.write_string(r, 0, "event" if issue.player == 0 else str(issue.player))
        sheet.write_string(r, 1, issue.name)
        sheet.write_string(r, 2, issue.field)
        sheet.write_string(r, 3, issue.problem)
    sheet.set_column(0, 0, 8)
    sheet.set_column(1, 1, 28)
    sheet.set_column(2, 2, 16)
    sheet.set_column(3, 3, 90)
    workbook.close()
    with open(path, "wb") as out:
        out.write(packed.getbuffer())
