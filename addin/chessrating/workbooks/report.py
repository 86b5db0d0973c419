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

On paper (:mod:`.print_areas`): a template prints the event's fields, the round dates and
the players entered; a round robin's round numbers show the rounds its players play
(blank past them) and end the columns printed.

>>> REPORT_FIELDS[0], [name for _, name, _ in REPORT_FIELDS][-1]
(('City', 'ReportCity', 'text'), 'RatingList')
"""

from __future__ import annotations

import datetime as _dt

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..tournament import Player, Tournament
from .layout import CROSSTABLE, Styles, column, print_setup, span, write_input, write_quiet_formula, write_text_input
from .print_areas import print_entered

__all__ = ["REPORT", "REPORT_FIELDS", "PLAYER_FIELDS", "write_report_sheet", "report_value",
           "game_rounds", "RATING_LISTS", "FIRST_FIELD_ROW", "ROUND_ROW", "PLAYER_HEADER_ROW"]

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


def report_value(tournament: Tournament, name: str) -> object:
    """The value of the event's cell with workbook name ``name``, read from ``tournament``;
    the rating list, which a tournament report does not name, is ``standard``.

    >>> t = Tournament(city="Linares", deputy_arbiters=["Pérez, A", "Ruiz, B"])
    >>> report_value(t, "ReportCity"), report_value(t, "ReportDeputies"), report_value(t, "RatingList")
    ('Linares', 'Pérez, A; Ruiz, B', 'standard')
    """
    return {"ReportCity": tournament.city, "ReportFederation": tournament.federation,
            "ReportStart": tournament.start_date, "ReportEnd": tournament.end_date,
            "ReportType": tournament.type, "ReportArbiter": tournament.chief_arbiter,
            "ReportDeputies": "; ".join(tournament.deputy_arbiters),
            "ReportTimeControl": tournament.time_control, "RatingList": RATING_LISTS[0]}[name]


def game_rounds(tournament: Tournament) -> dict[tuple[int, int], str]:
    """(player, opponent) -> the round they met and the player's colour, e.g. ``"3W"``
    (a pair that met twice: the later game).

    >>> from chessrating.tournament import RoundGame
    >>> game_rounds(Tournament(players=[Player(1, games=[RoundGame(1, None, None, "H"),
    ...                                                  RoundGame(2, 4, "b", "1")])]))
    {(1, 4): '2B'}
    """
    return {(p.number, g.opponent): f"{g.round}{(g.colour or '').upper()}"
            for p in tournament.players for g in p.games if g.opponent is not None}


def _date(sheet: object, row: int, col: int, value: _dt.date | None, fmt: object) -> None:
    if value is None:
        sheet.write_blank(row, col, None, fmt)  # type: ignore[attr-defined]
    else:
        sheet.write_datetime(row, col, _dt.datetime(value.year, value.month, value.day), fmt)  # type: ignore[attr-defined]


def write_report_sheet(book: Workbook, st: Styles, first: int, players: int, rounds: int,
                       tournament: Tournament | None = None, *, round_robin: bool = False,
                       columns: int = 5) -> None:
    """The Report sheet for ``players`` crosstable rows from zero-based row ``first`` and
    ``rounds`` rounds, filled from ``tournament``'s header fields and players (blank
    without one); a ``round_robin`` also gets the grid of each game's round and colour
    (:func:`write_game_rounds`). ``columns`` is how many columns the sheet prints at the
    least (a Swiss adds its pairing inputs beside these: :mod:`.pairing_settings`)."""
    event = tournament or Tournament()
    sheet = book.add_worksheet(REPORT)
    date_fmt, text_fmt = _input_formats(book)
    _write_heading(sheet, st)
    _write_event_fields(book, sheet, st, event, date_fmt)
    last_round = _write_round_dates(book, sheet, st, rounds, event, date_fmt, round_robin)
    last = _write_players(book, sheet, st, first, players, event, text_fmt)
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 4, 12)
    sheet.set_column(5, max(last_round, players + 1 if round_robin else 0), 11)
    sheet.freeze_panes(PLAYER_HEADER_ROW + 1, 0)
    if round_robin:
        write_game_rounds(book, sheet, st, last + 3, players, game_rounds(event))
    # On paper: the fields, the round dates, the players and a round robin's grid of
    # rounds; across pages the labels and numbers of column A repeat. A template prints
    # the players entered (their names, copied from the crosstable, mark the rows) and
    # leaves the grid of rounds, sized for every player it takes, to the screen: the
    # Schedule sheet prints the same rounds and colours for the players entered.
    last_row = last + 5 + players if round_robin else last
    last_col = max(columns - 1, last_round, players if round_robin else 0)
    print_setup(sheet, 0, last_row, last_col, title_columns=(0, 0))
    # a round robin's rounds follow the players entered (the round numbers shown), and
    # so do the columns printed
    across = f"{REPORT}!{span(ROUND_ROW, 1, ROUND_ROW, last_round, fixed=True)}" if round_robin else None
    print_entered(book, sheet, REPORT, columns - 1 if round_robin else max(columns - 1, last_round),
                  PLAYER_HEADER_ROW + 1, f"{REPORT}!{span(PLAYER_HEADER_ROW + 1, 1, last, 1, fixed=True)}", across)


def _input_formats(book: Workbook) -> tuple[Format, Format]:
    """The input formats of the sheet's own: a date, and text kept as typed."""
    date_fmt = book.add_format({"num_format": "yyyy/mm/dd", "align": "center", "border": 1,
                                "border_color": "#BFBFBF", "bg_color": "#FFF2CC",
                                "font_color": "#1F4E9E"})
    text_fmt = book.add_format({"num_format": "@", "align": "center", "border": 1,
                                "border_color": "#BFBFBF", "bg_color": "#FFF2CC",
                                "font_color": "#1F4E9E"})
    return date_fmt, text_fmt


def _write_heading(sheet: Worksheet, st: Styles) -> None:
    """The title, the note and the event's name copied from the crosstable."""
    sheet.write_string(0, 0, "FIDE rating report", st.title)
    sheet.write_string(1, 0, "What the FIDE Tournament Report File needs beyond the crosstable "
                             "(chessrating export-trf). Yellow cells are inputs.", st.note)
    sheet.write_string(FIRST_FIELD_ROW - 1, 0, "Tournament", st.label)
    write_quiet_formula(sheet, FIRST_FIELD_ROW - 1, 1, f'=IF({CROSSTABLE}!$B$2="","",{CROSSTABLE}!$B$2)',
                        st.formula_text)


def _write_event_fields(book: Workbook, sheet: Worksheet, st: Styles, event: Tournament,
                        date_fmt: Format) -> None:
    """One named input per :data:`REPORT_FIELDS` row, with its data validation."""
    for i, (label, name, kind) in enumerate(REPORT_FIELDS):
        r = FIRST_FIELD_ROW + i
        sheet.write_string(r, 0, label, st.label)
        value = report_value(event, name)
        if kind == "date":
            _date(sheet, r, 1, value, date_fmt)  # type: ignore[arg-type]
        else:
            write_text_input(sheet, r, 1, value, st.input_text)
        _validate_field(sheet, r, label, kind)
        book.define_name(name, f"={REPORT}!${column(1)}${r + 1}")


def _validate_field(sheet: Worksheet, r: int, label: str, kind: str) -> None:
    """The data validation of the event's field in row ``r``, by its kind."""
    if kind == "date":
        sheet.data_validation(r, 1, r, 1, {
            "validate": "date", "criteria": "between", "minimum": _dt.date(1900, 1, 1),
            "maximum": _dt.date(2200, 12, 31), "input_title": label,
            "input_message": "A date, e.g. 2026/09/01"})
    elif kind == "federation":
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


def _write_round_dates(book: Workbook, sheet: Worksheet, st: Styles, rounds: int,
                       event: Tournament, date_fmt: Format, round_robin: bool = False) -> int:
    """The row of round numbers and the named row ``RoundDates`` below it; returns the
    last round's column. A round robin shows the numbers of the rounds the players
    entered play (the Schedule sheet's ``BergerTable`` less one), blank past them."""
    sheet.write_string(ROUND_ROW, 0, "Round", st.label)
    sheet.write_string(ROUND_ROW + 1, 0, "Date", st.label)
    dates = list(event.round_dates)
    for rnd in range(max(rounds, 1)):
        if round_robin:
            write_quiet_formula(sheet, ROUND_ROW, 1 + rnd, f'=IF({rnd + 1}<BergerTable,{rnd + 1},"")', st.header)
        else:
            sheet.write_number(ROUND_ROW, 1 + rnd, rnd + 1, st.header)
        _date(sheet, ROUND_ROW + 1, 1 + rnd, dates[rnd] if rnd < len(dates) else None, date_fmt)
    last_round = max(rounds, 1)
    sheet.data_validation(ROUND_ROW + 1, 1, ROUND_ROW + 1, last_round, {
        "validate": "date", "criteria": "between", "minimum": _dt.date(1900, 1, 1),
        "maximum": _dt.date(2200, 12, 31), "input_title": "Round date",
        "input_message": "The date the round was played (TRF record 132)"})
    book.define_name("RoundDates", f"={REPORT}!$B${ROUND_ROW + 2}:${column(last_round)}${ROUND_ROW + 2}")
    return last_round


def _write_players(book: Workbook, sheet: Worksheet, st: Styles, first: int, players: int,
                   event: Tournament, text_fmt: Format) -> int:
    """A row per crosstable row (the name copied from it) with the player's FIDE ID, sex
    and birth date, named :data:`PLAYER_FIELDS`; returns the last row."""
    headers = ("No.", "Name", *(label for label, _ in PLAYER_FIELDS))
    for c, text in enumerate(headers):
        sheet.write_string(PLAYER_HEADER_ROW, c, text, st.header)
    top = PLAYER_HEADER_ROW + 1
    by_number = {p.number: p for p in event.players}
    for i in range(players):
        r, source = top + i, first + i + 1
        p: Player | None = by_number.get(i + 1)
        sheet.write_number(r, 0, i + 1, st.header)
        write_quiet_formula(sheet, r, 1, f'=IF({CROSSTABLE}!$B${source}="","",{CROSSTABLE}!$B${source})',
                            st.formula_text)
        write_input(sheet, r, 2, p.fide_id if p else None, st.input_int)
        write_text_input(sheet, r, 3, p.sex if p else "", st.input_result)
        write_text_input(sheet, r, 4, p.birth_date if p else "", text_fmt)
    last = top + max(players, 1) - 1
    _validate_players(sheet, top, last)
    for c, (_, name) in enumerate(PLAYER_FIELDS, start=2):
        book.define_name(name, f"={REPORT}!${column(c)}${top + 1}:${column(c)}${last + 1}")
    return last


def _validate_players(sheet: Worksheet, top: int, last: int) -> None:
    """FIDE ID, sex and birth date of the player rows ``top`` to ``last``."""
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


def write_game_rounds(book: Workbook, sheet: object, st: Styles, top: int, players: int,
                      games: dict[tuple[int, int], str]) -> None:
    """A round robin's grid from zero-based row ``top``: in row i, column j, the round in
    which player i met player j and i's colour (``3W``, ``3B``), workbook name
    ``GameRounds``. The crosstable holds only results; the report needs rounds and
    colours. A pair in ``games`` (a TRF file's rounds) is written as its value, every
    other cell as the FIDE Berger table for the players entered
    (:func:`.schedule.berger_formula`); a director may type over a cell."""
    from .schedule import berger_formula

    ws = sheet  # an XlsxWriter worksheet
    ws.write_string(top, 0, "Round and colour of each game", st.label)  # type: ignore[attr-defined]
    ws.write_string(top + 1, 0, "Row player against column player: round and the row player's "  # type: ignore[attr-defined]
                                "colour, e.g. 3W: the FIDE Berger table for the players entered "
                                "(Schedule sheet); type over a cell for another round.", st.note)
    header = top + 2
    for j in range(players):
        ws.write_number(header, 1 + j, j + 1, st.header)  # type: ignore[attr-defined]
    for i in range(players):
        r = header + 1 + i
        ws.write_number(r, 0, i + 1, st.header)  # type: ignore[attr-defined]
        for j in range(players):
            given = games.get((i + 1, j + 1), "")
            if i == j:
                ws.write_blank(r, 1 + j, None, st.diagonal)  # type: ignore[attr-defined]
            elif given:
                write_text_input(ws, r, 1 + j, given, st.input_result)  # type: ignore[arg-type]
            else:
                write_quiet_formula(ws, r, 1 + j, berger_formula(i + 1, j + 1), st.input_result)  # type: ignore[arg-type]
    ws.data_validation(header + 1, 1, header + players, players, {  # type: ignore[attr-defined]
        "validate": "length", "criteria": "<=", "value": 4, "input_title": "Round and colour",
        "input_message": "The round the two met and the row player's colour: 3W or 3B"})
    book.define_name("GameRounds", f"={REPORT}!$B${header + 2}:${column(players)}${header + players + 1}")
