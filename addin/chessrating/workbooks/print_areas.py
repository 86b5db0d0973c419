"""Print areas that follow the entries: the sheets of a template print only the rows typed.

The Crosstable, Games, Pairings, Report, Schedule and Standings sheets are laid out for
the most players a template takes (200 in the Swiss). A fixed print area over all of them
prints dozens of empty pages for an eleven-player event. Each of these sheets therefore
carries its print area (the sheet's ``_xlnm.Print_Area`` name) as a formula::

    OFFSET(Sheet!$A$1,0,0,MAX(top,SUMPRODUCT(MAX((marks<>"")*ROW(marks)))),width)

the rows from the top down to the last row whose ``marks`` cell is not blank (a name in
the Crosstable's Name column or copied from it, a line of the Pairings or Standings sheet
that shows something), never fewer than the ``top`` heading rows. ``""`` from a formula
counts as blank, as ``<>""`` reads it. Where the columns that matter end at the right
edge, the width follows the entries too: ``MAX(least,SUMPRODUCT(MAX((across<>"")*
COLUMN(across))))``, out to the last cell of the row ``across`` not blank (the round
robin's Report: the numbers of the rounds its players play).

**Decision** (the width of the other sheets): a single rectangle cannot leave out columns
in its middle, and a print area of several rectangles prints each on pages of its own
(Excel and LibreOffice alike). So the Crosstable keeps every round (Swiss) or grid
(round robin) column the template has, the Points to Check columns being to the right of
them, and the Games sheet its blocks of every round. At the fixed scale of
:func:`.layout.print_setup` (64 %, body text 7 pt) the 20-player round robin's Crosstable
(1,514 pt wide at 100 %) takes two pages across: fitting it to one page wide would take
54 %, text 5.9 pt. A 10-player round robin made by ``import-trf`` or ``demo`` is sized to
its players and prints one page wide.

The sheets that run over several pages across repeat No. and Name and print across, then
down (:func:`.layout.print_setup`); the lists (Standings, Pairings, Schedule) and the US
Chess Report, a four-column form, print upright; the Schedule at 74 %, so that the 63
lines of a 10-player round robin fit one page.

**Decision** (who honours it): Excel evaluates a print area given as a formula when it
prints, in the desktop application (the classic add-in's route) as in Excel for the web
and Excel 365 (xlwings Lite's), which print a sheet's print area too; a print area
defined by ``OFFSET`` is the long-documented "dynamic print area" of Excel's Name Manager
(not tried here: no Excel at hand). LibreOffice (7.4 tried) does not: it reads no print
area from such a name and prints every row the sheet uses. So ``chessrating recalc``
writes into its output the fixed range each such formula gives at that moment
(:func:`chessrating.recalc.print_areas.fix_print_areas`): the copy a viewer or LibreOffice prints holds only the rows
entered, while the file typed into keeps the formula. A workbook made from a TRF file (or the
demo) is sized to its players and keeps fixed print areas over its rows (a round robin's
Report with its grid of rounds and colours, which a template leaves to the screen: the
Schedule sheet prints the same rounds for the players entered).

The formula is built and read back by :mod:`chessrating.recalc.print_areas`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..recalc.print_areas import ENTERED, print_area_formula

if TYPE_CHECKING:
    from xlsxwriter.workbook import Workbook
    from xlsxwriter.worksheet import Worksheet

__all__ = ["print_entered", "follow_entries", "names_marks"]


def names_marks(first: int, last: int) -> str:
    """The Crosstable's Name cells of rows ``first``..``last`` (zero-based): the marks of
    the sheets laid out row for row with it.

    >>> names_marks(4, 203)
    'Crosstable!$B$5:$B$204'
    """
    return f"Crosstable!$B${first + 1}:$B${last + 1}"


def print_entered(book: "Workbook", sheet: "Worksheet", name: str, last_col: int, top: int, marks: str,
                  across: str | None = None) -> None:
    """Keep under the workbook name ``PrintEntered<name>`` the print area of ``sheet``
    (called ``name``) that follows the entries (:func:`~chessrating.recalc.print_areas.
    print_area_formula`; ``across`` a row whose last cell not blank ends the columns
    printed), which ``recalc`` reads: openpyxl and LibreOffice drop a print area
    given as a formula when they save a file, but keep an ordinary name. The sheet's own
    print area becomes that formula only in a template (:func:`follow_entries`)."""
    formula = print_area_formula(name, last_col, top, marks, across)
    book.define_name(f"{ENTERED}{name}", f"={formula}")
    _FOLLOWING.setdefault(book, []).append((sheet, formula))


# The sheets of each workbook being built whose print area may follow the entries.
_FOLLOWING: "WeakKeyDictionary[Workbook, list[tuple[Worksheet, str]]]" = WeakKeyDictionary()


def follow_entries(book: "Workbook") -> None:
    """In a template (the rows empty, for a director to type into), make the print area of
    each sheet given to :func:`print_entered` its formula, in place of the fixed one
    :func:`.layout.print_setup` set (XlsxWriter writes a sheet's ``print_area_range`` as its
    ``_xlnm.Print_Area``). A workbook filled by code is sized to its players and keeps
    its fixed print areas, which every viewer honours."""
    for sheet, formula in _FOLLOWING.pop(book, []):
        sheet.print_area_range = formula
