"""A filled FIDE workbook as ``export-trf``, ``fide-list --fill`` and ``pair`` read it (and
the US Chess workbook as ``export-uscf`` does: :mod:`chessrating.uscf_report.workbook`).

The workbook is read once (the values the file holds: the inputs and each formula's
cached value, as openpyxl reads them with ``data_only``; :mod:`.bookxml`) and its cells
are found through the workbook names the templates define (``Names``, ``Ratings``,
``FideIds``, ``RatingList`` … see :mod:`chessrating.workbooks.report`), so a row or a
column moved by a later template is still found. The crosstable's player columns (No.,
Name, Title, Fed, Rating, Rated games, Birth year, Peak, K list, K) stand left of the
games, in the order the templates write them (:mod:`chessrating.workbooks.fide`).

Only what the names point at is read, so a cell typed far away (``XFD1048576``) or a name
over a whole sheet costs nothing: the zip is checked first
(:func:`xlrecalc.archive.check_archive`: no member expands past its bounds), then only the
sheets a name points at are read, each down to the last row and across to the last
column a name reaches, at most :data:`MAX_ROWS` rows (a row per player: a TRF numbers at
most 9,999) and :data:`MAX_COLUMNS` columns (a 30-round Swiss crosstable has about 120),
the rows past them never parsed, at most :data:`MAX_CELLS` values (a 30-round crosstable
of 9,000 players) and :data:`MAX_NAMES` names. A name's cells are listed when a reader
asks for them, within what was read; a name of more than :data:`MAX_NAME_CELLS` cells (a
template's cover a row or a few columns per player) is refused, naming the workbook and
the name.
"""

from __future__ import annotations

import datetime as _dt
import re
import zipfile
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RatingError
from .bookxml import read_parts, shared_strings, sheet_values, value

__all__ = ["BookView", "read_book_view", "Cell", "CROSSTABLE_COLUMNS", "MAX_ROWS",
           "MAX_COLUMNS", "MAX_CELLS", "MAX_NAME_CELLS", "MAX_NAMES"]

Cell = tuple[str, int, int]  # sheet, row, column (1-based, as Excel counts)
# Crosstable columns (1-based) of the player inputs, as the FIDE templates write them.
CROSSTABLE_COLUMNS = {"No.": 1, "Name": 2, "Title": 3, "Fed": 4, "Rating": 5, "Rated games": 6,
                      "Birth year": 7, "Peak": 8, "K list": 9, "K": 10}
MAX_ROWS = 16_384
MAX_COLUMNS = 1_024
MAX_CELLS = 1_000_000
MAX_NAMES = 100_000
MAX_NAME_CELLS = 1 << 17
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
    names: Mapping[str, list[Cell]] = field(default_factory=dict)
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


Area = tuple[str, int, int, int, int]  # sheet, first row, first column, last row, last column


def _area(text: str) -> Area | None:
    """The rectangle a name's text refers to, ``None`` for anything else (a formula, a
    whole column, another workbook)."""
    found = _REF.match(text.strip())
    if not found:
        return None
    c1, r1 = _col(found["c1"]), int(found["r1"])
    c2, r2 = (_col(found["c2"]), int(found["r2"])) if found["c2"] else (c1, r1)
    return (found["sheet"], max(min(r1, r2), 1), max(min(c1, c2), 1), max(r1, r2), max(c1, c2))


class _Names(Mapping[str, list[Cell]]):
    """The workbook's names, each listed as its cells when first asked for, within the
    rows and columns read (``limits``: sheet -> last row, last column)."""

    def __init__(self, path: Path, areas: dict[str, Area], limits: dict[str, tuple[int, int]]) -> None:
        self.path, self.areas, self.limits = path, areas, limits
        self.listed: dict[str, list[Cell]] = {}

    def __getitem__(self, name: str) -> list[Cell]:
        if name not in self.listed:
            sheet, r1, c1, r2, c2 = self.areas[name]
            rows, cols = self.limits.get(sheet, (0, 0))
            if max(min(r2, rows) - r1 + 1, 0) * max(min(c2, cols) - c1 + 1, 0) > MAX_NAME_CELLS:
                size = (r2 - r1 + 1) * (c2 - c1 + 1)
                raise RatingError(f"book: {str(self.path)!r}: the name {name} covers {size:,} "
                                  f"cells of {sheet}; a FIDE template's names cover a row or a "
                                  f"few columns per player (at most {MAX_NAME_CELLS:,} cells)")
            self.listed[name] = [(sheet, r, c) for r in range(r1, min(r2, rows) + 1)
                                 for c in range(c1, min(c2, cols) + 1)]
        return self.listed[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.areas)

    def __len__(self) -> int:
        return len(self.areas)


def _limits(areas: dict[str, Area]) -> dict[str, tuple[int, int]]:
    """The rows and columns read of each sheet a name points at."""
    limits: dict[str, tuple[int, int]] = {}
    for sheet, _, _, r2, c2 in areas.values():
        rows, cols = limits.get(sheet, (0, 0))
        limits[sheet] = (min(max(rows, r2), MAX_ROWS), min(max(cols, c2), MAX_COLUMNS))
    return limits


def _archive(path: Path) -> zipfile.ZipFile:
    """The workbook's zip, opened once it is known to be sound and bounded."""
    from xlrecalc import RecalcError, check_archive, not_a_zip

    if not path.is_file():
        raise RatingError(f"book: {str(path)!r} does not exist" if not path.exists()
                          else f"book: {str(path)!r} is not a file")
    try:
        if not zipfile.is_zipfile(path):
            raise not_a_zip(path, f"book: {str(path)!r}")
        check_archive(path, f"book: {str(path)!r}")
        return zipfile.ZipFile(path)
    except RecalcError as error:
        raise RatingError(str(error)) from None
    except (zipfile.BadZipFile, OSError) as error:
        raise RatingError(f"book: {str(path)!r} cannot be read as an .xlsx workbook ({error})") from None


def read_book_view(path: str | Path, names: Collection[str] | None = None) -> BookView:
    """The values and named cells of the workbook at ``path``; with ``names``, only the
    values of the sheets those names point into (every name's cells are still known)."""
    path = Path(path)
    shown = repr(str(path))
    with _archive(path) as archive:
        parts = read_parts(archive, shown)
        if len(parts.names) > MAX_NAMES:
            raise RatingError(f"book: {shown}: {len(parts.names):,} names; a FIDE template "
                              f"defines about 40 (at most {MAX_NAMES:,} are read)")
        areas = {name: area for name, text in parts.names.items()
                 for area in [_area(text)] if area is not None}
        wanted = None if names is None else {areas[n][0] for n in names if n in areas}
        limits = {sheet: limit for sheet, limit in _limits(areas).items()
                  if sheet in parts.sheets and (wanted is None or sheet in wanted)}
        raw: dict[str, dict[tuple[int, int], tuple[str, str, int]]] = {}
        left = MAX_CELLS
        for sheet, (rows, cols) in limits.items():
            raw[sheet] = sheet_values(archive, parts.sheets[sheet], parts, rows, cols, left,
                                      f"book: {shown}: more than {MAX_CELLS:,} values where its "
                                      "names point; not a FIDE template")
            left -= len(raw[sheet])
        strings = shared_strings(archive, parts, {int(text) for cells in raw.values()
                                                  for kind, text, _ in cells.values()
                                                  if kind == "s" and text.strip().isdigit()})
    values = {sheet: {(r, c): value(kind, text, style, parts, strings, f"{sheet}!{_letters(c)}{r}")
                      for (r, c), (kind, text, style) in cells.items()}
              for sheet, cells in raw.items()}
    return BookView(path, values, _Names(path, areas, limits),
                    {sheet: cols for sheet, (_, cols) in limits.items()})


def _letters(col: int) -> str:
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
