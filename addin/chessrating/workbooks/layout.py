"""Shared pieces of the template workbooks: styles, cell addresses, the common sheets.

Every template is written with XlsxWriter (it can store a formula's cached value, which
openpyxl cannot) and looks the same way: yellow input cells with blue text, white
formula cells, blue headers, a ``How to use`` sheet and the ``xlwings.conf`` sheet that
points classic xlwings at :mod:`chessrating.udfs`.

Builds are deterministic: the document properties carry a fixed creation date and
XlsxWriter stamps every zip member with the same date, so building twice gives the same
bytes.

The formulas that read an entry and say why it cannot be read (result points, checked
opponent numbers and colours, ``check …`` messages) are in :mod:`.check_formulas`.

>>> cell(4, 9), span(4, 9, 4, 28), absolute(4, 4)
('J5', 'J5:AC5', '$E$5')
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .. import checks
from ..how_to import CLASSIC_SETUP, LINE_HEIGHT, paragraph_height
from .writer import EvaluatedWorkbook, FormulaWorksheet, column_name

__all__ = [
    "CREATED", "UDF_MODULE", "SCRIPT_MODULE", "RESULT_CHOICES", "SWISS_RESULT_CHOICES", "Styles",
    "new_workbook", "cell", "span", "absolute", "column", "write_conf_sheet",
    "write_how_to_sheet", "write_input", "write_text_input", "write_result",
    "write_quiet_formula", "print_setup", "print_scale", "print_width", "reason_rows",
    "MIN_PRINT_SCALE", "PAPER_A4", "PAPER_LETTER", "TWO_LINES", "THREE_LINES", "fixed_column",
    "HOW_TO_WIDTH", "CLASSIC_SETUP", "paragraph_height", "opponent_rules", "CROSSTABLE", "GAMES", "validate_ratings",
    "define_standings", "validate_range", "RATING_RANGE", "FormulaWorksheet",
]

# Sheet names shared by the templates: the crosstable the arbiter fills and, in the
# round-based ones, the sheet of what the formulas read.
CROSSTABLE = "Crosstable"
GAMES = "Games"

# A fixed creation date keeps the document properties, and so the bytes, stable.
CREATED = _dt.datetime(2025, 10, 1, 0, 0, 0)
UDF_MODULE = "chessrating.udfs"
# The module of the scripts ("Pair next round"), which Import Functions writes as macros.
SCRIPT_MODULE = "chessrating.scripts"

# Results offered by the validation lists. They are text so that Excel never turns a
# typed 1/2 into a date; picking 1 or 0 still enters a number, which the functions and
# COUNTIF read alike.
RESULT_CHOICES = ("1", "½", "0", "+", "-")
SWISS_RESULT_CHOICES = ("1", "½", "0", "+", "-", "H", "B", "U", "Z")

_BLUE_HEADER = "#DDEBF7"
_INPUT_FILL = "#FFF2CC"
_INPUT_FONT = "#1F4E9E"
_BORDER = "#BFBFBF"


def cell(row: int, col: int) -> str:
    """A1 address of a zero-based (row, column).

    >>> cell(4, 0), cell(0, 27)
    ('A5', 'AB1')
    """
    return f"{column_name(col)}{row + 1}"


def absolute(row: int, col: int) -> str:
    """``$A$1`` address of a zero-based (row, column)."""
    return f"${column_name(col)}${row + 1}"


def fixed_column(row: int, col: int) -> str:
    """``$A1`` address of a zero-based (row, column): the column fixed, the row moving
    with the formula, so a formula reading its own row's cell is the same when copied."""
    return f"${column_name(col)}{row + 1}"


def span(first_row: int, first_col: int, last_row: int, last_col: int, fixed: bool = False) -> str:
    """A1 range between two zero-based corners, absolute when ``fixed``."""
    if fixed:
        return f"{absolute(first_row, first_col)}:{absolute(last_row, last_col)}"
    return f"{cell(first_row, first_col)}:{cell(last_row, last_col)}"


def column(col: int) -> str:
    """Column letters of a zero-based column."""
    return column_name(col)


@dataclass
class Styles:
    """The formats of one workbook (XlsxWriter formats belong to the workbook that made them)."""

    title: Format
    subtitle: Format
    note: Format
    note_wrap: Format
    header: Format
    header_left: Format
    label: Format
    input_text: Format
    input_int: Format
    input_result: Format
    input_number: Format
    formula_text: Format
    formula_int: Format
    formula_one: Format
    formula_two: Format
    formula_signed: Format
    formula_points: Format
    formula_general: Format
    diagonal: Format
    warning: Format
    mirror_warning: Format
    read_ok: Format
    formula_int_reason: Format
    wrap: Format
    assumed: Format

    @classmethod
    def of(cls, book: Workbook) -> "Styles":
        def fmt(**props: Any) -> Format:
            return book.add_format(props)

        box = {"border": 1, "border_color": _BORDER, "valign": "vcenter"}
        entry = {**box, "bg_color": _INPUT_FILL, "font_color": _INPUT_FONT}
        # Text formula cells (Norm, Check) wrap within their three-line rows. A number cell
        # that shows a reason instead does not: the reason is cut at the cell's edge
        # rather than drawn over the rows above and below on paper (LibreOffice and PDF
        # converters keep row heights); the row's Check cell names its first problem.
        result = {**box, "bg_color": "#FFFFFF"}
        return cls(
            title=fmt(bold=True, font_size=14),
            subtitle=fmt(bold=True, font_size=11, font_color="#1F3864"),
            note=fmt(italic=True, font_color="#595959", text_wrap=False),
            note_wrap=fmt(italic=True, font_color="#595959", text_wrap=True, valign="top"),
            header=fmt(bold=True, bg_color=_BLUE_HEADER, align="center", text_wrap=True, **box),
            header_left=fmt(bold=True, bg_color=_BLUE_HEADER, text_wrap=True, **box),
            label=fmt(bold=True),
            input_text=fmt(**entry),
            input_int=fmt(num_format="0", align="center", **entry),
            input_result=fmt(align="center", **entry),
            input_number=fmt(num_format="0.0#", align="center", **entry),
            formula_text=fmt(text_wrap=True, **result),
            formula_int=fmt(num_format="0", align="center", **result),
            formula_one=fmt(num_format="0.0", align="center", **result),
            formula_two=fmt(num_format="0.00", align="center", **result),
            formula_signed=fmt(num_format="+0.0;-0.0;0.0", align="center", **result),
            formula_points=fmt(num_format="0.0", align="center", bold=True, **result),
            # a tie-break as its value is: 14.5, 9.75, 3
            formula_general=fmt(num_format="General", align="center", **result),
            diagonal=fmt(bg_color="#A6A6A6", pattern=1, **box),
            warning=fmt(font_color="#9C0006"),
            mirror_warning=fmt(bg_color="#FFC7CE", font_color="#9C0006"),
            # An input check that read the input shows "ok" whatever number it holds.
            read_ok=fmt(num_format='"ok";"ok";"ok"', **result),
            # a whole number, or a text (the reason there is none, told in Check) as a pointer
            formula_int_reason=fmt(num_format='0;-0;0;"→ Check"', align="center", **result),
            wrap=fmt(text_wrap=True, valign="top"),
            assumed=fmt(italic=True, font_color="#C65911", bg_color="#FCE4D6"),
        )


# A function call's name with its parenthesis, as XlsxWriter's formula rewrites match them.
def new_workbook(path: Path, title: str, subject: str) -> tuple[Workbook, Styles]:
    """An XlsxWriter workbook with fixed document properties and this module's styles."""
    book = EvaluatedWorkbook(str(path), {"strings_to_numbers": False, "strings_to_formulas": False})
    book.worksheet_class = FormulaWorksheet
    # Excel keeps the cached values of a file saved by a current Excel (calcId 191029, no
    # fullCalcOnLoad); XlsxWriter's default orders a full recalculation on open, which
    # shows #NAME? wherever the functions are not loaded yet.
    book.set_calc_mode("auto", calc_id=191029)
    book.calc_on_load = False
    book.set_properties({
        "title": title,
        "subject": subject,
        "author": "chessrating",
        "company": "chessrating",
        "keywords": "chess, rating, Elo, FIDE, US Chess",
        "comments": "Built by chessrating; the formulas call the chessrating Excel functions.",
        "created": CREATED,
    })
    return book, Styles.of(book)


def write_input(sheet: Worksheet, row: int, col: int, value: Any, fmt: Format) -> None:
    """An input cell: a number, or a blank that keeps the input look."""
    if value is None or value == "":
        sheet.write_blank(row, col, None, fmt)
    elif isinstance(value, bool):
        sheet.write_boolean(row, col, value, fmt)
    elif isinstance(value, (int, float)):
        sheet.write_number(row, col, value, fmt)
    else:
        sheet.write_string(row, col, str(value), fmt)


def write_text_input(sheet: Worksheet, row: int, col: int, value: Any, fmt: Format) -> None:
    """A text input cell; text is written as text, so ``=cmd`` or ``+1`` never becomes a formula."""
    if value is None or value == "":
        sheet.write_blank(row, col, None, fmt)
    else:
        sheet.write_string(row, col, str(value), fmt)


def write_result(sheet: Worksheet, row: int, col: int, value: Any, fmt: Format) -> None:
    """A result cell as Excel would hold it after picking from the list: 1 and 0 as numbers."""
    text = "" if value is None else str(value).strip()
    if text in ("1", "0"):
        sheet.write_number(row, col, int(text), fmt)
    elif text in ("0.5", "=", "1/2"):
        sheet.write_string(row, col, "½", fmt)
    else:
        write_text_input(sheet, row, col, text, fmt)


def write_quiet_formula(sheet: Worksheet, row: int, col: int, formula: str, fmt: Format) -> None:
    """A formula whose cached value starts empty; the evaluator fills in the real value.
    (XlsxWriter's public ``write_formula`` only converts A1 arguments, which these are not.)"""
    sheet._write_formula(row, col, formula, fmt, "")


# Width of the How-to column (characters of the default font): fits a portrait A4 page
# within its margins even where a viewer's substitute font is wider (LibreOffice).
HOW_TO_WIDTH = 68


def write_conf_sheet(book: Workbook, styles: Styles, modules: str = UDF_MODULE) -> Worksheet:
    """The ``xlwings.conf`` sheet: keys in column A from A1, values in column B, no header.

    Classic xlwings reads it to find the functions' modules (``modules``, separated by
    ``;``); it stops at the first empty key, so the explanation stands below a gap.
    """
    sheet = book.add_worksheet("xlwings.conf")
    sheet.write_string(0, 0, "UDF Modules")
    sheet.write_string(0, 1, modules)
    # Wrapped over A:B so that it prints whole within the print area.
    sheet.merge_range(2, 0, 2, 1, "This sheet tells the classic xlwings add-in where the chess "
                                  "functions live (xlwings reads the keys above the first empty "
                                  "cell in column A).", styles.note_wrap)
    sheet.set_row(2, 4 * LINE_HEIGHT)
    sheet.set_column(0, 0, 18)
    sheet.set_column(1, 1, 22)
    print_setup(sheet, 0, 2, 1, landscape=False)
    return sheet


def write_how_to_sheet(book: Workbook, styles: Styles, heading: str, lines: list[str]) -> Worksheet:
    """A short ``How to use`` sheet: one paragraph per row, wrapped, each row as tall as
    its wrapped lines (viewers that do not fit row heights, LibreOffice and PDF
    converters, would otherwise overprint or cut the text)."""
    sheet = book.add_worksheet("How to use")
    sheet.set_column(0, 0, HOW_TO_WIDTH)
    sheet.write_string(0, 0, heading, styles.title)
    common = [
        "Yellow cells with blue text are inputs; white cells hold formulas. Empty rows stay "
        "empty: a game counts only once its result is entered.",
        CLASSIC_SETUP,
        "Without Excel, 'chessrating recalc FILE' evaluates every formula and stores the "
        "numbers in the file, so any viewer shows them.",
    ]
    paragraphs = lines + [""] + common
    for row, text in enumerate(paragraphs, start=2):
        if text:
            sheet.write_string(row, 0, text, styles.wrap)
            sheet.set_row(row, paragraph_height(text))
    sheet.hide_gridlines(2)
    print_setup(sheet, 0, 1 + len(paragraphs), 0, landscape=False)
    return sheet


# Printing. The body font is Calibri 11; a print scale of at least 64 % keeps it at
# 7 pt or more on paper, so a sheet is fitted to the page width only down to that scale.
# A wider sheet prints at that scale over several pages across, each repeating the
# header rows and the No. and Name columns. The scale is a number in the file rather
# than "fit to one page wide": a viewer whose substitute font is wider than Calibri
# (LibreOffice without Carlito) would fit it smaller than 7 pt.
MIN_PRINT_SCALE = 64
PAPER_A4, PAPER_LETTER = 9, 1
# Width and height of the paper in inches, portrait (XlsxWriter's paper codes).
PAPER_INCHES = {PAPER_A4: (210 / 25.4, 297 / 25.4), PAPER_LETTER: (8.5, 11.0)}
# Margins in inches: narrow at the sides for the width; the header and footer margin
# leaves the page footer its line.
MARGINS = {"left": 0.2, "right": 0.2, "top": 0.5, "bottom": 0.5}
HEADER_MARGIN = 0.2
# Row heights in points: a two-line header; a crosstable player row holds three lines of
# a wrapped reason (Norm, Check: about 100 characters), a line of Calibri 11 taking
# 13.4 points in LibreOffice (Carlito), 15 in Excel.
TWO_LINES = 30
THREE_LINES = 42
# A column's width is stored in characters of the body font's digit (XlsxWriter: 7
# pixels a character, 5 of padding). Excel prints a character as 7 pixels (5.25 pt);
# LibreOffice as the digit's true width in Calibri or Carlito 11 (1038/2048 em, 5.575 pt),
# 6 % wider: the page width is measured the wider way.
_POINTS_PER_CHARACTER = 1038 / 2048 * 11
_PIXELS_PER_CHARACTER = 7
_SLACK = 1.0


def print_width(sheet: Worksheet, last_col: int, first_col: int = 0) -> float:
    """Width in points at 100 % of the columns ``first_col``..``last_col`` (zero-based), as
    LibreOffice lays them out (the wider of it and Excel).

    >>> book = Workbook("unused.xlsx"); sheet = book.add_worksheet(); _ = sheet.set_column(0, 1, 10)
    >>> round(print_width(sheet, 1), 1), round(print_width(sheet, 2), 1)
    (119.5, 170.4)
    """
    pixels = sum(sheet._size_col(col) for col in range(first_col, last_col + 1))
    return pixels / _PIXELS_PER_CHARACTER * _POINTS_PER_CHARACTER


def print_scale(width: float, landscape: bool = True, paper: int = PAPER_A4) -> int:
    """Print scale in percent that fits ``width`` points (at 100 %) to the page width of
    ``paper`` within :data:`MARGINS`: at most 100, at least :data:`MIN_PRINT_SCALE`.

    >>> print_scale(500), print_scale(1000), print_scale(1200), print_scale(5000)
    (100, 81, 67, 64)
    >>> print_scale(1000, paper=PAPER_LETTER), print_scale(400, landscape=False)
    (76, 100)
    """
    short, long = PAPER_INCHES[paper]
    across = (long if landscape else short) - MARGINS["left"] - MARGINS["right"]
    fits = int(100 * across * 72 * _SLACK / width) if width > 0 else 100
    return max(MIN_PRINT_SCALE, min(100, fits))


def print_setup(sheet: Worksheet, first_row: int, last_row: int, last_col: int,
                title_rows: tuple[int, int] | None = None, landscape: bool = True,
                title_columns: tuple[int, int] | None = None, scale: int | None = None) -> None:
    """Print rows ``first_row``..``last_row`` of columns A..``last_col`` on A4 at the scale
    of :func:`print_scale` (the page width, body text 7 pt or more) or at ``scale``,
    repeating the header rows ``title_rows`` on every page down and the columns
    ``title_columns`` (No., Name) on every page across.

    A sheet that repeats its columns is one a row of which may run over several pages
    across (a crosstable, the Games sheet): it prints across, then down, so that the
    pages of the same players follow each other (the pages of players 1-19, then of
    20-38), rather than the left halves of every player first."""
    if landscape:
        sheet.set_landscape()
    else:
        sheet.set_portrait()
    sheet.set_paper(PAPER_A4)  # FIDE's world; Letter keeps the scale (README, Printing)
    sheet.set_margins(**MARGINS)
    sheet.print_area(first_row, 0, last_row, last_col)
    sheet.set_print_scale(scale or print_scale(print_width(sheet, last_col), landscape))
    if title_rows is not None:
        sheet.repeat_rows(*title_rows)
    if title_columns is not None:
        sheet.repeat_columns(*title_columns)
        sheet.print_across()
    sheet.set_header("", {"margin": HEADER_MARGIN})
    sheet.set_footer("&L&A&RPage &P of &N", {"margin": HEADER_MARGIN})


def reason_rows(sheet: Worksheet, first: int, last: int) -> None:
    """Rows ``first``..``last`` (zero-based) three lines high, so that a reason wrapped in a
    text column (Norm, Check) prints inside its cell: LibreOffice and PDF converters keep a
    row's height as the file gives it and would draw a longer text over the next row."""
    for row in range(first, last + 1):
        sheet.set_row(row, THREE_LINES)


# Ratings the functions accept (chessrating.checks: US Chess floors at 100; engine lists
# reach the 3600s).
RATING_RANGE = (int(checks.RATING.low), int(checks.RATING.high))


def validate_ratings(sheet: Worksheet, first: int, last: int, col: int, what: str = "Rating") -> None:
    """A rating column: a whole number from 100 to 4000, or blank, 0 or ``-`` for no
    rating (a custom rule: Excel's whole-number rule would refuse ``-``)."""
    top = cell(first, col)
    low, high = RATING_RANGE
    sheet.data_validation(first, col, last, col, {
        "validate": "custom",
        "value": f'=OR({top}=0,{top}="-",AND(ISNUMBER({top}),{top}=INT({top}),'
                 f'{top}>={low},{top}<={high}))',
        "input_title": what, "input_message": f"A whole number from {low} to {high}; "
                                              "blank, 0 or - for no rating.",
        "error_title": what, "error_message": f"{what}: a whole number from {low} to {high}, "
                                              "or blank, 0 or - for no rating."})


def validate_range(sheet: Worksheet, first: int, last: int, col: int, domain: checks.Domain,
                   title: str, meaning: str) -> None:
    """An input column of numbers in ``domain`` (the functions' own range, from
    :mod:`chessrating.checks`; blank allowed), with messages that say what is allowed;
    ``meaning`` says what the number is."""
    low, high = (int(v) if float(v).is_integer() else v for v in (domain.low, domain.high))
    kind = "whole number" if domain.whole else "number"
    sheet.data_validation(first, col, last, col, {
        "validate": "integer" if domain.whole else "decimal", "criteria": "between",
        "minimum": low, "maximum": high,
        "input_title": title, "input_message": f"{meaning}: a {kind} from {low} to {high}.",
        "error_title": title, "error_message": f"{title}: a {kind} from {low} to {high} "
                                               f"({meaning}), or blank."})


def opponent_rules(sheet: Worksheet, first: int, last: int, columns: list[int], players: int,
                   warning: Format) -> None:
    """Opponent-number columns: validation (a whole number 1..``players``, not the row's own
    number, which column A holds) and a warning colour on a number that breaks the rule
    (typed before the validation, or pasted).

    One rule per column: each formula is relative to its column's first cell.
    """
    for col in columns:
        top = cell(first, col)
        own = f"$A{first + 1}"
        sheet.data_validation(first, col, last, col, {
            "validate": "custom",
            "value": f"=AND(ISNUMBER({top}),{top}>=1,{top}<={players},{top}=INT({top}),{top}<>{own})",
            "error_title": "Opponent",
            "error_message": f"The opponent's number: a whole number from 1 to {players}, not "
                             "the player's own; blank for a bye."})
        sheet.conditional_format(first, col, last, col, {
            "type": "formula", "format": warning,
            "criteria": f'=AND({top}<>"",OR(NOT(ISNUMBER({top})),{top}<1,{top}>{players},{top}={own}))'})


def define_standings(book: Workbook, names: Mapping[str, str], first: int, last: int,
                     totals: int, total_columns: Sequence[str]) -> None:
    """Workbook names (``names``: name -> column header) over the player rows of the
    crosstable, which ``chessrating recalc`` reads for the standings; ``Name`` is column
    B, every other header a column of ``total_columns`` from column ``totals``."""
    for name, header in names.items():
        col = 1 if header == "Name" else totals + total_columns.index(header)
        book.define_name(name, f"={CROSSTABLE}!{span(first, col, last, col, fixed=True)}")
