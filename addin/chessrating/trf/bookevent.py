"""A filled FIDE workbook read into the tournament ``export-trf`` writes (:mod:`.export`).

Where things come from: the event's name is the crosstable's Event cell; city,
federation, dates, type, arbiters, time control and round dates the Report sheet's
(:mod:`chessrating.workbooks.report`); each player's number, name, title, federation,
rating and the games the crosstable's (:mod:`.bookgames`), FIDE ID, sex and birth date
the Report sheet's. A value that does not fit its TRF field is an issue
(:class:`.preflight.Issue`) and is not written.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from ..cells import whole_number
from ..errors import RatingError
from ..results import EXCEL_ERRORS
from ..tournament import TITLES, Player, Tournament
from .bookgames import cell_text, round_robin_games, swiss_games
from .bookview import BookView
from .celldates import birth_text, cell_address, cell_date
from .plaintext import one_line_noted
from .preflight import Issue, WorkbookEvent
from .ranks import read_file_ranks, read_ranking

__all__ = ["workbook_tournament"]

_FED = re.compile(r"[A-Z]{3}")


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
    t.name = cell_text(view.value(sheet, 2, 2))
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
        swiss_games(view, sheet, rows, name_col, read, numbers)
    else:
        round_robin_games(view, sheet, rows, name_col, read, numbers)
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
        name = cell_text(view.value(sheet, row, col))
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
    title = cell_text(view.value(sheet, row, col + 1)).upper()
    if title and title not in TITLES:
        issues.append(Issue(number, name, "Title", f"{title!r} is not a FIDE title; not written"))
        title = ""
    p.title = title
    fed = cell_text(view.value(sheet, row, col + 2)).upper()
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
    sex = cell_text(sex_value).lower()
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
