"""The ``Report`` sheet of the FIDE templates: what the FIDE rating report needs beyond
the crosstable.

``chessrating export-trf`` writes the FIDE Tournament Report File (TRF16 or TRF26) from
a filled workbook; the crosstable gives names, titles, federations, ratings, birth years
and the games, this sheet the rest (FIDE Handbook C.04 Annex 2, records 022–132 and the
``001`` fields): city, federation, start and end date, type, chief and deputy arbiters,
time control, the rating list the event is rated on (standard, rapid, blitz: the rating
``fide-list --fill`` writes), the date of each round, and per player (the rows of the
crosstable, in the same order) FIDE ID, sex and birth date. Every one is an input
with data validation; ``import-trf`` fills them from the file.

The cells carry workbook names, which the export and the fill read: ``ReportCity``,
``ReportFederation``, ``ReportStart``, ``ReportEnd``, ``ReportType``,
``ReportArbiter``, ``ReportDeputies`` (several separated by ``;``),
``ReportTimeControl``, ``RatingList``, ``RoundDates`` (one row, a cell per round),
``FideIds``, ``Sexes`` and ``BirthDates`` (one column each, a cell per player row).

**Decision**: the birth date is text as TRF writes it (``1990/05/17``, or a year alone,
or ``1990/00/00``), so it goes back to the report as the arbiter wrote it; the
crosstable's Birth year (which K reads) is its own input, and the export's pre-flight
check names a row whose two disagree. Dates of the event and of the rounds are dates.

>>> REPORT_FIELDS[0], [name for _, name, _ in REPORT_FIELDS][-1]
(('City', 'ReportCity', 'text'), 'RatingList')
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xlsxwriter.workbook import Workbook

from .layout import CROSSTABLE, Styles, column, print_setup, write_input, write_quiet_formula, write_text_input

__all__ = ["REPORT", "REPORT_FIELDS", "PLAYER_FIELDS", "ReportInputs", "PlayerReport",
           "write_report_sheet", "RATING_LISTS", "report_inputs", "FIRST_FIELD_ROW",
           "ROUND_ROW", "PLAYER_HEADER_ROW"]

REPORT = "Report"
RATING_LISTS = ("standard", "rapid", "blitz")
# (label, workbook name, kind) of the event's cells, in rows from FIRST_FIELD_ROW.
REPORT_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("City", "ReportCity", "text"),
    ("Federation", "ReportFederation", "federation"),
    ("Start date", "ReportStart", "date"),
    ("End date", "ReportEnd", "date"),
    ("Type", "ReportType", "text"),
    ("Chief arbiter", "ReportArbiter", "text"),
    ("Deputy arbiters (separated by ;)", "ReportDeputies", "text"),
    ("Time control (e.g. 5400+30)", "ReportTimeControl", "text"),
    ("Rating list", "RatingList", "list"),
)
PLAYER_FIELDS = (("FIDE ID", "FideIds"), ("Sex", "Sexes"), ("Birth date", "BirthDates"))
FIRST_FIELD_ROW = 3          # zero-based: Excel row 4 holds the event's name
ROUND_ROW = FIRST_FIELD_ROW + len(REPORT_FIELDS) + 2
PLAYER_HEADER_ROW = ROUND_ROW + 3
# FIDE IDs have at most 11 digits (TRF columns 58-68, "including 3 digits reserve").
MAX_FIDE_ID = 99_999_999_999


@dataclass(frozen=True)
class PlayerReport:
    """One player's report inputs."""

    fide_id: int | None = None
    sex: str = ""
    birth_date: str = ""


@dataclass
class ReportInputs:
    """The Report sheet's inputs: the event's fields and each starting number's player."""

    city: str = ""
    federation: str = ""
    start_date: _dt.date | None = None
    end_date: _dt.date | None = None
    type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: Sequence[str] = ()
    time_control: str = ""
    rating_list: str = "standard"
    round_dates: Sequence[_dt.date | None] = ()
    players: Mapping[int, PlayerReport] = field(default_factory=dict)
    # (player, opponent) -> "3W": the round they met and the player's colour
    games: Mapping[tuple[int, int], str] = field(default_factory=dict)

    def value(self, name: str) -> object:
        """The value of the event's cell with workbook name ``name``."""
        return {"ReportCity": self.city, "ReportFederation": self.federation,
                "ReportStart": self.start_date, "ReportEnd": self.end_date,
                "ReportType": self.type, "ReportArbiter": self.chief_arbiter,
                "ReportDeputies": "; ".join(self.deputy_arbiters),
                "ReportTimeControl": self.time_control, "RatingList": self.rating_list}[name]


def report_inputs(tournament: object | None) -> ReportInputs:
    """The Report inputs of a :class:`chessrating.tournament.Tournament` (empty for None)."""
    if tournament is None:
        return ReportInputs()
    t = tournament
    return ReportInputs(
        city=t.city, federation=t.federation, start_date=t.start_date,  # type: ignore[attr-defined]
        end_date=t.end_date, type=t.type, chief_arbiter=t.chief_arbiter,  # type: ignore[attr-defined]
        deputy_arbiters=list(t.deputy_arbiters), time_control=t.time_control,  # type: ignore[attr-defined]
        round_dates=list(t.round_dates),  # type: ignore[attr-defined]
        players={p.number: PlayerReport(p.fide_id, p.sex, p.birth_date)
                 for p in t.players},  # type: ignore[attr-defined]
        games={(p.number, g.opponent): f"{g.round}{(g.colour or '').upper()}"
               for p in t.players for g in p.games if g.opponent is not None})  # type: ignore[attr-defined]


def _date(sheet: object, row: int, col: int, value: _dt.date | None, fmt: object) -> None:
    if value is None:
        sheet.write_blank(row, col, None, fmt)  # type: ignore[attr-defined]
    else:
        sheet.write_datetime(row, col, _dt.datetime(value.year, value.month, value.day), fmt)  # type: ignore[attr-defined]


def write_report_sheet(book: Workbook, st: Styles, first: int, players: int, rounds: int,
                       inputs: ReportInputs | None = None, *, round_robin: bool = False) -> None:
    """The Report sheet for ``players`` crosstable rows from zero-based row ``first`` and
    ``rounds`` rounds, filled from ``inputs``; a ``round_robin`` also gets the grid of
    each game's round and colour (:func:`write_game_rounds`)."""
    inputs = inputs or ReportInputs()
    sheet = book.add_worksheet(REPORT)
    date_fmt = book.add_format({"num_format": "yyyy/mm/dd", "align": "center", "border": 1,
                                "border_color": "#BFBFBF", "bg_color": "#FFF2CC",
                                "font_color": "#1F4E9E"})
    text_fmt = book.add_format({"num_format": "@", "align": "center", "border": 1,
                                "border_color": "#BFBFBF", "bg_color": "#FFF2CC",
                                "font_color": "#1F4E9E"})
    sheet.write_string(0, 0, "FIDE rating report", st.title)
    sheet.write_string(1, 0, "What the FIDE Tournament Report File needs beyond the crosstable "
                             "(chessrating export-trf). Yellow cells are inputs.", st.note)
    sheet.write_string(FIRST_FIELD_ROW - 1, 0, "Tournament", st.label)
    write_quiet_formula(sheet, FIRST_FIELD_ROW - 1, 1, f'=IF({CROSSTABLE}!$B$2="","",{CROSSTABLE}!$B$2)',
                        st.formula_text)
    for i, (label, name, kind) in enumerate(REPORT_FIELDS):
        r = FIRST_FIELD_ROW + i
        sheet.write_string(r, 0, label, st.label)
        value = inputs.value(name)
        if kind == "date":
            _date(sheet, r, 1, value, date_fmt)  # type: ignore[arg-type]
            sheet.data_validation(r, 1, r, 1, {
                "validate": "date", "criteria": "between", "minimum": _dt.date(1900, 1, 1),
                "maximum": _dt.date(2200, 12, 31), "input_title": label,
                "input_message": "A date, e.g. 2026/09/01"})
        else:
            write_text_input(sheet, r, 1, value, st.input_text)
        if kind == "federation":
            sheet.data_validation(r, 1, r, 1, {
                "validate": "length", "criteria": "==", "value": 3, "input_title": label,
                "input_message": "The federation's three-letter FIDE code, e.g. GER"})
        elif kind == "list":
            sheet.data_validation(r, 1, r, 1, {
                "validate": "list", "source": list(RATING_LISTS), "input_title": label,
                "input_message": "The rating the event is rated on: fide-list --fill writes "
                                 "this rating and its K"})
        elif kind == "text":
            sheet.data_validation(r, 1, r, 1, {
                "validate": "length", "criteria": "<=", "value": 80, "input_title": label,
                "input_message": "Text written to the report as entered"})
        book.define_name(name, f"={REPORT}!${column(1)}${r + 1}")
    sheet.write_string(ROUND_ROW, 0, "Round", st.label)
    sheet.write_string(ROUND_ROW + 1, 0, "Date", st.label)
    dates = list(inputs.round_dates)
    for rnd in range(max(rounds, 1)):
        sheet.write_number(ROUND_ROW, 1 + rnd, rnd + 1, st.header)
        _date(sheet, ROUND_ROW + 1, 1 + rnd, dates[rnd] if rnd < len(dates) else None, date_fmt)
    last_round = max(rounds, 1)
    sheet.data_validation(ROUND_ROW + 1, 1, ROUND_ROW + 1, last_round, {
        "validate": "date", "criteria": "between", "minimum": _dt.date(1900, 1, 1),
        "maximum": _dt.date(2200, 12, 31), "input_title": "Round date",
        "input_message": "The date the round was played (TRF record 132)"})
    book.define_name("RoundDates", f"={REPORT}!$B${ROUND_ROW + 2}:${column(last_round)}${ROUND_ROW + 2}")
    headers = ("No.", "Name", *(label for label, _ in PLAYER_FIELDS))
    for c, text in enumerate(headers):
        sheet.write_string(PLAYER_HEADER_ROW, c, text, st.header)
    top = PLAYER_HEADER_ROW + 1
    for i in range(players):
        r, source = top + i, first + i + 1
        p = inputs.players.get(i + 1, PlayerReport())
        sheet.write_number(r, 0, i + 1, st.header)
        write_quiet_formula(sheet, r, 1, f'=IF({CROSSTABLE}!$B${source}="","",{CROSSTABLE}!$B${source})',
                            st.formula_text)
        write_input(sheet, r, 2, p.fide_id, st.input_int)
        write_text_input(sheet, r, 3, p.sex, st.input_result)
        write_text_input(sheet, r, 4, p.birth_date, text_fmt)
    last = top + max(players, 1) - 1
    sheet.data_validation(top, 2, last, 2, {
        "validate": "integer", "criteria": "between", "minimum": 1, "maximum": MAX_FIDE_ID,
        "input_title": "FIDE ID", "input_message": "The player's FIDE ID (fide-list --fill reads "
                                                   "the list for it); blank for a player without one"})
    sheet.data_validation(top, 3, last, 3, {
        "validate": "list", "source": ["m", "w"], "input_title": "Sex",
        "input_message": "m or w; needed for a player without FIDE ID"})
    sheet.data_validation(top, 4, last, 4, {
        "validate": "length", "criteria": "<=", "value": 10, "input_title": "Birth date",
        "input_message": "YYYY/MM/DD as text (or the year alone); needed for a player without "
                         "FIDE ID"})
    for c, (_, name) in enumerate(PLAYER_FIELDS, start=2):
        book.define_name(name, f"={REPORT}!${column(c)}${top + 1}:${column(c)}${last + 1}")
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 4, 12)
    sheet.set_column(5, max(last_round, players + 1 if round_robin else 0), 11)
    sheet.freeze_panes(top, 0)
    if round_robin:
        write_game_rounds(book, sheet, st, last + 3, players, inputs)
    # On paper: the fields, the round dates, the players and a round robin's grid of
    # rounds; across pages the labels and numbers of column A repeat.
    last_row = last + 5 + players if round_robin else last
    last_col = max(4, last_round, players if round_robin else 0)
    print_setup(sheet, 0, last_row, last_col, title_columns=(0, 0))


def write_game_rounds(book: Workbook, sheet: object, st: Styles, top: int, players: int,
                      inputs: ReportInputs) -> None:
    """A round robin's grid from zero-based row ``top``: in row i, column j, the round in
    which player i met player j and i's colour (``3W``, ``3B``), workbook name
    ``GameRounds``. The crosstable holds only results; the report needs rounds and
    colours. Blank cells are read as the FIDE Berger tables give them (the export says
    so)."""
    ws = sheet  # an XlsxWriter worksheet
    ws.write_string(top, 0, "Round and colour of each game", st.label)  # type: ignore[attr-defined]
    ws.write_string(top + 1, 0, "Row player against column player: round and the row player's "  # type: ignore[attr-defined]
                                "colour, e.g. 3W. Blank: the FIDE Berger tables.", st.note)
    header = top + 2
    for j in range(players):
        ws.write_number(header, 1 + j, j + 1, st.header)  # type: ignore[attr-defined]
    for i in range(players):
        r = header + 1 + i
        ws.write_number(r, 0, i + 1, st.header)  # type: ignore[attr-defined]
        for j in range(players):
            if i == j:
                ws.write_blank(r, 1 + j, None, st.diagonal)  # type: ignore[attr-defined]
            else:
                write_text_input(ws, r, 1 + j, inputs.games.get((i + 1, j + 1), ""), st.input_result)  # type: ignore[arg-type]
    first_cell, last_cell = (header + 1, 1), (header + players, players)
    ws.data_validation(first_cell[0], 1, last_cell[0], players, {  # type: ignore[attr-defined]
        "validate": "length", "criteria": "<=", "value": 4, "input_title": "Round and colour",
        "input_message": "The round the two met and the row player's colour: 3W or 3B"})
    book.define_name("GameRounds", f"={REPORT}!$B${header + 2}:${column(players)}${header + players + 1}")
