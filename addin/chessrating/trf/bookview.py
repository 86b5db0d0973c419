"""A filled FIDE workbook as ``export-trf``, ``fide-list --fill`` and ``pair`` read it (and
the US Chess workbook as ``export-uscf`` does: :mod:`chessrating.uscf_report.workbook`).

The workbook is read once (openpyxl, read-only, the values the file holds: the inputs
and each formula's cached value) and its cells are found through the workbook names the
templates define (``Names``, ``Ratings``, ``FideIds``, ``RatingList`` … see
:mod:`chessrating.workbooks.report`), so a row or a column moved by a later template
is still found. The crosstable's player columns (No., Name, Title, Fed, Rating, Rated
games, Birth year, Peak, K list, K) stand left of the games, in the order the templates
write them (:mod:`chessrating.workbooks.fide`).
"""

from __future__ import annotations

import datetime as _dt
import re
import warnings
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RatingError

__all__ = ["BookView", "read_book_view", "Cell", "CROSSTABLE_COLUMNS"]

Cell = tuple[str, int, int]  # sheet, row, column (1-based, as Excel counts)
# Crosstable columns (1-based) of the player inputs, as the FIDE templates write them.
CROSSTABLE_COLUMNS = {"No.": 1, "Name": 2, "Title": 3, "Fed": 4, "Rating": 5, "Rated games": 6,
                      "Birth year": 7, "Peak": 8, "K list": 9, "K": 10}
_REF = re.compile(r"^=?'?(?P<sheet>[^'!]+)'?!\$?(?P<c1>[A-Z]{1,3})\$?(?P<r1>\d+)"
                  r"(?::\$?(?P<c2>[A-Z]{1,3})\$?(?P<r2>\d+))?$")


def _col(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


@dataclass
class BookView:
    """The values of a workbook by sheet and (row, column), and its names' cells."""

    path: Path
    values: dict[str, dict[tuple[int, int], Any]]
    names: dict[str, list[Cell]] = field(default_factory=dict)
    max_col: dict[str, int] = field(default_factory=dict)

    def value(self, sheet: str, row: int, col: int) -> Any:
        """The value of a cell; ``None`` when empty."""
        value = self.values.get(sheet, {}).get((row, col))
        return None if value == "" else value

    def named(self, name: str) -> list[Any]:
        """The values of a named range, row by row."""
        return [self.value(*c) for c in self.names.get(name, [])]

    def one(self, name: str) -> Any:
        """The value of a one-cell name (``None`` when the name is missing or empty)."""
        cells = self.names.get(name)
        return self.value(*cells[0]) if cells else None

    def has(self, name: str) -> bool:
        return name in self.names

    def text(self, name: str) -> str:
        value = self.one(name)
        return "" if value is None else _text(value)


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (_dt.datetime, _dt.date)):
        return f"{value:%Y/%m/%d}"
    return str(value).strip()


def _cells(text: str) -> list[Cell] | None:
    found = _REF.match(text.strip())
    if not found:
        return None
    sheet = found["sheet"]
    c1, r1 = _col(found["c1"]), int(found["r1"])
    c2, r2 = (_col(found["c2"]), int(found["r2"])) if found["c2"] else (c1, r1)
    return [(sheet, r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def read_book_view(path: str | Path, names: Collection[str] | None = None) -> BookView:
    """The values and named cells of the workbook at ``path``; with ``names``, only the
    values of the sheets those names point into (every name's cells are still known)."""
    import openpyxl

    path = Path(path)
    if not path.is_file():
        raise RatingError(f"book: {str(path)!r} does not exist" if not path.exists()
                          else f"book: {str(path)!r} is not a file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            workbook = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    except Exception as error:  # openpyxl raises many kinds for a file that is not a workbook
        reason = (str(error).splitlines() or [error.__class__.__name__])[0][:120]
        raise RatingError(f"book: {str(path)!r} cannot be read as an .xlsx workbook ({reason})") from None
    try:
        found: dict[str, list[Cell]] = {}
        for name, defined in workbook.defined_names.items():
            cells_named = _cells(defined.attr_text or "")
            if cells_named is not None:
                found[name] = cells_named
        wanted = None if names is None else {c[0] for n in names for c in found.get(n, [])[:1]}
        values: dict[str, dict[tuple[int, int], Any]] = {}
        widths: dict[str, int] = {}
        for sheet in workbook.worksheets:
            if wanted is not None and sheet.title not in wanted:
                continue
            cells: dict[tuple[int, int], Any] = {}
            for row in sheet.iter_rows():
                for c in row:
                    value = getattr(c, "value", None)
                    if value is not None:
                        cells[(c.row, c.column)] = value
            values[sheet.title] = cells
            widths[sheet.title] = max((c for _, c in cells), default=0)
    finally:
        workbook.close()
    return BookView(path, values, found, widths)
