"""``chessrating export-trf``: the FIDE rating report of a filled workbook, with a rating
officer's pre-flight check.

:func:`workbook_tournament` reads a FIDE template filled by hand or made by
``import-trf`` (the Swiss or the round robin; :mod:`.bookview`) into a
:class:`~chessrating.tournament.Tournament`; :func:`.preflight.preflight` lists what a federation's
rating officer would send back (FIDE B.02 §9.1; the 2024 letter to rating officers:
submissions lacking a new player's birth date and sex are returned); :func:`export_trf`
writes the TRF16 (FIDE Handbook C.04 Annex 2) or TRF-2026 file and the check.

Where things come from: the event's name is the crosstable's Event cell; city,
federation, dates, type, arbiters, time control and round dates the Report sheet's
(:mod:`chessrating.workbooks.report`); each player's number, name, title, federation,
rating and the games the crosstable's, FIDE ID, sex and birth date the Report sheet's.
A result cell becomes its TRF code: ``1 ½ 0`` → ``1 = 0``, ``+ -`` forfeits, ``H``
half-point bye, ``B`` full-point bye (TRF ``F``), ``U``, ``Z``; the functions' other
spellings too (``W D L`` rated, ``X`` forfeit win, ``F`` forfeit loss).

**Decisions**

* Ranks: a workbook made from a TRF file gives back the file's ranks, as long as its
  ``Rank`` column still gives every player the rank it gave when made (sheet ``File
  ranks``, :mod:`chessrating.workbooks.file_ranks`), and TRF-2026 the file's ``202``
  record. Otherwise by the workbook's tie-breaks where it has them (a ``Rank`` named
  range), else by points, then starting number. TRF16 wants distinct ranks, so ties are
  broken by starting number; TRF-2026 lets equal players share a rank (the check says
  which) and names the tie-breaks that ranked them in its ``202`` record.
* The round-robin crosstable holds no rounds or colours: the Report sheet's grid
  ``GameRounds`` does (``3W``: round 3, the row player White): formulas giving the FIDE
  Berger table (C.05 Annex 1) for the players entered, the file's rounds where
  ``import-trf`` made the workbook, or what the director typed over them. A cell without
  a value (a workbook saved by a program that drops formulas' values) is read as the same
  Berger table for the players entered, the last row with a name; the check says how many.
* The check is printed and written, as a sheet ``Pre-flight`` of its own workbook
  ``OUT-preflight.xlsx`` beside the TRF file (the user's workbook is never rewritten);
  it is rewritten at each export, with one row saying "no problems" when there are none.
* Exit 1 when the file was written with problems listed, 2 when nothing could be
  written: then neither file is touched (both are written whole beside their places and
  replaced together, the first put back if the second cannot be; :mod:`.outputs`). No
  file given is ever written to, whatever its name: an output (the TRF file or the
  check) that is the workbook is refused.

>>> trf_code(1), trf_code("½"), trf_code("B"), trf_code(None), trf_code("F")
('1', '=', 'F', ' ', '-')
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cells import whole_number
from ..errors import RatingError
from ..results import EXCEL_ERRORS
from .celldates import birth_text, cell_address, cell_date
from .plaintext import one_line_noted
from .bookview import BookView, read_book_view
from ..tournament import TITLES, Player, RoundGame, Tournament, berger, colour_code
from .preflight import ENCODED_TIME, Issue, WorkbookEvent, preflight, preflight_output, write_check
from .ranks import file_ranks_stand, ranked, read_file_ranks, read_ranking

__all__ = ["FORMATS", "Issue", "ExportSummary", "trf_code", "workbook_tournament",
           "preflight", "export_trf", "default_output", "preflight_output"]

FORMATS = ("trf16", "trf26")
_CELL_CODES = {"1": "1", "½": "=", "=": "=", "0.5": "=", "1/2": "=", "0": "0",
               "W": "1", "D": "=", "L": "0", "+": "+", "-": "-", "X": "+", "F": "-",
               "H": "H", "B": "F", "U": "U", "Z": "Z", "": " "}
_FED = re.compile(r"[A-Z]{3}")
# A round of the grid: 1 to 999 (round 0 is none: such a game is named, not dropped).
_GAME_ROUND = re.compile(r"\s*0*([1-9][0-9]{0,2})\s*([WB])?\s*")


def trf_code(value: Any) -> str | None:
    """The TRF result code of a result cell's value, ``" "`` for blank, ``None`` if it is
    not a result."""
    if value is None:
        return " "
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {1.0: "1", 0.5: "=", 0.0: "0"}.get(float(value))
    return _CELL_CODES.get(str(value).strip().upper())




def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _clean(text: str, issues: list[Issue], number: int, field: str) -> str:
    """``text`` as one line of fixed columns; what was replaced is an issue."""
    clean, note = one_line_noted(text)
    if note:
        issues.append(Issue(number, clean if number else "", field, note))
    return clean


def _event_date(view: BookView, name: str, cell: tuple[str, int, int] | None, issues: list[Issue],
                round_number: int = 0) -> _dt.date | None:
    """The date of an event's date cell (:func:`.celldates.cell_date`); a value that is no
    date, or one read otherwise than it shows, is an issue naming the cell."""
    if cell is None:
        return None
    date, problem = cell_date(view.value(*cell))
    if problem:
        field = f"round {round_number} date" if round_number else name
        issues.append(Issue(0, "", field, f"{cell_address(*cell)}: {problem}"))
    return date


def _player_rows(view: BookView) -> list[tuple[int, int]]:
    cells = view.names.get("Names")
    if not cells:
        raise RatingError(f"book: {str(view.path)!r} is not a FIDE crosstable (no Names range); "
                          "export-trf reads the FIDE round-robin and Swiss workbooks")
    return [(row, col) for _, row, col in cells]


def workbook_tournament(view: BookView) -> WorkbookEvent:
    """The tournament a FIDE workbook holds, and the issues met reading it."""
    rows = _player_rows(view)
    sheet = view.names["Names"][0][0]
    swiss = _is_swiss(view, sheet, rows[0])
    t = Tournament()
    read = WorkbookEvent(t, "swiss" if swiss else "round robin")
    t.name = _text(view.value(sheet, 2, 2))
    if t.name in EXCEL_ERRORS:
        read.issues.append(Issue(0, "", "Event", f"{cell_address(sheet, 2, 2)} holds the Excel error {t.name}; "
                                 "not written"))
        t.name = ""
    t.name = _clean(t.name, read.issues, 0, "Event")
    t.headers = {"062": [""], "072": [""]}  # counts written from the players
    _read_report_fields(view, read)
    _read_players(view, sheet, rows, read)
    numbers = {p.number for p in t.players}
    name_col = rows[0][1]
    if swiss:
        _swiss_games(view, sheet, rows, name_col, read, numbers)
    else:
        _round_robin_games(view, sheet, rows, name_col, read, numbers)
    _read_rounds(view, read)
    if view.has("Rank"):
        read_ranking(view, read)
    read_file_ranks(view, read)
    if view.has("PairMaxMeets"):  # how often two players may meet (the Swiss's pairing setting)
        read.max_meetings = max(whole_number(view.one("PairMaxMeets")) or 1, 1)
    return read


def _is_swiss(view: BookView, sheet: str, first: tuple[int, int]) -> bool:
    """Whether the crosstable is the Swiss (an ``Opp`` column after the player's) or the
    round robin; any other workbook raises :class:`RatingError`."""
    first_row, name_col = first
    if "K list" not in (view.value(sheet, first_row - 1, name_col + 7),
                        view.value(sheet, first_row - 2, name_col + 7)):
        raise RatingError(f"book: {str(view.path)!r} is not a FIDE crosstable (no K list column "
                          "beside the names); export-trf reads the FIDE round-robin and Swiss workbooks")
    return bool(view.value(sheet, first_row - 1, name_col + 9) == "Opp")


def _read_report_fields(view: BookView, read: WorkbookEvent) -> None:
    """The event's fields of the Report sheet; a date that is not one is an issue."""
    t = read.tournament

    def text(name: str) -> str:
        value = view.text(name)
        if value in EXCEL_ERRORS:
            read.issues.append(Issue(0, "", name, f"holds the Excel error {value}; not written"))
            return ""
        return _clean(value, read.issues, 0, name)

    t.city, t.federation, t.type = text("ReportCity"), text("ReportFederation"), text("ReportType")
    t.chief_arbiter, t.time_control = text("ReportArbiter"), text("ReportTimeControl")
    t.deputy_arbiters = [d.strip() for d in text("ReportDeputies").split(";") if d.strip()]
    for name, attr in (("ReportStart", "start_date"), ("ReportEnd", "end_date")):
        found = view.names.get(name)
        setattr(t, attr, _event_date(view, name, found[0] if found else None, read.issues))


def _read_players(view: BookView, sheet: str, rows: list[tuple[int, int]], read: WorkbookEvent) -> None:
    """A player for each crosstable row with a name, from the crosstable and the Report
    sheet; a value that does not fit its TRF field is an issue and is not written."""
    report = (view.named("FideIds"), view.named("Sexes"), view.named("BirthDates"))
    points = view.named("Points")
    births = view.names.get("BirthDates", [])
    for i, (row, col) in enumerate(rows):
        name = _text(view.value(sheet, row, col))
        if not name:
            continue
        if name in EXCEL_ERRORS:  # a formula's error is no one's name: no player is made of it
            raise RatingError(f"book: {str(view.path)!r}: {cell_address(sheet, row, col)} holds the Excel error "
                              f"{name}, not a player's name; nothing written")
        name = _clean(name, read.issues, i + 1, "Name")
        row_report = [values[i] if i < len(values) else None for values in report]
        row_report[2] = (row_report[2], cell_address(*births[i]) if i < len(births) else "BirthDates")
        p = _read_player(view, sheet, (row, col), Player(i + 1, name), row_report, read.issues)
        stated = points[i] if i < len(points) else None
        read.stated_points[p.number] = float(stated) if isinstance(stated, (int, float)) else None
        read.tournament.players.append(p)


def _read_player(view: BookView, sheet: str, at: tuple[int, int], p: Player, report: list[Any],
                 issues: list[Issue]) -> Player:
    """Player ``p``'s title, federation, rating and birth year (the crosstable's row ``at``)
    and FIDE ID, sex and birth date (``report``: the Report sheet's row)."""
    (row, col), number, name = at, p.number, p.name
    fide_id, sex_value, birth_value = report
    title = _text(view.value(sheet, row, col + 1)).upper()
    if title and title not in TITLES:
        issues.append(Issue(number, name, "Title", f"{title!r} is not a FIDE title; not written"))
        title = ""
    p.title = title
    fed = _text(view.value(sheet, row, col + 2)).upper()
    if fed and not _FED.fullmatch(fed):
        issues.append(Issue(number, name, "Fed", f"{fed!r} is not a three-letter code; not written"))
        fed = ""
    p.federation = fed
    rating_value = view.value(sheet, row, col + 3)
    rating = whole_number(rating_value)
    if rating_value not in (None, "-") and (rating is None or not (rating == 0 or 100 <= rating <= 4000)):
        issues.append(Issue(number, name, "Rating", f"{rating_value!r} is not a rating; not written"))
        rating = None
    p.rating = rating or None
    p.fide_id = whole_number(fide_id) or None
    if fide_id is not None and p.fide_id is None:
        issues.append(Issue(number, name, "FIDE ID", f"{fide_id!r} is not a FIDE ID; not written"))
    sex = _text(sex_value).lower()
    p.sex = sex if sex in ("m", "w") else ""
    if sex and not p.sex:
        issues.append(Issue(number, name, "Sex", f"{sex!r} is not m or w; not written"))
    birth, problem = birth_text(*birth_value)
    if problem:
        issues.append(Issue(number, name, "Birth date", problem))
    _read_birth(view.value(sheet, row, col + 5), birth, p, issues)
    return p


def _read_birth(year_value: Any, birth: str, p: Player, issues: list[Issue]) -> None:
    """The birth year (crosstable) and birth date (Report sheet, as :func:`.celldates.birth_text`
    reads it): a date without a year in agreement is an issue; a year alone stands for the
    date."""
    p.birth_date = birth
    year = whole_number(year_value)
    p.birth_year = year
    if birth and year and not birth.startswith(str(year)):
        issues.append(Issue(p.number, p.name, "Birth date", f"{birth} does not agree with the birth year {year}"))
    if not birth and year:
        p.birth_date = str(year)


def _read_rounds(view: BookView, read: WorkbookEvent) -> None:
    """The rounds of the event: those played, or more where round dates or the Swiss's
    rounds planned (``PairRounds``, which ``import-trf`` fills from 142/``XXR``) say so."""
    t = read.tournament
    played = max((len(p.games) for p in t.players), default=0)
    t.round_dates = [_event_date(view, "RoundDates", cell, read.issues, n)
                     for n, cell in enumerate(view.names.get("RoundDates", []), 1)]
    while t.round_dates and t.round_dates[-1] is None:
        t.round_dates.pop()
    t.rounds = max(played, len(t.round_dates), whole_number(view.one("PairRounds")) or 0)


def _swiss_games(view: BookView, sheet: str, rows: list[tuple[int, int]], name_col: int,
                 read: WorkbookEvent, numbers: set[int]) -> None:
    first_row = rows[0][0]
    start = name_col + 9  # the first round's Opp column
    rounds = 0
    while view.value(sheet, first_row - 1, start + 3 * rounds) == "Opp":
        rounds += 1
    colours: dict[tuple[int, int], str | None] = {}  # (player, round) -> colour, a row naming an opponent
    for p in read.tournament.players:
        row = rows[p.number - 1][0]
        for rnd in range(1, rounds + 1):
            c = start + 3 * (rnd - 1)
            opp_value, colour_value, result = (view.value(sheet, row, c + k) for k in range(3))
            opponent = whole_number(opp_value)
            if opp_value is not None and (opponent is None or opponent not in numbers or opponent == p.number):
                read.issues.append(Issue(p.number, p.name, f"round {rnd}",
                                         f"opponent {_text(opp_value)!r} is not another player's number"))
                opponent = None
            code = trf_code(result)
            if code is None:
                read.issues.append(Issue(p.number, p.name, f"round {rnd}",
                                         f"result {_text(result)!r} is not a result; written blank"))
                code = " "
            typed = _text(colour_value)
            colour = colour_code(typed)
            if opponent is not None:
                colours[(p.number, rnd)] = colour
                if typed and colour is None:
                    read.refused_colours[(p.number, rnd)] = typed
            if opponent is not None and code == " ":
                read.unplayed.append((rnd, p.number, opponent))  # paired, no result (yet)
                continue
            p.games.append(RoundGame(rnd, opponent, colour if opponent is not None else None, code))
        _pad(p)
    _colours_from_opponents(read, colours)


# A colour as typed (upper case): the letters the template offers, and the words.


def _colours_from_opponents(read: WorkbookEvent, colours: dict[tuple[int, int], str | None]) -> None:
    """A game whose row gives no colour (blank, or text that is not one) takes the
    opposite of the opponent's (``colours``: each row naming an opponent, by player and
    round); only a game whose two rows give none is an issue, and text that is not a
    colour is named either way."""
    by_number = {p.number: p for p in read.tournament.players}
    for p in read.tournament.players:
        for g in p.games:
            if g.opponent is None or g.colour is not None:
                continue
            back = by_number[g.opponent].game(g.round)
            theirs = colours.get((g.opponent, g.round)) if back.opponent in (p.number, None) else None
            if theirs is not None:
                g.colour = "b" if theirs == "w" else "w"
            typed = read.refused_colours.get((p.number, g.round))
            if typed is not None:
                written = {"w": "White", "b": "Black"}.get(g.colour or "")
                read.issues.append(Issue(p.number, p.name, f"round {g.round}", f"colour {typed!r} is not W or B; "
                                         + (f"written {written}, the opposite of player {g.opponent}'s"
                                            if written else "not written")))
            elif g.colour is None:
                read.issues.append(Issue(p.number, p.name, f"round {g.round}",
                                         f"colour missing (W or B), on player {g.opponent}'s row too"))


def _pad(p: Player) -> None:
    """Rounds in order, a blank one for a round not listed; no trailing blank rounds."""
    by_round = {g.round: g for g in p.games}
    last = max(by_round, default=0)
    p.games = [by_round.get(r, RoundGame(r)) for r in range(1, last + 1)]
    while p.games and p.games[-1].is_blank:
        p.games.pop()


def _round_robin_games(view: BookView, sheet: str, rows: list[tuple[int, int]], name_col: int,
                       read: WorkbookEvent, numbers: set[int]) -> None:
    grid = name_col + 9
    size = len(rows)
    by_number = {p.number: p for p in read.tournament.players}
    # the table of the players entered (the last row with a name), as the sheet's formulas
    table = berger(max(by_number, default=0))
    given = view.names.get("GameRounds", [])
    rounds_of = {(r - given[0][1] + 1, c - given[0][2] + 1): view.value(s, r, c)
                 for s, r, c in given} if given else {}
    from_berger = 0
    for p in read.tournament.players:
        row = rows[p.number - 1][0]
        for j in range(1, size + 1):
            if j == p.number:
                continue
            value = view.value(sheet, row, grid + j - 1)
            code = trf_code(value)
            if code is None:
                read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                         f"result {_text(value)!r} is not a result; not written"))
                continue
            if code == " ":
                continue
            if j not in by_number:
                read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                         "a result against an empty row"))
                continue
            stated = _text(rounds_of.get((p.number, j)))
            found = _GAME_ROUND.fullmatch(stated.upper())
            if found:
                rnd, colour = int(found[1]), {"W": "w", "B": "b"}.get(found[2] or "")
            else:
                if re.fullmatch(r"\s*0+\s*[WB]?\s*", stated.upper()):
                    read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                             f"round and colour {stated!r} names round 0 (rounds count "
                                             "from 1); the game is not written"))
                    continue
                if stated:
                    read.issues.append(Issue(p.number, p.name, f"against player {j}",
                                             f"round and colour {stated!r} is not like 3W; Berger tables used"))
                a, b = min(p.number, j), max(p.number, j)
                rnd, low_white = table[(a, b)]
                colour = "w" if (low_white if p.number == a else not low_white) else "b"
                from_berger += 1
            if colour is None:
                read.issues.append(Issue(p.number, p.name, f"round {rnd}", "colour missing (W or B)"))
            p.games.append(RoundGame(rnd, j, colour, code))
    _blank_games(view, sheet, rows, grid, read, lambda a, b: _scheduled_round(rounds_of, table, a, b))
    for p in read.tournament.players:
        twice = sorted(r for r, n in Counter(g.round for g in p.games).items() if n > 1)
        for rnd in twice:
            read.issues.append(Issue(p.number, p.name, f"round {rnd}", "two games in one round; "
                                     "the second not written"))
        p.games.sort(key=lambda g: g.round)
        _pad(p)
    if from_berger:
        read.issues.append(Issue(0, "", "rounds", f"{from_berger} game(s) without round and colour "
                                 "(Report sheet): written by the FIDE Berger tables for the starting numbers"))


def _scheduled_round(rounds_of: dict[tuple[int, int], Any], table: dict[tuple[int, int], tuple[int, bool]],
                     a: int, b: int) -> int:
    """The round players ``a`` and ``b`` are scheduled to meet in: the Report sheet's grid
    (either cell), else the Berger tables."""
    for key in ((a, b), (b, a)):
        found = _GAME_ROUND.fullmatch(_text(rounds_of.get(key)).upper())
        if found:
            return int(found[1])
    return table.get((min(a, b), max(a, b)), (0, True))[0]


def _blank_games(view: BookView, sheet: str, rows: list[tuple[int, int]], grid: int, read: WorkbookEvent,
                 round_of: Any) -> None:
    """Each blank cell of the grid between two players, kept with its round (the mirror's
    game's, else the scheduled one) as a row naming an opponent without a result."""
    players = read.tournament.players
    played = {(p.number, g.opponent): g.round for p in players for g in p.games if g.opponent is not None}
    for p in players:
        for q in players:
            if q is p or (p.number, q.number) in played:
                continue
            if trf_code(view.value(sheet, rows[p.number - 1][0], grid + q.number - 1)) == " ":
                rnd = played.get((q.number, p.number)) or round_of(p.number, q.number)
                read.unplayed.append((rnd, p.number, q.number))


def _trf26_headers(t: Tournament, tiebreaks: list[str]) -> None:
    t.headers["142"] = [""]
    if tiebreaks:  # 202: the tie-breaks in the order they ranked the players
        t.headers["202"] = [",".join(tiebreaks)]
    compact = t.time_control.replace(" ", "")
    if compact and ENCODED_TIME.fullmatch(compact):
        t.headers["222"] = [compact]


def _refuse_other_formats(book: Path) -> None:
    """A file that is no .xlsx zip refused in one line naming it and what it is: a .xls
    (to be saved as .xlsx), an encrypted workbook, an old Office document."""
    import zipfile

    from xlrecalc import not_a_zip

    if book.is_file() and not zipfile.is_zipfile(book):
        raise RatingError(str(not_a_zip(book, f"book: {str(book)!r}")))


def default_output(book: Path) -> Path:
    """The TRF file beside the workbook: its stem with ``.trf``.

    >>> default_output(Path("events/open.xlsx")).as_posix()
    'events/open.trf'
    """
    return Path(book).with_suffix(".trf")


@dataclass
class ExportSummary:
    """What :func:`export_trf` did."""

    book: Path
    output: Path
    check: Path
    trf_format: str
    layout: str
    players: int
    rated: int
    rounds: int
    issues: list[Issue]
    ranks: str = ""  # whose ranks were written, where the workbook was made from a TRF file

    def lines(self, max_shown: int = 50) -> list[str]:
        out = [f"written: {self.output} ({self.trf_format.upper()}, {self.layout})",
               f"players: {self.players} ({self.rated} rated), rounds: {self.rounds}"]
        if self.ranks:
            out.append(f"ranks: {self.ranks}")
        out.append(f"pre-flight check: {len(self.issues)} problem(s), listed in {self.check}")
        out += [f"  {i}" for i in self.issues[:max_shown]]
        if len(self.issues) > max_shown:
            out.append(f"  ... and {len(self.issues) - max_shown} more")
        return out


def export_trf(book: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
               trf_format: str = "trf16") -> ExportSummary:
    """Write the TRF file of the FIDE workbook ``book`` and its pre-flight check.

    ``output`` defaults to :func:`default_output`; it may not be the workbook. Both
    files are written beside their places and renamed when whole; a workbook that
    cannot be read, or a value that does not fit its TRF columns, raises
    :class:`RatingError` and touches neither file.
    """
    from xlrecalc import draft_path, same_file
    from .codec import write_trf
    from .outputs import refuse_inputs, replace_together, written

    if trf_format not in FORMATS:
        raise RatingError(f"format: {trf_format!r} is not one of {', '.join(FORMATS)}")
    book = Path(book)
    target = default_output(book) if output is None else Path(output)
    if same_file(book, target) or target.suffix.lower() in (".xlsx", ".xlsm"):
        raise RatingError(f"output: {str(target)!r} would overwrite a workbook; name a .trf file")
    check = preflight_output(target)
    refuse_inputs([book], [target, check])  # the check's name may be the workbook's own
    if not target.parent.is_dir():
        raise RatingError(f"output: the folder {str(target.parent)!r} does not exist")
    _refuse_other_formats(book)
    read = workbook_tournament(read_book_view(book))
    t = read.tournament
    if not t.players:
        raise RatingError(f"book: {str(book)!r} has no players (no names in the crosstable)")
    issues = preflight(read, trf_format=trf_format)
    ranked(read, trf_format)
    from_file, ranks_note = file_ranks_stand(read)
    if trf_format == "trf26":
        codes = [read.file_tiebreaks] if from_file and read.file_tiebreaks else \
            [] if from_file else read.tiebreaks if read.ranks else []
        _trf26_headers(t, codes)
    text = write_trf(t)  # raises for a value that does not fit its columns: nothing written
    # both written whole beside their places, then replaced together (the check first:
    # the file most often held open), or neither
    with draft_path(check) as drafted_check, draft_path(target) as drafted_trf:
        with written(check):
            write_check(issues, drafted_check, book)
        with written(target):
            drafted_trf.write_bytes(text.encode("utf-8"))
        replace_together([(drafted_check, check), (drafted_trf, target)])
    return ExportSummary(book, target, check, trf_format, read.layout, len(t.players),
                         sum(1 for p in t.players if p.rating), t.rounds, issues, ranks_note)


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Write the FIDE tournament report (TRF) of a filled FIDE workbook (the round-robin or
Swiss template filled by hand, or a workbook made by import-trf): the header records
(name, city, federation, dates, numbers of players and rated players, type, arbiters,
time control, round dates) from the Crosstable's Event cell and the Report sheet, and
one 001 line per player with each round's opponent, colour and result.

Before writing, a pre-flight check lists what a rating officer would return: a player
without FIDE ID lacking birth date or sex, missing round dates, time control or other
mandatory header fields, results whose two sides disagree, a finished round's game
without a result on either row, a player paired twice in a round, two players who
played each other twice in a Swiss, a colour that is not W or B, points that do not
equal the sum of the results. The list is printed and written as the sheet 'Pre-flight'
of OUT-preflight.xlsx beside the TRF file.

A workbook made by import-trf gives back the file's ranks while its Rank column ranks as
it did when made (sheet 'File ranks'); the summary says whose ranks were written.
"""
EPILOG = ("Exit code 0: written, no problem found; 1: written, with the problems listed; "
          "2: nothing written (the reason on one line).")


def add_subcommand(sub: Any) -> None:
    """Register ``export-trf`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("export-trf", help="write the FIDE rating report (TRF) of a filled workbook",
                            description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the filled FIDE workbook")
    parser.add_argument("-o", "--output", metavar="OUT.trf",
                        help="the TRF file to write (default: BOOK's name with .trf, beside it)")
    parser.add_argument("--format", dest="trf_format", choices=FORMATS, default="trf16",
                        help="trf16 (FIDE C.04 Annex 2, default) or trf26 (TRF-2026)")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``export-trf``; prints the summary and the check, returns the exit code."""
    summary = export_trf(args.book, args.output, trf_format=args.trf_format)
    for line in summary.lines():
        print(line)
    return 1 if summary.issues else 0

