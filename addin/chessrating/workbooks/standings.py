"""The ``Standings`` sheet of every crosstable workbook: one line per player in rank order.

Columns (row 2 of the sheet, repeated on every printed page): ``Rank``, ``No.``, ``Name``,
``Title``, ``Fed``, ``Rating``, ``Points``, the four tie-break columns headed as the
Crosstable heads them (the code picked, or ``TB n`` while a slot is blank), ``Change``
and ``New rating`` (US Chess: no Title and Fed, which its crosstable does not hold;
``New rating`` is its ``Two passes``, the official rating). Every value is the
Crosstable's cell of that player, shown as the Crosstable shows it: a number, a text, a
``check …`` reason, or blank where the Crosstable cell is blank. Lines past the players
entered are blank (``""``).

**Decision** (how the lines are ordered): rank lookups with built-in functions of Excel
2007, not ``SORTBY``/``FILTER``. Those two exist only in Excel 2021 and 365 (the sheet
must work in Excel 2010 and in every viewer) and in LibreOffice only from 24.8, and their
results spill, which a file must declare as a dynamic array for each cell. Here each
player gets a unique place from two helper columns right of the printed ones (hidden):

* ``Key``: the player's rank where the Crosstable's Rank is a number; 100000 (after every
  rank) for a player entered without one yet (a name or points but no rank, or a
  ``check …`` reason); blank for an empty row;
* ``Place``: ``COUNTIF(keys, "<"&key) + COUNTIF(keys down to this row, key)``: the players
  ahead, then the players tied with this one up to this row, so a tie is broken by the
  starting number and every place 1, 2, 3 … is taken once.

Line k then finds its player with ``MATCH(k, places, 0)`` (the ``No.`` column) and every
other column reads that player's Crosstable cell with ``INDEX``. The helpers of line j
belong to the player of starting number j; the printed columns of line j to the player
in place j. Excel, LibreOffice and ``chessrating recalc`` evaluate these functions alike.

On paper: A4 portrait at 100 % (body text 11 pt), the title and header rows on every
page, the print area the lines entered (:mod:`.print_areas`): 40 players fit one page.

>>> [c.header for c in fide_columns(30)][:7]
['Rank', 'No.', 'Name', 'Title', 'Fed', 'Rating', 'Points']
>>> key_formula(40, 6, 30)
'=IF(ISNUMBER(Crosstable!$AO7),Crosstable!$AO7,IF(OR(Crosstable!$B7<>"",Crosstable!$AE7<>""),100000,""))'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .layout import CROSSTABLE, TWO_LINES, Styles, absolute, fixed_column, print_setup, span, write_quiet_formula
from .print_areas import print_entered
from .ranking import TIEBREAK_COLUMNS

__all__ = ["STANDINGS", "StandingsColumn", "write_standings_sheet", "fide_columns", "uscf_columns",
           "key_formula", "TOP", "UNRANKED", "TIEBREAK_WIDTH"]

STANDINGS = "Standings"
# Rows (zero-based): 0 the title and the event's name, 1 the headers, from 2 the lines.
_TITLE, _HEADER, TOP = 0, 1, 2
# Width of a US Chess tie-break column: its longest code, CUMULATIVE, on one line in bold
# (a header wraps only at spaces; a code has none).
TIEBREAK_WIDTH = 11
# The key of a player entered without a rank: after every rank a crosstable can give.
UNRANKED = 100000


@dataclass(frozen=True)
class StandingsColumn:
    """A printed column: its header (``None``: the Crosstable's header cell of ``col``, a
    tie-break's code), the Crosstable column it shows (``-1``: the line's own place, for
    No.), its number format (a :class:`Styles` attribute) and its width."""

    header: str | None
    col: int
    style: str
    width: float


def fide_columns(totals: int, total_columns: Sequence[str] = ()) -> list[StandingsColumn]:
    """The columns of a FIDE crosstable (round robin, Swiss) whose totals start at
    ``totals``, laid out as ``total_columns`` (default: :data:`.fide.TOTAL_COLUMNS`)."""
    from .fide import FED_COL, RATING_COL, TITLE_COL, TOTAL_COLUMNS
    names = tuple(total_columns) or TOTAL_COLUMNS
    return [
        StandingsColumn("Rank", totals + names.index("Rank"), "formula_int", 5),
        StandingsColumn("No.", -1, "formula_int", 4.5),
        StandingsColumn("Name", 1, "name", 24),
        StandingsColumn("Title", TITLE_COL, "formula_text", 4.5),
        StandingsColumn("Fed", FED_COL, "formula_text", 5),
        StandingsColumn("Rating", RATING_COL, "formula_int", 6.5),
        StandingsColumn("Points", totals + names.index("Points"), "formula_points", 6.5),
        *(StandingsColumn(None, totals + names.index(tb), "formula_general", 6.5) for tb in TIEBREAK_COLUMNS),
        StandingsColumn("Change", totals + names.index("Change"), "formula_signed", 7),
        StandingsColumn("New rating", totals + names.index("New rating"), "formula_int", 7),
    ]


def uscf_columns(totals: int, total_columns: Sequence[str], rating_col: int) -> list[StandingsColumn]:
    """The columns of the US Chess crosstable: no Title or Fed; ``New rating`` is Two passes."""
    return [
        StandingsColumn("Rank", totals + total_columns.index("Rank"), "formula_int", 5),
        StandingsColumn("No.", -1, "formula_int", 4.5),
        StandingsColumn("Name", 1, "name", 24),
        StandingsColumn("Rating", rating_col, "formula_int", 6.5),
        StandingsColumn("Points", totals + total_columns.index("Points"), "formula_points", 6.5),
        *(StandingsColumn(None, totals + total_columns.index(tb), "formula_general", TIEBREAK_WIDTH)
          for tb in TIEBREAK_COLUMNS),
        StandingsColumn("Change", totals + total_columns.index("Change"), "formula_signed", 7),
        StandingsColumn("New rating", totals + total_columns.index("Two passes"), "formula_int", 7),
    ]


def key_formula(rank_col: int, r: int, points_col: int) -> str:
    """Helper ``Key`` of the player in crosstable row ``r`` (zero-based): the rank, 100000
    for a player entered without one, blank for an empty row."""
    rank = f"{CROSSTABLE}!{fixed_column(r, rank_col)}"
    name = f"{CROSSTABLE}!{fixed_column(r, 1)}"
    points = f"{CROSSTABLE}!{fixed_column(r, points_col)}"
    return f'=IF(ISNUMBER({rank}),{rank},IF(OR({name}<>"",{points}<>""),{UNRANKED},""))'


def write_standings_sheet(book: Workbook, st: Styles, *, first: int, players: int, header_row: int,
                          columns: Sequence[StandingsColumn], points_col: int) -> Worksheet:
    """The Standings sheet of a crosstable whose ``players`` rows start at zero-based row
    ``first``; ``header_row`` is the Crosstable row of the tie-breaks' headers and
    ``points_col`` its Points column (a player with points is entered)."""
    sheet = book.add_worksheet(STANDINGS)
    name_format = book.add_format({"border": 1, "border_color": "#BFBFBF", "valign": "vcenter"})
    sheet.write_string(_TITLE, 0, "Standings", st.title)
    write_quiet_formula(sheet, _TITLE, 2, f'=IF({CROSSTABLE}!$B$2="","",{CROSSTABLE}!$B$2&"")', st.subtitle)
    rank_col = next(c.col for c in columns if c.header == "Rank")
    key_col, place_col = len(columns) + 1, len(columns) + 2
    last = TOP + players - 1
    keys = span(TOP, key_col, last, key_col, fixed=True)
    places = span(TOP, place_col, last, place_col, fixed=True)
    number_col = next(i for i, c in enumerate(columns) if c.col == -1)
    for i, spec in enumerate(columns):
        if spec.header is None:
            write_quiet_formula(sheet, _HEADER, i, f"={CROSSTABLE}!{absolute(header_row, spec.col)}", st.header)
        else:
            sheet.write_string(_HEADER, i, spec.header, st.header)
        sheet.set_column(i, i, spec.width)
    sheet.write_string(_HEADER, key_col, "Key", st.header)
    sheet.write_string(_HEADER, place_col, "Place", st.header)
    for j in range(players):
        row, r = TOP + j, first + j
        number = fixed_column(row, number_col)
        for i, spec in enumerate(columns):
            fmt = name_format if spec.style == "name" else getattr(st, spec.style)
            if spec.col == -1:  # the player in this place: the same formula on every line
                formula = f'=IFERROR(MATCH(ROW()-{TOP},{places},0),"")'
            else:
                source = f"{CROSSTABLE}!{span(first, spec.col, first + players - 1, spec.col, fixed=True)}"
                found = f"INDEX({source},{number})"
                formula = f'=IF({number}="","",IF({found}="","",{found}))'
            write_quiet_formula(sheet, row, i, formula, fmt)
        write_quiet_formula(sheet, row, key_col, key_formula(rank_col, r, points_col), st.formula_general)
        key = fixed_column(row, key_col)
        above = f"{absolute(TOP, key_col)}:{key}"
        write_quiet_formula(sheet, row, place_col,
                            f'=IF({key}="","",COUNTIF({keys},"<"&{key})+COUNTIF({above},{key}))', st.formula_int)
    sheet.set_column(key_col - 1, key_col - 1, 2)
    sheet.set_column(key_col, place_col, 7, None, {"hidden": True})
    sheet.set_row(_HEADER, TWO_LINES)
    sheet.freeze_panes(TOP, 0)
    print_setup(sheet, 0, last, len(columns) - 1, title_rows=(_TITLE, _HEADER), landscape=False)
    name_col = next(i for i, c in enumerate(columns) if c.header == "Name")
    print_entered(book, sheet, STANDINGS, len(columns) - 1, TOP, f"{STANDINGS}!{span(TOP, name_col, last, name_col, fixed=True)}")
    return sheet

