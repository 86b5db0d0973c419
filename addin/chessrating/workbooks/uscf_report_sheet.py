"""The ``Report`` sheet of the US Chess template: what the US Chess rating report needs
beyond the crosstable.

``chessrating export-uscf`` writes the three dBASE tables US Chess rates from
(:mod:`chessrating.uscf_report`; ``docs/USCF-DBF.md``). The crosstable gives the event's
name, the players' names, ratings and every round; this sheet the rest: the sponsoring
affiliate's ID, the chief and assistant chief TD's US Chess IDs, city, state, ZIP code,
country, first and last day, time control, the section's name and its rating system
(``R`` regular, ``D`` dual, ``Q`` quick), and per player (the rows of the crosstable, in
the same order) the US Chess ID and state. Every one is an input with data validation;
``import-trf --system uscf`` fills what a TRF file holds of them (:func:`uscf_report_info`).

The cells carry workbook names, which the export reads: ``ReportAffiliate``,
``ReportChiefTd``, ``ReportAssistantTd``, ``ReportCity``, ``ReportState``,
``ReportZip``, ``ReportCountry``, ``ReportStart``, ``ReportEnd``,
``ReportTimeControl``, ``ReportSection``, ``ReportRatingSystem`` (one cell each),
``UscfIds`` and ``PlayerStates`` (one column each, a cell per player row). City, dates
and time control share their names with the FIDE templates' Report sheet.

**Decision**: IDs and ZIP codes are text cells, so a ZIP code such as ``02134`` keeps its
leading zero; the rating system starts blank, so the export's pre-flight check asks for
it rather than a quick event being reported as a regular one by default.

>>> [name for _, name, _ in USCF_REPORT_FIELDS][:3]
['ReportAffiliate', 'ReportChiefTd', 'ReportAssistantTd']
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..uscf_report.layout import RATING_SYSTEMS, US_STATES, ReportInfo
from .layout import CROSSTABLE, Styles, column, print_setup, span, write_quiet_formula, write_text_input
from .print_areas import print_entered

if TYPE_CHECKING:
    from ..tournament import Tournament

__all__ = ["USCF_REPORT_FIELDS", "USCF_PLAYER_FIELDS", "RATING_SYSTEM_CHOICES",
           "uscf_report_info", "write_uscf_report_sheet",
           "FIRST_FIELD_ROW", "PLAYER_HEADER_ROW"]

REPORT = "Report"
# (label, workbook name, kind) of the event's cells, in rows from FIRST_FIELD_ROW.
USCF_REPORT_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("Affiliate ID (A and 7 digits)", "ReportAffiliate", "affiliate"),
    ("Chief TD's US Chess ID", "ReportChiefTd", "id"),
    ("Assistant TD's ID (optional)", "ReportAssistantTd", "id"),
    ("City", "ReportCity", "text"),
    ("State", "ReportState", "state"),
    ("ZIP code", "ReportZip", "zip"),
    ("Country", "ReportCountry", "text"),
    ("Start date", "ReportStart", "date"),
    ("End date", "ReportEnd", "date"),
    ("Time control (e.g. G/90;d5)", "ReportTimeControl", "text"),
    ("Section name", "ReportSection", "text"),
    ("Rating system", "ReportRatingSystem", "system"),
)
USCF_PLAYER_FIELDS = (("US Chess ID", "UscfIds"), ("State", "PlayerStates"))
RATING_SYSTEM_CHOICES = tuple(RATING_SYSTEMS)
# The event's cells the tournament model holds (the export reads them back into it).
_FROM_TOURNAMENT = {"ReportCity": "city", "ReportStart": "start_date", "ReportEnd": "end_date",
                    "ReportTimeControl": "time_control"}
# The widths of the report's fields (docs/USCF-DBF.md): nothing is cut short to fit.
_TEXT_WIDTHS = {"ReportCity": 21, "ReportCountry": 21, "ReportTimeControl": 40, "ReportSection": 30}
FIRST_FIELD_ROW = 3          # zero-based: Excel row 4; row 3 shows the event's name
PLAYER_HEADER_ROW = FIRST_FIELD_ROW + len(USCF_REPORT_FIELDS) + 1
_MESSAGES = {
    "affiliate": "The sponsoring affiliate's ID: A and seven digits, e.g. A1234567",
    "id": "A US Chess ID: eight digits",
    "state": "The state's two-letter code, e.g. NV",
    "zip": "The ZIP code of the site, e.g. 89501 or 89501-1234",
    "text": "Text written to the report as entered",
    "system": "R regular, D dual (regular and quick: 30 to 65 minutes), Q quick",
}


def uscf_report_info(tournament: "Tournament | None") -> ReportInfo:
    """What a tournament read from a TRF file holds of the Report sheet, beyond what the
    :class:`Tournament` itself gives (city, dates and time control: 022, 042, 052, 122).

    The country from the federation (032) when one is given; each player's US Chess ID
    and state from a TRF-2026 national record of the ``USA`` federation
    (:mod:`chessrating.trf.national`). Affiliate, TDs' IDs, section and rating system are
    in no TRF record: left blank.
    """
    from ..trf.national import national_records

    if tournament is None:
        return ReportInfo(rating_system="")
    records = national_records(tournament, "USA")
    return ReportInfo(
        country=tournament.federation.upper() or "USA", rating_system="",
        member_ids={n: r.national_id for n, r in records.items()
                    if r.national_id.isdigit() and len(r.national_id) == 8},
        player_states={n: r.origin for n, r in records.items() if r.origin in US_STATES})


def _field_value(name: str, t: "Tournament | None", info: ReportInfo) -> object:
    """The value of the event's cell with workbook name ``name``."""
    if name in _FROM_TOURNAMENT:
        return getattr(t, _FROM_TOURNAMENT[name]) if t is not None else None
    return {"ReportAffiliate": info.affiliate_id, "ReportChiefTd": info.chief_td_id,
            "ReportAssistantTd": info.assistant_td_id, "ReportState": info.state,
            "ReportZip": info.zip_code, "ReportCountry": info.country,
            "ReportSection": info.section_name, "ReportRatingSystem": info.rating_system}[name]


def _date(sheet: Worksheet, row: int, col: int, value: object, fmt: object) -> None:
    if isinstance(value, _dt.date):
        sheet.write_datetime(row, col, _dt.datetime(value.year, value.month, value.day), fmt)
    else:
        sheet.write_blank(row, col, None, fmt)


def _validate_field(sheet: Worksheet, r: int, label: str, name: str, kind: str) -> None:
    message = {"input_title": label, "input_message": _MESSAGES.get(kind, "")}
    if kind == "date":
        sheet.data_validation(r, 1, r, 1, {
            "validate": "date", "criteria": "between", "minimum": _dt.date(1900, 1, 1),
            "maximum": _dt.date(2200, 12, 31), "input_title": label, "input_message": "A date, e.g. 2026/09/01"})
    elif kind == "system":
        sheet.data_validation(r, 1, r, 1, {"validate": "list", "source": list(RATING_SYSTEM_CHOICES), **message})
    elif kind == "state":
        sheet.data_validation(r, 1, r, 1, {"validate": "list", "source": list(US_STATES), **message})
    else:
        length = {"affiliate": ("==", 8), "id": ("==", 8), "zip": ("<=", 10)}.get(
            kind, ("<=", _TEXT_WIDTHS.get(name, 40)))
        sheet.data_validation(r, 1, r, 1, {"validate": "length", "criteria": length[0], "value": length[1],
                                           **message})


def write_uscf_report_sheet(book: Workbook, st: Styles, first: int, players: int,
                            tournament: "Tournament | None" = None, info: ReportInfo | None = None) -> None:
    """The Report sheet for ``players`` crosstable rows from zero-based row ``first``,
    filled from ``tournament`` (city, dates, time control) and ``info`` (the rest, as
    ``export-uscf`` reads it back, :mod:`chessrating.uscf_report.workbook`)."""
    info = info or ReportInfo(rating_system="")
    sheet = book.add_worksheet(REPORT)
    entry = {"align": "center", "border": 1, "border_color": "#BFBFBF", "bg_color": "#FFF2CC",
             "font_color": "#1F4E9E"}
    date_fmt = book.add_format({"num_format": "yyyy/mm/dd", **entry})
    text_fmt = book.add_format({"num_format": "@", **entry})
    sheet.write_string(0, 0, "US Chess rating report", st.title)
    sheet.write_string(1, 0, "What the US Chess rating report needs beyond the crosstable "
                             "(chessrating export-uscf). Yellow cells are inputs.", st.note)
    sheet.write_string(FIRST_FIELD_ROW - 1, 0, "Event", st.label)
    write_quiet_formula(sheet, FIRST_FIELD_ROW - 1, 1, f'=IF({CROSSTABLE}!$B$2="","",{CROSSTABLE}!$B$2)',
                        st.formula_text)
    for i, (label, name, kind) in enumerate(USCF_REPORT_FIELDS):
        r = FIRST_FIELD_ROW + i
        sheet.write_string(r, 0, label, st.label)
        if kind == "date":
            _date(sheet, r, 1, _field_value(name, tournament, info), date_fmt)
        else:
            write_text_input(sheet, r, 1, _field_value(name, tournament, info) or "", text_fmt)
        _validate_field(sheet, r, label, name, kind)
        book.define_name(name, f"={REPORT}!${column(1)}${r + 1}")
    for c, text in enumerate(("No.", "Name", *(label for label, _ in USCF_PLAYER_FIELDS))):
        sheet.write_string(PLAYER_HEADER_ROW, c, text, st.header)
    top = PLAYER_HEADER_ROW + 1
    for i in range(players):
        r, source = top + i, first + i + 1
        sheet.write_number(r, 0, i + 1, st.header)
        write_quiet_formula(sheet, r, 1, f'=IF({CROSSTABLE}!$B${source}="","",{CROSSTABLE}!$B${source})',
                            st.formula_text)
        write_text_input(sheet, r, 2, info.member_ids.get(i + 1, ""), text_fmt)
        write_text_input(sheet, r, 3, info.player_states.get(i + 1, ""), text_fmt)
    last = top + max(players, 1) - 1
    sheet.data_validation(top, 2, last, 2, {
        "validate": "length", "criteria": "==", "value": 8, "input_title": "US Chess ID",
        "input_message": "The player's US Chess ID: eight digits (the report needs one for every player)"})
    sheet.data_validation(top, 3, last, 3, {
        "validate": "list", "source": list(US_STATES), "input_title": "State",
        "input_message": "The player's state (optional: US Chess keeps the member record's)"})
    for c, (_, name) in enumerate(USCF_PLAYER_FIELDS, start=2):
        book.define_name(name, f"={REPORT}!${column(c)}${top + 1}:${column(c)}${last + 1}")
    sheet.set_column(0, 0, 34)
    sheet.set_column(1, 1, 24)
    sheet.set_column(2, 3, 12)
    sheet.freeze_panes(top, 0)
    print_setup(sheet, 0, last, 3, title_columns=(0, 0), landscape=False)  # four columns: a form
    # a template prints the players entered (their names, copied from the crosstable)
    print_entered(book, sheet, REPORT, 3, top, f"{REPORT}!{span(top, 1, last, 1, fixed=True)}")
